"""Tri-Ominos (RULES.md §1): the package assembles the game from its modules — `rules` (state, event
handlers, scores; the BRIDGE RULE is `rules.is_bridge`), `moves` (legal moves), `view` (annotations and
the state JSON), `notation` (the scorepad's lines and click paths), `player` (a seeded random player),
`events` (the data model of each event), and the leaves `grid` (the triangular grid) and `tiles` (the
56 tiles)."""

from projections.games.tri_ominos import moves, notation, player, rules, view
from projections.games.tri_ominos.events import EVENTS
from projections.protocol import Descriptor, Game

DESCRIPTOR = Descriptor(
    name=rules.NAME,
    title="Tri-Ominos",
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    events=EVENTS,
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
    valued_tags=(),
    first_player_key="starter",
    to_move_key="turn",
    hidden_state=("players.*.hand",),
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
    notation=notation.to_notation,
    parse_notation=notation.parse,
    pad_path=notation.pad_path,
    pad_templates=notation.templates,
)

State = rules.State

__all__ = ["DESCRIPTOR", "GAME", "State"]
