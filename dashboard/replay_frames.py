"""Every step of a replay drawn once and sent to the browser as compact differences, so stepping needs no
server round trip (dashboard/assets/scorebook.js applies them).

A frame is what changes with the step: the board figure, the player panel (Dash component JSON), the
score text and the current event's words. Frames of neighbouring steps are mostly equal (a tile more on the
board, a score changed), so the page gets frame 0 in full and, for each step k ≥ 1, the difference from
frame k-1 as a small tree of operations (`delta`), which `apply` (and its twin in scorebook.js) turns
back into frame k, sharing every unchanged part with frame k-1:

- `["=", value]`: the new value;
- `["o", {key: op}, [removed keys]]`: an object with some keys changed or removed;
- `["a", keep, [items], {index: op}, tail]`: an array: the first `keep` items of the old one (those at the
  given indices changed by their op), then `items`, then the last `tail` items of the old one — a grown
  trace is its new points only, a tile taken out of the middle of a trace is a cut.

The payload is that JSON gzipped and base64-encoded (the browser's DecompressionStream reads it): the
differences of a board repeat a lot (a High Five pile reflows when a tile is added, so its coordinates
change), which gzip takes out — 30–230 KB for a 500-event match instead of 0.4–3.6 MB.

Frames are built from the viewer's replay (`viewed_replay`): a spectator's frames are drawn from the
redacted states, the same a step-by-step read serves them, so nothing hidden is in them.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dash.development.base_component import Component

from dashboard.model import Replay, StepView, step_view
from projections.timeline import Fold
from recorder.facade import Scorebook

Op = list[Any]


def delta(old: Any, new: Any) -> Op | None:
    """The operation turning `old` into `new` (plain JSON values); None when they are equal."""
    if old == new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {k: op for k, v in new.items() if (op := delta(old.get(k, _MISSING), v)) is not None}
        removed = [k for k in old if k not in new]
        return ["o", changed, removed]
    if isinstance(old, list) and isinstance(new, list):
        return _list_delta(old, new)
    return ["=", new]


class _Missing:
    """A key absent from the old object: never equal to a value, and not a dict or a list."""

    def __eq__(self, other: object) -> bool:
        return other is self

    def __hash__(self) -> int:
        return 0


_MISSING = _Missing()


def _list_delta(old: list[Any], new: list[Any]) -> Op:
    shorter = min(len(old), len(new))
    prefix = 0
    while prefix < shorter and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shorter - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    cut: Op = ["a", prefix, new[prefix:len(new) - suffix], {}, suffix]
    if not any(isinstance(v, dict | list) for v in new) and not any(isinstance(v, dict | list) for v in old):
        # Points and labels: the cut never holds more items than the whole; index patches pay for
        # themselves only when few items changed in place (each costs its index and an op).
        changed = [i for i in range(prefix, shorter) if old[i] != new[i]]
        if len(old) == len(new) and 4 * len(changed) < len(cut[2]):
            return ["a", shorter, [], {str(i): ["=", new[i]] for i in changed}, 0]
        return cut
    if len(old) != len(new):  # traces or lines came or went: keep what is equal at both ends
        return cut
    # The same traces (lines, cards) changed in place: each by its own difference.
    patches = {str(i): op for i in range(prefix, shorter) if (op := delta(old[i], new[i])) is not None}
    return ["a", shorter, [], patches, 0]


def apply(old: Any, op: Op | None) -> Any:
    """`old` changed by `op` (a new value; `old` is left as it was)."""
    if op is None:
        return old
    kind = op[0]
    if kind == "=":
        return op[1]
    if kind == "o":
        out = dict(old)
        for k, sub in op[1].items():
            out[k] = apply(old.get(k), sub)
        for k in op[2]:
            out.pop(k, None)
        return out
    items = list(old[: op[1]])
    for i, sub in op[3].items():
        items[int(i)] = apply(items[int(i)], sub)
    return items + list(op[2]) + (list(old[len(old) - op[4]:]) if op[4] else [])


def step_frames(
    sb: Scorebook, replay: Replay, draw: Callable[[Replay, StepView], tuple[Any, ...]], fold: Fold[Any] | None = None
) -> list[dict[str, Any]]:
    """Every step's frame (0 … N) as plain JSON values, each step drawn by `draw` (the page's `render_parts`:
    board figure, panel, label, score text, the event's words)."""
    fold = fold if fold is not None else sb.fold(replay.match_id)
    out = []
    for k in range(replay.seq + 1):
        figure, panel, _label, score_text, now = draw(replay, step_view(sb, replay, k, fold))
        out.append({"figure": figure, "panel": plain(panel), "score": score_text, "now": plain(now)})
    return out


def plain(value: Any) -> Any:
    """Dash components as the JSON Dash sends of them ({props, type, namespace}); other values as they are
    (the boards' figures are plain JSON already)."""
    if isinstance(value, Component):
        return {**value.to_plotly_json(), "props": plain(value.to_plotly_json()["props"])}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def encode(frames: Sequence[Mapping[str, Any]]) -> str:
    """The page's payload: `{"first": frame 0, "deltas": [op of step 1, …]}` as compact JSON."""
    deltas = [delta(a, b) for a, b in zip(frames, frames[1:], strict=False)]
    return json.dumps({"first": frames[0], "deltas": deltas}, separators=(",", ":"))


def pack(frames: Sequence[Mapping[str, Any]]) -> str:
    """`encode`d, gzipped and base64-encoded: what the page's `replay-frames` store holds."""
    return base64.b64encode(gzip.compress(encode(frames).encode(), compresslevel=6, mtime=0)).decode("ascii")


def unpack(payload: str) -> str:
    return gzip.decompress(base64.b64decode(payload)).decode()


def decode(payload: str) -> list[Any]:
    """The frames back from an `encode`d payload (what the page script does, for the tests)."""
    data = json.loads(payload)
    frames = [data["first"]]
    for op in data["deltas"]:
        frames.append(apply(frames[-1], op))
    return frames
