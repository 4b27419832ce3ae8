"""The window's key map, written down once: a key shared by several screens means the same thing
on each of them. F3 to F7 are each screen's own actions (named on their buttons: F5 refreshes a
list, or picks a field on the Sale screen, or cashes a gift card out); nothing that
cannot be undone happens on the first press of any key: it asks once, naming what and how much.

=========  ==================================================================================
Return     start the payment for the amount typed; after a result, a new sale
Esc        clear the amount typed; while the customer is asked, cancel the payment
F2         the screen's main action (charge the card, show the QR code, open a tab, balance)
F8         print (or reprint) the receipt
F9         show the receipt or the entry's details
Ctrl+E     e-mail the receipt (the customer types the address on the PIN pad)
F10        check now with the host
F11        training only: the test customer acts
F12        give money back or undo (void, reverse, cancel the last request): asks first
Ctrl+1..8  go to a screen (its number in the navigation)
Alt+B      close the batch (Manager): asks first, naming the totals
Ctrl+D     Sale: a discount on the last line (Alt+D: on the ticket; Ctrl+P: its price)
=========  ==================================================================================
"""

from __future__ import annotations

CHARGE = "Return"
CLEAR_OR_CANCEL = "Esc"
MAIN_ACTION = "F2"
PRINT = "F8"
SHOW = "F9"
EMAIL = "Ctrl+E"
CHECK_NOW = "F10"
TRAINING_CUSTOMER = "F11"
GIVE_BACK = "F12"
CLOSE_BATCH = "Alt+B"
#: The Sale screen's discounts and price override (issue #38)
DISCOUNT_LINE = "Ctrl+D"
DISCOUNT_TICKET = "Alt+D"
OVERRIDE_PRICE = "Ctrl+P"

#: Keys with one meaning on every screen (the test checks every button against it).
SHARED = {CHARGE: "charge or new sale", CLEAR_OR_CANCEL: "clear or cancel", PRINT: "print",
          SHOW: "show", EMAIL: "e-mail the receipt", CHECK_NOW: "check now",
          TRAINING_CUSTOMER: "training customer",
          GIVE_BACK: "give back or undo (asks first)"}
