"""Hats Off: rounds of launched hats, nesting, knocked hats and the HATS OFF call (RULES.md §4)."""

from projections.games.hats_off import moves, notation, player, rules, view
from projections.games.hats_off.events import EVENTS
from projections.protocol import Descriptor, Game

DESCRIPTOR = Descriptor(
    name=rules.NAME,
    title="Hats Off",
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    events=EVENTS,
    bonus_tags=("hole", "nested", "hats_off"),
    penalty_tags=(),
    counted_tags=("hole", "nested", "hats_off"),
    tag_labels={"hole": "hats in a hole", "nested": "nested hats", "hats_off": "HATS OFF calls"},
    valued_tags=(),
    first_player_key="caller",
    # Nobody "is to move" during a round: everyone launches at once, so no key of the state names one.
    to_move_key=None,
    hidden_state=(),  # no hidden information: every hat lands in plain sight
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
