"""Cheap copies of frozen dataclass states, for reducers that build a new state per event.

`dataclasses.replace` re-runs `__init__` (one `object.__setattr__` per field of a frozen dataclass, plus
its own field walk): a third of a fold's time for a twenty-field state. `evolve` copies the instance
dict instead, in C. It bypasses `__init__` and `__post_init__`, so use it only on plain frozen
dataclasses without `__slots__` or derived fields. A name that is not one of the dataclass's fields (nor
a remembered value, whose name starts with `_`) is refused: an AssertionError, a reducer's bug.

`fields_of` and `rebuilt` are the same copy spelled out: the copied dict's fields are set one by one, then
it becomes the new state. Passing keywords costs about twice as much (the keyword dict built, then merged),
so a game's most frequent events use these; every other event uses `evolve`.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__  # a frozen dataclass refuses its own __setattr__


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of `obj` with `changes` applied; `obj` is left as it was."""
    d = obj.__dict__.copy()  # stays combined (see `unshared`)
    held = len(d)
    d.update(changes)
    if len(d) != held:  # a name obj's dict did not hold: only then are the names checked
        _check_names(type(obj), d)
    new: T = _new(type(obj))
    _set(new, "__dict__", d)
    return new


def unshared(obj: T) -> T:
    """`obj` with an instance dict of its own, for the first state of a fold; `evolve`'s copies then keep it.

    An instance built by its class (or by pickle) gets a key-sharing ("split") dict, and a copy of one is split
    too; CPython 3.11 specialises attribute reads only on instances whose dict is not split, so every
    `state.x` of a fold started from such a state takes the generic path, 3-4 times slower. A new dict filled
    from a split one is combined; `copy` keeps a combined dict combined, at the same cost."""
    d = getattr(obj, "__dict__", None)
    if type(d) is not dict:
        return obj  # not an instance with a dict (a test's game may keep any value as its state)
    new: T = _new(type(obj))
    # Built key by key, its table grows only as far as the keys need (`dict(d)` sizes it for more: High Five's
    # 21 fields took 832 bytes instead of 464), and every copy of it is as large.
    _set(new, "__dict__", {k: v for k, v in d.items()})
    return new


def _check_names(cls: type, d: dict[str, Any]) -> None:
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = [k for k in d if k[0] != "_" and k not in names]
    assert not unknown, unknown  # a field's name misspelled (`_name`s are a state's remembered values)


def fields_of(obj: Any) -> dict[str, Any]:
    """A copy of a state's fields (and remembered values) to change in place and pass to `rebuilt`: for a
    reducer's most frequent event, where storing each changed field costs half of passing it to `evolve`."""
    return obj.__dict__.copy()  # type: ignore[no-any-return]


def rebuilt(obj: T, d: dict[str, Any]) -> T:
    """A new instance of `obj`'s class holding `d`, a changed `fields_of(obj)`; a name that was not a field of
    `obj` is refused, as by `evolve`."""
    if len(d) != len(obj.__dict__):  # a name obj's dict did not hold: only then are the names checked
        _check_names(type(obj), d)
    new: T = _new(type(obj))
    _set(new, "__dict__", d)
    return new
