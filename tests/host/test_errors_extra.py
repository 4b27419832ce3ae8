"""Error codes whose meaning hangs on the secondary code."""

from cashier.host.errors import DuplicateInvoice, HostError, InvoiceNotFound


def test_9815_secondary_1_is_a_duplicate_not_a_missing_invoice() -> None:
    duplicate = HostError.from_envelope({"primaryCode": 9815, "secondaryCode": 1,
                                         "shortText": "DUP INV"}, 400)
    missing = HostError.from_envelope({"primaryCode": 9815, "secondaryCode": 0,
                                       "shortText": "NO INV"}, 400)
    assert isinstance(duplicate, DuplicateInvoice)
    assert not isinstance(duplicate, InvoiceNotFound)
    assert isinstance(missing, InvoiceNotFound)
