"""Base of every Host API model: camelCase on the wire, unknown fields kept, None left out."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from cashier.redact import redact


class HostModel(BaseModel):
    """Wire-shaped model. Unknown fields survive a round trip, so newer hosts don't break us."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow",
                              validate_assignment=False, ser_json_inf_nan="strings")

    def wire(self) -> dict[str, Any]:
        """The body as the host wants it (Decimals stay Decimal; the codec writes numbers)."""
        return self.model_dump(mode="python", by_alias=True, exclude_none=True)

    def __repr__(self) -> str:
        # A model may hold a card read or a credential: what prints is always redacted.
        return redact(super().__repr__())

    def __str__(self) -> str:
        return redact(super().__str__())
