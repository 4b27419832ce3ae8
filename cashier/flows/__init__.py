"""Payment flows: one small unit per use case, journal first, then the wire.

The pattern (follow it for gift cards, QR, PIN pad extras, offline mode):

1. Validate everything (``ValidationError`` naming the field) before touching the journal.
2. Commit the intent: ``await ctx.journal.create(NewEntry(Kind.X, amount, actor=ctx.actor,
   op=Op.X, sent=True, ...))``. The invoice is allocated in that same transaction; ``sent=True`` records
   in the same commit that the request is about to go.
3. Send through ``base.send_journaled(ctx, entry, op, lambda: ctx.client.<call>(invoice=...))``.
   It journals the answer (``apply_answer``), or on a lost answer (``HostOutcomeUnknown``)
   journals UNKNOWN and asks ``GET /transactions/invoice`` (``resolve``); ``HostRetrySafe``
   (never left) and refusals (any other ``HostError``) leave the entry not charged, safe to
   retry with the same invoice. For an answer of another shape, write your own
   ``apply_answer``-like function and keep the rule: one journal transition per host fact.
   Never publish the entry's change yourself: the journal publishes every write.
4. Return ``base.finish(ctx, entry)``: a ``FlowResult`` (outcome approved / declined / error /
   unknown / voided / voiding / captured) that the window and ``cashier`` print.
5. Recovery (``recovery.recover``) resolves every entry left in intent / sent / unknown and runs
   pending void jobs; teach ``resolve`` your op if ``GET /transactions/invoice`` does not tell its
   outcome (gift cards: balance; QR: ``getqrpaymentstatus``).

Modules: ``base`` (context, policy, the send/resolve pattern), ``events`` (the typed events
and the ``EventBus``), ``payments`` (sale, refund, authorize, incremental, capture), ``recovery``
(void jobs, recover), ``batch`` (reconcile, close). Build a ``FlowContext`` with
``cashier.runtime.open_runtime(profile)``.
"""
