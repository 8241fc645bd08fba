"""The Python API: one object for a Scorebook database.

    from recorder import Scorebook

    sb = Scorebook.open("var/scorebook.db")            # migrates the schema to head
    started = sb.start_match({"game": "hats-off", "players": [{"id": "ann"}, {"id": "bo"}]})
    sb.append(started["match_id"], [{"type": "round_started", "data": {"caller": "ann"}}], expected_seq=1)
    sb.scores(started["match_id"])

    signed = sb.sign_in(token)                          # the browser's /login: a session cookie
    sb.session_principal(signed.cookie)                 # Principal(name, role), or None

The CLI, the HTTP API, the dashboard, the benchmarks and the tests go through it rather than
assembling an engine, the migrations and a store themselves. Errors are `recorder.errors` classes.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from projections.errors import IllegalEvent
from projections.redaction import FULL, SPECTATOR, View, redact_envelope, redact_state
from projections.scores import scores_json
from projections.stats import MatchFacts, MatchSummary
from projections.timeline import Fold
from recorder.access import auth
from recorder.access.sessions import Sessions, SignedIn
from recorder.access.visibility import EVERYTHING, Viewer, redacted_matches, sees_everything_always, view_of
from recorder.errors import BadRequest, Forbidden, ImportRefused, NotFound, SchemaBehind
from recorder.legal import Knowledge, legal_answer
from recorder.log.file import (
    EXPORT_KEYS,
    ChainCheck,
    ImportLine,
    NewEvent,
    PreparedImport,
    export_line,
    parse_jsonl,
    prepare_import,
)
from recorder.readmodels.facts import FactsReader
from recorder.readmodels.projector import Progress, Projector
from recorder.readmodels.rebuild import Rebuild
from recorder.readmodels.registry import TARGETS, followed, plan_for
from recorder.sql.engine import make_engine
from recorder.sql.migrate import behind_head, upgrade
from recorder.sql.tables import Match, StoredEvent
from recorder.sql.triggers import missing_triggers, repair_triggers
from recorder.store.matches import EventStore, ImportSource
from recorder.store.snapshots import SNAPSHOT_EVERY

if TYPE_CHECKING:  # recorder.clubs.service builds on the facade; it is imported when first used
    from recorder.clubs.service import Clubs


class Scorebook:
    """A Scorebook database: matches, their hash-chained events, scores, states, and API tokens."""

    engine: Engine
    store: EventStore

    def __init__(self, store: EventStore, *, session_secret: str | None = None) -> None:
        """`session_secret` signs sign-in cookies; by default $SCOREBOOK_SECRET, else the file
        `session-secret` in the data directory, made on first sign-in (recorder/access/sessions.py)."""
        self.store = store
        self.engine = store.engine
        self._session_secret = session_secret
        self._sessions: Sessions | None = None
        self._sessions_lock = threading.Lock()
        self.projector = Projector(store, followed())
        self.fact_reader = FactsReader(self.projector)
        self._clubs: Clubs | None = None
        self._knowledge = Knowledge()  # the table's folds and hindsight, per match version (recorder/legal.py)

    # -- opening -----------------------------------------------------------------------------------

    @classmethod
    def open(
        cls, url: str | None = None, *, migrate: bool = True, cache_size: int | None = None,
        session_secret: str | None = None, cache_bytes: int | None = None,
    ) -> Scorebook:
        """The database at `url` (a URL or a SQLite path; default $SCOREBOOK_DATABASE_URL, else
        var/scorebook.db). With `migrate` the schema is first brought to head; without, a database not
        at head raises SchemaBehind, whose message says to run `scorebook migrate`."""
        engine = make_engine(url)
        try:
            if migrate:
                upgrade(engine)
            else:
                problem = _missing_sqlite_file(engine) or behind_head(engine)
                if problem is not None:
                    raise SchemaBehind(problem)
        except BaseException:
            engine.dispose()
            raise
        return cls(EventStore(engine, cache_size, cache_bytes=cache_bytes), session_secret=session_secret)

    @classmethod
    def from_engine(
        cls, engine: Engine, cache_size: int | None = None, *, session_secret: str | None = None,
        cache_bytes: int | None = None,
    ) -> Scorebook:
        """An engine whose schema is already at head (the tests' fixtures); nothing is migrated.
        `cache_bytes` bounds the fold cache (default $SCOREBOOK_CACHE_MB MiB, else 256 MiB)."""
        return cls(EventStore(engine, cache_size, cache_bytes=cache_bytes), session_secret=session_secret)

    @property
    def clubs(self) -> Clubs:
        """The club streams: the player registry, tournaments, standings and ratings (recorder/clubs/service.py)."""
        if self._clubs is None:
            from recorder.clubs.service import Clubs

            self._clubs = Clubs(self)
        return self._clubs

    def close(self) -> None:
        """Close the engine's pooled connections."""
        self.store.close()
        self.engine.dispose()

    def __enter__(self) -> Scorebook:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------------

    def start_match(
        self, data: dict[str, Any], recorded_by: str = "python", event_id: str | None = None
    ) -> dict[str, Any]:
        """Record `match_started` with `data`: {"match_id", "seq": 1, "event": envelope, "replayed"}.

        With `event_id`, a retry answers the match already started (replayed True). With `"bag": "committed"`
        the server deals every draw of the match from a shuffle it commits to now and reveals when the match
        ends (recorder/store/bag.py; FORMAT.md, "A committed bag")."""
        return self.store.create_match(data, recorded_by, event_id)

    def append(
        self,
        match_id: str,
        events: Sequence[NewEvent | Mapping[str, Any]],
        expected_seq: int,
        recorded_by: str = "python",
    ) -> tuple[list[dict[str, Any]], bool]:
        """Append all of `events` ({"type", "data", "event_id"?} or NewEvent) or none, after
        `expected_seq`: (stored envelopes, replayed). BadRequest for a malformed event or a field its
        type does not have; Refused for an illegal one; Conflict when `expected_seq` is stale."""
        if isinstance(events, (Mapping, NewEvent)):
            raise BadRequest("events must be a list of events")
        parsed = [NewEvent.parse(e, f"events[{i}]") for i, e in enumerate(events)]
        return self.store.append(match_id, parsed, expected_seq, recorded_by)

    def import_log(
        self, log: str | Sequence[ImportLine], recorded_by: str = "python", file_name: str | None = None
    ) -> dict[str, Any]:
        """A match file (JSON Lines text, or lines already parsed) as a new match:
        {"match_id", "seq", "existing", "added"}. The import is recorded on the match (who: `recorded_by`,
        when, `file_name`). The same file imported again — or an export of a match already stored — answers
        that match (`existing` True) instead of storing it twice; a file that extends a stored match appends
        the rest (`added`). ImportRefused names the first bad line; nothing is stored then. Unlike `append`,
        an import does not refuse fields an event's schema does not know: an old log may carry fields since
        dropped."""
        lines = parse_jsonl(log) if isinstance(log, str) else log
        return self.store.import_log(lines, recorded_by, file_name)

    def import_files(self, files: Sequence[tuple[str, str]], recorded_by: str = "python") -> list[dict[str, Any]]:
        """Several match files, (file name, JSON Lines text) each, in one transaction: all are stored or none.
        Every file is checked first (`check_files`); ImportRefused's message then names the file and the line."""
        return self.store.store_many(check_files(files, recorded_by, self.store.snapshot_every))

    # -- backup and restore ------------------------------------------------------------------------

    def backup(self, with_tokens: bool = False) -> Iterator[str]:
        """The backup file (recorder/log/backup.py), line by line: every match with its ids, times, events and
        event_ids, and its imports; the tokens' hashes only `with_tokens`."""
        from recorder.log.backup import backup_lines

        tokens = auth.token_rows(self.engine) if with_tokens else None
        return backup_lines(self.store.backup_matches(), tokens)

    def restore(self, text: str) -> dict[str, int]:
        """Restore a backup file into this database, empty or not: ids and hashes kept, nothing stored
        twice (see `EventStore.restore`). All or nothing; counts of what was added."""
        from recorder.log.backup import read_backup

        return self.store.restore(read_backup(text))

    # -- reading -----------------------------------------------------------------------------------
    #
    # Reads that can show hidden tiles (state, legal, events, follow, export) take a `viewer`
    # (recorder/access/visibility.py). The default, EVERYTHING, is for callers with the database itself (the
    # Python API, the CLI); the HTTP API and the dashboard pass the request's viewer.

    def view(self, match_id: str, viewer: Viewer = EVERYTHING) -> View:
        """What `viewer` may see of the match's hidden tiles now (FULL, or a redacted View)."""
        if sees_everything_always(viewer):
            return FULL
        return view_of(self.engine, match_id, self.store.fold(match_id), viewer)

    def fold(self, match_id: str, at: int | None = None) -> Fold[Any]:
        return self.store.fold(match_id, at)

    def whole_fold(self, match_id: str) -> Fold[Any]:
        """The fold with every seq's state at hand (see `EventStore.whole_fold`): for walking a whole match."""
        return self.store.whole_fold(match_id)

    def scores(self, match_id: str, at: int | None = None) -> dict[str, Any]:
        """FORMAT.md's scores JSON (as it was right after seq `at`)."""
        return scores_json(self.store.fold(match_id, at), match_id)

    def state(self, match_id: str, at: int | None = None, viewer: Viewer = EVERYTHING) -> dict[str, Any]:
        fold = self.store.fold(match_id, at)
        view = self.view(match_id, viewer)
        return {
            "match_id": match_id,
            "game": fold.game.name,
            "seq": fold.seq,
            "superseded": sorted(fold.superseded_by),
            "rules_version": fold.game.rules_version,
            "state": redact_state(fold.game.descriptor, fold.game.to_json(fold.state), view),
        }

    def legal(
        self, match_id: str, player: str | None = None, at: int | None = None, viewer: Viewer = EVERYTHING
    ) -> dict[str, Any]:
        """Every legal next event at seq `at` (default: now) for `player` — by default the player to move, or
        every player when the game names none — each with its scorepad `notation` (projections.notation), as
        `viewer` may know them (recorder/legal.py): from the log as recorded, with the hindsight `missed` of the
        event recorded next; for a spectator of a match in progress, from the log with the hidden tiles
        redacted (the table's knowledge: nothing hidden is used or named) and no hindsight."""
        fold = self.store.fold(match_id, at)  # a BadRequest naming the seqs for an `at` outside the match
        view = self.view(match_id, viewer)
        whole = self.store.whole_fold(match_id)
        if view.everything:
            return legal_answer(match_id, fold, player, False, self._knowledge.missed(match_id, whole))
        table = self._knowledge.table_fold(match_id, whole, view)
        return legal_answer(match_id, table.at(fold.seq), player, True, None)

    def missed(self, match_id: str, viewer: Viewer = EVERYTHING) -> dict[str, Any]:
        """Every certain missed play of the match in hindsight (projections/hindsight.py). Forbidden to a
        spectator of a match in progress: what the log learnt later names tiles the table has not seen."""
        whole = self.store.whole_fold(match_id)
        if not self.view(match_id, viewer).everything:
            raise Forbidden(
                "missed plays are told in hindsight, from tiles the table has not seen yet: while the match is in "
                "progress only a referee, an admin or the recorder of this match sees them"
            )
        missed = self._knowledge.missed(match_id, whole)
        return {"match_id": match_id, "seq": whole.seq, "finished": whole.finished,
                "missed": [m.to_json() for m in missed]}

    def export_lines(self, match_id: str, viewer: Viewer = EVERYTHING) -> list[str]:
        """The match log as JSON Lines (each line ends in a newline), hashes included. For a viewer who
        may not see the hidden tiles, redacted lines are marked `"redacted": true`: such a file neither
        verifies nor imports."""
        view = self.view(match_id, viewer)
        if view.everything:
            return self.store.export_lines(match_id)
        descriptor = self.store.fold(match_id).game.descriptor
        lines = []
        for env in self.store.events(match_id):
            shown = redact_envelope(descriptor, env, view)
            marked = {**{k: shown[k] for k in EXPORT_KEYS}, "redacted": True}
            lines.append(json.dumps(marked, ensure_ascii=False) + "\n" if "redacted" in shown else export_line(shown))
        return lines

    def export(self, match_id: str, viewer: Viewer = EVERYTHING) -> str:
        return "".join(self.export_lines(match_id, viewer))

    def verify(self, match_id: str) -> ChainCheck:
        return self.store.verify(match_id)

    def matches(
        self,
        game: str | None = None,
        player: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[dict[str, Any]], int]:
        """Match summaries, newest first, and how many match the filters in all."""
        items, total, _ = self.store.list_matches(game, player, status, limit, offset)
        return items, total

    def match_page(
        self,
        game: str | None = None,
        player: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
        after: str | None = None,
    ) -> tuple[list[dict[str, Any]], int, str | None]:
        """`matches`, and the cursor of the next page: `after` it, the page after this one (keyset paging)."""
        return self.store.list_matches(game, player, status, limit, offset, after)

    def players(self) -> dict[str, str]:
        """Every player id seated in a match, with their name in their latest match."""
        return self.store.players()

    # -- read models (recorder/readmodels/projector.py) --------------------------------------------------------

    def facts(self, game: str | None = None) -> list[MatchFacts]:
        """Every match's statistics facts (of one game), from the `match_facts` read model, caught up with
        the log first: never less than what was committed before the call."""
        return self.fact_reader.facts(game)

    def fact_summaries(self, full: str | None = None) -> list[MatchSummary]:
        """Every match's statistics summary, caught up as `facts` is, in the same order; the matches of the
        game `full` as their whole facts (what the statistics page charts one game from)."""
        return self.fact_reader.summaries(full)

    def rebuild(self, name: str = "all", progress: Progress | None = None, resume: bool = False,
                workers: int | None = None) -> int:
        """Recompute a read model from the log (recorder/readmodels/rebuild.py): `match_facts`, `snapshots`, or "all";
        `workers` processes fold (default: one per core for a large log). Returns the head read up to."""
        if name not in TARGETS:
            raise BadRequest(f"no read model {name!r}; choose from {', '.join(TARGETS)}")
        return Rebuild(self.engine, name, plan_for(self.store, name)).run(progress, resume, workers)

    def summary(self, match_id: str) -> dict[str, Any]:
        return self.store.summary(match_id)

    def events(
        self, match_id: str, from_seq: int = 1, to_seq: int | None = None, viewer: Viewer = EVERYTHING
    ) -> list[dict[str, Any]]:
        events = self.store.events(match_id, from_seq, to_seq)
        view = self.view(match_id, viewer)
        if view.everything:
            return events
        descriptor = self.store.fold(match_id).game.descriptor
        return [redact_envelope(descriptor, env, view) for env in events]

    def event_rows(self, match_id: str) -> list[StoredEvent]:
        return self.store.event_rows(match_id)

    def events_after(self, position: int = 0, limit: int = 500, viewer: Viewer = EVERYTHING) -> list[dict[str, Any]]:
        events = self.store.events_after(position, limit)
        hiding = redacted_matches(self.engine, (e["match_id"] for e in events), viewer)
        if not hiding:
            return events
        from projections.registry import get_game

        return [redact_envelope(get_game(hiding[e["match_id"]]).descriptor, e, SPECTATOR) if e["match_id"] in hiding
                else e for e in events]

    # -- games -------------------------------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        from projections.registry import all_games
        from projections.schemas import game_summary

        return [game_summary(g) for g in all_games()]

    def game_schema(self, game: str) -> dict[str, Any]:
        from projections.registry import get_game
        from projections.schemas import game_schema

        try:
            found = get_game(game)
        except IllegalEvent as e:
            raise NotFound(e.reason) from e
        return game_schema(found)

    # -- tokens ------------------------------------------------------------------------------------

    def create_token(self, name: str, role: str) -> str:
        """A new token, returned once in the clear (ValueError for a bad name or role)."""
        return auth.create_token(self.engine, name, role)

    def list_tokens(self) -> list[dict[str, Any]]:
        return auth.list_tokens(self.engine)

    def revoke_token(self, token_id: int) -> bool:
        return auth.revoke_token(self.engine, token_id)

    def authenticate(self, token: str) -> auth.Principal | None:
        return auth.authenticate(self.engine, token)

    # -- sign-in sessions (the browser's /login; recorder/access/sessions.py) ------------------------------

    @property
    def sessions(self) -> Sessions:
        """Sign-in sessions; the secret and the lifetime are read on first use."""
        if self._sessions is None:
            with self._sessions_lock:
                if self._sessions is None:
                    self._sessions = Sessions(self.engine, self._session_secret)
        return self._sessions

    def sign_in(self, token: str) -> SignedIn:
        """Exchange a token for a session: the signed cookie value, who it is, when it expires.
        Unauthorized for an unknown or revoked token."""
        return self.sessions.sign_in(token)

    def session_principal(self, cookie: str | None) -> auth.Principal | None:
        """Who a session cookie signs in, checked against the database on every call: None when the
        cookie is missing or badly signed, or its session expired or was signed out, or its token revoked."""
        return self.sessions.principal(cookie)

    def sign_out(self, cookie: str | None) -> bool:
        """End a cookie's session (the cookie is refused from now on); False if none was open."""
        return self.sessions.sign_out(cookie)

    # -- the database's health (`scorebook doctor`, `scorebook verify --all`) -------------------------

    def missing_triggers(self) -> list[str]:
        """The append-only triggers on `events` not in force (recorder/sql/triggers.py); empty when protected."""
        with self.engine.connect() as conn:
            return missing_triggers(conn)

    def repair_triggers(self) -> None:
        """Put the append-only triggers back (for whoever holds the database: the admin)."""
        with self.engine.begin() as conn:
            repair_triggers(conn)

    def verify_all(self) -> ChainSummary:
        """Every match's and club stream's (players, tournaments) hash chain, and that its events reach its last
        seq (a deleted tail leaves a chain that verifies). One that cannot even be read counts as broken."""
        with Session(self.engine) as s:
            heads = s.exec(select(Match.id, Match.last_seq).order_by(col(Match.created_at), col(Match.id))).all()
        summary = ChainSummary()
        for match_id, last_seq in heads:
            try:
                check = self.verify(match_id)
            except Exception as e:  # a row no read survives: what the doctor is there to report
                summary.add(match_id, ChainCheck(False, 0, 1, f"unreadable: {type(e).__name__}: {e}"))
                continue
            if check.ok and check.events != last_seq:
                check = ChainCheck(False, check.events, min(check.events, last_seq) + 1,
                                   f"the events end at seq {check.events}, the match's last seq is {last_seq}")
            summary.add(match_id, check)
        streams = self.clubs.streams
        for stream in streams.streams():
            try:
                check = streams.verify(stream["id"])
            except Exception as e:  # as for a match
                check = ChainCheck(False, 0, 1, f"unreadable: {type(e).__name__}: {e}")
            summary.add(stream["id"], check, stream=True)
        return summary


@dataclass
class ChainSummary:
    """`verify_all`'s answer: how many matches, club streams and events were checked, and the broken ones."""

    matches: int = 0
    streams: int = 0
    events: int = 0
    broken: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.broken

    def add(self, owner: str, check: ChainCheck, stream: bool = False) -> None:
        if stream:
            self.streams += 1
        else:
            self.matches += 1
        self.events += check.events
        if not check.ok:
            key = "stream_id" if stream else "match_id"
            self.broken.append({key: owner, "first_bad_seq": check.first_bad_seq, "reason": check.reason})

    def as_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "matches": self.matches, "streams": self.streams, "events": self.events,
                "broken": self.broken}


def check_files(files: Sequence[tuple[str, str]], recorded_by: str, snapshot_every: int = SNAPSHOT_EVERY
                ) -> list[tuple[PreparedImport, ImportSource]]:
    """Match files, (file name, JSON Lines text) each, checked line by line without a database, ready for
    `EventStore.store_many`; each file's fold keeps only the states the store keeps (`snapshot_every`: the
    store's). ImportRefused names the file and the first bad line."""
    checked = []
    for name, text in files:
        try:
            lines = parse_jsonl(text)
            prepared = prepare_import(lines, recorded_by, snapshot_every=snapshot_every)
            checked.append((prepared, ImportSource.of(lines, recorded_by, name, prepared.texts)))
        except ImportRefused as e:
            raise ImportRefused(e.reason, e.line, e.malformed, file=name) from e
    return checked


def _missing_sqlite_file(engine: Engine) -> str | None:
    """A read-only open of a SQLite file that is not there would create it empty: say so instead."""
    database = engine.url.database
    if engine.url.get_backend_name() != "sqlite" or database in (None, "", ":memory:") or database.startswith("file:"):
        return None
    if Path(database).exists():
        return None
    return f"there is no database at {database}: run `scorebook migrate` to create one"
