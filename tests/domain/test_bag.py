"""The committed digital bag.

For each game with a bag, a match started with bag "committed" is played to its end through the Python API,
every deal and draw sent with its tiles left out: the server deals them, records only the seed's SHA-256 at
the start, reveals the seed after the finishing event, and `verify` deals every draw again from it. A forged
draw (the log edited, the chain recomputed by importing it) fails verify, naming the seq and the bag's tile.
The seed is served by nothing before the end. On SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from projections import bag as pure
from projections.bag import Bag, shuffled
from projections.errors import IllegalEvent
from projections.games.high_five.tiles import TILES as HF_TILES
from projections.games.tri_ominos.tiles import ALL_TILES as TRI_TILES
from recorder.api import create_api
from recorder.errors import BadRequest, Conflict, Refused
from recorder.facade import Scorebook
from recorder.sql.tables import BAG_SEEDS
from scorebook.cli import app
from tests.support.bag_play import next_event, play, start

BAG_GAMES = ["tri-ominos", "high-five", "hi-spot"]


def seed_of(sb: Scorebook, match_id: str) -> tuple[str, bool]:
    """The seed and its revealed flag, read from the table as only the server can."""
    with sb.engine.connect() as conn:
        row = conn.execute(select(BAG_SEEDS.c.seed, BAG_SEEDS.c.revealed).where(BAG_SEEDS.c.match_id == match_id)).one()
    return row.seed, row.revealed


def log_lines(events: list[dict[str, Any]]) -> str:
    """A match file of `type` and `data` only: imported, it gets a fresh, valid chain."""
    return "".join(json.dumps({"type": e["type"], "data": e["data"]}) + "\n" for e in events)


def test_the_shuffle_is_the_documented_fisher_yates() -> None:
    # FORMAT.md's algorithm written out again independently: it must give the same order.
    seed = bytes(range(32))
    tiles = [f"t{i}" for i in range(56)]

    def stream(number: int):  # type: ignore[no-untyped-def]
        block = 0
        while True:
            d = hashlib.sha256(seed + number.to_bytes(4, "big") + block.to_bytes(4, "big")).digest()
            for i in range(4):
                yield int.from_bytes(d[8 * i : 8 * i + 8], "big")
            block += 1

    for number in (0, 1, 7):
        a, xs = list(tiles), stream(number)
        for i in range(len(a) - 1, 0, -1):
            m = i + 1
            x = next(xs)
            while x >= 2**64 - 2**64 % m:
                x = next(xs)
            a[i], a[x % m] = a[x % m], a[i]
        assert shuffled(tiles, seed, number) == tuple(a)
    assert shuffled(tiles, seed, 0) != shuffled(tiles, seed, 1)
    assert sorted(shuffled(tiles, seed, 3)) == sorted(tiles)


@pytest.mark.parametrize("game", BAG_GAMES)
def test_a_committed_match_is_dealt_by_the_server_and_verifies_after_the_reveal(
    scorebook: Scorebook, game: str
) -> None:
    sb = scorebook
    match_id = start(sb, game, players=3)
    first = sb.events(match_id)[0]["data"]
    assert first["bag"] == "committed" and len(first["bag_commitment"]) == 64
    seed, revealed = seed_of(sb, match_id)
    assert first["bag_commitment"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest() and not revealed
    assert seed not in json.dumps(sb.events(match_id))

    last = play(sb, match_id, random.Random(5))
    events = sb.events(match_id)
    assert events[-1]["type"] == "bag_revealed" and events[-1]["data"] == {"seed": seed}
    assert events[-1]["seq"] == last and sb.fold(match_id).finished
    assert seed_of(sb, match_id) == (seed, True)
    # Every draw holds real tiles: nothing left out in the stored log.
    drawn = [e for e in events if pure.draws(game, e["type"])]
    assert drawn and "null" not in json.dumps([e["data"] for e in drawn])
    check = sb.verify(match_id).as_json()
    assert check["ok"] is True and check["events"] == last
    assert check["bag"].startswith("every draw followed from the committed seed")
    # The first shuffle is the one the seed determines: the first draw takes its first tiles.
    fold = sb.fold(match_id)
    tile_set = {"tri-ominos": TRI_TILES, "high-five": HF_TILES}.get(game) or list(fold.state.tiles.masks)
    first_draw = drawn[0]["data"]
    taken = first_draw.get("tiles") or first_draw.get("layout") or [first_draw["draws"][p] for p in ("ann", "bo", "cy")]
    assert taken == list(shuffled(tile_set, bytes.fromhex(seed), 0)[: len(taken)])
    # A second, finished match of the same game deals another order (another seed).
    assert first["bag_commitment"] != sb.events(start(sb, game))[0]["data"]["bag_commitment"]


def forged(events: list[dict[str, Any]], game: str) -> tuple[list[dict[str, Any]], int, str]:
    """The log with the first multi-tile draw's first two tiles swapped (every rule still holds: a hand is a
    set): (the forged events, its seq, the tile the bag dealt first there)."""
    out = [dict(e, data=json.loads(json.dumps(e["data"]))) for e in events]
    for e in out:
        data = e["data"]
        if e["type"] in ("tiles_dealt", "tiles_drawn") and len(data["tiles"]) > 1:
            tiles = data["tiles"]
        elif e["type"] == "hand_dealt":
            tiles = next(iter(data["hands"].values()))
        else:
            continue
        dealt = tiles[0]
        tiles[0], tiles[1] = tiles[1], tiles[0]
        return out, e["seq"], dealt
    raise AssertionError(f"{game}: no draw of two tiles")


@pytest.mark.parametrize("game", BAG_GAMES)
def test_a_forged_draw_fails_verify_naming_the_seq_and_the_bags_tile(
    scorebook: Scorebook, game: str, tmp_path: Path
) -> None:
    sb = scorebook
    match_id = start(sb, game)
    play(sb, match_id, random.Random(8))
    events, seq, dealt = forged(sb.events(match_id), game)
    imported = sb.import_log(log_lines(events), "forger")  # the chain recomputed: it verifies as a chain
    check = sb.verify(imported["match_id"])
    assert not check.ok and check.first_bad_seq == seq
    assert f"the committed bag deals {dealt}" in (check.reason or "")
    # The API's verify route and `scorebook verify FILE` say the same.
    body = TestClient(create_api(sb)).get(f"/api/matches/{imported['match_id']}/verify").json()
    assert body["ok"] is False and body["first_bad_seq"] == seq and dealt in body["reason"]
    path = tmp_path / "forged.jsonl"
    path.write_text(sb.export(imported["match_id"]), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1 and f'"first_bad_seq": {seq}' in result.output


def test_a_draw_replaced_by_another_tile_is_named(scorebook: Scorebook) -> None:
    # The forger deals ann a tile the bag did not: the log up to the deals, and the real reveal.
    sb = scorebook
    match_id = start(sb, "tri-ominos")
    play(sb, match_id, random.Random(2))
    events = sb.events(match_id)
    deals = [e for e in events if e["type"] == "tiles_dealt"][:2]
    others = {t for e in deals for t in e["data"]["tiles"]}
    swap = next(t for t in TRI_TILES if t not in others)
    real = deals[0]["data"]["tiles"][3]
    deals[0]["data"]["tiles"][3] = swap
    log = [events[0], events[1], *deals, events[-1]]
    imported = sb.import_log(log_lines(log), "forger")
    check = sb.verify(imported["match_id"])
    assert not check.ok and check.first_bad_seq == 3
    assert check.reason == (
        f"not dealt from the committed bag: seq 3: tiles_dealt draws {swap} where the committed bag deals {real}"
    )


def test_a_revealed_seed_must_be_the_committed_one(scorebook: Scorebook) -> None:
    sb = scorebook
    match_id = start(sb, "hi-spot")
    play(sb, match_id, random.Random(3))
    events = sb.events(match_id)
    events[-1] = {**events[-1], "data": {"seed": "00" * 32}}
    from recorder.errors import ImportRefused

    with pytest.raises(ImportRefused, match="bag_revealed: the seed's SHA-256 is"):
        sb.import_log(log_lines(events), "forger")


@pytest.mark.parametrize("game", BAG_GAMES)
def test_export_and_import_of_a_finished_committed_match_round_trip_and_verify(
    scorebook: Scorebook, game: str, tmp_path: Path
) -> None:
    sb = scorebook
    match_id = start(sb, game)
    play(sb, match_id, random.Random(4))
    text = sb.export(match_id)
    again = sb.import_log(text, "importer")
    assert again["match_id"] == match_id and again["existing"]
    other = Scorebook.open(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        moved = other.import_log(text, "importer")
        assert other.export(moved["match_id"]) == text
        check = other.verify(moved["match_id"])
        assert check.ok and check.bag is not None and check.bag.startswith("every draw followed")
    finally:
        other.close()


def test_a_written_tile_is_refused_the_bags_own_too(scorebook: Scorebook) -> None:
    sb = scorebook
    match_id = start(sb, "tri-ominos")
    sb.append(match_id, [{"type": "round_started", "data": {}}], 1)
    seed, _ = seed_of(sb, match_id)
    order = shuffled(TRI_TILES, bytes.fromhex(seed), 0)
    why = "is written, but the server deals the draws of a match with a committed bag: leave the tiles out"
    for tile in (order[20], order[0]):  # a wrong tile, and the very tile the bag deals next
        with pytest.raises(Refused) as refused:
            sb.append(match_id, [{"type": "tiles_dealt", "data": {"player": "ann", "tiles": [tile, *[None] * 8]}}], 2)
        assert refused.value.extra["seq"] == 3 and refused.value.message == f"tiles_dealt: {tile} {why} (or null)"
        assert sb.fold(match_id).seq == 2 and len(sb.events(match_id)) == 2
    # A draw ends its append: what follows it could depend on the tiles dealt, and a batch refused there would
    # tell the next tile while storing nothing (two draws in a row: the second is refused if the first fits).
    with pytest.raises(BadRequest, match=r"events\[2\]: in a match with a committed bag a draw \(tiles_dealt\) is the "
                       "last event of its append; send note in the next one"):
        sb.append(match_id, [{"type": "note", "data": {"text": "deal"}},
                             {"type": "tiles_dealt", "data": {"player": "ann"}},
                             {"type": "note", "data": {"text": "dealt"}}], 2)
    assert sb.fold(match_id).seq == 2
    stored, _ = sb.append(match_id, [{"type": "tiles_dealt", "data": {"player": "ann", "tiles": [None] * 9}}], 2)
    assert stored[0]["data"]["tiles"] == list(order[:9])
    with pytest.raises(Refused, match="leave the tiles out or write null for each of the 9"):
        sb.append(match_id, [{"type": "tiles_dealt", "data": {"player": "bo", "tiles": [None] * 3}}], 3)


def test_a_rewind_puts_the_drawn_tiles_back_on_top(scorebook: Scorebook) -> None:
    sb = scorebook
    sb.create_token("ref", "referee")
    match_id = start(sb, "hi-spot")
    rng = random.Random(6)
    seq = play(sb, match_id, rng, until=8)
    before = sb.fold(match_id).seq
    stored, _ = sb.append(match_id, [next_event(sb, match_id, rng)], seq)
    rewound, _ = sb.append(match_id, [{"type": "rewind", "data": {"to_seq": before, "reason": "wrong player"}}],
                           stored[-1]["seq"])
    again, _ = sb.append(match_id, [{"type": stored[0]["type"], "data": {k: v for k, v in stored[0]["data"].items()
                                                                           if k not in ("tiles", "draws", "drawn")}}],
                         rewound[-1]["seq"])
    assert again[0]["data"] == stored[0]["data"]
    play(sb, match_id, rng)
    assert sb.verify(match_id).ok


def test_bag_committed_is_refused_where_it_cannot_be(scorebook: Scorebook) -> None:
    sb = scorebook
    players = [{"id": "ann"}, {"id": "bo"}]
    with pytest.raises(Refused, match="hats-off draws nothing from a bag"):
        sb.start_match({"game": "hats-off", "players": players, "bag": "committed"})
    with pytest.raises(BadRequest, match="bag_commitment is written by the server"):
        sb.start_match({"game": "tri-ominos", "players": players, "bag": "committed", "bag_commitment": "ab" * 32})
    with pytest.raises(Refused, match='bag must be "committed"'):
        sb.start_match({"game": "tri-ominos", "players": players, "bag": "physical"})
    with pytest.raises(BadRequest, match="unknown field 'seed'"):
        sb.start_match({"game": "tri-ominos", "players": players, "bag": "committed", "seed": "00" * 32})
    assert sb.matches()[1] == 0
    with sb.engine.connect() as conn:
        assert conn.execute(select(BAG_SEEDS.c.match_id)).all() == []
    match_id = start(sb, "tri-ominos")
    with pytest.raises(BadRequest, match="bag_revealed is recorded by the server"):
        sb.append(match_id, [{"type": "bag_revealed", "data": {"seed": seed_of(sb, match_id)[0]}}], 1)
    plain = sb.start_match({"game": "tri-ominos", "players": players})["match_id"]
    with pytest.raises(Refused, match="not started with a committed bag"):
        sb.append(plain, [{"type": "bag_revealed", "data": {"seed": "00" * 32}}], 1)


def test_a_retried_draw_is_answered_with_what_the_server_dealt(scorebook: Scorebook) -> None:
    sb = scorebook
    match_id = start(sb, "tri-ominos")
    sb.append(match_id, [{"type": "round_started", "data": {}}], 1)
    deal = [{"type": "tiles_dealt", "data": {"player": "ann"}, "event_id": "deal-ann-1"}]
    first, replayed = sb.append(match_id, deal, 2)
    again, replayed_again = sb.append(match_id, deal, 2)
    assert not replayed and replayed_again and again == first


def test_a_physical_bag_draw_resent_without_its_tiles_is_a_conflict(scorebook: Scorebook) -> None:
    # Only a committed bag's server fills tiles in: elsewhere a draw whose tiles are now null is another event.
    sb = scorebook
    match_id = sb.start_match({"game": "tri-ominos", "players": [{"id": "ann"}, {"id": "bo"}]})["match_id"]
    sb.append(match_id, [{"type": "round_started", "data": {}}], 1)
    tiles = ["5-5-5", "0-1-2", "2-3-4", None, None, None, None, None, None]
    deal = {"type": "tiles_dealt", "data": {"player": "ann", "tiles": tiles}, "event_id": "deal-ann-1"}
    first, _ = sb.append(match_id, [deal], 2)
    blind = {**deal, "data": {"player": "ann", "tiles": [None] * 9}}
    with pytest.raises(Conflict, match="deal-ann-1"):
        sb.append(match_id, [blind], 3)
    assert sb.append(match_id, [deal], 2) == (first, True)  # the same content is still a retry
    assert len(sb.events(match_id)) == 3


def test_the_seed_is_served_by_nothing_before_the_end(scorebook: Scorebook, tmp_path: Path) -> None:
    sb = scorebook
    tokens = {who: {"Authorization": f"Bearer {sb.create_token(who, role)}"}
              for who, role in (("desk", "recorder"), ("gus", "recorder"), ("ref", "referee"), ("root", "admin"))}
    client = TestClient(create_api(sb))
    r = client.post("/api/matches", json={"game": "high-five", "players": [{"id": "ann"}, {"id": "bo"}],
                                          "options": {"target_score": 25}, "bag": "committed"}, headers=tokens["desk"])
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    for seq, draw in enumerate(("game_started", "hand_dealt"), start=1):  # a draw ends its append
        r = client.post(f"/api/matches/{match_id}/events", headers=tokens["desk"],
                        json={"expected_seq": seq, "events": [{"type": draw, "data": {}}]})
        assert r.status_code == 201, r.text
    seed, _ = seed_of(sb, match_id)
    order = shuffled(list(HF_TILES), bytes.fromhex(seed), 0)
    undealt = list(order[15:18])  # the bag's next tiles, in its order, as any JSON list of them would be written
    spellings = [json.dumps(undealt)[1:-1], json.dumps(undealt, separators=(",", ":"))[1:-1]]
    m = f"/api/matches/{match_id}"
    for who in (None, "desk", "gus", "ref", "root"):
        headers = tokens[who] if who else None
        for url in (m, f"{m}/state", f"{m}/events", f"{m}/export", f"{m}/scores", f"{m}/verify", "/api/events?after=0",
                    "/api/matches", "/api/games"):
            body = client.get(url, headers=headers).text
            assert seed not in body and not any(u in body for u in spellings), (who, url)
    assert all(seed not in line for line in sb.backup(with_tokens=True))
    # A wrong tile through the API: 422 with the reason, nothing stored. (A tile still in the bag: no hand holds
    # it, whatever the seed dealt.)
    r = client.post(f"{m}/events", headers=tokens["desk"], json={"expected_seq": 3, "events": [
        {"type": "tile_played", "data": {"player": "ann", "tile": order[20], "capture": None}}]})
    assert r.status_code == 422
    r = client.post(f"{m}/events", headers=tokens["desk"], json={"expected_seq": 3, "events": [
        {"type": "hand_dealt", "data": {}}]})
    assert r.status_code == 422 and r.json()["error"] == "illegal_event"
    r = client.post("/api/matches", json={"game": "hats-off", "players": [{"id": "ann"}, {"id": "bo"}],
                                          "bag": "committed"}, headers=tokens["desk"])
    assert r.status_code == 422 and "draws nothing from a bag" in r.json()["reason"]
    r = client.post("/api/matches", json={"game": "hi-spot", "players": [{"id": "ann"}, {"id": "bo"}],
                                          "bag": "committed", "bag_commitment": "0" * 64}, headers=tokens["desk"])
    assert r.status_code == 400 and "bag_commitment" in r.json()["reason"]
    # Played to the end, the seed is in the log for everyone.
    play(sb, match_id, random.Random(1), recorded_by="desk")
    assert seed in client.get(f"{m}/events").text and seed in client.get(f"{m}/export").text
    assert client.get(f"{m}/verify").json()["bag"].startswith("every draw followed")


def test_a_committed_match_without_its_seed_here_cannot_deal(scorebook: Scorebook, tmp_path: Path) -> None:
    sb = scorebook
    match_id = start(sb, "tri-ominos")
    play(sb, match_id, random.Random(9), until=3)
    other = Scorebook.open(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        moved = other.import_log(sb.export(match_id), "importer")["match_id"]
        assert other.verify(moved).bag == "committed; the draws can be checked once the seed is revealed at the end"
        seq = other.fold(moved).seq
        with pytest.raises(Refused, match="does not hold the seed"):
            other.append(moved, [next_event(other, moved, random.Random(1))], seq)
    finally:
        other.close()


def test_dealing_is_the_pure_modules(scorebook: Scorebook) -> None:
    # What the server stored is what projections.bag deals from the seed, draw by draw.
    sb = scorebook
    match_id = start(sb, "high-five")
    play(sb, match_id, random.Random(12))
    seed = bytes.fromhex(seed_of(sb, match_id)[0])
    fold = sb.whole_fold(match_id)
    bag = Bag()
    for seq in range(2, fold.seq + 1):
        e = fold.event(seq)
        blank = {k: v for k, v in e.data.items() if k not in ("layout", "hands", "to_layout")}
        dealt = pure.deal("high-five", fold.state_at(seq - 1), e.type, blank, bag, seed)
        if dealt is not None:
            assert dealt.data == e.data, seq
            bag = dealt.bag


def test_the_scorepads_undo_skips_the_reveal(scorebook: Scorebook) -> None:
    # A referee's undo at the scorepad takes back the last move, not the server's bag_revealed after it.
    from dashboard.pages.pad import undo_target

    sb = scorebook
    match_id = start(sb, "tri-ominos")
    last = play(sb, match_id, random.Random(7))
    assert undo_target(sb.fold(match_id)) == (last - 1, last - 2)


def shuffles(sb: Scorebook, match_id: str) -> int:
    """How many times the match's bag was shuffled: its draws dealt again from the seed, seq by seq."""
    fold = sb.whole_fold(match_id)
    seed = bytes.fromhex(seed_of(sb, match_id)[0])
    bags = [Bag(), Bag()]
    for seq in range(2, fold.seq + 1):
        e = fold.event(seq)
        bag = pure.after(bags, e)
        if bag is None:
            dealt = pure.deal(fold.game.name, fold.state_at(seq - 1), e.type, e.data, bags[-1], seed)
            bag = dealt.bag if dealt is not None else bags[-1]
        bags.append(bag)
    return bags[-1].shuffles


@pytest.mark.parametrize(("game", "options", "least"), [
    ("tri-ominos", {"target_score": 400}, 2),  # a shuffle per round: no one makes 400 in one round
    ("high-five", {"target_score": 110}, 2),  # a game is worth 100 in all: two games at least
    ("hi-spot", {"target_score": 400, "clear_full_stacks": True}, 2),  # the first-player tiles go back
])
def test_tiles_going_back_into_the_bag_are_shuffled_again(
    scorebook: Scorebook, game: str, options: dict[str, Any], least: int
) -> None:
    # Longer matches: new rounds and games put every tile back; in Hi-Spot, settled first-player draws,
    # cleared full stacks and exchanges put some back.
    sb = scorebook
    match_id = start(sb, game, **options)
    play(sb, match_id, random.Random(21))
    assert shuffles(sb, match_id) >= least
    if game == "hi-spot":
        fold = sb.whole_fold(match_id)
        lasts = [fold.state_at(s).last for s in range(1, fold.seq + 1)]
        assert any(last is not None and last[8] for last in lasts)  # a placement's last field: cleared
    check = sb.verify(match_id)
    assert check.ok and check.bag is not None and check.bag.startswith("every draw followed"), check


def test_a_written_tile_through_the_api_is_a_422_and_stores_nothing(scorebook: Scorebook) -> None:
    client = TestClient(create_api(scorebook))
    headers = {"Authorization": f"Bearer {scorebook.create_token('desk', 'recorder')}"}
    r = client.post("/api/matches", headers=headers,
                    json={"game": "tri-ominos", "players": [{"id": "ann"}, {"id": "bo"}], "bag": "committed"})
    match_id = r.json()["match_id"]
    m = f"/api/matches/{match_id}"
    r = client.post(f"{m}/events", headers=headers, json={"expected_seq": 1, "events": [
        {"type": "round_started", "data": {}}, {"type": "tiles_dealt", "data": {"player": "ann"}}]})
    assert r.status_code == 201 and None not in r.json()["events"][1]["data"]["tiles"]
    dealt = set(r.json()["events"][1]["data"]["tiles"])
    wrong = next(t for t in TRI_TILES if t not in dealt)
    r = client.post(f"{m}/events", headers=headers, json={"expected_seq": 3, "events": [
        {"type": "tiles_dealt", "data": {"player": "bo", "tiles": [None] * 8 + [wrong]}}]})
    assert r.status_code == 422
    assert r.json()["error"] == "illegal_event" and r.json()["seq"] == 4 and r.json()["type"] == "tiles_dealt"
    assert r.json()["reason"].startswith(f"tiles_dealt: {wrong} is written, but the server deals the draws")
    assert [e["seq"] for e in client.get(f"{m}/events").json()["events"]] == [1, 2, 3]


def test_an_inline_hi_spot_tile_set_is_shuffled_in_its_listed_order(scorebook: Scorebook) -> None:
    from projections.games.hi_spot.tiles import default_tile_set, positions_of

    printed = default_tile_set().masks
    ids = [f"Z{i:02}" for i in range(len(printed))]
    tile_set = [{"id": z, "dots": positions_of(printed[t])} for z, t in zip(ids, reversed(list(printed)), strict=True)]
    sb = scorebook
    match_id = start(sb, "hi-spot", tile_set=tile_set)
    play(sb, match_id, random.Random(13))
    seed = bytes.fromhex(seed_of(sb, match_id)[0])
    first = next(e for e in sb.events(match_id) if e["type"] == "first_player_drawn")["data"]["draws"]
    assert [first["ann"], first["bo"]] == list(shuffled(ids, seed, 0)[:2])
    assert sb.verify(match_id).ok


def test_another_server_process_deals_on_from_a_snapshot(scorebook: Scorebook) -> None:
    # A fresh store (another process, or a restart) resumes the match from its snapshot at seq 100 and deals
    # its bag again from the log: the draws go on exactly as the first store would have dealt them.
    sb = scorebook
    match_id = start(sb, "tri-ominos", target_score=400)
    play(sb, match_id, random.Random(14), until=130)
    other = Scorebook.from_engine(sb.engine)
    assert other.fold(match_id).held_from > 1  # resumed from a snapshot, not folded from seq 1
    play(other, match_id, random.Random(15))
    check = other.verify(match_id)
    assert check.ok and check.bag is not None and check.bag.startswith("every draw followed"), check


@pytest.mark.parametrize(("game", "line"), [("high-five", "game ? ? ? ? ?"), ("hi-spot", "first ann=? bo=?")])
def test_the_scorepad_records_a_committed_bags_draws_with_question_marks(
    scorebook: Scorebook, game: str, line: str
) -> None:
    # The tablet's line leaves the tiles to the bag; the same line in a match with a physical bag is refused.
    from projections.events import Event
    from projections.notation import parse_line
    from recorder.log.file import NewEvent

    sb = scorebook
    match_id = start(sb, game)
    if game == "hi-spot":
        sb.append(match_id, [NewEvent("round_started", {})], 1, "desk")
    fold = sb.fold(match_id)
    event = parse_line(fold.game, fold.state, line)
    stored, _ = sb.append(match_id, [NewEvent(event["type"], event["data"])], fold.seq, "desk")
    dealt = stored[0]["data"]
    tiles = dealt["layout"] if game == "high-five" else list(dealt["draws"].values())
    assert None not in tiles and len(set(tiles)) == len(tiles)
    assert sb.verify(match_id).ok

    physical = sb.fold(str(sb.start_match({"game": game, "players": [{"id": "ann"}, {"id": "bo"}]})["match_id"]))
    if game == "hi-spot":
        physical = physical.apply(Event(2, "round_started", {}))
    refused = "the layout is face up" if game == "high-five" else "ann's tile must be written"
    with pytest.raises(IllegalEvent, match=refused):
        physical.apply(Event(physical.seq + 1, **parse_line(physical.game, physical.state, line)))
