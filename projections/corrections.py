"""Mistakes at a table without a referee: correction requests and the referee's lines, read from a match's log.

A recorder asks for a correction with a `note` flagged `correction: true` (its `about_seq`: the event to put
right). The request stays **open** until either a later `rewind` covers that event (rewinds to before it:
the event no longer counts) or a later `note` names it in `resolves` (a referee's "dismissed"). A request with
no `about_seq` is closed by any later rewind to before the request. docs/FORMAT.md, "Correction requests".

The scorepad's lines for them (read case-insensitively, as a phone keyboard may capitalise the first letter):

- `correction #7 the 3-4-5 went on the wrong cell` — a correction request about seq 7 (`#7` may be left out);
- `resolve #12 checked, it stands` — a note that closes the request at seq 12 without a rewind;
- `abandon Bo was taken ill` — `match_abandoned` with its reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from projections.errors import IllegalEvent

_CORRECTION = re.compile(r"^correction(?:\s+#(\d+))?(?:\s+(.*))?$", re.S | re.I)
_RESOLVE = re.compile(r"^resolve\s+#?(\d+)(?:\s+(.*))?$", re.S | re.I)
_ABANDON = re.compile(r"^abandon(?:\s+(.*))?$", re.S | re.I)
KEYWORDS = ("correction", "resolve", "abandon")


def referee_line(line: str) -> dict[str, Any] | None:
    """The event of a `correction`, `resolve` or `abandon` line, None for any other line (the game's notation
    reads it), or IllegalEvent for one of these lines that lacks its text."""
    line = line.strip()
    first = line.split(None, 1)[0].lower() if line else ""
    if first not in KEYWORDS:
        return None
    if m := _CORRECTION.match(line):
        text = (m.group(2) or "").strip()
        if not text:
            raise IllegalEvent("a correction request needs a few words: correction #7 tile on the wrong cell")
        data: dict[str, Any] = {"text": text, "correction": True}
        if m.group(1):
            data["about_seq"] = int(m.group(1))
        return {"type": "note", "data": data}
    if m := _RESOLVE.match(line):
        text = (m.group(2) or "").strip() or "dismissed"
        return {"type": "note", "data": {"text": text, "resolves": int(m.group(1))}}
    if m := _ABANDON.match(line):
        reason = (m.group(1) or "").strip()
        if not reason:
            raise IllegalEvent("say why the match is abandoned: abandon Bo was taken ill")
        return {"type": "match_abandoned", "data": {"reason": reason}}
    raise IllegalEvent("resolve needs the seq of the request it closes: resolve #12 checked, it stands")


@dataclass(frozen=True)
class Request:
    """One correction request: the note's seq, the event it is about (None: not said), its text, who asked,
    and how it was closed (None while open): the rewind's or the resolving note's seq."""

    seq: int
    about_seq: int | None
    text: str
    recorded_by: str | None = None
    recorded_at: str | None = None
    resolved_by: int | None = None
    resolution: str | None = None  # "rewind" or "note"

    @property
    def open(self) -> bool:
        return self.resolved_by is None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "about_seq": self.about_seq, "text": self.text, "recorded_by": self.recorded_by,
                "recorded_at": self.recorded_at, "open": self.open, "resolved_by": self.resolved_by,
                "resolution": self.resolution}


def requests(events: Iterable[Mapping[str, Any]]) -> list[Request]:
    """Every correction request of a match's events (dicts with seq, type, data; recorded_by and recorded_at when
    known), in seq order, each with how it was closed."""
    found: dict[int, Request] = {}
    for e in events:
        data = e.get("data")
        if not isinstance(data, Mapping):
            continue
        seq = int(e["seq"])
        if e["type"] == "note" and data.get("correction") is True:
            about = data.get("about_seq")
            found[seq] = Request(seq, about if type(about) is int else None, str(data.get("text", "")),
                                 e.get("recorded_by"), e.get("recorded_at"))
        elif e["type"] == "note" and type(data.get("resolves")) is int:
            r = found.get(data["resolves"])
            if r is not None and r.open:
                found[r.seq] = _closed(r, seq, "note")
        elif e["type"] == "rewind" and type(data.get("to_seq")) is int:
            to_seq = data["to_seq"]
            for r in list(found.values()):
                if r.open and to_seq < (r.about_seq if r.about_seq is not None else r.seq):
                    found[r.seq] = _closed(r, seq, "rewind")
    return sorted(found.values(), key=lambda r: r.seq)


def open_requests(events: Iterable[Mapping[str, Any]]) -> list[Request]:
    return [r for r in requests(events) if r.open]


def _closed(r: Request, by: int, how: str) -> Request:
    return Request(r.seq, r.about_seq, r.text, r.recorded_by, r.recorded_at, by, how)
