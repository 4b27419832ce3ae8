"""The training customer: what a customer's own device does against the sandbox (a test
customer's banking app paying a QR code), for the training windows. It talks to the sandbox's
``/_sandbox`` controls as the phone talks to its bank: the till's flows never see it."""

from __future__ import annotations

from typing import Any


async def training_customer_pays(sandbox: Any, code: str) -> tuple[int, str]:
    """Training only: the test customer's phone pays ``code`` through the embedded sandbox's
    control API (what a real customer's banking app does). The status and the sandbox's answer
    come back, a refusal (already paid, cancelled) as the sandbox's one line (its ``error``),
    for the window to say in its words."""
    import httpx

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox", timeout=10.0) as control:
        answer = await control.post("/_sandbox/qrpayments/pay", json={"qrCode": code})
    try:
        said = answer.json()
    except ValueError:
        said = None
    if isinstance(said, dict) and isinstance(said.get("error"), str):
        return answer.status_code, str(said["error"])[:200]
    return answer.status_code, answer.text[:200]
