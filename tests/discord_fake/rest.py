"""The HTTP side: routing, rate limits, answer-first bookkeeping, body validation and the REST routes a bot
uses (users, application, commands, interactions and their webhooks, channels, messages, threads, guilds)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import web

from tests import discord_api
from tests.discord_api import InvalidForm
from tests.discord_fake.constants import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    APPLICATION_FLAGS,
    CAUSE_HEADER,
    CB_AUTOCOMPLETE,
    CB_DEFERRED,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_UPDATE,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    INTENT_GUILDS,
    MANAGE_THREADS,
    NEWS,
    NEWS_THREAD,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SETTABLE_FLAGS,
    TEXT,
)
from tests.discord_fake.errors import _ApiError, _invalid_form, _json_response
from tests.discord_fake.heard import heard
from tests.discord_fake.model import (
    Callback,
    FakeChannel,
    FakeMessage,
    Handler,
    RecordedRequest,
    Rejection,
    Upload,
    _InteractionRecord,
    _now_iso,
    _tiny_png,
)
from tests.discord_fake.ratelimits import Verdict

if TYPE_CHECKING:
    pass


class _Rest:
    """The REST routes (mixed into `DiscordFake`)."""

    # --- REST plumbing ---------------------------------------------------------------------------

    def _setup_routes(self) -> None:
        """The REST routes, written as the spec's path templates so each finds its request schema."""
        app = "/applications/{application_id}"
        webhook = "/webhooks/{webhook_id}/{webhook_token}"
        message = "/channels/{channel_id}/messages/{message_id}"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", f"{app}/commands", self._get_commands),
            ("PUT", f"{app}/commands", self._put_commands),
            ("POST", f"{app}/commands", self._post_command),
            ("GET", f"{app}/guilds/{{guild_id}}/commands", self._get_commands),
            ("PUT", f"{app}/guilds/{{guild_id}}/commands", self._put_commands),
            ("POST", f"{app}/guilds/{{guild_id}}/commands", self._post_command),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._interaction_callback),
            ("GET", f"{webhook}/messages/@original", self._get_original),
            ("PATCH", f"{webhook}/messages/@original", self._edit_original),
            ("DELETE", f"{webhook}/messages/@original", self._delete_original),
            ("POST", webhook, self._post_followup),
            ("GET", f"{webhook}/messages/{{message_id}}", self._get_followup),
            ("PATCH", f"{webhook}/messages/{{message_id}}", self._edit_followup),
            ("DELETE", f"{webhook}/messages/{{message_id}}", self._delete_followup),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("PATCH", "/channels/{channel_id}", self._edit_channel),
            ("DELETE", "/channels/{channel_id}", self._delete_channel),
            ("GET", "/channels/{channel_id}/messages", self._get_messages),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", message, self._get_message),
            ("PATCH", message, self._edit_message),
            ("DELETE", message, self._delete_message),
            ("POST", f"{message}/threads", self._thread_from_message),
            ("POST", "/channels/{channel_id}/threads", self._create_thread),
            ("GET", "/channels/{channel_id}/thread-members", self._get_thread_members),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._add_thread_member),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._remove_thread_member),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("PUT", f"{message}/reactions/{{emoji_name}}/@me", self._add_reaction),
            ("DELETE", f"{message}/reactions/{{emoji_name}}/@me", self._remove_reaction),
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self._get_roles),
            ("GET", "/guilds/{guild_id}/members", self._get_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("GET", "/guilds/{guild_id}/threads/active", self._get_active_threads),
        ]
        for method, template, handler in table:
            assert discord_api.has_operation(method, template), f"{method} {template} is not in Discord's spec"
            regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))
            self._routes.append((method, re.compile(f"^{regex}$"), template, handler))

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, uploads = await self._read_body(request)
        body = heard(body, f"{request.method} {path}", self.strays, self.people_names())
        cause = request.headers.get(CAUSE_HEADER)
        record = RecordedRequest(request.method, path, dict(request.query), body, uploads, cause=int(cause or 0))
        self.requests.append(record)
        if self.latency > 0:
            await asyncio.sleep(self.latency)  # a slow network: it counts against every deadline
        record.at = asyncio.get_running_loop().time()
        headers: dict[str, str] = {}
        try:
            for method, pattern, template, handler in self._routes:
                match = pattern.match(path)
                if method == request.method and match:
                    verdict = self.limits.check(method, template, match.groupdict(), record.at)
                    headers = verdict.headers
                    if verdict.refused is not None:
                        return self._rate_limited(record, verdict)
                    self._check_answered_first(record, template)
                    self._injected_failure(record)
                    needs_auth = not path.startswith(("/webhooks/", "/interactions/"))
                    if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                        raise _ApiError(401, 0, "401: Unauthorized", expected=True)  # the bot fails to log in
                    try:
                        discord_api.check_body(method, template, body)
                    except InvalidForm as error:
                        raise _ApiError.invalid_form(error) from None
                    result = await handler(record, **match.groupdict())
                    break
            else:
                self.unknown_requests.append(record)
                raise _ApiError(404, 0, "404: Not Found", expected=True)  # listed in unknown_requests
        except _ApiError as error:
            record.status, record.error = error.status, error.payload()
            if error.status in (401, 403):
                self.limits.invalid(record.at)  # Discord counts them towards its ban
            if not error.expected:
                self.rejected.append(Rejection(record, error.status, error.code, error.message, error.errors))
            return _json_response(error.payload(), status=error.status, headers=headers)
        except Exception as error:  # a bug in the fake: fail the test, but answer 400 (a 5xx makes discord.py retry)
            logging.getLogger(__name__).exception("DiscordFake failed on %s %s", request.method, path)
            self.errors.append(f"DiscordFake failed on {request.method} {path}: {error!r}")
            record.status = 400
            return _json_response({"message": f"DiscordFake internal error: {error!r}", "code": 0}, status=400)
        finally:
            self._notify()
        if result is None:
            record.status = 204
            return web.Response(status=204, headers=headers)
        record.status = 200
        return _json_response(result, headers=headers)

    def _rate_limited(self, record: RecordedRequest, verdict: Verdict) -> web.Response:
        """A 429 as Discord sends it (or, banned, as Cloudflare does: no Via header, a text body)."""
        record.status = 429
        self._notify()
        if verdict.banned:
            self.banned = True
            return web.Response(status=429, text="error code: 1015")
        record.error = dict(verdict.refused or {})
        self.rate_limited.append(record)
        return _json_response(verdict.refused, status=429, headers=verdict.headers)

    def _check_answered_first(self, record: RecordedRequest, template: str) -> None:
        """A request caused by an interaction (discord.py ran the handler that made it) before that
        interaction's first answer reached Discord: the 3 s window is spent on other work first."""
        interaction = self._interactions.get(record.cause) if record.cause else None
        if interaction is None or interaction.callback is not None or interaction.late is not None:
            return  # answered, or past answering (its first answer came too late): nothing waits on it
        if template == "/interactions/{interaction_id}/{interaction_token}/callback":
            return
        self.early_requests.append(record)

    def _injected_failure(self, record: RecordedRequest) -> None:
        """Raise the first `fail_next` failure that matches this request, using one of its count."""
        for failure in self._failures:
            if failure.method == record.method and failure.pattern.search(record.path):
                failure.remaining -= 1
                if failure.remaining <= 0:
                    self._failures.remove(failure)
                raise failure.error

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            body: Any = None
            uploads = []
            for name, value in form.items():
                if isinstance(value, web.FileField):
                    uploads.append(Upload(name, value.filename, value.file.read(), value.content_type))
                elif name == "payload_json":
                    body = json.loads(value)
            return body, uploads
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode("utf-8", "replace"), []

    async def _attachment(self, request: web.Request) -> web.Response:
        attachment = self.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

    async def _cdn(self, request: web.Request) -> web.Response:
        return web.Response(body=_tiny_png(), content_type="image/png")

    # --- REST: users, application, commands ------------------------------------------------------

    async def _get_gateway(self, record: RecordedRequest) -> dict[str, Any]:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    async def _get_me(self, record: RecordedRequest) -> dict[str, Any]:
        return self.bot_user

    async def _get_user(self, record: RecordedRequest, user_id: str) -> dict[str, Any]:
        user = self._users_by_id.get(int(user_id))
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return user

    async def _open_dm(self, record: RecordedRequest) -> dict[str, Any]:
        user_id = int((record.json or {}).get("recipient_id") or 0)
        if user_id not in self._users_by_id or user_id == self.application_id:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        return self.dm_channel(user_id).payload()

    async def _get_application(self, record: RecordedRequest) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "summary": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.users["owner"],
            "team": None,
            "verify_key": "0" * 64,
            "flags": APPLICATION_FLAGS,
            "bot": self.bot_user,
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
        }

    def _check_application(self, application_id: str) -> None:
        if int(application_id) != self.application_id:
            raise _ApiError(404, 10002, "Unknown Application")

    async def _get_commands(
        self, record: RecordedRequest, application_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        self._check_application(application_id)
        return self.commands(int(guild_id) if guild_id else None)

    def _registered(self, body: dict[str, Any], guild_id: int | None, old: list[dict[str, Any]]) -> dict[str, Any]:
        previous = next((c for c in old if c["name"] == body["name"] and c.get("type", 1) == body.get("type", 1)), None)
        command = dict(body)
        command.setdefault("type", 1)
        command.setdefault("description", "")
        command["id"] = previous["id"] if previous else str(self._snowflake())
        command["application_id"] = str(self.application_id)
        command["version"] = str(self._snowflake())
        command.setdefault("default_member_permissions", None)
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        return command

    async def _put_commands(
        self, record: RecordedRequest, application_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        """Bulk overwrite; ids stay stable for commands that keep their name and type, as on Discord."""
        self._check_application(application_id)
        scope = int(guild_id) if guild_id else None
        if scope is not None and not any(guild.id == scope for guild in self.guilds):
            raise _ApiError(403, 50001, "Missing Access")  # not in that server, or without applications.commands
        body = record.json or []
        try:
            discord_api.check_commands(body)
        except InvalidForm as error:
            raise _ApiError.invalid_form(error) from None
        old = self.registered_commands.get(scope, [])
        self.registered_commands[scope] = [self._registered(c, scope, old) for c in body]
        return self.commands(scope)

    async def _post_command(
        self, record: RecordedRequest, application_id: str, guild_id: str | None = None
    ) -> dict[str, Any]:
        self._check_application(application_id)
        scope = int(guild_id) if guild_id else None
        old = self.registered_commands.get(scope, [])
        command = self._registered(record.json or {}, scope, old)
        commands = [c for c in old if c["id"] != command["id"]] + [command]
        try:
            discord_api.check_command(record.json or {})
            discord_api.check_commands(commands)
        except InvalidForm as error:
            raise _ApiError.invalid_form(error) from None
        self.registered_commands[scope] = commands
        return command

    # --- REST: interactions and their webhooks ---------------------------------------------------

    async def _interaction_callback(
        self, record: RecordedRequest, interaction_id: str, interaction_token: str
    ) -> dict[str, Any] | None:
        interaction = self._interactions.get(int(interaction_id))
        if interaction is None or interaction.token != interaction_token:
            raise _ApiError(404, 10062, "Unknown interaction")
        if interaction.callback is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        if record.at - interaction.sent_at > self.response_timeout:
            # Discord's 3 s for the first answer, from the dispatch until the callback arrives (latency included).
            interaction.late = record.at - interaction.sent_at
            raise _ApiError(404, 10062, "Unknown interaction")
        body = record.json or {}
        callback_type = int(body.get("type", 0))
        data = body.get("data") or {}
        kind = interaction.payload["type"]
        if callback_type not in ALLOWED_CALLBACKS.get(kind, set()):
            raise _invalid_form("type", f"callback type {callback_type} is not valid for interaction type {kind}")
        place = self._channel_or_404(interaction.payload["channel_id"])
        flags = int(data.get("flags") or 0) & SETTABLE_FLAGS
        event: tuple[str, FakeMessage] | None = None
        if callback_type in (CB_MESSAGE, CB_DEFERRED) and not flags & FLAG_EPHEMERAL:
            self._check_can_post(place, webhook=True)
        if callback_type == CB_MESSAGE:
            self._validate_message(data, record.files, prefix=("data",))
            message_type = 20 if kind == APPLICATION_COMMAND else 0
            interaction.original = self._create_message(
                place, data, record.files, flags=flags, record=interaction, message_type=message_type
            )
            event = ("MESSAGE_CREATE", interaction.original)
        elif callback_type == CB_DEFERRED:
            message_type = 20 if kind == APPLICATION_COMMAND else 0
            interaction.original = self._create_message(
                place,
                {},
                [],
                flags=(flags & FLAG_EPHEMERAL) | FLAG_LOADING,
                record=interaction,
                message_type=message_type,
            )
            event = ("MESSAGE_CREATE", interaction.original)
        elif callback_type in (CB_DEFERRED_UPDATE, CB_UPDATE):
            interaction.original = self.messages[int(interaction.payload["message"]["id"])]
            if callback_type == CB_UPDATE:
                self._apply_edit(interaction.original, data, record.files, prefix=("data",))
                event = ("MESSAGE_UPDATE", interaction.original)
        elif callback_type == CB_AUTOCOMPLETE:
            try:
                discord_api.check_autocomplete(data)
            except InvalidForm as error:
                raise _ApiError.invalid_form(error) from None
        interaction.callback = Callback(callback_type, data, record.files)
        if event is not None:
            if event[0] == "MESSAGE_CREATE":
                await self._unarchive_for_post(place)
            await self._emit_message(*event)
        if record.query.get("with_response") not in ("1", "true", "True"):
            return None
        original = interaction.original
        response: dict[str, Any] = {"interaction": {"id": str(interaction.id), "type": kind}}
        if original is not None and callback_type in (CB_MESSAGE, CB_DEFERRED, CB_UPDATE):
            response["interaction"].update(
                response_message_id=str(original.id),
                response_message_loading=original.loading,
                response_message_ephemeral=original.ephemeral,
            )
            response["resource"] = {"type": callback_type, "message": self._message_payload(original)}
        return response

    def _interaction_for(self, webhook_id: str, webhook_token: str) -> _InteractionRecord:
        """The interaction behind a webhook token; after ``followup_lifetime`` (15 min) the token is dead."""
        interaction = self._interactions_by_token.get(webhook_token)
        if int(webhook_id) != self.application_id or interaction is None:
            raise _ApiError(404, 10015, "Unknown Webhook")
        if asyncio.get_running_loop().time() - interaction.sent_at > self.followup_lifetime:
            raise _ApiError(401, 50027, "Invalid Webhook Token")
        return interaction

    def _original_of(self, webhook_id: str, webhook_token: str) -> tuple[_InteractionRecord, FakeMessage]:
        interaction = self._interaction_for(webhook_id, webhook_token)
        original = interaction.original
        if original is None or original.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        self._channel_or_404(original.channel_id)
        return interaction, original

    async def _get_original(self, record: RecordedRequest, webhook_id: str, webhook_token: str) -> dict[str, Any]:
        return self._message_payload(self._original_of(webhook_id, webhook_token)[1])

    async def _edit_original(self, record: RecordedRequest, webhook_id: str, webhook_token: str) -> dict[str, Any]:
        interaction, original = self._original_of(webhook_id, webhook_token)
        self._check_can_edit(original)
        self._apply_edit(original, record.json or {}, record.files)
        interaction.activity += 1
        await self._emit_message("MESSAGE_UPDATE", original)
        return self._message_payload(original)

    async def _delete_original(self, record: RecordedRequest, webhook_id: str, webhook_token: str) -> None:
        interaction, original = self._original_of(webhook_id, webhook_token)
        original.deleted = True
        interaction.activity += 1
        await self._emit_message("MESSAGE_DELETE", original)

    async def _post_followup(
        self, record: RecordedRequest, webhook_id: str, webhook_token: str
    ) -> dict[str, Any] | None:
        interaction = self._interaction_for(webhook_id, webhook_token)
        if interaction.callback is None:
            raise _ApiError(404, 10015, "Unknown Webhook")  # a followup needs an answered interaction
        body = record.json or {}
        original = interaction.original
        place = self._channel_or_404(interaction.payload["channel_id"])
        self._validate_message(body, record.files)
        if (
            interaction.callback.type == CB_DEFERRED
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # The first followup fills the deferred message; its ephemeral flag comes from the deferral
            # (once the bot deleted the placeholder, a followup is a message of its own again).
            self._check_can_edit(original)
            self._apply_edit(original, body, record.files)
            message = original
            await self._emit_message("MESSAGE_UPDATE", message)
        else:
            flags = int(body.get("flags") or 0) & SETTABLE_FLAGS
            if not flags & FLAG_EPHEMERAL:
                self._check_can_post(place, webhook=True)
            message = self._create_message(place, body, record.files, flags=flags, record=interaction)
            if not message.ephemeral:
                await self._unarchive_for_post(place)
            await self._emit_message("MESSAGE_CREATE", message)
        interaction.followups.append(message)
        interaction.activity += 1
        if record.query.get("wait") in ("1", "true", "True"):
            return self._message_payload(message)
        return None

    def _followup_of(
        self, webhook_id: str, webhook_token: str, message_id: str
    ) -> tuple[_InteractionRecord, FakeMessage]:
        interaction = self._interaction_for(webhook_id, webhook_token)
        for message in [interaction.original, *interaction.followups]:
            if message is not None and message.id == int(message_id) and not message.deleted:
                self._channel_or_404(message.channel_id)
                return interaction, message
        raise _ApiError(404, 10008, "Unknown Message")

    async def _get_followup(
        self, record: RecordedRequest, webhook_id: str, webhook_token: str, message_id: str
    ) -> dict[str, Any]:
        return self._message_payload(self._followup_of(webhook_id, webhook_token, message_id)[1])

    async def _edit_followup(
        self, record: RecordedRequest, webhook_id: str, webhook_token: str, message_id: str
    ) -> dict[str, Any]:
        interaction, message = self._followup_of(webhook_id, webhook_token, message_id)
        self._check_can_edit(message)
        self._apply_edit(message, record.json or {}, record.files)
        interaction.activity += 1
        await self._emit_message("MESSAGE_UPDATE", message)
        return self._message_payload(message)

    async def _delete_followup(
        self, record: RecordedRequest, webhook_id: str, webhook_token: str, message_id: str
    ) -> None:
        interaction, message = self._followup_of(webhook_id, webhook_token, message_id)
        message.deleted = True
        interaction.activity += 1
        await self._emit_message("MESSAGE_DELETE", message)

    # --- REST: channels, messages, threads -------------------------------------------------------

    async def _get_channel(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        return self._channel_or_404(channel_id).payload()

    async def _edit_channel(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        """Channel and thread settings; threads follow Discord's archive and lock rules (docs: Threads)."""
        place = self._channel_or_404(channel_id)
        body = record.json or {}
        if place.is_thread:
            self._check_thread_edit(place, body)
        for key in ("name", "topic", "archived", "locked", "invitable", "auto_archive_duration", "rate_limit_per_user"):
            if key in body:
                setattr(place, key, body[key])
        event = "THREAD_UPDATE" if place.is_thread else "CHANNEL_UPDATE"
        await self._dispatch(event, place.payload(), intent=INTENT_GUILDS)
        return place.payload()

    def _check_thread_edit(self, thread: FakeChannel, body: dict[str, Any]) -> None:
        """Setting ``locked`` needs Manage Threads; unarchiving a locked thread needs it or being its
        creator; an archived thread takes no other change; a locked one none without Manage Threads."""
        manage = bool(self._app_permissions(thread) & MANAGE_THREADS)
        if "name" in body and not 1 <= len(body["name"] or "") <= 100:
            raise _invalid_form("name", "Must be between 1 and 100 in length.")
        if "locked" in body and bool(body["locked"]) != thread.locked and not manage:
            raise _ApiError(403, 50013, "Missing Permissions")
        unarchives = thread.archived and body.get("archived") is False
        if unarchives and thread.locked and not manage and thread.owner_id != self.application_id:
            raise _ApiError(403, 50013, "Missing Permissions")
        others = set(body) - {"archived", "locked"}
        if thread.archived and not unarchives and body.get("archived") is not True:
            raise _ApiError(400, 50083, "Thread is archived", expected=thread.locked)
        if thread.locked and others and not manage:
            raise _ApiError(400, 160005, "Thread is locked", expected=True)

    async def _delete_channel(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        place = self._channel_or_404(channel_id)
        await self._remove_channel(place)
        return place.payload()

    async def _remove_channel(self, place: FakeChannel) -> None:
        """Delete a channel (and its threads) or a thread, and tell the bot (THREAD_DELETE/CHANNEL_DELETE)."""
        place.deleted = True
        payload = place.payload()
        if place.is_thread:
            data = {"id": payload["id"], "guild_id": payload["guild_id"], "parent_id": payload["parent_id"]}
            await self._dispatch("THREAD_DELETE", dict(data, type=place.type), intent=INTENT_GUILDS)
            return
        for thread in self.threads:
            if thread.parent_id == place.id:
                thread.deleted = True
        if place.guild_id is not None:
            await self._dispatch("CHANNEL_DELETE", payload, intent=INTENT_GUILDS)

    async def _get_messages(self, record: RecordedRequest, channel_id: str) -> list[dict[str, Any]]:
        place = self._channel_or_404(channel_id)
        limit = int(record.query.get("limit", 50))
        before = int(record.query.get("before", 0)) or None
        after = int(record.query.get("after", 0))
        found = [m for m in self.channel_messages(place) if (before is None or m.id < before) and m.id > after]
        found.sort(key=lambda m: m.id, reverse=True)
        return [self._message_payload(m) for m in found[:limit]]

    async def _post_message(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        place = self._channel_or_404(channel_id)
        self._check_can_post(place)
        body = record.json or {}
        self._validate_message(body, record.files)
        flags = int(body.get("flags") or 0) & (FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2)
        message = self._create_message(place, body, record.files, flags=flags)
        await self._unarchive_for_post(place)
        await self._emit_message("MESSAGE_CREATE", message)
        return self._message_payload(message)

    async def _get_message(self, record: RecordedRequest, channel_id: str, message_id: str) -> dict[str, Any]:
        return self._message_payload(self._channel_message_or_404(channel_id, message_id))

    async def _edit_message(self, record: RecordedRequest, channel_id: str, message_id: str) -> dict[str, Any]:
        message = self._channel_message_or_404(channel_id, message_id)
        if int(message.author["id"]) != self.application_id:
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._check_can_edit(message)
        self._apply_edit(message, record.json or {}, record.files)
        for interaction in self._interactions.values():  # a deferred update may be finished this way
            if interaction.original is message:
                interaction.activity += 1
        await self._emit_message("MESSAGE_UPDATE", message)
        return self._message_payload(message)

    async def _delete_message(self, record: RecordedRequest, channel_id: str, message_id: str) -> None:
        message = self._channel_message_or_404(channel_id, message_id)
        message.deleted = True
        for interaction in self._interactions.values():
            if interaction.original is message:
                interaction.activity += 1
        await self._emit_message("MESSAGE_DELETE", message)

    def _new_thread(self, parent: FakeChannel, body: dict[str, Any], thread_id: int, thread_type: int) -> FakeChannel:
        if parent.type not in (TEXT, NEWS):
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        if parent.id in self._forbidden:
            raise _ApiError(403, 50013, "Missing Permissions", expected=True)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise _invalid_form("name", "Must be between 1 and 100 in length.")
        thread = FakeChannel(
            id=thread_id,
            type=thread_type,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.application_id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            invitable=bool(body.get("invitable", True)),
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
            member_ids={self.application_id},
        )
        self.channels[thread.id] = thread
        return thread

    def _thread_create_payload(self, thread: FakeChannel) -> dict[str, Any]:
        member = {"id": str(thread.id), "user_id": str(self.application_id), "join_timestamp": _now_iso(), "flags": 0}
        return dict(thread.payload(), newly_created=True, member=member)

    async def _create_thread(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        parent = self._channel_or_404(channel_id)
        body = record.json or {}
        thread = self._new_thread(parent, body, self._snowflake(), int(body.get("type") or PRIVATE_THREAD))
        await self._dispatch("THREAD_CREATE", self._thread_create_payload(thread), intent=INTENT_GUILDS)
        return self._thread_create_payload(thread)

    async def _thread_from_message(self, record: RecordedRequest, channel_id: str, message_id: str) -> dict[str, Any]:
        parent = self._channel_or_404(channel_id)
        message = self._channel_message_or_404(channel_id, message_id)
        if message.thread_id is not None:
            raise _ApiError(400, 160004, "A thread has already been created for this message")
        thread_type = NEWS_THREAD if parent.type == NEWS else PUBLIC_THREAD
        thread = self._new_thread(parent, record.json or {}, message.id, thread_type)  # same id as the message
        message.thread_id = thread.id
        await self._dispatch("THREAD_CREATE", self._thread_create_payload(thread), intent=INTENT_GUILDS)
        await self._emit_message("MESSAGE_UPDATE", message)
        return self._thread_create_payload(thread)

    def _thread_or_404(self, channel_id: str) -> FakeChannel:
        place = self._channel_or_404(channel_id)
        if not place.is_thread:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        return place

    async def _get_thread_members(self, record: RecordedRequest, channel_id: str) -> list[dict[str, Any]]:
        thread = self._thread_or_404(channel_id)
        return [
            {"id": str(thread.id), "user_id": str(u), "join_timestamp": thread.created_at, "flags": 0}
            for u in sorted(thread.member_ids)
        ]

    async def _add_thread_member(self, record: RecordedRequest, channel_id: str, user_id: str) -> None:
        thread = self._thread_or_404(channel_id)
        member_id = self.application_id if user_id == "@me" else int(user_id)
        if member_id not in self._users_by_id:
            raise _ApiError(404, 10013, "Unknown User")
        thread.member_ids.add(member_id)

    async def _remove_thread_member(self, record: RecordedRequest, channel_id: str, user_id: str) -> None:
        thread = self._thread_or_404(channel_id)
        thread.member_ids.discard(self.application_id if user_id == "@me" else int(user_id))

    async def _typing(self, record: RecordedRequest, channel_id: str) -> None:
        self._channel_or_404(channel_id)

    async def _add_reaction(self, record: RecordedRequest, channel_id: str, message_id: str, emoji_name: str) -> None:
        message = self._channel_message_or_404(channel_id, message_id)
        if unquote(emoji_name) not in message.reactions:
            message.reactions.append(unquote(emoji_name))

    async def _remove_reaction(
        self, record: RecordedRequest, channel_id: str, message_id: str, emoji_name: str
    ) -> None:
        message = self._channel_message_or_404(channel_id, message_id)
        with contextlib.suppress(ValueError):
            message.reactions.remove(unquote(emoji_name))

    # --- REST: guilds ----------------------------------------------------------------------------

    async def _get_guild(self, record: RecordedRequest, guild_id: str) -> dict[str, Any]:
        payload = self._guild_create_payload(self._guild(guild_id))
        for key in ("channels", "threads", "members", "presences", "voice_states", "joined_at", "large"):
            payload.pop(key, None)
        return payload

    async def _get_guild_channels(self, record: RecordedRequest, guild_id: str) -> list[dict[str, Any]]:
        guild = self._guild(guild_id)
        return [self.channels[c].payload() for c in guild.channel_ids if not self.channels[c].deleted]

    async def _get_roles(self, record: RecordedRequest, guild_id: str) -> list[dict[str, Any]]:
        return self._guild(guild_id).roles

    async def _get_members(self, record: RecordedRequest, guild_id: str) -> list[dict[str, Any]]:
        guild = self._guild(guild_id)
        after = int(record.query.get("after", 0))
        limit = int(record.query.get("limit", 1))
        members = sorted(guild.members.items())
        return [m for user_id, m in members if user_id > after][:limit]

    async def _get_member(self, record: RecordedRequest, guild_id: str, user_id: str) -> dict[str, Any]:
        guild = self._guild(guild_id)
        member = guild.members.get(int(user_id))
        if member is None:
            raise _ApiError(404, 10007, "Unknown Member", expected=int(user_id) in guild.left)
        return member

    async def _get_active_threads(self, record: RecordedRequest, guild_id: str) -> dict[str, Any]:
        guild = self._guild(guild_id)
        threads = [t for t in self.threads if t.guild_id == guild.id and not t.archived]
        return {"threads": [t.payload() for t in threads], "members": []}
