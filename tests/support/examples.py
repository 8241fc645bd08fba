"""The recorded example matches (tests/data/examples) with the scores they must give, and a reader for
import-form JSON Lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.paths import DATA

LOCAL_EXAMPLES = DATA / "examples"


def examples_dir() -> Path:
    return LOCAL_EXAMPLES


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.startswith("#")]


def example_names(game: str | None = None) -> list[str]:
    names = sorted(p.name.removesuffix(".jsonl") for p in examples_dir().glob("*.jsonl"))
    return [n for n in names if game is None or n.startswith(game)]


def load_example(name: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    d = examples_dir()
    return read_jsonl(d / f"{name}.jsonl"), json.loads((d / f"{name}.expected.json").read_text())
