"""/settings through the real discord.py code against the fake Discord: anyone sees the server's settings, only
moderators change them (and the moderator role set by /settings makes a moderator at once), every answer is
private, a bad value changes nothing, and new matches open their threads in the match channel, which must be a
channel of the server the bot can use."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.clock import ClockSettings
from bot.discord_app import GameBot
from bot.service import SETTINGS
from tests.discord_fake import EVERYONE_PERMISSIONS, DiscordFake
from tests.discord_helpers import RATE_SCALE, boards

REFEREE_ID = 990_000_000_000_000_001


@pytest.fixture
async def fake() -> AsyncIterator[DiscordFake]:
    """The usual fake, with a Referee role (no permissions of its own) that carol holds."""
    async with DiscordFake.serve(rate_scale=RATE_SCALE) as fake:
        referee = {**fake.guild.role("Moderator"), "id": str(REFEREE_ID), "name": "Referee"}
        referee["permissions"] = str(EVERYONE_PERMISSIONS)
        fake.guild.roles.append(referee)
        fake.member("carol")["roles"].append(str(REFEREE_ID))
        yield fake


def setting(key: str, value: str) -> dict[str, Any]:
    return {"setting": key, "value": value}


async def test_anyone_sees_the_settings_privately(fake: DiscordFake, bot: GameBot) -> None:
    reply = await fake.slash("alice", "settings show", channel="general")
    text = reply.content or ""
    assert reply.ephemeral and len(text) <= 2000
    lines = text.splitlines()
    assert lines[0] == (
        "This server's settings (every setting is the default). Moderators change one with `/settings set` and put"
        " it back with `/settings reset`."
    )
    assert [line.split(" ", 2)[1] for line in lines[1:]] == list(SETTINGS)
    assert "• mod_role (the moderator role (Manage Server always moderates)): the role named 'Game Master'" in text
    assert "• rated (finished games change the players' ratings): on — the default" in text
    assert fake.channel_messages("general") == [] and fake.unsafe_pings() == []


async def test_only_moderators_change_a_setting(fake: DiscordFake, bot: GameBot) -> None:
    refused = await fake.slash("alice", "settings set", setting("rated", "off"))
    assert refused.ephemeral
    assert refused.content == "Only moderators (Manage Server permission or the Game Master role) can do that."
    reset = await fake.slash("alice", "settings reset", {"setting": "rated"})
    assert reset.ephemeral and (reset.content or "").startswith("Only moderators")
    assert bot.matches.settings.rated(fake.guild.id) and await bot.matches.store.load_settings() == []

    done = await fake.slash("mod", "settings set", setting("rated", "off"))
    assert done.ephemeral and done.content == (
        "Set rated to off: games here are unrated, finished games change no ratings (was on, the default)."
    )
    assert not bot.matches.settings.rated(fake.guild.id)
    mod_id = fake.user("mod")["id"]
    shown = await fake.slash("bob", "settings show")
    assert f"off: games here are unrated, finished games change no ratings — set by <@{mod_id}> <t:" in (
        shown.content or ""
    )
    back = await fake.slash("mod", "settings reset", {"setting": "rated"})
    assert back.content == (
        "Reset rated to its default, on (was off: games here are unrated, finished games change no ratings)."
    )
    assert fake.unsafe_pings() == [] and fake.pinged("mod") == []


async def test_the_moderator_role_set_by_settings_makes_a_moderator(fake: DiscordFake, bot: GameBot) -> None:
    before = await fake.slash("carol", "settings set", setting("limit_lobbies", "2"))
    assert (before.content or "").startswith("Only moderators")
    named = await fake.slash("mod", "settings set", setting("mod_role", "@referee"))  # by name, any case
    assert named.ephemeral and named.content == (
        f"Set mod_role to <@&{REFEREE_ID}> (was the role named 'Game Master' (MOD_ROLE), the default)."
    )
    assert bot.matches.settings.mod_role(fake.guild.id) == REFEREE_ID

    now = await fake.slash("carol", "settings set", setting("limit_lobbies", "2"))
    assert now.ephemeral and now.content == "Set limit_lobbies to 2 (was 3, the default)."
    dm = await fake.slash("carol", "fish dm", {"player1": "alice", "player2": "bob", "first": "alice"})
    assert not dm.followups[0].ephemeral and "started a best-of-3 death match" in dm.followups[0].content
    refused = await fake.slash("alice", "fish dm", {"player1": "alice", "player2": "bob", "first": "alice"})
    assert refused.content == f"Only moderators (Manage Server permission or the <@&{REFEREE_ID}> role) can do that."

    await fake.slash("mod", "settings set", setting("mod_role", f"<@&{REFEREE_ID}>"))  # a mention works too
    off = await fake.slash("carol", "settings set", setting("mod_role", "none"))
    assert off.content == f"Set mod_role to none (Manage Server only) (was <@&{REFEREE_ID}>)."
    after = await fake.slash("carol", "settings set", setting("limit_lobbies", "3"))
    assert after.content == "Only moderators (Manage Server permission) can do that."
    assert fake.unsafe_pings() == []


@pytest.mark.parametrize(
    ("key", "value", "refusal"),
    [
        ("limit_lobbies", "0", "limit_lobbies takes a whole number from 1 to 1,000, not '0'; nothing changed."),
        ("mod_role", "Nobody", "There is no role 'Nobody' in this server: mention the role (@Role), give its id, or"
         " say none (Manage Server only). Nothing changed."),
        ("mod_role", "@everyone", "@everyone cannot be the moderator role: everyone would moderate. Nothing changed."),
        ("match_channel", "#lounge", "There is no text channel '#lounge' in this server: mention it (#channel), give"
         " its id, or say here (where each match is started). Nothing changed."),
        ("match_channel", "<#123456789>", "Matches cannot go there: <#123456789> is not a channel of this server that"
         " the bot can see (deleted, or another server's). Nothing changed."),
    ],
)  # fmt: skip
async def test_a_bad_value_is_refused_privately_and_changes_nothing(
    fake: DiscordFake, bot: GameBot, key: str, value: str, refusal: str
) -> None:
    reply = await fake.slash("mod", "settings set", setting(key, value))
    assert reply.ephemeral and reply.content == refusal
    assert await bot.matches.store.load_settings() == []


async def test_new_matches_open_their_threads_in_the_match_channel(fake: DiscordFake, bot: GameBot) -> None:
    games = fake.channel("games")
    done = await fake.slash("mod", "settings set", setting("match_channel", "#games"))
    assert (
        done.content
        == f"Set match_channel to <#{games.id}> (was the channel where each match is started, the default)."
    )
    sent = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="general")
    assert sent.message is not None and sent.message.channel_id == fake.channel("general").id  # the challenge: here
    accepted = await fake.click("bob", sent.message, label="Accept")
    thread = fake.threads[-1]
    assert thread.parent_id == games.id and f"<#{thread.id}>" in (accepted.content or "")
    assert boards(fake, thread) and not boards(fake, "general")
    match = bot.matches.running()[-1]
    assert (match.place.channel_id, match.place.thread_id) == (games.id, thread.id)

    opened = await fake.slash("alice", "volcano new", channel="general")  # a lobby stays where it is opened
    assert opened.message is not None and opened.message.channel_id == fake.channel("general").id
    await fake.slash("alice", "volcano start", channel="general")
    assert fake.threads[-1].parent_id == games.id and fake.threads[-1].id != thread.id


async def test_a_match_channel_gone_since_is_refused_in_words_before_anything_starts(
    fake: DiscordFake, bot: GameBot
) -> None:
    games = fake.channel("games")
    await fake.slash("mod", "settings set", setting("match_channel", f"<#{games.id}>"))
    await fake.delete_channel(games)
    refused = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="general")
    assert refused.ephemeral and refused.content == (
        f"New matches here go to <#{games.id}> (the server's match_channel setting), but <#{games.id}> is not a"
        " channel of this server that the bot can see (deleted, or another server's). A moderator can choose"
        " another with `/settings set setting:match_channel`, or `/settings reset` it to start matches where they"
        " are asked for."
    )
    computer = await fake.slash("alice", "fish challenge", {"opponent": fake.bot_user}, channel="general")
    assert computer.ephemeral and (computer.content or "").startswith("New matches here go to")
    lobby = await fake.slash("alice", "geyser new", channel="general")
    assert lobby.ephemeral and (lobby.content or "").startswith("New matches here go to")
    assert bot.matches.running() == [] and fake.channel_messages("general") == []

    await fake.slash("mod", "settings reset", {"setting": "match_channel"})
    sent = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="general")
    await fake.click("bob", sent.message, label="Accept")
    assert fake.threads[-1].parent_id == fake.channel("general").id


async def test_a_start_without_clock_gets_the_servers_default_clock(fake: DiscordFake, bot: GameBot) -> None:
    await fake.slash("mod", "settings set", setting("default_clock", "1d/7d"))
    sent = await fake.slash("alice", "fish challenge", {"opponent": "bob"})
    assert "with 1 d a move + 7 d reserve" in (sent.content or "")
    await fake.click("bob", sent.message, label="Accept")
    untimed = await fake.slash("alice", "fish challenge", {"opponent": "carol", "clock": "none"})
    await fake.click("carol", untimed.message, label="Accept")
    first, second = bot.matches.running()
    assert first.clock is not None and first.clock.settings == ClockSettings(86_400, 7 * 86_400)
    assert second.clock is None


async def test_value_suggestions_fit_the_setting(fake: DiscordFake, bot: GameBot) -> None:
    roles = await fake.autocomplete("mod", "settings set", {"setting": "mod_role", "value": "ref"})
    assert roles == [{"name": "ref", "value": "ref"}, {"name": "@Referee", "value": f"<@&{REFEREE_ID}>"}]
    channels = await fake.autocomplete("mod", "settings set", {"setting": "match_channel", "value": ""})
    assert [c["name"] for c in channels] == ["here (where each match is started)", "#general", "#games"]
    on_off = await fake.autocomplete("alice", "settings set", {"setting": "rated", "value": ""})
    assert [c["value"] for c in on_off] == ["on", "off"]
    clocks = await fake.autocomplete("mod", "settings set", {"setting": "default_clock", "value": "1d"})
    assert [c["value"] for c in clocks] == ["1d/7d", "1d"]  # what was typed is offered already


def test_the_setting_choices_fit_discord() -> None:
    from bot.cogs.settings import SETTING_CHOICES

    assert len(SETTING_CHOICES) == len(SETTINGS) <= 25
    assert all(len(c.name) <= 100 and len(c.value) <= 100 for c in SETTING_CHOICES)
