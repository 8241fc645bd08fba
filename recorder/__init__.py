"""Scorebook's recorder: the event store, its Python API (`Scorebook`) and the HTTP API.

`from recorder import Scorebook` loads the facade on first use, so that `import recorder` (and the
CLI's `--help`) stay cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from recorder.facade import Scorebook

__all__ = ["Scorebook"]


def __getattr__(name: str) -> Any:
    if name == "Scorebook":
        from recorder.facade import Scorebook

        return Scorebook
    raise AttributeError(f"module 'recorder' has no attribute {name!r}")
