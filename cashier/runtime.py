"""A till's runtime, built from its profile: Host API client, journal, event bus, flow context.

With a ``host_url`` the client talks to that host with the access token from the keyring or the
environment. Without one (training mode) it talks to the embedded sandbox in-process through
``httpx.ASGITransport``; the sandbox's state is kept in a file next to the journal, so a sale
made by one ``cashier`` process can be voided by the next.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from cashier.catalog import CatalogSource
from cashier.chargeapi.connect import optional_gateway_client
from cashier.chargeapi.journaled import JournaledChargeApi
from cashier.config import TillProfile, access_token_for
from cashier.flows import giftcards, qr
from cashier.flows.base import FlowContext, RecoveryPolicy, Resolver
from cashier.flows.events import EventBus
from cashier.flows.invoices import host_invoice_check
from cashier.flows.offline import OfflineWatch
from cashier.host.client import HostClient, HostSettings
from cashier.journal.aio import Journal
from cashier.journal.model import Kind

log = logging.getLogger(__name__)
TRAINING_BASE_URL = "http://sandbox/api/rest/v1"
TRAINING_TOKEN = "TRAINING-ACCESS-TOKEN"
#: How the flows settle the kinds the invoice lookup cannot tell (``flows.base.OWN_RESOLVER_KINDS``),
#: passed to every flow context.
RESOLVERS: dict[Kind, Resolver] = {**giftcards.RESOLVERS, **qr.RESOLVERS}


def sandbox_state_path(profile: TillProfile) -> Path:
    journal = profile.resolved_journal_path
    return journal.with_name(journal.stem + ".sandbox.json")


@dataclass
class Runtime:
    profile: TillProfile
    client: HostClient
    journal: Journal
    bus: EventBus
    ctx: FlowContext
    sandbox: Any = None  # the in-process HostSandbox in training mode
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def training(self) -> bool:
        return self.profile.is_training

    def start_store_push(self) -> None:
        """The window's background pusher and catalog follower (threads of their own), when the
        profile names a store."""
        if not self.profile.store_url or self.profile.is_training or "store_pusher" in self.extras:
            return
        from cashier.store.catalog_pull import CatalogFollower
        from cashier.store.outbox import BackgroundPusher

        follower = CatalogFollower(self.profile, self.ctx.catalog)
        self.extras["catalog_follower"] = follower
        follower.start()
        pusher = BackgroundPusher(self.profile, on_catalog=follower.store_has)
        self.extras["store_pusher"] = pusher
        self.extras["store_unsubscribe"] = self.journal.subscribe(pusher.nudge)
        pusher.start()

    async def close(self) -> None:
        follower = self.extras.pop("catalog_follower", None)
        if follower is not None:
            await asyncio.to_thread(follower.stop)
        pusher = self.extras.pop("store_pusher", None)
        if pusher is not None:
            self.extras.pop("store_unsubscribe")()
            await asyncio.to_thread(pusher.stop)
        if self.ctx.charge_api is not None:
            await self.ctx.charge_api.client.aclose()
        await self.client.aclose()
        await self.journal.close()

    async def __aenter__(self) -> Runtime:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def training_host(profile: TillProfile, *, state_file: str | None = None) -> Any:
    """The embedded sandbox a training till talks to (a ``HostSandbox``). Lazy: only a training
    till loads it (~630 ms measured); a live till never does (tests/core/test_lazy_imports.py)."""
    from cashier.sandbox import HostSandbox, SandboxConfig

    return HostSandbox(SandboxConfig(option=profile.processing_option, state_file=state_file))


def host_window_s(profile: TillProfile) -> float:
    """The host's longest processing time plus this till's connect and host timeouts."""
    t = profile.timeouts
    return t.host_longest_s + t.connect_s + t.host_s


async def open_runtime(profile: TillProfile, *, policy: RecoveryPolicy | None = None,
                       transport: httpx.AsyncBaseTransport | None = None,
                       sandbox: Any = None) -> Runtime:
    """Build and open everything; ``transport``/``sandbox`` let tests share an in-process host."""
    journal = await Journal.open(profile.resolved_journal_path, till_id=profile.till_id,
                                 till_number=profile.till_number, currency=profile.currency,
                                 training=profile.is_training,
                                 invoice_time_floor=not profile.is_training)
    # a training till (training = true, or no host_url) never reaches a real host, even when its
    # profile names one: that is how a store trains on a copy of a live till's profile
    in_process = profile.is_training
    if in_process:
        if sandbox is None:
            sandbox = training_host(profile, state_file=str(sandbox_state_path(profile)))
            from cashier.sandbox import seed_training_gift_card

            seed_training_gift_card(sandbox.state)  # a trainee pays with a gift card at once
        transport = transport or httpx.ASGITransport(app=sandbox.asgi)
        settings = HostSettings.from_profile(profile, base_url=TRAINING_BASE_URL)
        client = HostClient(settings, access_token=TRAINING_TOKEN, transport=transport)
        # in-process, a request is finished when its error surfaces: "not found" is final at once
        policy = policy or RecoveryPolicy(grace_s=0.0, delays_s=(0.0, 0.05, 0.1), host_window_s=0.0)
    else:
        assert profile.host_url is not None
        client = HostClient(HostSettings.from_profile(profile),
                            access_token=access_token_for(profile), transport=transport)
        # "not found" is trusted only past the host's longest processing time, whatever the
        # policy or the profile's recovery_s says (a grace can lengthen it, never shorten it)
        policy = dataclasses.replace(policy or RecoveryPolicy(grace_s=profile.timeouts.recovery_s),
                                     host_window_s=host_window_s(profile))
    if not in_process:
        # a new, replaced or restored journal learns from the host which numbers it still holds
        # (a training journal has its own sandbox state beside it: nothing to learn)
        journal.invoice_check = host_invoice_check(client, profile.till_number)
    if profile.store_url and not profile.is_training:
        # a till that never heard the store's word on its number asks before its first invoice
        journal.number_check = functools.partial(asyncio.to_thread, _learn_till_number, profile)
    catalog = _till_source(profile)
    bus = EventBus()
    bus.follow(journal)  # the journal publishes every entry's change; nothing else does
    ctx = FlowContext(client=client, journal=journal, bus=bus, clerk_id=profile.clerk_id, policy=policy,
                      roster=profile.roster, receipt_language=profile.language,
                      max_tip_percent=profile.max_tip_percent, bounds=profile.bounds,
                      resolvers=RESOLVERS, catalog=catalog,
                      offline=profile.offline, watch=OfflineWatch())
    ctx.charge_api = _journaled_charge_api(profile, journal, sandbox if in_process else None)
    if profile.store_url and not profile.is_training:
        await asyncio.to_thread(_pull_catalog, profile, catalog)
    return Runtime(profile=profile, client=client, journal=journal, bus=bus, ctx=ctx, sandbox=sandbox)


def _till_source(profile: TillProfile) -> CatalogSource:
    """The till's copy of the store's catalog (built when first read), else its profile's (or
    the training catalog)."""
    from cashier.store.catalog_pull import till_source

    return till_source(profile)


def _pull_catalog(profile: TillProfile, source: CatalogSource) -> None:
    """A till that follows a store pulls the newest catalog as it opens (within a second: a
    store away leaves it selling from its copy)."""
    from cashier.errors import CashierError
    from cashier.store.catalog_pull import PULL_AT_START_S, pull

    try:
        pull(profile, source, budget_s=PULL_AT_START_S)
    except CashierError as exc:  # no token, a refusal: the till sells from what it has
        log.warning("catalog not pulled: %s", exc)


def _learn_till_number(profile: TillProfile) -> None:
    from cashier.store.outbox import learn_till_number

    learn_till_number(profile)


def _journaled_charge_api(profile: TillProfile, journal: Journal, sandbox: Any) -> Any:
    """The Charge API beside the host: the embedded one in training, else ``charge_api_url`` with its
    key; None when the till has none (its Charge API entries then wait for one)."""
    client = optional_gateway_client(profile, sandbox)
    return None if client is None else JournaledChargeApi(client, journal, actor=str(profile.clerk_id))
