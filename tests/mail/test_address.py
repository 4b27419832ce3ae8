"""The address rule (issue #41): one line naming the rule for every bad address, nothing that
can break a mail header ever passes, and the mask keeps only the first letter and the domain."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cashier.email_address import check_address, mask_address
from cashier.errors import ValidationError
from cashier.mail.message import build_message
from cashier.redact import redact

GOOD = ["jane@example.com", "j.doe+receipts@mail.example.co.uk", "a@b.io", "  jane@example.com  ",
        "o'neil@example.com", "x_y-z@sub-domain.example.org"]
BAD = ["", " ", "jane", "jane@", "@example.com", "jane@example", "jane@@example.com",
       "jane@example.c", "jane@-example.com", "jane..doe@example.com", ".jane@example.com",
       "jane.@example.com", "jane doe@example.com", "jane@example.com\r\nBcc: x@example.com",
       "jane@example.com\nBcc: x@example.com", "jane@example.com\r", "Jane <jane@example.com>",
       "jane@example.com, eve@example.com", "jane@example.com;eve@example.com", "jané@example.com",
       "jane@exámple.com", "jane@example.com\x00", "jane\t@example.com", '"jane"@example.com',
       "jane@[127.0.0.1]", "jane@example.com\u2028", "a" * 65 + "@example.com",
       "jane@" + "a" * 250 + ".com", "jane@exa_mple.com", "jane@example.123"]


@pytest.mark.parametrize("address", GOOD)
def test_a_good_address_is_taken(address: str) -> None:
    assert check_address(address) == address.strip()


@pytest.mark.parametrize("address", BAD)
def test_a_bad_address_is_one_line_naming_the_field_and_the_rule(address: str) -> None:
    with pytest.raises(ValidationError) as caught:
        check_address(address)
    assert caught.value.field == "to"
    assert str(caught.value).startswith("to: must") and "\n" not in str(caught.value)


@given(st.text(max_size=80))
def test_nothing_that_breaks_a_header_ever_passes(text: str) -> None:
    try:
        address = check_address(text)
    except ValidationError:
        return
    assert address.isascii() and address.count("@") == 1
    assert not any(ch in address for ch in "\r\n\t <>(),;:\"\\[]\x00")
    message = build_message(lines=["Total 1.00"], store="Shop", store_address="", sender="r@shop.example",
                            to=address, message_id="<a@shop.example>", receipt="1")
    head = message.split(b"\r\n\r\n", 1)[0]
    assert b"\nBcc" not in head and head.count(b"\r\nTo: ") == 1


def test_the_message_refuses_a_line_break_in_a_header_even_past_the_rule() -> None:
    with pytest.raises(ValueError):
        build_message(lines=["x"], store="Shop", store_address="", sender="r@shop.example",
                      to="jane@example.com\r\nBcc: eve@example.com", message_id="<a@shop.example>",
                      receipt="1")


def test_the_mask_and_the_one_redaction_step() -> None:
    assert mask_address("jane.doe@example.com") == "j***@example.com"
    assert mask_address("nobody") == "***"
    assert redact("550 5.1.1 <jane.doe@example.com>: rejected") == "550 5.1.1 <j***@example.com>: rejected"
    assert redact("to jane@example.com and j***@example.com") == "to j***@example.com and j***@example.com"
