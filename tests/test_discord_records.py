"""/<game> record and the end-of-game replay GIF, through the real discord.py code against the fake Discord."""

from __future__ import annotations

import io

from PIL import Image

from bot.discord_app import GameBot
from bot.games import GAMES
from bot.records import load_record, replay
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, boards
from tests.test_discord import play, start_challenge

FISH = GAMES["fish"]
GIF = (b"GIF87a", b"GIF89a")


async def test_a_finished_game_posts_its_replay_and_gives_its_record(fake: DiscordFake, bot: GameBot) -> None:
    thread = await start_challenge(fake)

    running = await fake.slash("carol", "fish record", {"match": 1})
    assert running.ephemeral and "still running" in (running.content or "") and not running.files
    here = await fake.slash("alice", "fish record", channel=thread)
    assert here.ephemeral and "still running" in (here.content or "")

    await play(fake, bot, 1, thread)
    match = await bot.matches.get(1)
    assert not match.running
    final = boards(fake, thread)[-1]
    assert "Game over" in final.content
    (png,) = final.attachments  # the final board is posted at once; the replay follows when it is built
    assert png.data.startswith(PNG) and png.filename.endswith(".png")
    replay_post = fake.channel_messages(thread)[-1]
    assert replay_post.id > final.id and "replay of match #1" in replay_post.content
    (gif,) = replay_post.attachments
    assert gif.filename == "fish-1-replay.gif" and gif.data.startswith(GIF)
    standing = await bot.matches.moves(1)
    with Image.open(io.BytesIO(gif.data)) as image:
        assert image.n_frames == len(standing) + 1  # the start, then one frame per move
    earlier = [m for m in boards(fake, thread)[:-1]]
    assert all(not a.filename.endswith(".gif") for m in earlier for a in m.attachments)

    given = await fake.slash("carol", "fish record", {"match": 1}, channel="general")
    assert not given.ephemeral and [f.filename for f in given.files] == ["fish-match-1.json"]
    record = load_record(given.files[0].data)
    assert record.seed == match.seed and len(record.moves) == match.ply
    assert FISH.dumps(replay(record)) == FISH.dumps(match.state)


async def test_record_refusals_are_private(fake: DiscordFake, bot: GameBot) -> None:
    missing = await fake.slash("carol", "fish record", {"match": 42})
    assert missing.ephemeral and "no match #42" in (missing.content or "")
    nothing = await fake.slash("carol", "fish record", channel="general")
    assert nothing.ephemeral and "/fish record match:" in (nothing.content or "")
    await start_challenge(fake)
    other_game = await fake.slash("carol", "volcano record", {"match": 1})
    assert other_game.ephemeral and "no match #1 here" in (other_game.content or "")
