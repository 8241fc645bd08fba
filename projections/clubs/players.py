"""The club's player registry: one stream saying who plays, under which id, name and club.

An id is for good: a player is renamed, never registered again, and an id once used (a merged one too) is
never given to anyone else, so every match, tournament and rating naming it keeps meaning the same person.
Two registrations of one person are merged: the id that goes points at the one that stays, and every read
(`canonical`, `resolve`, `players`) follows it. Older matches that name a player by a free name are tied to
the registry by an alias.

The checks shared with the tournaments (`check_fields`, `player_id`, `text`) live here too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from projections.clubs.protocol import StreamKind
from projections.errors import IllegalEvent

ID_PATTERN = re.compile(r"[a-z0-9_-]{1,64}")
MAX_TEXT = 100  # a name, an alias, a club


# --- checks shared by every club stream ----------------------------------------------------------------


def check_fields(data: Mapping[str, Any], what: str, required: Iterable[str], optional: Iterable[str] = ()) -> None:
    """Refuse a missing field, or one the event does not have: a misspelled field is named, not ignored."""
    required = tuple(required)
    missing = [k for k in required if k not in data]
    if missing:
        raise IllegalEvent(f"{what}: missing {missing[0]!r}")
    known = {*required, *optional}
    unknown = sorted(k for k in data if k not in known)
    if unknown:
        raise IllegalEvent(f"{what}: unknown field {unknown[0]!r}; known: {', '.join(sorted(known))}")


def player_id(value: Any, what: str, key: str = "player") -> str:
    """A player id: 1 to 64 of a-z, 0-9, '_' and '-' (it appears in addresses and file names)."""
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise IllegalEvent(f"{what}: {key} must be an id of 1 to 64 characters a-z, 0-9, '_' or '-' (got {value!r})")
    return value


def text(value: Any, what: str, key: str, limit: int = MAX_TEXT) -> str:
    """A name, an alias or a club: 1 to `limit` characters, not only spaces (kept as written)."""
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise IllegalEvent(f"{what}: {key} must be 1 to {limit} characters, not blank (got {value!r})")
    return value


def optional_text(data: Mapping[str, Any], key: str, what: str) -> str | None:
    value = data.get(key)
    return None if value is None else text(value, what, key)


# --- the state -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One registration as recorded; a merged one stays, pointing (through `Registry.merged`) to its keeper."""

    id: str
    name: str
    club: str | None = None
    aliases: tuple[str, ...] = ()  # added to this id, in order


@dataclass(frozen=True)
class Registry:
    club: str | None = None
    entries: Mapping[str, Entry] = field(default_factory=dict)  # every id ever registered, in order
    merged: Mapping[str, str] = field(default_factory=dict)  # the id that went -> the one it went into, in order
    aliases: Mapping[str, str] = field(default_factory=dict)  # alias -> the id it was added to


@dataclass(frozen=True)
class ClubPlayer:
    """A player as every read shows them: merges followed."""

    id: str
    name: str
    club: str | None
    aliases: tuple[str, ...]  # own aliases, then the names and aliases of the ids merged into this one
    merged: tuple[str, ...]  # the ids merged into this one (directly or through a chain)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "club": self.club, "aliases": list(self.aliases),
                "merged": list(self.merged)}


# --- reads ---------------------------------------------------------------------------------------------


def canonical(state: Registry, pid: str) -> str:
    """The id that stands for `pid` now: merges followed to the end of the chain (an unknown id is itself)."""
    seen = {pid}
    while pid in state.merged:
        pid = state.merged[pid]
        if pid in seen:  # never built by the handlers; a guard, not a rule
            raise AssertionError(f"merge cycle through {pid!r}")
        seen.add(pid)
    return pid


def resolve(state: Registry, key: str) -> str | None:
    """The player `key` means: an id (merges followed), else an alias, else a name exactly one player has had
    (a merged id's name counts for its keeper); None for nobody, or for a name two players share."""
    if key in state.entries:
        return canonical(state, key)
    if key in state.aliases:
        return canonical(state, state.aliases[key])
    named = {canonical(state, e.id) for e in state.entries.values() if e.name == key}
    return named.pop() if len(named) == 1 else None


def _merged_into(state: Registry, pid: str) -> Iterator[str]:
    """The ids merged into `pid`, each followed by those merged into it, in the order of the merges."""
    for gone, kept in state.merged.items():
        if kept == pid:
            yield gone
            yield from _merged_into(state, gone)


def player(state: Registry, pid: str) -> ClubPlayer | None:
    """The player `pid` stands for (merges followed), or None for an id never registered."""
    if pid not in state.entries:
        return None
    entry = state.entries[canonical(state, pid)]
    gone = tuple(_merged_into(state, entry.id))
    aliases = list(entry.aliases)
    for other in (state.entries[g] for g in gone):
        for alias in (other.name, *other.aliases):
            if alias != entry.name and alias not in aliases:
                aliases.append(alias)
    return ClubPlayer(entry.id, entry.name, entry.club, tuple(aliases), gone)


def players(state: Registry) -> list[ClubPlayer]:
    """The players that remain (not merged into another), in the order they registered."""
    found = (player(state, pid) for pid in state.entries if pid not in state.merged)
    return [p for p in found if p is not None]


def to_json(state: Registry) -> dict[str, Any]:
    return {
        "club": state.club,
        "players": [p.to_json() for p in players(state)],
        "merged": dict(state.merged),
    }


# --- events --------------------------------------------------------------------------------------------


def _start(data: Mapping[str, Any]) -> Registry:
    what = "registry_opened"
    check_fields(data, what, (), ("club",))
    return Registry(club=optional_text(data, "club", what))


def _registered(state: Registry, data: Mapping[str, Any], what: str, key: str = "player") -> Entry:
    """The registered, not merged, player the event names."""
    pid = player_id(data[key], what, key)
    entry = state.entries.get(pid)
    if entry is None:
        raise IllegalEvent(f"{what}: no player is registered as {pid!r}")
    if pid in state.merged:
        raise IllegalEvent(f"{what}: {pid!r} was merged into {canonical(state, pid)!r}; use that id")
    return entry


def _player_registered(state: Registry, data: Mapping[str, Any]) -> Registry:
    what = "player_registered"
    check_fields(data, what, ("player", "name"), ("club",))
    pid = player_id(data["player"], what)
    name = text(data["name"], what, "name")
    club = optional_text(data, "club", what)
    if pid in state.entries:
        taken = state.entries[pid]
        merged = f", merged into {canonical(state, pid)!r}" if pid in state.merged else ""
        raise IllegalEvent(f"{what}: the id {pid!r} is taken ({taken.name}{merged}); an id is never used twice")
    if pid in state.aliases:
        raise IllegalEvent(f"{what}: {pid!r} is already an alias of {canonical(state, state.aliases[pid])!r}")
    return replace(state, entries={**state.entries, pid: Entry(pid, name, club)})


def _player_renamed(state: Registry, data: Mapping[str, Any]) -> Registry:
    what = "player_renamed"
    check_fields(data, what, ("player", "name"))
    entry = _registered(state, data, what)
    name = text(data["name"], what, "name")
    return replace(state, entries={**state.entries, entry.id: replace(entry, name=name)})


def _player_club_changed(state: Registry, data: Mapping[str, Any]) -> Registry:
    what = "player_club_changed"
    check_fields(data, what, ("player", "club"))
    entry = _registered(state, data, what)
    club = optional_text(data, "club", what)  # null: the player belongs to no club
    return replace(state, entries={**state.entries, entry.id: replace(entry, club=club)})


def _alias_added(state: Registry, data: Mapping[str, Any]) -> Registry:
    what = "alias_added"
    check_fields(data, what, ("player", "alias"))
    entry = _registered(state, data, what)
    alias = text(data["alias"], what, "alias")
    if alias in state.aliases:
        owner = canonical(state, state.aliases[alias])
        raise IllegalEvent(f"{what}: {alias!r} is already an alias of {owner!r}; an alias means one player")
    if alias in state.entries:  # an id is read before an alias: this alias would never be reached
        raise IllegalEvent(f"{what}: {alias!r} is the id of a registered player, so it cannot be an alias")
    return replace(
        state,
        entries={**state.entries, entry.id: replace(entry, aliases=(*entry.aliases, alias))},
        aliases={**state.aliases, alias: entry.id},
    )


def _players_merged(state: Registry, data: Mapping[str, Any]) -> Registry:
    what = "players_merged"
    check_fields(data, what, ("player", "into"))
    gone = _registered(state, data, what)
    kept = _registered(state, data, what, "into")
    if gone.id == kept.id:
        raise IllegalEvent(f"{what}: a player cannot be merged into themselves ({gone.id!r})")
    return replace(state, merged={**state.merged, gone.id: kept.id})


PLAYERS: StreamKind[Registry] = StreamKind(
    name="players",
    start_type="registry_opened",
    start=_start,
    handlers={
        "player_registered": _player_registered,
        "player_renamed": _player_renamed,
        "player_club_changed": _player_club_changed,
        "alias_added": _alias_added,
        "players_merged": _players_merged,
    },
    to_json=to_json,
)
