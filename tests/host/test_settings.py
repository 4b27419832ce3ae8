"""One ``HostSettings`` from a profile: the runtime and the credentials exchange share it."""

from __future__ import annotations

import pytest

from cashier.config import load_profile
from cashier.host.client import HostSettings
from cashier.host.client.base import SANDBOX_DCC_SERIAL, SANDBOX_TERMINAL_ID


def test_a_training_profile_gets_the_sandbox_pads() -> None:
    lg = HostSettings.from_profile(load_profile(None), base_url="http://sandbox/api/rest/v1")
    assert (lg.terminal_id, lg.device_serial_number) == (SANDBOX_TERMINAL_ID, None)
    dcc = HostSettings.from_profile(load_profile(None, processing_option="DCC"),
                                    base_url="http://sandbox/api/rest/v1")
    assert (dcc.terminal_id, dcc.device_serial_number) == (None, SANDBOX_DCC_SERIAL)


def test_a_live_profile_keeps_its_own_ids_timeouts_and_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASHIER_HMAC_SECRET", "s3cret")
    profile = load_profile(None, training=False, till_id="t1", till_number=1,
                           host_url="https://host.example/api/rest/v1",
                           terminal_id="77", clerk_id=4, hmac_key_id="k1")
    s = HostSettings.from_profile(profile)
    assert (s.base_url, s.terminal_id, s.clerk_id) == ("https://host.example/api/rest/v1", "77", 4)
    assert (s.host_timeout_s, s.hmac_key_id, s.hmac_secret) == (profile.timeouts.host_s, "k1", b"s3cret")
    assert HostSettings.from_profile(profile, base_url="http://other/").base_url == "http://other/"
