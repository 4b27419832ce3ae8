"""Host API requests for the sandbox tests: the parts an HD till keys (card, amount, customer),
whole bodies of the long-tail endpoints, one raw call to an in-process sandbox, and the ledger
the sandbox keeps of them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cashier.host.models.common import Amount, Card, Customer

VISA = "4321000000001119"
#: Our spec's test OCT card (the sandbox's first one)
OCT_VISA = "4515300011000159"
#: A bank account the sandbox's ACH accepts
ACCOUNT = {"accountNumber": "1234567890", "routingNumber": "121000248", "accountType": "PC",
           "accountHolderName": "John Smith"}
#: A wallet customer as the vendor's example has it
WALLET_CUSTOMER = {"addressLine1": "65 Easy St", "city": "Las Vegas", "country": "US",
                   "emailAddress": "john.smith@email.com", "firstName": "John", "lastName": "Smith",
                   "ipAddress": "63.57.84.101", "phoneNumber": "3110001234", "phoneCountry": "1",
                   "region": "NV", "externalId": "OD-123",
                   "enrollDate": "2019-03-14T11:16:42.896-07:00"}


# ---- the parts of a request, as the client's models hold them ---------------------------------
def keyed(number: str = VISA, csc: str = "333") -> Card:
    """A manually keyed card, as an HD till sends it."""
    return Card(number=number, expiration_date=1230, entry_mode="M",
                security_code={"indicator": "1", "value": csc})


def amount(total: str, tax: str = "0") -> Amount:
    return Amount(total=Decimal(total), tax=Decimal(tax))


def customer(postal: str = "94719", street: str | None = None) -> Customer:
    return Customer(postal_code=postal, address_line1=street)


# ---- whole bodies of the long-tail endpoints, as raw JSON ---------------------------------------
def standalone_body(number: str, invoice: str = "730518", **over: Any) -> dict[str, Any]:
    """``/3dsecure/standalone``."""
    body: dict[str, Any] = {
        "amount": {"total": Decimal("160")}, "currencyCode": "USD",
        "customer": {"firstName": "John", "lastName": "Smith", "emailAddress": "j@example.com",
                     "ipAddress": "63.57.84.101", "postalCode": "65144"},
        "card": {"number": number, "expirationDate": 1230, "present": "N"},
        "transaction": {"invoice": invoice},
        "threeDSecure": {"initiate": "03", "browser": {
            "acceptHeader": "text/html", "javaEnabled": True, "javascriptEnabled": True,
            "language": "en-US", "colorDepth": "48", "screenWidth": 1920, "screenHeight": 1080,
            "tz": -480}, "headerContent": "userAgent header", "challengeWindowSize": "05",
            "transType": "01", "channel": "02"},
        "completionUrl": "https://merchant.example/completion",
    }
    body.update(over)
    return body


def ach_sale_body(invoice: str = "192029", total: str = "135.87", **ach: Any) -> dict[str, Any]:
    """``/ach/sale``."""
    return {"amount": {"total": Decimal(total)}, "transaction": {"invoice": invoice},
            "ach": {**ACCOUNT, **ach}, "sourceIp": "172.110.166.244"}


def payout_body(number: str = OCT_VISA, total: str = "135.87", **customer: Any) -> dict[str, Any]:
    """``/oct/payout``."""
    return {"amount": {"total": Decimal(total)},
            "card": {"number": number, "expirationDate": 1230, "entryMode": "M", "present": "N"},
            "customer": customer or {"firstName": "John", "lastName": "Smith",
                                     "emailAddress": "john@example.com", "ipAddress": "63.57.84.101"},
            "transaction": {"invoice": "192029"}, "sourceIp": "172.110.166.244"}


def assess_body(**over: Any) -> dict[str, Any]:
    """``/risk/assess``."""
    body: dict[str, Any] = {
        "transaction": {"invoice": "2405210001"}, "amount": {"total": Decimal("76.25")},
        "currencyCode": "USD", "risk": {"sessionId": "a" * 32}, "sourceIp": "63.57.84.101",
        "card": {"number": VISA, "type": "CC", "expirationDate": 1230},
        "customer": {"emailAddress": "ann@example.com", "region": "NV"},
    }
    body.update(over)
    return body


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


def ledger_of(sandbox: Any) -> dict[str, dict[str, Any]]:
    """The sandbox's transactions by invoice (its own state, no HTTP)."""
    invoices: dict[str, dict[str, Any]] = sandbox.state.family("transactions").get("invoices", {})
    return invoices
