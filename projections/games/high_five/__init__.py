"""High Five (RULES.md §2): the double-fifteen capture game. See docs/rules/high-five.md.

The game is built from the package's modules: `rules` (state, event handlers, scores), `moves` (legal
moves), `view` (annotations and the state JSON), `notation` (the scorepad's lines and click paths),
`player` (a seeded random player), `events` (the data model of each event), `bag` (draws from a committed
bag), `hindsight` (what a hand hides) and the leaf `tiles`."""

from projections.games.high_five import bag, events, hindsight, moves, notation, player, rules, view
from projections.protocol import Game

GAME: Game[rules.State] = Game.from_modules(
    rules=rules, events=events, moves=moves, view=view, player=player, notation=notation, bag=bag,
    hindsight=hindsight,
    title="High Five",
    bonus_tags=("capture", "claim"),
    counted_tags=("capture", "claim", "missed"),
    tag_labels={"capture": "captures", "claim": "claims", "missed": "missed captures"},
    valued_tags=("capture", "claim"),
    first_player_key="leader",
    to_move_key="to_play",
    hidden_state=("players.*.hand.tiles",),
    state_bytes=1600,
)
DESCRIPTOR = GAME.descriptor
State = rules.State

__all__ = ["DESCRIPTOR", "GAME", "State"]
