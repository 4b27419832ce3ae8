"""The Charge API's operations and rules, one module per resource of the spec's endpoint table.

A handler gets a ``Req`` (parameters already parsed, account chosen by the API key) and
returns the JSON object to answer with, or raises ``ChargeApiFault``. Helpers several
resources share live in ``common``; card data rules in ``cards``.
"""
