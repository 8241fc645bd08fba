"""A committed digital bag (docs/FORMAT.md, "A committed bag"): the seeds' table, dealing in the append,
the reveal, and the check `verify` makes. The pure part — the shuffle, which events draw what — is
`projections/bag.py`.

The seed is drawn at match_started (`secrets.token_bytes`) and kept in `bag_seeds`, a table no read
path serves (no route, export, backup or state reads it): match_started records only its SHA-256. An
append to such a match fills each draw in from the bag before the rules see it, in the append's
transaction, under the match's lock; the append that ends the match also records `bag_revealed` with
the seed and marks the row revealed. Matches without a committed bag pay one dict look-up per append.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from projections import bag as pure
from projections.bag import Bag
from projections.errors import IllegalEvent
from projections.events import Event
from projections.timeline import Fold
from recorder.errors import BadRequest, Refused
from recorder.log.file import ChainCheck, NewEvent
from recorder.sql.tables import BAG_SEEDS

SERVER_EVENTS = frozenset({"bag_revealed"})


def committed(fold: Fold[Any]) -> bool:
    """Whether the match was started with a committed bag (the append's one question for every match)."""
    return "bag_commitment" in fold.event(1).data


def start(data: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """match_started's data as stored, and the new seed (hex) when it asks for a committed bag. The client
    may not write the commitment itself: BadRequest naming the field."""
    if "bag_commitment" in data:
        raise BadRequest("match_started: bag_commitment is written by the server (the SHA-256 of the seed it draws); "
                         "send bag \"committed\" without it", seq=1, type="match_started")
    if data.get("bag") is None:
        return data, None
    seed = secrets.token_bytes(pure.SEED_BYTES)
    return {**data, "bag_commitment": pure.commitment(seed)}, seed.hex()


def store_seed(conn: Connection, match_id: str, seed: str) -> None:
    conn.execute(BAG_SEEDS.insert().values(match_id=match_id, seed=seed, revealed=False))


def retry_check(conn: Connection, match_id: str) -> Callable[[str, Any, Any], bool] | None:
    """How a retried append's data is compared with what was stored: for a committed bag, equal but for the
    tiles the server dealt (the client sent them null); None (plain equality) for every other match, where a
    draw resent without its tile is another event, a Conflict."""
    seeded = conn.execute(select(BAG_SEEDS.c.match_id).where(BAG_SEEDS.c.match_id == match_id)).first()
    return pure.retried_as if seeded is not None else None


def without_commitment(data: Mapping[str, Any]) -> dict[str, Any]:
    """Stored match_started data as its client sent it (a retried start is compared with this)."""
    return {k: v for k, v in data.items() if k != "bag_commitment"}


class Dealers:
    """Deals the draws of committed matches in the append path; keeps each match's bags (one per seq, as
    the log was recorded) so an append walks only the events it adds."""

    def __init__(self, matches: int = 512) -> None:
        self._bags: OrderedDict[str, list[Bag]] = OrderedDict()
        self._size = matches
        self._lock = threading.Lock()

    def open(self, conn: Connection, match_id: str, fold: Fold[Any]) -> Dealing:
        """A committed match's dealing for one append, `fold` being its stored events folded (under the lock)."""
        seeds = BAG_SEEDS.c
        row = conn.execute(select(seeds.seed, seeds.revealed).where(seeds.match_id == match_id)).first()
        # The seed, and whether this append must reveal it when the match ends. A match imported or restored
        # from elsewhere has no row: its seed is known here only if its log revealed it.
        seed, reveal_due = (row.seed, not row.revealed) if row is not None else (None, False)
        if seed is None:
            seed = next((e.data["seed"] for e in fold.events if e.type == "bag_revealed"), None)
        with self._lock:
            known = self._bags.get(match_id)
        bags = list(known[: fold.seq + 1]) if known is not None else [Bag(), Bag()]
        if seed is not None:
            _walk(fold, bytes.fromhex(seed), bags)
            with self._lock:
                self._bags[match_id] = bags
                self._bags.move_to_end(match_id)
                while len(self._bags) > self._size:
                    self._bags.popitem(last=False)
        return Dealing(conn, match_id, fold.game.name, seed, reveal_due, list(bags))


class Dealing:
    """One append's dealing: each event dealt before the rules see it (`deal`), and the reveal (`reveal`)."""

    def __init__(
        self, conn: Connection, match_id: str, game: str, seed: str | None, reveal_due: bool, bags: list[Bag]
    ) -> None:
        self._conn, self._match_id, self._game, self._seed = conn, match_id, game, seed
        self._reveal_due, self._bags = reveal_due, bags

    def check(self, events: Sequence[NewEvent]) -> None:
        """A client may not record what only the server records, and a draw ends its append: an event after it
        may depend on the tiles it deals (a placement of one, a second draw refused because the first fits), and
        a batch refused there would tell, storing nothing, what the bag deals next."""
        for i, e in enumerate(events):
            if e.type in SERVER_EVENTS:
                raise BadRequest(f"events[{i}]: {e.type} is recorded by the server when the match ends", type=e.type)
            if i and pure.draws(self._game, events[i - 1].type):
                raise BadRequest(
                    f"events[{i}]: in a match with a committed bag a draw ({events[i - 1].type}) is the last event of "
                    f"its append; send {e.type} in the next one", type=e.type)

    def deal(self, fold: Fold[Any], seq: int, e: NewEvent) -> NewEvent:
        """`e` (at `seq`, after `fold`) with the tiles it draws dealt from the bag; Refused for a tile written, or
        when this server does not hold the seed."""
        bags = self._bags
        bag = pure.after(bags, Event(seq, e.type, e.data))
        if bag is not None:
            bags.append(bag)
            return e
        game = fold.game.name
        if self._seed is None:
            if pure.draws(game, e.type):
                raise Refused(f"{e.type}: this server does not hold the seed of this match's committed bag (the match "
                              "was imported or restored from elsewhere), so it cannot deal its draws", seq, e.type)
            bags.append(bags[-1])
            return e
        # A tile the client writes is refused whatever it is: were the bag's own accepted, trying tile after
        # tile (in a batch that fails later, so nothing is drawn) would find the next one by elimination.
        tiles = pure.written(game, fold.state, e.type, e.data)
        if tiles:
            raise Refused(f"{e.type}: {tiles[0]} is written, but the server deals the draws of a match with a "
                          "committed bag: leave the tiles out (or null)", seq, e.type)
        try:
            dealt = pure.deal(game, fold.state, e.type, e.data, bags[-1], bytes.fromhex(self._seed))
            if dealt is None and pure.draws(game, e.type):
                fold.game.apply(fold.state, Event(seq, e.type, e.data))  # the rules' own refusal, when they have one
                raise IllegalEvent(f"{e.type}: this draw cannot be dealt from the committed bag here")
        except IllegalEvent as err:
            raise Refused(err.reason, seq, e.type) from err
        if dealt is None:
            bags.append(bags[-1])
            return e
        bags.append(dealt.bag)
        return NewEvent(e.type, dealt.data, e.event_id)

    def reveal(self, fold: Fold[Any], events: list[NewEvent]) -> tuple[list[NewEvent], Fold[Any]]:
        """When the append ended the match: `bag_revealed` after its events (folded too), and the seed's row marked
        revealed, in the append's transaction."""
        if not self._reveal_due or not fold.finished or self._seed is None:
            return events, fold
        reveal = NewEvent("bag_revealed", {"seed": self._seed})
        fold = fold.apply(Event(fold.seq + 1, reveal.type, reveal.data))
        self._conn.execute(update(BAG_SEEDS).where(BAG_SEEDS.c.match_id == self._match_id).values(revealed=True))
        return [*events, reveal], fold


def _walk(fold: Fold[Any], seed: bytes, bags: list[Bag]) -> None:
    """Extend `bags` (the bag after each seq) to the end of `fold`."""
    game = fold.game.name
    for seq in range(len(bags), fold.seq + 1):
        event = fold.event(seq)
        bag = pure.after(bags, event)
        if bag is None:
            try:
                dealt = pure.deal(game, fold.state_at(seq - 1), event.type, event.data, bags[-1], seed)
            except IllegalEvent:  # a stored draw not from the bag (imported so): verify names it; deal on
                dealt = None
            bag = dealt.bag if dealt is not None else bags[-1]
        bags.append(bag)


# -- verify ----------------------------------------------------------------------------------------


def verified(check: ChainCheck, envelopes: Sequence[Mapping[str, Any]]) -> ChainCheck:
    """A chain check that passed, with the committed bag's draws checked against the revealed seed (a log
    without a committed bag: `check` as it is)."""
    if not check.ok or not envelopes or not pure.is_committed(envelopes[0].get("data") or {}):
        return check
    n = check.events
    fold: Fold[Any] | None = None
    for env in envelopes:
        event = Event(env["seq"], env["type"], env["data"])
        try:
            fold = Fold.begin(event) if fold is None else fold.apply(event)
        except IllegalEvent as e:
            return ChainCheck(False, n, event.seq, f"{event.type} is refused by the rules: {e.reason}")
    assert fold is not None
    seed = next((e.data["seed"] for e in fold.events if e.type == "bag_revealed"), None)
    if seed is None:
        if fold.finished:
            return ChainCheck(False, n, n + 1, "the match is finished but its committed bag's seed was never revealed")
        return ChainCheck(True, n, bag="committed; the draws can be checked once the seed is revealed at the end")
    bag = pure.check(fold, bytes.fromhex(seed))
    if not bag.ok:
        return ChainCheck(False, n, bag.seq, f"not dealt from the committed bag: {bag.reason}")
    return ChainCheck(True, n, bag=f"every draw followed from the committed seed ({bag.tiles} tiles in {bag.draws} "
                                   "draws; its SHA-256 is the commitment)")
