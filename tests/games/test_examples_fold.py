"""Every public example log folds through the pure reducers to its expected scores."""

import pytest

from projections.scores import scores_json
from projections.timeline import fold_dicts
from tests.support.examples import example_names, load_example


@pytest.mark.parametrize("name", example_names())
def test_example_gives_expected_scores(name: str) -> None:
    lines, expected = load_example(name)
    assert scores_json(fold_dicts(lines), match_id=None) == expected
