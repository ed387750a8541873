"""Server settings: every setting registered once, with its default, its check and its words.

The pattern of Red-DiscordBot's ``Config.register_guild``: :class:`GuildSettings` is the registry.
Each field is one setting, declared with :func:`setting` (its default, the check that turns a
value given by a moderator, or read back from the database, into the value in force or refuses it
with a clear message, and how it is shown). The database keeps only the values a moderator
changed (db/guild_settings.py), so a default changes here without touching any row.
:class:`GuildSettingsStore` reads them with the defaults filled in, checks changes all together
before writing any, and caches each server's settings.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Final

from game.rules import MAX_TARGET, Variant
from i18n import DEFAULT_LANGUAGE, Words, languages, words

from .computers import available_levels
from .refusals import Refusal
from .tables.state import TURN_TIMER_LIMITS

if TYPE_CHECKING:
    from db import Database

log = logging.getLogger(__name__)


class Invalid(ValueError):
    """A value a setting does not take: the catalogue message (under ``admin.invalid.``) that
    says why, with its parameters."""

    def __init__(self, reason: str, **params: object) -> None:
        super().__init__(reason)
        self.reason, self.params = reason, params


class SettingRefused(Refusal):
    """A change refused (nothing was written); the message names the setting and says why, in
    the reader's language."""

    def __init__(self, key: str, error: Invalid) -> None:
        super().__init__("admin.config.refused")
        self.key, self.error = key, error

    def text(self, language: str = DEFAULT_LANGUAGE) -> str:
        w = words(language)
        return w("admin.config.refused", setting=label(self.key, w),
                 why=w(f"admin.invalid.{self.error.reason}", **self.error.params))


Check = Callable[[Any], Any]
Show = Callable[[Any, Words], str]


def setting(default: Any, check: Check, show: Show) -> Any:
    """One registered setting: a dataclass field carrying its check and how it is shown."""
    return field(default=default, metadata={"check": check, "show": show})


# ---- checks: each returns the value in force, or raises Invalid ------------------------------
def whole(low: int, high: int, *, zero: bool = False) -> Check:
    """A whole number from ``low`` to ``high`` (and 0, meaning "none", when ``zero``)."""
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid("not_a_number")
        if not (low <= value <= high or (zero and value == 0)):
            raise Invalid("range_or_zero" if zero else "range", low=low, high=high, value=value)
        return value
    return check


def optional_whole(low: int, high: int) -> Check:
    inner = whole(low, high)
    return lambda value: None if value is None else inner(value)


def one_of(allowed: Callable[[], Iterable[str]], *, optional: bool = False) -> Check:
    """One of the names ``allowed()`` gives now (asked at each check: languages get added)."""
    def check(value: Any) -> str | None:
        if value is None and optional:
            return None
        names = tuple(allowed())
        if value not in names:
            raise Invalid("one_of", value=value, allowed=", ".join(names))
        assert isinstance(value, str)
        return value
    return check


def snowflake(value: Any) -> int | None:
    """A Discord id (a role, a channel), or None for none."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise Invalid("not_an_id")
    return value


def snowflakes(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise Invalid("not_an_id")
    ids: list[int] = []
    for item in value:
        checked = snowflake(item)
        if checked is not None and checked not in ids:
            ids.append(checked)
    if len(ids) > MAX_CHANNELS:
        raise Invalid("too_many_channels", high=MAX_CHANNELS)
    return tuple(ids)


# ---- how values are shown --------------------------------------------------------------------
def plain(value: Any, w: Words) -> str:
    return str(value)


def minutes(value: Any, w: Words) -> str:
    return w.plural("admin.show.minutes", int(value))


def seconds_or_off(value: Any, w: Words) -> str:
    return w("admin.show.off") if not value else w.plural("admin.show.seconds", int(value))


def channels_or_any(value: Any, w: Words) -> str:
    return " ".join(f"<#{c}>" for c in value) if value else w("admin.show.any_channel")


def channel_or_none(value: Any, w: Words) -> str:
    return f"<#{value}>" if value else w("admin.show.none")


def role_or_none(value: Any, w: Words) -> str:
    return f"<@&{value}>" if value else w("admin.show.no_role")


def target_or_variant(value: Any, w: Words) -> str:
    return str(value) if value else w("admin.show.variant_target")


def level_or_bot(value: Any, w: Words) -> str:
    return str(value) if value else w("admin.show.bot_level")


def no_show_choice(value: Any, w: Words) -> str:
    return w(f"tournaments.no_show.{value}")


def language_or_auto(value: Any, w: Words) -> str:
    return w("admin.show.language_auto") if value == AUTO_LANGUAGE \
        else w(f"commands.choice.language.{value}")


def percent(value: Any, w: Words) -> str:
    return w("admin.show.prize_split", first=int(value), second=100 - int(value))


def credits(value: Any, w: Words) -> str:
    return w.plural("credits.amount", int(value))


def on_off(key: str) -> Show:
    return lambda value, w: w(f"admin.{key}.{value}")


def season_length(value: Any, w: Words) -> str:
    return w(f"seasons.length.{value}")


def variant_title(value: Any, w: Words) -> str:
    return w(f"image.variant.{value}")


MAX_CHANNELS: Final = 25
# The language setting's default: the server's preferred locale when the bot speaks it, else
# English (cogs/common.table_language). Any language code forces that language.
AUTO_LANGUAGE: Final = "auto"
NO_SHOW_CHOICES: Final = ("computer", "cancel")
SEASON_LENGTHS: Final = ("off", "week", "month", "quarter")
LOW_TIMER, HIGH_TIMER = TURN_TIMER_LIMITS


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """The settings in force in one server. Every default is here, and only here."""

    # Where /belote new may open a table; empty: any channel.
    channels: tuple[int, ...] = setting((), snowflakes, channels_or_any)
    # What /belote new opens when its options are not given.
    variant: str = setting(Variant.CLASSIC.value,
                           one_of(lambda: (v.value for v in Variant)), variant_title)
    target: int | None = setting(None, optional_whole(1, MAX_TARGET), target_or_variant)
    turn_timer: int = setting(0, whole(LOW_TIMER, HIGH_TIMER, zero=True), seconds_or_off)
    computer_level: str | None = setting(None, one_of(available_levels, optional=True),
                                         level_or_bot)
    # How long a lobby may wait to start, and a started table without a human action.
    lobby_minutes: int = setting(30, whole(1, 24 * 60), minutes)
    idle_minutes: int = setting(60, whole(1, 24 * 60), minutes)
    # Turns a player may miss in a row before a computer takes their seat over.
    away_turns: int = setting(3, whole(1, 20), plain)
    # Whether a person's only legal card is played for them after a short beat (new tables).
    autoplay: str = setting("on", one_of(lambda: ("on", "off")), on_off("autoplay"))
    # Whether every match is analysed at its end (service/analysis.py), or only when someone asks
    # for its Analysis page (/belote replay).
    analysis: str = setting("off", one_of(lambda: ("on", "off")), on_off("analysis"))
    max_tables_channel: int = setting(10, whole(1, 100), plain)
    max_tables_server: int = setting(50, whole(1, 1000), plain)
    # Members with this role are moderators, as are those with Manage Server.
    moderator_role: int | None = setting(None, snowflake, role_or_none)
    # Where moderator actions and automatic closings are posted; None: nowhere.
    log_channel: int | None = setting(None, snowflake, channel_or_none)
    language: str = setting(AUTO_LANGUAGE, one_of(lambda: (AUTO_LANGUAGE, *languages())),
                            language_or_auto)
    # An entrant not there when a tournament starts: a computer plays for them ("computer"),
    # or the tournament is cancelled ("cancel").
    tournament_no_show: str = setting("computer", one_of(lambda: NO_SHOW_CHOICES),
                                      no_show_choice)
    # Virtual credits (no money value): given once to each member, and each day on asking
    # (/belote daily; 0: no daily bonus).
    # A tournament's prize pool (its entry fees): the winners' percentage, the rest to the
    # runners-up.
    tournament_prize_split: int = setting(70, whole(50, 100), percent)
    starting_credits: int = setting(1000, whole(0, 1_000_000), credits)
    daily_bonus: int = setting(100, whole(0, 100_000), credits)
    # Seasons (service/seasons.py): their length, UTC ("off": none), and the role their
    # champions wear until the next season ends (None: no role).
    season_length: str = setting("month", one_of(lambda: SEASON_LENGTHS), season_length)
    season_role: int | None = setting(None, snowflake, role_or_none)
    # Where the bot posts for everybody: a season's podium, the daily deal's board; None: the
    # log channel (and nowhere without one).
    announce_channel: int | None = setting(None, snowflake, channel_or_none)


DEFAULTS: Final = GuildSettings()
KEYS: Final = tuple(f.name for f in fields(GuildSettings))


def check(key: str, value: Any) -> Any:
    """The value ``key`` takes for ``value``; raises Invalid (or KeyError for no such key)."""
    meta = next(f.metadata for f in fields(GuildSettings) if f.name == key)
    return meta["check"](value)


def show(key: str, value: Any, w: Words) -> str:
    meta = next(f.metadata for f in fields(GuildSettings) if f.name == key)
    shown: str = meta["show"](value, w)
    return shown


def label(key: str, w: Words) -> str:
    return w(f"admin.setting.{key}")


def from_stored(stored: Mapping[str, Any]) -> GuildSettings:
    """The settings in force for what the database holds: an unknown key (a setting since
    removed) is ignored, an unusable value (a language since removed) gives the default."""
    values: dict[str, Any] = {}
    for key, value in stored.items():
        if key not in KEYS:
            continue
        try:
            values[key] = check(key, value)
        except Invalid as e:
            log.warning("stored setting %s=%r is not usable (%s): default used", key, value,
                        e.reason)
    return replace(DEFAULTS, **values)


def to_stored(key: str, value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class Change:
    key: str
    before: Any
    after: Any


class GuildSettingsStore:
    """Each server's settings, read once and then kept: the process that runs a server is the
    only one its commands reach, so its only writer. A process that does not run a server
    (several shards on one database) reads its settings with :meth:`stored` instead."""

    def __init__(self, db: Database) -> None:
        self.repo = db.settings
        self._cache: dict[int, GuildSettings] = {}

    async def get(self, guild_id: int) -> GuildSettings:
        cached = self._cache.get(guild_id)
        if cached is None:
            cached = self._cache[guild_id] = from_stored(await self.repo.load(guild_id))
        return cached

    async def stored(self, guild_id: int) -> GuildSettings:
        """The settings as stored now, read and not kept: for a server another process runs,
        whose moderator may have changed them there since."""
        return from_stored(await self.repo.load(guild_id))

    async def change(self, guild_id: int, values: Mapping[str, Any],
                     reset: Iterable[str] = ()) -> tuple[GuildSettings, list[Change]]:
        """Check every value, then write them all (``reset``: back to their defaults); a value
        refused raises SettingRefused and nothing is written. Returns the settings now in force
        and what actually changed."""
        checked: dict[str, Any] = {}
        for key, value in values.items():
            try:
                checked[key] = check(key, value)
            except Invalid as e:
                raise SettingRefused(key, e) from None
        reset = [key for key in reset if key not in checked]
        unknown = [key for key in (*checked, *reset) if key not in KEYS]
        if unknown:
            raise ValueError(f"no such setting: {unknown}")
        before = await self.get(guild_id)
        stored = await self.repo.change(
            guild_id, {k: to_stored(k, v) for k, v in checked.items()}, reset)
        after = self._cache[guild_id] = from_stored(stored)
        changes = [Change(key, getattr(before, key), getattr(after, key)) for key in KEYS
                   if getattr(before, key) != getattr(after, key)]
        return after, changes
