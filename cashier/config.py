"""The till profile: who this till is and how it reaches the host.

Read from a TOML file (``--profile PATH`` or ``CASHIER_PROFILE``), overridden field by field
by ``CASHIER_*`` environment variables. Secrets are never read from the file: the access token
comes from the OS keyring or ``CASHIER_ACCESS_TOKEN``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import tomllib
import types
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from cashier.clerks import Clerk, ManagerRules, Roster
from cashier.errors import CashierError
from cashier.money import DEFAULT_LARGEST_NOTE, DEFAULT_MAX_AMOUNT, DEFAULT_MAX_TIP_PERCENT, AmountBounds
from cashier.net import is_loopback_url
from cashier.printing.settings import PrinterSettings
from cashier.text import profile_text

APP_NAME = "cashier"
#: Training's bound when its profile sets none: above every trigger amount of the test host.
TRAINING_MAX_AMOUNT = Decimal("1000000.00")
KEYRING_SERVICE = "cashier-host-api"
STORE_KEYRING_SERVICE = "cashier-store"
ProcessingOption = Literal["HD", "LG", "DCP", "DCC"]
#: Keys that would put a secret in a file that gets committed or packaged.
FORBIDDEN_KEYS = frozenset(
    {"access_token", "accesstoken", "auth_token", "client_guid", "hmac_secret", "secret_key",
     "password", "charge_api_secret_key", "store_token"}
)
_HEADER_FORBIDDEN = re.compile(r"[$%:^\-~<>,?“”‘’{}\[\]\\+=`\"']")


class ProfileError(CashierError):
    """A profile that cannot be used; lists every bad field and the rule it breaks."""

    def __init__(self, problems: list[tuple[str, str]], source: str = "profile") -> None:
        self.problems = problems
        if len(problems) == 1:  # the usual case: one line, naming the profile and the field
            field, rule = problems[0]
            super().__init__(f"The till profile ({source}): {field}: {rule}")
            return
        lines = "\n".join(f"  - {field}: {rule}" for field, rule in problems)
        super().__init__(f"The till profile ({source}) has {len(problems)} problem(s):\n{lines}")


class Timeouts(BaseModel):
    """Seconds per class of call: host calls are short, PIN pad prompts wait for a person."""

    model_config = ConfigDict(extra="forbid")

    connect_s: float = Field(5.0, gt=0, le=60)
    host_s: float = Field(40.0, gt=0, le=300)
    device_s: float = Field(180.0, gt=0, le=900)
    recovery_s: float = Field(10.0, gt=0, le=120)
    #: The host's longest processing time (the vendor's slowest trigger: 99 s). Not a grace: a
    #: statement about the host. "No such invoice" within it plus connect_s and host_s means
    #: "still unknown, ask again"; lower it only for a host that answers sooner (a test sandbox
    #: without delay triggers).
    host_longest_s: float = Field(99.0, ge=0, le=600)


class Product(BaseModel):
    """A product the barcode scanner (or the cashier) can add as a ticket line."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    price: Decimal = Field(ge=0, le=Decimal("9999999999.99"), decimal_places=2)
    barcode: str = Field(min_length=1, max_length=32, pattern=r"^[0-9A-Za-z-]+$")

    @field_validator("name")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        return profile_text(value)  # a product list edited by a supplier: no printer commands


class TicketOptions(BaseModel):
    """``[ticket]``: how the counter takes a ticket's money."""

    model_config = ConfigDict(extra="forbid")

    #: The bank notes customers hand over: the Sale screen's quick cash keys offer "Exact" and
    #: the next of these up from what remains.
    notes: tuple[Decimal, ...] = Field(
        (Decimal(5), Decimal(10), Decimal(20), Decimal(50), Decimal(100)), min_length=1, max_length=12)

    @field_validator("notes")
    @classmethod
    def _positive(cls, value: tuple[Decimal, ...]) -> tuple[Decimal, ...]:
        if any(note <= 0 or note > Decimal(100000) for note in value):
            raise ValueError("each note must be greater than 0 and at most 100000")
        return tuple(sorted(set(value)))


class OfflineOptions(BaseModel):
    """``[offline]``: store and forward while the host is away (issue 40). ``automatic``: the
    till puts LG or DCP offline by itself when the host cannot be reached, and back online when
    it answers again. The limits bound what the gateway holds unsettled (checked before the PIN
    pad is asked): one card tender (``max_sale``), everything stored (``max_total``), how many
    (``max_count``), and the age of the oldest stored payment (``max_hours``)."""

    model_config = ConfigDict(extra="forbid")

    automatic: bool = True
    max_sale: Decimal = Field(Decimal(100), gt=0, decimal_places=3)
    max_total: Decimal = Field(Decimal(1000), gt=0, decimal_places=3)
    max_count: int = Field(50, ge=1, le=10000)
    max_hours: Decimal = Field(Decimal(24), gt=0, le=168, decimal_places=2)
    #: Connection failures or timeouts in a row that mean the host is away (no gateway answer).
    failures: int = Field(3, ge=1, le=20)
    #: Seconds between two probes of the host while offline by itself.
    probe_s: float = Field(30.0, ge=1, le=3600)


class EmailSettings(BaseModel):
    """``[email]``: receipts by e-mail through the store's SMTP server (issue #41). No ``host``:
    a real till sends none (a training till shows each message in its Mail window). The login's
    password is never here: the OS keyring (service ``cashier-smtp``, the ``username``) or
    ``CASHIER_SMTP_PASSWORD``."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    host: str | None = Field(None, min_length=1, max_length=253, pattern=r"^[A-Za-z0-9.:\[\]-]+$")
    port: int = Field(587, ge=1, le=65535)
    #: STARTTLS before the login and the message; off only for a mail server on this machine.
    starttls: bool = True
    #: the sender: the store's own address (``from`` in the profile).
    sender: str | None = Field(None, alias="from", max_length=254)
    #: the login's name; no username: no login.
    username: str | None = Field(None, min_length=1, max_length=254)
    #: after every card payment the PIN pad offers the customer to type an address.
    offer_on_pad: bool = False
    #: which of the pad's configured input prompts asks for an e-mail address (001 to 012).
    pad_prompt: str = Field("010", pattern=r"^(00[1-9]|01[0-2])$")
    #: the store's postal address, under its name in every message.
    store_address: str = Field("", max_length=200)
    #: sends tried before a message is failed (and shown to the manager with the reason).
    attempts: int = Field(8, ge=1, le=50)
    #: seconds one send may take (connect, STARTTLS, login, message).
    timeout_s: float = Field(20.0, gt=0, le=120)

    @field_validator("store_address")
    @classmethod
    def _text(cls, value: str) -> str:
        return profile_text(value)

    @model_validator(mode="after")
    def _safe(self) -> EmailSettings:
        if self.host is not None and not self.starttls and not is_loopback_url(f"smtp://{self.host}"):
            raise ValueError("starttls = false is for a mail server on this machine only: a "
                             "customer's address never crosses a network in clear")
        if self.host is not None and not self.sender:
            raise ValueError("from is required with a host (the store's own address)")
        if self.sender is not None:
            from cashier.email_address import check_address

            try:
                check_address(self.sender, "from")
            except CashierError as exc:
                raise ValueError(str(exc)) from None
        return self


def is_frozen() -> bool:
    """True inside a packaged till (PyInstaller bundle)."""
    return bool(getattr(sys, "frozen", False))


def baked_profile_path() -> Path | None:
    """The till profile baked into a packaged till, if this is one."""
    if not is_frozen():
        return None
    base = Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent))
    candidate = base / "profile" / "till.toml"
    return candidate if candidate.exists() else None


#: Made by the Debian package (root:cashier, 2770): a packaged till keeps its journal and logs
#: there when they exist; an archive install keeps platformdirs' machine-wide folders.
PACKAGE_DATA_DIR = Path("/var/lib/cashier")
PACKAGE_LOG_DIR = Path("/var/log/cashier")


def _usable_dir(machine_wide: str, per_user: str, packaged: Path | None = None) -> Path:
    """A packaged till keeps data machine-wide (one install per till); from source, per user.

    The machine-wide folder is created owner-only; when it cannot be created (not installed by
    an administrator), the per-user folder is used instead so the till still starts.
    """
    if is_frozen():
        if packaged is not None and packaged.is_dir() and os.access(packaged, os.W_OK):
            return packaged
        path = Path(machine_wide)
        try:
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
            if os.access(path, os.W_OK):
                return path
        except OSError:
            pass
    return Path(per_user)


def default_data_dir() -> Path:
    return _usable_dir(platformdirs.site_data_dir(APP_NAME, appauthor=False),
                       platformdirs.user_data_dir(APP_NAME, appauthor=False),
                       PACKAGE_DATA_DIR if sys.platform.startswith("linux") else None)


def default_log_dir() -> Path:
    return _usable_dir(platformdirs.site_log_dir(APP_NAME, appauthor=False),
                       platformdirs.user_log_dir(APP_NAME, appauthor=False),
                       PACKAGE_LOG_DIR if sys.platform.startswith("linux") else None)


def ensure_private_dir(path: Path) -> Path:
    """Create a folder only its owner can read: the journal and logs are the store's records."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    if path.stat().st_mode & stat.S_ISGID:  # the package's folder for the cashier group: keep it
        return path
    with contextlib.suppress(OSError):  # a file system without modes (FAT stick) still works
        os.chmod(path, 0o700)
    return path


#: A till id: a letter or digit, then letters, digits, ``_ . -`` (never ``.``, ``..`` or ``-``).
TILL_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$"


class TillProfile(BaseModel):
    """Everything a till needs to know about itself, except its secrets (``load_profile`` lays
    the ``CASHIER_*`` environment over the file: ``environment_overrides``)."""

    model_config = ConfigDict(extra="forbid", validate_default=True)

    till_id: str = Field("training", min_length=1, max_length=32, pattern=TILL_ID_PATTERN)
    #: Prefix of every invoice number this till issues: unique per till within one merchant.
    till_number: int = Field(1, ge=1, le=99)
    processing_option: ProcessingOption = "LG"
    #: None means training mode on the embedded sandbox.
    host_url: str | None = None
    terminal_id: str | None = Field(None, min_length=1, max_length=32)
    device_manufacturer: str = "PAX"
    device_serial_number: str | None = Field(None, min_length=1, max_length=64)
    journal_path: Path | None = None
    log_dir: Path | None = None
    interface_name: str = Field("Cashier", min_length=1, max_length=25)
    interface_version: str = Field("0.1", min_length=1, max_length=11)
    company_name: str = Field("Cashier", min_length=1, max_length=26)
    clerk_id: int = Field(1, ge=1, le=99999)
    currency: str = Field("USD", pattern=r"^[A-Z]{3}$")
    training: bool = False
    hmac_key_id: str | None = None
    charge_api_url: str | None = None
    #: The store service this till pushes its journal to (None: a till on its own).
    store_url: str | None = None
    timeouts: Timeouts = Field(default_factory=Timeouts)
    manager_pin_hash: str | None = None
    language: str = "en"
    #: ``[[clerks]]``: who may sign in (none: a till without clerks, as before clerks existed).
    clerks: list[Clerk] = Field(default_factory=list)
    manager_rules: ManagerRules = Field(default_factory=ManagerRules)
    printer: PrinterSettings = Field(default_factory=PrinterSettings)
    email: EmailSettings = Field(default_factory=EmailSettings)
    #: Tickets: one tax rate in percent; prices typed with the tax already in them or not.
    tax_rate: Decimal = Field(Decimal(0), ge=0, le=100, decimal_places=4)
    prices_include_tax: bool = False
    #: Cash rounding (issue #38, e.g. ``0.05``): a cash tender's due rounded half-up to this
    #: step, never a card's; the difference journaled on the ticket (None: to the cent).
    cash_rounding: Decimal | None = Field(None, gt=0, le=1, decimal_places=3)
    #: How a ticket's tip is taken: none, on the PIN pad with the first card tender, or keyed.
    tip_mode: Literal["none", "pad", "keyed"] = "none"
    tip_presets: tuple[Decimal, Decimal, Decimal] = (Decimal(15), Decimal(18), Decimal(20))
    #: A tab's tip may be at most this percentage of its authorization (a capture's bound).
    max_tip_percent: Decimal = Field(DEFAULT_MAX_TIP_PERCENT, ge=0, le=1000, decimal_places=2)
    #: A card tender above this amount asks for the customer's signature on the PIN pad.
    signature_floor: Decimal | None = Field(None, ge=0)
    #: Terms the customer accepts on the PIN pad before a tab is opened (none: not asked).
    terms_text: str | None = Field(None, min_length=1, max_length=4096)
    products: list[Product] = Field(default_factory=list)
    #: Price-embedded EAN-13 prefixes (issue #37, e.g. ``["23"]``): such a label is the prefix,
    #: five digits of item code (a product's sku), five of price in minor units and the check
    #: digit; it sells the product at the label's price (``cashier.catalog.scan``).
    price_embedded_prefixes: list[Annotated[str, Field(pattern=r"^[0-9]{2}$")]] = Field(
        default_factory=list, max_length=10)
    #: Signed updates (IT's guide, docs/guides/it.md, "Packaging a till"): the TUF repository
    #: this till takes new versions from (None: no automatic updates) and which of its versions it takes.
    update_url: str | None = None
    update_channel: Literal["stable", "pilot"] = "stable"
    #: A till that is only a till: the Debian package starts it at login, full screen.
    kiosk: bool = False
    ticket: TicketOptions = Field(default_factory=TicketOptions)
    offline: OfflineOptions = Field(default_factory=OfflineOptions)
    #: The most one sale, card, gift card or QR tender may be (a slip of twenty digits is refused).
    max_amount: Decimal = Field(DEFAULT_MAX_AMOUNT, gt=0, decimal_places=3)
    #: How far a cash tender may pass what remains (the largest note a customer hands over).
    largest_note: Decimal = Field(DEFAULT_LARGEST_NOTE, ge=0, decimal_places=3)

    @property
    def bounds(self) -> AmountBounds:
        """The amounts a human can mean at this till (``cashier.money.AmountBounds``). Training
        without a ``max_amount`` of its own lets the test host's trigger amounts through (a decline
        is rehearsed with 999999.00): nothing real is charged there."""
        if self.is_training and "max_amount" not in self.model_fields_set:
            return AmountBounds(TRAINING_MAX_AMOUNT, self.largest_note)
        return AmountBounds(self.max_amount, self.largest_note)

    @field_validator("interface_name", "interface_version", "company_name")
    @classmethod
    def _header_safe(cls, value: str) -> str:
        value = profile_text(value)
        if _HEADER_FORBIDDEN.search(value):
            raise ValueError("must not contain any of $ % : ^ - ~ < > , ? quotes { } [ ] \\ + = `")
        return value

    @field_validator("host_url", "charge_api_url", "store_url", "update_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.rstrip("/")
        if not re.match(r"^https?://[^\s/]+", value):
            raise ValueError("must be an http(s) URL such as https://host/api/rest/v1")
        if value.startswith("http://") and not is_loopback_url(value):
            raise ValueError("must use https (plain http only for a loopback sandbox)")
        return value

    @model_validator(mode="after")
    def _no_secrets(self) -> TillProfile:
        for name, value in _strings(self.model_dump()):
            if looks_like_secret(value):
                raise ValueError(f"{name} holds what looks like a secret (key, token or password):"
                                 " secrets go in the OS keyring or an environment variable")
        return self

    @model_validator(mode="after")
    def _option_needs(self) -> TillProfile:
        problems: list[str] = []
        if not self.training and self.host_url is not None:
            # a real till names itself: no silent "training" till id or till number 1
            problems += [f"{name} is required for a till with a host_url ({why})"
                         for name, why in (("till_id", "it names the journal and the keyring "
                                                       "entry"),
                                           ("till_number", "the prefix of its invoice numbers, "
                                                           "unique per merchant"))
                         if name not in self.model_fields_set]
            if self.processing_option == "LG" and not self.terminal_id:
                problems.append("terminal_id is required for processing_option LG")
            if self.processing_option == "DCC" and not self.device_serial_number:
                problems.append("device_serial_number is required for processing_option DCC")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @field_validator("clerks")
    @classmethod
    def _unique_clerks(cls, value: list[Clerk]) -> list[Clerk]:
        ids = [c.id for c in value]
        if len(set(ids)) != len(ids):
            raise ValueError("every clerk id must be unique")
        return value

    # ---- derived -----------------------------------------------------------------------
    @property
    def roster(self) -> Roster:
        from cashier.manager_pin import effective_hash

        return Roster(self.clerks, self.manager_rules, currency=self.currency, manager_pin_hash=
                      effective_hash(self.manager_pin_hash, self.is_training))

    @property
    def is_training(self) -> bool:
        return self.training or self.host_url is None

    @property
    def till_journal_path(self) -> Path:
        """The till's own journal: ``journal_path``, else one per till id in the data folder."""
        return self.journal_path or default_data_dir() / f"journal-{self.till_id}.sqlite"

    @property
    def trains_on_a_real_till(self) -> bool:
        """Training on a real till's profile (``training = true`` with a ``host_url``): a trainee
        at a live till, or a store's training copy of a live till's profile."""
        return self.training and self.host_url is not None

    @property
    def resolved_journal_path(self) -> Path:
        """The journal this run writes. Training on a real till's profile writes its own training
        journal beside the till's (``training_journal_path``), never the till's own: a training
        sale never counts in the till's X or Z report or its batch, never reaches the store, and
        the till's ``recover`` never asks the real host about it (docs/decisions/012-authority.md, issue
        #46)."""
        path = self.till_journal_path
        return training_journal_path(path) if self.trains_on_a_real_till else path

    @property
    def resolved_log_dir(self) -> Path:
        return self.log_dir or default_log_dir()

    @property
    def effective_terminal_id(self) -> str:
        """The PIN pad's id; DCC addresses its pad by serial number."""
        if self.processing_option == "DCC":
            return self.device_serial_number or self.terminal_id or "SANDBOX-1"
        return self.terminal_id or "1"


def training_journal_path(journal: Path) -> Path:
    """Where training on a real till's profile journals: beside the till's journal, marked
    (``journal-lane-3.sqlite`` -> ``journal-lane-3.training.sqlite``)."""
    return journal.with_name(f"{journal.stem}.training{journal.suffix}")


_SECRET_PATTERNS = re.compile(
    r"(?:^|[^A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{4,}"  # Charge API secret keys
    r"|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}-[0-9A-Fa-f]{15}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}|^Bearer\s|^HMAC-SHA256\s")


def looks_like_secret(value: str) -> bool:
    """A Charge API secret key, a Host API access token, a private key or a cloud token."""
    return bool(_SECRET_PATTERNS.search(value))


def _strings(data: Any, prefix: str = "") -> list[tuple[str, str]]:
    """(dotted field, text) for every text value of a dumped profile."""
    if isinstance(data, dict):
        return [pair for key, value in data.items()
                for pair in _strings(value, f"{prefix}{key}.")]
    return [(prefix.rstrip("."), str(data))] if isinstance(data, str | Path) else []


def _problems_from(error: ValidationError) -> list[tuple[str, str]]:
    out = []
    for item in error.errors():
        loc = ".".join(str(p) for p in item["loc"]) or "profile"
        msg = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            msg = "is not a profile field"
        out.append((loc, msg))
    return out


def _merge_till_table(data: dict[str, Any], source: str) -> dict[str, Any]:
    """The fields under ``[till]`` and those at the top level are one profile.

    A profile may put its fields under ``[till]`` or at the top level; ``[[till.products]]``
    makes a ``till`` table too, so a file with top-level fields and that table has both. Both
    are kept (the file's every field reaches the validation, which refuses an unknown one by
    name); a field set in both places is refused rather than one silently winning."""
    till = data.get("till")
    if till is None:
        return data
    if not isinstance(till, dict):
        raise ProfileError([("till", "must be a table ([till]), not a value")], source)
    top = {k: v for k, v in data.items() if k != "till"}
    twice = sorted(set(top) & set(till))
    if twice:
        raise ProfileError([(k, "is set both at the top level and under [till]: keep one")
                            for k in twice], source)
    return {**top, **till}


ENV_PREFIX = "CASHIER_"
#: ``CASHIER_TIMEOUTS__HOST_S``: a field of a table of the profile.
ENV_NESTED = "__"


def _is_table(annotation: Any) -> bool:
    """A field the environment gives as JSON: a model (a table), a list, a tuple or a mapping,
    or an optional one."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _is_table(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return any(_is_table(arg) for arg in get_args(annotation) if arg is not type(None))
    if origin in (list, tuple, dict, set, frozenset) or annotation in (list, tuple, dict, set, frozenset):
        return True
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _model_of(annotation: Any) -> type[BaseModel] | None:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _model_of(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        models = [m for m in map(_model_of, get_args(annotation)) if m is not None]
        return models[0] if models else None
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def _env_value(name: str, annotation: Any, raw: str) -> Any:
    if not _is_table(annotation):
        return raw  # validated (and converted) by the profile's own rules, as a file's value is
    try:
        return json.loads(raw)
    except ValueError:
        raise ProfileError([(name, "must be JSON in the environment (a list or a table)")],
                           f"{ENV_PREFIX}{name.upper()}") from None


def _deep_update(base: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_update(merged[key], value)
        else:
            merged[key] = value
    return merged


def environment_overrides(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The profile's fields set by ``CASHIER_<FIELD>`` variables (any case), a table's field by
    ``CASHIER_<TABLE>__<FIELD>``; a list or table whole as JSON. Read here rather than through
    pydantic-settings, whose import cost the window's start ~55 ms of CPU (decision 017, "The
    window's start, round 2"); the rules are the ones it applied: a variable that names no field
    is not the profile's (``CASHIER_PROFILE``, ``CASHIER_ACCESS_TOKEN``) and is left alone."""
    env = {k.lower(): v for k, v in (os.environ if environ is None else environ).items()
           if k.lower().startswith(ENV_PREFIX.lower())}
    prefix = ENV_PREFIX.lower()
    out: dict[str, Any] = {}
    for name, info in TillProfile.model_fields.items():
        key = prefix + name
        if key in env:
            out[name] = _env_value(name, info.annotation, env[key])
        model = _model_of(info.annotation)
        if model is None:
            continue
        nested: dict[str, Any] = {}
        for env_key, raw in sorted(env.items()):
            if not env_key.startswith(key + ENV_NESTED):
                continue
            path = env_key[len(key + ENV_NESTED):].split(ENV_NESTED)
            target: dict[str, Any] = nested
            field_model: type[BaseModel] | None = model
            annotation: Any = None
            for part in path[:-1]:
                annotation = field_model.model_fields[part].annotation \
                    if field_model is not None and part in field_model.model_fields else None
                field_model = _model_of(annotation)
                target = target.setdefault(part, {})
            leaf = path[-1]
            annotation = field_model.model_fields[leaf].annotation \
                if field_model is not None and leaf in field_model.model_fields else str
            target[leaf] = _env_value(f"{name}.{'.'.join(path)}", annotation, raw)
        if nested:
            whole = out.get(name)
            out[name] = _deep_update(whole, nested) if isinstance(whole, dict) else nested
    return out


def load_profile(path: str | Path | None = None, **overrides: Any) -> TillProfile:
    """Load the profile file (or none: training mode) and apply env overrides."""
    path = path or os.environ.get("CASHIER_PROFILE") or baked_profile_path() or None
    data: dict[str, Any] = {}
    source = "defaults"
    if path is not None:
        p = Path(path)
        source = str(p)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ProfileError([("profile", f"file not found: {p}")], source) from None
        except tomllib.TOMLDecodeError as exc:
            raise ProfileError([("profile", f"is not valid TOML: {exc}")], source) from None
        except UnicodeDecodeError:
            raise ProfileError([("profile", "is not a text file (TOML in UTF-8 expected): "
                                            "restore the till's profile")], source) from None
        except OSError as exc:
            raise ProfileError([("profile", f"cannot be read ({exc.strerror or exc})")],
                               source) from None
        data = _merge_till_table(data, source)
        secrets = sorted(k for k in data if k.lower() in FORBIDDEN_KEYS)
        secrets += [name for name, value in _strings(data) if looks_like_secret(value)
                    and name not in secrets]
        if secrets:
            raise ProfileError(
                [(k, "secrets never go in the profile file: use the OS keyring or an env var")
                 for k in secrets], source)
    else:
        data = {"training": True}
    data.update(overrides)
    data = _deep_update(data, environment_overrides())  # the environment wins, field by field
    try:
        return TillProfile(**data)
    except ValidationError as exc:
        raise ProfileError(_problems_from(exc), source) from None


def command_profile(args: Any) -> TillProfile:
    """The profile one command runs on (``--profile``, else ``CASHIER_PROFILE``, else training),
    loaded once for the command: its log file, its amounts' currency and its runtime all read
    the same load. Loading validates every field against the environment (about 2 ms of CPU),
    and a sale loaded it three times. A profile that does not load is not kept: each reader
    raises the same ``ProfileError``."""
    loaded: TillProfile | None = getattr(args, "loaded_profile", None)
    if loaded is None:
        loaded = load_profile(getattr(args, "profile", None))
        args.loaded_profile = loaded
    return loaded


def access_token_for(profile: TillProfile) -> str | None:
    """The access token: env first, then the OS keyring; never a file."""
    env = os.environ.get("CASHIER_ACCESS_TOKEN")
    if env:
        return env
    try:
        # lazy: keyring finds its backends on import (~200 ms measured), and the window's start
        # must not wait for it when the token is in the environment; see tests/core/test_lazy_imports.py
        import keyring

        return keyring.get_password(KEYRING_SERVICE, profile.till_id)
    except Exception:  # no usable keyring backend on this machine
        return None


def store_access_token(profile: TillProfile, token: str) -> None:
    """Keep the token in the OS keyring, the only place it is written."""
    import keyring  # lazy: see access_token_for

    keyring.set_password(KEYRING_SERVICE, profile.till_id, token)


def store_token_for(profile: TillProfile) -> str | None:
    """The till's store token: env first, then the OS keyring; never a file."""
    env = os.environ.get("CASHIER_STORE_TOKEN")
    if env:
        return env
    try:
        import keyring

        return keyring.get_password(STORE_KEYRING_SERVICE, profile.till_id)
    except Exception:  # no usable keyring backend on this machine
        return None


def hmac_secret_for(profile: TillProfile) -> bytes | None:
    env = os.environ.get("CASHIER_HMAC_SECRET")
    if env:
        return env.encode()
    if not profile.hmac_key_id:
        return None
    try:
        import keyring  # lazy: see access_token_for

        secret = keyring.get_password(KEYRING_SERVICE + "-hmac", profile.hmac_key_id)
    except Exception:
        return None
    return secret.encode() if secret else None
