""""Could they have played?" for the facade: the legal moves at a step as the viewer may know them, and the
match's missed plays in hindsight (projections/hindsight.py), each kept per match version.

What a viewer knows (recorder/access/visibility.py):
- a referee, an admin, a recorder of the match, or anyone once the match is finished: the log as recorded.
  The moves are those of the tiles the log names at that step; hindsight (what the log learnt later) comes
  with them as `missed`.
- a spectator of a match in progress: the log with every hidden tile redacted to null, folded again — a
  redacted log is a valid log whose hidden tiles were drawn unseen — so the state is the table's: nothing
  hidden is used, and a move that would name an unseen tile is left out (its count is `unseen`).
  No hindsight: it would name tiles the table has not seen yet.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from projections.errors import IllegalEvent
from projections.events import Event
from projections.hindsight import Missed, missed_plays
from projections.notation import legal_moves
from projections.redaction import View, redact_data
from projections.timeline import Fold
from recorder.errors import BadRequest

T = TypeVar("T")


class _Lru:
    """A few values by key, least recently used out; thread-safe (a value is built outside the lock)."""

    def __init__(self, size: int) -> None:
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]  # type: ignore[no-any-return]
        value = build()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


class Knowledge:
    """The table's fold (redacted, refolded) and the hindsight of each match, by (match, last seq): a match only
    grows, so a version is its last seq. Hindsight of a 500-event match costs tens of milliseconds."""

    def __init__(self, size: int = 16) -> None:
        self._tables = _Lru(size)
        self._missed = _Lru(4 * size)

    def table_fold(self, match_id: str, whole: Fold[Any], view: View) -> Fold[Any]:
        """`whole` (every seq) as the table knew it: each event's hidden fields redacted for `view`, refolded."""
        return self._tables.get((match_id, whole.seq, view), lambda: table_fold(whole, view))

    def missed(self, match_id: str, whole: Fold[Any]) -> list[Missed]:
        return self._missed.get((match_id, whole.seq), lambda: missed_plays(whole))


def table_fold(whole: Fold[Any], view: View) -> Fold[Any]:
    """`whole` refolded from its events with their hidden fields redacted for `view`: the table's states.

    A redacted log is a valid log with tiles drawn unseen — except where the recorder's knowledge carried the
    match on: a Tri-Ominos or Hi-Spot round that ended with every hand known (its end points counted at once)
    waits, redacted, for a reveal that was never recorded. From such an event on, the table's state is the
    recorded one with the hidden hands turned face down (the game's `hindsight.as_table`), and the refold goes
    on from there: the next round's redacted deals give the table's knowledge again."""
    d = whole.game.descriptor
    events = whole.events
    table = Fold.begin(events[0])
    as_table = whole.game.hindsight.as_table
    for e in events[1:]:
        redacted = Event(e.seq, e.type, redact_data(d, e.type, e.data, view)[0])
        try:
            table = table.apply(redacted)
        except IllegalEvent:
            at = whole.at(e.seq)
            earlier = table
            table = Fold.resume(events[0], redacted, as_table(at.state, view.sees), at.superseded_by,
                                earlier=lambda earlier=earlier: earlier, abandons=at.abandons)  # type: ignore[misc]
    return table


def to_move(f: Fold[Any], state: Any) -> str | None:
    """The player the game names to act in `state` (its descriptor's `to_move_key`), or None: anyone, or nobody."""
    key = f.game.descriptor.to_move_key
    value = f.game.to_json(state).get(key) if key else None
    return value if isinstance(value, str) and value in dict(f.players) else None


def legal_answer(
    match_id: str, at: Fold[Any], player: str | None, table: bool, missed: Sequence[Missed] | None
) -> dict[str, Any]:
    """The legal answer in `at` (the fold as the viewer knows it, cut at the step): for `player`, else the
    player to move, else every player. `table`: the viewer is a spectator (moves naming unseen tiles are left
    out). `missed`: the match's hindsight (None: not for this viewer); the answer keeps the event recorded next."""
    ids = [pid for pid, _ in at.players]
    if player is not None and player not in ids:
        raise BadRequest(f"player {player!r} does not play in this match; its players: {', '.join(ids)}")
    mover = to_move(at, at.state)
    asked = player or mover
    players = [asked] if asked is not None else ids
    try:
        moves = [] if at.finished else legal_moves(at.game, at.state, players)
    except IllegalEvent as e:
        raise BadRequest(e.reason) from e
    rules = at.game.hindsight
    unseen = {}
    for pid in players:
        held = rules.held(at.state, pid)
        if held is not None and held[1]:
            unseen[pid] = held[1]
    if table:  # High Five lists a hidden slot as every unseen tile: a spectator is told how many, not which
        moves = [m for m in moves if not m.get("hidden")]
    return {
        "match_id": match_id,
        "seq": at.seq,
        "player": asked,
        "to_move": mover,
        "view": "table" if table else "recorded",
        "unseen": unseen,
        "moves": moves,
        "missed": None if missed is None else [m.to_json() for m in missed if m.seq == at.seq + 1],
    }
