"""Hi-Spot / Stack-Ominos (RULES.md §3): the game, built from the package's modules.

`rules` (state, handlers, turn scoring), `moves` (legal moves), `view` (state JSON, descriptions, the
tile patterns for the board), `player` (a seeded random legal player), `events` (the event models),
`notation` (the scorepad's one-line notation and click paths), `bag` (draws from a committed bag),
`hindsight` (what a rack hides), and the leaf `tiles` (dot patterns, orientations, tile sets; the default
set is `tilesets/default.json`).
"""

from projections.games.hi_spot import bag, events, hindsight, moves, notation, player, rules, view
from projections.protocol import Game

GAME: Game[rules.State] = Game.from_modules(
    rules=rules, events=events, moves=moves, view=view, player=player, notation=notation, bag=bag,
    hindsight=hindsight,
    title="Hi-Spot",
    bonus_tags=("full_stack", "going_out"),
    # A blocked round_ended deducts the dots left on every rack (when no draw was hidden).
    penalty_tags=("blocked",),
    counted_tags=("full_stack", "new_stack", "going_out", "exchange"),
    tag_labels={
        "full_stack": "full stacks",
        "new_stack": "new stacks",
        "going_out": "going out",
        "exchange": "exchanges",
        "blocked": "blocked rounds",
    },
    first_player_key="first_player",
    to_move_key="to_act",  # null outside play: the first-player draw, the racks being drawn, between rounds
    # `patterns` names every tile on a rack (its keys), so it is hidden whole.
    hidden_state=("players.*.rack", "patterns"),
    state_bytes=1900,
)
DESCRIPTOR = GAME.descriptor
State = rules.State

__all__ = ["DESCRIPTOR", "GAME", "State"]
