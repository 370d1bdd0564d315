"""The board as the answer to the move that made it, instead of a channel post.

A move played by a slash command or a button is an interaction, and what answers it (the callback, then
followups through the interaction's webhook) is not under the global rate limit of 50 requests a second,
nor the channel's 5 messages per 5 s. So when the new board belongs where the player acted (the match's
channel or thread), `GameBot.post` sends it as the interaction's answer rather than as a channel message:

* a command is answered with the board itself (one callback, a new message: it pings whoever is to move).
  Should the move take long (a busy match, a slow disk), `deadline` defers it privately first, so
  Discord's 3 s are kept; the board then follows as a followup, after the placeholder says "Played: …"
  (a followup that filled the placeholder would be private, and filling is an edit, which pings nobody);
* a click is acknowledged at once, silently, and the board follows as a followup; the clicked board's
  buttons come off through the same webhook, for free.

A computer's reply to such a move is one more followup of it (`caused`: the interaction's webhook takes
followups for 15 minutes). Elsewhere (a move typed in another channel, a clock's flag) a board is a
channel post.
The interaction is found through a context variable that `answering` sets around the move: the service calls
its listeners in the same task, so `GameBot.post` sees it without the service knowing of Discord. Tasks
started meanwhile (a computer's reply) inherit it, so an answer is `closed` once its move is done.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord

FOLLOWUPS_FOR = 14 * 60.0
"""Seconds after an interaction in which its webhook still takes followups for what it caused (Discord
keeps the token 15 minutes; a minute is left for the request's way there)."""

DEFER_AFTER = 1.5
"""Seconds after the interaction was made by which a command's move must be ready to answer with its
board, or it is deferred (Discord allows 3 s from the interaction to its first answer, travel included)."""

_current: contextvars.ContextVar[Answer | None] = contextvars.ContextVar("answer", default=None)

UNKNOWN_INTERACTION = 10062
"""Discord's code for an interaction it takes no answer to any more: it reached the bot after its 3 s (a
lagging gateway, a busy bot). That says nothing about the channel: what the interaction did is posted
there as a plain message."""


def gone(interaction: discord.Interaction) -> bool:
    """Discord refused this interaction's first answer as too late (`UNKNOWN_INTERACTION`): nothing more is
    sent to it (each try would be one more refused request)."""
    return bool(interaction.extras.get("gone"))


@contextlib.asynccontextmanager
async def first_answer(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Around a request that answers `interaction` first: a refusal as too late marks it `gone`."""
    try:
        yield
    except discord.NotFound as error:
        if error.code == UNKNOWN_INTERACTION:
            interaction.extras["gone"] = True
        raise


@dataclass(eq=False)
class Answer:
    """An interaction whose move is being played, and that may carry the board of that move."""

    interaction: discord.Interaction
    used: bool = False
    """The board went out as (part of) its answer."""
    said: bool = False
    """Its private "thinking…" placeholder says the move was played."""
    closed: bool = False
    """Its move is done: no later post may use it."""
    deferring: bool = False
    """`defer_late` woke up and is deferring: let it finish."""
    _answering: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def channel_id(self) -> int | None:
        return self.interaction.channel_id

    @property
    def clicked(self) -> tuple[int, int] | None:
        """The public message whose button or menu made the move (None for a command or a private menu)."""
        message = self.interaction.message
        if message is None or message.flags.ephemeral or self.interaction.channel_id is None:
            return None
        return (self.interaction.channel_id, message.id)

    async def send(self, content: str, *, played: str, **fields: Any) -> discord.Message:
        """The board as a new public message answering the interaction (see the module docstring)."""
        async with self._answering:
            self.used = True
            try:
                if not self.interaction.response.is_done():
                    async with first_answer(self.interaction):
                        sent = await self.interaction.response.send_message(content, **fields)
                    assert isinstance(sent.resource, discord.InteractionMessage)
                    return sent.resource
                placeholder = self.interaction.response.type == discord.InteractionResponseType.deferred_channel_message
                if placeholder and not self.said:
                    await self.interaction.edit_original_response(content=played)
                    self.said = True
                return await self.more(content, **fields)
            except BaseException:
                self.used = False  # it goes elsewhere, or nowhere: the move's own answer has to say so
                if not self.interaction.response.is_done() and not gone(self.interaction):  # before the fallback
                    with contextlib.suppress(discord.HTTPException):
                        await self.interaction.response.defer(ephemeral=True, thinking=True)
                raise

    async def more(self, content: str, **fields: Any) -> discord.Message:
        """Another public message after the board (the replay, a phase's own message), by the same webhook."""
        return await self.interaction.followup.send(content, wait=True, **fields)

    async def take_buttons_off(self) -> None:
        """The clicked board loses its buttons: its click's webhook edits the message it came from."""
        await self.interaction.edit_original_response(view=None)

    async def defer(self) -> None:
        """Answer now, privately ("thinking…"), unless the interaction is answered already: what the move
        causes next is not its board here (a board for another place, a message of words)."""
        async with self._answering:
            if not self.interaction.response.is_done() and not gone(self.interaction):
                async with first_answer(self.interaction):
                    await self.interaction.response.defer(ephemeral=True, thinking=True)

    async def defer_late(self, delay: float) -> None:
        """If nothing answered the interaction `delay` seconds after it was made, defer it privately."""
        waited = delay - (discord.utils.utcnow() - self.interaction.created_at).total_seconds()
        await asyncio.sleep(max(0.0, waited))
        self.deferring = True  # from here on it is not cancelled (half a request would leave it unanswered)
        await self.defer()


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction) -> AsyncIterator[Answer]:
    """While the move of this interaction is played, its board may be its answer. A command is deferred
    if the move is not ready by `DEFER_AFTER`; a click must have been acknowledged already."""
    answer = Answer(interaction)
    token = _current.set(answer)
    deadline = None
    if not interaction.response.is_done():
        deadline = asyncio.create_task(answer.defer_late(DEFER_AFTER), name=f"defer-{interaction.id}")
    try:
        yield answer
    finally:
        answer.closed = True
        _current.reset(token)
        if deadline is not None:
            if not answer.deferring:
                deadline.cancel()
            with contextlib.suppress(asyncio.CancelledError, discord.HTTPException):
                await deadline


def current() -> Answer | None:
    """The interaction whose move is being played in this task, while it is."""
    answer = _current.get()
    return None if answer is None or answer.closed else answer


def caused(channel_id: int) -> Answer | None:
    """The interaction whose move led to this post, after its move is done (a computer's reply, which
    runs in a task started meanwhile and so sees it), while its webhook lasts: such a post may go out as
    one more followup, under no rate limit, where it goes to the same channel."""
    answer = _current.get()
    if answer is None or not answer.closed or answer.channel_id != channel_id:
        return None
    age = (discord.utils.utcnow() - answer.interaction.created_at).total_seconds()
    return answer if age < FOLLOWUPS_FOR and answer.interaction.response.is_done() else None


async def answer_first(board_in: int | None) -> None:
    """Before a post's requests: the interaction whose move led to it (if any) is answered, privately,
    unless the post is a board for `board_in`, the channel it came from, which `claim` makes its answer."""
    playing = current()
    if playing is not None and (board_in is None or playing.channel_id != board_in):
        await playing.defer()


def claim(channel_id: int) -> Answer | None:
    """The answer a board for `channel_id` may go out as: the interaction being played there, once."""
    answer = current()
    if answer is None or answer.used or answer.channel_id != channel_id or gone(answer.interaction):
        return None
    return answer
