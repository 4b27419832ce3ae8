"""File uploads (dispute evidence), on the uploads host."""

from __future__ import annotations

from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiList,
    ChargeApiObject,
    _id,
)


class FileOperations(ChargeApiClientBase):
    async def upload_file(self, filename: str, content: bytes, purpose: str,
                          content_type: str = "application/octet-stream") -> ChargeApiObject:
        return await self.request("POST", "/files", {"purpose": purpose}, uploads=True,
                                  files={"file": (filename, content, content_type)})

    async def list_files(self, **page: Any) -> ChargeApiList:
        result = await self.request("GET", "/files", self.page_params(**page), uploads=True)
        assert isinstance(result, ChargeApiList)
        return result

    async def get_file(self, file_id: str) -> ChargeApiObject:
        return await self.request("GET", f"/files/{_id(file_id)}", uploads=True)
