"""New states from old ones, for reducers that build a new state per event and keep every old one.

`updater(State, "a", "b")` is the one way a reducer builds its next state: a function that takes a state and
the new values of those fields (`update(state, a=1, b=2)`) and returns a copy of the state with them changed,
sharing every other field with it and leaving it as it was. A handler binds the updater of what its event
changes once, beside it; `evolve(state, a=1)` finds (and keeps) the updater of the names it is given, for an
event whose changes vary. Both copy the instance dict and bypass `__init__` and `__post_init__`
(docs/PERFORMANCE.md, "Reducers"), so use them only on plain frozen dataclasses without `__slots__` or derived
fields. A name that is not one of the dataclass's fields (nor a remembered value, whose name starts with `_`)
is refused: an AssertionError, a reducer's bug.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__  # a frozen dataclass refuses its own __setattr__


@cache
def updater(cls: type[T], *names: str) -> Callable[..., T]:
    """The function `update(state, **values)` that copies a `cls` state with the fields `names` set to `values`
    (every name given, by keyword)."""
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = [n for n in names if n[0] != "_" and n not in known]
    assert not unknown, unknown  # a field's name misspelled (`_name`s are a state's remembered values)
    # Written out as the handler would write it by hand: one store per field into a copy of the instance dict.
    stores = "".join(f"    d[{n!r}] = {n}\n" for n in names)
    params = "".join(f", {n}" for n in names)
    source = (f"def update(state{', *' if names else ''}{params}):\n    d = state.__dict__.copy()\n{stores}"
              "    new = _new(cls)\n    _set(new, '__dict__', d)\n    return new\n")
    scope: dict[str, Any] = {"_new": _new, "_set": _set, "cls": cls}
    exec(source, scope)  # the source is built from field names checked above
    update: Callable[..., T] = scope["update"]
    update.__qualname__ = f"updater({cls.__name__}, {', '.join(names)})"
    return update


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of `obj` with `changes` applied (`updater(type(obj), *changes)`); `obj` is left as it was."""
    update: Callable[..., T] = updater(type(obj), *changes)  # type: ignore[arg-type]  # a class is hashable
    return update(obj, **changes)


def unshared(obj: T) -> T:
    """`obj` with an instance dict of its own, for the first state of a fold: the states copied from it then
    read their fields fast (docs/PERFORMANCE.md, "Reducers")."""
    d = getattr(obj, "__dict__", None)
    if type(d) is not dict:
        return obj  # not an instance with a dict (a test's game may keep any value as its state)
    new: T = _new(type(obj))
    _set(new, "__dict__", {k: v for k, v in d.items()})  # built key by key: no larger than its keys need
    return new
