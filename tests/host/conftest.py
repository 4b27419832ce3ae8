"""Host client test kit: the vendor file parsed once, schema validators, a recording transport."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.host.client import HostClient, HostSettings
from tests.support.host_client import TOKEN, Recorder

VENDOR = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "host-api" / \
    "host-api.openapi.yml"
VENDOR_URI = "urn:cashier:vendor-host-api"


@pytest.fixture(scope="session")
def vendor() -> dict[str, Any]:
    """The vendor OpenAPI file, parsed once per session (1.4 MB of YAML)."""
    from tests.support.vendor_file import vendor_openapi

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
