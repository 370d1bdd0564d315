"""Messages as the channel and webhook routes share them: validation against the spec and limits,
attachments, mentions and pings, creating, storing and editing, and who may post or edit."""

from __future__ import annotations

import mimetypes
from typing import TYPE_CHECKING, Any

from tests import discord_api
from tests.discord_api import InvalidForm
from tests.discord_fake.constants import (
    _EVERYONE_MENTION,
    _ROLE_MENTION,
    _USER_MENTION,
    DM,
    FLAG_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    MANAGE_THREADS,
    MAX_FILE_SIZE,
    PRIVATE_THREAD,
)
from tests.discord_fake.errors import _ApiError, _invalid_form
from tests.discord_fake.model import (
    FakeAttachment,
    FakeChannel,
    FakeMessage,
    Pings,
    Upload,
    _InteractionRecord,
    _now_iso,
)

if TYPE_CHECKING:
    pass


class _Messages:
    """Message handling shared by the REST routes (mixed into `DiscordFake`)."""

    # --- messages (shared by channel and webhook routes) -----------------------------------------

    def _new_attachment(self, channel_id: int, filename: str, data: bytes, description: str | None) -> FakeAttachment:
        attachment_id = self._snowflake()
        attachment = FakeAttachment(
            id=attachment_id,
            filename=filename,
            data=data,
            url=f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}",
            content_type=mimetypes.guess_type(filename)[0],
            description=description,
        )
        self.attachments[attachment_id] = attachment
        return attachment

    def _uploads_to_attachments(
        self, channel_id: int, body: dict[str, Any], uploads: list[Upload], existing: list[FakeAttachment]
    ) -> list[FakeAttachment]:
        """New attachment list: ``attachments`` entries keep existing ones (by id) or name uploads (by index)."""
        by_index = {u.index if u.index is not None else i: u for i, u in enumerate(uploads)}
        existing_by_id = {a.id: a for a in existing}
        entries = body.get("attachments")
        if entries is None:
            result = list(existing)
            for upload in uploads:
                result.append(self._new_attachment(channel_id, upload.filename, upload.data, None))
            return result
        result = []
        used: set[int] = set()
        for entry in entries:
            entry_id = int(entry["id"])
            if entry_id in existing_by_id:
                result.append(existing_by_id[entry_id])
            elif entry_id in by_index:
                upload = by_index[entry_id]
                used.add(entry_id)
                filename = entry.get("filename") or upload.filename
                result.append(self._new_attachment(channel_id, filename, upload.data, entry.get("description")))
            else:
                raise _invalid_form("attachments", f"unknown attachment id {entry_id}")
        for index, upload in by_index.items():
            if index not in used:
                result.append(self._new_attachment(channel_id, upload.filename, upload.data, None))
        return result

    def _validate_message(
        self,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        edit: FakeMessage | None = None,
        prefix: tuple[str, ...] = (),
    ) -> None:
        """Reject what Discord rejects, so a bot bug shows up here rather than in production.

        The spec has checked types and most lengths already; this adds files, layout and the rest
        (`discord_api.check_message`). ``edit``: the message being edited (its flags count).
        """
        if len(uploads) > 10:
            raise _invalid_form(".".join((*prefix, "attachments")), "Must be 10 or fewer in length.")
        for upload in uploads:
            if upload.size > MAX_FILE_SIZE:
                raise _ApiError(413, 40005, "Request entity too large")
        flags = int(body.get("flags") or 0) | (edit.flags if edit is not None else 0)
        try:
            discord_api.check_message(body, prefix=prefix, components_v2=bool(flags & FLAG_COMPONENTS_V2))
        except InvalidForm as error:
            raise _ApiError.invalid_form(error) from None
        has_body = any(
            body.get(key) for key in ("content", "embeds", "components", "sticker_ids", "poll", "attachments")
        )
        if edit is None and not has_body and not uploads:
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _set_mentions(self, message: FakeMessage, allowed: dict[str, Any] | None, reply_to: Any = None) -> None:
        """Decide who the message pings (`Pings`) and its ``mentions``, as Discord does.

        Without ``allowed_mentions`` every user, role, @everyone and @here in the content pings (as if the
        bot had Mention Everyone: many servers grant it); with it, only the kinds in ``parse`` and the ids
        listed in ``users``/``roles``. A reply pings the replied-to author unless ``allowed_mentions`` is
        given without ``replied_user: true``. Ephemeral messages notify nobody.
        """
        message.allowed_mentions = allowed
        if message.ephemeral:
            message.pings, message.mentions = Pings(), []
            return
        content = message.content or ""
        users = [u for u in dict.fromkeys(int(m) for m in _USER_MENTION.findall(content)) if u in self._users_by_id]
        guild_roles = {int(r["id"]) for r in self._guild(message.guild_id).roles} if message.guild_id else set()
        roles = {int(m) for m in _ROLE_MENTION.findall(content)} & guild_roles
        everyone = message.guild_id is not None and bool(_EVERYONE_MENTION.search(content))
        if allowed is not None:
            parse = set(allowed.get("parse") or [])
            listed_users = {int(u) for u in allowed.get("users") or []}
            listed_roles = {int(r) for r in allowed.get("roles") or []}
            users = [u for u in users if "users" in parse or u in listed_users]
            roles = {r for r in roles if "roles" in parse or r in listed_roles}
            everyone = everyone and "everyone" in parse
        replied = self.messages.get(int(reply_to.get("message_id") or 0)) if isinstance(reply_to, dict) else None
        if replied is not None and (allowed is None or allowed.get("replied_user")):
            author_id = int(replied.author["id"])
            if author_id not in users and author_id != self.application_id:
                users.append(author_id)
        message.pings = Pings(users=set(users), roles=roles, everyone=everyone)
        message.mentions = [self._users_by_id[u] for u in users]

    def _create_message(
        self,
        place: FakeChannel,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        flags: int,
        record: _InteractionRecord | None = None,
        message_type: int = 0,
    ) -> FakeMessage:
        message = FakeMessage(
            id=self._snowflake(),
            channel_id=place.id,
            guild_id=place.guild_id,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=flags,
            type=message_type,
        )
        self._set_mentions(message, body.get("allowed_mentions"), body.get("message_reference"))
        message.attachments = self._uploads_to_attachments(place.id, body, uploads, [])
        if record is not None:
            payload = record.payload
            message.webhook_id = self.application_id
            message.application_id = self.application_id
            message.interaction_metadata = {
                "id": payload["id"],
                "type": payload["type"],
                "user": payload["member"]["user"] if "member" in payload else payload["user"],
                "authorizing_integration_owners": payload["authorizing_integration_owners"],
            }
        self._store_message(message, place)
        if place.type == PRIVATE_THREAD:  # Discord adds the users a message pings to a private thread
            place.member_ids |= message.pings.users
        return message

    def _store_message(self, message: FakeMessage, place: FakeChannel) -> None:
        self.messages[message.id] = message
        if not message.ephemeral:
            place.last_message_id = message.id
            if place.is_thread:
                place.message_count += 1

    def _apply_edit(
        self, message: FakeMessage, body: dict[str, Any], uploads: list[Upload], *, prefix: tuple[str, ...] = ()
    ) -> None:
        self._validate_message(body, uploads, edit=message, prefix=prefix)
        if "content" in body:
            message.content = body["content"] or ""
        if "content" in body or "allowed_mentions" in body:
            # Discord rebuilds the mentions from the edit's own allowed_mentions, but an edit notifies nobody:
            # not even the one that fills a deferred "thinking…" message (who it pings was decided, empty,
            # when the placeholder was created).
            notified = message.pings
            self._set_mentions(message, body.get("allowed_mentions"))
            message.pings = notified
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        if body.get("flags") is not None:
            settable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            message.flags = (message.flags & ~settable) | (int(body["flags"]) & settable)
        if "attachments" in body or uploads:
            attachments = self._uploads_to_attachments(message.channel_id, body, uploads, message.attachments)
            if len(attachments) > 10:
                raise _invalid_form(".".join((*prefix, "attachments")), "Must be 10 or fewer in length.")
            message.attachments = attachments
        message.flags &= ~FLAG_LOADING
        message.edited_timestamp = _now_iso()
        message.edits += 1

    def _check_can_post(self, place: FakeChannel, *, webhook: bool = False) -> None:
        """Whether the bot may create a (non-ephemeral) message there: `forbid` (channel routes only: an
        interaction's webhook is not governed by channel permissions) and locked threads."""
        if not webhook and place.id in self._forbidden:
            raise _ApiError(403, 50013, "Missing Permissions", expected=True)
        if place.type == DM and int(place.recipients[0]["id"]) in self._dms_closed:
            raise _ApiError(403, 50007, "Cannot send messages to this user", expected=True)
        if place.is_thread and place.locked and not self._app_permissions(place) & MANAGE_THREADS:
            if place.archived:
                raise _ApiError(400, 50083, "Thread is archived", expected=True)
            raise _ApiError(400, 160005, "Thread is locked", expected=True)

    async def _unarchive_for_post(self, place: FakeChannel) -> None:
        """A message posted in an archived thread unarchives it (THREAD_UPDATE), as on Discord."""
        if place.is_thread and place.archived:
            place.archived = False
            await self._dispatch("THREAD_UPDATE", place.payload(), intent=INTENT_GUILDS)

    def _check_can_edit(self, message: FakeMessage) -> None:
        """Messages in archived (or locked) threads cannot be edited; a deleted channel's are gone."""
        place = self.channels[message.channel_id]
        if place.deleted:
            raise _ApiError(404, 10003, "Unknown Channel", expected=True)
        if message.ephemeral or not place.is_thread:
            return
        if place.archived:
            raise _ApiError(400, 50083, "Thread is archived", expected=place.locked)
        if place.locked and not self._app_permissions(place) & MANAGE_THREADS:
            raise _ApiError(400, 160005, "Thread is locked", expected=True)

    def _message_payload(self, message: FakeMessage) -> dict[str, Any]:
        body = message.payload()
        if message.thread_id is not None and message.thread_id in self.channels:
            body["thread"] = self.channels[message.thread_id].payload()
        return body

    async def _emit_message(self, event: str, message: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE as the bot would get them: never for ephemeral messages."""
        if message.ephemeral:
            return
        intent = INTENT_GUILD_MESSAGES if message.guild_id is not None else INTENT_DIRECT_MESSAGES
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            await self._dispatch(event, data, intent=intent)
            return
        data = self._message_payload(message)
        is_own = int(message.author["id"]) == self.application_id
        mentions_bot = any(int(u["id"]) == self.application_id for u in message.mentions)
        if not (is_own or mentions_bot or message.guild_id is None or self._intents & INTENT_MESSAGE_CONTENT):
            data.update(content="", embeds=[], attachments=[], components=[])
        await self._dispatch(event, data, intent=intent)

    def _channel_or_404(self, channel_id: str | int) -> FakeChannel:
        """A channel the bot may address; one a test deleted answers 404 too, but not as the bot's fault."""
        place = self.channels.get(int(channel_id))
        if place is None or place.deleted:
            raise _ApiError(404, 10003, "Unknown Channel", expected=place is not None)
        return place

    def _channel_message_or_404(self, channel_id: str, message_id: str) -> FakeMessage:
        """Channel routes cannot see ephemeral messages, as on Discord."""
        self._channel_or_404(channel_id)
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or message.ephemeral or message.channel_id != int(channel_id):
            raise _ApiError(404, 10008, "Unknown Message")
        return message
