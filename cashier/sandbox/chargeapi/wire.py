"""What the Charge API sandbox reads and writes on the wire: bodies in, errors out.

Bodies arrive form-encoded with bracket notation (``metadata[key]=v``, ``items[0][name]=x``),
as JSON (the official SDK sends JSON), or as multipart for ``/files``. All three become one
nested ``dict``; scalar leaves stay as sent (form values are strings), and the handlers coerce
them field by field with errors that name the field.
"""

from __future__ import annotations

import json
import re
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qsl

_SEGMENT = re.compile(r"\[([^\[\]]*)\]")
_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")
#: A list given as ``items[0]``...``items[N]``; beyond this a request is refused, not parsed.
MAX_LIST_INDEX = 999
MAX_DEPTH = 6
#: Deepest JSON body accepted (objects and arrays); deeper is refused before parsing, so a
#: hostile body can neither exhaust the parser's recursion nor the handlers'.
MAX_JSON_DEPTH = 32


class ChargeApiFault(Exception):
    """Answer with ``{"error": {"type", "message"[, "code"]}}`` and an HTTP status.

    As the vendor's test mode answers: an ``invalid_request`` error carries no ``code``; a card
    error carries its code, the charge (or credit) it recorded and the issuer's decline code
    where there is one (see docs/decisions/016-charge-api.md, Charge API sandbox).
    """

    def __init__(self, status: int, type_: str, code: str | None, message: str, *,
                 charge_id: str | None = None, credit_id: str | None = None,
                 blacklist_rule_id: str | None = None, issuer_decline_code: str | None = None) -> None:
        self.status = status
        self.type = type_
        self.code = code
        self.message = message
        self.charge_id = charge_id
        self.credit_id = credit_id
        self.blacklist_rule_id = blacklist_rule_id
        self.issuer_decline_code = issuer_decline_code
        super().__init__(f"{status} {type_}/{code}: {message}")

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"type": self.type, "message": self.message}
        if self.code:
            error["code"] = self.code
        # camelCase like every other field; the snake_case twins are what the pinned official
        # SDK (2.1.0) reads into its exception (see docs/decisions/016-charge-api.md).
        for camel, snake, value in (("chargeId", "charge_id", self.charge_id),
                                    ("creditId", "credit_id", self.credit_id),
                                    ("blacklistRuleId", "blacklist_rule_id", self.blacklist_rule_id),
                                    ("issuerDeclineCode", "issuer_decline_code", self.issuer_decline_code)):
            if value:
                error[camel] = value
                error[snake] = value
        return {"error": error}


def invalid(message: str, status: int = 400) -> ChargeApiFault:
    """A refused request: the vendor's ``invalid_request`` has a message and no code."""
    return ChargeApiFault(status, "invalid_request", None, message)


def missing(field: str) -> ChargeApiFault:
    return invalid(f"{field}: Must not be empty.")


def not_found(kind: str, object_id: str) -> ChargeApiFault:
    return invalid(f"{kind} '{object_id}' does not exist", 404)


def card_error(code: str, message: str, *, charge_id: str | None = None,
               credit_id: str | None = None, blacklist_rule_id: str | None = None,
               issuer_decline_code: str | None = None) -> ChargeApiFault:
    return ChargeApiFault(402, "card_error", code, message, charge_id=charge_id, credit_id=credit_id,
                          blacklist_rule_id=blacklist_rule_id, issuer_decline_code=issuer_decline_code)


def _split_key(key: str) -> list[str]:
    head, _, rest = key.partition("[")
    if not head or not _NAME.match(head):
        raise invalid(f"{key[:60]!r}: is not a valid parameter name")
    parts = [head]
    if rest:
        rest = "[" + rest
        pos = 0
        for match in _SEGMENT.finditer(rest):
            if match.start() != pos:
                raise invalid(f"{key[:60]}: bracket notation is malformed")
            parts.append(match.group(1))
            pos = match.end()
        if pos != len(rest):
            raise invalid(f"{key[:60]}: bracket notation is malformed")
    if len(parts) > MAX_DEPTH:
        raise invalid(f"{key[:60]}: is nested deeper than {MAX_DEPTH} levels")
    return parts


def _listify(node: Any, path: str) -> Any:
    """Dicts whose keys are all indexes (``0``, ``1``...) become lists, in index order."""
    if not isinstance(node, dict):
        return node
    if node and all(k.isdigit() for k in node):
        indexes = sorted(int(k) for k in node)
        if indexes != list(range(len(indexes))):
            raise invalid(f"{path}: list indexes must run 0, 1, 2... without gaps")
        return [_listify(node[str(i)], f"{path}[{i}]") for i in indexes]
    return {k: _listify(v, f"{path}[{k}]" if path else k) for k, v in node.items()}


def nest_pairs(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """``[("metadata[a]", "1"), ("items[0][x]", "2")]`` becomes
    ``{"metadata": {"a": "1"}, "items": [{"x": "2"}]}``."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        parts = _split_key(key)
        node: dict[str, Any] = root
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            if part == "":  # items[] appends
                part = str(sum(1 for k in node if k.isdigit()))
            if part.isdigit() and int(part) > MAX_LIST_INDEX:
                raise invalid(f"{key[:60]}: list index above {MAX_LIST_INDEX}")
            if last:
                if part in node:
                    raise invalid(f"{key[:60]}: is given more than once")
                node[part] = value
            else:
                child = node.setdefault(part, {})
                if not isinstance(child, dict):
                    raise invalid(f"{key[:60]}: mixes a plain value and nested values")
                node = child
    result = _listify(root, "")
    assert isinstance(result, dict)
    return result


def _json_depth(raw: bytes) -> int:
    """The deepest nesting of brackets outside strings, in one pass without recursion."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_JSON_DEPTH:
        return 0  # cannot be too deep: the common case costs two byte counts
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_JSON_DEPTH:
                    return deepest
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def parse_query(raw: str) -> dict[str, Any]:
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=False)
    except ValueError:
        raise invalid("the query string is malformed") from None
    return nest_pairs(pairs)


def parse_body(content_type: str, raw: bytes) -> tuple[dict[str, Any], dict[str, tuple[str, bytes]]]:
    """The parameters and the uploaded files (name -> (filename, bytes)) of a request body."""
    if not raw.strip():
        return {}, {}
    ctype = content_type.split(";")[0].strip().lower()
    if ctype == "application/json":
        if _json_depth(raw) > MAX_JSON_DEPTH:
            raise invalid(f"the JSON request body is nested deeper than {MAX_JSON_DEPTH} levels")
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise invalid("the request body is not valid JSON") from None
        if not isinstance(data, dict):
            raise invalid("the JSON request body must be an object")
        return data, {}
    if ctype == "multipart/form-data":
        return _parse_multipart(content_type, raw)
    if ctype in ("application/x-www-form-urlencoded", ""):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise invalid("the form body is not UTF-8") from None
        return parse_query(text), {}
    raise invalid(f"Content-Type {ctype} is not accepted: send form-encoded, JSON or multipart", 415)


def _parse_multipart(content_type: str, raw: bytes) -> tuple[dict[str, Any], dict[str, tuple[str, bytes]]]:
    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + raw)
    if not message.is_multipart():
        raise invalid("the multipart body is malformed")
    pairs: list[tuple[str, str]] = []
    files: dict[str, tuple[str, bytes]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            raise invalid("a multipart part has no name")
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        filename = part.get_filename()
        if filename is not None:
            files[name] = (filename, data)
        else:
            pairs.append((name, data.decode("utf-8", errors="replace")))
    return nest_pairs(pairs), files
