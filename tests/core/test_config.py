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


def test_top_level_fields_survive_a_till_products_table(tmp_path: Path) -> None:
    """``[[till.products]]`` (the README's form) makes a ``till`` table: the fields above it are
    still the profile's, not thrown away for the defaults."""
    path = write(tmp_path, 'till_id = "shop-2"\ntraining = true\ntax_rate = "8.25"\n'
                           'manager_pin_hash = "scrypt$16384$8$1$c2FsdA$aGFzaA"\n\n'
                           '[[till.products]]\nname = "Coffee"\nprice = "2.50"\nbarcode = "123"\n')
    profile = load_profile(path)
    assert profile.till_id == "shop-2"
    assert str(profile.tax_rate) == "8.25"
    assert profile.manager_pin_hash == "scrypt$16384$8$1$c2FsdA$aGFzaA"
    assert [p.name for p in profile.products] == ["Coffee"]


@pytest.mark.parametrize(("text", "field", "rule"), [
    ('till_id = "t1"\n\n[tll]\nx = 1\n', "tll", "is not a profile field"),
    ('[till]\ntill_id = "t1"\ncolour = "red"\n', "colour", "is not a profile field"),
    ('till_id = "t1"\n\n[[till.products]]\nname = "Tea"\nprice = "1"\nbarcode = "9"\nsize = "L"\n',
     "products.0.size", "is not a profile field"),
    ('till_id = "t1"\n\n[till]\ntill_id = "t2"\n', "till_id", "both at the top level and under [till]"),
    ('till = "t1"\n', "till", "must be a table"),
])
def test_an_unknown_table_or_key_is_refused_in_one_line(tmp_path: Path, text: str, field: str,
                                                        rule: str) -> None:
    with pytest.raises(ProfileError) as info:
        load_profile(write(tmp_path, text))
    message = str(info.value)
    assert "\n" not in message
    assert f": {field}: " in message and rule in message


def test_the_environment_sets_fields_tables_and_lists_as_pydantic_settings_did(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``CASHIER_*`` read by ``environment_overrides`` (no pydantic-settings: decision 017, "The
    window's start, round 2"): any case; a table's field by ``__`` merged over the file's table and
    over a whole table given as JSON; a list as JSON; a variable naming no field left alone."""
    path = write(tmp_path, 'till_id = "t1"\n[timeouts]\nhost_s = 30\n[printer]\ntimeout_s = 4\n')
    monkeypatch.setenv("cashier_terminal_id", "77")
    monkeypatch.setenv("CASHIER_TIMEOUTS__DEVICE_S", "120")
    monkeypatch.setenv("CASHIER_PRINTER", '{"url": "tcp://127.0.0.1:9100"}')
    monkeypatch.setenv("CASHIER_TIP_PRESETS", "[1, 2, 3]")
    monkeypatch.setenv("CASHIER_PRICE_EMBEDDED_PREFIXES", '["23"]')
    monkeypatch.setenv("CASHIER_NOT_A_FIELD", "x")
    profile = load_profile(path)
    assert profile.terminal_id == "77"
    assert (profile.timeouts.host_s, profile.timeouts.device_s) == (30, 120)
    assert profile.printer.url == "tcp://127.0.0.1:9100" and profile.printer.timeout_s == 4
    assert [int(p) for p in profile.tip_presets] == [1, 2, 3]
    assert profile.price_embedded_prefixes == ["23"]
    monkeypatch.setenv("CASHIER_TILL_ID", "from-env")  # the environment wins over the file
    assert load_profile(path).till_id == "from-env"


def test_a_table_in_the_environment_that_is_not_json_is_one_clear_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASHIER_TIMEOUTS", "not json")
    with pytest.raises(ProfileError) as info:
        load_profile()
    assert str(info.value) == ("The till profile (CASHIER_TIMEOUTS): timeouts: must be JSON in the "
                               "environment (a list or a table)")
    monkeypatch.setenv("CASHIER_TIMEOUTS", '{"host_s": "soon"}')
    with pytest.raises(ProfileError) as info:
        load_profile()
    assert info.value.problems[0][0] == "timeouts.host_s"
