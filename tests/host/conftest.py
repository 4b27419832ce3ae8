"""Host client test kit: the vendor file parsed once, schema validators, a recording transport."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.host.client import HostClient, HostSettings

VENDOR = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "host-api" / \
    "host-api.openapi.yml"
VENDOR_URI = "urn:cashier:vendor-host-api"
TOKEN = "EA79FB05-3AA7-4500-AF9A-73F986FF2C1D"


@pytest.fixture(scope="session")
def vendor() -> dict[str, Any]:
    """The vendor OpenAPI file, parsed once per session (1.4 MB of YAML)."""
    from tests.vendor_file import vendor_openapi

    if not VENDOR.exists():
        pytest.fail(f"vendor file missing: {VENDOR}")
    return vendor_openapi()


@pytest.fixture(scope="session")
def schema_validator(vendor: dict[str, Any]) -> Callable[[str], Any]:
    """``schema_validator("transactions_sale_utgdevice")`` -> a Draft 2020-12 validator with
    every ``$ref`` resolved inside the vendor file."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    registry: Registry[Any] = Registry().with_resource(
        VENDOR_URI, Resource.from_contents(vendor, default_specification=DRAFT202012))
    cache: dict[str, Any] = {}

    def make(pointer: str) -> Any:
        if pointer not in cache:
            ref = pointer if pointer.startswith("#") else f"#/components/schemas/{pointer}"
            cache[pointer] = Draft202012Validator({"$ref": VENDOR_URI + ref}, registry=registry)
        return cache[pointer]

    return make


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


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def make_client(recorder: Recorder) -> Iterator[Callable[..., HostClient]]:
    """``make_client("LG")``: a HostClient whose transport records and answers in memory."""

    def make(option: str = "LG", **settings: Any) -> HostClient:
        defaults: dict[str, Any] = {
            "base_url": "https://host.test/api/rest/v1", "processing_option": option,
            "terminal_id": "1742" if option != "DCC" else None,
            "device_serial_number": "1170301234" if option == "DCC" else None,
            "store_postal_code": "94719",
        }
        defaults.update(settings)
        return HostClient(HostSettings(**defaults), access_token=TOKEN,
                          transport=httpx.MockTransport(recorder.handler))

    yield make
