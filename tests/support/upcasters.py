"""A test-only upcaster: Hats Off's round_started once named its caller `called_by` (tests/domain/test_rules_versions.py
registers it; tests/store/test_import_fold.py folds imports through it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.upcasters import Upcaster


def _caller_renamed(data: Mapping[str, Any]) -> dict[str, Any]:
    """Test only: round_started once called its caller `called_by`."""
    return {("caller" if k == "called_by" else k): v for k, v in data.items()}


CALLED_BY = Upcaster("hats_off_round_started_called_by", "hats-off", "round_started", 1,
                     lambda data: "called_by" in data, _caller_renamed, "round_started: called_by → caller")
