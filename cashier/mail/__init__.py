"""Receipts by e-mail (issue #41): the customer's address checked (``cashier.email_address``), the message
built from the one receipt layout (``message``), queued in the journal's mail outbox before
anything leaves and sent from it once through a real SMTP server, or a training till's Mail
window (``outbox``, ``sender``); the address asked on the PIN pad (``pad``)."""
