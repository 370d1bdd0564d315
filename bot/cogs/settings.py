"""/settings: a server's own settings for the bot (bot/service/settings.py keeps them, one spec each).

`/settings show` is for everyone; `/settings set` and `/settings reset` are for moderators (Manage Server, or
the server's moderator role: the `mod_role` setting itself). Every answer is ephemeral. Discord knows what the
service cannot: a role or channel typed by name becomes its id here, and a role or channel that is not this
server's, @everyone as the moderator role, or a channel where the bot cannot post boards is refused here,
before the service stores anything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_app, discord_ids, i18n
from bot import discord_limits as limits
from bot.cogs.base import Refusal, server_id
from bot.cogs.mod import require_moderator
from bot.cogs.places import channel_problem, thread_note
from bot.i18n import _
from bot.service import SETTINGS, MatchService, Setting, SettingState
from bot.service.settings import HERE_WORDS, NONE_WORDS, changed_count, settings_lines

SETTING_CHOICES = [
    app_commands.Choice(name=limits.shorten(f"{key}: {setting.label}", limits.CHOICE), value=key)
    for key, setting in SETTINGS.items()
]
"""The settings to choose from (Discord offers at most 25 choices; there are fewer)."""
_ID = re.compile(r"<(?:@&|#)(\d{1,20})>|(\d{1,20})")
Named = TypeVar("Named", discord.Role, discord.TextChannel)


def who(player_id: str) -> str:
    """Who changed a setting, as /settings show names them: a mention (it pings nobody in an ephemeral answer)."""
    kind, _, raw = player_id.partition(":")
    return f"<@{raw}>" if kind == "discord" and raw.isdigit() else limits.neutral(raw or player_id)


def when(at: float) -> str:
    return f"<t:{int(at)}:R>"


def mention(kind: str, number: int) -> str:
    """A server's role or channel as Discord writes it (the service's `Refer`): a mention, which pings nobody
    in these answers (no mentions allowed)."""
    return f"<@&{number}>" if kind == "role" else f"<#{number}>"


def show_text(states: list[SettingState]) -> str:
    head = _(
        "This server's settings ({changed}). Moderators change one with `/settings set` and put it"
        " back with `/settings reset`."
    ).format(changed=changed_count(states))
    return limits.clip("\n".join([head, *settings_lines(states, who, when, mention)]))


class SettingsCog(commands.GroupCog, group_name="settings", group_description="This server's settings for the bot"):
    """No default_permissions: everyone may see the settings; set and reset check for a moderator."""

    def __init__(self, bot: discord_app.GameBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> MatchService:
        return self.bot.matches

    @app_commands.command(name="show", description="This server's settings: each value, and whether it is the default")
    async def show(self, interaction: discord.Interaction) -> None:
        states = self.service.settings.states(server_id(interaction))
        await interaction.response.send_message(show_text(states), ephemeral=True, allowed_mentions=limits.NOBODY)

    @app_commands.command(name="set", description="Moderators: change one of this server's settings")
    @app_commands.describe(setting="which setting", value="its new value (the suggestions fit the setting chosen)")
    @app_commands.choices(setting=SETTING_CHOICES)
    async def set_value(
        self, interaction: discord.Interaction, setting: str, value: app_commands.Range[str, 1, 100]
    ) -> None:
        guild_id = server_id(interaction)
        require_moderator(interaction)
        spec = SETTINGS[setting]
        text = self._resolved(interaction, spec, value)
        change = await self.service.settings.set(guild_id, setting, text, discord_ids.player(interaction.user))
        note = None
        if spec.kind == "channel" and interaction.guild is not None and change.after.value is not None:
            note = thread_note(interaction.guild, change.after.value)
        answer = change.said(mention) if note is None else f"{change.said(mention)}\n{note}"
        await interaction.response.send_message(limits.clip(answer), ephemeral=True, allowed_mentions=limits.NOBODY)

    @set_value.autocomplete("value")
    async def value_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Values that fit the setting chosen: on/off, examples, the server's roles or text channels, the
        languages."""
        key = getattr(interaction.namespace, "setting", None)
        spec = SETTINGS.get(key) if isinstance(key, str) else None
        if spec is None or interaction.guild is None:
            return []
        offered: list[tuple[str, str]] = []
        if spec.kind == "role":
            offered = [(_("none (Manage Server only)"), "none")]
            roles = [r for r in interaction.guild.roles if not r.is_default()]
            offered += [(i18n.typed(f"@{r.name}"), f"<@&{r.id}>") for r in roles]
        elif spec.kind == "channel":
            offered = [(_("here (where each match is started)"), "here")]
            offered += [(i18n.typed(f"#{c.name}"), f"<#{c.id}>") for c in interaction.guild.text_channels]
        elif spec.kind == "language":  # each language by its own name: a reader of it finds it
            offered = [(spec.show(None), "auto")]
            offered += [(i18n.typed(spec.show(code)), code.replace("_", "-")) for code in i18n.LANGUAGES]  # endonyms
        else:
            offered = [(i18n.typed(example), example) for example in spec.examples]  # values as typed
        typed = current.strip().lower()
        found = [(n, v) for n, v in offered if typed in n.lower() or typed in v.lower()]
        if typed and not any(v.lower() == typed for _, v in found):
            found.insert(0, (i18n.typed(current.strip()), current.strip()))  # what was typed, for the service to judge
        return [
            app_commands.Choice(name=limits.shorten(name, limits.CHOICE), value=value[: limits.CHOICE])
            for name, value in found[: limits.CHOICES]
        ]

    @app_commands.command(name="reset", description="Moderators: put one of this server's settings back to its default")
    @app_commands.describe(setting="which setting")
    @app_commands.choices(setting=SETTING_CHOICES)
    async def reset(self, interaction: discord.Interaction, setting: str) -> None:
        guild_id = server_id(interaction)
        require_moderator(interaction)
        change = await self.service.settings.reset(guild_id, setting, discord_ids.player(interaction.user))
        await interaction.response.send_message(change.said(mention), ephemeral=True, allowed_mentions=limits.NOBODY)

    def _resolved(self, interaction: discord.Interaction, spec: Setting, value: str) -> str:
        """A role or channel as the service takes it (its id), found by mention, id or name and checked
        against this server; any other setting's value is the service's to read."""
        text = value.strip()
        guild = interaction.guild
        if guild is None or spec.kind not in ("role", "channel"):
            return text
        if text.lower() in (NONE_WORDS if spec.kind == "role" else HERE_WORDS):
            return text
        found = _ID.fullmatch(text)
        if spec.kind == "role":
            if found:
                role = guild.get_role(int(found[1] or found[2]))
            else:  # by name, "@everyone" included
                role = _named(guild.roles, text) or _named(guild.roles, text.removeprefix("@"))
            if role is None:
                raise Refusal(
                    _(
                        "There is no role {name} in this server: mention the role (@Role), give its id, or"
                        " say none (Manage Server only). Nothing changed."
                    ).format(name=_shown(text))
                )
            if role.is_default():
                raise Refusal(_("@everyone cannot be the moderator role: everyone would moderate. Nothing changed."))
            return str(role.id)
        channel_id = int(found[1] or found[2]) if found else None
        if channel_id is None:
            named_channel = _named(guild.text_channels, text.removeprefix("#"))
            if named_channel is None:
                raise Refusal(
                    _(
                        "There is no text channel {name} in this server: mention it (#channel), give its id,"
                        " or say here (where each match is started). Nothing changed."
                    ).format(name=_shown(text))
                )
            channel_id = named_channel.id
        if (problem := channel_problem(guild, channel_id)) is not None:
            raise Refusal(_("Matches cannot go there: {problem}. Nothing changed.").format(problem=problem))
        return str(channel_id)


def _named(items: Sequence[Named], name: str) -> Named | None:
    """The one role or channel called `name` (case does not count); None if there is none. Several of that
    name are refused: only a mention or an id says which."""
    matching = [item for item in items if item.name.casefold() == name.strip().casefold()]
    if len(matching) > 1:
        raise Refusal(
            _("Several are named {name} here: mention the one you mean. Nothing changed.").format(name=_shown(name))
        )
    return matching[0] if matching else None


def _shown(text: str) -> str:
    """Typed text quoted in a refusal, with any mention made inert."""
    return limits.neutral(repr(text if len(text) <= 40 else text[:40] + "…"))


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(SettingsCog(bot))
