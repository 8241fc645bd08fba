"""The scorepad without a browser: the click paths, recording a line (stored, refused, retried, stale,
forbidden, signed out), the pad's callback, the new-match form, and the pages behind the sign-in."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dashboard.model import Choices, Position, PositionCache, build_position, choices
from dashboard.pages import pad, record
from projections.notation import to_notation
from projections.registry import GAME_NAMES, get_game
from projections.scores import scores_json
from projections.timeline import fold_dicts
from recorder.access.auth import Principal
from recorder.access.sessions import SESSION_COOKIE
from recorder.demo import PLAYERS
from recorder.facade import Scorebook
from recorder.log.file import import_lines
from scorebook.app import build_app

RECORDER = Principal("desk-1", "recorder")
REFEREE = Principal("ref-1", "referee")
SHORT = {"tri-ominos": {"target_score": 60}, "high-five": {"target_score": 25}, "hi-spot": {"target_score": 40},
         "hats-off": {"target_score": 20}}


def short_log(game: str, seed: int = 2, players: int = 2) -> list[dict[str, Any]]:
    return get_game(game).random_match(random.Random(seed), PLAYERS[:players], dict(SHORT[game]))


def imported(sb: Scorebook, log: list[dict[str, Any]]) -> str:
    return str(sb.import_log(import_lines(log), RECORDER.name)["match_id"])  # the pad's scorekeeper recorded it


def props_with(tree: Any, key: str) -> Iterator[dict[str, Any]]:
    """Every component's props in `tree` (Dash components, lists) that carry `key`."""
    if isinstance(tree, list | tuple):
        for item in tree:
            yield from props_with(item, key)
        return
    if tree is None or isinstance(tree, str | int | float):
        return
    props = tree.to_plotly_json()["props"]
    if key in props:
        yield props
    yield from props_with(props.get("children"), key)


def texts(tree: Any) -> str:
    if isinstance(tree, list | tuple):
        return " ".join(texts(t) for t in tree)
    if tree is None:
        return ""
    if isinstance(tree, str | int | float):
        return str(tree)
    return texts(tree.to_plotly_json()["props"].get("children"))


def send(line: str, seq: int, event_id: str | None = None) -> dict[str, Any]:
    return {"line": line, "event_id": event_id or str(uuid.uuid4()), "seq": seq}


# -- the click path ----------------------------------------------------------------------------------


def choices_once(position: Position) -> Callable[[list[str]], Choices]:
    """`choices` in `position`, computed once per prefix: it depends on the position and the values chosen
    only, and the moves share prefixes (a Hats Off position has hundreds of moves)."""
    answers: dict[tuple[str, ...], Choices] = {}

    def pick(chosen: list[str]) -> Choices:
        key = tuple(chosen)
        if key not in answers:
            answers[key] = choices(position, chosen)
        return answers[key]

    return pick


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_legal_move_is_reached_by_its_path_and_nothing_else(game: str) -> None:
    log = short_log(game, seed=4, players=3)
    fold = fold_dicts(log)
    checked = 0
    for seq in range(2, fold.seq, max(1, fold.seq // 25)):
        position = build_position("m", fold.at(seq))
        pick = choices_once(position)
        for move in position.moves:
            if not move.path:
                continue
            chosen: list[str] = []
            for step in move.path:
                picked = pick(chosen)
                if len(picked.remaining) == 1:
                    break
                assert step.value in [s.value for s in picked.next], (move.notation, chosen)
                chosen.append(step.value)
            picked = pick(chosen)
            assert move in picked.remaining
            # Either it is the one move left, or its whole path is chosen (the pad offers "Record" for it).
            assert len(picked.remaining) == 1 or len(move.path) == len(chosen), (move.notation, chosen)
            checked += 1
    assert checked, f"no clickable move in {game}"


def test_stale_choices_are_dropped_and_back_goes_one_step() -> None:
    fold = fold_dicts(short_log("hats-off"))
    position = build_position("m", fold.at(3))
    first = choices(position, []).next[0]
    assert choices(position, [first.value, "nowhere"]).chosen == (first,)
    assert choices(position, ["nowhere"]).chosen == ()
    deeper = choices(position, [first.value])
    assert deeper.chosen == (first,) and deeper.next


# -- recording a line --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_whole_match_typed_line_by_line_equals_the_log(scorebook: Scorebook, game: str) -> None:
    g = get_game(game)
    log = short_log(game)
    match_id = record.start(scorebook, RECORDER, log[0]["data"], str(uuid.uuid4()))
    for i, event in enumerate(log[1:], start=1):
        outcome = pad.record_line(scorebook, RECORDER, match_id, to_notation(g, event), str(uuid.uuid4()), i)
        assert outcome.stored, (i, to_notation(g, event), outcome.message)
        assert outcome.message.startswith(f"#{i + 1} {event['type']}: ")
    stored = scorebook.events(match_id)
    started = {"type": "match_started", "data": {**log[0]["data"], "rules_version": g.rules_version}}
    assert [{"type": e["type"], "data": e["data"]} for e in stored] == [started, *log[1:]]  # the current rules
    assert {e["recorded_by"] for e in stored} == {"desk-1"}
    assert scorebook.scores(match_id)["players"] == scores_json(fold_dicts(log), match_id)["players"]


def test_echo_is_the_description_and_the_totals(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    outcome = pad.record_line(scorebook, RECORDER, match_id, "ann 4 ann9", None, 2)
    assert outcome.stored and outcome.seq == 3
    fold = scorebook.fold(match_id)
    assert outcome.message == f"#3 hat_launched: {fold.describe(3).text} · Ann {scores(scorebook, match_id)['ann']}" \
                              f" · Bo {scores(scorebook, match_id)['bo']}"


def scores(sb: Scorebook, match_id: str) -> dict[str, int]:
    return {p["id"]: p["score"] for p in sb.scores(match_id)["players"]}


def test_refusals_say_why_and_store_nothing(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:1])  # no round started yet
    for line, why in [("ann 4 ann9", "Refused: "), ("al 4 ann9", "Not understood: unknown player 'al'"),
                      ("", "Not understood: type a move"), ("rewind 1 oops", "Not allowed: only a referee")]:
        outcome = pad.record_line(scorebook, RECORDER, match_id, line, str(uuid.uuid4()), 1)
        assert not outcome.stored and outcome.message.startswith(why), outcome.message
    assert scorebook.fold(match_id).seq == 1


def test_a_retry_is_answered_with_what_was_stored(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    event_id = str(uuid.uuid4())
    first = pad.record_line(scorebook, RECORDER, match_id, "ann 4 ann9", event_id, 2)
    again = pad.record_line(scorebook, RECORDER, match_id, "ann 4 ann9", event_id, 2)  # the answer was lost
    assert first.stored and again.stored and again.replayed and "already recorded" in again.message
    assert scorebook.fold(match_id).seq == 3


def test_a_stale_seq_reloads_the_pad_and_keeps_the_line(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    scorebook.append(match_id, [{"type": "hat_launched", "data": {"player": "bo", "hat": 1, "to": "off"}}], 2, "other")
    outcome = pad.record_line(scorebook, RECORDER, match_id, "ann 4 ann9", str(uuid.uuid4()), 2)
    assert outcome.conflict and not outcome.stored and outcome.seq == 3 and "#3" in outcome.message
    assert scorebook.fold(match_id).seq == 3


def test_signed_out_records_nothing(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    outcome = pad.record_line(scorebook, None, match_id, "ann 4 ann9", str(uuid.uuid4()), 2)
    assert not outcome.stored and "signed out" in outcome.message
    assert scorebook.fold(match_id).seq == 2


def test_undo_is_a_referees_rewind_to_the_event_before_the_last_effective_one(scorebook: Scorebook) -> None:
    log = short_log("hats-off")
    match_id = imported(scorebook, log[:6])
    fold = scorebook.fold(match_id)
    assert pad.undo_view(fold, RECORDER) is None
    assert pad.undo_target(fold) == (6, 5)
    outcome = pad.record_line(scorebook, REFEREE, match_id, "rewind 5 hat on the wrong hole", str(uuid.uuid4()), 6)
    assert outcome.stored
    fold = scorebook.fold(match_id)
    assert fold.superseded_by == {6: 7} and fold.event(7).data == {"to_seq": 5, "reason": "hat on the wrong hole"}
    assert pad.undo_target(fold) == (5, 4)  # the rewind and the undone event are skipped
    button = next(props_with(pad.undo_view(fold, REFEREE), "data-to-seq"))
    assert button["children"] == "Undo #5…" and button["data-to-seq"] == "4"


# -- the pad's callback ------------------------------------------------------------------------------


def call(sb: Scorebook, cache: PositionCache, who: Principal | None, trigger: str, meta: dict[str, Any],
         choice: dict[str, Any], *, line: dict[str, Any] | None = None, click: str | None = None,
         board: str | None = None, hints: bool = True) -> dict[str, Any]:
    out = pad.pad_update(sb, cache, who, trigger, line, {"value": click, "n": 1} if click else None,
                         {"points": [{"customdata": board}]} if board else None, ["on"] if hints else [], meta,
                         choice)
    names = ["ack", "echo", "echo_class", "line", "meta", "choice", "totals", "turn", "steps", "figure", "click_data",
             "moves", "last", "panel", "undo"]
    assert len(out) == len(names)
    return dict(zip(names, out, strict=True))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_clicking_a_path_then_record_stores_the_move(scorebook: Scorebook, game: str) -> None:
    log = short_log(game, seed=6, players=3)
    cache = PositionCache()
    fold = fold_dicts(log)
    # A position with several moves, one of them through a place on the board.
    seq = next(k for k in range(2, len(log)) if len(build_position("m", fold.at(k)).moves) > 1
               and any(s.kind == "board" for m in build_position("m", fold.at(k)).moves for s in m.path))
    match_id = imported(scorebook, log[:seq])
    position = cache.position(match_id, scorebook.fold(match_id))
    move = max(position.moves, key=lambda m: (any(s.kind == "board" for s in m.path), len(m.path)))
    meta = {"match_id": match_id, "seq": seq, "game": game}
    choice: dict[str, Any] = {"seq": seq, "chosen": []}
    first = pad.render(scorebook, cache, match_id, RECORDER, True)
    assert sorted(first.moves) == sorted(position.notations)
    view = {"steps": first.steps, "figure": first.figure}
    for step in move.path:
        if [p["data-line"] for p in props_with(view["steps"], "data-line")] == [move.notation]:
            break
        if step.kind == "board":  # a board step: tap the target on the figure
            targets = [t for t in view["figure"]["data"] if step.value in (t.get("customdata") or [])]
            assert targets, f"{step.value} is not drawn on the {game} board"
            view = call(scorebook, cache, RECORDER, "pad-board", meta, choice, board=step.value)
        else:
            assert step.value in [p["data-value"] for p in props_with(view["steps"], "data-value")]
            view = call(scorebook, cache, RECORDER, "pad-click", meta, choice, click=step.value)
        choice = view["choice"]
    assert [p["data-line"] for p in props_with(view["steps"], "data-line")] == [move.notation]
    out = call(scorebook, cache, RECORDER, "pad-send", meta, choice, line=send(move.notation, seq))
    assert out["ack"]["ok"] and out["line"] == "" and out["meta"]["seq"] == seq + 1
    assert out["echo"].startswith(f"#{seq + 1} {move.event['type']}: ")
    stored = scorebook.events(match_id)[-1]
    assert {"type": stored["type"], "data": stored["data"]} == move.event


def test_a_board_click_off_the_targets_is_ignored(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    meta = {"match_id": match_id, "seq": 2, "game": "hats-off"}
    out = call(scorebook, PositionCache(), RECORDER, "pad-board", meta, {"seq": 2, "chosen": []}, board="ann9")
    assert out["click_data"] is None and all(v is pad.no_update for k, v in out.items() if k != "click_data")


def test_hints_off_shows_no_suggestions_and_no_steps(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    meta = {"match_id": match_id, "seq": 2, "game": "hats-off"}
    out = call(scorebook, PositionCache(), RECORDER, "pad-hints", meta, {"seq": 2, "chosen": []}, hints=False)
    assert out["moves"] == [] and "Hints are off" in texts(out["steps"])
    assert not list(props_with(out["steps"], "data-value"))
    on = call(scorebook, PositionCache(), RECORDER, "pad-hints", meta, {"seq": 2, "chosen": []})
    assert len(on["moves"]) > 100 and list(props_with(on["steps"], "data-value"))


def test_a_refused_line_keeps_the_pad_and_the_line(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    meta = {"match_id": match_id, "seq": 2, "game": "hats-off"}
    out = call(scorebook, PositionCache(), RECORDER, "pad-send", meta, {"seq": 2, "chosen": []},
               line=send("ann 7 ann9", 2))
    assert out["echo_class"] == "pad-echo refused" and "hats are numbered 1–6" in out["echo"]
    assert out["line"] is pad.no_update and out["meta"] is pad.no_update and out["ack"]["ok"] is False


def test_a_conflict_redraws_the_pad_at_the_current_seq(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    scorebook.append(match_id, [{"type": "hat_launched", "data": {"player": "bo", "hat": 1, "to": "off"}}], 2, "other")
    meta = {"match_id": match_id, "seq": 2, "game": "hats-off"}
    out = call(scorebook, PositionCache(), RECORDER, "pad-send", meta, {"seq": 2, "chosen": []},
               line=send("ann 4 ann9", 2))
    assert out["echo_class"] == "pad-echo conflict" and out["meta"]["seq"] == 3
    assert out["line"] is pad.no_update  # the typed line stays
    assert "#3" in texts(out["last"])


def test_signed_out_callbacks_change_nothing(scorebook: Scorebook) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    meta = {"match_id": match_id, "seq": 2, "game": "hats-off"}
    out = call(scorebook, PositionCache(), None, "pad-send", meta, {"seq": 2, "chosen": []},
               line=send("ann 4 ann9", 2))
    assert "signed out" in out["echo"] and out["meta"] is pad.no_update
    assert scorebook.fold(match_id).seq == 2


# -- the new-match form ------------------------------------------------------------------------------


def test_player_ids_come_from_the_names_and_are_unique() -> None:
    assert record.players_from(["Ann Lee", "ann lee", " Bo ", "Ann  Lee"]) == [
        {"id": "ann-lee", "name": "Ann Lee"}, {"id": "ann-lee-2", "name": "ann lee"}, {"id": "bo", "name": "Bo"},
        {"id": "ann-lee-3", "name": "Ann Lee"}]


def test_match_data_keeps_only_options_that_differ_from_their_defaults() -> None:
    data = record.match_data("tri-ominos", ["Ann", "Bo"], {
        "target_score": 250, "hexagon_bonuses": "50, 60, 75", "bridge_bonus": 40, "blocked_winner": "lowest_total",
    }, {"round": 3})
    assert data == {"game": "tri-ominos", "players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}],
                    "options": {"target_score": 250, "hexagon_bonuses": [50, 60, 75], "blocked_winner": "lowest_total"},
                    "meta": {"round": 3}}
    assert "options" not in record.match_data("hi-spot", ["Ann", "Bo"], {"allow_flip": ["on"], "tile_set": "default"},
                                              {})
    assert record.match_data("hi-spot", ["Ann", "Bo"], {"allow_flip": []}, {})["options"] == {"allow_flip": False}
    five = record.match_data("high-five", ["Ann", "Bo"], {"first_player": "bo", "target_score": 100}, {})
    assert five["options"] == {"first_player": "bo"}
    by_name = record.match_data("high-five", ["Ann", "Bo"], {"first_player": "Bo"}, {})
    assert by_name["options"] == {"first_player": "bo"}
    with pytest.raises(ValueError, match="seat 2 needs a name"):
        record.match_data("hats-off", ["Ann", " "], {}, {})
    with pytest.raises(ValueError, match="whole number"):
        record.match_data("hats-off", ["Ann", "Bo"], {"target_score": 7.5}, {})


def test_meta_reads_numbers_and_checks_the_date() -> None:
    assert record.read_meta("Autumn night", "3", "table 2", "2026-09-05") == {
        "tournament": "Autumn night", "round": 3, "table": "table 2", "date": "2026-09-05"}
    assert record.read_meta(None, "", " ", None) == {}
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        record.read_meta(None, None, None, "5/9/2026")


def test_start_records_the_scorekeeper_and_a_retry_is_the_same_match(scorebook: Scorebook) -> None:
    data = record.match_data("hats-off", ["Ann", "Bo"], {"target_score": 30}, {"table": 4})
    event_id = str(uuid.uuid4())
    match_id = record.start(scorebook, RECORDER, data, event_id)
    assert record.start(scorebook, RECORDER, data, event_id) == match_id
    assert scorebook.events(match_id)[0]["recorded_by"] == "desk-1"
    with pytest.raises(ValueError, match="2 to 4 players"):
        record.start(scorebook, RECORDER, record.match_data("hats-off", ["A", "B", "C", "D", "E"], {}, {}), None)
    with pytest.raises(ValueError, match="signed out"):
        record.start(scorebook, None, data, None)


# -- through the app: the cookie is checked on every call ---------------------------------------------


@pytest.fixture
def app_client(scorebook: Scorebook) -> TestClient:
    return TestClient(build_app(scorebook))


def dash_call(client: TestClient, outputs: list[str], inputs: list[dict[str, Any]], state: list[dict[str, Any]],
              changed: str) -> Any:
    body = {"output": ".." + "...".join(outputs) + "..",
            "outputs": [{"id": o.rsplit(".", 1)[0], "property": o.rsplit(".", 1)[1]} for o in outputs],
            "inputs": inputs, "state": state, "changedPropIds": [changed]}
    r = client.post("/_dash-update-component", content=json.dumps(body), headers={"Content-Type": "application/json"})
    assert r.status_code in (200, 204), r.text
    return r.json() if r.status_code == 200 else None


PAD_OUTPUTS = ["pad-ack.data", "pad-echo.children", "pad-echo.className", "move-input.value", "pad-meta.data",
               "pad-choice.data", "pad-totals.children", "pad-turn.children", "pad-steps.children", "pad-board.figure",
               "pad-board.clickData", "pad-moves-data.data", "pad-last.children", "pad-panel.children",
               "pad-undo-wrap.children"]


def pad_send(client: TestClient, match_id: str, line: str, seq: int) -> Any:
    meta = {"match_id": match_id, "seq": seq, "game": "hats-off"}
    return dash_call(client, PAD_OUTPUTS, [
        {"id": "pad-send", "property": "data", "value": send(line, seq)},
        {"id": "pad-click", "property": "data", "value": None},
        {"id": "pad-board", "property": "clickData", "value": None},
        {"id": "pad-hints", "property": "value", "value": ["on"]},
    ], [{"id": "pad-meta", "property": "data", "value": meta},
        {"id": "pad-choice", "property": "data", "value": {"seq": seq, "chosen": []}}], "pad-send.data")


def test_the_pad_callback_checks_the_session_on_every_call(scorebook: Scorebook, app_client: TestClient) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    token = scorebook.create_token("desk-7", "recorder")
    app_client.cookies.set(SESSION_COOKIE, scorebook.sign_in(token).cookie)
    answer = pad_send(app_client, match_id, "ann 4 ann9", 2)
    assert answer["response"]["pad-ack"]["data"]["ok"] is True
    assert scorebook.events(match_id)[-1]["recorded_by"] == "desk-7"
    token_id = next(t["id"] for t in scorebook.list_tokens() if t["name"] == "desk-7")
    assert scorebook.revoke_token(token_id)
    answer = pad_send(app_client, match_id, "bo 4 bo9", 3)
    assert "signed out" in answer["response"]["pad-echo"]["children"]
    assert scorebook.fold(match_id).seq == 3


def test_pages_that_write_ask_for_a_sign_in(scorebook: Scorebook, app_client: TestClient) -> None:
    match_id = imported(scorebook, short_log("hats-off")[:2])
    route = ["page.children", "whoami.children"]
    for path in ("/record", f"/record/{match_id}"):
        answer = dash_call(app_client, route, [{"id": "url", "property": "pathname", "value": path}],
                           [{"id": "url", "property": "search", "value": ""}], "url.pathname")
        page = json.dumps(answer["response"]["page"]["children"])
        assert "signin-prompt" in page and "move-input" not in page and "new-start" not in page
        assert "/login?next=" in page
    token = scorebook.create_token("ref-9", "referee")
    app_client.cookies.set(SESSION_COOKIE, scorebook.sign_in(token).cookie)
    answer = dash_call(app_client, route, [{"id": "url", "property": "pathname", "value": f"/record/{match_id}"}],
                       [{"id": "url", "property": "search", "value": ""}], "url.pathname")
    page = json.dumps(answer["response"]["page"]["children"])
    who = json.dumps(answer["response"]["whoami"]["children"])
    assert "move-input" in page and "pad-undo" in page
    assert "ref-9" in who and "referee" in who and '"action": "/logout"' in who
    assert token not in page and token not in who


def test_an_option_typed_as_absurdly_nested_json_does_not_break_the_form() -> None:
    option = get_game("hi-spot").descriptor.options["tile_set"]
    typed = "[" * 200_000 + "]" * 200_000
    assert record.read_option("tile_set", option, typed, []) == typed  # kept as text: the start is then refused
    assert record.read_option("tile_set", option, '["T01"]', []) == ["T01"]
