"""`scorebook serve --print-token` (what `make run` shows): one local recorder token across restarts."""

from __future__ import annotations

import stat
from pathlib import Path

from recorder.access.auth import local_token
from recorder.facade import Scorebook


def active_local(sb: Scorebook) -> int:
    return sum(1 for t in sb.list_tokens() if t["name"] == "local" and not t["revoked"])


def test_the_local_token_is_kept_across_starts_and_rotating_revokes_the_old_one(
    scorebook: Scorebook, tmp_path: Path
) -> None:
    first, made = local_token(scorebook.engine, tmp_path)
    assert made and scorebook.authenticate(first) is not None
    assert stat.S_IMODE((tmp_path / "local-token").stat().st_mode) == 0o600
    for _ in range(3):  # restarts
        assert local_token(scorebook.engine, tmp_path) == (first, False)
    assert active_local(scorebook) == 1
    second, made = local_token(scorebook.engine, tmp_path, rotate=True)
    assert made and second != first
    assert scorebook.authenticate(first) is None and scorebook.authenticate(second) is not None
    (tmp_path / "local-token").unlink()  # the file lost: a new token, and the one nobody can show is revoked
    third, made = local_token(scorebook.engine, tmp_path)
    assert made and scorebook.authenticate(second) is None and active_local(scorebook) == 1
    (tmp_path / "local-token").write_text("sb_not-a-token\n")  # a file naming no token here
    fourth, made = local_token(scorebook.engine, tmp_path)
    assert made and fourth != third and active_local(scorebook) == 1
