"""Players and tournaments: the club streams (`recorder.store.streams`) driven for a tournament director.

Every change is an event appended to a stream — the club's one player registry (`players`) or a tournament —
checked by its kind (`projections.clubs`) before it is stored; nothing is edited in place. What is read is
folded from them: the registry with its merges followed, a tournament's rounds, its standings, and the
ratings, which come from the finished matches' facts (the `match_facts` read model).

- **Results are taken, never typed.** A table's match is started from the table (`start_table`: the game,
  the seats in order, the tournament in its meta) or an existing match is assigned to it (its players must be
  the table's). `collect_results` appends a `result_taken` for every table whose match has finished, with
  the totals and winners the match's own scores give. Pairing the next round collects first.
- **The archive** (`archive` / `import_archive`) is one JSON Lines text: the tournament's events with their
  hashes, then its matches in the backup file's lines (recorder/log/backup.py), so another Scorebook stores
  every match under its own id and every hash, and the tournament's assignments still point at them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from projections.clubs import players as reg
from projections.clubs.pairings import check_by_hand, pair_next_round
from projections.clubs.players import ClubPlayer, Registry
from projections.clubs.ratings import GameRatings, ratings, results_from_facts
from projections.clubs.standings import Standing, standings
from projections.clubs.tournament import Tournament
from projections.clubs.tournament import to_json as tournament_to_json
from projections.corrections import requests
from projections.errors import IllegalEvent
from projections.stats import MatchFacts, distinct
from recorder.errors import BadRequest, Conflict, ImportRefused, Refused
from recorder.log.backup import backup_lines, read_backup
from recorder.log.file import NewEvent
from recorder.store.matches import EventStore
from recorder.store.streams import StreamNotFound, StreamStore

REGISTRY_ID = "players"  # the club's one player registry
ARCHIVE_HEADER = "scorebook_tournament"
ARCHIVE_VERSION = 1
RETRIES = 5  # a write that lost a race to another writer of the same stream is checked again and retried


class Matches(Protocol):
    """What the club reads and writes of the matches: the facade (`recorder.facade.Scorebook`) is one."""

    engine: Engine
    store: EventStore

    def facts(self, game: str | None = None) -> list[MatchFacts]: ...
    def scores(self, match_id: str, at: int | None = None) -> dict[str, Any]: ...
    def summary(self, match_id: str) -> dict[str, Any]: ...
    def events(self, match_id: str) -> list[dict[str, Any]]: ...
    def start_match(self, data: dict[str, Any], recorded_by: str = ..., event_id: str | None = None
                    ) -> dict[str, Any]: ...


class Clubs:
    """The club streams of one Scorebook: its registry, its tournaments, their standings and the ratings."""

    def __init__(self, sb: Matches) -> None:
        self.sb = sb
        self.streams = StreamStore(sb.engine, writer=sb.store.writer)  # its appends take their turns with the matches'
        self._ratings: tuple[Any, dict[str, GameRatings]] | None = None

    # -- writing ---------------------------------------------------------------------------------------

    def _write(self, stream_id: str, make: Callable[[Any], Sequence[NewEvent]], by: str,
               what: str = "") -> list[dict[str, Any]]:
        """Append what `make(state)` asks for after the stream's head (`make` may refuse with IllegalEvent:
        a 422 for the event `what`); on a race lost to another writer, read the new head and ask again (the
        kind checks every event against the state it is appended to)."""
        for _ in range(RETRIES):
            _, state, seq = self.streams.state(stream_id)
            try:
                events = make(state)
            except IllegalEvent as e:
                raise Refused(e.reason, seq + 1, what) from e
            if not events:
                return []
            try:
                stored, _ = self.streams.append(stream_id, events, seq, by)
                return stored
            except Conflict as e:
                if "current_seq" not in e.extra:
                    raise
        raise Conflict(f"stream {stream_id} is being written by others; try again")

    # -- the player registry ---------------------------------------------------------------------------

    def registry(self) -> Registry:
        try:
            _, state, _ = self.streams.state(REGISTRY_ID)
        except StreamNotFound:
            return Registry()
        return state  # type: ignore[no-any-return]

    def _registry_write(self, type: str, data: dict[str, Any], by: str) -> None:
        try:
            self.streams.state(REGISTRY_ID)
        except StreamNotFound:
            try:
                self.streams.create("players", {}, by, stream_id=REGISTRY_ID)
            except Conflict:
                pass  # another writer opened it first
        self._write(REGISTRY_ID, lambda _: [NewEvent(type, data)], by)

    def register_player(self, player: str, name: str, by: str, club: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"player": player, "name": name}
        if club:
            data["club"] = club
        self._registry_write("player_registered", data, by)
        return self._player_json(player)

    def rename_player(self, player: str, name: str, by: str) -> dict[str, Any]:
        self._registry_write("player_renamed", {"player": player, "name": name}, by)
        return self._player_json(player)

    def add_alias(self, player: str, alias: str, by: str) -> dict[str, Any]:
        self._registry_write("alias_added", {"player": player, "alias": alias}, by)
        return self._player_json(player)

    def merge_players(self, player: str, into: str, by: str) -> dict[str, Any]:
        self._registry_write("players_merged", {"player": player, "into": into}, by)
        return self._player_json(into)

    def club_players(self) -> list[ClubPlayer]:
        return reg.players(self.registry())

    def _player_json(self, player: str) -> dict[str, Any]:
        registry = self.registry()
        found = reg.player(registry, reg.canonical(registry, player))
        if found is None:
            raise PlayerNotFound(f"no player {player!r}")
        return found.to_json()

    def who(self, registry: Registry | None = None) -> Callable[[str, str], str]:
        """(a match's player id, their name) -> the registered player it is: the id's merges followed, or the
        player whose name or alias the name is (a free name registered later), else the id as it is."""
        state = registry if registry is not None else self.registry()

        def of(pid: str, name: str = "") -> str:
            if pid in state.entries:
                return reg.canonical(state, pid)
            found = reg.resolve(state, name) if name else None
            return found if found is not None else pid

        return of

    def player(self, player: str) -> dict[str, Any]:
        """A player's page: who they are (registered or only seen in matches), their matches newest first with
        their score and place, and their rating history in every game they have played."""
        state = self.registry()
        pid = reg.canonical(state, player)
        found = reg.player(state, pid)
        of = self.who(state)
        mine = [f for f in distinct(self.sb.facts()) if any(of(p, n) == pid for p, n in f.players)]
        if found is None and not mine:
            raise PlayerNotFound(f"no player {player!r}")
        names = [n for f in mine for p, n in f.players if of(p, n) == pid]
        matches = []
        for f in sorted(mine, key=lambda f: (f.date, f.match_id), reverse=True):
            seat = next(p for p, n in f.players if of(p, n) == pid)
            matches.append({"match_id": f.match_id, "game": f.game, "date": f.date, "finished": f.finished,
                            "score": f.totals.get(seat), "won": seat in f.winners,
                            "players": [{"id": p, "name": n, "score": f.totals.get(p)} for p, n in f.players]})
        history = {game: [h.to_json() for h in r.history.get(pid, ())]
                   for game, r in self.ratings().items() if pid in r.history}
        return {"player": found.to_json() if found else {"id": pid, "name": names[0] if names else pid, "club": None,
                                                          "aliases": [], "merged": [], "registered": False},
                "registered": found is not None, "matches": matches, "ratings": history}

    # -- ratings ---------------------------------------------------------------------------------------

    def ratings(self, game: str | None = None) -> dict[str, GameRatings]:
        """Every game's ratings (or one game's) over every finished match, each copy of a match counted once,
        players as the registry knows them. Kept until a match's facts or the registry change."""
        facts = self.sb.facts()
        state = self.registry()
        key = (tuple((f.match_id, f.events, f.finished) for f in facts), len(state.entries), len(state.merged),
               len(state.aliases))
        if self._ratings is None or self._ratings[0] != key:
            self._ratings = (key, ratings(results_from_facts(_registered_facts(distinct(facts), self.who(state)))))
        rated = self._ratings[1]
        return {g: r for g, r in rated.items() if game is None or g == game}

    # -- tournaments -----------------------------------------------------------------------------------

    def create_tournament(self, data: Mapping[str, Any], by: str, tournament_id: str | None = None) -> str:
        made = self.streams.create("tournament", dict(data), by, stream_id=tournament_id)
        return str(made["stream_id"])

    def tournaments(self) -> list[dict[str, Any]]:
        """Every tournament, newest first: id, name, game, format, rounds paired of rounds, players, closed."""
        out = []
        for row in self.streams.streams("tournament"):
            try:
                t = self.tournament(row["id"])
            except Exception:  # noqa: S112 - a stream that no longer folds is listed by `scorebook doctor`, not here
                continue
            out.append({"id": row["id"], "name": t.name, "game": t.game, "format": t.format, "rounds": t.rounds,
                        "paired": t.current_round, "players": len(t.active), "closed": t.closed,
                        "date": t.date, "updated_at": row["updated_at"]})
        return sorted(out, key=lambda r: str(r["updated_at"]), reverse=True)

    def tournament(self, tournament_id: str) -> Tournament:
        kind, state, _ = self.streams.state(tournament_id)
        if kind != "tournament":
            raise StreamNotFound(f"no tournament {tournament_id!r}")
        return state  # type: ignore[no-any-return]

    def tournament_json(self, tournament_id: str) -> dict[str, Any]:
        return {"id": tournament_id, **tournament_to_json(self.tournament(tournament_id))}

    def enter(self, tournament_id: str, player: str, by: str, name: str | None = None) -> None:
        """Enter a player: by registered id (their name from the registry), or a free name with an id."""
        registry = self.registry()
        pid = reg.canonical(registry, player)
        known = reg.player(registry, pid)
        shown = name or (known.name if known else None)
        if not shown:
            raise BadRequest(f"player {player!r} is not registered: give their name")
        self._write(tournament_id, lambda _: [NewEvent("player_entered", {"player": pid, "name": shown})], by)

    def withdraw(self, tournament_id: str, player: str, by: str) -> None:
        self._write(tournament_id, lambda _: [NewEvent("player_withdrawn", {"player": player})], by)

    def pair(self, tournament_id: str, by: str, tables: Any = None, byes: Any = None) -> dict[str, Any]:
        """Pair the next round (results of finished matches taken first): by the tournament's method, or by
        hand (`tables`: [{table, seats}], `byes`: [ids]). Returns the round's data as stored."""
        self.collect_results(tournament_id, by)

        def next_round(state: Tournament) -> list[NewEvent]:
            if tables is None:
                data = pair_next_round(state)
            else:
                data = {"round": state.current_round + 1, "tables": tables, "byes": byes or [], "by_hand": True}
                check_by_hand(state, data)
            return [NewEvent("round_paired", data)]

        stored = self._write(tournament_id, next_round, by, "round_paired")
        return dict(stored[0]["data"])

    def start_table(self, tournament_id: str, round_: int, table: int, by: str,
                    options: Mapping[str, Any] | None = None) -> str:
        """Start the match of a table — the tournament's game, the seats in order, the tournament in its meta —
        and assign it to the table; returns the match id."""
        state = self.tournament(tournament_id)
        seats = _table(state, round_, table).seats
        data = {"game": state.game, "options": dict(options or {}),
                "players": [{"id": p, "name": state.entrants[p].name} for p in seats],
                "meta": {"tournament": state.name, "tournament_id": tournament_id, "round": round_, "table": table,
                         **({"date": state.date} if state.date else {})}}
        match_id = str(self.sb.start_match(data, by)["match_id"])
        self.assign(tournament_id, round_, table, match_id, by)
        return match_id

    def assign(self, tournament_id: str, round_: int, table: int, match_id: str, by: str) -> None:
        """Assign a stored match to a table: its game must be the tournament's and its players the table's."""
        state = self.tournament(tournament_id)
        seats = _table(state, round_, table).seats
        summary = self.sb.summary(match_id)
        if summary["game"] != state.game:
            raise BadRequest(f"match {match_id} is {summary['game']}, the tournament plays {state.game}")
        of = self.who()
        played = sorted(of(p["id"], p["name"]) for p in summary["players"])
        if played != sorted(seats):
            raise BadRequest(f"match {match_id}'s players ({', '.join(played)}) are not table {table}'s "
                             f"({', '.join(seats)})")
        data = {"round": round_, "table": table, "match_id": match_id}
        self._write(tournament_id, lambda _: [NewEvent("match_assigned", data)], by)

    def forfeit(self, tournament_id: str, round_: int, table: int, players: Sequence[str], by: str) -> None:
        data = {"round": round_, "table": table, "players": list(players)}
        self._write(tournament_id, lambda _: [NewEvent("forfeit_recorded", data)], by)

    def collect_results(self, tournament_id: str, by: str) -> int:
        """Take the result of every table whose assigned match has finished: a `result_taken` each, with the
        match's own totals and winners (the players who forfeited left out). Returns how many were taken."""
        of = self.who()

        def taken(state: Tournament) -> list[NewEvent]:
            out = []
            for rnd in state.paired:
                for t in rnd.tables:
                    if t.settled or t.match_id is None:
                        continue
                    scores = self.sb.scores(t.match_id)
                    if scores["status"] != "finished":
                        continue
                    ids = {p["id"]: of(p["id"], p["name"]) for p in scores["players"]}
                    totals = {ids[p["id"]]: int(p["score"]) for p in scores["players"] if ids[p["id"]] in t.present}
                    winners = [ids[w] for w in scores["winners"] if ids.get(w) in t.present]
                    out.append(NewEvent("result_taken", {"round": rnd.number, "table": t.number,
                                                         "match_id": t.match_id, "totals": totals,
                                                         "winners": winners}))
            return out

        if self.tournament(tournament_id).closed:
            return 0
        return len(self._write(tournament_id, taken, by))

    def close(self, tournament_id: str, by: str) -> None:
        self.collect_results(tournament_id, by)
        self._write(tournament_id, lambda _: [NewEvent("tournament_closed", {})], by)

    def corrections(self, tournament_id: str, open_only: bool = True) -> list[dict[str, Any]]:
        """The correction requests of the tournament's matches (the open ones, or all), table by table: round,
        table, seats, match id and status (an abandoned match is listed as such), and each request
        (`projections.corrections`)."""
        state = self.tournament(tournament_id)
        out: list[dict[str, Any]] = []
        for rnd in state.paired:
            for t in rnd.tables:
                if t.match_id is None:
                    continue
                found = requests(self.sb.events(t.match_id))
                out.extend({"round": rnd.number, "table": t.number, "seats": list(t.seats), "match_id": t.match_id,
                            "status": self.sb.summary(t.match_id)["status"], **r.to_json()}
                           for r in found if r.open or not open_only)
        return out

    def standings(self, tournament_id: str) -> list[Standing]:
        return standings(self.tournament(tournament_id))

    def standings_csv(self, tournament_id: str) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["rank", "player", "name", "match_points", "buchholz", "game_points", "spread", "played",
                         "byes", "withdrawn"])
        for s in self.standings(tournament_id):
            writer.writerow([s.rank, s.player, s.name, f"{s.match_points:g}", f"{s.buchholz:g}", s.game_points,
                             s.spread, s.played, s.byes, "yes" if s.withdrawn else ""])
        return out.getvalue()

    # -- the archive -----------------------------------------------------------------------------------

    def archive(self, tournament_id: str) -> str:
        """The whole tournament as one file: its events with their hashes, then every match assigned to it
        (in the backup file's lines: ids, events, hashes and imports)."""
        state = self.tournament(tournament_id)
        lines = [json.dumps({ARCHIVE_HEADER: ARCHIVE_VERSION, "tournament": tournament_id, "name": state.name})]
        lines += [json.dumps({"tournament_event": env}) for env in self.streams.envelopes(tournament_id)]
        matches = self.sb.store.backup_matches(only=sorted(state.assigned))
        lines += list(backup_lines(matches, None))
        return "\n".join(lines) + "\n"

    def import_archive(self, text: str, by: str) -> dict[str, Any]:
        """Store an archive: its matches under their own ids (as a restore does: nothing twice), then the
        tournament under its own id with every hash. Refused whole, naming the problem, if any part is bad."""
        head, events, rest = _split_archive(text)
        restored = self.sb.store.restore(read_backup("\n".join(rest))) if rest else {"matches_added": 0}
        stored = self.streams.import_stream("tournament", events, by, stream_id=head["tournament"])
        return {"tournament_id": stored["stream_id"], "existing": stored["existing"],
                "matches_added": restored["matches_added"]}


class PlayerNotFound(StreamNotFound):
    """No such player (a 404)."""


def _table(state: Tournament, round_: int, table: int) -> Any:
    if not 1 <= round_ <= state.current_round:
        raise BadRequest(f"round {round_} is not paired")
    found = next((t for t in state.round(round_).tables if t.number == table), None)
    if found is None:
        raise BadRequest(f"round {round_} has no table {table}")
    return found


def _registered_facts(facts: Sequence[MatchFacts], of: Callable[[str, str], str]) -> list[MatchFacts]:
    """The facts with each seat's id replaced by the registered player it is (merges and aliases followed)."""
    out = []
    for f in facts:
        ids = {p: of(p, n) for p, n in f.players}
        if all(p == q for p, q in ids.items()):
            out.append(f)
            continue
        out.append(replace(f, players=tuple((ids[p], n) for p, n in f.players),
                           totals={ids.get(p, p): v for p, v in f.totals.items()},
                           winners=tuple(ids.get(w, w) for w in f.winners)))
    return out


def _split_archive(text: str) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ImportRefused("the archive is empty", 1)
    try:
        head = json.loads(lines[0])
    except ValueError as e:
        raise ImportRefused("line 1 is not JSON", 1) from e
    if not isinstance(head, dict) or head.get(ARCHIVE_HEADER) != ARCHIVE_VERSION or not isinstance(
            head.get("tournament"), str):
        raise ImportRefused(f"line 1 is not a Scorebook tournament archive (version {ARCHIVE_VERSION})", 1)
    events: list[dict[str, Any]] = []
    n = 1
    for n, line in enumerate(lines[1:], start=2):
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise ImportRefused(f"line {n} is not JSON", n) from e
        if not (isinstance(obj, dict) and "tournament_event" in obj):
            return head, events, lines[n - 1:]
        if not isinstance(obj["tournament_event"], dict):
            raise ImportRefused(f"line {n}: a tournament event must be an object", n)
        events.append(obj["tournament_event"])
    return head, events, []
