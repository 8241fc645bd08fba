"""Live following: readers of new events are woken when the log grows, and read them by global position.

One `Notifier` per engine and process (`notifier_for`), whichever number of readers wait on it — the event
streams of the API (`recorder/api/routers/live.py`), `scorebook follow`:

- PostgreSQL: every append's transaction sends `NOTIFY scorebook_events` (recorder/sql/postgres.py), which the
  server delivers at commit, so a woken reader always finds the rows; one dedicated psycopg connection
  LISTENs (autocommit, outside the pool: a pooled connection never has anything to read, see
  `recorder.sql.engine._postgres_liveness`) and wakes every waiting reader.
- SQLite: no notifications, so `max(position)` (the unique index's last entry) is polled every
  `POLL_SECONDS`, only while someone waits.

A waker thread runs only while there are subscribers. It is a hint, never the truth: a reader always
reads from its last position, so a wake too many costs one query and a lost one (the listener
reconnecting) is made up by its wake on reconnecting and by the readers' own re-read every `RECHECK_SECONDS`.

`stop_streams` ends every stream of the process (the server shutting down: uvicorn waits for open
responses to finish, and a stream never would).
"""

from __future__ import annotations

import asyncio
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from datetime import timedelta
from types import FrameType, TracebackType
from typing import Any

from sqlalchemy import func
from sqlalchemy import select as core_select
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from recorder.access.visibility import EVERYTHING, Viewer, redacted_matches
from recorder.sql.tables import Match, StoredEvent

CHANNEL = "scorebook_events"
POLL_SECONDS = 0.25  # SQLite: how often the log's head is read while someone follows
RECHECK_SECONDS = 15.0  # a waiting reader reads again at least this often, woken or not
LIVE_MINUTES = 15  # a match is live: in progress, and its last event was recorded at most this long ago
LISTEN_RETRY_SECONDS = 1.0


def log_head(engine: Engine) -> int:
    """The log's last global position (0 for an empty log): one look at the end of the positions' index."""
    with engine.connect() as conn:
        return int(conn.execute(core_select(func.coalesce(func.max(StoredEvent.position), 0))).scalar_one())


class Subscription:
    """One waiting reader. `clear` before reading, read, then `wait` (or `wait_async`): a wake that comes
    between the read and the wait is kept, so none is lost."""

    def __init__(self, notifier: Notifier, loop: asyncio.AbstractEventLoop | None) -> None:
        self.notifier = notifier
        self._loop = loop
        self._woken = threading.Event()
        self._async = asyncio.Event() if loop is not None else None

    def wake(self) -> None:
        """Called from the notifier's thread (or any other)."""
        self._woken.set()
        if self._loop is not None and self._async is not None:
            try:
                self._loop.call_soon_threadsafe(self._async.set)
            except RuntimeError:  # the loop has closed: its reader is gone
                pass

    def clear(self) -> None:
        self._woken.clear()
        if self._async is not None:
            self._async.clear()

    @property
    def stopped(self) -> bool:
        return self.notifier.stopped

    def wait(self, timeout: float) -> bool:
        """Block until woken or `timeout` seconds pass; whether it was woken."""
        return self._woken.wait(timeout)

    async def wait_async(self, timeout: float) -> bool:
        assert self._async is not None, "subscribe(loop=…) for an async reader"
        try:
            await asyncio.wait_for(self._async.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def close(self) -> None:
        self.notifier.unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class Notifier:
    """Wakes the subscribed readers when the log has grown; the waker thread is the dialect's (`_watch`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._subscribers: set[Subscription] = set()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopping = threading.Event()

    @property
    def stopped(self) -> bool:
        return self._stopping.is_set()

    def subscribe(self, loop: asyncio.AbstractEventLoop | None = None) -> Subscription:
        """A new reader; returns once the waker is in place (LISTENing on PostgreSQL), so that anything
        committed after the reader's first read wakes it. `loop`: the event loop of an async reader."""
        sub = Subscription(self, loop)
        with self._lock:
            self._subscribers.add(sub)
            if self._thread is None:
                self._ready = threading.Event()
                self._thread = threading.Thread(target=self._run, args=(self._ready,), daemon=True,
                                                name=f"scorebook-live-{self.engine.dialect.name}")
                self._thread.start()
            ready = self._ready
        ready.wait(5.0)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(sub)

    def wake_all(self) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for sub in subscribers:
            sub.wake()

    def stop(self) -> None:
        """End every reader's stream (the process is shutting down); the waker thread ends too."""
        self._stopping.set()
        self.wake_all()

    @property
    def listening(self) -> bool:
        with self._lock:
            return self._thread is not None

    def _idle(self) -> bool:
        """No one waits (or the process stops): the thread gives up its place, under the lock, so that the
        next subscriber starts another."""
        with self._lock:
            if self._subscribers and not self._stopping.is_set():
                return False
            self._thread = None
            return True

    def _run(self, ready: threading.Event) -> None:
        try:
            self._watch(ready)
        finally:
            ready.set()
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None

    def _watch(self, ready: threading.Event) -> None:
        raise NotImplementedError


class PollingNotifier(Notifier):
    """SQLite: the log's head read every POLL_SECONDS while anyone follows."""

    def _watch(self, ready: threading.Event) -> None:
        last: int | None = None
        while not self._idle():
            head: int | None
            try:
                head = log_head(self.engine)
            except Exception:  # noqa: BLE001 - a locked or busy database: try again at the next tick
                head = last
            if head != last:  # the first read wakes too: anything before it is read by the readers' first read
                last = head
                self.wake_all()
            ready.set()
            self._stopping.wait(POLL_SECONDS)


class ListeningNotifier(Notifier):
    """PostgreSQL: LISTEN on one dedicated connection; reconnects (and wakes everyone) when it drops."""

    def _watch(self, ready: threading.Event) -> None:
        import psycopg

        conninfo = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._idle():
            try:
                with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    ready.set()
                    self.wake_all()  # whatever was committed while no one listened is read now
                    while not self._idle():
                        for _ in conn.notifies(timeout=0.5):
                            self.wake_all()
            except psycopg.Error:
                ready.set()
                self.wake_all()
                self._stopping.wait(LISTEN_RETRY_SECONDS)


_notifiers: weakref.WeakKeyDictionary[Engine, Notifier] = weakref.WeakKeyDictionary()
_registry_lock = threading.Lock()


def notifier_for(engine: Engine) -> Notifier:
    """The process's notifier of `engine`'s database (made on first use)."""
    with _registry_lock:
        found = _notifiers.get(engine)
        if found is None:
            kind = PollingNotifier if engine.dialect.name == "sqlite" else ListeningNotifier
            found = _notifiers[engine] = kind(engine)
        return found


def stop_streams() -> None:
    """End every open stream of this process (see the module's docstring)."""
    with _registry_lock:
        notifiers = list(_notifiers.values())
    for n in notifiers:
        n.stop()


def end_streams_on_exit() -> None:
    """Make SIGINT and SIGTERM end the open streams before the handler already there (uvicorn's, which then
    waits for open responses to finish) runs. Only from the main thread, where uvicorn puts its handlers;
    called by each stream as it opens, since uvicorn puts them after the app is built."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGINT, signal.SIGTERM):
        before = signal.getsignal(sig)
        if not callable(before) or getattr(before, "ends_streams", False):
            continue
        signal.signal(sig, _chained(before))


def _chained(before: Callable[[int, FrameType | None], Any]) -> Callable[[int, FrameType | None], Any]:
    def handler(sig: int, frame: FrameType | None) -> Any:
        stop_streams()
        return before(sig, frame)

    handler.ends_streams = True  # type: ignore[attr-defined]
    return handler


# -- reading ----------------------------------------------------------------------------------------------


def match_events_after(
    sb: Any, match_id: str, position: int, limit: int = 500, viewer: Viewer = EVERYTHING
) -> list[dict[str, Any]]:
    """One match's events after a global position, as `Scorebook.events_after` serves every match's: each
    envelope with `match_id` and `position`, redacted for a spectator of a match in progress."""
    from projections.redaction import SPECTATOR, redact_envelope
    from projections.registry import get_game

    with Session(sb.engine) as s:
        q = (select(StoredEvent).where(StoredEvent.match_id == match_id, StoredEvent.position > position)
             .order_by(col(StoredEvent.position)).limit(limit))
        events = [{"match_id": r.match_id, "position": r.position, **r.envelope()} for r in s.exec(q)]
    hiding = redacted_matches(sb.engine, [match_id], viewer) if events else {}
    if not hiding:
        return events
    descriptor = get_game(hiding[match_id]).descriptor
    return [redact_envelope(descriptor, e, SPECTATOR) for e in events]


def follow(
    read: Callable[[int], list[dict[str, Any]]], notifier: Notifier, after: int, *,
    max_events: int | None = None, timeout: float | None = None, stop: threading.Event | None = None,
) -> Iterator[dict[str, Any]]:
    """Events as they are committed (blocking): `read(position)` gives those after a position, in order.
    Ends after `max_events` events, after `timeout` seconds, when `stop` is set or the notifier stops."""
    deadline = None if timeout is None else time.monotonic() + timeout
    sent = 0
    with notifier.subscribe() as sub:
        while not sub.stopped and not (stop is not None and stop.is_set()):
            sub.clear()
            events = read(after)
            for e in events:
                yield e
                after = e["position"]
                sent += 1
                if max_events is not None and sent >= max_events:
                    return
            if events:
                continue
            left = RECHECK_SECONDS if deadline is None else min(RECHECK_SECONDS, deadline - time.monotonic())
            if left <= 0:
                return
            sub.wait(min(left, 0.5) if stop is not None else left)  # a stop flag is looked at twice a second


def live_match_ids(engine: Engine, minutes: int = LIVE_MINUTES, now: Any = None) -> list[str]:
    """The matches being played now: in progress, with an event recorded in the last `minutes` minutes
    (the match row's `updated_at`, moved by every append), the latest first."""
    from recorder.sql.tables import utcnow

    since = (now or utcnow()) - timedelta(minutes=minutes)
    with Session(engine) as s:
        q = (select(Match.id).where(Match.status == "in_progress", col(Match.updated_at) >= since)
             .order_by(col(Match.updated_at).desc()))
        return list(s.exec(q))


# -- scorebook follow ---------------------------------------------------------------------------------------


def event_line(sb: Any, event: dict[str, Any]) -> str:
    """One readable line of a followed event: position, match#seq, type, who recorded it, and what happened in
    the game's words (the event list's)."""
    head = f"{event['position']:>7}  {event['match_id']}#{event['seq']}  {event['type']}  {event['recorded_by']}"
    try:
        words = sb.whole_fold(event["match_id"]).describe(event["seq"]).text
    except Exception:  # noqa: BLE001 - a match whose stored rows stop verifying: its line without the words
        words = ""
    return f"{head}  {words}".rstrip()


def follow_lines(sb: Any, match_id: str | None = None, *, from_start: bool = False, max_events: int | None = None,
                 timeout: float | None = None) -> Iterator[str]:
    """`scorebook follow`: the lines of events as they are committed, of one match or of all; `from_start`:
    first those recorded already. The database is read directly (as the desk does): nothing is redacted."""
    if match_id is not None:
        sb.summary(match_id)  # NotFound for an unknown match, before waiting for anything
    after = 0 if from_start else log_head(sb.engine)

    def read(position: int) -> list[dict[str, Any]]:
        if match_id is None:
            return list(sb.events_after(position, 500))
        return match_events_after(sb, match_id, position)

    for event in follow(read, notifier_for(sb.engine), after, max_events=max_events, timeout=timeout):
        yield event_line(sb, event)
