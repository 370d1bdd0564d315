"""Server settings: what each Discord server (guild) chooses for itself, stored in the database.

Every setting is one entry of `SETTINGS`, a spec (key, what it decides, what it takes, how a typed value is
read and checked, how it is stored and shown, its default), so `/settings`, the terminal's `settings`, the
docs' table and every refusal come from the same place. Where an environment variable existed (MOD_ROLE,
HOUSE_WINS_WORDING, LIMIT_*), it is now the default of every server (`ServerDefaults`, built from the config
by the front-end); the others default to the constants of the module that uses them.

Values live in the `guild_settings` table (store migration 11), one row per server and key with who set it
and when; a reset keeps its row with no value, so who reset it is remembered too. Offline (the terminal:
guild None) is stored as server 0, as ratings and away time are, and only the settings marked `offline`
apply there (no roles, no channels, no limits offline).

The service reads them synchronously (a lobby's limit, a reminder's plan), so every stored value is loaded
at `start` and kept in memory; a change is one transaction, and memory follows once it has committed. With
several processes (bot/shards.py) a server's settings change only in the process that holds its shard
(Discord sends a server's commands to that shard, and the change is fenced by its lease), so memory stays
true there; a process that takes a shard over loads them again (`start`). The
concepts do not import this module: the facade hands each the reader it needs (`Limits` gets `limits`,
`Ratings` gets `rated`, ...), and what a setting changes is decided there.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot import i18n, posts
from bot.clock import ClockError, ClockSettings, TimeSource, parse_clock, parse_seconds
from bot.errors import ServiceError
from bot.i18n import N_, _, ngettext
from bot.models import Place, Player, UserLimits
from bot.reminders import IDLE_EVERY, IDLE_REMINDERS
from bot.service.away import AWAY_DAYS_A_YEAR
from bot.service.claims import CLAIM_AFTER
from bot.shards import EveryShard, NotOwner, Ownership
from bot.store import Store
from bot.wording import did_you_mean

log = logging.getLogger(__name__)

HOUR, DAY = 3_600.0, 86_400.0
NONE_WORDS = ("none", "off", "no")
"""Words for "no role" / "no clock"."""
HERE_WORDS = ("none", "here", "off")
"""Words for "no match channel: where each match is started"."""
ON, OFF = N_("on"), N_("off")
"""An on/off setting's values as shown (typed, they are always English: `read` takes on/off, yes/no...)."""
AUTO_WORDS = ("auto", "default", "discord", "none")
"""Words for "the server's language in Discord"."""


class BadSetting(ServiceError):
    """An unknown setting, or a value it does not take; nothing was stored."""


@dataclass(frozen=True, slots=True)
class ServerDefaults:
    """The defaults every server starts from: the environment's (bot/config.py), the constants otherwise."""

    mod_role: str | None = None
    """MOD_ROLE: the name of the moderator role (a server's own setting is a role id)."""
    house_wins: bool = True
    """HOUSE_WINS_WORDING."""
    limits: UserLimits = field(default_factory=UserLimits)
    """LIMIT_LOBBIES, LIMIT_CHALLENGES, LIMIT_COMPUTER_GAMES."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One server setting: its spec. `read` turns what a moderator typed (or what was stored: `dump`'s text)
    into the value, refusing with `BadSetting` in words that say what it takes."""

    key: str
    label: str
    """What it decides, in a few words: the line of `/settings show`, the choice of `/settings set` (English,
    marked for the catalog: `_(label)` says it in the reader's language)."""
    kind: str
    """role, channel, on/off, count, time, clock or language: how front-ends suggest values."""
    takes_text: str
    """What a value may be, for refusals, help and the docs: a catalog string, its fields filled by `takes_args`."""
    read: Callable[[str], Any]
    dump: Callable[[Any], str]
    show: Callable[[Any], str]
    default: Callable[[ServerDefaults], Any]
    default_text: str
    """The default as the docs say it (`MOD_ROLE`, `on (HOUSE_WINS_WORDING)`)."""
    examples: tuple[str, ...] = ()
    """Values a front-end may suggest."""
    offline: bool = True
    """Whether it means anything offline (the terminal has no roles, channels or limits)."""
    takes_args: Callable[[], dict[str, str]] = dict
    """The fields of `takes_text` in the reader's language (numbers and times formatted for the locale)."""

    @property
    def takes(self) -> str:
        """What a value may be, in the reader's language."""
        return _(self.takes_text).format(**self.takes_args())

    @property
    def said(self) -> str:
        """The label in the reader's language."""
        return _(self.label)

    def refuse(self, text: str) -> BadSetting:
        return BadSetting(
            _("{key} takes {takes}, not {value}; nothing changed.").format(
                key=self.key, takes=self.takes, value=_quote(text)
            )
        )


def _quote(text: str, limit: int = 40) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "…"


# --- the kinds of setting ---


def on_off_setting(
    key: str, label: str, default: Callable[[ServerDefaults], bool], default_text: str, **shown: str
) -> Setting:
    """on or off (yes/no, true/false, 1/0); `shown` may word each (`off=N_("off: ...")`)."""

    def read(text: str) -> bool:
        word = text.strip().lower()
        if word in ("on", "yes", "true", "1"):
            return True
        if word in ("off", "no", "false", "0"):
            return False
        raise setting.refuse(text)

    def show(value: bool) -> str:
        word = ON if value else OFF
        return _(shown.get(word, word))

    setting = Setting(
        key,
        label,
        "on/off",
        N_("on or off"),
        read,
        lambda v: "on" if v else "off",
        show,
        default,
        default_text,
        ("on", "off"),
    )
    return setting


def count_setting(
    key: str, label: str, low: int, high: int, default: Callable[[ServerDefaults], int], default_text: str, **extra: Any
) -> Setting:
    """A whole number from `low` to `high`."""

    def read(text: str) -> int:
        digits = text.strip()
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 6 and low <= int(digits) <= high):
            raise setting.refuse(text)
        return int(digits)

    setting = Setting(
        key,
        label,
        "count",
        N_("a whole number from {low} to {high}"),
        read,
        str,
        i18n.number,
        default,
        default_text,
        takes_args=lambda: {"low": i18n.number(low), "high": i18n.number(high)},
        **extra,
    )
    return setting


def time_setting(key: str, label: str, low: float, high: float, default: float, examples: tuple[str, ...]) -> Setting:
    """A time (bot/clock.py's `parse_seconds`: `12h`, `3d`, `1d12h`, a bare number of seconds), `low` to `high`."""

    def read(text: str) -> float:
        try:
            seconds = parse_seconds(text, key)
        except ClockError:
            raise setting.refuse(text) from None
        if not low <= seconds <= high:
            raise setting.refuse(text)
        return seconds

    setting = Setting(
        key,
        label,
        "time",
        N_("a time from {shortest} to {longest}, like {examples}"),
        read,
        lambda v: f"{v:g}",
        i18n.duration,
        lambda d: default,
        posts.wait_words(default),
        examples,
        takes_args=lambda: {
            "shortest": i18n.duration(low),
            "longest": i18n.duration(high),
            "examples": ", ".join(examples),
        },
    )
    return setting


def clock_setting(key: str, label: str) -> Setting:
    """A clock as `clock:` takes it (bot/clock.py's `parse_clock`: `1d/7d`, `10m`), or none."""

    def read(text: str) -> ClockSettings | None:
        if not text.strip():
            raise setting.refuse(text)
        try:
            return parse_clock(text)
        except ClockError as error:
            raise BadSetting(
                _("{key}: {error} Or none, for no clock; nothing changed.").format(key=key, error=error)
            ) from None

    def dump(value: ClockSettings | None) -> str:
        return "none" if value is None else f"{value.move_seconds:g}/{value.reserve_seconds:g}"

    def show(value: ClockSettings | None) -> str:
        return _("none (untimed)") if value is None else value.describe()

    setting = Setting(
        key,
        label,
        "clock",
        N_("a clock MOVE[/RESERVE] like 1d/7d, 12h or 10m/1h, or none"),
        read,
        dump,
        show,
        lambda d: None,
        "none (untimed)",
        ("none", "1d/7d", "1d", "12h/3d", "3d/14d", "10m/1h"),
    )
    return setting


_ID = re.compile(r"\d{1,20}")

Refer = Callable[[str, int], str]
"""How a front-end writes one of a server's roles or channels, by kind ("role", "channel") and id: Discord as
a mention. The service knows no mention syntax: a front-end turns what was typed into an id before it asks,
and gives its `Refer` where a setting is shown."""


def plain(kind: str, number: int) -> str:
    """A role or channel by its id, in words: how the service itself says it (`Refer`'s default)."""
    return _("role {id}").format(id=number) if kind == "role" else _("channel {id}").format(id=number)


def _snowflake(text: str) -> int | None:
    """A role's or channel's id, as a front-end gives it (digits), else None."""
    found = _ID.fullmatch(text.strip())
    number = int(found[0]) if found else 0
    return number if 0 < number < 2**63 else None


def role_setting(key: str, label: str) -> Setting:
    """A role by its id (the front-end turns a mention or a name into it), or none. The default may be a role's
    name (MOD_ROLE), which no moderator can type here."""

    def read(text: str) -> int | None:
        if text.strip().lower() in NONE_WORDS:
            return None
        number = _snowflake(text)
        if number is None:
            raise setting.refuse(text)
        return number

    def show(value: int | str | None) -> str:
        if value is None:
            return _("none (Manage Server only)")
        if isinstance(value, str):
            return _("the role named {name} (MOD_ROLE)").format(name=repr(value))
        return plain("role", value)

    setting = Setting(
        key,
        label,
        "role",
        N_("a role (mention it or give its id), or none for Manage Server only"),
        read,
        lambda v: "none" if v is None else str(v),
        show,
        lambda d: d.mod_role,
        "MOD_ROLE (a role name; none: Manage Server only)",
        offline=False,
    )
    return setting


def channel_setting(key: str, label: str) -> Setting:
    """A text channel by its id (the front-end turns a mention or a name into it), or here (none)."""

    def read(text: str) -> int | None:
        if text.strip().lower() in HERE_WORDS:
            return None
        number = _snowflake(text)
        if number is None:
            raise setting.refuse(text)
        return number

    def show(value: int | None) -> str:
        return _("the channel where each match is started") if value is None else plain("channel", value)

    setting = Setting(
        key,
        label,
        "channel",
        N_("a text channel (mention it or give its id), or here for the channel where each match is started"),
        read,
        lambda v: "here" if v is None else str(v),
        show,
        lambda d: None,
        "here: the channel where the start command is used",
        offline=False,
    )
    return setting


def language_setting(key: str, label: str) -> Setting:
    """One of the languages the bot speaks (bot/i18n.py), by code or name (`de`, `Deutsch`, `German`), or
    auto: Discord's language of the server (its guild_locale), else English."""
    names = {code.lower().replace("_", "-"): code for code in i18n.LANGUAGES}
    names |= {native.lower(): code for code, native in i18n.LANGUAGES.items()}
    names |= {"german": "de", "spanish": "es", "french": "fr", "portuguese": "pt_BR", "pt": "pt_BR", "es-es": "es"}

    def read(text: str) -> str | None:
        word = text.strip().lower().replace("_", "-")
        if word in AUTO_WORDS:
            return None
        if word not in names:
            raise setting.refuse(text)
        return names[word]

    def show(value: str | None) -> str:
        if value is None:
            return _("auto: the server's language in Discord, else English")
        return f"{i18n.LANGUAGES[value]} ({value.replace('_', '-')})"

    setting = Setting(
        key,
        label,
        "language",
        N_("auto, or a language: {languages}"),
        read,
        lambda v: "auto" if v is None else v,
        show,
        lambda d: None,
        "auto: the server's language in Discord (its guild locale), else English",
        ("auto", *(code.replace("_", "-") for code in i18n.LANGUAGES)),
        offline=False,
        takes_args=lambda: {"languages": ", ".join(c.replace("_", "-") for c in i18n.LANGUAGES)},
    )
    return setting


# --- the settings ---

MOD_ROLE, MATCH_CHANNEL, HOUSE_WINS, RATED = "mod_role", "match_channel", "house_wins", "rated"
DEFAULT_CLOCK, REMINDER_EVERY, REMINDER_COUNT = "default_clock", "reminder_every", "reminder_count"
AWAY_DAYS, CLAIM, LANGUAGE = "away_days", "claim_after", "language"
LIMIT_LOBBIES, LIMIT_CHALLENGES, LIMIT_COMPUTER_GAMES = "limit_lobbies", "limit_challenges", "limit_computer_games"

SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in (
        role_setting(MOD_ROLE, N_("the moderator role (Manage Server always moderates)")),
        channel_setting(MATCH_CHANNEL, N_("the channel where new matches open their threads")),
        on_off_setting(
            HOUSE_WINS,
            N_('a death match drawn after its last game says "by DM rules the house wins"'),
            lambda d: d.house_wins,
            "HOUSE_WINS_WORDING (on)",
        ),
        on_off_setting(
            RATED,
            N_("finished games change the players' ratings"),
            lambda d: True,
            "on",
            off=N_("off: games here are unrated, finished games change no ratings"),
        ),
        clock_setting(DEFAULT_CLOCK, N_("the clock of a casual match started without clock:")),
        time_setting(
            REMINDER_EVERY,
            N_("untimed games: remind the player to move after this, then every this"),
            HOUR,
            14 * DAY,
            IDLE_EVERY,
            ("12h", "1d", "3d"),
        ),
        count_setting(
            REMINDER_COUNT,
            N_("untimed games: reminders of one turn at most (0: none)"),
            0,
            10,
            lambda d: IDLE_REMINDERS,
            str(IDLE_REMINDERS),
            examples=("0", "1", "3", "5"),
        ),
        count_setting(
            AWAY_DAYS,
            N_("days of away time each player has a year (/away)"),
            0,
            366,
            lambda d: AWAY_DAYS_A_YEAR,
            str(AWAY_DAYS_A_YEAR),
            examples=("0", "7", "14", "30"),
        ),
        time_setting(
            CLAIM,
            N_("untimed games: an opponent may claim after this without a move"),
            HOUR,
            365 * DAY,
            CLAIM_AFTER,
            ("3d", "7d", "14d"),
        ),
        count_setting(
            LIMIT_LOBBIES,
            N_("open lobbies one person may have at once"),
            1,
            1000,
            lambda d: d.limits.lobbies,
            "LIMIT_LOBBIES (3)",
            examples=("1", "3", "10"),
            offline=False,
        ),
        count_setting(
            LIMIT_CHALLENGES,
            N_("challenges nobody accepted one person may have out (a day)"),
            1,
            1000,
            lambda d: d.limits.challenges,
            "LIMIT_CHALLENGES (5)",
            examples=("1", "5", "10"),
            offline=False,
        ),
        count_setting(
            LIMIT_COMPUTER_GAMES,
            N_("running games against the computer one person may have"),
            1,
            1000,
            lambda d: d.limits.computer_games,
            "LIMIT_COMPUTER_GAMES (3)",
            examples=("1", "3", "10"),
            offline=False,
        ),
        language_setting(LANGUAGE, N_("the language of public posts here: boards, reminders, results")),
    )
}
"""Every server setting, in the order `/settings show` lists them."""


def setting_named(key: str, offline: bool = False) -> Setting:
    """The setting called `key` (case and spaces do not count); refused naming them all (`offline`: those
    of the terminal), and the nearest if it looks like a typo."""
    name = key.strip().lower().replace("-", "_")
    if name not in SETTINGS:
        known = [k for k, setting in SETTINGS.items() if setting.offline or not offline]
        if offline:
            text = _("There is no setting {name}: the terminal's settings are {settings}.")
        else:
            text = _("There is no setting {name}: the settings are {settings}.")
        raise BadSetting(text.format(name=_quote(key), settings=", ".join(known)) + did_you_mean(name, known))
    return SETTINGS[name]


# --- what a server has ---


@dataclass(frozen=True, slots=True)
class SettingState:
    """One setting as a server has it: its value, whether that is the default, and who last changed it."""

    setting: Setting
    value: Any
    default: bool
    """True when no value is stored (never set, or reset): the default applies."""
    set_by: str | None = None
    """The player id of who last set or reset it (None: nobody ever did)."""
    set_at: float | None = None

    @property
    def shown(self) -> str:
        return self.setting.show(self.value)

    def shown_by(self, refer: Refer | None) -> str:
        """The value, a role or channel written as the front-end writes them (`refer`; None: in words)."""
        if refer is not None and self.setting.kind in ("role", "channel") and isinstance(self.value, int):
            return refer(self.setting.kind, self.value)
        return self.shown

    def line(self, who: str | None = None, when: str | None = None, refer: Refer | None = None) -> str:
        """`rated` (what it decides): its value, then "the default" or who set it (`who`, `when`, `refer` as
        the front-end writes a person, a time, a role or a channel)."""
        if self.default:
            how = _("the default")
        else:
            how = _("set by {who}").format(who=who) if who else _("set")
            how += f" {when}" if when else ""
        key = i18n.typed(self.setting.key)  # as `/settings set` takes it
        return f"{key} ({self.setting.said}): {self.shown_by(refer)} — {how}"


@dataclass(frozen=True, slots=True)
class SettingChange:
    """A setting set or reset: what it was and what it is now."""

    before: SettingState
    after: SettingState
    reset: bool = False

    @property
    def line(self) -> str:
        """`Set rated to off (was on, the default).`, `Reset rated to its default, on (was off).`"""
        return self.said(None)

    def said(self, refer: Refer | None) -> str:
        """`line`, a role or channel written as the front-end writes them (`refer`)."""
        key, before, after = self.after.setting.key, self.before.shown_by(refer), self.after.shown_by(refer)
        was = _("{value}, the default").format(value=before) if self.before.default else before
        if self.reset:
            return _("Reset {key} to its default, {value} (was {was}).").format(key=key, value=after, was=was)
        return _("Set {key} to {value} (was {was}).").format(key=key, value=after, was=was)


class Settings:
    """Every server's stored settings (a cache of the `guild_settings` table) and the typed readers the
    concepts are given."""

    def __init__(
        self,
        store: Store,
        time: TimeSource,
        defaults: ServerDefaults | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        self.store = store
        self.time = time
        self.defaults = defaults or ServerDefaults()
        self._values: dict[tuple[int, str], Any] = {}
        """(server, key) -> the value stored (servers as stored: 0 offline)."""
        self._rows: dict[tuple[int, str], tuple[str | None, float]] = {}
        """(server, key) -> who last set or reset it, and when."""
        self._lock = asyncio.Lock()
        self.ownership: Ownership = ownership or EveryShard()
        """Which servers' settings this process may change (their shard's lease, checked in the transaction)."""

    async def start(self) -> None:
        """Load every stored value (after a restart, and again when a shard is taken over: its servers may
        have changed them in the process that held it). A value this version no longer takes (a range
        narrowed) is logged and left out: the default applies until a moderator sets it again."""
        async with self._lock:
            values: dict[tuple[int, str], Any] = {}
            rows: dict[tuple[int, str], tuple[str | None, float]] = {}
            for guild, key, value, by, at in await self.store.load_settings():
                if key not in SETTINGS:
                    continue
                rows[(guild, key)] = (by, at)
                if value is None:
                    continue
                try:
                    values[(guild, key)] = SETTINGS[key].read(value)
                except BadSetting:
                    log.warning(
                        "server %s: stored %s %r is not a value it takes now; using the default", guild, key, value
                    )
            self._values, self._rows = values, rows

    # --- reading ---

    def get(self, guild_id: int | None, key: str) -> Any:
        stored = self._values.get((guild_id or 0, key), _DEFAULT)
        return SETTINGS[key].default(self.defaults) if stored is _DEFAULT else stored

    def state(self, guild_id: int | None, key: str) -> SettingState:
        where = (guild_id or 0, key)
        by, at = self._rows.get(where, (None, None))
        return SettingState(SETTINGS[key], self.get(guild_id, key), where not in self._values, by, at)

    def states(self, guild_id: int | None) -> list[SettingState]:
        """Every setting of a server (None: offline, only those that apply there), in `SETTINGS` order."""
        return [self.state(guild_id, key) for key, s in SETTINGS.items() if guild_id is not None or s.offline]

    def mod_role(self, guild_id: int | None) -> int | str | None:
        """The moderator role: a role id, a role's name (MOD_ROLE, the default), or None (Manage Server only)."""
        return self.get(guild_id, MOD_ROLE)  # type: ignore[no-any-return]

    def match_channel(self, guild_id: int | None) -> int | None:
        """The channel where new matches of this server open their threads (None: where each is started)."""
        return self.get(guild_id, MATCH_CHANNEL)  # type: ignore[no-any-return]

    def match_place(self, place: Place) -> Place:
        """Where a new match goes: its server's match channel, if one is set, instead of where it was started."""
        channel_id = self.match_channel(place.guild_id) if place.guild_id is not None else None
        if channel_id is None or place.thread_id is not None:
            return place
        return Place(place.guild_id, channel_id)

    def house_wins(self, guild_id: int | None) -> bool:
        return bool(self.get(guild_id, HOUSE_WINS))

    def rated(self, guild_id: int | None) -> bool:
        return bool(self.get(guild_id, RATED))

    def default_clock(self, guild_id: int | None) -> ClockSettings | None:
        return self.get(guild_id, DEFAULT_CLOCK)  # type: ignore[no-any-return]

    def idle_reminders(self, guild_id: int | None) -> tuple[float, int]:
        """Untimed games' reminders: the wait before the first (and between them), and how many at most."""
        return float(self.get(guild_id, REMINDER_EVERY)), int(self.get(guild_id, REMINDER_COUNT))

    def away_days(self, guild_id: int | None) -> int:
        return int(self.get(guild_id, AWAY_DAYS))

    def claim_after(self, guild_id: int | None) -> float:
        return float(self.get(guild_id, CLAIM))

    def language(self, guild_id: int | None) -> str | None:
        """The language a server chose for its public posts (bot/i18n.py's code), None for auto: Discord's
        language of the server (`i18n.server_language` decides with the guild's locale)."""
        return self.get(guild_id, LANGUAGE)  # type: ignore[no-any-return]

    def limits(self, guild_id: int | None) -> UserLimits:
        return UserLimits(
            int(self.get(guild_id, LIMIT_LOBBIES)),
            int(self.get(guild_id, LIMIT_CHALLENGES)),
            int(self.get(guild_id, LIMIT_COMPUTER_GAMES)),
        )

    # --- changing ---

    async def set(self, guild_id: int | None, key: str, text: str, by: Player) -> SettingChange:
        """Set a server's setting to what `text` says (refused in words, storing nothing, if it takes no
        such value); stored with who and when, and logged."""
        setting = self._settable(guild_id, key)
        value = setting.read(text)
        return await self._store(guild_id, setting, value, by)

    async def reset(self, guild_id: int | None, key: str, by: Player) -> SettingChange:
        """Put a server's setting back to its default (the row keeps who did it and when)."""
        return await self._store(guild_id, self._settable(guild_id, key), _DEFAULT, by)

    def _settable(self, guild_id: int | None, key: str) -> Setting:
        setting = setting_named(key, offline=guild_id is None)
        if guild_id is None and not setting.offline:
            offline = ", ".join(k for k, s in SETTINGS.items() if s.offline)
            why = _(OFFLINE_WHY.get(setting.kind, N_("it means nothing offline")))
            raise BadSetting(
                _("{key} is a Discord server's setting: {why}. The terminal's are {offline}.").format(
                    key=setting.key, why=why, offline=offline
                )
            )
        return setting

    async def _store(self, guild_id: int | None, setting: Setting, value: Any, by: Player) -> SettingChange:
        where = (guild_id or 0, setting.key)
        async with self._lock:
            before = self.state(guild_id, setting.key)
            now = self.time.now()
            text = None if value is _DEFAULT else setting.dump(value)
            async with self.store.transaction():
                try:
                    await self.ownership.fence(guild_id)
                except NotOwner:
                    raise NotOwner(
                        _(
                            "Another bot process serves this server now (its shard's lease is not held here): "
                            "nothing was changed. Try again in a moment."
                        )
                    ) from None
                await self.store.save_setting(where[0], setting.key, text, by.id, now)
            self._rows[where] = (by.id, now)
            if value is _DEFAULT:
                self._values.pop(where, None)
            else:
                self._values[where] = value
            after = self.state(guild_id, setting.key)
        change = SettingChange(before, after, reset=value is _DEFAULT)
        log.info(
            "server %s: %s (%s) %s %s to %s (was %s)",
            guild_id if guild_id is not None else "offline",
            by.name,
            by.id,
            "reset" if change.reset else "set",
            setting.key,
            after.setting.dump(after.value),
            before.setting.dump(before.value),
        )
        return change


_DEFAULT: Any = object()
"""No stored value: the default applies."""
OFFLINE_WHY = {
    "role": N_("offline there are no roles (whoever types at the terminal is its moderator)"),
    "channel": N_("offline there are no channels"),
    "count": N_("offline nothing is limited"),
    "language": N_("the terminal speaks the language of LANG"),
}


def settings_lines(
    states: list[SettingState],
    who: Callable[[str], str],
    when: Callable[[float], str],
    refer: Refer | None = None,
) -> list[str]:
    """`/settings show` and the terminal's `settings`: a line per setting; `who` writes who changed one (a
    player id), `when` the time and `refer` a role or channel, as the front-end writes them."""
    lines = []
    for state in states:
        by = who(state.set_by) if state.set_by else None
        at = when(state.set_at) if state.set_at is not None else None
        lines.append(f"• {state.line(by, at, refer)}")
    return lines


def changed_count(states: list[SettingState]) -> str:
    """`2 settings changed from the defaults` (or `every setting is the default`)."""
    changed = sum(not s.default for s in states)
    if not changed:
        return _("every setting is the default")
    return ngettext(
        "{count} setting changed from the defaults", "{count} settings changed from the defaults", changed
    ).format(count=i18n.number(changed))
