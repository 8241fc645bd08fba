"""The cyclic collector is paused while folds run, and left as it was found when the last one ends."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from projections import collector
from projections.timeline import fold_dicts
from tests.examples import load_example


def test_paused_nests_and_restores_the_collector_even_after_an_error() -> None:
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():  # a fold loading an earlier one inside it
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), collector.paused():
        raise ValueError
    assert gc.isenabled()


def test_a_collector_disabled_beforehand_stays_disabled() -> None:
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_overlapping_folds_in_threads_enable_the_collector_once_all_are_done() -> None:
    lines, _ = load_example("hats-off-01")
    inside, release = threading.Event(), threading.Event()

    def slow_lines() -> Iterator[dict[str, Any]]:
        yield from lines[:5]
        inside.set()
        release.wait(10)
        yield from lines[5:]

    worker = threading.Thread(target=lambda: fold_dicts(slow_lines()))
    worker.start()
    assert inside.wait(10)
    fold_dicts(lines)  # a whole fold starts and ends while the other is still running
    assert not gc.isenabled()
    release.set()
    worker.join(10)
    assert gc.isenabled()
