"""A small cafe for the discounts' tests (issue #38): two products in two tax classes, the till's
clerks (Alice the cashier, Bob the manager) and the times a happy hour is judged at."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal as D
from typing import Any

from cashier.catalog import Catalog, Category, Product, TaxClass
from cashier.clerks import Clerk, ManagerRules, Roster
from cashier.flows.payments import KeyedCard
from tests.support.profiles import pin_hash

VISA = KeyedCard("4321000000001119", "1228")
CASHIER, MANAGER = 101, 102
LATTE = Product("LATTE", "Latte", D("4.00"), category="coffee", tax_class="standard")
BUN = Product("BUN", "Bun", D("2.50"), category="bakery", tax_class="reduced")
WEDNESDAY_5PM = datetime(2026, 11, 25, 17, 0)
WEDNESDAY_NOON = datetime(2026, 11, 25, 12, 0)


def cafe(**kw: Any) -> Catalog:
    return Catalog(1, (LATTE, BUN), (Category("coffee"), Category("bakery")),
                   (TaxClass("standard", D("8.25")), TaxClass("reduced", D("5"))), **kw)


def with_clerks(till: Any) -> Roster:
    roster = Roster([Clerk(id=CASHIER, name="Alice", pin_hash=pin_hash("1111")),
                     Clerk(id=MANAGER, name="Bob", pin_hash=pin_hash("2222"), role="manager")],
                    ManagerRules())
    till.ctx.roster = roster
    till.ctx.clerk_id = CASHIER
    return roster
