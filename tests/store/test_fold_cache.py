"""The fold cache (recorder/store/fold_cache.py) is bounded in estimated bytes, and Fold.resume (a fold that starts
at a snapshot) keeps Fold's behaviour: persistent, and clear about the seqs it does not hold."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine

from projections.registry import GAME_NAMES, get_game
from projections.timeline import EarlierNotHeld, Fold, fold_dicts
from recorder.facade import Scorebook
from recorder.log.file import GENESIS, import_lines
from recorder.store.fold_cache import (
    CACHE_MB_ENV,
    ENTRY_BYTES,
    FoldCache,
    configured_bytes,
    estimated_bytes,
)
from recorder.store.matches import EventStore, StoredFold
from tests.support.snapshots import EVERY, LENGTH, SECRET, log_of

HATS = get_game("hats-off").descriptor.state_bytes  # the estimate per held Hats Off state


def test_the_fold_cache_stays_under_its_byte_bound(engine: Engine) -> None:
    one = ENTRY_BYTES + LENGTH * HATS  # a whole hats-off fold of LENGTH events, as estimated
    bound = 3 * one + 100
    writer = EventStore(engine, snapshot_every=0)
    ids = [writer.import_log(import_lines(log_of("hats-off")[:-i or None]), f"desk{i}")["match_id"]
           for i in range(8)]
    sb = Scorebook(EventStore(engine, snapshot_every=EVERY, snapshot_secret=SECRET, cache_bytes=bound))
    for round_ in range(2):
        for match_id in ids:
            sb.scores(match_id)
            if round_:
                sb.fold(match_id).events  # noqa: B018 (loads nothing: no snapshots here)
            assert 0 < sb.store.cache.bytes <= bound
    assert len(sb.store.cache) == 3 and ids[-1] in sb.store.cache and ids[0] not in sb.store.cache


def test_a_resumed_fold_is_counted_small_until_it_loads_its_earlier_states(engine: Engine) -> None:
    match_id = EventStore(engine, snapshot_every=EVERY, snapshot_secret=SECRET).import_log(
        import_lines(log_of("hats-off")), "desk")["match_id"]
    sb = Scorebook(EventStore(engine, snapshot_every=EVERY, snapshot_secret=SECRET))
    fold = sb.fold(match_id)
    small = sb.store.cache.bytes
    assert fold.held_from == 50 and small == ENTRY_BYTES + (LENGTH - 49) * HATS
    fold.state_at(3)
    assert sb.store.cache.bytes == small + 50 * HATS


def stored_fold(n: int) -> StoredFold:
    return StoredFold(fold_dicts(log_of("hats-off")[:n]), GENESIS, n)


def test_a_fold_larger_than_the_whole_bound_is_not_kept_and_a_slower_writer_does_not_undo_a_faster() -> None:
    cache = FoldCache(estimated_bytes(stored_fold(20)))
    cache.publish("big", stored_fold(30))
    assert len(cache) == 0 and cache.bytes == 0
    cache.publish("m", stored_fold(20))
    cache.publish("m", stored_fold(10))
    got = cache.get("m")
    assert got is not None and got.upto == 20 and cache.bytes == estimated_bytes(stored_fold(20))


def test_a_cleared_cache_holds_nothing_and_counts_nothing() -> None:
    cache = FoldCache(10 * estimated_bytes(stored_fold(20)))
    cache.publish("a", stored_fold(20))
    cache.publish("b", stored_fold(10))
    cache.clear()
    assert len(cache) == 0 and cache.bytes == 0 and cache.get("a") is None
    cache.publish("a", stored_fold(10))
    assert cache.bytes == estimated_bytes(stored_fold(10))


def test_the_bound_comes_from_the_argument_else_the_environment_else_256_mib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CACHE_MB_ENV, raising=False)
    assert configured_bytes() == 256 * 1024 * 1024
    monkeypatch.setenv(CACHE_MB_ENV, "1.5")
    assert configured_bytes() == 1536 * 1024 and configured_bytes(1000) == 1000
    monkeypatch.setenv(CACHE_MB_ENV, "lots")
    with pytest.raises(ValueError, match=CACHE_MB_ENV):
        configured_bytes()


def test_a_resumed_fold_without_a_loader_says_it_holds_no_earlier_state_and_stays_persistent() -> None:
    log = log_of("high-five")
    full = fold_dicts(log)
    resumed = Fold.resume(full.event(1), full.event(20), full.state_at(20), full.at(20).superseded_by)
    assert resumed.seq == 20 and resumed.held_from == 20 and resumed.event(1) == full.event(1)
    a = resumed.extend(fold_dicts(log[:30]).events[20:])
    b = resumed.extend(fold_dicts(log[:25]).events[20:])
    assert a.seq == 30 and b.seq == 25 and resumed.seq == 20  # extended two ways, each still right
    assert a.game.to_json(a.state) == full.game.to_json(full.state_at(30))
    assert b.game.to_json(b.state) == full.game.to_json(full.state_at(25))
    assert a.points(21) == full.points(21) and a.describe(21) == full.describe(21)
    for ask in (lambda: a.state_at(19), lambda: a.describe(20), lambda: a.events, lambda: a.at(5)):
        with pytest.raises(EarlierNotHeld, match="resumed at seq 20"):
            ask()
    assert not a.holds(19) and a.holds(20)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_estimate_per_state_covers_what_a_fold_holds(game: str) -> None:
    # The byte bound is only as good as each descriptor's state_bytes: a fold of a long random match must hold no
    # more per event than the estimate (tracemalloc: its events, states and what they share).
    import gc
    import random
    import tracemalloc

    targets = {"tri-ominos": 1500, "high-five": 300, "hats-off": 900}  # long matches; 600 points for the others
    players = [{"id": p, "name": p.title()} for p in ("ann", "bo", "cy")]
    log = get_game(game).random_match(random.Random(7), players, {"target_score": targets.get(game, 600)})[:1500]
    gc.collect()
    tracemalloc.start()
    try:
        fold = fold_dicts(log)
        held = tracemalloc.get_traced_memory()[0] / len(log)
    finally:
        tracemalloc.stop()
    assert fold.seq == len(log)
    estimate = get_game(game).descriptor.state_bytes
    assert held <= estimate, f"{game}: {held:.0f} bytes per event held, estimated {estimate}"
