"""bot/discord_limits.py: the helpers that keep every send within Discord's documented limits."""

from __future__ import annotations

import re

import pytest

from bot import discord_limits as limits
from bot import i18n

MENTION = re.compile(r"@(everyone|here)|<@[!&]?\d+>|<#\d+>")


@pytest.mark.parametrize(
    "name",
    [
        "@everyone",
        "@here and @everyone",
        "<@123456789012345678>",
        "<@!123456789012345678>",
        "<@&123456789012345678>",
        "<#123456789012345678>",
        "@everyone <@&9> me",
    ],
)
def test_neutral_leaves_no_mention_syntax_and_reads_the_same(name: str) -> None:
    inert = limits.neutral(name)
    assert MENTION.search(inert) is None
    assert inert.replace("\u200b", "") == name  # the same text to read, one invisible space apart


def test_neutral_keeps_plain_names() -> None:
    assert limits.neutral("Alice the @ great <3") == "Alice the @ great <3"


def test_clip_cuts_on_a_line_with_a_marker() -> None:
    text = "\n".join(f"line {i:04d}" for i in range(400))  # 3,999 characters
    clipped = limits.clip(text)
    assert len(clipped) <= limits.MESSAGE and clipped.endswith("\n…")
    assert clipped[:-2].split("\n")[-1].startswith("line ")  # whole lines only
    assert limits.clip("short") == "short"


def test_pages_hold_every_line_once_and_each_fits() -> None:
    lines = [f"#{i} {'x' * 250}" for i in range(40)]
    pages = []
    number = 1
    while True:
        text = i18n.unmarked(limits.page(lines, number, command="/games"))  # as Discord gets it
        assert len(text) <= limits.MESSAGE
        pages.append(text)
        if "for the next" not in text:
            break
        assert f"`/games page:{number + 1}`" in text
        number += 1
    shown = [line for text in pages for line in text.split("\n") if line.startswith("#")]
    assert shown == lines and len(pages) > 1
    assert pages[-1].endswith(f"Page {len(pages)} of {len(pages)}.")
    assert i18n.unmarked(limits.page(lines, 999, command="/games")) == pages[-1]  # past the end: the last page
    assert limits.page(["one", "two"], 1, command="/games") == "one\ntwo"  # one page: no footer


def test_and_more_says_how_many_were_left_out() -> None:
    lines = [f"match {i} " + "y" * 90 for i in range(50)]
    text = i18n.unmarked(limits.and_more(lines))
    assert len(text) <= limits.MESSAGE
    kept = text.split("\n")
    left = int(re.fullmatch(r"…and (\d+) more", kept[-1])[1])  # type: ignore[index]
    assert kept[:-1] == lines[: len(kept) - 1] and left == len(lines) - (len(kept) - 1)
    assert limits.and_more(["a", "b"]) == "a\nb"


def test_pages_and_the_rest_in_german_fit_too() -> None:
    """The footers are the reader's language's, and longer German words still leave every page in bounds."""
    lines = [f"#{i} {'x' * 250}" for i in range(40)]
    with i18n.using("de"):
        first = i18n.unmarked(limits.page(lines, 1, command="/games"))
        last = i18n.unmarked(limits.page(lines, 999, command="/games"))
        rest = i18n.unmarked(limits.and_more([f"match {i} " + "y" * 90 for i in range(50)]))
    assert first.endswith("— `/games page:2` für die nächste.") and first.split("\n")[-1].startswith("Seite 1 von ")
    assert re.search(r"\nSeite (\d+) von \1\.$", last)
    assert re.search(r"\n…und \d+ weitere$", rest)
    assert max(len(first), len(last), len(rest)) <= limits.MESSAGE


def test_pinging_names_exactly_the_users_and_nothing_else() -> None:
    assert limits.pinging(11, 22).to_dict() == {"parse": [], "users": [11, 22]}  # no roles, no @everyone
    assert limits.NOBODY.to_dict() == {"parse": []}


def test_shorten() -> None:
    assert limits.shorten("x" * 150, 100) == "x" * 99 + "…"
    assert limits.shorten("ok", 100) == "ok"
