"""The vendor's OpenAPI file as a response checker for sandbox tests.

``check_response(path, envelope)`` validates a sandbox answer against the vendor's RESPONSE schema
of that operation (Draft 2020-12, ``$ref`` resolved with ``referencing``). The YAML (1.4 MB) is
parsed once per test process.

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

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.vendor_file import vendor_openapi

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


# ---- talking to an in-process sandbox ------------------------------------------------------
HEADERS = {"InterfaceVersion": "1.0", "InterfaceName": "CashierTests", "CompanyName": "Cashier",
           "AccessToken": "SANDBOX-TOKEN", "Content-Type": "application/json"}
DATE_TIME = "2024-05-21T09:18:23.283-07:00"


async def host_call(app: Any, method: str, path: str, body: dict[str, Any] | None = None, *,
                    headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """One raw Host API call to ``app`` (an ASGI app): (HTTP status, parsed envelope).

    Amounts go out as JSON numbers through the project's codec and come back as ``Decimal``.
    """
    import httpx

    from cashier.host import codec

    content = None
    if body is not None:
        body = {"dateTime": DATE_TIME, **body}
        content = codec.dumps(body).encode()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://sandbox/api/rest/v1") as http:
        response = await http.request(method, path, content=content,
                                       headers={**HEADERS, **(headers or {})})
    return response.status_code, codec.loads(response.content)
