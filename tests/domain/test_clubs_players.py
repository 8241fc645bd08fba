"""The club's player registry: registrations, renames, aliases, merges, and every refusal."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.clubs.players import PLAYERS, Registry, canonical, player, players, resolve, to_json
from projections.clubs.registry import KINDS, get_kind
from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event

Line = tuple[str, dict[str, Any]]


def fold(*lines: Line, club: str | None = "Tilers") -> Registry:
    start: dict[str, Any] = {} if club is None else {"club": club}
    events = [Event(1, "registry_opened", start)]
    events += [Event(n, t, d) for n, (t, d) in enumerate(lines, start=2)]
    return PLAYERS.fold(events)


def reg(pid: str, name: str, **more: Any) -> Line:
    return ("player_registered", {"player": pid, "name": name, **more})


def merge(gone: str, into: str) -> Line:
    return ("players_merged", {"player": gone, "into": into})


def alias(pid: str, name: str) -> Line:
    return ("alias_added", {"player": pid, "alias": name})


BASE = (reg("ann", "Ann Lee", club="North"), reg("bo", "Bo"), reg("cy", "Cy"), alias("bo", "Bobby"))


def refused(state: Registry, line: Line, needle: str) -> None:
    """`line` is refused with a reason holding `needle`, and `state` is left exactly as it was."""
    before, before_json = copy.deepcopy(state), to_json(state)
    with pytest.raises(IllegalEvent) as caught:
        PLAYERS.apply(state, Event(99, *line))
    assert needle in caught.value.reason, caught.value.reason
    assert state == before
    assert to_json(state) == before_json


def test_a_registry_records_players_in_order() -> None:
    state = fold(*BASE, ("player_renamed", {"player": "ann", "name": "Ann Lee-Park"}),
                 ("player_club_changed", {"player": "cy", "club": "South"}),
                 ("player_club_changed", {"player": "ann", "club": None}))
    assert to_json(state) == {
        "club": "Tilers",
        "players": [
            {"id": "ann", "name": "Ann Lee-Park", "club": None, "aliases": [], "merged": []},
            {"id": "bo", "name": "Bo", "club": None, "aliases": ["Bobby"], "merged": []},
            {"id": "cy", "name": "Cy", "club": "South", "aliases": [], "merged": []},
        ],
        "merged": {},
    }
    json.dumps(to_json(state))
    assert fold().club == "Tilers" and fold(club=None).club is None


def test_a_handler_builds_a_new_state_and_leaves_the_old_one() -> None:
    state = fold(*BASE)
    before = copy.deepcopy(state)
    after = PLAYERS.apply(state, Event(6, "player_renamed", {"player": "bo", "name": "Robert"}))
    assert state == before and after.entries["bo"].name == "Robert"


def test_merges_are_followed_by_every_read() -> None:
    state = fold(*BASE, alias("ann", "A. Lee"), merge("ann", "bo"), reg("dee", "Dee"), merge("bo", "cy"))
    assert canonical(state, "ann") == canonical(state, "bo") == canonical(state, "cy") == "cy"
    assert canonical(state, "dee") == "dee"
    assert canonical(state, "nobody") == "nobody"  # an unknown id stands for itself
    assert resolve(state, "ann") == "cy"  # an id, through a chain
    assert resolve(state, "Bobby") == "cy"  # an alias of a merged id
    assert resolve(state, "A. Lee") == "cy"
    assert resolve(state, "Ann Lee") == "cy"  # a merged id's name
    assert resolve(state, "Dee") == "dee"
    assert resolve(state, "Zed") is None
    assert [p.id for p in players(state)] == ["cy", "dee"]
    cy = player(state, "ann")
    assert cy is not None and cy.id == "cy"
    assert cy.merged == ("bo", "ann")
    assert cy.aliases == ("Bo", "Bobby", "Ann Lee", "A. Lee")
    assert to_json(state)["merged"] == {"ann": "bo", "bo": "cy"}


def test_a_name_two_players_share_resolves_to_nobody() -> None:
    state = fold(reg("sam1", "Sam"), reg("sam2", "Sam"))
    assert resolve(state, "Sam") is None
    assert resolve(state, "sam2") == "sam2"
    merged = PLAYERS.apply(state, Event(4, *merge("sam2", "sam1")))
    assert resolve(merged, "Sam") == "sam1"  # one person now


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        (reg("ann", "Another Ann"), "the id 'ann' is taken (Ann Lee)"),
        (reg("Ann", "Ann"), "player must be an id of 1 to 64 characters"),
        (reg("a" * 65, "Long"), "player must be an id of 1 to 64 characters"),
        (reg("d e", "Dee"), "player must be an id"),
        (reg("", "Dee"), "player must be an id"),
        (reg("dee", ""), "name must be 1 to 100 characters"),
        (reg("dee", "   "), "name must be 1 to 100 characters"),
        (reg("dee", "x" * 101), "name must be 1 to 100 characters"),
        (reg("dee", "Dee", club=3), "club must be 1 to 100 characters"),
        (reg("dee", "Dee", nick="D"), "unknown field 'nick'"),
        (("player_registered", {"name": "Dee"}), "missing 'player'"),
        (("player_renamed", {"player": "zed", "name": "Zed"}), "no player is registered as 'zed'"),
        (("player_renamed", {"player": "bo", "name": ""}), "name must be 1 to 100 characters"),
        (("player_club_changed", {"player": "zed", "club": "X"}), "no player is registered as 'zed'"),
        (("player_club_changed", {"player": "bo"}), "missing 'club'"),
        (alias("cy", "Bobby"), "'Bobby' is already an alias of 'bo'"),
        (alias("bo", "Bobby"), "'Bobby' is already an alias of 'bo'"),
        (alias("bo", "ann"), "'ann' is the id of a registered player"),
        (alias("zed", "Z"), "no player is registered as 'zed'"),
        (alias("bo", ""), "alias must be 1 to 100 characters"),
        (merge("bo", "bo"), "cannot be merged into themselves"),
        (merge("bo", "zed"), "no player is registered as 'zed'"),
        (merge("zed", "bo"), "no player is registered as 'zed'"),
        (("player_retired", {"player": "bo"}), "unknown event type 'player_retired'"),
    ],
)
def test_refusals_leave_the_registry_as_it_was(line: Line, needle: str) -> None:
    refused(fold(*BASE), line, needle)


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        (reg("ann", "Ann again"), "the id 'ann' is taken (Ann Lee, merged into 'bo')"),
        (reg("bobby", "Bobby"), "the id 'bobby' is taken"),
        (merge("ann", "cy"), "'ann' was merged into 'bo'; use that id"),
        (merge("cy", "ann"), "'ann' was merged into 'bo'; use that id"),
        (merge("bo", "ann"), "'ann' was merged into 'bo'"),
        (("player_renamed", {"player": "ann", "name": "A"}), "'ann' was merged into 'bo'"),
        (("player_club_changed", {"player": "ann", "club": "X"}), "'ann' was merged into 'bo'"),
        (alias("ann", "A"), "'ann' was merged into 'bo'"),
        (alias("cy", "Annie"), "'Annie' is already an alias of 'bo'"),  # added to ann, who is bo now
    ],
)
def test_refusals_after_a_merge(line: Line, needle: str) -> None:
    refused(fold(*BASE, reg("bobby", "B2"), alias("ann", "Annie"), merge("ann", "bo")), line, needle)


def test_an_id_that_is_an_alias_cannot_be_registered() -> None:
    refused(fold(*BASE, alias("cy", "dee")), reg("dee", "Dee"), "'dee' is already an alias of 'cy'")


def test_the_stream_begins_with_registry_opened() -> None:
    with pytest.raises(IllegalEvent, match="begins with registry_opened"):
        PLAYERS.fold([Event(1, *reg("ann", "Ann"))])
    with pytest.raises(IllegalEvent, match="unknown field 'name'"):
        PLAYERS.fold([Event(1, "registry_opened", {"name": "X"})])
    with pytest.raises(UnknownEventType):
        PLAYERS.apply(fold(), Event(2, "tournament_created", {}))


def test_the_kinds_by_name() -> None:
    assert get_kind("players") is PLAYERS
    assert set(KINDS) == {"players", "tournament"}
    with pytest.raises(KeyError, match="known: players, tournament"):
        get_kind("league")


# --- properties ----------------------------------------------------------------------------------------

IDS = ["ann", "bo", "cy", "dee", "ed"]
NAMES = ["Ann", "Bo", "Cy", "Sam", "Sam "]
LINES = st.one_of(
    st.builds(reg, st.sampled_from(IDS), st.sampled_from(NAMES)),
    st.builds(merge, st.sampled_from(IDS), st.sampled_from(IDS)),
    st.builds(alias, st.sampled_from(IDS), st.sampled_from([*NAMES, "Old Ann", "bo"])),
    st.builds(lambda p, n: ("player_renamed", {"player": p, "name": n}), st.sampled_from(IDS), st.sampled_from(NAMES)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(LINES, max_size=25))
def test_any_sequence_keeps_the_registry_consistent(lines: list[Line]) -> None:
    state = fold()
    for n, line in enumerate(lines, start=2):
        before = copy.deepcopy(state)
        try:
            state = PLAYERS.apply(state, Event(n, *line))
        except IllegalEvent:
            assert state == before
    remaining = {p.id for p in players(state)}
    assert remaining == set(state.entries) - set(state.merged)
    for pid in state.entries:
        assert canonical(state, pid) in remaining
        assert resolve(state, pid) == canonical(state, pid)
    for name, owner in state.aliases.items():
        assert resolve(state, name) == canonical(state, owner)
    json.dumps(to_json(state))
