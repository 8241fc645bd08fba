"""The shape of the code: who may import whom, and every game package alike.

Imports are read from the source (every import statement, those inside functions included: a lazy
import hides a cycle, it does not remove it)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.paths import ROOT

PROJECTIONS = ROOT / "projections"
GAMES = PROJECTIONS / "games"
GAME_MODULES = {"__init__", "events", "rules", "moves", "view", "player", "hindsight", "bag"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(under: Path) -> dict[str, Path]:
    return {module_name(p): p for p in sorted(under.rglob("*.py"))}


def imported(path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every module `path` imports, resolved to modules in `known` where they are ours."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield sub if sub in known else base


def graph(under: Path) -> dict[str, set[str]]:
    known = modules(under)
    return {name: {m for m in imported(path, known) if m in known and m != name} for name, path in known.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycles_in_projections() -> None:
    assert find_cycle(graph(PROJECTIONS)) is None


@pytest.mark.parametrize("layer", ["recorder", "dashboard"])
def test_no_import_cycles_in_the_other_layers(layer: str) -> None:
    assert find_cycle(graph(ROOT / layer)) is None


def test_projections_imports_nothing_of_the_outside_world() -> None:
    forbidden = {"recorder", "dashboard", "sqlalchemy", "sqlmodel", "fastapi", "dash", "plotly", "alembic",
                 "psycopg", "sqlite3", "uvicorn", "httpx", "requests", "socket", "os", "subprocess"}
    known = modules(PROJECTIONS)
    for name, path in known.items():
        roots = {m.split(".")[0] for m in imported(path, known)}
        assert not roots & forbidden, f"{name} imports {sorted(roots & forbidden)}"


def test_the_dashboard_talks_no_sql() -> None:
    known = modules(ROOT / "dashboard")
    for name, path in known.items():
        roots = {m.split(".")[0] for m in imported(path, known)}
        assert not roots & {"sqlalchemy", "sqlmodel", "sqlite3", "psycopg"}, name


GAME_PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())


def test_there_are_four_game_packages() -> None:
    assert GAME_PACKAGES == ["hats_off", "hi_spot", "high_five", "tri_ominos"]


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_every_game_package_has_the_same_modules(package: str) -> None:
    names = {p.stem for p in (GAMES / package).glob("*.py")}
    assert GAME_MODULES <= names, f"{package} lacks {sorted(GAME_MODULES - names)}"


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_rules_import_none_of_their_siblings_that_build_on_them(package: str) -> None:
    known = modules(PROJECTIONS)
    base = f"projections.games.{package}"
    rules = set(imported(GAMES / package / "rules.py", known))
    builds_on_rules = {f"{base}.{m}" for m in ("moves", "view", "player", "events")} | {base}
    assert not rules & builds_on_rules, f"{package}/rules.py imports {sorted(rules & builds_on_rules)}"


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_no_game_imports_another_game(package: str) -> None:
    known = modules(PROJECTIONS)
    for path in (GAMES / package).rglob("*.py"):
        for m in imported(path, known):
            if m.startswith("projections.games."):
                assert m.split(".")[2] == package, f"{path.relative_to(ROOT)} imports {m}"
