"""The replay page's frames payload (dashboard/replay_frames.py) read out of a callback answer, so the tests can
look into what the browser steps through: it is gzipped, so a hidden tile in it would not show in the
answer's text, and its base64 could name a short tile id by chance (it is taken out of the text)."""

from __future__ import annotations

import json
from typing import Any

from dashboard.replay_frames import decode, unpack


def split_frames(text: str) -> tuple[str, list[str]]:
    """A callback answer's text without a frames payload, and the JSON of every frame in it (one per step)."""
    body = json.loads(text)
    packed: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            props = node.get("props")
            if isinstance(props, dict) and props.get("id") == "replay-frames" and props.get("data"):
                packed.append(props["data"])
                props["data"] = None
            store = node.get("replay-frames")  # the answer of the callback that brings them
            if isinstance(store, dict) and isinstance(store.get("data"), str):
                packed.append(store["data"])
                store["data"] = None
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(body)
    frames = [json.dumps(frame) for p in packed for frame in decode(unpack(p))]
    return json.dumps(body), frames


def frames_request(match_id: str, n: int) -> dict[str, Any]:
    """The body of the callback the replay page makes once shown, to get every step's frame."""
    return {"output": "replay-frames.data", "outputs": {"id": "replay-frames", "property": "data"},
            "inputs": [{"id": "replay-meta", "property": "data", "value": {"match_id": match_id, "n": n}}],
            "changedPropIds": ["replay-meta.data"]}
