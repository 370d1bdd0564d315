"""`moves` lists (issue #16): each engine's `move_group`, the shared formatter in bot/posts.py (groups,
filter, counts), the terminal's `GAME moves [FILTER]` and Discord's `/GAME moves [filter] [page]`, paged
under 2,000 characters even for a Themiscyra position with thousands of turns."""

from __future__ import annotations

import random
import re
from typing import Any

from bot import posts
from bot.discord_app import GameBot
from bot.games import GAMES
from bot.games.base import first_word
from bot.local import GROUPS_SHOWN, Terminal
from tests.discord_fake import DiscordFake
from tests.test_local import run
from tests.toygame import TOY

FISH, VOLCANO, THEMISCYRA, GEYSER, HORIZON = (GAMES[k] for k in ("fish", "volcano", "themiscyra", "geyser", "horizon"))


def played(game: Any, state: Any, seed: int, plies: int) -> Any:
    rng = random.Random(seed)
    for _ in range(plies):
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


def counts(game: Any, state: Any) -> dict[str, int]:
    return {label: len(members) for label, members in posts.move_groups(game, game.legal_moves(state))}


# --- grouping, per engine ---


def test_themiscyra_groups_by_stone_pair() -> None:
    assert THEMISCYRA.move_group("e5 e8 @e8") == THEMISCYRA.move_group("e5 e8 c3>e8") == "e5 e8"
    opening = THEMISCYRA.new(2, 0)
    groups = posts.move_groups(THEMISCYRA, THEMISCYRA.legal_moves(opening))
    assert len(groups) == 1470 and sum(len(m) for _, m in groups) == 2940
    assert groups[0] == ("a1 a2", ["a1 a2 @a1", "a1 a2 @a2"]) and all(len(m) == 2 for _, m in groups)
    later = played(THEMISCYRA, opening, 4, 9)  # every ring is down: rings move now
    found = counts(THEMISCYRA, later)
    assert sum(found.values()) == 5360 and len(found) == 670 and found["a1 a2"] == 8
    assert all(len(label.split()) == 2 for label in found)


def test_horizon_groups_by_card() -> None:
    assert HORIZON.move_group("place F2 opp:5") == "place F2"
    assert HORIZON.move_group("swap me:5 F2") == "swap F2"
    assert HORIZON.move_group("pass") == "pass"
    start = HORIZON.new(2, 3)  # a hand of F2 T5 T5 F1 T1 B1, every space empty: 16 spaces a card
    assert counts(HORIZON, start) == {f"place {c}": 16 for c in ("T1", "T5", "F1", "F2", "B1")}
    swapping = played(HORIZON, HORIZON.new(2, 0), 0, 6)  # a hand of T7 SW F2
    assert counts(HORIZON, swapping) == {"place T7": 10, "place F2": 10, "swap T7": 4, "swap F2": 4}
    lines = posts.moves_lines(HORIZON, HORIZON.legal_moves(swapping))
    assert lines[0] == "28 legal moves in 4 groups:"
    assert lines[3] == "swap T7 (4): swap me:1 T7, swap me:2 T7, swap me:5 T7, swap me:7 T7"


def test_volcano_groups_by_cap() -> None:
    assert VOLCANO.move_group("b2-c3") == VOLCANO.move_group("b2-c3, c3-d4") == "b2"
    assert counts(VOLCANO, VOLCANO.new(3, 5)) == {"a1": 2, "b2": 6, "c3": 6, "d4": 6, "e5": 2}  # the diagonal


def test_fish_groups_by_token_and_placements_as_one() -> None:
    assert FISH.move_group("D4-F3") == "D4" and FISH.move_group("D4") == "place"
    placing = FISH.new(2, 5)
    assert counts(FISH, placing) == {"place": 30}
    assert posts.moves_lines(FISH, FISH.legal_moves(placing))[1].startswith("place (30): A1 A2 A3 A6 ")
    moving = played(FISH, placing, 2, 8)  # alice's tokens on A2 A7 C1 H4
    assert counts(FISH, moving) == {"A2": 11, "A7": 5, "C1": 12, "H4": 14}
    assert posts.moves_lines(FISH, FISH.legal_moves(moving))[2] == "A7 (5): -A8 -B7 -C8 -B6 -C6"


def test_geyser_groups_by_token_and_by_word() -> None:
    assert GEYSER.move_group("f6-f7") == "f6"
    for move, group in [("start f1", "start"), ("place e5", "place"), ("skip", "skip"), ("again", "again")]:
        assert GEYSER.move_group(move) == group
    assert GEYSER.move_group("retreat") == "retreat" and GEYSER.move_group("pass") == "pass"
    state = GEYSER.new(2, 0)
    assert posts.moves_lines(GEYSER, GEYSER.legal_moves(state)) == ["2 legal moves in 1 group:", "start (2): f1 f11"]
    state = played(GEYSER, state, 0, 1)
    assert posts.moves_lines(GEYSER, GEYSER.legal_moves(state)) == ["3 legal moves in 1 group:", "f1 (3): -g1 -e1 -f2"]
    assert posts.moves_lines(GEYSER, ["place e1", "place d2", "skip"]) == [
        "3 legal moves in 2 groups:",
        "place (2): e1 d2",
        "skip",
    ]
    assert posts.moves_lines(GEYSER, ["again", "retreat"]) == ["2 legal moves in 2 groups:", "again", "retreat"]


def test_a_game_that_declares_no_move_group_groups_by_first_word() -> None:
    assert "move_group" not in type(TOY).__dict__ and first_word("draw now") == "draw" and first_word("") == ""
    assert posts.moves_lines(TOY, ["1", "2", "draw"]) == ["3 legal moves in 3 groups:", "1", "2", "draw"]


# --- the filter, counts and words ---


def test_the_filter_picks_groups_by_their_words_then_moves_by_their_start() -> None:
    moves = THEMISCYRA.legal_moves(THEMISCYRA.new(2, 0))
    e5 = posts.move_groups(THEMISCYRA, moves, "e5")
    assert len(e5) == 35 and all("e5" in label.split() for label, _ in e5)  # either stone: a1 e5 and e5 e8
    assert posts.move_groups(THEMISCYRA, moves, "E8  e5") == [("e5 e8", ["e5 e8 @e5", "e5 e8 @e8"])]
    a1 = posts.move_groups(THEMISCYRA, moves, "a1")
    assert len(a1) == 27 and all("a1" in label.split() for label, _ in a1)  # a whole square: not a10's pairs
    assert len(posts.move_groups(THEMISCYRA, moves, "a")) == 225  # a start: every pair with a column-a stone
    assert posts.move_groups(THEMISCYRA, moves, "e5 e8 @E8") == [("e5 e8", ["e5 e8 @e8"])]
    assert posts.moves_lines(THEMISCYRA, moves, "k1") == ["No legal move starts with k1."]
    assert posts.moves_lines(THEMISCYRA, moves, "x" * 90) == [f"No legal move starts with {'x' * 39}…."]
    assert posts.moves_lines(FISH, ["D4-F3", "D4-E3", "A1-A2"], "d4-e") == [
        "1 of 3 legal moves matches d4-e, in 1 group:",
        "D4 (1): -E3",
    ]
    horizon = HORIZON.legal_moves(HORIZON.new(2, 3))
    assert [label for label, _ in posts.move_groups(HORIZON, horizon, "F")] == ["place F1", "place F2"]
    assert (
        posts.moves_lines(HORIZON, horizon, "place f2 opp:")[0]
        == "8 of 80 legal moves match place f2 opp:, in 1 group:"
    )


def test_headers_say_the_totals_in_the_singular_and_plural() -> None:
    moves = THEMISCYRA.legal_moves(THEMISCYRA.new(2, 0))
    assert posts.moves_lines(THEMISCYRA, moves)[0] == "2,940 legal moves in 1,470 groups:"
    assert posts.moves_lines(THEMISCYRA, moves, "e5")[0] == "70 of 2,940 legal moves match e5, in 35 groups:"
    one = posts.moves_lines(THEMISCYRA, moves, "e5 e8 @e8")
    assert one == ["1 of 2,940 legal moves matches e5 e8 @e8, in 1 group:", "e5 e8 (1): @e8"]
    assert posts.moves_lines(HORIZON, ["pass"]) == ["1 legal move in 1 group:", "pass"]
    assert posts.moves_lines(HORIZON, []) == ["No legal moves."]


def test_a_capped_list_says_how_many_more_and_how_to_narrow_it() -> None:
    moves = THEMISCYRA.legal_moves(THEMISCYRA.new(2, 0))
    lines = posts.moves_lines(THEMISCYRA, moves, most=3, command="themiscyra moves")
    assert lines[1:4] == ["a1 a2 (2): @a1 @a2", "a1 a3 (2): @a1 @a3", "a1 a4 (2): @a1 @a4"]
    assert lines[4] == "… and 1,467 more groups: type more of the move to list fewer, like: themiscyra moves a1"
    narrowed = posts.moves_lines(THEMISCYRA, moves, "e5", most=3, command="themiscyra moves")
    assert narrowed[-1] == "… and 32 more groups: type more of the move to list fewer, like: themiscyra moves b2 e5"
    assert posts.moves_lines(THEMISCYRA, moves, "e5 e8", most=1) == [
        "2 of 2,940 legal moves match e5 e8, in 1 group:",
        "e5 e8 (2): @e5 @e8",
    ]  # fits: no last line


# --- the terminal ---


async def test_the_terminal_lists_groups_capped_and_filtered(terminal: Terminal, out: list[str]) -> None:
    await run(terminal, out, "themiscyra new alice bob")
    listing = (await run(terminal, out, "themiscyra moves")).split("\n")
    assert listing[0] == "2,940 legal moves in 1,470 groups:" and listing[1] == "a1 a2 (2): @a1 @a2"
    assert len(listing) == GROUPS_SHOWN + 2 and listing[-1].startswith("… and 1,430 more groups: type more")
    assert await run(terminal, out, "themiscyra moves e5 e8") == "2 of 2,940 legal moves match e5 e8, in 1 group:\n" + (
        "e5 e8 (2): @e5 @e8"
    )
    assert await run(terminal, out, "themiscyra moves E8 e5 @e8") == (
        "1 of 2,940 legal moves matches E8 e5 @e8, in 1 group:\ne5 e8 (1): @e8"
    )  # the pair's words in any order and case, then the move's start (none starts `E8 e5 @e8`: the label did)
    assert await run(terminal, out, "themiscyra moves e9 e9") == "No legal move starts with e9 e9."
    assert await run(terminal, out, "themiscyra moves --areas") == "✗ Unknown option --areas for this command."
    assert "GAME moves [FILTER]" in await run(terminal, out, "help")
    await run(terminal, out, "horizon new alice bob --seed 3")
    asked = await run(terminal, out, "horizon moves place T5 me")  # hidden cards: the screen is passed first
    assert asked.endswith("for alice's eyes only: pass the screen to alice, then press Enter.")
    cards = await run(terminal, out, "")
    assert cards == "8 of 80 legal moves match place T5 me, in 1 group:\nplace T5 (8): " + " ".join(
        f"me:{n}" for n in range(1, 9)
    )


# --- Discord ---


async def themiscyra_match(fake: DiscordFake) -> Any:
    asked = await fake.slash("alice", "themiscyra challenge", {"opponent": "bob"})
    await fake.click("bob", asked.message, label="Accept")
    return fake.threads[-1]


async def all_pages(fake: DiscordFake, user: str, options: dict[str, Any], channel: Any) -> list[str]:
    """Every page of /themiscyra moves, following each page's "next" command to the last."""
    pages: list[str] = []
    while True:
        reply = await fake.slash(user, "themiscyra moves", {**options, "page": len(pages) + 1}, channel=channel)
        text = reply.content or ""
        assert reply.ephemeral and 0 < len(text) < 2000, len(text)
        pages.append(text)
        nxt = re.search(r"`(/themiscyra moves[^`]*) page:(\d+)` for the next\.$", text)
        if nxt is None:
            return pages
        assert int(nxt[2]) == len(pages) + 1 and len(pages) < 100


def listed_groups(pages: list[str]) -> list[str]:
    return [line for page in pages for line in page.split("\n") if re.match(r"[a-j]\d+ [a-j]\d+ \(\d+\): ", line)]


async def test_discord_pages_every_group_once_each_page_under_the_limit(fake: DiscordFake, bot: GameBot) -> None:
    thread = await themiscyra_match(fake)
    pages = await all_pages(fake, "alice", {}, thread)
    assert pages[0].startswith("2,940 legal moves in 1,470 groups:\na1 a2 (2): @a1 @a2\n")
    assert len(pages) > 10 and pages[1] != pages[0] and len(set(pages)) == len(pages)
    assert f"Page 1 of {len(pages)} — `/themiscyra moves page:2` for the next." in pages[0]
    assert pages[-1].endswith(f"Page {len(pages)} of {len(pages)}.") and "for the next" not in pages[-1]
    groups = listed_groups(pages)
    assert len(groups) == 1470 and len(set(groups)) == 1470
    past = await fake.slash("alice", "themiscyra moves", {"page": 999}, channel=thread)
    assert past.content == pages[-1]
    refused = await fake.slash("bob", "themiscyra moves", channel=thread)
    assert refused.ephemeral and refused.content == "It is Alice's turn, not yours."


async def test_discord_filter_and_a_position_with_thousands_of_turns(fake: DiscordFake, bot: GameBot) -> None:
    thread = await themiscyra_match(fake)
    rng = random.Random(4)
    for _ in range(9):  # every ring is down: 5,360 turns in 670 stone pairs
        match = await bot.matches.get(1)
        seat = THEMISCYRA.to_move(match.state)
        await bot.matches.move(1, match.players[seat].id, rng.choice(THEMISCYRA.legal_moves(match.state)))
    user = (await bot.matches.get(1)).players[THEMISCYRA.to_move((await bot.matches.get(1)).state)].name.lower()
    pages = await all_pages(fake, user, {}, thread)
    assert pages[0].startswith("5,360 legal moves in 670 groups:\n") and len(listed_groups(pages)) == 670
    assert pages[1] != pages[0] and "for the next" not in pages[-1]
    narrowed = await all_pages(fake, user, {"filter": " A1  ", "match": 1}, thread)
    assert narrowed[0].startswith("80 of 5,360 legal moves match A1, in 10 groups:\na1 a2 (8): ")
    assert len(narrowed) == 1 and "Page" not in narrowed[0]
    lonely = await fake.slash(user, "themiscyra moves", {"filter": "@everyone"}, channel=thread)
    assert lonely.content == "No legal move starts with @everyone."
    assert lonely.ephemeral and lonely.message is not None and not lonely.message.pings.unsafe  # pings nobody


async def test_discord_paging_keeps_the_filter_and_match_in_the_next_command(fake: DiscordFake, bot: GameBot) -> None:
    thread = await themiscyra_match(fake)
    pages = await all_pages(fake, "alice", {"filter": "a", "match": 1}, thread)
    assert pages[0].startswith("450 of 2,940 legal moves match a, in 225 groups:")
    assert len(pages) > 1 and "`/themiscyra moves filter:a match:1 page:2` for the next." in pages[0]
    assert len(listed_groups(pages)) == 225


async def test_discord_horizon_moves_are_the_players_own_and_private(fake: DiscordFake, bot: GameBot) -> None:
    asked = await fake.slash("alice", "horizon challenge", {"opponent": "bob"})
    await fake.click("bob", asked.message, label="Accept")
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    seat = HORIZON.to_move(match.state)
    user = match.players[seat].name.lower()
    reply = await fake.slash(user, "horizon moves", {"filter": "place"}, channel=thread)
    cards = sorted({c for c in match.state.hands[seat] if c != "SW"})
    assert reply.ephemeral and sorted(re.findall(r"^place (\w+) \(", reply.content or "", re.M)) == cards
    other = "bob" if user == "alice" else "alice"
    refused = await fake.slash(other, "horizon moves", channel=thread)
    assert refused.ephemeral and "not yours" in (refused.content or "")


async def test_the_my_moves_button_shows_the_first_page_of_the_same_list(fake: DiscordFake, bot: GameBot) -> None:
    thread = await themiscyra_match(fake)
    board = [m for m in fake.channel_messages(thread) if m.components][-1]
    reply = await fake.click("alice", board, label="My moves")
    text = reply.content or ""
    assert reply.ephemeral and len(text) < 2000
    first_page = (await fake.slash("alice", "themiscyra moves", channel=thread)).content or ""
    *listed, footer, play = text.split("\n")
    assert play == "Play one with `/themiscyra move`." and "`/themiscyra moves page:2` for the next." in footer
    assert first_page.split("\n")[: len(listed)] == listed and len(listed) > 20
    assert text.startswith("2,940 legal moves in 1,470 groups:\na1 a2 (2): @a1 @a2\n")
