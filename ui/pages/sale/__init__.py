"""The Sale screen: the ticket panel, the payment panel (what is typed, the tip, the tenders and
the quick cash keys) and the keypad, put together by ``SalePage``; every figure and rule comes
from the core's ticket (``cashier.flows.ticket``)."""

from ui.pages.sale.page import SalePage
from ui.pages.sale.payment_panel import TIP_KEYED, TIP_NONE, TIP_PAD
from ui.pages.sale.words import TENDER_TITLES, tender_text, terminal_state_name

__all__ = ["TENDER_TITLES", "TIP_KEYED", "TIP_NONE", "TIP_PAD", "SalePage", "tender_text",
           "terminal_state_name"]
