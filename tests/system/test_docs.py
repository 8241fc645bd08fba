"""The docs say what the code does: every JSON example in them is checked against the event schemas,
envelopes against the hash chain, and the README links only inside the repository."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from projections.notation import parse_line, to_notation
from projections.registry import GAME_NAMES, game_title, get_game
from projections.schemas import event_spec, unknown_fields
from projections.timeline import fold_dicts
from recorder.log.file import check_chain
from tests.support.paths import ROOT

DOC_FILES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
GAME_BY_TITLE = {game_title(name): name for name in GAME_NAMES}


def json_blocks(path: Path) -> Iterator[tuple[str | None, int, list[Any]]]:
    """(game of the section, line number, the objects) for each ```json block; a block is one JSON
    value or JSON Lines."""
    game: str | None = None
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        heading = re.match(r"^## (.+)$", lines[i])
        if heading:
            game = GAME_BY_TITLE.get(heading.group(1).strip())
        if lines[i].strip() == "```json":
            start, body = i + 1, []
            i += 1
            while lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            text = "\n".join(body)
            try:
                values = [json.loads(text)]
            except json.JSONDecodeError:
                values = [json.loads(line) for line in body if line.strip()]
            yield game, start, values
        i += 1


def examples() -> list[tuple[str, str | None, int, list[Any]]]:
    return [(p.relative_to(ROOT).as_posix(), g, n, v) for p in DOC_FILES for g, n, v in json_blocks(p)]


def test_the_docs_hold_examples_for_every_game() -> None:
    games = {g for path, g, _, _ in examples() if path == "docs/FORMAT.md"}
    assert games >= set(GAME_NAMES)


@pytest.mark.parametrize(("path", "game", "line", "values"), examples(), ids=lambda v: str(v)[:40])
def test_every_json_example_is_valid(path: str, game: str | None, line: int, values: list[Any]) -> None:
    events = [v for v in values if isinstance(v, dict) and "type" in v and "data" in v]
    for event in events:
        where = f"{path}:{line}: {event['type']}"
        # The game: the section's, else the one a match_started in the block names, else the one game
        # that has the event type.
        if event["type"] == "match_started":
            game = event["data"].get("game")
        name = game or next((g for g in GAME_NAMES if event["type"] in get_game(g).event_types), None)
        spec = event_spec(get_game(name) if name else None, event["type"])
        assert spec is not None, f"{where} is not an event of {name or 'every game'}"
        spec.data.model_validate(event["data"])
        assert unknown_fields(spec, event["data"]) == [], where
    if events and "hash" in events[0]:
        check = check_chain(events)
        assert check.ok, f"{path}:{line}: {check.reason}"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_format_md_names_every_option_of_every_game(name: str) -> None:
    text = (ROOT / "docs" / "FORMAT.md").read_text(encoding="utf-8")
    section = text.split(f"## {game_title(name)}\n", 1)[1].split("\n## ", 1)[0]
    for option in get_game(name).descriptor.options:
        assert f"`{option}`" in section, f"docs/FORMAT.md does not name {name}'s option {option}"


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_stay_inside_the_repository(path: Path) -> None:
    for target in re.findall(r"\]\(([^)]+)\)", path.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "#", "mailto:")):
            assert not target.startswith("http") or "127.0.0.1" in target or "localhost" in target, target
            continue
        resolved = (path.parent / target.split("#")[0]).resolve()
        assert resolved.is_relative_to(ROOT), f"{path.name} links outside the repository: {target}"
        assert resolved.exists(), f"{path.name} links to a missing file: {target}"


def test_the_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    (tmp_path / "var").mkdir()
    scope: dict[str, Any] = {}
    exec(compile(blocks[0], "README.md", "exec"), scope)  # noqa: S102 - our own docs
    sb = scope["sb"]
    assert sb.verify(scope["m"]["match_id"]).ok
    again = scope["again"]  # importing its own export answers the match already stored
    assert (again["match_id"], again["existing"], again["added"]) == (scope["m"]["match_id"], True, 0)
    sb.close()


def notation_examples() -> list[tuple[str, str]]:
    """(game, line) for every line of the ```text blocks in docs/scorepad.md's game sections."""
    path = ROOT / "docs" / "scorepad.md"
    out: list[tuple[str, str]] = []
    game: str | None = None
    in_block = False
    for raw in path.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^## (.+)$", raw)
        if heading:
            game = GAME_BY_TITLE.get(heading.group(1).strip())
        if raw.strip().startswith("```"):
            in_block = raw.strip() == "```text" and game is not None
            continue
        if in_block and game and raw.strip():
            out.append((game, raw.strip()))
    return out


def test_scorepad_docs_show_every_game() -> None:
    assert {g for g, _ in notation_examples()} == set(GAME_NAMES)


@pytest.mark.parametrize(("game", "line"), notation_examples(), ids=lambda v: str(v)[:40])
def test_every_notation_example_reads_and_writes_back(game: str, line: str) -> None:
    g = get_game(game)
    players = [{"id": p} for p in ("ann", "bo", "cy")][: g.descriptor.max_players]
    state = fold_dicts([{"type": "match_started", "data": {"game": game, "players": players}}]).state
    event = parse_line(g, state, line)
    assert parse_line(g, state, to_notation(g, event)) == event  # what the pad echoes reads the same
