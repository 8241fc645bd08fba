"""The Hats Off table: where a hat can be, and reading a round's board (stacks, areas, points).

A leaf module: the rules, the legal moves and the view all read the board through `Board`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

HAT_NUMBERS = range(1, 7)
HOLE_NUMBERS = range(1, 10)
HOLE_POINTS = 5
NESTED_POINTS = 10
HATS_OFF_BONUS = 5

HatId = tuple[str, int]  # (owner, hat number 1–6)


# Places are named tuples (docs/PERFORMANCE.md, "Reducers"). A Hole (two fields) never equals an InHat (one),
# and the board keys holes and hats in separate dicts.
class Hole(NamedTuple):
    area: str  # the player whose target area it is
    number: int


class InHat(NamedTuple):
    hat: HatId


# Where a hat is: a hole, nested in a hat, or one of the strings "board" / "off".
Place = Hole | InHat | str


class Landing(NamedTuple):
    place: Place
    counts: bool  # False: launched after HATS OFF without being in flight — recorded, worth nothing
    in_flight: bool = False


def place_json(place: Place) -> Any:
    """A place as FORMAT.md writes `to`."""
    if isinstance(place, Hole):
        return {"hole": {"area": place.area, "number": place.number}}
    if isinstance(place, InHat):
        return {"in_hat": {"player": place.hat[0], "hat": place.hat[1]}}
    return place


class Board:
    """The counting hats of a round, with who holds whom and where each stack stands."""

    def __init__(self, hats: Mapping[HatId, Landing]) -> None:
        self.hats = hats
        self.holder: dict[HatId, HatId] = {}  # hat -> the hat nested directly in it
        self.in_hole: dict[Hole, HatId] = {}
        for hid, landing in hats.items():
            if not landing.counts:
                continue
            if isinstance(landing.place, InHat):
                self.holder[landing.place.hat] = hid
            elif isinstance(landing.place, Hole):
                self.in_hole[landing.place] = hid
        self._bottom: dict[HatId, Place] = {}

    def with_launch(self, hid: HatId, landing: Landing) -> Board:
        """The board once `hid` (not on it yet) has landed: built from this one, which stays as it was.

        Its stacks' bottoms are found again when asked for (rarely during a fold: only for a hat nested in
        another), not copied from this board's on every launch.
        """
        new = object.__new__(Board)
        # Each mapping copied, then added to: this board's stay as they are.
        new.hats = hats = dict(self.hats)
        hats[hid] = landing
        new.holder, new.in_hole, new._bottom = self.holder, self.in_hole, {}
        if landing.counts:
            if isinstance(landing.place, InHat):
                new.holder = self.holder.copy()
                new.holder[landing.place.hat] = hid
            elif isinstance(landing.place, Hole):
                new.in_hole = self.in_hole.copy()
                new.in_hole[landing.place] = hid
        return new

    def counting(self) -> Iterator[HatId]:
        return (hid for hid, landing in self.hats.items() if landing.counts)

    def bottom(self, hid: HatId) -> Place:
        """Where the stack `hid` belongs to stands: a hole, "board" or "off"."""
        if hid not in self._bottom:
            place = self.hats[hid].place
            self._bottom[hid] = self.bottom(place.hat) if isinstance(place, InHat) else place
        return self._bottom[hid]

    def area(self, hid: HatId) -> str | None:
        """The target area a hat's stack is in (a nested stack is in the area of the hole at its bottom)."""
        bottom = self.bottom(hid)
        return bottom.area if isinstance(bottom, Hole) else None

    def below(self, hid: HatId) -> Iterator[HatId]:
        """The hats under `hid` in its stack, nearest first."""
        place = self.hats[hid].place
        while isinstance(place, InHat):
            yield place.hat
            place = self.hats[place.hat].place

    def above(self, hid: HatId) -> list[HatId]:
        """The hats nested on `hid` (they move with it), nearest first."""
        out = []
        while hid in self.holder:
            hid = self.holder[hid]
            out.append(hid)
        return out

    def top(self, hid: HatId) -> HatId:
        above = self.above(hid)
        return above[-1] if above else hid

    def hat_points(self, hid: HatId) -> int:
        landing = self.hats[hid]
        if not landing.counts or self.area(hid) != hid[0]:
            return 0
        return NESTED_POINTS if isinstance(landing.place, InHat) else HOLE_POINTS

    def scoring_hats(self, player: str) -> int:
        return sum(1 for hid in self.counting() if hid[0] == player and self.hat_points(hid))
