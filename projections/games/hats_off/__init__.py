"""Hats Off: rounds of launched hats, nesting, knocked hats and the HATS OFF call (RULES.md §4)."""

from projections.games.hats_off import bag, events, hindsight, moves, notation, player, rules, view
from projections.protocol import Game

GAME: Game[rules.State] = Game.from_modules(
    rules=rules, events=events, moves=moves, view=view, player=player, notation=notation, bag=bag,
    hindsight=hindsight,
    title="Hats Off",
    bonus_tags=("hole", "nested", "hats_off"),
    counted_tags=("hole", "nested", "hats_off"),
    tag_labels={"hole": "hats in a hole", "nested": "nested hats", "hats_off": "HATS OFF calls"},
    first_player_key="caller",
    # Nobody "is to move" during a round: everyone launches at once, so no key of the state names one
    # (`to_move_key` stays None), and every hat lands in plain sight (no `hidden_state`).
    state_bytes=1900,
)
DESCRIPTOR = GAME.descriptor
State = rules.State

__all__ = ["DESCRIPTOR", "GAME", "State"]
