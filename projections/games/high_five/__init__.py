"""High Five (RULES.md §2): the double-fifteen capture game. See docs/rules/high-five.md.

The package assembles the game from its modules: `rules` (state, event handlers, scores), `moves` (legal
moves), `view` (annotations and the state JSON), `notation` (the scorepad's lines and click paths),
`player` (a seeded random player), `events` (the data model of each event) and the leaf `tiles`."""

from projections.games.high_five import moves, notation, player, rules, view
from projections.games.high_five.events import EVENTS
from projections.protocol import Descriptor, Game

DESCRIPTOR = Descriptor(
    name=rules.NAME,
    title="High Five",
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    events=EVENTS,
    bonus_tags=("capture", "claim"),
    penalty_tags=(),
    counted_tags=("capture", "claim", "missed"),
    tag_labels={"capture": "captures", "claim": "claims", "missed": "missed captures"},
    valued_tags=("capture", "claim"),
    first_player_key="leader",
    to_move_key="to_play",
    hidden_state=("players.*.hand.tiles",),
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
