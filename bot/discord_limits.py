"""Discord's documented limits, and the helpers that keep every send within them.

Discord answers 400 to a message over 2,000 characters or an autocomplete choice over 100, so nothing the
bot sends is left to chance: long lists are paged, long texts cut on a line with a marker, and user text
(names, nicknames) has its mention syntax neutralised so that only the pings we mean go out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import discord

from bot import i18n
from bot.i18n import _

MESSAGE = 2000
"""Characters in a message's content."""
CHOICE = 100
"""Characters in an autocomplete choice's name and value (and a select option's label and value)."""
CHOICES = 25
"""Autocomplete choices, and options in a select menu."""
THREAD_NAME = 100
"""Characters in a thread's name."""
BUTTON_LABEL = 80
"""Characters in a button's label."""
LONGEST_ARCHIVE = 10080
"""Minutes of quiet before Discord archives a thread, the longest it offers (60, 1440, 4320 or 10080;
every server may use all four since 2022): games by post go days between moves."""

_MENTION = re.compile(r"@(everyone|here)|<(@[!&]?|#)(\d+)>")


def neutral(text: str) -> str:
    """`text` with every mention made inert (a zero-width space after the @ or <), so a nickname such as
    `@everyone <@&123>` reads as itself and pings nobody, whatever a message's allowed mentions."""
    return _MENTION.sub(lambda m: f"@\u200b{m[1]}" if m[1] else f"<\u200b{m[2]}{m[3]}>", text)


def clip(text: str, limit: int = MESSAGE, marker: str = "\n…") -> str:
    """`text` cut to `limit` characters, on a line break where there is one, ending with `marker`."""
    if len(text) <= limit:
        return text
    room = limit - len(marker)
    head = text[:room]
    if "\n" in head[room // 2 :]:
        head = head[: head.rindex("\n")]
    return head + marker


def shorten(text: str, limit: int) -> str:
    """One line cut to `limit` characters with an ellipsis (choice names, labels)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def page(lines: Sequence[str], number: int, *, command: str, limit: int = MESSAGE) -> str:
    """Page `number` (from 1) of `lines`, as many whole lines as fit, with a footer saying how to see the
    next page (`command` is e.g. "/games"). Pages are cut greedily, so every page is within `limit`."""
    footer_room = 120  # the footer, in the longest language
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        line = clip(line, limit - footer_room, "…")
        if pages[-1] and size + len(line) + 1 > limit - footer_room:
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += len(line) + 1
    count = len(pages)
    number = min(max(1, number), count)
    text = "\n".join(pages[number - 1])
    if count > 1:
        if number < count:
            footer = _("Page {number} of {count} — `{command}` for the next.").format(
                number=number, count=count, command=f"{command} page:{number + 1}"
            )
        else:
            footer = _("Page {number} of {count}.").format(number=number, count=count)
        text += "\n" + footer
    return text


def split(text: str, limit: int = MESSAGE) -> list[str]:
    """`text` as messages of at most `limit` characters each, cut between lines (a line longer than a
    message is cut with `clip`): a long text board is sent as several messages, none cut inside a line."""
    messages: list[str] = []
    for line in text.split("\n"):
        line = clip(line, limit, "…")
        if messages and len(messages[-1]) + 1 + len(line) <= limit:
            messages[-1] += "\n" + line
        else:
            messages.append(line)
    return messages


def and_more(lines: Iterable[str], limit: int = MESSAGE) -> str:
    """As many whole lines as fit in `limit`, then "…and N more" for the rest."""
    kept: list[str] = []
    all_lines = list(lines)
    size = 0
    for index, line in enumerate(all_lines):
        rest = len(all_lines) - index
        more = _("…and {count} more").format(count=i18n.number(rest))
        if size + len(line) + 1 + (len(more) + 1 if rest > 1 else 0) > limit:
            kept.append(more)
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def pinging(*user_ids: int) -> discord.AllowedMentions:
    """Mentions that ping exactly these users: never @everyone, @here, roles or anyone else named."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in user_ids]
    )


NOBODY = discord.AllowedMentions.none()
