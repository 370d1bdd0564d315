"""Attacks on buttons (issue 32), through the fake Discord: a custom_id is untrusted input. A button acts only
in the server and channel of what it belongs to (`views.Guarded`'s one check), a challenge's Accept names a
stored challenge and takes nothing else from its custom_id, and a number too long for any id is refused in
words. Discord only sends custom_ids that are on the message, so each forgery here is a message with the
button copied onto it, as a tampered client would make."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ClockSettings
from bot.discord_app import GameBot
from bot.models import Place, Player
from tests.discord_fake import DiscordFake, FakeGuild, FakeMessage
from tests.discord_helpers import make_bot

ELSEWHERE = "Other Guild"


@pytest.fixture
async def two_servers(fake: DiscordFake, db_path: Path) -> AsyncIterator[tuple[DiscordFake, GameBot, FakeGuild]]:
    """The fake's own server and a second one (everyone is a member of both), with the bot in each."""
    other = fake.add_guild(ELSEWHERE, channels=("lounge",))
    async with fake.run(make_bot(fake, db_path)) as bot:
        yield fake, bot, other  # type: ignore[misc]


def player(fake: DiscordFake, name: str) -> Player:
    return Player(f"discord:{fake.user(name)['id']}", name.title())


async def forged(fake: DiscordFake, user: str, channel: Any, custom_id: str) -> FakeMessage:
    """A message in `channel` with a button carrying `custom_id`: what a tampered client clicks on."""
    message = await fake.say(user, "look", channel=channel)
    message.components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}]}]
    return message


async def refusal(fake: DiscordFake, user: str, message: FakeMessage, custom_id: str) -> str:
    reply = await fake.click(user, message, custom_id)
    assert reply.ephemeral, reply
    return reply.content or ""


def lounge(fake: DiscordFake) -> Any:
    return next(fake.channel(c) for c in fake.channels if fake.channel(c).name == "lounge")


# --- every component checks where it is ---


async def test_a_board_button_acts_only_in_its_match_thread_or_channel(two_servers: Any) -> None:
    fake, bot, _ = two_servers
    match = await bot.matches.create_match(
        "fish", [player(fake, "alice"), player(fake, "bob")], seed=1, place=Place(fake.guild.id, fake.channel().id)
    )
    thread = await fake.wait_until(lambda: fake.threads[-1] if fake.threads else None, what="the match thread")
    mover = bot.matches.game(match).to_move(match.state)
    user = match.players[mover].name.lower()
    moves = f"moves:{match.id}:{match.ply}"
    elsewhere = await refusal(fake, user, await forged(fake, user, "games", moves), moves)
    assert elsewhere == "This button belongs to a post in another channel: use the one there."
    other_server = await refusal(fake, user, await forged(fake, user, lounge(fake), moves), moves)
    assert other_server == "This button belongs to another server: it does nothing here."
    resign = f"resign:{match.id}"
    assert "another server" in await refusal(fake, user, await forged(fake, user, lounge(fake), resign), resign)
    assert (await bot.matches.get(match.id)).running
    for place in (thread, fake.channel()):  # its thread, and the channel it opened in as stored: it works
        shown = await refusal(fake, user, await forged(fake, user, place, moves), moves)
        assert "Play one with `/fish move`" in shown


async def test_an_ephemeral_answer_works_wherever_its_command_was_used_in_the_server(two_servers: Any) -> None:
    """`/fish resign` may be used in any channel of the server: its confirmation, shown only to the asker,
    acts there (only its server counts)."""
    fake, bot, _ = two_servers
    match = await bot.matches.create_match(
        "fish", [player(fake, "alice"), player(fake, "bob")], seed=1, place=Place(fake.guild.id, fake.channel().id)
    )
    asked = await fake.slash("bob", "fish resign", {"match": match.id}, channel="games")
    assert asked.ephemeral
    done = await fake.click("bob", asked.message, label="Yes, resign")
    assert "You resigned." in "".join(m.content for m in done.followups)
    assert not (await bot.matches.get(match.id)).running


async def test_a_lobby_join_from_another_server_is_refused(two_servers: Any) -> None:
    fake, bot, _ = two_servers
    lobby = await bot.matches.lobbies.open_lobby(
        "volcano", player(fake, "alice"), place=Place(fake.guild.id, fake.channel().id)
    )
    join = f"lobby:join:{lobby.id}"
    text = await refusal(fake, "bob", await forged(fake, "bob", lounge(fake), join), join)
    assert text == "This button belongs to another server: it does nothing here."
    assert [p.name for p in (await bot.matches.lobbies.get_lobby(lobby.id)).players] == ["Alice"]
    assert "another channel" in await refusal(fake, "bob", await forged(fake, "bob", "games", join), join)
    await fake.click("bob", await forged(fake, "bob", fake.channel(), join), join)  # its own channel: it works
    assert [p.name for p in (await bot.matches.lobbies.get_lobby(lobby.id)).players] == ["Alice", "Bob"]


async def test_a_tournament_join_from_another_server_is_refused(two_servers: Any) -> None:
    fake, bot, _ = two_servers
    mod = player(fake, "owner")
    held = await bot.matches.tournaments.open("fish", "roundrobin", mod, place=Place(fake.guild.id, fake.channel().id))
    join = f"tournament:join:{held.id}"
    text = await refusal(fake, "carol", await forged(fake, "carol", lounge(fake), join), join)
    assert text == "This button belongs to another server: it does nothing here."
    assert (await bot.matches.tournaments.get(held.id)).tournament.entrants == ()


# --- challenges: the stored one, nothing else ---


async def test_a_challenge_button_naming_no_stored_challenge_starts_nothing(two_servers: Any) -> None:
    fake, bot, _ = two_servers
    made_up = "challenge:123456789"
    text = await refusal(fake, "bob", await forged(fake, "bob", "games", made_up), made_up)
    assert text == "There is no such challenge: ask for a new one."
    alice, bob = fake.user("alice")["id"], fake.user("bob")["id"]
    old = f"challenge:geyser:{alice}:{bob}:1:0"  # the format before challenges were stored: a 1 s clock
    text = await refusal(fake, "bob", await forged(fake, "bob", "games", old), old)
    assert "sent before the bot's update" in text and "`/geyser challenge`" in text
    assert bot.matches.running() == []


async def test_a_challenge_is_accepted_only_where_it_was_sent_and_as_it_was_stored(
    two_servers: Any, db_path: Path
) -> None:
    fake, bot, _ = two_servers
    asked = await fake.slash("alice", "themiscyra challenge", {"opponent": "bob", "clock": "1h/2h"}, channel="games")
    (custom_id,) = asked.message.custom_ids
    assert custom_id == f"challenge:{asked.interaction['id']}"  # only its id: nothing to tamper with
    text = await refusal(fake, "bob", await forged(fake, "bob", "general", custom_id), custom_id)
    assert text == "This button belongs to a post in another channel: use the one there."
    assert "another server" in await refusal(fake, "bob", await forged(fake, "bob", lounge(fake), custom_id), custom_id)
    assert bot.matches.running() == []
    # A restart before anyone accepts: the stored challenge is still there, and starts what it said.
    await bot.close()
    async with fake.run(make_bot(fake, db_path)) as restarted:
        accepted = await fake.click("bob", asked.message, custom_id)
        (match,) = restarted.matches.running()  # type: ignore[attr-defined]
        assert "is on" in (accepted.content or "") and asked.message.custom_ids == []  # Accept is gone
        assert match.game == "themiscyra" and [p.name for p in match.players] == ["Alice", "Bob"]
        assert match.clock is not None and match.clock.settings == ClockSettings(3600, 7200)


# --- numbers too long for any id ---


@pytest.mark.parametrize(
    "custom_id",
    [
        "moves:" + "9" * 25 + ":0",
        "resign:" + "1" * 5000,
        "lobby:join:99999999999999999999",
        "challenge:" + "9" * 19,
        f"challenge:{2**63}",
    ],
)
async def test_a_number_longer_than_any_id_is_refused_in_words(two_servers: Any, custom_id: str) -> None:
    fake, bot, _ = two_servers
    text = await refusal(fake, "bob", await forged(fake, "bob", "games", custom_id), custom_id)
    assert text == "This button carries a number longer than any the bot writes: it does nothing."
    assert fake.errors == [] and bot.matches.running() == []


async def test_a_ply_mark_of_thousands_of_digits_is_refused_in_words(two_servers: Any) -> None:
    fake, bot, _ = two_servers
    match = await bot.matches.create_match(
        "fish", [player(fake, "alice"), player(fake, "bob")], seed=1, place=Place(fake.guild.id, fake.channel().id)
    )
    thread = await fake.wait_until(lambda: fake.threads[-1] if fake.threads else None, what="the match thread")
    user = match.players[bot.matches.game(match).to_move(match.state)].name.lower()
    move = bot.matches.game(match).legal_moves(match.state)[0]
    reply = await fake.slash(user, "fish move", {"move": f"{move}@{'9' * 5000}"}, channel=thread)
    assert reply.ephemeral and "names no board" in (reply.content or "")
    assert (await bot.matches.get(match.id)).ply == 0 and fake.errors == []


async def test_a_tournament_result_of_thousands_of_digits_is_refused_in_words(two_servers: Any) -> None:
    fake, bot, _ = two_servers
    here = Place(fake.guild.id, fake.channel().id)
    held = await bot.matches.tournaments.open("fish", "roundrobin", player(fake, "mod"), place=here)
    for name in ("alice", "bob"):
        await bot.matches.tournaments.join(held.id, player(fake, name))
    await bot.matches.tournaments.start_tournament(held.id, player(fake, "mod"))
    options = {"round": 1, "board": 1, "result": "9" * 5000, "tournament": held.id}
    reply = await fake.slash("mod", "tournament adjudicate", options)
    assert reply.ephemeral and "Give the result as" in (reply.content or "") and fake.errors == []


def test_every_component_says_where_it_belongs() -> None:
    """`Guarded.home` has no default: a new button that forgot it would be refused with the apology, so
    each registered component class (every cog's) defines it, and reads its custom_id with `from_match`."""
    from bot.cogs import base, horizon, lobby, tournament
    from bot.views import Guarded

    owners = (base.TwoPlayerCog, lobby.LobbyCog, horizon.HorizonCog, tournament.TournamentCog)
    components = {item for cog in owners for item in cog.components}
    assert len(components) >= 10
    for item in components:
        assert issubclass(item, Guarded)
        assert item.home is not Guarded.home, item.__name__
        assert item.from_match.__func__ is not Guarded.from_match.__func__, item.__name__  # type: ignore[attr-defined]
