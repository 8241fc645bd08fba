"""The scorepad's start form offers the club's registered players, and a seat named as one of them (or by an
alias) records that player's id; any other name is a free one, as before."""

from __future__ import annotations

from pathlib import Path

from dashboard.pages import record
from recorder.facade import Scorebook


def test_seats_named_as_registered_players_take_their_ids(tmp_path: Path) -> None:
    with Scorebook.open(f"sqlite:///{tmp_path / 'club.db'}") as sb:
        sb.clubs.register_player("ann-smith-elm", "Ann Smith", "desk")
        sb.clubs.add_alias("ann-smith-elm", "Annie", "desk")
        registered = record.registered_names(sb)
        assert registered == {"ann smith": "ann-smith-elm", "annie": "ann-smith-elm"}
        data = record.match_data("hats-off", ["annie", "Bo Lee"], {}, {}, registered)
        assert data["players"] == [{"id": "ann-smith-elm", "name": "annie"}, {"id": "bo-lee", "name": "Bo Lee"}]
        match_id = sb.start_match(data, "desk")["match_id"]
        assert sb.clubs.player("ann-smith-elm")["matches"][0]["match_id"] == match_id
        # the same registered player twice at one table: the second seat is a free name
        twice = record.players_from(["Ann Smith", "Ann Smith"], registered)
        assert [p["id"] for p in twice] == ["ann-smith-elm", "ann-smith"]
        assert record.players_from(["Ann Smith"]) == [{"id": "ann-smith", "name": "Ann Smith"}]
