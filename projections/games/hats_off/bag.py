"""Hats Off's draws from a committed bag (projections/bag.py): none. Every hat is on the board from the start,
so a match of Hats Off has no bag to commit to (`bag: "committed"` is refused for it).
"""

from __future__ import annotations

from collections.abc import Mapping

from projections.protocol import Rule

DRAWS: Mapping[str, Rule] = {}
