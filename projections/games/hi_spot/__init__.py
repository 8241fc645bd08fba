"""Hi-Spot / Stack-Ominos (RULES.md §3): the descriptor and the game, assembled from the package's modules.

`rules` (state, handlers, turn scoring), `moves` (legal moves), `view` (state JSON, descriptions, the
tile patterns for the board), `player` (a seeded random legal player), `events` (the event models),
`tiles` (dot patterns, orientations, tile sets; the default set is `tilesets/default.json`), `notation`
(the scorepad's one-line notation and click paths).
"""

from projections.games.hi_spot import moves, notation, player, rules, view
from projections.games.hi_spot.events import EVENTS
from projections.protocol import Descriptor, Game

DESCRIPTOR = Descriptor(
    name=rules.NAME,
    title="Hi-Spot",
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    events=EVENTS,
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
    valued_tags=(),
    first_player_key="first_player",
    to_move_key="to_act",  # null outside play: the first-player draw, the racks being drawn, between rounds
    # `patterns` names every tile on a rack (its keys), so it is hidden whole.
    hidden_state=("players.*.rack", "patterns"),
)

GAME: Game[rules.State] = Game(
    descriptor=DESCRIPTOR,
    start=rules.start,
    handlers=rules.HANDLERS,
    is_finished=rules.is_finished,
    scores=rules.scores,
    totals=rules.totals,
    to_json=view.to_json,
    legal_moves=moves.legal_moves,
    describe=view.describe,
    marks=view.marks,
    random_match=player.random_match,
    board_extras=view.board_extras,
    notation=notation.to_notation,
    parse_notation=notation.parse,
    pad_path=notation.pad_path,
    pad_templates=notation.templates,
)

State = rules.State

__all__ = ["DESCRIPTOR", "GAME", "State"]
