"""`/<game> review` through the real discord.py code against the fake Discord: a whole game of each game
stepped through with ▶ in one private message, every picture checked against the position the move log
gives; the key moments, Show here, restarts; and what a review of a running Event Horizon game shows a
spectator (nothing hidden changes a byte) and a player (their own hand only)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot import i18n, move_log, review
from bot.discord_app import GameBot
from bot.games import GAMES
from bot.games.horizon import card_name
from bot.models import Place, Player
from renderers import DRAWERS, describe, render
from renderers.png import to_png
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, custom_ids, make_bot

HORIZON = GAMES["horizon"]
SEEDS = {"fish": 3, "volcano": 3, "themiscyra": 3, "geyser": 5, "horizon": 3}


def players(fake: DiscordFake, *names: str) -> list[Player]:
    return [Player(f"discord:{fake.user(n)['id']}", n.title()) for n in names]


async def play(bot: GameBot, match_id: int, rng: random.Random, most: int = 10_000) -> Any:
    """Random legal moves by the players until the game is over (or `most` moves)."""
    for _ in range(most):
        match = await bot.matches.get(match_id)
        if not match.running:
            break
        game = GAMES[match.game]
        seat = game.to_move(match.state)
        await bot.matches.move(match.id, match.players[seat].id, rng.choice(game.legal_moves(match.state)))
    return await bot.matches.get(match_id)


async def start(fake: DiscordFake, bot: GameBot, key: str) -> Any:
    return await bot.matches.create_match(
        key, players(fake, "alice", "bob"), seed=SEEDS[key], place=Place(fake.guild.id, fake.channel("games").id)
    )


async def logged_positions(bot: GameBot, match: Any) -> list[Any]:
    """The positions the stored log gives, rebuilt here independently of the review."""
    log = await bot.matches.log(match.id)
    return move_log.positions(GAMES[match.game], len(match.players), match.seed, match.options, log)


def picture(message: Any) -> Any:
    (attachment,) = message.attachments
    assert attachment.data.startswith(PNG)
    return attachment


@pytest.mark.parametrize("key", list(GAMES))
async def test_every_move_of_a_whole_game_is_shown_as_the_log_gives_it(
    fake: DiscordFake, bot: GameBot, key: str
) -> None:
    match = await play(bot, (await start(fake, bot, key)).id, random.Random(1))
    assert not match.running
    positions = await logged_positions(bot, match)
    game = GAMES[key]
    opened = await fake.slash("carol", f"{key} review", {"match": match.id, "move": 0}, channel="games")
    message = opened.message
    assert opened.ephemeral and message is not None
    seen = []
    for ply, state in enumerate(positions):
        if ply:
            reply = await fake.click("carol", message, label="▶")
            assert reply.message is message and not reply.followups  # the same message, edited
        # a finished game shows its positions as its final board does: nothing hidden, no seed
        shown = replace(state, seed=None) if key == "horizon" else game.view(state, None)
        caption = review.caption(review.replay(match, await bot.matches.log(match.id)), ply)
        assert picture(message).data == to_png(DRAWERS[key](shown, None, caption)), ply
        assert picture(message).description.startswith(f"Move {ply} of {len(positions) - 1} of match #{match.id}.")
        assert f"move {ply} of {len(positions) - 1}" in message.content
        bold = [line for line in message.content.splitlines()[1:] if line.startswith("**")]
        assert bold and bold[0].startswith(f"**{ply}. "), message.content  # the shown move, in bold
        seen.append(picture(message).data)
    assert len(message.content) <= 2000
    assert message.component(label="▶")["disabled"] and message.component(label="⏭")["disabled"]
    await fake.click("carol", message, label="⏮")
    assert picture(message).data == seen[0] and message.component(label="◀")["disabled"]
    await fake.click("carol", message, label="⏭")
    assert picture(message).data == seen[-1]
    reviews = review.reviews_of(bot.matches)
    assert reviews.replays_made == 1  # one replay for the whole review


async def test_a_running_game_is_reviewed_from_the_public_view_and_the_newest_position_by_default(
    fake: DiscordFake, bot: GameBot
) -> None:
    match = await play(bot, (await start(fake, bot, "geyser")).id, random.Random(2), most=30)
    assert match.running
    opened = await fake.slash("carol", "geyser review", {"match": match.id}, channel="games")
    positions = await logged_positions(bot, match)
    caption = review.caption(review.replay(match, await bot.matches.log(match.id)), len(positions) - 1)
    assert picture(opened.message).data == render("geyser", positions[-1], caption=caption)
    assert f"move {len(positions) - 1} of {len(positions) - 1}" in opened.message.content
    assert not opened.message.component(label="⏭")["disabled"]  # a running game goes on: newest, at the click
    await play(bot, match.id, random.Random(3), most=1)
    await fake.click("carol", opened.message, label="⏭")
    assert f"move {len(positions)} of {len(positions)}" in opened.message.content


async def test_key_moments_and_show_here(fake: DiscordFake, bot: GameBot) -> None:
    match = await play(bot, (await start(fake, bot, "geyser")).id, random.Random(1))
    opened = await fake.slash("carol", "geyser review", {"match": match.id, "move": 0}, channel="games")
    menu = next(c for c in custom_ids(opened.message) if c.startswith("review-moment:"))
    options = opened.message.component(menu)["options"]
    assert 0 < len(options) <= 25
    assert any(o["label"].startswith("Move ") and "Battle on" in o["label"] for o in options)
    target = next(o for o in options if "Battle on" in o["label"])
    ply = int(target["value"].split(":")[1])
    await fake.select("carol", opened.message, menu, [target["value"]])
    assert f"move {ply} of" in opened.message.content
    positions = await logged_positions(bot, match)  # the moment is that position's battle, as the log gives it
    events = GAMES["geyser"].events(GAMES["geyser"].view(positions[ply], None))
    said = target["label"].split(": ", 1)[1].rstrip("…")
    assert any(i18n.unmarked(line.format(*match.names)).startswith(said) for line in events if "Battle on" in line)
    shown = picture(opened.message).data
    before = len([m for m in fake.channel_messages(fake.channel("games")) if not m.ephemeral])
    posted = await fake.click("carol", opened.message, label="Show here")
    public = [m for m in fake.channel_messages(fake.channel("games")) if not m.ephemeral]
    assert len(public) == before + 1 and not posted.ephemeral
    assert picture(public[-1]).data == shown and f"move {ply} of" in public[-1].content


async def test_the_controls_work_after_a_restart(fake: DiscordFake, db_path: Path) -> None:
    async with fake.run(make_bot(fake, db_path)) as bot:
        match = await play(bot, (await start(fake, bot, "fish")).id, random.Random(1))
        opened = await fake.slash("carol", "fish review", {"match": match.id, "move": 3}, channel="games")
        before = picture(opened.message).data
    async with fake.run(make_bot(fake, db_path)) as bot:
        await fake.click("carol", opened.message, label="▶")
        assert "move 4 of" in opened.message.content and picture(opened.message).data != before
        await fake.click("carol", opened.message, label="◀")
        assert picture(opened.message).data == before


def scrambled(state: Any, keep: int | None) -> Any:
    """The same position with every card `keep` (None: a spectator) may not see changed: the other hands,
    the deck, the face-down cards that seat does not know."""
    return replace(
        state,
        hands=tuple(hand if seat == keep else ("T1",) * len(hand) for seat, hand in enumerate(state.hands)),
        deck=("B4",) * len(state.deck),
        mats=tuple(
            tuple(
                slot
                if slot is None or slot.face_up or (keep is not None and keep in slot.known)
                else replace(slot, card="T1")
                for slot in mat
            )
            for mat in state.mats
        ),
        seed=12345,
    )


async def step_through(fake: DiscordFake, user: str, match_id: int, last: int) -> list[tuple[bytes, str, str]]:
    opened = await fake.slash(user, "horizon review", {"match": match_id, "move": 0}, channel="games")
    seen = []
    for ply in range(last + 1):
        if ply:
            await fake.click(user, opened.message, label="▶")
        attachment = picture(opened.message)
        seen.append((attachment.data, attachment.description, opened.message.content))
    return seen


async def test_a_running_event_horizon_review_shows_a_spectator_no_hidden_card_and_a_player_only_their_hand(
    fake: DiscordFake, bot: GameBot
) -> None:
    match = await play(bot, (await start(fake, bot, "horizon")).id, random.Random(4), most=16)
    assert match.running
    reviews = review.reviews_of(bot.matches)
    truth = await reviews.replayed(match.id)
    last = truth.last
    spectator = await step_through(fake, "carol", match.id, last)
    alice = await step_through(fake, "alice", match.id, last)
    seat = match.seats_of(match.players[0].id)[0]
    for ply, state in enumerate(truth.positions):  # alice sees her hand as it was then, and nobody else's
        picture_, alt, _ = alice[ply]
        caption = review.caption(truth, ply)
        assert picture_ == render("horizon", state, seat, caption=caption)
        assert alt == i18n.unmarked(
            describe("horizon", state, caption, viewer=seat, lead=f"Move {ply} of {last} of match #1.")
        )
        hand = ", ".join(f"{card_name(c)} ({c})" for c in state.hands[seat]) or "no cards"
        assert f"Your hand: {hand}." in alt
        assert spectator[ply][0] == render("horizon", state, None, caption=caption)
        assert "Your hand" not in spectator[ply][1]
    # every card hidden from each reviewer changed (and the seed): byte for byte the same review
    for user, keep, before in (("carol", None, spectator), ("alice", seat, alice)):
        changed = replace(truth, positions=tuple(scrambled(p, keep) for p in truth.positions))
        assert changed.positions != truth.positions
        reviews._replays[(match.id, match.ply, True)] = changed
        reviews._frames.clear()
        assert await step_through(fake, user, match.id, last) == before


async def test_a_takeback_s_fresh_chance_is_reviewed_as_logged_and_its_seed_never_shown(
    fake: DiscordFake, bot: GameBot
) -> None:
    place = Place(fake.guild.id, fake.channel("games").id)
    match = await bot.matches.create_match("geyser", players(fake, "alice", "bob"), seed=98765432109, place=place)
    match = await play(bot, match.id, random.Random(2), most=20)
    moderator = Player("discord:1", "mod")
    await bot.matches.moderation.undo(match.id, moderator)  # an undo line, then a reseed line: fresh dice
    match = await play(bot, match.id, random.Random(5), most=10)
    assert match.running
    log = await bot.matches.log(match.id)
    seeds = [line.move for line in log if line.kind == move_log.RESEED] + [str(match.seed)]
    assert len(seeds) == 2
    positions = await logged_positions(bot, match)
    assert len(positions) == 30  # the undone move is not in the line of play
    opened = await fake.slash("carol", "geyser review", {"match": match.id, "move": 0}, channel="games")
    replayed = review.replay(match, log)
    for ply, state in enumerate(positions):
        if ply:
            await fake.click("carol", opened.message, label="▶")
        assert picture(opened.message).data == render("geyser", state, caption=review.caption(replayed, ply))
        said = opened.message.content + picture(opened.message).description
        assert not any(seed in said for seed in seeds)
    menu = next(c for c in custom_ids(opened.message) if c.startswith("review-moment:"))
    assert not any(seed in o["label"] for o in opened.message.component(menu)["options"] for seed in seeds)


async def test_a_death_match_s_games_are_key_moments(fake: DiscordFake, bot: GameBot) -> None:
    place = Place(fake.guild.id, fake.channel("games").id)
    series = await bot.matches.create_series("fish", players(fake, "alice", "bob"), first=0, clock=None, place=place)
    first = series.games[0]
    await play(bot, first, random.Random(1))
    series = await bot.matches.registry.get_series(series.id)
    second = series.games[1]
    opened = await fake.slash("carol", "fish review", {"match": second, "move": 0}, channel="games")
    menu = next(c for c in custom_ids(opened.message) if c.startswith("review-moment:"))
    options = opened.message.component(menu)["options"]
    assert [o["label"] for o in options[:2]] == [
        f"Game 1 of the death match (#{first})",
        f"Game 2 of the death match (#{second})",
    ]
    await fake.select("carol", opened.message, menu, [f"{first}:0"])  # the other game, in the same message
    assert f"#{first} (over): move 0 of" in opened.message.content
    assert custom_ids(opened.message)[0] == f"review:{first}:0:first"


async def test_reviews_are_refused_privately_where_the_match_is_not(fake: DiscordFake, bot: GameBot) -> None:
    match = await start(fake, bot, "fish")
    other = await fake.slash("carol", "volcano review", {"match": match.id}, channel="games")
    assert other.ephemeral and f"There is no match #{match.id} here." in (other.content or "")
    missing = await fake.slash("carol", "fish review", {"match": 99}, channel="games")
    assert missing.ephemeral and "no match" in (missing.content or "").lower()


async def test_a_finished_game_s_largest_swings_are_key_moments(fake: DiscordFake, bot: GameBot) -> None:
    from bot.computer import Analyst
    from tests.test_computer import InlineExecutor

    bot.analyst = analyst = Analyst(bot.matches, executor=InlineExecutor(), iterations=12)
    match = await play(bot, (await start(fake, bot, "fish")).id, random.Random(1))
    await fake.wait_until(lambda: analyst.made(match) is not None, what="the analysis after the game")
    swings = analyst.made(match).analysis.swings
    assert swings
    analyst._done.clear()  # as after a restart: the review starts it again, and the next click shows it
    opened = await fake.slash("carol", "fish review", {"match": match.id, "move": 0}, channel="games")
    menu = next(c for c in custom_ids(opened.message) if c.startswith("review-moment:"))
    assert not any(o["label"].startswith("Swing") for o in opened.message.component(menu)["options"])
    await fake.wait_until(lambda: analyst.made(match) is not None, what="the analysis started by the review")
    await fake.click("carol", opened.message, label="▶")
    menu = next(c for c in custom_ids(opened.message) if c.startswith("review-moment:"))
    options = opened.message.component(menu)["options"]
    first = swings[0]
    swing = next(o for o in options if o["label"].startswith("Swing 1:"))
    assert swing["value"] == f"{match.id}:{first.start + 1}" and f"move {first.start + 1}," in swing["label"]
    await fake.select("carol", opened.message, menu, [swing["value"]])
    assert f"move {first.start + 1} of" in opened.message.content
