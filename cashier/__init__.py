"""Cashier: the headless core of the payment counter (never imports Qt)."""

__version__ = "0.1.0"
