from pathlib import Path

import pytest

from cashier.config import ProfileError, access_token_for, load_profile


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "till.toml"
    path.write_text(text)
    return path


def test_no_profile_is_training() -> None:
    profile = load_profile()
    assert profile.is_training
    assert profile.resolved_journal_path.name.endswith(".sqlite")


def test_profile_file_and_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, 'till_id = "store7-till2"\ntill_number = 7\nprocessing_option = "DCP"\n'
                           'host_url = "https://gw.example/api/rest/v1"\n[timeouts]\nhost_s = 30\n')
    monkeypatch.setenv("CASHIER_TERMINAL_ID", "77")
    monkeypatch.setenv("CASHIER_TIMEOUTS__DEVICE_S", "120")
    profile = load_profile(path)
    assert profile.till_id == "store7-till2"
    assert profile.processing_option == "DCP"
    assert profile.terminal_id == "77"
    assert profile.timeouts.host_s == 30
    assert profile.timeouts.device_s == 120
    assert not profile.is_training


def test_bad_profile_lists_every_field(tmp_path: Path) -> None:
    path = write(tmp_path, 'till_id = "a b"\nprocessing_option = "XX"\nhost_url = "ftp://x"\n'
                           'clerk_id = 0\nunknown = 1\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    fields = {field for field, _ in info.value.problems}
    assert fields == {"till_id", "processing_option", "host_url", "clerk_id", "unknown"}
    assert "is not a profile field" in str(info.value)


def test_secret_in_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'till_id = "t1"\naccess_token = "EA79FB05-3AA7-4500-AF9A-73F986FF2C1D"\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert "access_token" in str(info.value)
    assert "EA79FB05" not in str(info.value)


def test_plain_http_only_for_loopback(tmp_path: Path) -> None:
    assert load_profile(write(tmp_path, 'host_url = "http://127.0.0.1:8787/api/rest/v1"\n'
                                        'terminal_id = "1"\ntill_id = "t1"\ntill_number = 2\n')).host_url
    with pytest.raises(ProfileError):
        load_profile(write(tmp_path, 'host_url = "http://pay.example/api"\n'))


def test_lg_needs_terminal(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as info:
        load_profile(write(tmp_path, 'host_url = "https://gw.example"\nprocessing_option = "LG"\n'))
    assert "terminal_id" in str(info.value)


def test_access_token_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    profile = load_profile()
    assert access_token_for(profile) is None  # the fail backend has nothing
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "tok-123")
    assert access_token_for(profile) == "tok-123"
