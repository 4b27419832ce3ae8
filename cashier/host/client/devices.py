"""The PIN pad: prompts, line items, forms, printing, status, reset."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from cashier.errors import ValidationError
from cashier.host.client.base import HostClientBase, M, TimeoutClass
from cashier.host.models.common import NextStep, TipOptions, Ui
from cashier.host.models.devices import (
    CardReadResult,
    ChargeApiForm,
    ControllerForm,
    DeviceInfo,
    DeviceResult,
    DeviceStatus,
    PrintLine,
    PromptInput,
    StructuredPrint,
    TermsAndConditions,
    TipAmount,
    TipResult,
)


class DeviceOperations(HostClientBase):
    """The PIN pad: prompts, line items, forms, printing, status, reset."""

    async def cancel_device_prompt(self) -> DeviceResult:
        """Free the PIN pad from a pending prompt (``/devices/reset``): the waiting call then
        ends with the host's cancelled answer. Uses the short host timeout on purpose."""
        return await self.device_reset()

    # ---- devices ---------------------------------------------------------------------------
    def _controller_extras(self, body: dict[str, Any], ui: Ui | None,
                           next_step: NextStep | None) -> None:
        """ui and nextStep exist only on the device controllers; LG bodies never carry them."""
        if not self._controller:
            return
        if ui is not None:
            body["ui"] = ui.wire()
        if next_step is not None:
            body.setdefault("device", {})["nextStep"] = next_step.wire()

    async def _device_call(self, model: type[M], path: str, body: dict[str, Any], *,
                           timeout_class: TimeoutClass = "device") -> M:
        return await self.call(model, "POST", path, body, timeout_class=timeout_class)

    async def device_prompt_signature(self, *, display_text: str | None = None,
                                      next_step: NextStep | None = None,
                                      ui: Ui | None = None) -> DeviceResult:
        """Signature on the pad; ``display_text`` (≤72) shows on the device controllers only."""
        dev = self._device_part(displayText=display_text if self._controller else None)
        body: dict[str, Any] = {"device": dev} if dev is not None else {}
        self._controller_extras(body, ui, next_step)
        return await self._device_call(DeviceResult, "/devices/promptsignature", body)

    async def device_prompt_confirmation(self, question: str) -> DeviceResult:
        """Yes/no question on the pad (LG)."""
        dev = self._device_part(promptConfirmation={"question": question})
        return await self._device_call(DeviceResult, "/devices/promptconfirmation", {"device": dev})

    async def device_terms_and_conditions(self, terms: TermsAndConditions | str, *,
                                          next_step: NextStep | None = None,
                                          ui: Ui | None = None) -> DeviceResult:
        """Terms to accept (A) or decline (D); header and ack text are for the controllers."""
        t = terms if isinstance(terms, TermsAndConditions) else TermsAndConditions(value=terms)
        wire = t.wire()
        if not self._controller:
            wire = {k: v for k, v in wire.items() if k in ("value",)}
        body: dict[str, Any] = {"device": self._device_part(promptTermsAndConditions=wire)}
        self._controller_extras(body, ui, next_step)
        return await self._device_call(DeviceResult, "/devices/termsandconditions", body)

    async def device_line_items(self, items: Sequence[str], *, append: bool = False) -> DeviceResult:
        """Show up to 10 line items (LG); ``append`` keeps those already shown."""
        body: dict[str, Any] = {"device": self._device_part(lineItems=list(items))}
        if append:
            body["apiOptions"] = ["APPENDLINEITEM"]
        return await self._device_call(DeviceResult, "/devices/lineitems", body, timeout_class="host")

    async def device_clear_line_items(self) -> DeviceResult:
        return await self.call(DeviceResult, "DELETE", "/devices/lineitems",
                               headers=self._terminal_header(required=True))

    async def device_info(self) -> DeviceInfo:
        """Device status and information; ``TerminalID`` is required on LG."""
        return await self.call(DeviceInfo, "GET", "/devices/info",
                               headers=self._terminal_header(required=self.option == "LG"))

    def _terminal_header(self, *, required: bool) -> dict[str, str]:
        tid = self.settings.terminal_id
        if not tid:
            if required:
                raise ValidationError("TerminalID", "is required: set terminal_id in the till profile")
            return {}
        return {"TerminalID": tid}

    async def device_initialize_readers(self) -> DeviceResult:
        """Ask for the card before the amount is known (LG); the sale then uses the read."""
        return await self._device_call(DeviceResult, "/devices/initializereaders",
                                       {"device": self._device_part()}, timeout_class="host")

    async def device_reset(self) -> DeviceResult:
        """Back to idle; a pending prompt is cancelled. Short timeout: it must not queue."""
        dev = self._device_part()
        body: dict[str, Any] = {"device": dev} if dev is not None else {}
        return await self._device_call(DeviceResult, "/devices/reset", body, timeout_class="host")

    async def device_prompt_card_read(self, *, display_text: str | None = None,
                                      timeout_s: int | None = None, suppress_beeper: bool | None = None,
                                      api_options: Sequence[str] = (),
                                      ui: Ui | None = None) -> CardReadResult:
        """Pass-through card read (unvalidated). On DCP ``timeout_s`` 0 waits until a reset."""
        body: dict[str, Any] = {}
        dev = self._device_part(displayText=display_text if self._controller else None)
        if dev is not None:
            body["device"] = dev
        if self._controller:
            if timeout_s is not None:
                body["timeout"] = timeout_s
            if suppress_beeper is not None:
                body["volume"] = {"suppressBeeper": suppress_beeper}
        if api_options:
            body["apiOptions"] = list(api_options)
        self._controller_extras(body, ui, None)
        return await self._device_call(CardReadResult, "/devices/promptcardread", body)

    async def device_prompt_input(self, index: str | PromptInput, *,
                                  next_step: NextStep | None = None,
                                  ui: Ui | None = None) -> DeviceResult:
        """One value from the consumer, by the index of a prompt configured on the pad."""
        prompt = index if isinstance(index, PromptInput) else PromptInput(index=index)
        body: dict[str, Any] = {"device": self._device_part(promptInput=prompt.wire())}
        self._controller_extras(body, ui, next_step)
        return await self._device_call(DeviceResult, "/devices/promptinput", body)

    async def device_process_form(self, form: ControllerForm | ChargeApiForm, *,
                                  next_step: NextStep | None = None,
                                  ui: Ui | None = None) -> DeviceResult:
        """A custom form: by name on LG (``ChargeApiForm``), described in full on DCP/DCC."""
        body: dict[str, Any] = {}
        if isinstance(form, ChargeApiForm):
            body["device"] = self._device_part(form=form.wire())
        else:
            body["form"] = form.wire()
            dev = self._device_part()
            if dev is not None:
                body["device"] = dev
        self._controller_extras(body, ui, next_step)
        return await self._device_call(DeviceResult, "/devices/processform", body)

    async def device_print(self, receipt: Sequence[PrintLine] | StructuredPrint) -> DeviceResult:
        """Print on the pad's printer: receipt lines, or structured printing (DCP/DCC)."""
        body: dict[str, Any] = {}
        if isinstance(receipt, StructuredPrint):
            body["print"] = receipt.wire()
        else:
            body["receipt"] = [line.wire() for line in receipt]
        dev = self._device_part()
        if dev is not None:
            body["device"] = dev
        return await self._device_call(DeviceResult, "/devices/print", body)

    async def device_get_status(self) -> DeviceStatus:
        """Registered, connected and offline state of the pad (DCP, DCC)."""
        body: dict[str, Any] = {}
        if self.option == "DCC":
            body["device"] = self.device()
        return await self._device_call(DeviceStatus, "/devices/getstatus", body, timeout_class="host")

    async def device_prompt_tip(self, *, total: Decimal, tip: TipOptions,
                                tip_basis: Decimal | None = None, ui: Ui | None = None) -> TipResult:
        """Ask for a tip outside a payment (DCP, DCC); the answer has the tip and the option."""
        body: dict[str, Any] = {
            "amount": TipAmount(total=total, tip_basis=tip_basis).wire(),
            "tip": tip.wire(),
        }
        dev = self._device_part()
        if dev is not None:
            body["device"] = dev
        if ui is not None:
            body["ui"] = ui.wire()
        return await self._device_call(TipResult, "/devices/prompttip", body)
