"""FORMAT.md's hash chain: canonical JSON, event hashes, and checking a chain of envelopes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

GENESIS = "0" * 64
ENVELOPE_KEYS = ("seq", "type", "data", "recorded_at", "recorded_by", "prev_hash")


def canonical_json(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def event_hash(envelope_without_hash: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(dict(envelope_without_hash))).hexdigest()


def format_time(t: datetime) -> str:
    """UTC, millisecond precision, `Z`: the one spelling that is hashed."""
    # SQLite hands back naive datetimes; everything stored is UTC.
    t = t.replace(tzinfo=timezone.utc) if t.tzinfo is None else t.astimezone(timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def parse_time(text: str) -> datetime:
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if t.tzinfo is None:
        raise ValueError(f"time {text!r} has no timezone")
    return t.astimezone(timezone.utc)


@dataclass(frozen=True)
class ChainCheck:
    ok: bool
    events: int
    first_bad_seq: int | None = None
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        if self.ok:
            return {"ok": True, "events": self.events}
        return {"ok": False, "events": self.events, "first_bad_seq": self.first_bad_seq, "reason": self.reason}


def check_chain(envelopes: Iterable[Mapping[str, Any]]) -> ChainCheck:
    """Each envelope's seq follows, its prev_hash is the previous hash, its hash covers the rest."""
    prev, n = GENESIS, 0
    for n, env in enumerate(envelopes, start=1):
        if env.get("seq") != n:
            return ChainCheck(False, n, n, f"seq {env.get('seq')!r} where {n} was expected")
        if env.get("prev_hash") != prev:
            return ChainCheck(False, n, n, "prev_hash is not the previous event's hash")
        body = {k: v for k, v in env.items() if k != "hash"}
        if event_hash(body) != env.get("hash"):
            return ChainCheck(False, n, n, "hash does not match the event's content")
        prev = env["hash"]
    return ChainCheck(True, n)
