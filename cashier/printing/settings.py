"""``[printer]`` in the till profile."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

from cashier.printing.device import parse_url


class PrinterSettings(BaseModel):
    """Where receipts go and what comes out. No ``url``: no receipt printer (a training till
    shows the virtual printer instead)."""

    model_config = {"extra": "forbid"}

    url: str | None = None
    #: characters per line: 42 for 80 mm paper (font A), 32 for 58 mm.
    width: int = Field(42, ge=24, le=64)
    #: print a receipt for every ticket (false: only on request).
    receipt_every_ticket: bool = True
    #: a merchant copy with a signature line when the host asked for a signature.
    merchant_copy: bool = True
    #: how the drawer opens: through the printer (ESC p, both pins) or not at all.
    drawer: Literal["printer", "none"] = "printer"
    #: seconds a job may take (connect and send) before the printer is reported offline.
    timeout_s: float = Field(4.0, gt=0, le=60)
    #: ask the printer for its paper (DLE EOT 4) before each receipt, so "out of paper" shows in
    #: the status bar; a printer that never answers is asked once. False for one that misbehaves.
    ask_paper: bool = True
    #: print the Z report when the drawer closes.
    z_report_at_close: bool = True

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is not None:
            parse_url(value)  # raises ValueError naming the rule
        return value
