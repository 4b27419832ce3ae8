"""Signed updates (TUF through ``tufup``): publish on the back office, check and apply on a till.

- ``versions``: version order and which published version a till's channel takes.
- ``layout``: versions side by side on the till, a ``current`` link switched atomically.
- ``publish``: the signing keys and the static repository (back office only).
- ``till``: check, download and verify, wait for a quiet till, switch, self-check, roll back.
"""
