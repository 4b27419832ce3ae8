"""The host client's test kit: a transport that records what the client sent and answers in memory."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx

#: The access token the recorded client sends
TOKEN = "EA79FB05-3AA7-4500-AF9A-73F986FF2C1D"


@dataclass
class Recorder:
    """What the client sent, and a canned answer per path (default: an empty approval)."""

    requests: list[httpx.Request] = field(default_factory=list)
    answers: dict[str, tuple[int, Any]] = field(default_factory=dict)

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        path = request.url.path.removeprefix("/api/rest/v1")
        status, payload = self.answers.get(path, (200, {"result": [
            {"dateTime": "2024-05-21T09:18:25.104-07:00", "server": {"name": "TEST01"},
             "transaction": {"invoice": "1", "responseCode": "A"}}]}))
        if isinstance(payload, bytes):
            return httpx.Response(status, content=payload)
        return httpx.Response(status, json=payload)

    @property
    def last(self) -> httpx.Request:
        return self.requests[-1]

    def body(self, index: int = -1) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.requests[index].content)
        return data
