"""What the pages show, read through the recorder's read functions and the projections only.

`Replay` is everything about a match that does not change from step to step (the event list with its
annotations and points, the score series, the bonus steps, the chain check), built once per match and
version (its last seq) and kept in a small LRU cache. A step change is then a lookup of the folded
state the store's fold cache already holds (`Fold.state_at`) plus drawing it: nothing is refolded.

Steps: step k (0 ≤ k ≤ N) is the match right after event seq k; step 0 is the start, before any event
(drawn as the table right after `match_started`, which changes nothing on it).

What a viewer sees of a match in progress depends on who they are (recorder/access/visibility.py): a spectator's
replay tells the events and draws the states redacted (projections/redaction.py). A replay is built for
one `View` and cached under it, so a redacted one and a full one are never served to each other's viewer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from projections.protocol import Game, PadStep
from projections.redaction import FULL, View, describe, redact_state
from projections.scores import scores_json
from projections.stats import match_date as stats_date
from projections.timeline import Fold
from recorder.errors import ChainBroken
from recorder.facade import Scorebook
from recorder.log.file import ChainCheck


@dataclass(frozen=True)
class EventRow:
    seq: int
    type: str
    player: str | None  # player id
    text: str
    points: Mapping[str, int]
    recorded_by: str
    recorded_at: str
    tags: tuple[str, ...]
    superseded_by: int | None  # seq of the rewind that undid it
    superseded_reason: str | None


@dataclass(frozen=True)
class Replay:
    match_id: str
    game: str
    players: tuple[tuple[str, str], ...]
    seq: int  # N: the number of events
    finished: bool
    summary: Mapping[str, Any]
    rows: tuple[EventRow, ...]
    totals: tuple[Mapping[str, int], ...]  # index k: totals at step k (index 0: all zero)
    bonus_steps: tuple[int, ...]
    chain_ok: bool
    chain_text: str
    extras: Mapping[str, Any]  # what a board needs besides the state (High Five values, Hi-Spot patterns)
    view: View = FULL  # whose hidden tiles the rows and the steps show
    upto: int = 0  # the seq of the fold it was built from (more than `seq` when the stored rows break before)
    check: ChainCheck | None = None  # the stored rows' chain check it was built with
    # Hindsight's missed plays by the seq of the event that missed them (projections/hindsight.py, as JSON):
    # empty for a spectator of a match in progress, whom hindsight would show tiles the table has not seen.
    missed: Mapping[int, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)

    @property
    def names(self) -> dict[str, str]:
        return dict(self.players)


class ReplayCache:
    """Replays by match id and view, rebuilt when the match has grown; thread-safe, least recently used out."""

    def __init__(self, size: int = 32) -> None:
        self._items: OrderedDict[tuple[str, View], Replay] = OrderedDict()
        # The browser's frames of a replay (dashboard/replay_frames.py), kept with the replay they were drawn
        # from: a few hundred KB each, so fewer of them.
        self._frames: OrderedDict[tuple[str, View], tuple[Replay, str]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def replay(
        self, sb: Scorebook, match_id: str, fold: Fold | None = None, view: View = FULL,
        check: ChainCheck | None = None,
    ) -> Replay:
        """The replay as `view` may see it (FULL: every tile; the caller decides, recorder/access/visibility.py).

        `check` is the chain check of the stored rows as the caller just read them (the page does on every
        load, so that a row edited in the database shows at once); a cached replay built with another check
        is rebuilt. Without one (a step change), the cached replay's check stands."""
        fold = fold if fold is not None else sb.fold(match_id)
        key = (match_id, view)
        with self._lock:
            cached = self._items.get(key)
            if cached is not None and cached.upto == fold.seq and (check is None or cached.check == check):
                self._items.move_to_end(key)
                return cached
        replay = build_replay(sb, match_id, fold, view, check if check is not None else sb.verify(match_id))
        with self._lock:
            self._items[key] = replay
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return replay

    def frames(self, replay: Replay, build: Callable[[], str], size: int = 8) -> str:
        """The frames payload of `replay`, built by `build` once for that replay (a grown or re-checked match
        is a new replay)."""
        key = (replay.match_id, replay.view)
        with self._lock:
            hit = self._frames.get(key)
            if hit is not None and hit[0] is replay:
                self._frames.move_to_end(key)
                return hit[1]
        payload = build()
        with self._lock:
            self._frames[key] = (replay, payload)
            self._frames.move_to_end(key)
            while len(self._frames) > size:
                self._frames.popitem(last=False)
        return payload


def match_date(summary: Mapping[str, Any]) -> str:
    return stats_date(summary.get("meta"), str(summary.get("created_at", "")))


def build_replay(
    sb: Scorebook, match_id: str, fold: Fold[Any], view: View = FULL, check: ChainCheck | None = None
) -> Replay:
    """The replay of `fold`; when the stored rows' `check` fails at seq k, of its seqs before k only (ChainBroken
    when k is 1: nothing to replay)."""
    check = check if check is not None else sb.verify(match_id)
    upto = fold.seq
    if not check.ok and check.first_bad_seq is not None and check.first_bad_seq <= fold.seq:
        if check.first_bad_seq <= 1:
            raise ChainBroken(f"chain broken at seq 1: {check.reason}; nothing of the match can be replayed", 1)
        fold = fold.at(check.first_bad_seq - 1)
    game = fold.game
    stored = {r.seq: r for r in sb.event_rows(match_id)}
    rows = []
    totals: list[Mapping[str, int]] = [{pid: 0 for pid, _ in fold.players}]
    bonus = []
    for e in fold.events:
        note = describe(fold, e.seq, view)
        row = stored.get(e.seq)
        rewind = fold.superseded_by.get(e.seq)
        reason = fold.event(rewind).data.get("reason", "") if rewind else None
        rows.append(EventRow(
            seq=e.seq,
            type=e.type,
            player=note.player,
            text=note.text,
            points=fold.points(e.seq),
            recorded_by=row.recorded_by if row is not None else "",
            recorded_at=_when(row.recorded_at) if row is not None else "",
            tags=tuple(note.tags),
            superseded_by=rewind,
            superseded_reason=reason,
        ))
        totals.append(game.scores(fold.state_at(e.seq)).totals)
        if rewind is None and game.descriptor.is_bonus(note.tags):
            bonus.append(e.seq)
    if check.ok:
        chain_text = f"{check.events} events, chain intact"
    else:
        chain_text = (f"chain broken at seq {check.first_bad_seq}: {check.reason} — "
                      f"the replay stops at seq {fold.seq}")
    missed: dict[int, tuple[Mapping[str, Any], ...]] = {}
    if view.everything:
        for m in sb.missed(match_id)["missed"]:
            if m["seq"] <= fold.seq:
                missed[m["seq"]] = (*missed.get(m["seq"], ()), m)
    return Replay(
        match_id=match_id,
        game=game.name,
        players=tuple(fold.players),
        seq=fold.seq,
        finished=fold.finished,
        summary=sb.summary(match_id),
        rows=tuple(rows),
        totals=tuple(totals),
        bonus_steps=tuple(bonus),
        chain_ok=check.ok,
        chain_text=chain_text,
        extras=game.board_extras(fold.event(1).data),
        view=view,
        upto=upto,
        check=check,
        missed=missed,
    )


def _when(t: Any) -> str:
    try:
        return str(t.strftime("%Y-%m-%d %H:%M:%S"))
    except AttributeError:
        return str(t)[:19].replace("T", " ")


def clamp_step(step: Any, n: int) -> int:
    try:
        k = int(step)
    except (TypeError, ValueError):
        return 0
    return max(0, min(n, k))


@dataclass(frozen=True)
class StepView:
    step: int
    seq: int  # the event drawn (step 0 draws seq 1)
    board: dict[str, Any]  # the projection's state JSON
    scores: dict[str, Any]  # FORMAT.md's scores JSON at the step
    row: EventRow | None


def step_view(sb: Scorebook, replay: Replay, step: int, fold: Fold[Any] | None = None) -> StepView:
    """The match at step k: a lookup in the store's cached fold, never a refold."""
    fold = fold if fold is not None else sb.fold(replay.match_id)
    k = clamp_step(step, min(fold.seq, replay.seq))  # a broken chain's replay stops before the break
    seq = max(1, k)
    at = fold.at(seq)
    sheet = scores_json(at, replay.match_id)
    if k == 0:
        sheet = {**sheet, "seq": 0, "players": [{**p, "score": 0} for p in sheet["players"]]}
    board = redact_state(fold.game.descriptor, fold.game.to_json(fold.state_at(seq)), replay.view)
    return StepView(k, seq, board, sheet, replay.rows[k - 1] if k else None)


def points_text(points: Mapping[str, int], names: Mapping[str, str]) -> str:
    from dashboard.theme import signed

    return ", ".join(f"{names.get(p, p)} {signed(v)}" for p, v in points.items() if v)


# -- the scorepad ----------------------------------------------------------------------------------
#
# The pad (dashboard/pages/pad.py) shows one position: the match right after its last event. What the
# pad needs of it that does not change until the next event — the legal moves of every player with
# their notation (`projections.notation.legal_moves`) and their point-and-click paths
# (`Game.pad_path`) — is built once per (match, seq) and kept in a small LRU cache, so a click on a
# step is a lookup.


@dataclass(frozen=True, slots=True, eq=False)
class PadMove:
    """A legal move as the pad offers it: its line, and the clicks to it as plain (kind, value, label)
    tuples — the garbage collector stops tracking tuples of strings, which keeps a position of a thousand
    moves cheap to hold. The event it records is read back from the line when asked for."""

    notation: str  # the line that records it (projections.notation), also the datalist suggestion
    steps: tuple[tuple[str, str, str], ...]  # the click path; () when the game gives it none (typed only)
    game: Game[Any]
    state: Any  # the position's state, where the notation is read

    @property
    def path(self) -> tuple[PadStep, ...]:
        return tuple(PadStep(*step) for step in self.steps)

    @property
    def event(self) -> dict[str, Any]:
        """{type, data}: what the move records (the notation reads back to exactly its event)."""
        from projections.notation import parse_line

        return parse_line(self.game, self.state, self.notation)


@dataclass(frozen=True)
class Position:
    match_id: str
    seq: int
    moves: tuple[PadMove, ...]

    @property
    def notations(self) -> list[str]:
        return [m.notation for m in self.moves]


@dataclass(frozen=True)
class Choices:
    """Where a point-and-click path stands: the steps chosen so far, the choices of the next step and
    the moves still possible (one left: the pad offers to record it)."""

    chosen: tuple[PadStep, ...]
    next: tuple[PadStep, ...]
    remaining: tuple[PadMove, ...]

    @property
    def kind(self) -> str | None:
        """The kind of the next step when all its choices share one ("board": drawn on the board too)."""
        kinds = {s.kind for s in self.next}
        return kinds.pop() if len(kinds) == 1 else None

    @property
    def board_values(self) -> list[str]:
        return [s.value for s in self.next if s.kind == "board"]


def build_position(match_id: str, fold: Fold[Any]) -> Position:
    from projections.notation import legal_moves

    game, state = fold.game, fold.state
    moves = []
    for move in legal_moves(game, state, [pid for pid, _ in fold.players]):
        steps = tuple((s.kind, s.value, s.label) for s in game.pad_path(move))
        moves.append(PadMove(move["notation"], steps, game, state))
    return Position(match_id, fold.seq, tuple(moves))


class PositionCache:
    """The newest position of each match (a pad only ever shows its match's last seq); thread-safe, least
    recently used match out. Kept small: a position of Hats Off holds thousands of objects, and every
    object kept makes Python's full garbage collections slower."""

    def __init__(self, size: int = 16) -> None:
        self._items: OrderedDict[str, Position] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def position(self, match_id: str, fold: Fold[Any]) -> Position:
        with self._lock:
            hit = self._items.get(match_id)
            if hit is not None and hit.seq == fold.seq:
                self._items.move_to_end(match_id)
                return hit
        position = build_position(match_id, fold)
        with self._lock:
            current = self._items.get(match_id)
            if current is None or current.seq <= position.seq:
                self._items[match_id] = position
                self._items.move_to_end(match_id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return position


def choices(position: Position, chosen: Sequence[str]) -> Choices:
    """The next step after the values `chosen` (a prefix of some moves' paths); values that no longer
    lead anywhere (the position changed) are dropped from the end."""
    values = list(chosen)
    while True:
        k = len(values)
        remaining = tuple(m for m in position.moves
                          if m.steps and len(m.steps) >= k and all(m.steps[i][1] == v for i, v in enumerate(values)))
        if remaining or not values:
            break
        values.pop()
    steps: list[PadStep] = []
    seen: set[str] = set()
    for m in remaining:
        if len(m.steps) > k and m.steps[k][1] not in seen:
            seen.add(m.steps[k][1])
            steps.append(PadStep(*m.steps[k]))
    taken = tuple(PadStep(*step) for step in remaining[0].steps[:k]) if remaining else ()
    return Choices(taken, tuple(steps), remaining)
