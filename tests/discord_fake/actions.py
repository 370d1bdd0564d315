"""What a user does: slash commands, autocomplete, clicks, selects and messages, and the interaction
payloads built for them from the commands the bot registered."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from tests.discord_fake.constants import (
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    DM,
    DM_PERMISSIONS,
    MAX_FILE_SIZE,
    MESSAGE_COMPONENT,
)
from tests.discord_fake.model import FakeChannel, FakeGuild, FakeMessage, Reply, _InteractionRecord, _offered_in

if TYPE_CHECKING:
    pass


class _Actions:
    """Acting as users (mixed into `DiscordFake`)."""

    # --- acting as users -------------------------------------------------------------------------

    async def slash(
        self,
        user: str | dict[str, Any],
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: str | int | FakeChannel | None = None,
        dm: bool = False,
        force: bool = False,
        wait: bool = True,
        locale: str | None = None,
        arrives_after: float = 0.0,
    ) -> Reply:
        """Run ``/command`` (1-3 words: command, group, subcommand) as ``user``; returns the `Reply`.

        Option values are typed from the synced command: str, int, float, bool; users (name, payload or
        id) for user/mentionable options, channels (name, id, FakeChannel) and roles (name) likewise, and
        ``(filename, bytes)`` for attachments. With ``wait=False`` it returns once the payload is sent.
        ``dm=True`` runs it in the user's DM with the bot. Only commands Discord would offer there can be
        run (a LookupError or PermissionError says why not) unless ``force=True``, a stale client.
        ``arrives_after`` delivers it that many seconds after the user sent it (a lagging gateway or bot):
        past Discord's 3 s, every answer to it fails with 404 10062, as on Discord.
        """
        place = self._interaction_place(user, channel, dm)
        data = self._command_data(user, place, command, dict(options or {}), focused=None, force=force)
        return await self._interact(
            APPLICATION_COMMAND,
            user,
            place,
            data,
            label=f"/{command}",
            wait=wait,
            locale=locale,
            arrives_after=arrives_after,
        )

    async def autocomplete(
        self,
        user: str | dict[str, Any],
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str | None = None,
        channel: str | int | FakeChannel | None = None,
        dm: bool = False,
        force: bool = False,
        locale: str | None = None,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (default: the last option given); returns the bot's choices."""
        options = dict(options or {})
        if focused is None:
            if not options:
                raise ValueError("autocomplete needs at least the focused option's text")
            focused = list(options)[-1]
        options.setdefault(focused, "")
        place = self._interaction_place(user, channel, dm)
        data = self._command_data(user, place, command, options, focused=focused, force=force)
        reply = await self._interact(
            AUTOCOMPLETE, user, place, data, label=f"autocomplete /{command} {focused}", locale=locale
        )
        return reply.choices

    async def click(
        self,
        user: str | dict[str, Any],
        message: FakeMessage | Reply | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        dm: bool = False,
        wait: bool = True,
        arrives_after: float = 0.0,
    ) -> Reply:
        """Press the button with ``custom_id`` (or ``label``) on ``message``, as ``user``.

        A bare ``defer()`` (type 6) that edits nothing never counts as done: pass ``wait=False`` and
        ``await reply.wait_callback()`` for that. A message in a DM channel makes a DM interaction
        (``dm=True`` only asserts that it is one). ``arrives_after``: as for `slash`.
        """
        stored = self._component_message(user, message, dm)
        component = stored.component(custom_id, label=label)
        if component.get("type") != 2:
            raise TypeError(f"component {component.get('custom_id')!r} is not a button: {component}")
        if component.get("disabled"):
            raise ValueError(f"button {component.get('custom_id')!r} is disabled")
        if "custom_id" not in component:
            raise ValueError(f"button {component.get('label')!r} is a link/premium button without custom_id")
        data = {"custom_id": component["custom_id"], "component_type": 2}
        label = f"click {component['custom_id']!r}"
        return await self._component_interaction(user, stored, data, label, wait, arrives_after)

    async def select(
        self,
        user: str | dict[str, Any],
        message: FakeMessage | Reply | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        dm: bool = False,
        wait: bool = True,
    ) -> Reply:
        """Choose ``values`` in a select menu: option values for string selects, users/roles/channels else."""
        stored = self._component_message(user, message, dm)
        component = stored.component(custom_id)
        kind = component.get("type")
        if kind not in (3, 5, 6, 7, 8):
            raise TypeError(f"component {custom_id!r} is not a select menu: {component}")
        if component.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        guild_id = self.channel(stored.channel_id).guild_id
        guild = self._guild(guild_id) if guild_id is not None else None
        if kind == 3:
            allowed = [o["value"] for o in component.get("options", [])]
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise ValueError(f"select {custom_id!r} has no options {unknown}; options: {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, Any] = {}
            ids = []
            for value in values:
                resolved_type = {5: 6, 6: 8, 7: 9, 8: 7}[kind]
                ids.append(self._resolve_value(resolved_type, value, resolved, guild))
            data["values"] = ids
            data["resolved"] = resolved
        return await self._component_interaction(user, stored, data, f"select {custom_id!r}", wait)

    async def say(
        self, user: str | dict[str, Any], content: str, *, channel: str | int | FakeChannel | None = None
    ) -> FakeMessage:
        """Post a plain message as ``user`` (dispatched as MESSAGE_CREATE, content only with the intent)."""
        place = self.channel(channel)
        author = self._users_by_id[self._user_id(user)]
        member = None
        if place.guild_id is not None:
            member = {k: v for k, v in self.member(author, self._guild(place.guild_id)).items() if k != "user"}
        message = FakeMessage(
            id=self._snowflake(),
            channel_id=place.id,
            guild_id=place.guild_id,
            author=author,
            content=content,
            member=member,
        )
        self._set_mentions(message, None)
        self._store_message(message, place)
        await self._emit_message("MESSAGE_CREATE", message)
        return message

    def _interaction_place(
        self, user: str | dict[str, Any], channel: str | int | FakeChannel | None, dm: bool
    ) -> FakeChannel:
        if not dm:
            return self.channel(channel)
        if channel is not None:
            raise ValueError("dm=True runs in the user's DM with the bot: leave out channel")
        return self.dm_channel(user)

    def _component_message(
        self, user: str | dict[str, Any], message: FakeMessage | Reply | int, dm: bool = False
    ) -> FakeMessage:
        if isinstance(message, Reply):
            if message.message is None:
                raise ValueError(f"{message!r} has no message to click on")
            message = message.message
        message_id = message.id if isinstance(message, FakeMessage) else int(message)
        stored = self.messages.get(message_id)
        if stored is None or stored.deleted:
            raise KeyError(f"message {message_id} does not exist (or was deleted)")
        place = self.channel(stored.channel_id)
        if dm and place.type != DM:
            raise ValueError(f"message {message_id} is in {place.name!r}, not in a DM")
        self._check_can_see(self._user_id(user), place)
        return stored

    async def _component_interaction(
        self,
        user: str | dict[str, Any],
        message: FakeMessage,
        data: dict[str, Any],
        label: str,
        wait: bool,
        arrives_after: float = 0.0,
    ) -> Reply:
        place = self.channel(message.channel_id)
        return await self._interact(
            MESSAGE_COMPONENT, user, place, data, label=label, wait=wait, message=message, arrives_after=arrives_after
        )

    def _app_permissions(self, place: FakeChannel) -> int:
        """The bot's permissions in a channel: its roles', less what `forbid` took there."""
        if place.guild_id is None:
            return DM_PERMISSIONS
        value = self.permissions(self.application_id, self._guild(place.guild_id))
        if place.id in self._forbidden:
            taken = discord.Permissions(
                send_messages=True,
                send_messages_in_threads=True,
                create_public_threads=True,
                create_private_threads=True,
            )
            value &= ~taken.value
        return value

    async def _interact(
        self,
        kind: int,
        user: str | dict[str, Any],
        place: FakeChannel,
        data: dict[str, Any],
        *,
        label: str,
        wait: bool = True,
        message: FakeMessage | None = None,
        locale: str | None = None,
        arrives_after: float = 0.0,
    ) -> Reply:
        """Dispatch INTERACTION_CREATE as Discord builds it: with ``member`` in a guild, ``user`` in a DM;
        ``arrives_after`` seconds after the user made it (its id and its 3 s count from then)."""
        session = self._session_for(place.guild_id)
        if session is None or session.ws is None:
            raise RuntimeError(
                "no bot is connected to the fake gateway for this guild's shard (use `async with fake.run(bot)`)"
            )
        user_id = self._user_id(user)
        interaction_id = self._snowflake(ago=arrives_after)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(place.id),
            "token": f"fake-interaction-token-{interaction_id}",
            "version": 1,
            "app_permissions": str(self._app_permissions(place)),
            "locale": locale or self.locales.get(user_id, "en-US"),
            "entitlements": [],
            "attachment_size_limit": MAX_FILE_SIZE,
        }
        if place.guild_id is None:
            self._check_can_see(user_id, place)
            payload.update(
                channel=dict(place.payload(), permissions=str(DM_PERMISSIONS)),
                user=self._users_by_id[user_id],
                authorizing_integration_owners={"0": "0"},  # "0": from the DM with the app's bot user
                context=CONTEXT_BOT_DM,
            )
        else:
            guild = self._guild(place.guild_id)
            if user_id not in guild.members:
                raise ValueError(f"{user!r} is not a member of {guild.name!r}")
            self._check_can_see(user_id, place)
            member = dict(guild.members[user_id], permissions=str(self.permissions(user_id, guild)))
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                channel=dict(place.payload(), permissions=member["permissions"]),
                member=member,
                guild_locale=guild.locale,
                authorizing_integration_owners={"0": str(guild.id)},
                context=CONTEXT_GUILD,
            )
        if message is not None:
            payload["message"] = self._message_payload(message)
        loop = asyncio.get_running_loop()
        sent_at = loop.time() - arrives_after
        record = _InteractionRecord(payload=payload, label=label, sent_at=sent_at, errors_before=len(self.errors))
        self._interactions[interaction_id] = record
        self._interactions_by_token[record.token] = record
        await self._dispatch("INTERACTION_CREATE", payload)
        reply = Reply(self, record)
        if wait:
            await reply.wait()
        return reply

    # --- slash command payloads ------------------------------------------------------------------

    def _find_command(self, name: str, guild: FakeGuild | None, *, force: bool = False) -> tuple[dict[str, Any], bool]:
        """The synced chat-input command as the client offers it: in a guild the guild's, then the global
        ones; in a DM only global ones (``force``: any, the first guild's too). Returns (command, is_guild)."""

        def lookup(scope: int | None) -> dict[str, Any] | None:
            commands = self.registered_commands.get(scope, [])
            return next((c for c in commands if c["name"] == name and c.get("type", 1) == 1), None)

        context = CONTEXT_GUILD if guild is not None else CONTEXT_BOT_DM
        scopes = [guild.id, None] if guild is not None else [None]
        if force and guild is None and self.guilds:
            scopes.append(self.guild.id)
        for scope in scopes:
            command = lookup(scope)
            if command is None:
                continue
            if not force and scope is None and not _offered_in(command, context):  # contexts govern global ones
                where = "in DMs" if guild is None else f"in {guild.name!r}"
                raise PermissionError(
                    f"Discord would not offer /{name} {where}: contexts={command.get('contexts')}, "
                    f"dm_permission={command.get('dm_permission')} (force=True models a stale client)"
                )
            return command, scope is not None
        known = sorted({c["name"] for cs in self.registered_commands.values() for c in cs})
        if guild is None and any(lookup(g.id) for g in self.guilds):
            raise LookupError(
                f"Discord would not offer /{name} in DMs: it is a guild command, and DMs only offer global ones "
                "(force=True models a stale client)"
            )
        where = f"in {guild.name!r} or globally" if guild is not None else "globally"
        raise LookupError(f"/{name} is not registered {where} (did the bot sync?); known: {known}")

    def _command_data(
        self,
        user: str | dict[str, Any],
        place: FakeChannel,
        path: str,
        options: dict[str, Any],
        *,
        focused: str | None,
        force: bool = False,
    ) -> dict[str, Any]:
        words = path.strip().lstrip("/").split()
        if not 1 <= len(words) <= 3:
            raise ValueError(f"a command path has 1 to 3 words, got {path!r}")
        guild = self._guild(place.guild_id) if place.guild_id is not None else None
        command, is_guild_command = self._find_command(words[0], guild, force=force)
        user_id = self._user_id(user)
        # default_member_permissions govern guilds only (in DMs there are no members); "0": administrators only
        raw = command.get("default_member_permissions") if guild is not None else None
        if user_id in self.command_overrides.get(words[0], set()):
            raw = None  # a server admin allowed this member the command (Server Settings → Integrations)
        if guild is not None and raw is not None:
            required, held = int(raw), self.permissions(user_id, guild)
            if held != ALL_PERMISSIONS and (required == 0 or held & required != required):
                missing = [name for name, on in discord.Permissions(required) if on] or ["administrator"]
                username = self._users_by_id[user_id]["username"]
                raise PermissionError(f"{username} cannot use /{words[0]}: needs {missing}")
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
        if is_guild_command:
            data["guild_id"] = command["guild_id"]
        container, schema = data, command.get("options", [])
        for word in words[1:]:
            sub = next((o for o in schema if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in schema if o["type"] in (1, 2)]
                raise LookupError(f"/{path}: no subcommand {word!r}; there are {subs}")
            node: dict[str, Any] = {"name": word, "type": sub["type"]}
            container["options"] = [node]
            container, schema = node, sub.get("options", [])
        if any(o["type"] in (1, 2) for o in schema):
            raise LookupError(f"/{path} is a group: name one of {[o['name'] for o in schema]}")
        resolved: dict[str, Any] = {}
        values = []
        for name, value in options.items():
            spec = next((o for o in schema if o["name"] == name), None)
            if spec is None:
                raise KeyError(f"/{path} has no option {name!r}; options: {[o['name'] for o in schema]}")
            if name == focused:
                if spec["type"] == 3 and not isinstance(value, str):
                    raise TypeError(f"the text typed into {name!r} must be a str")
                values.append({"name": name, "type": spec["type"], "value": value, "focused": True})
            else:
                values.append(
                    {"name": name, "type": spec["type"], "value": self._option_value(spec, value, resolved, guild)}
                )
        if focused is None:
            missing_options = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
            if missing_options:
                raise ValueError(f"/{path}: required options missing: {missing_options}")
        container["options"] = values
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(self, spec: dict[str, Any], value: Any, resolved: dict[str, Any], guild: FakeGuild | None) -> Any:
        """Type-check one option value as the Discord client would, filling ``resolved`` for entities."""
        kind, name = spec["type"], spec["name"]
        if kind == 3:
            if not isinstance(value, str):
                raise TypeError(f"option {name!r} is a string, got {value!r}")
            if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
                raise ValueError(f"option {name!r}: length {len(value)} outside min/max_length")
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"option {name!r} is an integer, got {value!r}")
        elif kind == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"option {name!r} is a number, got {value!r}")
        elif kind == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, got {value!r}")
        elif kind in (6, 7, 8, 9, 11):
            return self._resolve_value(kind, value, resolved, guild)
        else:
            raise TypeError(f"option {name!r} has unsupported type {kind}")
        if kind in (4, 10):
            if "min_value" in spec and value < spec["min_value"]:
                raise ValueError(f"option {name!r}: {value} < min_value {spec['min_value']}")
            if "max_value" in spec and value > spec["max_value"]:
                raise ValueError(f"option {name!r}: {value} > max_value {spec['max_value']}")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}")
        return value

    def _resolve_value(self, kind: int, value: Any, resolved: dict[str, Any], guild: FakeGuild | None) -> str:
        """The id for a user (6), channel (7), role (8), mentionable (9) or attachment (11) option.

        In a DM (``guild`` None) users come without members and there are no roles.
        """
        if kind == 9:
            is_role = (
                guild is not None
                and isinstance(value, str)
                and any(r["name"] == value for r in guild.roles)
                and value not in self.users
            )
            kind = 8 if is_role or (isinstance(value, dict) and "permissions" in value) else 6
        if kind == 6:
            user_id = self._user_id(value)
            user = self._users_by_id[user_id]
            resolved.setdefault("users", {})[str(user_id)] = user
            if guild is not None and user_id in guild.members:
                member = {k: v for k, v in guild.members[user_id].items() if k != "user"}
                member["permissions"] = str(self.permissions(user_id, guild))
                resolved.setdefault("members", {})[str(user_id)] = member
            return str(user_id)
        if kind == 7:
            place = self.channel(value)
            resolved.setdefault("channels", {})[str(place.id)] = dict(place.payload(), permissions=str(ALL_PERMISSIONS))
            return str(place.id)
        if kind == 8:
            if guild is None:
                raise ValueError("there are no roles in a DM")
            role = value if isinstance(value, dict) else guild.role(str(value))
            resolved.setdefault("roles", {})[str(role["id"])] = role
            return str(role["id"])
        filename, data = value
        attachment = self._new_attachment(0, filename, bytes(data), None)
        resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
        return str(attachment.id)
