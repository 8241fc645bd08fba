"""Hidden deals and draws (`null` tiles) and `hands_revealed` at a round's end (RULES.md "For every
game" and §1 "Precise points")."""

from __future__ import annotations

from projections.games.tri_ominos import GAME
from projections.timeline import fold_dicts
from tests.support.examples import load_example
from tests.support.tri_ominos import (
    STRIP_DEAL,
    STRIP_PLACEMENTS,
    deal,
    draw,
    opened,
    pass_turn,
    place,
    refusal,
    reveal,
    started,
    totals,
)


def _example_26() -> list[dict]:
    lines, _ = load_example("tri-ominos-26")
    return lines


def test_going_out_with_hidden_hands_waits_for_the_reveal() -> None:
    lines = _example_26()
    fold = fold_dicts(lines[:-1])
    assert fold.state.phase == "revealing"
    assert fold.points(fold.seq) == {"ann": 10 + 25}  # 2-3-5 and the going-out bonus; Bo's hand is not known yet
    assert "hands to be revealed" in fold.describe(fold.seq).text
    bo = GAME.to_json(fold.state)["players"][1]
    assert (bo["hand"], bo["hidden"], bo["tiles"]) == ([], 3, 3)
    fold = fold_dicts(lines)
    assert fold.points(fold.seq) == {"ann": 5 + 8 + 12}  # Bo's 0-1-4, 1-2-5, 4-4-4
    assert fold.describe(fold.seq).text.startswith("hands revealed: Ann nothing; Bo 0-1-4, 1-2-5, 4-4-4")
    assert fold.finished and GAME.scores(fold.state).winners == ["ann"]


def test_nothing_else_until_the_hands_are_revealed() -> None:
    log = _example_26()[:-1]
    reason = refusal(log, {"type": "round_started", "data": {}})
    assert reason == (
        "round_started: round 1 has ended with hidden tiles; record hands_revealed first (hidden: Bo (3))"
    )
    assert "record hands_revealed first" in refusal(log, draw("bo"))
    assert "record hands_revealed first" in refusal(log, pass_turn("bo"))


def test_reveal_refusals() -> None:
    log = _example_26()[:-1]
    assert refusal(log, reveal(bo=["0-1-4", "1-2-5"])) == "Bo holds 3 tiles, but 2 are revealed"
    assert (
        refusal(log, reveal(ann=["0-0-0"], bo=["0-1-4", "1-2-5", "4-4-4"])) == "Ann holds 0 tiles, but 1 are revealed"
    )
    assert refusal(log, reveal(bo=["5-5-5", "1-2-5", "4-4-4"])) == (
        "5-5-5 cannot be in Bo's hand: it is on the board at [0, 0]"
    )
    assert refusal(log, reveal(bo=["0-1-4", "0-1-4", "4-4-4"])) == "0-1-4 is revealed twice"
    assert refusal(log, reveal(ann=[])) == "hands_revealed must list every hand with hidden tiles; missing: Bo"
    assert "unknown player 'cy'" in refusal(log, reveal(cy=[]))
    assert "4-1-0 is not a Tri-Ominos tile" in refusal(log, reveal(bo=["4-1-0", "1-2-5", "4-4-4"]))
    assert "missing 'hands'" in refusal(log, {"type": "hands_revealed", "data": {}})


def test_reveal_is_refused_when_nothing_is_hidden() -> None:
    log = [*started(), *STRIP_DEAL, *STRIP_PLACEMENTS]
    assert "hands_revealed comes only when a round has ended with hidden tiles" in refusal(log, reveal(bo=["0-0-0"]))


def test_a_hidden_slot_plays_any_tile_not_seen_elsewhere() -> None:
    log = [*started(), deal("ann", "5-5-5", "0-5-5"), deal("bo"), place("ann", "5-5-5", (0, 0), (5, 5, 5))]
    fold = fold_dicts([*log, place("bo", "2-5-5", (1, 0), (5, 5, 2))])
    bo = GAME.to_json(fold.state)["players"][1]
    assert (bo["hand"], bo["hidden"]) == ([], 8)
    assert refusal(log, place("bo", "0-5-5", (1, 0), (5, 5, 0))) == "0-5-5 is in Ann's hand, not Bo's to play"


def test_a_known_hand_with_a_playable_tile_may_not_draw_even_with_hidden_tiles() -> None:
    log = opened("2-5-5")
    assert "Bo holds 2-5-5, which fits" in refusal(log, draw("bo"))
    # With only hidden tiles nothing is known to fit, so the draw stands
    log = opened("0-1-2")
    fold = fold_dicts([*log, draw("bo")])
    bo = GAME.to_json(fold.state)["players"][1]
    assert (bo["hand"], bo["hidden"], bo["tiles"]) == (["0-1-2"], 9, 10)


def test_a_shown_triple_from_a_hidden_slot_becomes_known() -> None:
    log = [
        *started(),
        deal("ann", "0-0-0"),
        deal("bo", "3-3-3"),
        place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="4-4-4"),
    ]
    fold = fold_dicts(log)
    assert totals(fold) == {"ann": 50, "bo": 0}
    ann = GAME.to_json(fold.state)["players"][0]
    assert (ann["hand"], ann["hidden"]) == (["4-4-4"], 7)
    assert refusal(log, place("bo", "4-4-4", (1, 0), (0, 0, 4))) == "4-4-4 is in Ann's hand, not Bo's to play"


def test_hidden_and_known_draws_mix() -> None:
    log = opened()
    log += [draw("bo", "0-1-2"), draw("bo"), draw("bo", "0-1-3"), pass_turn("bo")]
    fold = fold_dicts(log)
    bo = GAME.to_json(fold.state)["players"][1]
    assert (bo["hand"], bo["hidden"], bo["tiles"], GAME.to_json(fold.state)["well"]) == (["0-1-2", "0-1-3"], 10, 12, 35)
    assert fold.describe(7).text == "Bo drew a tile (unseen): −5; 1 draw left, 36 in the well"


# Bo starts (5-5-5), draws once before his second tile to fall a tile behind, and Ann goes out first
# on an 18-tile strip [0, 0] … [17, 0]; Bo keeps one tile.
SHARED_STRIP = [
    ("bo", "5-5-5", (5, 5, 5)),  # 25
    ("ann", "0-5-5", (5, 5, 0)),  # 10
    ("bo", "0-4-5", (0, 4, 5)),  # 9 (after drawing: −5)
    ("ann", "0-1-4", (4, 0, 1)),  # 5
    ("bo", "1-4-4", (1, 4, 4)),  # 9
    ("ann", "1-2-4", (4, 1, 2)),  # 7
    ("bo", "2-3-4", (2, 3, 4)),  # 9
    ("ann", "2-3-3", (3, 2, 3)),  # 8
    ("bo", "3-3-5", (3, 5, 3)),  # 11
    ("ann", "3-4-5", (5, 3, 4)),  # 12
    ("bo", "4-4-5", (4, 4, 5)),  # 13
    ("ann", "4-4-4", (4, 4, 4)),  # 12
    ("bo", "3-4-4", (4, 3, 4)),  # 11
    ("ann", "0-3-4", (3, 4, 0)),  # 7
    ("bo", "0-3-3", (0, 3, 3)),  # 6
    ("ann", "0-1-3", (3, 0, 1)),  # 4
    ("bo", "1-2-3", (1, 2, 3)),  # 6
    ("ann", "1-2-2", (2, 1, 2)),  # 5, and out
]


def _shared_strip(bo_known: tuple[str, ...] = ("5-5-5",), draws: int = 1, **options: object) -> list[dict]:
    log = [*started(**options), deal("ann"), deal("bo", *bo_known)]
    for q, (who, tile, corners) in enumerate(SHARED_STRIP):
        if q == 2:
            log += [draw("bo")] * draws
        log.append(place(who, tile, (q, 0), corners))
    return log


def test_hidden_hands_make_a_shared_win() -> None:
    log = _shared_strip(target_score=90, going_out_bonus=24)
    assert fold_dicts(log).state.phase == "revealing"
    fold = fold_dicts([*log, reveal(bo=["0-0-0"])])
    # Bo: 25 + 9 + 9 + 9 + 11 + 13 + 11 + 6 + 6 − 5 = 94; Ann: 10 + 5 + 7 + 8 + 12 + 12 + 7 + 4 + 5 + 24 + 0 = 94
    assert totals(fold) == {"ann": 94, "bo": 94}
    assert fold.finished and GAME.scores(fold.state).winners == ["ann", "bo"]
    assert fold.describe(fold.seq).text.endswith("match over, Ann and Bo win with 94")


def test_a_reveal_must_keep_the_tiles_known_to_be_in_a_hand() -> None:
    # 0-0-0 never fits the strip: Bo keeps it, and with a second draw one hidden tile as well
    log = _shared_strip(bo_known=("5-5-5", "0-0-0"), draws=2)
    assert refusal(log, reveal(bo=["1-1-1", "1-1-2"])) == "Bo's revealed hand lacks 0-0-0, known to be in it"
    fold = fold_dicts([*log, reveal(bo=["1-1-1", "0-0-0"])])
    assert fold.points(fold.seq) == {"ann": 0 + 3}
    assert GAME.to_json(fold.state)["players"][1]["hand"] == ["1-1-1", "0-0-0"]
