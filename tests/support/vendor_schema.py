"""The vendor's OpenAPI file as a response checker for sandbox tests.

``check_response(path, envelope)`` validates a sandbox answer against the vendor's RESPONSE schema
of that operation (Draft 2020-12, ``$ref`` resolved with ``referencing``); ``record_answers`` and
``check_all`` do it for every answer a real client received. The YAML (1.4 MB) is parsed once per
test process.

Two adjustments, both from the OpenAPI rules or from our spec, never to make a test pass:
- ``required`` names a ``writeOnly`` property in a few response schemas (``card.securityCode``
  requires ``value``); OpenAPI says a writeOnly property is required in requests only, so the
  response view drops it from ``required``.
- Our spec's neutral names are mapped back to the vendor's before validating: paths ``/wallet/*``,
  ``/ach/bankaggregator/*``, ``/rules/verify``; objects ``wallet``, ``bankaggregator``; the risk
  id ``transaction.gatewayRiskId``.
"""

from __future__ import annotations

import copy
import functools
import json
from decimal import Decimal
from typing import Any

import httpx
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from cashier.host import codec
from tests.support.vendor_file import vendor_openapi

_URI = "urn:vendor-host-api"

#: Our path -> the vendor's path, where our spec renames a segment.
PATH_NAMES = {"/wallet/": "/paypal/", "/ach/bankaggregator/": "/ach/plaid/",
              "/rules/verify": "/rule/verify"}
#: Our object name -> the vendor's, at the top of a result item.
OBJECT_NAMES = {"wallet": "payPal", "bankaggregator": "plaid"}


def vendor_spec() -> dict[str, Any]:
    return vendor_openapi()


def _resolve_local(spec: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node and node["$ref"].startswith("#/"):
        target: Any = spec
        for part in node["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _drop_write_only_required(spec: dict[str, Any], node: Any) -> None:
    if isinstance(node, dict):
        required, props = node.get("required"), node.get("properties")
        if isinstance(required, list) and isinstance(props, dict):
            node["required"] = [name for name in required
                                if not (isinstance(_resolve_local(spec, props.get(name)), dict)
                                        and _resolve_local(spec, props.get(name)).get("writeOnly"))]
        for value in node.values():
            _drop_write_only_required(spec, value)
    elif isinstance(node, list):
        for value in node:
            _drop_write_only_required(spec, value)


@functools.lru_cache(maxsize=2)
def _view(kind: str = "response") -> tuple[dict[str, Any], Registry[Any]]:
    """The spec as a ``referencing`` registry; the response view drops writeOnly ``required``."""
    spec = vendor_spec()
    if kind == "response":
        spec = copy.deepcopy(spec)
        _drop_write_only_required(spec, spec)
    resource: Resource[Any] = Resource.from_contents(spec, default_specification=DRAFT202012)
    return spec, Registry().with_resource(_URI, resource)


def vendor_path(path: str) -> str:
    for ours, theirs in PATH_NAMES.items():
        if path.startswith(ours):
            return theirs + path[len(ours):]
    return path


def to_vendor_names(item: dict[str, Any]) -> dict[str, Any]:
    renamed = {OBJECT_NAMES.get(key, key): value for key, value in item.items()}
    transaction = renamed.get("transaction")
    if isinstance(transaction, dict) and "gatewayRiskId" in transaction:
        transaction = dict(transaction)
        transaction["s4RiskId"] = transaction.pop("gatewayRiskId")
        renamed["transaction"] = transaction
    return renamed


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def response_validator(path: str, status: int = 200, method: str = "post") -> Draft202012Validator:
    spec, registry = _view("response")
    vpath = vendor_path(path)
    operation = spec["paths"][vpath][method]
    response = operation["responses"][str(status)]
    ref = f"#/paths/{_pointer(vpath, method, 'responses', str(status))}"
    if "$ref" in response:
        ref = response["$ref"]
        response = _resolve_local(spec, response)
    schema_ref = f"{_URI}{ref}/content/application~1json/schema"
    assert "content" in response, f"{method.upper()} {vpath} {status} declares no body"
    return Draft202012Validator({"$ref": schema_ref}, registry=registry)


def _plain(value: Any) -> Any:
    """JSON numbers as Python numbers (the sandbox answers are parsed with ``Decimal``)."""
    return json.loads(json.dumps(value, default=lambda d: float(d) if isinstance(d, Decimal) else d))


def check_response(path: str, envelope: dict[str, Any], status: int = 200,
                   method: str = "post") -> None:
    """Raise ``AssertionError`` listing every place the answer breaks the vendor schema."""
    body = _plain(envelope)
    if isinstance(body.get("result"), list):
        body["result"] = [to_vendor_names(item) if isinstance(item, dict) else item
                          for item in body["result"]]
    validator = response_validator(path, status, method)
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    assert not errors, f"{path} {status} breaks the vendor schema:\n" + "\n".join(
        f"  at {'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in errors[:10])


def check_schema(schema_name: str, instance: Any, *, request: bool = True) -> None:
    """Validate against one named component schema (a request body, or a webhook payload)."""
    _spec, registry = _view("request" if request else "response")
    validator = Draft202012Validator({"$ref": f"{_URI}#/components/schemas/{schema_name}"},
                                     registry=registry)
    errors = list(validator.iter_errors(_plain(instance)))
    assert not errors, f"{schema_name}: " + "; ".join(
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:10])


def variant_errors(ref: str, envelope: Any) -> list[str]:
    """What breaks the vendor's response schema at ``ref`` (a ``#/...`` pointer into the vendor
    file: one variant of a ``oneOf``, where the variants overlap) in ``envelope``."""
    _spec, registry = _view("response")
    validator = Draft202012Validator({"$ref": _URI + ref}, registry=registry)
    return [e.message for e in validator.iter_errors(_plain(envelope))]


# ---- every answer a client received, checked ------------------------------------------------
def record_answers(client: Any) -> list[tuple[str, str, int, dict[str, Any]]]:
    """Every (method, path, status, envelope) the client receives, to check against the vendor."""
    seen: list[tuple[str, str, int, dict[str, Any]]] = []

    async def hook(response: httpx.Response) -> None:
        await response.aread()
        path = response.request.url.path.split("/api/rest/v1", 1)[-1]
        seen.append((response.request.method, path, response.status_code, codec.loads(response.content)))
    client._http.event_hooks["response"].append(hook)
    return seen


def _variant(path: str, envelope: dict[str, Any]) -> str | None:
    """The one response variant an answer is for, where the vendor's ``oneOf`` overlaps."""
    item = envelope["result"][0]
    if path == "/devices/processform":
        if "device" in item:
            return "#/components/schemas/devices_processform_response_utg"
        if "form" in item:
            return "#/components/schemas/devices_processform_response_comeng_multiButtonScrollingText"
        return "#/components/schemas/devices_processform_response_comeng_message"
    if path == "/devices/info":
        return ("#/components/schemas/devices_info_utgverifone" if "info" in item.get("device", {})
                else "#/components/schemas/devices_info_comeng")
    if path == "/tokens/add":
        return "#/components/schemas/tokens_add_response_card"
    if path == "/devices/promptcardread":
        index = 1 if "p2pe" in item else 0
        return ("#/paths/~1devices~1promptcardread/post/responses/200/content/application~1json/"
                f"schema/oneOf/{index}")
    return None


def check_all(seen: list[tuple[str, str, int, dict[str, Any]]]) -> None:
    """Each answer against the vendor's response schema for its operation (and variant)."""
    assert seen
    for method, path, status, envelope in seen:
        variant = _variant(path, envelope) if status == 200 else None
        if variant is None:
            check_response(path, envelope, status, method.lower())
            continue
        errors = variant_errors(variant, envelope)
        assert not errors, f"{path} breaks {variant}: {errors[:5]}"
