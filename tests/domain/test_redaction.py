"""projections/redaction.py: what a spectator of a match in progress gets, for every game (docs/FORMAT.md,
"What a spectator sees")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from projections.redaction import FULL, SPECTATOR, View, describe, redact_data, redact_envelope, redact_state
from projections.registry import GAME_NAMES, get_game
from projections.timeline import fold_dicts
from tests.support.hidden_tiles import in_progress_log, leaks, secret_tiles
from tests.support.paths import DOCS

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]
HIDDEN_GAMES = [n for n in GAME_NAMES if get_game(n).descriptor.has_hidden_information]


def test_a_list_of_tiles_keeps_its_length_a_mapping_its_keys_and_owners_see_their_own() -> None:
    hi = get_game("hi-spot").descriptor
    data = {"player": "ann", "tiles": ["T01", None, "T03"]}
    assert redact_data(hi, "tiles_drawn", data, SPECTATOR) == ({"player": "ann", "tiles": [None, None, None]}, True)
    assert redact_data(hi, "tiles_drawn", data, View(players=frozenset({"ann"}))) == (data, False)
    assert redact_data(hi, "tiles_drawn", data, FULL) == (data, False)
    assert redact_data(hi, "tile_placed", {"player": "ann", "tile": "T01"}, SPECTATOR)[1] is False
    assert redact_data(hi, "tiles_drawn", {"player": "ann", "tiles": [None]}, SPECTATOR)[1] is False  # drawn unseen
    five = get_game("high-five").descriptor
    dealt = {"hands": {"ann": ["5-5", "1-2"], "bo": ["3-3", "4-4"]}}
    assert redact_data(five, "hand_dealt", dealt, View(players=frozenset({"bo"})))[0] == {
        "hands": {"ann": [None, None], "bo": ["3-3", "4-4"]}}
    envelope = {"seq": 3, "type": "hand_dealt", "data": dealt, "hash": "h"}
    hidden = {"hands": {"ann": [None] * 2, "bo": [None] * 2}}
    assert redact_envelope(five, envelope, SPECTATOR) == {**envelope, "data": hidden, "redacted": True}
    assert redact_envelope(five, {"seq": 1, "type": "note", "data": {"text": "x"}}, SPECTATOR) == {
        "seq": 1, "type": "note", "data": {"text": "x"}}
    state = {"players": [{"id": "ann", "rack": ["T01"], "hidden": 1}, {"id": "bo", "rack": []}],
             "patterns": {"T01": [1, 2]}, "bag": 40}
    assert redact_state(hi, state, SPECTATOR) == {
        "players": [{"id": "ann", "rack": [None], "hidden": 1}, {"id": "bo", "rack": []}], "patterns": {}, "bag": 40}
    assert redact_state(hi, state, View(players=frozenset({"ann"})))["players"][0]["rack"] == ["T01"]
    assert redact_state(hi, state, View(players=frozenset({"ann"})))["patterns"] == {}  # nobody's own: all or none
    assert redact_state(hi, state, FULL) == state


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_spectator_learns_no_tile_held_in_a_hand_from_states_events_or_words(name: str, seed: int) -> None:
    """Every game: a random match in progress, its redacted state JSON at every seq, its redacted events
    and the event list's words name no tile that only hidden fields ever named."""
    game = get_game(name)
    log = in_progress_log(game, seed, PLAYERS[: max(game.descriptor.min_players, 2)])
    fold = fold_dicts(log)
    assert not fold.finished
    secret = secret_tiles(game, log)
    if name in HIDDEN_GAMES:
        assert secret, f"{name}: the cut match should hold tiles nobody saw"
    full_states = ""
    for seq in range(1, fold.seq + 1):
        state = game.to_json(fold.state_at(seq))
        full_states += json.dumps(state)
        shown = redact_state(game.descriptor, state, SPECTATOR)
        assert not leaks(json.dumps(shown), secret), f"{name}: state at seq {seq}"
        event = fold.event(seq)
        envelope = redact_envelope(game.descriptor, {"seq": seq, "type": event.type, "data": event.data}, SPECTATOR)
        assert not leaks(json.dumps(envelope), secret), f"{name}: event {seq} ({event.type})"
        if seq > 1:
            words = describe(fold, seq, SPECTATOR).text
            assert not leaks(words, secret), f"{name}: event {seq} described as {words!r}"
            assert describe(fold, seq, FULL) == fold.describe(seq)
    if secret:  # the full view names them: the check above would see a leak
        assert leaks(full_states, secret)


def test_a_redacted_draw_reads_well() -> None:
    game = get_game("hi-spot")
    log = in_progress_log(game, 1, PLAYERS[:2])
    fold = fold_dicts(log)
    seq = next(e.seq for e in fold.events if e.type == "tiles_drawn")
    full, shown = fold.describe(seq).text, describe(fold, seq, SPECTATOR).text
    assert "drew a rack of 5 tiles" in full and "T" in full.split("(")[1]
    assert shown.endswith("drew a rack of 5 tiles (5 hidden)"), shown


def test_every_hidden_field_names_a_field_of_its_event_and_hidden_state_paths_exist() -> None:
    for name in GAME_NAMES:
        game = get_game(name)
        log = in_progress_log(game, 5, PLAYERS[:2], 0.3)
        state: Any = game.to_json(fold_dicts(log).state)
        for path in game.descriptor.hidden_state:
            node = state
            for part in path.split("."):
                node = node[0] if part == "*" else node[part]
            assert node is not None or path, f"{name}: {path}"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_game_s_rules_page_says_what_is_hidden(name: str) -> None:
    text = (DOCS / "rules" / f"{name}.md").read_text(encoding="utf-8")
    assert "## Hidden while a match is in progress" in text
    section = text.split("## Hidden while a match is in progress", 1)[1].split("\n## ", 1)[0]
    d = get_game(name).descriptor
    for path in d.hidden_state:
        assert f"`{path}`" in section, f"docs/rules/{name}.md does not name the hidden state path {path}"
    for spec in d.events:
        for hidden in spec.hidden:
            field = hidden.path.split(".")[0]
            assert f"`{spec.type}.{hidden.path}`" in section or f"`{spec.type}.{field}`" in section or (
                f".{field}`" in section and f"`{spec.type}." in section), f"{name}: {spec.type}.{hidden.path}"
