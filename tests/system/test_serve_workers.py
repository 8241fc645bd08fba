"""`scorebook serve --workers N`: worker processes answer on one port (kept-alive connections included), the
parent's follower keeps the read models current, and a database the workers cannot open is refused."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx

from recorder.facade import Scorebook
from tests.support.logs import START, launch, round_start
from tests.support.servers import ROOT, ServerProcess


def test_worker_processes_answer_appends_on_one_kept_alive_connection(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    with Scorebook.open(db) as sb:
        token = sb.create_token("desk", "recorder")
    server = ServerProcess(db, tmp_path / "serve.log", args=("--workers", "2"))
    server.start()
    try:
        h = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=server.url, headers=h, timeout=10) as client:
            match_id = client.post("/api/matches", json=START).json()["match_id"]
            batches = [[round_start()], [launch("ann", 1, 4)], [launch("bo", 3, 2)]]
            for seq, events in enumerate(batches, start=1):
                r = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": seq, "events": events})
                assert r.status_code == 201, r.text
            assert client.get(f"/api/matches/{match_id}").json()["seq"] == 4
            stale = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": 2, "events": batches[1]})
            assert stale.status_code == 409  # whichever worker answers, the stored head decides
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # the parent's follower projects the appends into the facts
            with Scorebook.open(db, migrate=False) as sb:
                if sb.projector.checkpoint() >= 4:
                    break
            time.sleep(0.2)
        else:
            raise AssertionError("the read models did not catch up")
    finally:
        assert server.stop() == 0
    assert "Traceback" not in server.log.read_text()


def test_workers_refuse_a_database_only_one_process_can_open() -> None:
    done = subprocess.run([sys.executable, "-m", "scorebook.cli", "serve", "--db", "sqlite://", "--workers", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    assert "--workers needs a database the worker processes can open" in done.stderr
