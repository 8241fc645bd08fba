"""The statistics read model: pure functions over folded matches.

Nothing here knows a game's rules. Everything is read from what the reducers already say about a
match: `Fold.points(seq)` (who gained what with each event), `Fold.describe(seq)` (who acted, and the
bonus/capture tags), `Game.scores` and `Game.to_json`. Superseded events (undone by a referee's
rewind), notes and rewinds never count.

- A **move** is an effective event of the game's own (not `match_started`, `note` or `rewind`).
- A **turn** is a run of consecutive moves by the same player (the annotation's player) that holds
  at least one of the game's turn-making event types (the descriptor's `turn` events: a placement, a
  play, a pass, an exchange, a launch); its points are what that player gained or lost over the run (draw penalties
  included), so dealing and drawing a rack are not turns of their own.
- The **first player** is the one the state JSON names under the descriptor's `first_player_key`:
  Tri-Ominos' starter of the first round, High Five's leader, Hi-Spot's first player of the first
  round, Hats Off's first caller.
- **Tags** are counted per player: an event's tags go to the player who acted; an event of no player's
  (Hi-Spot's blocked `round_ended`) tags every player whose score it changed. The descriptor sorts them
  into **bonuses** (`bonus_tags`), **penalties** (`penalty_tags`: Tri-Ominos' draws and passes) and the
  rest of its `counted_tags` (Hi-Spot's new stacks, High Five's missed captures): `tag_counts(kind=…)`.
- **Finished matches only**: the score trend, the match lengths and every win rate; an in-progress
  match's score is not a final score. Turns and tags count every recorded turn, in progress or not.
- **The same match twice** (two different files of one match imported apart, e.g. the same events typed
  in again by someone else or with other times: the importer itself only recognises the same file and an
  export of a stored match) is recognised by its `fingerprint`: the SHA-256 of every event's type and data in seq order
  (`match_started` first, notes and rewinds included; who recorded it and when left out). `distinct()`
  keeps one copy. A copy that stops earlier (exported mid-match) has another fingerprint: it is another match.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, TypeVar

from projections.events import COMMON_EVENT_TYPES
from projections.registry import get_game
from projections.timeline import Fold

K = TypeVar("K")  # what a counter counts: tags (str) or tile values (int)

# The shape of `MatchFacts.to_json()`: bump it whenever a field is added, removed or changes meaning, so
# that stored facts of an older shape are rebuilt from the log rather than misread.
FACTS_VERSION = 2  # 2: the fingerprint is taken over the whole list of events at once

TagKind = Literal["bonus", "penalty", "other"]


def is_bonus(game: str, tags: Iterable[str]) -> bool:
    """Whether an event's tags mark a bonus or a capture worth jumping to (the game's descriptor says which)."""
    return get_game(game).descriptor.is_bonus(tuple(tags))


def tag_label(game: str, tag: str) -> str:
    return get_game(game).descriptor.tag_labels.get(tag, tag.replace("_", " "))


@dataclass(frozen=True)
class Turn:
    player: str
    seqs: tuple[int, ...]
    points: int


@dataclass(frozen=True)
class MatchSummary:
    """What the statistics need of every match, whichever game they chart: the filters' choices, copies
    counted once, every game's first-player win rate. A facts row's columns and four of its JSON fields hold
    it (`FactsProjector.summaries`), so a page charting one game decodes the turns and tags of that game's
    matches only."""

    match_id: str
    game: str
    date: str  # ISO date: the match's meta date, else the day it was recorded
    players: tuple[tuple[str, str], ...]  # (id, name), seat order
    finished: bool
    winners: tuple[str, ...]
    first_player: str | None
    fingerprint: str = ""  # SHA-256 of the events' types and data: equal for two copies of one match

    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(pid for pid, _ in self.players)


S = TypeVar("S", bound=MatchSummary)  # summaries or whole facts: what a filter returns is what it was given


@dataclass(frozen=True, kw_only=True)
class MatchFacts(MatchSummary):
    """What the statistics need of one match, read once from its fold: its summary, and its scores, turns
    and tags."""

    totals: Mapping[str, int]
    moves: int  # effective moves
    events: int  # every event in the log, notes, rewinds and superseded ones included
    rounds: int
    # player -> the points of each of their turns, in order (a turn's seqs are not kept: nothing charts
    # them, and a match has hundreds of turns to store and read back on every statistics request)
    turn_points: Mapping[str, tuple[int, ...]]
    tags: Mapping[str, Counter[str]] = field(default_factory=dict)  # player -> tag counts
    values: Mapping[str, Counter[int]] = field(default_factory=dict)  # player -> "capture:v"/"claim:v" values

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (what `match_facts` stores); `MatchFacts.from_json` reads it back equal."""
        return {
            "version": FACTS_VERSION,
            "match_id": self.match_id,
            "game": self.game,
            "date": self.date,
            "players": [[pid, name] for pid, name in self.players],
            "finished": self.finished,
            "winners": list(self.winners),
            "totals": dict(self.totals),
            "first_player": self.first_player,
            "moves": self.moves,
            "events": self.events,
            "rounds": self.rounds,
            "turn_points": {pid: list(points) for pid, points in self.turn_points.items()},
            "tags": {pid: dict(c) for pid, c in self.tags.items()},
            # JSON keys are text: values are written as decimal strings and read back as ints.
            "values": {pid: {str(v): n for v, n in c.items()} for pid, c in self.values.items()},
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> MatchFacts:
        """The facts `to_json` wrote; ValueError for another `FACTS_VERSION` (rebuild those from the log).
        The JSON is trusted to be what `to_json` wrote (it is read on every statistics request): its types
        are not checked one by one."""
        version = obj.get("version") if isinstance(obj, Mapping) else None  # a row is any JSON: say why, not crash
        if version != FACTS_VERSION:
            raise ValueError(f"match facts of version {version!r}, this code reads {FACTS_VERSION}")
        return cls(
            match_id=obj["match_id"],
            game=obj["game"],
            date=obj["date"],
            players=tuple((pid, name) for pid, name in obj["players"]),
            finished=obj["finished"],
            winners=tuple(obj["winners"]),
            totals=dict(obj["totals"]),
            first_player=obj["first_player"],
            moves=obj["moves"],
            events=obj["events"],
            rounds=obj["rounds"],
            turn_points={pid: tuple(points) for pid, points in obj["turn_points"].items()},
            tags={pid: _counter(c) for pid, c in obj["tags"].items()},
            values={pid: _counter({int(k): n for k, n in c.items()}) for pid, c in obj["values"].items()},
            fingerprint=obj["fingerprint"],
        )


def _counter(counts: dict[K, int]) -> Counter[K]:
    """A Counter of plain counts, filled as a dict (docs/PERFORMANCE.md, "Read models")."""
    out: Counter[K] = Counter()
    dict.update(out, counts)
    return out


def effective_moves(fold: Fold[Any]) -> list[int]:
    """Seqs of the game's own events that still count (not superseded by a rewind)."""
    return [
        e.seq
        for e in fold.events
        if e.type not in COMMON_EVENT_TYPES and e.seq not in fold.superseded_by
    ]


class _Move:
    """One effective move, read once: who made it, its tags, what each player gained or lost with it, and
    whether its type makes a turn (the descriptor's `turn_events`)."""

    __slots__ = ("seq", "player", "tags", "points", "makes_turn")

    def __init__(self, seq: int, player: str | None, tags: tuple[str, ...], points: dict[str, int],
                 makes_turn: bool) -> None:
        self.seq, self.player, self.tags, self.points, self.makes_turn = seq, player, tags, points, makes_turn


def _walk(fold: Fold[Any]) -> list[_Move]:
    """Every effective move in order, each marked once and each state scored once: a match's facts ask for
    both several times per move. Moves are marked (who, tags), not described: the facts never show an
    event's words. One pass over the events,
    each marked by the game from the states either side of it (`Fold.marks` without looking them up again)."""
    game = fold.game
    totals, marks_of, state_at = game.totals_of, game.marks_of, fold.state_at
    kinds, superseded = game.descriptor.turn_events, fold.superseded_by
    out: list[_Move] = []
    last_state: Any = None
    last: Mapping[str, int] = {}
    last_seq = 0
    for event in fold.events:
        seq, kind, _ = event
        if kind in COMMON_EVENT_TYPES or seq in superseded:  # never seq 1: match_started is no move
            continue
        if last_seq == seq - 1:
            before_state, before = last_state, last
        else:
            before_state = state_at(seq - 1)
            before = totals(before_state)
        state = state_at(seq)
        # Scored before it is marked: a game that marks an event by its gains reads the scores it keeps.
        after = totals(state)
        points = {p: v - before.get(p, 0) for p, v in after.items() if v != before.get(p, 0)}
        player, tags = marks_of(before_state, event, state)
        out.append(_Move(seq, player, tags, points, kind in kinds))
        last_seq, last_state, last = seq, state, after
    return out


def _runs(moves: Iterable[_Move]) -> Iterator[tuple[str, list[_Move]]]:
    """The turns among `moves` as (player, their moves): runs of one player's consecutive moves that hold
    a turn-making one. Two moves in a row are always adjacent in the sense that counts: what lies between
    them is notes, rewinds and superseded events only."""
    run: list[_Move] = []
    run_player: str | None = None
    for move in moves:
        player = move.player
        if player != run_player or player is None:
            if run_player is not None and any(m.makes_turn for m in run):
                yield run_player, run
            run, run_player = [], player
        if player is not None:
            run.append(move)
    if run_player is not None and any(m.makes_turn for m in run):
        yield run_player, run


def turns(fold: Fold[Any], moves: Sequence[_Move] | None = None) -> list[Turn]:
    """The match's turns, in order (see the module docstring)."""
    return [Turn(player, tuple(m.seq for m in run), sum(m.points.get(player, 0) for m in run))
            for player, run in _runs(_walk(fold) if moves is None else moves)]


def first_player(fold: Fold[Any]) -> str | None:
    key = fold.game.descriptor.first_player_key
    if key is None:
        return None
    to_json = fold.game.to_json
    # Nearly always named by match_started's state: the moves are looked for only when it is not.
    value = to_json(fold.state_at(1)).get(key)
    if value:
        return str(value)
    for seq in effective_moves(fold):
        value = to_json(fold.state_at(seq)).get(key)
        if value:
            return str(value)
    return None


def match_date(meta: Any, recorded: str) -> str:
    """The day a match was played, as the statistics date it: its meta's `date`, else the day it was
    recorded (`recorded`: an ISO time)."""
    date = meta.get("date") if isinstance(meta, dict) else None
    return str(date)[:10] if date else recorded[:10]


def match_facts(fold: Fold[Any], match_id: str = "", date: str = "", fingerprint_: str | None = None) -> MatchFacts:
    """Everything the statistics page charts about one match (`fingerprint_`: its fingerprint, if the caller
    already knows it)."""
    game = fold.game
    sheet = game.scores(fold.state)
    tags: dict[str, Counter[str]] = {pid: Counter() for pid, _ in fold.players}
    values: dict[str, Counter[int]] = {pid: Counter() for pid, _ in fold.players}
    moves = _walk(fold)
    by_player: dict[str, list[int]] = {pid: [] for pid, _ in fold.players}
    for player, run in _runs(moves):
        by_player.setdefault(player, []).append(sum(m.points.get(player, 0) for m in run))
    turn_points = {pid: tuple(points) for pid, points in by_player.items()}
    for move in moves:
        if not move.tags:  # most moves: nothing to count, nobody to look for
            continue
        if move.player is None:  # an event of nobody's (a blocked round): whoever it scored or cost
            who = [pid for pid, pts in move.points.items() if pts and pid in tags]
        else:
            who = [move.player] if move.player in tags else []
        for pid in who:
            for tag in move.tags:
                kind, _, value = tag.partition(":")
                if value:
                    if value.lstrip("-").isdigit():
                        values[pid][int(value)] += 1
                else:
                    tags[pid][kind] += 1
    return MatchFacts(
        match_id=match_id,
        game=game.name,
        date=date,
        players=tuple(fold.players),
        finished=sheet.finished,
        winners=tuple(sheet.winners) if sheet.finished else (),
        totals=dict(sheet.totals),
        first_player=first_player(fold),
        moves=len(moves),
        events=fold.seq,
        rounds=len(sheet.rounds),
        turn_points=turn_points,
        tags=tags,
        values=values,
        fingerprint=fingerprint_ or fingerprint(fold),
    )


def fingerprint(fold: Fold[Any]) -> str:
    """What two copies of one match share: the events' types and data in order (see the module docstring)."""
    events = [[e.type, e.data] for e in fold.events]
    return hashlib.sha256(json.dumps(events, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


# --- across matches -------------------------------------------------------------------------------


def filter_facts(
    facts: Iterable[S],
    game: str | None = None,
    player: str | None = None,
    date_from: str | None = None,
    date_to: str | None = None,
) -> list[S]:
    """The matches of a game, with a player, dated within [date_from, date_to] (ISO dates, inclusive)."""
    return [
        f
        for f in facts
        if (not game or f.game == game)
        and (not player or player in f.player_ids)
        and (not date_from or f.date >= date_from[:10])
        and (not date_to or f.date <= date_to[:10])
    ]


def distinct(facts: Iterable[S]) -> list[S]:
    """One copy of each match (equal fingerprints): the one with the smallest match id, in the order given."""
    given = list(facts)
    keep: dict[str, S] = {}
    for f in given:
        key = f.fingerprint or f.match_id
        if key not in keep or f.match_id < keep[key].match_id:
            keep[key] = f
    return [f for f in given if keep[f.fingerprint or f.match_id] is f]


def player_names(facts: Iterable[MatchSummary]) -> dict[str, str]:
    names: dict[str, str] = {}
    for f in facts:
        for pid, name in f.players:
            names.setdefault(pid, name)
    return names


def score_trend(facts: Iterable[MatchFacts], player: str | None = None) -> dict[str, list[tuple[str, int, str]]]:
    """player -> [(date, final score, match id)] in date order; finished matches only."""
    trend: dict[str, list[tuple[str, int, str]]] = {}
    for f in sorted(facts, key=lambda f: (f.date, f.match_id)):
        if not f.finished:
            continue
        for pid in f.player_ids:
            if player and pid != player:
                continue
            trend.setdefault(pid, []).append((f.date, f.totals.get(pid, 0), f.match_id))
    return trend


def points_per_turn(facts: Iterable[MatchFacts], player: str | None = None) -> dict[str, list[int]]:
    """player -> the points of each of their turns, over every match."""
    out: dict[str, list[int]] = {}
    for f in facts:
        for pid, points in f.turn_points.items():
            if points and (not player or pid == player):
                out.setdefault(pid, []).extend(points)
    return out


def _summed(per_match: Iterable[Mapping[str, Mapping[K, int]]], player: str | None) -> dict[str, Counter[K]]:
    """player -> their counts added up over the matches (only `player`'s when one is given)."""
    out: dict[str, Counter[K]] = {}
    for by_player in per_match:
        for pid, counts in by_player.items():
            if player and pid != player:
                continue
            total = out.get(pid)
            if total is None:
                total = out[pid] = Counter()
            for key, n in counts.items():
                total[key] += n
    return out


@cache  # asked per match and player on every statistics request
def charted_tags(game: str, kind: TagKind) -> tuple[str, ...]:
    """The tags of one kind the statistics chart for `game`, in the descriptor's order: its bonus tags, its
    penalty tags, or its other counted tags (neither bonus nor penalty)."""
    d = get_game(game).descriptor
    if kind == "bonus":
        return d.bonus_tags
    if kind == "penalty":
        return d.penalty_tags
    return tuple(t for t in d.counted_tags if t not in d.bonus_tags and t not in d.penalty_tags)


def tag_counts(
    facts: Iterable[MatchFacts], player: str | None = None, kind: TagKind | None = None
) -> dict[str, Counter[str]]:
    """player -> how often each tagged event happened (hexagons, bridges, full stacks, nested hats …); with
    `kind`, only the tags of that kind in each match's game (bonuses, penalties, other)."""
    if kind is None:
        return _summed((f.tags for f in facts), player)
    return tag_counts_by_kind(facts, player)[kind]


TAG_KINDS: tuple[TagKind, ...] = ("bonus", "penalty", "other")


def tag_counts_by_kind(
    facts: Iterable[MatchFacts], player: str | None = None
) -> dict[TagKind, dict[str, Counter[str]]]:
    """`tag_counts` of every kind at once: each match's tags are added up once, then sorted into kinds (the page
    charts all three)."""
    out: dict[TagKind, dict[str, Counter[str]]] = {kind: {} for kind in TAG_KINDS}
    for game, of_game in _by_game(facts).items():
        kinds = _kinds_of_tags(game)
        for pid, counts in _summed((f.tags for f in of_game), player).items():
            mine = {kind: out[kind].setdefault(pid, Counter()) for kind in TAG_KINDS}
            for tag, n in counts.items():
                for kind in kinds.get(tag, ()):
                    mine[kind][tag] += n
    return out


@cache
def _kinds_of_tags(game: str) -> dict[str, tuple[TagKind, ...]]:
    """tag -> the kinds it is charted as in `game` (none for a tag the game does not count)."""
    out: dict[str, tuple[TagKind, ...]] = {}
    for kind in TAG_KINDS:
        for tag in charted_tags(game, kind):
            out[tag] = (*out.get(tag, ()), kind)
    return out


def _by_game(facts: Iterable[MatchFacts]) -> dict[str, list[MatchFacts]]:
    out: dict[str, list[MatchFacts]] = {}
    for f in facts:
        out.setdefault(f.game, []).append(f)
    return out


def value_counts(facts: Iterable[MatchFacts], player: str | None = None) -> dict[str, Counter[int]]:
    """player -> captures and claims by the points they were worth (High Five)."""
    return _summed((f.values for f in facts), player)


def match_lengths(facts: Iterable[MatchFacts]) -> list[tuple[str, str, int, int]]:
    """(match id, date, moves, rounds) per match, in date order."""
    return [(f.match_id, f.date, f.moves, f.rounds) for f in sorted(facts, key=lambda f: (f.date, f.match_id))]


@dataclass(frozen=True)
class WinRate:
    game: str
    matches: int  # finished matches with a known first player
    first_player_wins: int
    fair_share: float  # the mean of 1/players: the rate if seat made no difference

    @property
    def rate(self) -> float:
        return self.first_player_wins / self.matches if self.matches else 0.0


def first_player_win_rate(facts: Iterable[MatchSummary]) -> dict[str, WinRate]:
    """Per game: how often the first player won (a shared win counts as a win)."""
    acc: dict[str, list[Sequence[Any]]] = {}
    for f in facts:
        if not f.finished or f.first_player is None:
            continue
        acc.setdefault(f.game, []).append((f.first_player in f.winners, len(f.players)))
    return {
        game: WinRate(game, len(rows), sum(1 for won, _ in rows if won), sum(1 / n for _, n in rows) / len(rows))
        for game, rows in acc.items()
    }


@dataclass(frozen=True)
class PlayerRecord:
    """A player's finished matches of one game."""

    player: str
    game: str
    matches: int  # finished matches played
    wins: int  # a shared win counts as a win for each of its winners
    total_score: int
    best: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def average_score(self) -> float:
        return self.total_score / self.matches if self.matches else 0.0


def player_records(facts: Iterable[MatchFacts]) -> dict[str, dict[str, PlayerRecord]]:
    """game -> player -> their record over the finished matches (in-progress ones are left out)."""
    acc: dict[tuple[str, str], list[tuple[bool, int]]] = {}
    for f in facts:
        if not f.finished:
            continue
        for pid in f.player_ids:
            acc.setdefault((f.game, pid), []).append((pid in f.winners, f.totals.get(pid, 0)))
    out: dict[str, dict[str, PlayerRecord]] = {}
    for (game, pid), rows in sorted(acc.items()):
        scores = [s for _, s in rows]
        out.setdefault(game, {})[pid] = PlayerRecord(
            pid, game, len(rows), sum(1 for won, _ in rows if won), sum(scores), max(scores)
        )
    return out
