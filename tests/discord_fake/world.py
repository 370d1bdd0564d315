"""The people and places a test sets up and changes: users, guilds, members, channels and threads,
the failures a test arranges, and permissions."""

from __future__ import annotations

import http
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from tests import strays
from tests.discord_fake.constants import (
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    DM,
    EVERYONE_PERMISSIONS,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILDS,
    MODERATOR_PERMISSIONS,
    PRIVATE_THREAD,
    TEXT,
)
from tests.discord_fake.errors import _ApiError
from tests.discord_fake.model import FakeChannel, FakeGuild, FakeMessage, RecordedRequest, _Failure, _now_iso, shard_of

if TYPE_CHECKING:
    pass


class _World:
    """Users, guilds, channels and the changes a test makes to them (mixed into `DiscordFake`)."""

    # --- people and places -----------------------------------------------------------------------

    def _snowflake(self, ago: float = 0.0) -> int:
        """Ids encode the current time like Discord's (so ``created_at`` works) and always increase; ``ago``
        seconds: an id made that long ago (an interaction delivered late), unique but not the newest."""
        now = datetime.now(UTC) + timedelta(seconds=self.clock_ahead)
        if ago > 0:
            self._back_ids += 1
            return discord.utils.time_snowflake(now - timedelta(seconds=ago)) + (1 << 21) + self._back_ids % (1 << 21)
        self._last_id = max(discord.utils.time_snowflake(now), self._last_id + 1)
        return self._last_id

    def advance_clock(self, seconds: float) -> None:
        """Discord's clock runs ``seconds`` further ahead of the wall clock from now on: the ids made next, and
        so the timestamps of new messages and interactions, carry the later time. A test that moves the bot's
        fake clock (`GameBot.time`) by days moves Discord's with it, so a board posted after that is dated then."""
        if seconds < 0:
            raise ValueError("Discord's clock only goes forward (ids always increase)")
        self.clock_ahead += seconds

    def add_user(self, name: str, *, global_name: str | None = None) -> dict[str, Any]:
        """A user known to the fake (and a member of guilds added afterwards).

        ``global_name`` is the display name (default: the name in title case), at most 32 characters.
        """
        global_name = name.title() if global_name is None else global_name
        if not 1 <= len(global_name) <= 32:
            raise ValueError(f"a display name has 1 to 32 characters, got {len(global_name)}")
        user: dict[str, Any] = {
            "id": str(self._snowflake()),
            "username": name,
            "discriminator": "0",
            "global_name": global_name,
            "avatar": None,
            "bot": False,
            "public_flags": 0,
        }
        self.users[name] = user
        self._users_by_id[int(user["id"])] = user
        return user

    def user(self, name: str) -> dict[str, Any]:
        """A user payload by name (``alice``, ``bob``, ``carol``, ``mod``, ``owner`` by default)."""
        try:
            return self.users[name]
        except KeyError:
            raise KeyError(f"no user {name!r}; users: {sorted(self.users)}") from None

    def add_guild(
        self, name: str, *, channels: Sequence[str] = ("general",), shard: tuple[int, int] | None = None
    ) -> FakeGuild:
        """A guild with @everyone, Moderator (Manage Server) and bot roles, text channels and all users;
        `shard` (id, count): an id that puts it on that shard."""
        guild_id = self._snowflake()
        while shard is not None and shard_of(guild_id, shard[1]) != shard[0]:
            self._last_id = guild_id = guild_id + (1 << 22)  # a millisecond later

        def role(role_id: int, role_name: str, permissions: int, position: int, **extra: Any) -> dict[str, Any]:
            return {
                "id": str(role_id),
                "name": role_name,
                "permissions": str(permissions),
                "position": position,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "icon": None,
                "unicode_emoji": None,
                "flags": 0,
                **extra,
            }

        moderator = role(self._snowflake(), "Moderator", MODERATOR_PERMISSIONS, 1)
        bot_role = role(self._snowflake(), self.bot_user["username"], BOT_PERMISSIONS, 2, managed=True)
        bot_role["tags"] = {"bot_id": str(self.application_id)}
        guild = FakeGuild(
            id=guild_id,
            name=name,
            owner_id=int(self.users["owner"]["id"]),
            roles=[role(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0), moderator, bot_role],
            channel_ids=[],
            members={},
        )
        for position, channel_name in enumerate(channels):
            channel = FakeChannel(
                id=self._snowflake(), type=TEXT, name=channel_name, guild_id=guild_id, position=position
            )
            self.channels[channel.id] = channel
            guild.channel_ids.append(channel.id)
        for user_name, user in self.users.items():
            roles = [moderator["id"]] if user_name in self._moderators else []
            guild.members[int(user["id"])] = self._new_member(user, roles)
        guild.members[self.application_id] = self._new_member(self.bot_user, [bot_role["id"]])
        self.guilds.append(guild)
        return guild

    @staticmethod
    def _new_member(user: dict[str, Any], roles: list[str]) -> dict[str, Any]:
        return {
            "user": user,
            "roles": roles,
            "nick": None,
            "avatar": None,
            "joined_at": _now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }

    @property
    def guild(self) -> FakeGuild:
        """The first (default) guild."""
        return self.guilds[0]

    def _guild(self, guild_id: int | str | None) -> FakeGuild:
        for guild in self.guilds:
            if guild.id == int(guild_id or 0):
                return guild
        raise _ApiError(404, 10004, "Unknown Guild")

    def set_locale(self, user: str | int | dict[str, Any], locale: str) -> None:
        """The language of the user's Discord client (each interaction's ``locale``, unless one is given)."""
        self.locales[self._user_id(user)] = locale

    def people_names(self) -> set[str]:
        """Every name a person goes by here (user names, display names, nicknames): words no catalog holds."""
        users = self._users_by_id.values()
        names = {name for user in users for name in (user.get("username"), user.get("global_name"))}
        names |= {member.get("nick") for guild in self.guilds for member in guild.members.values()}
        return {name for name in names | self.other_names | strays.COMPUTER_NAMES if name}

    def member(self, user: str | dict[str, Any], guild: FakeGuild | None = None) -> dict[str, Any]:
        """A member payload (with ``user``) of the default guild."""
        guild = guild or self.guild
        return guild.members[self._user_id(user)]

    def _user_id(self, user: str | int | dict[str, Any]) -> int:
        if isinstance(user, dict):
            return int(user["id"])
        if isinstance(user, int):
            return user
        return int(self.user(user)["id"])

    def channel(self, channel: str | int | FakeChannel | None = None) -> FakeChannel:
        """A channel or thread by name or id (the default guild's first text channel when None)."""
        if isinstance(channel, FakeChannel):
            return channel
        if channel is None:
            return self.channels[self.guild.channel_ids[0]]
        for candidate in self.channels.values():
            if not candidate.deleted and (candidate.id == channel or candidate.name == channel):
                return candidate
        names = [c.name for c in self.channels.values() if not c.deleted]
        raise KeyError(f"no channel {channel!r}; channels: {names}")

    @property
    def threads(self) -> list[FakeChannel]:
        """Threads in creation order (deleted ones left out)."""
        return [c for c in self.channels.values() if c.is_thread and not c.deleted]

    def thread(self, name: str) -> FakeChannel:
        for candidate in self.threads:
            if candidate.name == name:
                return candidate
        raise KeyError(f"no thread {name!r}; threads: {[t.name for t in self.threads]}")

    def channel_messages(
        self, channel: str | int | FakeChannel, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Messages in a channel or thread, oldest first, without deleted (and ephemeral) ones."""
        channel_id = self.channel(channel).id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """The commands the bot synced: global ones (``guild=None``) or a guild's."""
        key = guild.id if isinstance(guild, FakeGuild) else guild
        return list(self.registered_commands.get(key, []))

    def requests_to(self, method: str, path_pattern: str) -> list[RecordedRequest]:
        """Recorded requests whose path matches the regular expression (``re.search``)."""
        return [r for r in self.requests if r.method == method and re.search(path_pattern, r.path)]

    def dm_channel(self, user: str | int | dict[str, Any]) -> FakeChannel:
        """The DM channel between ``user`` and the bot (type 1), opened on first use as Discord does."""
        user_id = self._user_id(user)
        for place in self.channels.values():
            if place.type == DM and int(place.recipients[0]["id"]) == user_id:
                return place
        recipient = self._users_by_id[user_id]
        place = FakeChannel(
            id=self._snowflake(), type=DM, name=f"dm-{recipient['username']}", guild_id=None, recipients=[recipient]
        )
        self.channels[place.id] = place
        return place

    def pinged(self, user: str | int | dict[str, Any]) -> list[FakeMessage]:
        """Messages that notified ``user``, oldest first (deleted ones too: the notification went out)."""
        user_id = self._user_id(user)
        return [m for m in self.messages.values() if user_id in m.pings.users]

    def unsafe_pings(self) -> list[FakeMessage]:
        """The bot's messages that pinged @everyone, @here or a role (DESIGN.md: never)."""
        return [m for m in self.messages.values() if m.pings.unsafe and int(m.author["id"]) == self.application_id]

    # --- failures and changes a test arranges ----------------------------------------------------

    def fail_next(
        self,
        method: str,
        path_pattern: str,
        status: int,
        code: int | None = None,
        message: str | None = None,
        count: int = 1,
    ) -> None:
        """The next ``count`` ``method`` requests whose path (relative to /api/v10) matches ``path_pattern``
        (``re.search``) answer ``status`` with Discord's JSON error body, before any other check.

        Defaults by status: 403 -> 50013 "Missing Permissions", 404 -> 10003 "Unknown Channel", 5xx -> 0
        "Internal Server Error". Mind discord.py's retries: its REST client retries 500, 502, 504 and 524
        (sleeping 1, 3, 5, 7 s; 5 tries) and raises 503 at once, while its webhook client (interaction
        callbacks, followups, ``@original``) retries every 5xx, 503 included. Rate limits (429) are not modelled.
        """
        if status == 429:
            raise ValueError("the fake does not model rate limits (discord.py would wait for retry_after)")
        defaults = {403: (50013, "Missing Permissions"), 404: (10003, "Unknown Channel")}
        phrase = "Internal Server Error" if status >= 500 else http.HTTPStatus(status).phrase
        default_code, default_message = defaults.get(status, (0, phrase))
        error = _ApiError(status, default_code if code is None else code, message or default_message, expected=True)
        self._failures.append(_Failure(method.upper(), re.compile(path_pattern), error, count))

    def forbid(self, channel: str | int | FakeChannel) -> None:
        """Take Send Messages away from the bot in ``channel`` (a moderator's overwrite) until `allow`.

        Posting a message or creating a thread there answers 403 50013 Missing Permissions, and interactions
        there carry ``app_permissions`` without it. Interaction responses still work: they go through the
        interaction's webhook, which channel permissions do not govern.
        """
        self._forbidden.add(self.channel(channel).id)

    def allow(self, channel: str | int | FakeChannel) -> None:
        """Give back what `forbid` took."""
        self._forbidden.discard(self.channel(channel).id)

    def close_dms(self, user: str | int | dict[str, Any]) -> None:
        """The user turns off "Allow direct messages from server members" (or blocks the bot) until `open_dms`.

        Opening the DM channel still works, as on Discord; posting in it answers 403 50007 "Cannot send
        messages to this user".
        """
        self._dms_closed.add(self._user_id(user))

    def open_dms(self, user: str | int | dict[str, Any]) -> None:
        """Give back what `close_dms` took."""
        self._dms_closed.discard(self._user_id(user))

    async def lock_thread(self, thread: str | int | FakeChannel) -> None:
        """Lock and archive a thread as a moderator does (THREAD_UPDATE dispatched).

        The bot has no Manage Threads, so it can no longer post there: Discord answers 400 50083 "Thread is
        archived" for a locked and archived thread (what its API returns; see discord/discord-api-docs
        issues 5517 and 6884), and 400 160005 "Thread is locked" once the bot has unarchived it (it may, as
        the thread's creator, by PATCHing ``archived: false``). Editing its messages there answers 50083.
        """
        place = self._thread(thread)
        place.locked = place.archived = True
        await self._dispatch("THREAD_UPDATE", place.payload(), intent=INTENT_GUILDS)

    async def archive(self, thread: str | int | FakeChannel) -> None:
        """Archive a thread as Discord does after inactivity (THREAD_UPDATE dispatched).

        The bot posting a message there unarchives it; editing a message there answers 400 50083 "Thread is
        archived" (the bot should unarchive first), which counts as a rejection.
        """
        place = self._thread(thread)
        place.archived = True
        await self._dispatch("THREAD_UPDATE", place.payload(), intent=INTENT_GUILDS)

    async def delete_channel(self, channel: str | int | FakeChannel) -> None:
        """Delete a channel or thread as a moderator does (CHANNEL_DELETE / THREAD_DELETE dispatched).

        Every route on it, its messages included, then answers 404 10003 Unknown Channel. A channel's
        threads go with it.
        """
        await self._remove_channel(self.channel(channel))

    async def remove_member(self, user: str | int | dict[str, Any], guild: FakeGuild | None = None) -> None:
        """The user left the server: GUILD_MEMBER_REMOVE (with the members intent), GET member answers 404
        10007 Unknown Member, and they are gone from its threads."""
        guild = guild or self.guild
        user_id = self._user_id(user)
        member = guild.members.pop(user_id, None)
        if member is None:
            raise ValueError(f"{user!r} is not a member of {guild.name!r}")
        guild.left.add(user_id)
        for thread in self.threads:
            if thread.guild_id == guild.id:
                thread.member_ids.discard(user_id)
        data = {"guild_id": str(guild.id), "user": member["user"]}
        await self._dispatch("GUILD_MEMBER_REMOVE", data, intent=INTENT_GUILD_MEMBERS)

    async def set_nick(
        self, user: str | int | dict[str, Any], nick: str | None, guild: FakeGuild | None = None
    ) -> None:
        """Set a member's server nickname (None clears it): interactions carry it in ``member.nick``, so
        discord.py's ``Member.display_name`` returns it; GUILD_MEMBER_UPDATE goes out with the members intent."""
        if nick is not None and not 1 <= len(nick) <= 32:
            raise ValueError(f"a nickname has 1 to 32 characters, got {len(nick)}")
        guild = guild or self.guild
        member = self.member(user, guild)
        member["nick"] = nick
        data = dict(member, guild_id=str(guild.id))
        await self._dispatch("GUILD_MEMBER_UPDATE", data, intent=INTENT_GUILD_MEMBERS)

    def age_interactions(self, seconds: float) -> None:
        """Make every interaction so far ``seconds`` older: 3 to miss the first answer, 900 to expire tokens."""
        for record in self._interactions.values():
            record.sent_at -= seconds

    def _thread(self, thread: str | int | FakeChannel) -> FakeChannel:
        place = self.channel(thread)
        if not place.is_thread:
            raise TypeError(f"{place.name!r} is not a thread")
        return place

    # --- permissions -----------------------------------------------------------------------------

    def allow_command(self, name: str, user: str) -> None:
        """What a server admin does in Server Settings → Integrations: let `user` use the top-level command
        `name` although they lack its default_member_permissions."""
        self.command_overrides.setdefault(name, set()).add(self._user_id(user))

    def permissions(self, user: str | int | dict[str, Any], guild: FakeGuild | None = None) -> int:
        """Guild-level permissions (no channel overwrites in the fake); owners and admins get all."""
        guild = guild or self.guild
        user_id = self._user_id(user)
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        if member is None:
            return 0
        value = int(guild.roles[0]["permissions"])
        for role in guild.roles:
            if role["id"] in member["roles"]:
                value |= int(role["permissions"])
        if value & discord.Permissions(administrator=True).value:
            return ALL_PERMISSIONS
        return value

    def _check_can_see(self, user_id: int, channel: FakeChannel) -> None:
        """A DM is its recipient's; private threads are visible to their members and to Manage Threads."""
        if channel.type == DM:
            if int(channel.recipients[0]["id"]) != user_id:
                raise PermissionError(f"{channel.name!r} is another user's DM with the bot")
            return
        if channel.type != PRIVATE_THREAD or user_id in channel.member_ids:
            return
        guild = self._guild(channel.guild_id)
        if not self.permissions(user_id, guild) & discord.Permissions(manage_threads=True).value:
            name = self._users_by_id[user_id]["username"]
            raise PermissionError(f"{name} cannot see private thread {channel.name!r} (not added to it)")
