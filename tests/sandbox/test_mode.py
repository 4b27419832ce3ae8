"""Offline and online mode: LG version and feature rules, the maximum duration, device status."""

from __future__ import annotations

import pytest

from cashier.host.errors import HostError
from cashier.sandbox.host_mode import is_offline, offline_remaining_s
from tests.support.vendor_schema import check_all, record_answers


async def test_offline_then_online_on_lg(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    seen = record_answers(client)
    assert not is_offline(sandbox.state)
    off = await client.mode_offline()
    assert off.offline and off.transaction is not None and off.transaction.auth_source == "O"
    assert is_offline(sandbox.state)
    on = await client.mode_online()
    assert not on.offline and on.transaction is not None and on.transaction.auth_source == "E"
    assert not is_offline(sandbox.state)
    check_all(seen)


async def test_offline_ends_by_itself_after_the_maximum(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("DCP", offline_max_s=600.0)
    await client.mode_offline()
    sandbox.state.clock.advance(300)
    assert is_offline(sandbox.state) and 299 <= offline_remaining_s(sandbox.state) <= 300
    await client.mode_offline()  # resending does not stretch it
    sandbox.state.clock.advance(301)
    assert not is_offline(sandbox.state)
    assert (await client.device_get_status()).offline_mode == "N"


@pytest.mark.parametrize(("settings", "words"), [({"lg_version": 3079}, "3080"),
                                                  ({"lg_offline_feature": False}, "switched off")])
async def test_lg_without_the_feature_stays_online(make_sandbox, settings, words) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG", **settings)
    with pytest.raises(HostError) as refused:
        await client.mode_offline()
    assert refused.value.http_status == 400 and words in (refused.value.long_text or "")
    assert str(refused.value.code) == "40600"
    assert not is_offline(sandbox.state)


async def test_mode_is_refused_on_hd_and_dcc(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    for option in ("HD", "DCC"):
        _sandbox, client = make_sandbox(option)
        with pytest.raises(HostError) as refused:
            await client.mode_offline()
        assert refused.value.short_text == "NOT SUPPORTED"
