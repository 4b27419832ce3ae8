"""Version order, channels and the side-by-side folders (no network, no packaging)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cashier.errors import ValidationError
from cashier.updates.layout import Layout, LayoutError
from cashier.updates.versions import Published, channel_takes, parse_version, pick


def _published(*items: tuple[str, str]) -> list[Published]:
    return [Published(version=v, channel=c, target=f"cashier-t/{v}/x.tar.xz") for v, c in items]  # type: ignore[arg-type]


def test_versions_compare_as_numbers_not_text() -> None:
    assert parse_version("0.10.0") > parse_version("0.9.0")
    found = pick(_published(("0.9.0", "stable"), ("0.10.0", "stable")), "0.8.0", "stable")
    assert found is not None and found.version == "0.10.0"


@pytest.mark.parametrize("text", ["1.2.x", "", "v1.2.3", "1.02.3", "latest"])
def test_a_bad_version_is_one_line_naming_the_field(text: str) -> None:
    with pytest.raises(ValidationError, match=r"^VERSION: "):
        parse_version(text, "VERSION")


def test_a_stable_till_never_takes_a_pilot_version_a_pilot_till_takes_both() -> None:
    published = _published(("0.2.0", "stable"), ("0.3.0", "pilot"))
    assert channel_takes("pilot", "stable") and not channel_takes("stable", "pilot")
    stable = pick(published, "0.1.0", "stable")
    pilot = pick(published, "0.1.0", "pilot")
    assert stable is not None and stable.version == "0.2.0"
    assert pilot is not None and pilot.version == "0.3.0"


def test_no_version_older_than_or_equal_to_the_running_one() -> None:
    published = _published(("0.1.0", "stable"), ("0.2.0", "stable"))
    assert pick(published, "0.2.0", "stable") is None
    assert pick(published, "0.3.0", "stable") is None


def _install(layout: Layout, version: str) -> None:
    folder = layout.folder(version)
    folder.mkdir(parents=True)
    (folder / "cashier").write_text(f"#!/bin/sh\necho {version}\n")


def test_switch_is_a_link_and_rollback_returns_to_the_previous_version(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    for version in ("0.1.0", "0.2.0"):
        _install(layout, version)
    assert layout.switch("0.1.0") is None
    assert layout.switch("0.2.0") == "0.1.0"
    assert (layout.current(), layout.previous()) == ("0.2.0", "0.1.0")
    assert layout.current_link.is_symlink()
    assert (layout.current_link / "cashier").read_text().endswith("0.2.0\n")
    assert layout.roll_back() == "0.1.0"
    assert layout.current() == "0.1.0" and layout.previous() is None
    with pytest.raises(LayoutError, match="no previous version"):
        layout.roll_back()


def test_switching_to_a_missing_version_changes_nothing(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    _install(layout, "0.1.0")
    layout.switch("0.1.0")
    with pytest.raises(LayoutError, match=re.escape("0.9.0 is not installed")):
        layout.switch("0.9.0")
    assert layout.current() == "0.1.0"


def test_prune_keeps_the_current_and_previous_versions(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    for version in ("0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0"):
        _install(layout, version)
    (layout.versions / ".partial-0.6.0-x").mkdir()  # an interrupted download is not a version
    layout.switch("0.4.0")
    layout.switch("0.5.0")
    assert layout.prune(keep=3) == ["0.1.0", "0.2.0"]
    assert layout.installed() == ["0.3.0", "0.4.0", "0.5.0"]


def test_the_profile_takes_an_update_url_https_or_loopback_and_a_channel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cashier.config import ProfileError, load_profile

    assert load_profile(None, update_url="https://backoffice.example/updates/").update_url == \
        "https://backoffice.example/updates"
    assert load_profile(None, update_url="http://127.0.0.1:8790/updates").update_channel == "stable"
    with pytest.raises(ProfileError, match=r"update_url: .*plain http only for a loopback"):
        load_profile(None, update_url="http://backoffice.example/updates")
    with pytest.raises(ProfileError, match="update_channel"):
        load_profile(None, update_channel="beta")
    monkeypatch.setenv("CASHIER_UPDATE_URL", "https://other.example/u")
    monkeypatch.setenv("CASHIER_UPDATE_CHANNEL", "pilot")
    profile = load_profile(None)
    assert (profile.update_url, profile.update_channel) == ("https://other.example/u", "pilot")
