"""Live following: every match's new events, or one match's, as Server-Sent Events (recorder/live.py wakes
the streams; docs/LIVE.md)."""
# No `from __future__ import annotations`: FastAPI must see the route annotations as real objects.

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.sse import EventSourceResponse, ServerSentEvent

from recorder import live
from recorder.api.deps import Book, Reader
from recorder.api.errors import responses
from recorder.errors import BadRequest
from recorder.live import Notifier, notifier_for
from recorder.log.inputs import MAX_POSITION

router = APIRouter(tags=["live"])

BATCH = 500  # events read per query; a stream catching up reads as many batches as it needs
RETRY_MS = 1000  # how soon a browser's EventSource reconnects after the stream ends or breaks
STREAM_DESCRIPTION = (
    "Server-Sent Events: each message is one event as GET /api/events serves it (the envelope with `match_id` "
    "and `position`), its `id:` the global position. A reconnecting client's `Last-Event-ID` header (sent by "
    "a browser's EventSource by itself) resumes after that position; `?after=` does the same for clients that "
    "cannot set headers (the header wins when both are sent). Without either the stream starts at the log's "
    "head: only events committed from now on. A comment line keeps an idle connection open every 15 s. "
    "While a match with hidden tiles is in progress a spectator's events carry its hidden tiles as null, "
    "exactly as on GET /api/events. `max_events` and `timeout` end the stream (for scripts and tests); "
    "otherwise it lasts until the client goes or the server shuts down."
)


def _position(text: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) > MAX_POSITION:
        raise BadRequest(f"Last-Event-ID must be a global position (a whole number from 0 to {MAX_POSITION}), "
                         f"not {text[:40]!r}")
    return int(text)


async def start_position(
    sb: Book,
    last_event_id: Annotated[str | None, Header(
        alias="Last-Event-ID", description="the last position already read (sent by a reconnecting EventSource)",
    )] = None,
    after: Annotated[int | None, Query(
        ge=0, le=MAX_POSITION, description="the last position already read (0: from the log's first event)",
    )] = None,
) -> int:
    """Where a stream starts: checked before any byte of it is sent, so a bad one is a 400, not a broken
    stream."""
    if last_event_id is not None and last_event_id.strip():
        return _position(last_event_id.strip())
    if after is not None:
        return after
    return await run_in_threadpool(live.log_head, sb.engine)


Start = Annotated[int, Depends(start_position)]
MaxEvents = Annotated[int | None, Query(ge=1, le=100_000, description="end the stream after this many events")]
Timeout = Annotated[float | None, Query(gt=0, le=86_400, description="end the stream after this many seconds")]


async def _events(read: Callable[[int], list[dict[str, Any]]], notifier: Notifier, after: int,
                  max_events: int | None, timeout: float | None) -> AsyncIterator[ServerSentEvent]:
    live.end_streams_on_exit()
    deadline = None if timeout is None else time.monotonic() + timeout
    sent = 0
    sub = await run_in_threadpool(notifier.subscribe, asyncio.get_running_loop())
    try:
        yield ServerSentEvent(comment=f"following after position {after}", retry=RETRY_MS)
        while not sub.stopped:
            sub.clear()  # before the read: a commit after it wakes the wait below
            events = await run_in_threadpool(read, after)
            for e in events:
                yield ServerSentEvent(raw_data=json.dumps(e, ensure_ascii=False, separators=(",", ":")),
                                      id=str(e["position"]))
                after = e["position"]
                sent += 1
                if max_events is not None and sent >= max_events:
                    return
            if len(events) == BATCH:
                continue
            left = live.RECHECK_SECONDS if deadline is None else deadline - time.monotonic()
            if left <= 0:
                return
            await sub.wait_async(min(left, live.RECHECK_SECONDS))
    finally:
        sub.close()


@router.get(
    "/events/stream",
    response_class=EventSourceResponse,
    summary="Every match's new events as they are recorded (Server-Sent Events)",
    description=STREAM_DESCRIPTION,
    responses=responses(400, 401, s400="A Last-Event-ID or query parameter that is not one (named)",
                        s401="An unknown or revoked token (reads need none)"),
)
async def stream_all(sb: Book, who: Reader, after: Start, max_events: MaxEvents = None,
                     timeout: Timeout = None) -> AsyncIterator[ServerSentEvent]:
    def read(position: int) -> list[dict[str, Any]]:
        return sb.events_after(position, BATCH, who)

    async for message in _events(read, notifier_for(sb.engine), after, max_events, timeout):
        yield message


async def known_match(sb: Book, match_id: str) -> str:
    """The match must exist: a 404 before the stream starts."""
    await run_in_threadpool(sb.summary, match_id)
    return match_id


@router.get(
    "/matches/{match_id}/stream",
    response_class=EventSourceResponse,
    summary="One match's new events as they are recorded (Server-Sent Events)",
    description=STREAM_DESCRIPTION.replace("each message is one event", "each message is one event of the match"),
    responses=responses(400, 401, 404, s400="A Last-Event-ID or query parameter that is not one (named)",
                        s401="An unknown or revoked token (reads need none)"),
)
async def stream_match(sb: Book, who: Reader, match_id: Annotated[str, Depends(known_match)], after: Start,
                       max_events: MaxEvents = None, timeout: Timeout = None) -> AsyncIterator[ServerSentEvent]:
    def read(position: int) -> list[dict[str, Any]]:
        return live.match_events_after(sb, match_id, position, BATCH, who)

    async for message in _events(read, notifier_for(sb.engine), after, max_events, timeout):
        yield message
