"""What every game's states must hold, checked by the contract test and the per-game property runs."""

from __future__ import annotations

import dataclasses
from typing import Any


def assert_states_hold_only_their_fields(f: Any) -> None:
    """Every state of fold `f` holds its class's fields and remembered values (`_`-names), nothing else."""
    kind = type(f.state_at(1))
    names = {field.name for field in dataclasses.fields(kind)}
    for seq in range(1, f.seq + 1):
        state = f.state_at(seq)
        assert [k for k in vars(state) if k not in names and not k.startswith("_")] == [], seq
        assert type(state) is kind
