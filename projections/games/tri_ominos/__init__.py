"""Tri-Ominos (RULES.md §1): the game, built from the package's modules — `rules` (state, event handlers,
scores; the BRIDGE RULE is `rules.is_bridge`), `moves` (legal moves), `view` (annotations and the state
JSON), `notation` (the scorepad's lines and click paths), `player` (a seeded random player), `events` (the
data model of each event), `bag` (draws from a committed bag), `hindsight` (what a hand hides), and the
leaves `grid` (the triangular grid), `tiles` (the 56 tiles) and `needs` (what the open cells take)."""

from projections.games.tri_ominos import bag, events, hindsight, moves, notation, player, rules, view
from projections.protocol import Game

GAME: Game[rules.State] = Game.from_modules(
    rules=rules, events=events, moves=moves, view=view, player=player, notation=notation, bag=bag,
    hindsight=hindsight,
    title="Tri-Ominos",
    bonus_tags=("start_bonus", "hexagon", "bridge", "bridge_extension", "going_out"),
    penalty_tags=("draw", "pass"),  # −5 a draw; a pass −10 (after the last draw allowed, or with the well empty)
    counted_tags=("start_bonus", "hexagon", "bridge", "bridge_extension", "going_out", "draw", "pass"),
    tag_labels={
        "start_bonus": "start bonus",
        "hexagon": "hexagons",
        "bridge": "bridges",
        "bridge_extension": "bridge extensions",
        "going_out": "going out",
        "draw": "draws",
        "pass": "passes",
    },
    first_player_key="starter",
    to_move_key="turn",
    hidden_state=("players.*.hand",),
    state_bytes=3800,
)
DESCRIPTOR = GAME.descriptor
State = rules.State

__all__ = ["DESCRIPTOR", "GAME", "State"]
