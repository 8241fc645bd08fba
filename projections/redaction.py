"""What a viewer who may not see every hand gets: events and state JSON with the hidden tiles replaced.

Which fields are hidden comes from each game's descriptor only: `EventSpec.hidden` (fields of an event's
data, `Hidden(path, owner)`) and `Descriptor.hidden_state` (paths into the state JSON). A path is
dot-separated keys; `*` is every value of a mapping (its key names the owner for `owner="key"`) or every
element of a list (an element that is an object with an `id` names the owner: `players.*.rack`).

The placeholder is the same in every game: a hidden tile is `null` — what every game already records for
a tile drawn unseen — so a list of N tiles stays a list of N nulls (its count still shows), a hidden
mapping becomes `{}` (its keys may be tiles: Hi-Spot's `patterns`) and any other hidden value `null`.
A redacted event's data is still valid against its game's schema; its stored hash no longer matches it.

Pure: no I/O. Who may see what is decided by the caller (recorder/access/visibility.py) and passed as a `View`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from projections.events import Event
from projections.protocol import Annotation, Descriptor, Hidden
from projections.timeline import Fold

PLACEHOLDER = None  # a hidden tile


@dataclass(frozen=True)
class View:
    """Whose hidden tiles a viewer sees: everyone's (`everything`) or those of `players` (none: a spectator)."""

    everything: bool = False
    players: frozenset[str] = frozenset()

    def sees(self, owner: str | None) -> bool:
        """A field owned by `owner` (None: owned by nobody in particular, seen only with everything)."""
        return self.everything or (owner is not None and owner in self.players)


FULL = View(everything=True)
SPECTATOR = View()


def _hide(value: Any) -> Any:
    if isinstance(value, list):
        return [PLACEHOLDER] * len(value)
    if isinstance(value, Mapping):
        return {}
    return PLACEHOLDER


def _redact_path(value: Any, parts: list[str], owner: str | None, by_key: bool, view: View) -> tuple[Any, bool]:
    """`value` with the path `parts` hidden where `view` does not see its owner: (new value, changed)."""
    if not parts:
        if view.sees(owner) or value is None:
            return value, False
        hidden = _hide(value)
        return hidden, hidden != value
    head, rest = parts[0], parts[1:]
    if head == "*":
        if isinstance(value, Mapping):
            out, changed = {}, False
            for k, v in value.items():
                out[k], c = _redact_path(v, rest, str(k) if by_key else owner, by_key, view)
                changed |= c
            return out, changed
        if isinstance(value, list):
            items, changed = [], False
            for v in value:
                who = v.get("id") if isinstance(v, Mapping) and isinstance(v.get("id"), str) else owner
                new, c = _redact_path(v, rest, who, by_key, view)
                items.append(new)
                changed |= c
            return items, changed
        return value, False
    if not isinstance(value, Mapping) or head not in value:
        return value, False
    new, changed = _redact_path(value[head], rest, owner, by_key, view)
    if not changed:
        return value, False
    return {**value, head: new}, True


def redact_data(descriptor: Descriptor, type: str, data: Mapping[str, Any], view: View) -> tuple[dict[str, Any], bool]:
    """An event's data as `view` may see it, and whether anything was hidden. Common events (match_started,
    note, rewind) and types the game does not know hide nothing."""
    if view.everything or type not in descriptor.event_types:
        return dict(data), False
    out: Any = dict(data)
    changed = False
    for hidden in descriptor.event(type).hidden:
        out, c = _redact_event_field(out, hidden, view)
        changed |= c
    return out, changed


def _redact_event_field(data: Mapping[str, Any], hidden: Hidden, view: View) -> tuple[Any, bool]:
    player = data.get("player")
    owner = player if hidden.owner == "player" and isinstance(player, str) else None
    return _redact_path(data, hidden.path.split("."), owner, hidden.owner == "key", view)


def redact_envelope(descriptor: Descriptor, envelope: Mapping[str, Any], view: View) -> dict[str, Any]:
    """A stored event (FORMAT.md's envelope, or a followed one) as `view` may see it; a redacted one is
    marked `"redacted": true` (its hash is the stored one and no longer matches its data)."""
    data, changed = redact_data(descriptor, envelope["type"], envelope.get("data") or {}, view)
    if not changed:
        return dict(envelope)
    return {**envelope, "data": data, "redacted": True}


def redact_state(descriptor: Descriptor, state: Mapping[str, Any], view: View) -> dict[str, Any]:
    """A game's state JSON (`Game.to_json`) with the descriptor's `hidden_state` paths hidden from `view`."""
    out: Any = dict(state)
    if view.everything:
        return out
    for path in descriptor.hidden_state:
        out, _ = _redact_path(out, path.split("."), None, False, view)
    return out


def describe(fold: Fold[Any], seq: int, view: View) -> Annotation:
    """The event list's words for event `seq`, told from the redacted event: the game describes a draw of
    unseen tiles ("Fay drew a rack of 5 tiles (5 hidden)") the way it does for a draw recorded unseen."""
    event = fold.event(seq)
    data, changed = redact_data(fold.game.descriptor, event.type, event.data, view)
    if not changed:
        return fold.describe(seq)
    redacted = Event(event.seq, event.type, data)
    try:
        return fold.game.describe(fold.state_at(seq - 1), redacted, fold.state_at(seq))
    except Exception:  # a game's words that need the hidden tiles: its summary, never the tiles
        spec = fold.game.descriptor.event(event.type)
        player = data.get("player") if isinstance(data.get("player"), str) else None
        return Annotation(spec.summary, player)
