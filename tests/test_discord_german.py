"""A German-speaking server plays a whole game in German (issue #37's "Done when"), through the real discord.py
code and the fake Discord: the server's Discord language is German and so is every player's client. Every
text the bot sends (public posts, private answers, buttons, thread names, alt text) and every word drawn
in its pictures is German: none holds a word only English has, and each sentence holds German words.

The marking run (tests/strays.py) already fails any English that skipped the catalog; this test also
catches English that went through it untranslated, and a public post made in the wrong language."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot import i18n
from bot.discord_app import GameBot
from bot.games import GAMES
from tests.discord_fake import DiscordFake
from tests.discord_fake.heard import read
from tests.discord_helpers import boards, custom_ids, was_played
from tests.german_words import english_in, not_german

FISH = GAMES["fish"]


def texts_sent(fake: DiscordFake) -> Iterator[tuple[str, str]]:
    """(where, text) of everything the bot sent players (command syncs left out)."""
    for request in fake.requests:
        where = f"{request.method} {request.path}"
        for key, text in read(request.json, where):
            yield f"{where} {key}", text


@pytest.fixture
def german(fake: DiscordFake) -> DiscordFake:
    fake.guild.locale = "de"  # the server's "Primary Language"
    for user in ("alice", "bob", "carol", "mod"):
        fake.set_locale(user, "de")
    return fake


async def test_a_german_server_plays_a_whole_game_in_german(
    german: DiscordFake, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = german
    drawn: list[str] = []
    said = i18n.said

    def drawing(text: str, where: str) -> str:
        if where == "picture":
            drawn.append(i18n.unmarked(text))
        return said(text, where)

    monkeypatch.setattr(i18n, "said", drawing)

    challenge = await fake.slash("alice", "fish challenge", {"opponent": "bob"})
    accept = next(button for button in custom_ids(challenge.message) if button.startswith("challenge:"))
    await fake.click("bob", challenge.message, accept)
    thread = fake.threads[-1]
    refused = await fake.slash("bob", "fish move", {"move": "Z9"}, channel=thread)
    assert refused.ephemeral and refused.content
    rng = random.Random(7)
    while (match := await bot.matches.get(1)).running:
        user = match.players[FISH.to_move(match.state)].name.lower()
        move = rng.choice(FISH.legal_moves(match.state))
        reply = await fake.slash(user, "fish move", {"move": f"{move}@{match.ply}"}, channel=thread)
        assert was_played(reply), reply.content
        if match.ply == 12:
            assert (await fake.slash("carol", "fish moves", {"match": 1}, channel=thread)).content
            assert (await fake.slash("carol", "fish board", {"match": 1, "text": True}, channel=thread)).content
    assert (await fake.slash("carol", "fish history", {"match": 1})).content
    assert (await fake.slash("carol", "games")).content
    assert boards(fake, thread)[-1].attachments[0].description

    names = fake.people_names() | {name.capitalize() for name in fake.people_names()}
    english = [(where, text, found) for where, text in texts_sent(fake) if (found := english_in(text, names))]
    assert len(drawn) > 100  # the boards were drawn, their words read
    english += [("picture", text, found) for text in drawn if (found := english_in(text, names))]
    assert english == []
    assert len(list(texts_sent(fake))) > 50
    assert [(where, text) for where, text in texts_sent(fake) if not_german(text, names)] == []
    assert thread.name and not english_in(thread.name, names)
