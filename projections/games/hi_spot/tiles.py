"""Hi-Spot tiles: 3×3 dot patterns, their orientations, and the tile sets a ruleset names.

A pattern is a 9-bit mask: bit p is position p (0 top-left … 8 bottom-right, row by row), so
"does this tile cover a dot of the stack" is one `&`.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from projections.errors import IllegalEvent
from projections.options import is_int

FULL = 0b111111111  # a stack of 9 dots covers every position
MIN_DOTS, MAX_DOTS = 1, 6  # RULES.md §3: tiles carry 1–6 dots


def mask_of(positions: list[int] | tuple[int, ...] | frozenset[int]) -> int:
    m = 0
    for p in positions:
        m |= 1 << p
    return m


def positions_of(mask: int) -> list[int]:
    return [p for p in range(9) if mask >> p & 1]


def dot_count(mask: int) -> int:
    return mask.bit_count()


def _moved(mask: int, move: Any) -> int:
    out = 0
    for p in positions_of(mask):
        r, c = move(*divmod(p, 3))
        out |= 1 << (3 * r + c)
    return out


def quarter_turn(mask: int) -> int:
    """(row, col) → (col, 2 − row): a quarter turn clockwise; the centre stays the centre."""
    return _moved(mask, lambda r, c: (c, 2 - r))


def turned_over(mask: int) -> int:
    """(row, col) → (row, 2 − col): the clear tile seen from its other side."""
    return _moved(mask, lambda r, c: (r, 2 - c))


@cache
def orientations(mask: int, allow_flip: bool) -> tuple[int, ...]:
    """The distinct patterns a tile can cover as placed: 4 rotations, and their mirror images if it may be flipped."""
    found: set[int] = set()
    for start in (mask, turned_over(mask)) if allow_flip else (mask,):
        m = start
        for _ in range(4):
            found.add(m)
            m = quarter_turn(m)
    return tuple(sorted(found))


class TileSet:
    """An edition's tiles by id. Immutable; `fitting` memoises a pure function of the stack's pattern."""

    def __init__(self, name: str, tiles: dict[str, int]) -> None:
        self.name = name
        self.masks: dict[str, int] = dict(tiles)  # id -> pattern as printed
        self.ids: frozenset[str] = frozenset(tiles)
        # Looked up on every event: a tile's dots, its bit in a bit set of tiles (`State.located_bits`),
        # and the patterns it may cover as placed (with and without turning over).
        self.dot_counts: dict[str, int] = {t: dot_count(m) for t, m in tiles.items()}
        self.bits: dict[str, int] = {t: 1 << i for i, t in enumerate(tiles)}
        # `placements` by allow_flip: read without a method call on every placement.
        self.patterns: dict[bool, dict[str, frozenset[int]]] = {
            flip: {t: frozenset(orientations(m, flip)) for t, m in tiles.items()} for flip in (False, True)
        }
        self._fitting: dict[tuple[int, bool], frozenset[str]] = {}
        self._fitting_bits: dict[bool, dict[int, int]] = {False: {}, True: {}}

    def __len__(self) -> int:
        return len(self.masks)

    def __contains__(self, tile: object) -> bool:
        return tile in self.masks

    def dots(self, tile: str) -> int:
        return dot_count(self.masks[tile])

    def orientations(self, tile: str, allow_flip: bool) -> tuple[int, ...]:
        return orientations(self.masks[tile], allow_flip)

    def placements(self, allow_flip: bool) -> dict[str, frozenset[int]]:
        """Each tile's `orientations`, as a set."""
        return self.patterns[allow_flip]

    def tiles_of(self, bits: int) -> frozenset[str]:
        """The tiles of a bit set made with `bits`."""
        return frozenset(t for t, bit in self.bits.items() if bits & bit)

    def fitting_bits_memo(self, allow_flip: bool) -> dict[int, int]:
        """The `fitting_bits` found so far, by stack pattern (a look-up without a call, for a loop over a tray)."""
        return self._fitting_bits[allow_flip]

    def fitting_bits(self, stack_mask: int, allow_flip: bool) -> int:
        """`fitting`, as a bit set of `bits`."""
        memo = self._fitting_bits[allow_flip]
        found = memo.get(stack_mask)
        if found is None:
            found = memo[stack_mask] = sum(self.bits[t] for t in self.fitting(stack_mask, allow_flip))
        return found

    def fitting(self, stack_mask: int, allow_flip: bool) -> frozenset[str]:
        """The tiles that can lie on a stack covering `stack_mask` without covering one of its dots."""
        key = (stack_mask, allow_flip)
        found = self._fitting.get(key)
        if found is None:
            found = frozenset(
                t for t, m in self.masks.items() if any(not o & stack_mask for o in orientations(m, allow_flip))
            )
            self._fitting[key] = found
        return found


def _parse_tiles(raw: Any, where: str) -> dict[str, int]:
    if not isinstance(raw, list) or not raw:
        raise IllegalEvent(f"{where}: a tile set is a non-empty list of {{id, dots}}")
    tiles: dict[str, int] = {}
    for t in raw:
        if not isinstance(t, dict) or not isinstance(t.get("id"), str) or not t["id"]:
            raise IllegalEvent(f"{where}: every tile needs a non-empty string id (got {t!r})")
        tid: str = t["id"]
        dots: Any = t.get("dots")
        if tid in tiles:
            raise IllegalEvent(f"{where}: tile id {tid!r} appears twice")
        ok = isinstance(dots, list) and all(is_int(p) for p in dots)
        if not ok or not all(0 <= p <= 8 for p in dots) or len(set(dots)) != len(dots):
            raise IllegalEvent(f"{where}: tile {tid}'s dots must be distinct positions 0–8 (got {dots!r})")
        if not MIN_DOTS <= len(dots) <= MAX_DOTS:
            raise IllegalEvent(f"{where}: tile {tid} has {len(dots)} dots; tiles carry {MIN_DOTS}–{MAX_DOTS}")
        tiles[tid] = mask_of(dots)
    return tiles


@cache
def default_tile_set() -> TileSet:
    data = resources.files("projections.games.hi_spot").joinpath("tilesets", "default.json")
    text = data.read_text(encoding="utf-8")
    return TileSet("default", _parse_tiles(json.loads(text), "default tile set"))


# The option's JSON Schema: the shape `check_tile_set_option` and `_parse_tiles` accept.
TILE_SET_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"const": "default", "description": "the 56-tile set of hi-spot-tiles.json"},
        {
            "type": "array",
            "minItems": 1,
            "description": "an inline tile set",
            "items": {
                "type": "object",
                "required": ["id", "dots"],
                "properties": {
                    "id": {"type": "string", "minLength": 1},
                    "dots": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 0, "maximum": 8},
                        "minItems": MIN_DOTS,
                        "maxItems": MAX_DOTS,
                        "uniqueItems": True,
                        "description": "the dot positions as printed, 3·row + col (0 top-left … 8 bottom-right)",
                    },
                },
            },
        },
    ]
}


def check_tile_set_option(value: Any) -> str | None:
    """Option check: the shape only; `load_tile_set` checks the tiles themselves."""
    return None if value == "default" or isinstance(value, list) else 'must be "default" or a list of {id, dots}'


def load_tile_set(value: Any) -> TileSet:
    if value == "default":
        return default_tile_set()
    return TileSet("inline", _parse_tiles(value, "option tile_set"))
