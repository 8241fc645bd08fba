"""The shape of the code: who may import whom, every game package alike, and tests that share helpers only
through tests/support/ (no test module imports another).

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


def test_the_game_packages_on_disk_are_the_registrys() -> None:
    from projections.registry import GAME_NAMES, get_game, package_of

    assert GAME_PACKAGES == sorted(package_of(name) for name in GAME_NAMES)
    for name in GAME_NAMES:  # and each package builds the game the registry files under its name
        assert get_game(name).name == name


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


# The layers, lowest first: a module imports from its own part or from parts below it, never above.
LAYERS: list[tuple[str, ...]] = [
    ("projections",),
    ("recorder.errors", "recorder.config"),
    ("recorder.log",),
    ("recorder.sql",),
    ("recorder.access",),
    ("recorder.store",),
    ("recorder.readmodels",),
    ("recorder.clubs", "recorder.legal", "recorder.live"),
    ("recorder.facade",),
    ("recorder",),  # the package itself: `from recorder import Scorebook`
    ("recorder.demo", "recorder.api"),
    ("dashboard",),
    ("scorebook",),
]
LAYERED = ("projections", "recorder", "dashboard", "scorebook")


def part_of(module: str) -> tuple[int, str]:
    """The layer of `module` and the part it belongs to (the longest prefix the layers name)."""
    best: tuple[int, str] | None = None
    for rank, parts in enumerate(LAYERS):
        for part in parts:
            if (module == part or module.startswith(part + ".")) and (best is None or len(part) > len(best[1])):
                best = (rank, part)
    assert best is not None, f"{module} is in no layer"
    return best


def all_modules() -> dict[str, Path]:
    known: dict[str, Path] = {}
    for top in LAYERED:
        known |= modules(ROOT / top)
    return known


def test_every_module_is_in_a_layer() -> None:
    for name in all_modules():
        part_of(name)


def test_no_arrow_runs_back_up() -> None:
    known = all_modules()
    upward = []
    for name, path in known.items():
        rank, part = part_of(name)
        for target in set(imported(path, known)):
            if target not in known or target == name:
                continue
            t_rank, t_part = part_of(target)
            if t_part != part and t_rank >= rank:
                upward.append(f"{name} -> {target}")
    assert upward == []


def test_no_import_cycles_across_the_layers() -> None:
    known = all_modules()
    edges = {name: {m for m in imported(path, known) if m in known and m != name} for name, path in known.items()}
    assert find_cycle(edges) is None


def test_no_private_name_crosses_a_module() -> None:
    known = all_modules()
    crossing = []
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in LAYERED:
                crossing += [f"{name} imports {node.module}.{a.name}" for a in node.names
                             if a.name.startswith("_") and not a.name.startswith("__")]
    assert crossing == []


def test_the_layering_check_sees_an_upward_import() -> None:
    assert part_of("recorder.store.matches") == (5, "recorder.store")
    assert part_of("recorder.api.routers.events")[1] == "recorder.api"
    assert part_of("dashboard.pages.pad") > part_of("recorder.facade")


# -- the tests themselves -------------------------------------------------------------------------------------

TESTS = ROOT / "tests"
SUPPORT = TESTS / "support"


def is_test_module_name(name: str) -> bool:
    """What pytest collects (test_*.py, *_test.py) or loads as a plugin (conftest.py): never imported."""
    return name.startswith("test_") or name.endswith("_test") or name == "conftest"


def imports_of_tests(source: str, here: str, is_package: bool = False) -> list[str]:
    """The test modules and conftests under tests/ that the source of module `here` imports, by name (whether
    `from tests.x import test_y` names a module or something in tests/x/__init__.py, it is refused)."""
    package = here if is_package else here.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return sorted(n for n in names if n.split(".")[0] == "tests" and
                  any(is_test_module_name(part) for part in n.split(".")[1:]))


def test_the_test_import_finder_finds_imports_of_test_modules() -> None:
    source = """
from tests.support.logs import START
from tests.store.test_store import helper
import tests.domain.test_stats
from tests.browser import conftest
from tests.games.hi_spot import test_hi_spot_rules
from .test_sibling import thing
from . import test_other
from tests.support import logs
"""
    assert imports_of_tests(source, "tests.api.test_x") == [
        "tests.api.test_other", "tests.api.test_sibling", "tests.api.test_sibling.thing", "tests.browser.conftest",
        "tests.domain.test_stats", "tests.games.hi_spot.test_hi_spot_rules", "tests.store.test_store",
        "tests.store.test_store.helper"]
    assert imports_of_tests("from tests.support.logs import START\nimport pytest\n", "tests.api.test_x") == []


def test_no_test_module_imports_another() -> None:
    """Tests share helpers through tests/support/ (and fixtures through conftest.py files), never by importing
    a test module or a conftest: a test would then depend on another module's tests, and a helper would be hard
    to find. Checked for every module under tests/, tests/support/ included."""
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        imports = imports_of_tests(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")
        if imports:
            found[path.relative_to(ROOT).as_posix()] = imports
    assert found == {}, "move what these modules use into tests/support/"


def test_every_helper_module_is_in_tests_support() -> None:
    """Under tests/, a module is a test module, a conftest.py, a package's __init__.py, or in tests/support/."""
    stray = [p.relative_to(ROOT).as_posix() for p in sorted(TESTS.rglob("*.py"))
             if not is_test_module_name(p.stem) and p.name != "__init__.py" and not p.is_relative_to(SUPPORT)]
    assert stray == []


def test_every_test_folder_is_a_package() -> None:
    """Test modules are imported by their package path (tests.store.test_store): a folder without __init__.py
    would have pytest import its modules by their bare names, and two test_x.py in two folders would clash."""
    folders = {p.parent for p in TESTS.rglob("*.py")}
    assert sorted(f.relative_to(ROOT).as_posix() for f in folders if not (f / "__init__.py").exists()) == []
