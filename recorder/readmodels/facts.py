"""The statistics facts of every match (`match_facts`): a followed read model, and its reads.

`Facts` computes a match's row from its fold (`projections.stats.match_facts`; none for an abandoned match: it
counts in no statistics) and writes a batch over the old rows, keeping a row written meanwhile from a later seq
(a facts row is a function of the log up to its seq, and the log only grows). `FactsReader` serves them: every
read catches the projector up first, so the statistics page never shows less than what was committed before it
asked, and rows are decoded once per process and kept while their seq stays the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, ClassVar

from sqlalchemy import JSON, Select, Table, Text, column, delete, func, select, true
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from projections.stats import FACTS_VERSION, MatchFacts, MatchSummary, match_date, match_facts
from projections.timeline import Fold
from projections.upcasters import after_start
from recorder.log.file import format_time
from recorder.readmodels.model import MatchToProject, Projected, ReadModel, insert_rows, no_gc
from recorder.readmodels.projector import Projector
from recorder.sql.rows import EventRow
from recorder.sql.tables import MatchFactsRow
from recorder.store.matches import EventStore

FACTS_TABLE: Table = MatchFactsRow.__table__  # type: ignore[attr-defined]
KEEP_DECODED = 200_000  # decoded facts rows a process keeps (about 3 KiB each)


class Facts(ReadModel):
    """Each match's statistics facts: turns, tags, first player, winners (`projections.stats`)."""

    name: ClassVar[str] = "match_facts"
    table: ClassVar[Table] = FACTS_TABLE
    followed: ClassVar[bool] = True

    def compute(self, match: MatchToProject, fold: Fold[Any], rows: Sequence[EventRow]) -> list[dict[str, Any]]:
        # An abandoned match is out of the statistics (and so of the ratings and the players' pages): no row, and
        # `write` deletes the one it had. A rewind to before its match_abandoned brings the row back.
        return [] if fold.abandoned else [facts_row(match, fold, rows)]

    def write(self, conn: Connection, batch: Sequence[Projected]) -> None:
        ids = [p.match_id for p in batch]
        newer = {r.match_id: r.seq for r in conn.execute(
            select(FACTS_TABLE.c.match_id, FACTS_TABLE.c.seq, FACTS_TABLE.c.version)
            .where(FACTS_TABLE.c.match_id.in_(ids))) if r.version == FACTS_VERSION}
        replaced = [p for p in batch if p.upto >= newer.get(p.match_id, 0)]
        if replaced:
            conn.execute(delete(FACTS_TABLE).where(FACTS_TABLE.c.match_id.in_([p.match_id for p in replaced])))
        insert_rows(conn, FACTS_TABLE, [row for p in replaced for row in p.of(self)])


FACTS = Facts()


def facts_row(match: MatchToProject, fold: Fold[Any], rows: Sequence[EventRow] = ()) -> dict[str, Any]:
    """The match's `match_facts` row, from its fold (and its stored rows, if they were folded)."""
    date = match_date(match.meta, format_time(match.created_at))
    made = match_facts(fold, match.match_id, date, stored_fingerprint(fold, rows))
    return {"match_id": match.match_id, "game": made.game, "finished": made.finished, "date": date,
            "seq": fold.seq, "version": FACTS_VERSION, "facts": made.to_json()}


def stored_fingerprint(fold: Fold[Any], rows: Sequence[EventRow]) -> str | None:
    """`stats.fingerprint(fold)` from the folded rows' stored texts, when they are the bytes it is taken over:
    each text shown canonical by its hash and all ASCII (the fingerprint escapes the rest); else None."""
    if after_start(fold.game.name):  # the fold's events are upcast: not the stored texts
        return None
    folded = rows[:fold.seq]
    if len(folded) < fold.seq or not all(r.canonical and r.text is not None and r.text.isascii() for r in folded):
        return None
    # The types are ones the rules took: names of the game's events, which JSON spells as they are.
    body = "[" + ",".join(f'["{r.type}",{r.text}]' for r in folded) + "]"
    return hashlib.sha256(body.encode()).hexdigest()



class FactsReader:
    """The facts as the statistics pages read them, through `projector` (which keeps `FACTS` current)."""

    def __init__(self, projector: Projector) -> None:
        self.projector = projector
        self.engine = projector.store.engine
        self._decoded: dict[str, tuple[int, MatchFacts]] = {}  # match id -> (seq, its facts as read)
        self._summaries: dict[str, tuple[int, MatchSummary]] = {}  # match id -> (seq, its summary as read)

    @classmethod
    def of(cls, store: EventStore) -> FactsReader:
        """The facts of `store`, through a projector of its own (as another process reads them)."""
        return cls(Projector(store, (FACTS,)))

    def decoded(self) -> int:
        """How many facts rows this process holds decoded."""
        return len(self._decoded)

    def warm(self) -> None:
        """Decode every row, so that the first statistics visitor after a start does not wait for it."""
        self.facts(catch_up=False)

    def _reproject(self, match_ids: list[str]) -> None:
        self.projector.reproject(match_ids, (FACTS,))

    def facts(self, game: str | None = None, catch_up: bool = True) -> list[MatchFacts]:
        """Every match's facts (of one game), caught up with the log first; a row of an older facts format
        is recomputed rather than misread. Rows are decoded once per process and kept while their seq stays
        the same (decoding is most of the cost of a statistics request: 10,000 rows take about half a second)."""
        if catch_up:
            self.projector.catch_up()
        table = FACTS_TABLE
        q = select(table.c.match_id, table.c.seq, table.c.version)
        if game:
            q = q.where(table.c.game == game)
        with self.engine.connect() as conn:
            keys = conn.execute(q.order_by(table.c.date, table.c.match_id)).all()
            kept = self._decoded
            missing = [k.match_id for k in keys if (hit := kept.get(k.match_id)) is None or hit[0] != k.seq]
            stale = self._decode(conn, missing, game, len(missing) > len(keys) // 2)
        if stale:
            self._reproject(stale)
            return self.facts(game, catch_up=False)
        out = [hit[1] for k in keys if (hit := kept.get(k.match_id)) is not None and hit[0] == k.seq]
        if len(kept) > KEEP_DECODED:  # a federation's history: decode per request rather than hold it all
            kept.clear()
        return out

    def summaries(self, full: str | None = None, catch_up: bool = True) -> list[MatchSummary]:
        """Every match's summary (`MatchSummary`: enough for the statistics' filters, for counting copies once
        and for every game's first-player win rate), in the order `facts` gives them; the matches of the game
        `full` as their whole facts. A summary is a row's columns and four fields of its JSON, picked out by the
        database: a page that charts one game decodes only that game's turns and tags (decoding every row was
        most of a first statistics load). Both are kept per process while a row's seq stays the same."""
        if catch_up:
            self.projector.catch_up()
        table = FACTS_TABLE
        q = select(table.c.match_id, table.c.seq, table.c.game).order_by(table.c.date, table.c.match_id)
        whole, brief = self._decoded, self._summaries
        with self.engine.connect() as conn:
            keys = conn.execute(q).all()
            of_game, missing_whole, missing_brief = 0, [], []
            for match_id, seq, game in keys:
                of_game += game == full
                if (decoded := whole.get(match_id)) is not None and decoded[0] == seq:
                    continue
                if game == full:
                    missing_whole.append(match_id)
                elif (summarized := brief.get(match_id)) is None or summarized[0] != seq:
                    missing_brief.append(match_id)
            stale = self._decode(conn, missing_whole, full, len(missing_whole) > of_game // 2)
            stale += self._summarize(conn, missing_brief, full, len(missing_brief) > (len(keys) - of_game) // 2)
        if stale:
            self._reproject(stale)
            return self.summaries(full, catch_up=False)
        out: list[MatchSummary] = []
        for match_id, seq, game in keys:
            read: tuple[int, MatchSummary] | None = whole.get(match_id)
            if (read is None or read[0] != seq) and game != full:
                read = brief.get(match_id)
            if read is not None and read[0] == seq:
                out.append(read[1])
        for kept in (whole, brief):
            if len(kept) > KEEP_DECODED:  # a federation's history: decode per request rather than hold it all
                kept.clear()
        return out

    def _summarize(self, conn: Connection, match_ids: list[str], leave_out: str | None, every_row: bool) -> list[str]:
        """Read the summaries of `match_ids` into the kept ones (every row but the game `leave_out`'s in one query
        when most are wanted); returns the ids whose rows are of an older format or unreadable."""
        if not match_ids:
            return []
        table = FACTS_TABLE
        q = _packed_summaries(conn.dialect.name)
        chunks = _chunks(q, match_ids, every_row, table.c.game != leave_out if leave_out else None)
        wanted = set(match_ids)
        stale = []
        try:
            with no_gc():
                for chunk in chunks:
                    packed = conn.execute(chunk).scalar()
                    if not isinstance(packed, list):  # no row (SQL's NULL), or text that did not parse
                        continue
                    for (match_id, seq, version, game, date, finished, players, winners, first_player,
                         fingerprint) in packed:
                        if match_id not in wanted:
                            continue
                        try:
                            if version != FACTS_VERSION or not isinstance(fingerprint, str):
                                raise ValueError("an older format")
                            self._summaries[match_id] = (seq, MatchSummary(
                                match_id=match_id, game=game, date=date,
                                players=tuple((pid, name) for pid, name in players), finished=bool(finished),
                                winners=tuple(winners), first_player=first_player, fingerprint=fingerprint))
                        except (ValueError, KeyError, TypeError):
                            stale.append(match_id)
        except DBAPIError:  # a row the database cannot read as JSON (text written by hand): decode them whole
            conn.rollback()
            return self._decode(conn, match_ids, None, every_row)
        return stale

    def _decode(self, conn: Connection, match_ids: list[str], game: str | None, every_row: bool) -> list[str]:
        """Read and decode the facts of `match_ids` into the kept rows (all rows of the game in one query
        when most are wanted); returns the ids whose rows are of an older format or unreadable."""
        if not match_ids:
            return []
        table = FACTS_TABLE
        q = select(table.c.match_id, table.c.seq, table.c.version, table.c.facts)
        wanted = set(match_ids)
        chunks = _chunks(q, match_ids, every_row, table.c.game == game if game else None)
        stale = []
        with no_gc():
            for chunk in chunks:
                for row in conn.execute(chunk):
                    if row.match_id not in wanted:
                        continue
                    try:
                        if row.version != FACTS_VERSION:
                            raise ValueError("an older format")
                        self._decoded[row.match_id] = (row.seq, MatchFacts.from_json(row.facts))
                    except (ValueError, KeyError, TypeError):
                        stale.append(row.match_id)
        return stale


def _chunks(q: Any, match_ids: list[str], every_row: bool, whole: Any) -> list[Any]:
    """`q` for the rows of `match_ids`: one query over the table (narrowed by `whole`, if given) when most rows
    are wanted, else the ids in slices of 500."""
    if every_row:
        return [q.where(whole) if whole is not None else q]
    return [q.where(FACTS_TABLE.c.match_id.in_(match_ids[i:i + 500])) for i in range(0, len(match_ids), 500)]


def _packed_summaries(dialect: str) -> Select[tuple[Any]]:
    """The summaries of the rows selected, packed by the database into one JSON array of arrays (match id, seq,
    version, game, date, finished, players, winners, first player, fingerprint): one parse in this process for
    them all, rather than a few values to convert per row. PostgreSQL parses each row's JSON once into a record
    (`->` four times parsed it four times: 0.7 s of the server's time for 10,000 rows)."""
    table, facts = FACTS_TABLE, FACTS_TABLE.c.facts
    columns = (table.c.match_id, table.c.seq, table.c.version, table.c.game, table.c.date, table.c.finished)
    if dialect == "postgresql":
        record = func.json_to_record(facts).table_valued(
            column("players", JSON), column("winners", JSON), column("first_player", Text), column("fingerprint", Text)
        ).render_derived(name="summary", with_types=True)
        row = func.json_build_array(*columns, record.c.players, record.c.winners, record.c.first_player,
                                    record.c.fingerprint)
        return select(func.json_agg(row, type_=facts.type)).select_from(table.join(record, true()))
    fields = [func.json_extract(facts, f"$.{key}") for key in ("players", "winners", "first_player", "fingerprint")]
    return select(func.json_group_array(func.json_array(*columns, *fields), type_=facts.type))


