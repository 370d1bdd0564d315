"""The game commands in the player's own language (issue #37), through the real discord.py code and the fake
Discord: a German user's refusals and private answers from the game, lobby, moderator, challenge and
tournament commands come in German (their Discord client's locale) while an English user's, in the same
server at the same time, stay English; public posts (a challenge, a lobby) speak the server's language,
whoever caused them; and a long German refusal keeps under Discord's limits."""

from __future__ import annotations

from typing import Any

from bot import discord_limits as limits
from bot import i18n
from bot.discord_app import GameBot
from bot.games import GAMES
from tests.discord_fake import DiscordFake
from tests.discord_helpers import was_played
from tests.test_discord_strict import quiet_steps

FISH, VOLCANO = GAMES["fish"], GAMES["volcano"]


async def fish_match(fake: DiscordFake) -> Any:
    """alice challenges bob, bob accepts: the match's thread."""
    challenge = await fake.slash("alice", "fish challenge", {"opponent": "bob"})
    await fake.click("bob", challenge.message, label="Accept")
    return fake.threads[-1]


async def test_a_german_user_is_refused_in_german_and_an_english_user_in_english(
    fake: DiscordFake, bot: GameBot
) -> None:
    thread = await fish_match(fake)
    match = await bot.matches.get(1)
    mover = match.players[FISH.to_move(match.state)].name
    other = next(p.name for p in match.players if p.name != mover).lower()
    legal = FISH.legal_moves(match.state)[0]

    german = await fake.slash(other, "fish move", {"move": legal}, channel=thread, locale="de")
    english = await fake.slash(other, "fish move", {"move": legal}, channel=thread)
    assert german.ephemeral and german.content == f"{mover} ist am Zug, nicht du."
    assert english.ephemeral and english.content == f"It is {mover}'s turn, not yours."

    missing = await fake.slash("alice", "fish board", {"match": 99}, channel=thread, locale="de")
    assert missing.ephemeral and missing.content == "Es gibt keine Partie #99."
    itself = await fake.slash("alice", "fish challenge", {"opponent": "alice"}, locale="de")
    assert itself.ephemeral and itself.content == "Du kannst dich nicht selbst herausfordern."
    stranger = await fake.slash("carol", "fish takeback", {"match": 1}, locale="de")
    assert stranger.content == "Du spielst nicht in Partie #1 mit."

    played = await fake.slash(mover.lower(), "fish move", {"move": f"{legal}@0"}, channel=thread)
    assert was_played(played)
    stale = await fake.slash(other, "fish move", {"move": f"{legal}@0"}, channel=thread, locale="fr")
    assert stale.content == ("Le plateau a changé depuis que tu l'as regardé : regarde le nouveau plateau et réessaie.")


async def test_a_moderators_answers_and_refusals_come_in_their_language(fake: DiscordFake, bot: GameBot) -> None:
    thread = await fish_match(fake)
    untimed = await fake.slash("mod", "mod pause", channel=thread, locale="de")
    assert untimed.ephemeral and untimed.content == "Partie #1 hat keine Uhr, also gibt es nichts anzuhalten."
    english = await fake.slash("mod", "mod pause", channel=thread)
    assert english.content == "Match #1 has no clock, so there is nothing to pause."
    listed = await fake.slash("mod", "mod list", locale="es-ES")
    assert listed.ephemeral and (listed.content or "").startswith("1 partida en curso:")
    refused = await fake.slash(
        "alice", "fish dm", {"player1": "alice", "player2": "bob", "first": "bob"}, locale="pt-BR"
    )
    assert refused.ephemeral and (refused.content or "").startswith("Só moderadores")


async def test_lobby_refusals_are_the_users_and_the_lobby_post_the_servers(fake: DiscordFake, bot: GameBot) -> None:
    none = await fake.slash("bob", "volcano join", channel="games", locale="de")
    assert none.ephemeral and none.content == (
        "In diesem Kanal gibt es keine Volcano-Lobby zum Beitreten: Eröffne eine mit `/vulkan neu`."
    )  # the command as a German user's Discord names it
    await fake.slash("mod", "settings set", {"setting": "language", "value": "de"})  # its public posts: German
    opened = await fake.slash("alice", "volcano new", channel="games")  # an English user opens it
    lobby = opened.message
    assert not opened.ephemeral
    labels = [c["label"] for row in lobby.components for c in row["components"]]
    assert labels == ["Beitreten", "Verlassen", "Computer hinzufügen", "Starten"]
    joined = await fake.slash("bob", "volcano join", channel="games")
    assert (joined.content or "").startswith("Bob ist beigetreten.")
    again = await fake.click("bob", lobby, label="Beitreten")  # a refusal is the clicker's own: English
    assert again.ephemeral and again.content == "You are already in lobby #1."
    german = await fake.slash("bob", "volcano leave", {"lobby": 7}, channel="games", locale="de")
    assert german.ephemeral and german.content == "Es gibt keine Lobby #7."


async def test_a_challenge_is_posted_in_the_servers_language(fake: DiscordFake, bot: GameBot) -> None:
    await fake.slash("mod", "settings set", {"setting": "language", "value": "fr"})
    challenge = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, locale="de")
    bob = fake.user("bob")["id"]
    assert not challenge.ephemeral and (challenge.content or "").startswith(f"<@{bob}>, <@")
    assert (challenge.content or "").endswith('te défie à "1, 2, 3".')
    assert [c["label"] for row in challenge.message.components for c in row["components"]] == ["Accepter"]
    wrong = await fake.click("carol", challenge.message, label="Accepter")  # the clicker's own language
    assert wrong.ephemeral and wrong.content == "This challenge is not yours to accept."
    accepted = await fake.click("bob", challenge.message, label="Accepter")
    assert "La partie n°1 a commencé" in (accepted.content or "")


async def test_autocomplete_names_are_in_the_users_language(fake: DiscordFake, bot: GameBot) -> None:
    await fake.slash("alice", "volcano new", channel="games")
    await fake.slash("bob", "volcano join", channel="games")
    await fake.slash("alice", "volcano start", channel="games")
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    match.state = VOLCANO.state_from_position({"a1": "R3G2", "b5": "R1Y1G1B1C1"}, "a1 e1 a5 e5 c3", seats=2)
    typed = ", ".join(quiet_steps(match.state, count=20)) + ", "
    (german,) = await fake.autocomplete("alice", "volcano move", {"move": typed}, channel=thread, locale="de")
    (english,) = await fake.autocomplete("alice", "volcano move", {"move": typed}, channel=thread)
    assert german["value"] == english["value"]  # the value is the notation: never translated
    assert german["name"].startswith("Die ersten ") and ", dann weiter: " in german["name"]
    assert english["name"].startswith("Send the first ") and len(german["name"]) <= limits.CHOICE

    roles = await fake.autocomplete("mod", "settings set", {"setting": "mod_role", "value": ""}, locale="de")
    assert roles[0] == {"name": "none (nur „Server verwalten“)", "value": "none"}


async def test_tournament_answers_speak_the_users_language(fake: DiscordFake, bot: GameBot) -> None:
    nothing = await fake.slash("alice", "tournament join", locale="de")
    assert nothing.ephemeral and nothing.content == (
        "Hier läuft kein Turnier: Ein Moderator eröffnet eines mit `/turnier neu`."
    )
    await fake.slash("mod", "tournament new", {"game": "fish", "format": "swiss"})
    joined = await fake.slash("alice", "tournament join", locale="es-ES")
    assert joined.ephemeral and joined.content == "Te has inscrito en el torneo #1 (1 jugador hasta ahora)."
    early = await fake.slash("mod", "tournament start", locale="de")
    assert early.ephemeral and early.content == "Ein Turnier braucht mindestens 2 Spieler; 1 hat sich angemeldet."


def test_a_long_german_refusal_stays_under_discords_limits() -> None:
    """The longest refusal a start command can meet (the server's match channel gone bad), with the longest
    mentions Discord writes, in German (longer than English): under a message's 2,000 characters."""
    from bot.cogs import command_name

    def refusal() -> str:
        channel = "<#" + "9" * 20 + ">"
        permissions = ", ".join(
            i18n._(name) for name in ("View Channel", "Send Messages", "Attach Files", "Create Public Threads")
        )
        problem = i18n._("the bot may not post boards in {channel} (it lacks {permissions} there)").format(
            channel=channel, permissions=permissions
        )
        return i18n._(
            "New matches here go to {channel} (the server's match_channel setting), but {problem}. A moderator can"
            " choose another with `{set} setting:match_channel`, or `{reset}` it to start matches where they are"
            " asked for."
        ).format(
            channel=channel,
            problem=problem,
            set=command_name("settings", "set"),
            reset=command_name("settings", "reset"),
        )

    english = i18n.unmarked(refusal())  # the tests mark every looked-up string (bot/i18n.py `marking`)
    with i18n.using("de"):
        german = i18n.unmarked(refusal())
    assert german.startswith("Neue Partien gehen hier nach") and "Kanal ansehen" in german
    assert "`/einstellungen setzen setting:match_channel`" in german
    assert len(english) < len(german) <= limits.MESSAGE
