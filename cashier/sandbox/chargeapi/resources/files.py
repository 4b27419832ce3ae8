"""File uploads (dispute evidence), sent as multipart."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.wire import invalid, missing

MAX_FILE_BYTES = 10 * 1024 * 1024


def create_file(req: Req) -> dict[str, Any]:
    params = {**req.query, **req.params}  # the official SDK sends purpose in the query string
    allow(params, {"purpose"})
    purpose = as_str(params, "purpose", required=True, max_len=40, pattern=r"[a-z_]{1,40}")
    upload = req.files.get("file")
    if upload is None:
        raise missing("file (a multipart part)")
    filename, content = upload
    if not content:
        raise invalid("file: is empty")
    if len(content) > MAX_FILE_BYTES:
        raise invalid(f"file: larger than {MAX_FILE_BYTES} bytes")
    suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else "bin"
    item = {"purpose": purpose, "size": len(content), "type": suffix[:10]}
    req.add("fileUpload", item)
    item["url"] = f"{req.base_url}/files/{item['id']}"  # the vendor's file upload carries its url
    return render(item)


def list_files(req: Req) -> dict[str, Any]:
    filters = {"purpose": req.query["purpose"]} if "purpose" in req.query else None
    return req.page("fileUpload", filters, frozenset({"purpose"}))


def get_file(req: Req, file_id: str) -> dict[str, Any]:
    return render(req.get("fileUpload", file_id))
