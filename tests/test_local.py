"""The offline terminal front-end driven line by line, on a real database with a fake clock."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image

from bot import i18n
from bot.games.volcano import VOLCANO
from bot.local import Terminal
from bot.models import OVER
from bot.service import MatchService, NoSuchMatch
from bot.solitaire import layout_of
from tests.conftest import eventually


async def run(terminal: Terminal, out: list[str], line: str) -> str:
    """Run a command and return what it printed."""
    before = len(out)
    assert await terminal.handle(line)
    return "\n".join(out[before:])


async def test_a_casual_game_posts_a_png_after_every_move(terminal: Terminal, out: list[str]) -> None:
    text = await run(terminal, out, "fish new alice bob --seed 5")
    assert "alice vs bob" in text and "alice to move" in text
    text = await run(terminal, out, "fish move a1")
    assert "alice places a token on A1." in text and "bob to move" in text
    assert len(terminal.saved) == 2
    for path in terminal.saved:
        assert f"board: {path}" in "\n".join(out)
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width >= 760


async def test_bad_commands_are_explained_and_change_nothing(terminal, out, service: MatchService) -> None:
    assert "No match yet" in await run(terminal, out, "fish move D4")
    await run(terminal, out, "fish new alice bob --seed 5")
    match_id = terminal.current
    cases = {
        "fish move A4": "A4 is worth 3: tokens are placed on 1-tiles",
        "fish move A1-C1": "tokens are still being placed",
        "fish move A1 --as bob": "It is alice's turn, not yours",
        "fish move A1 --as carol": "'carol' is not playing",
        "fish move": "Give one move",
        "fish new alice alice": "different names",
        "fish new alice bob --clock x/60": "must be a time like 30s, 10m",
        "fish new alice bob --colour red": "Unknown option --colour",
        "fish dm alice bob": "needs --first",
        "fish dm alice bob --first carol": "--first must be one of the players",
        "fish jump": "Unknown fish command",
        "mod pause": "no clock",
        "mod addtime alice": "Use: mod addtime",
        "use 99": "There is no match #99",
        "dance": "Unknown command",
        'fish move "A1': "Can't read that",
    }
    for line, message in cases.items():
        assert message in await run(terminal, out, line), line
    match = await service.get(match_id)
    assert match.ply == 0 and await service.moves(match_id) == []


async def test_moves_history_rules_and_games(terminal: Terminal, out: list[str]) -> None:
    await run(terminal, out, "fish new alice bob --seed 5")
    assert (await run(terminal, out, "fish moves")).startswith("30 legal moves in 1 group:\nplace (30): A1 A2 A3")
    await run(terminal, out, "fish move A1")
    assert "1. alice: A1" in await run(terminal, out, "fish history")
    assert "straight line" in await run(terminal, out, "fish rules")
    assert "alice vs bob — bob to move" in await run(terminal, out, "games")


async def test_a_death_match_flag_starts_the_next_game_with_the_other_placer(
    terminal: Terminal, out: list[str], service: MatchService, fake_time
) -> None:
    await run(terminal, out, "fish dm alice bob --first bob")
    game1 = terminal.current
    assert "bob to move — 0:30 a move + 1:00 reserve" in "\n".join(out)
    fake_time.advance(92)  # bob never moves
    await eventually(lambda: "game 2 of the death match" in "\n".join(out))
    text = "\n".join(out)
    assert "bob's reserve time ran out" in text and "game 2 of the death match" in text
    assert (await service.get(game1)).status == OVER
    assert "alice to move" in text.split("game 2 of the death match")[1]  # alice places first in game 2


async def test_moderator_commands(terminal: Terminal, out: list[str], service: MatchService, fake_time) -> None:
    await run(terminal, out, "fish dm alice bob --first alice --move 10 --reserve 5")
    assert "moderator paused the match" in await run(terminal, out, "mod pause")
    assert "paused by a moderator" in await run(terminal, out, "fish move A1")
    fake_time.advance(600)
    await service.flags.sweep()
    assert "the clock runs again" in await run(terminal, out, "mod resume")
    assert "+0:30 for bob: reserve now 0:35" in await run(terminal, out, "mod addtime bob 30")
    assert "#1" in await run(terminal, out, "mod list")
    assert "aborted match #1" in await run(terminal, out, "mod abort")
    assert "No matches are running" in await run(terminal, out, "games")


async def test_quit_ends_the_loop(terminal: Terminal) -> None:
    assert await terminal.handle("quit") is False


async def test_a_flagged_game_is_posted_with_its_result_not_a_turn(
    terminal: Terminal, out: list[str], service: MatchService, fake_time
) -> None:
    from bot import posts

    await run(terminal, out, "fish new alice bob --clock 10/5 --seed 5")
    match_id = terminal.current
    fake_time.advance(17)
    await eventually(lambda: "reserve time ran out" in "\n".join(out))
    over = await service.get(match_id)
    caption = posts.caption(service, over, fake_time.now())
    assert i18n.unmarked(caption.result or "") == "Game over: bob wins (alice's reserve time ran out)."
    assert "to move" not in posts.status_lines(service, over)[-1]
    assert "\n".join(out).count("Game over:") == 1  # said once: the notice tells what happened, not the result


async def test_undo_and_adjudicate_from_the_terminal(terminal: Terminal, out: list[str], service: MatchService) -> None:
    await run(terminal, out, "fish new alice bob --seed 5")
    await run(terminal, out, "fish move A1")
    text = await run(terminal, out, "mod undo")
    assert "moderator took back alice's move A1." in text and "alice to move" in text and "board:" in text
    history = await run(terminal, out, "fish history")
    assert "1. alice: A1" in history and "2. (a moderator took back alice's A1)" in history
    assert "Use: mod adjudicate" in await run(terminal, out, "mod adjudicate")
    assert "bob wins (adjudicated by moderator)" in await run(terminal, out, "mod adjudicate bob")


# --- Volcano: the same shared commands, its own new and best ---


async def test_a_volcano_game_of_three_through_the_terminal(
    terminal: Terminal, out: list[str], service: MatchService, tmp_path: Path
) -> None:
    text = await run(terminal, out, "volcano new alice bob carol --seed 5")
    match_id = terminal.current
    assert match_id is not None and "Volcano #1: alice vs bob vs carol." in text and "alice to move" in text
    match = await service.get(match_id)
    assert match.game == "volcano" and match.names == ("alice", "bob", "carol") and match.seed == 5

    listed = await run(terminal, out, "volcano moves")
    legal = VOLCANO.legal_moves(match.state)
    assert listed.startswith(f"{len(legal)} legal moves in ") and "b2-a2" in legal
    assert "\nb2 (6): " in listed and " -a2" in listed.split("\nb2 (6): ")[1].split("\n")[0]

    text = await run(terminal, out, "volcano move b2-a2")  # off the board beyond a2: no eruption, alice goes on
    assert "alice steps b2-a2: no eruption." in text and "alice to move" in text
    text = await run(terminal, out, "volcano move a2-b2")  # back again is allowed because a2 erupts
    assert "alice captures blue large (c2)" in text and "Score: alice 1, bob 0, carol 0" in text
    assert "bob to move" in text

    # a whole turn, typed unquoted: shlex gives two words, which are joined again
    text = await run(terminal, out, "volcano move b2-c1, a1-a2")
    assert "bob steps b2-c1: no eruption." in text and "bob captures red large (a3)" in text
    assert "carol to move" in text and "Score: alice 1, bob 1, carol 0" in text
    # a whole turn whose eruption is not its last step is refused whole
    assert "must be the last step" in await run(terminal, out, "volcano move d4-d5, e5-e4, c3-c4")
    assert (await service.get(match_id)).ply == 3

    history = await run(terminal, out, "volcano history")
    assert history.splitlines() == ["1. alice: b2-a2", "2. alice: a2-b2", "3. bob: b2-c1, a1-a2"]

    saved = len(terminal.saved)
    text = await run(terminal, out, "volcano board")
    assert len(terminal.saved) == saved + 1
    path = terminal.saved[-1]
    assert path.parent == tmp_path / "renders" and f"board: {path}" in text and "carol to move" in text
    with Image.open(path) as image:
        assert image.format == "PNG"

    assert "carol, resign match #1 (Volcano)? Type yes" in await run(terminal, out, "volcano resign")
    text = await run(terminal, out, "yes")  # carol is to move: she leaves, alice plays on
    assert "carol resigns." in text and "alice to move" in text and "Game over" not in text
    match = await service.get(match_id)
    assert match.running and VOLCANO.to_move(match.state) == 0 and match.state.resigned == frozenset({2})
    assert "4. carol resigned; the others play on" in await run(terminal, out, "volcano history")
    await run(terminal, out, "volcano resign --as carol")
    assert "already resigned" in await run(terminal, out, "yes")
    assert "carol's turn" not in await run(terminal, out, "games") and "alice to move" in out[-1]

    await run(terminal, out, "volcano resign --as bob")  # not bob's turn; alice is the last one left
    text = await run(terminal, out, "y")
    assert "bob resigns." in text and "Game over: alice wins (every other player resigned)." in text
    assert not (await service.get(match_id)).running


async def test_a_volcano_solitaire_played_out_then_best_shows_it(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    assert "No Volcano solitaire game" in await run(terminal, out, "volcano best")
    await run(terminal, out, "volcano new solo --seed 11")
    match_id = terminal.current
    assert match_id is not None
    rng = random.Random(2024)
    for _ in range(1000):
        match = await service.get(match_id)
        if not match.running:
            break
        ply, move = match.ply, rng.choice(VOLCANO.legal_moves(match.state))
        text = await run(terminal, out, f"volcano move {move} --as solo")
        assert "✗" not in text, move
        assert (await service.get(match_id)).ply == ply + 1
    match = await service.get(match_id)
    assert not match.running and match.result is not None and match.result.winners == {0}
    score = VOLCANO.scores(match.state)[0]
    assert "Game over: solo wins (" in out[-1] and f"final score {score:g}" in out[-1]
    assert "over: nobody is to move" in await run(terminal, out, "volcano move b2-a2")
    assert (await run(terminal, out, "volcano moves")) == "No legal moves: the game is over."

    layout = layout_of(match)
    assert len(layout) == 29 and layout.count("/") == 4
    best = await run(terminal, out, "volcano best")
    assert best.splitlines()[1] == f"1. {score:g} points by solo: opening diagonal, layout {layout} (match #{match_id})"
    assert f"{score:g} points by solo" in await run(terminal, out, "volcano best diagonal")
    assert "No Volcano solitaire game with the cross opening" in await run(terminal, out, "volcano best cross")
    assert "✗ opening 'zigzag' is neither one of" in await run(terminal, out, "volcano best zigzag")


async def test_volcano_options_reach_the_engine(terminal: Terminal, out: list[str], service: MatchService) -> None:
    layout = "RYGBCYGBCRGBCRYBCRYGCRYGB"
    await run(terminal, out, f'volcano new alice --opening "b3 a1 c3 d2 e5" --layout {layout} --seed 3')
    match = await service.get(terminal.current or 0)
    assert match.options == {"opening": "b3 a1 c3 d2 e5", "layout": layout}
    assert match.state.opening == "a1 b3 c3 d2 e5" and match.state.layout == layout
    assert match.state.board[0] == ("R1", "R2", "R3") and match.state.board[24] == ("B1", "B2", "B3")
    await run(terminal, out, "volcano new alice bob --opening cross --layout classic")
    match = await service.get(terminal.current or 0)
    assert match.options == {"opening": "cross", "layout": "classic"} and match.names == ("alice", "bob")
    await run(terminal, out, "volcano new alice bob")
    assert (await service.get(terminal.current or 0)).options == {}


async def test_bad_volcano_commands_are_explained_and_create_nothing(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    cases = {
        "volcano move b2-c3": "No match yet: start one with volcano new",
        "volcano new a b c d e f g": "Name 1 to 6 players for Volcano (not 7)",
        "volcano new": "Name 1 to 6 players for Volcano (not 0)",
        "volcano new alice bob ALICE": "different names: 'ALICE' is named twice",
        "volcano new alice --opening zigzag": "opening 'zigzag' is neither one of diagonal",
        'volcano new alice --opening "a1 b2 c3 d4"': "opening needs exactly 5 squares",
        "volcano new alice --layout RRRR": "layout needs 25 colour letters",
        "volcano new alice --layout " + "RYGBC" * 4 + "RRRRR": "each colour 5 times",
        "volcano new alice bob --colour red": "Unknown option --colour",
        "volcano new alice bob --clock 30/x": "The reserve must be a time like",
        "volcano new alice --clock 15d": "The move clock must be at least 1 second and at most 14 days.",
        "volcano new alice --opening": "--opening needs a value",
        "volcano new alice --seed soon": "--seed must be a number",
        "volcano new alice --seed 1e30": "--seed is too large",
        "volcano best --as alice": "Unknown option --as",
        "volcano erupt": "Unknown volcano command 'erupt'",
        "volcano": "volcano what? new, best, move",
    }
    for line, message in cases.items():
        text = await run(terminal, out, line)
        assert text.startswith("✗ ") and message in text and "\n" not in text, line
    assert terminal.current is None and service.running() == [] and terminal.saved == []
    with pytest.raises(NoSuchMatch):
        await service.get(1)


async def test_each_game_s_commands_refuse_the_other_game_s_match(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    await run(terminal, out, "fish new alice bob --seed 5")
    fish_id = terminal.current
    for line in ("volcano move b2-a2", "volcano board", "volcano resign"):
        assert 'is a game of "1, 2, 3", not Volcano' in await run(terminal, out, line), line
    await run(terminal, out, "volcano new carol dave --seed 5")
    volcano_id = terminal.current
    assert "is a game of Volcano, not" in await run(terminal, out, "fish move A1")
    assert "alice places a token on A1." in await run(terminal, out, f"fish move A1 --match {fish_id}")
    assert "carol steps b2-a2" in await run(terminal, out, "volcano play b2-a2")
    # several words are joined for fish too; its engine explains what a move looks like
    assert "'A2 B2 C3' is not a move" in await run(terminal, out, f"fish move A2 B2 C3 --match {fish_id}")
    assert "takes no words" in await run(terminal, out, "volcano board c3")
    assert "takes no words" in await run(terminal, out, "volcano resign dave")
    assert [(await service.get(i)).ply for i in (fish_id, volcano_id)] == [1, 1]
    assert "Volcano (Icehouse, Kristin Looney)" in await run(terminal, out, "volcano rules")
    assert "volcano best [OPENING]" in await run(terminal, out, "help")


async def test_themiscyra_setup_and_play_turns_areas_and_a_capped_move_list(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    text = await run(terminal, out, "themiscyra new alice bob")
    assert "Themiscyra #1: alice vs bob." in text and "alice to move" in text and "Score" not in text
    listing = await run(terminal, out, "themiscyra moves")
    assert listing.startswith("2,940 legal moves in 1,470 groups:\na1 a2 (2): @a1 @a2\n")
    assert listing.endswith("… and 1,430 more groups: type more of the move to list fewer, like: themiscyra moves a2")
    text = await run(terminal, out, "themiscyra move E8 e5 @e8")  # stones in any order and case
    assert "alice places e5 and e8 and puts a ring on e8." in text and "bob to move" in text
    refused = await run(terminal, out, "themiscyra move a1 c3 c1>c3")
    assert refused == "✗ Rings are still being placed (1 of 8 are down): put one on a new stone, like a1 c3 @c3."
    taken = await run(terminal, out, "themiscyra move e5 e6 @e6")
    assert taken == "✗ e5 is taken: stones go on empty squares."
    plain = await run(terminal, out, "themiscyra board")
    shaded = await run(terminal, out, "themiscyra board --areas")
    assert plain.endswith(".png") and shaded.endswith(".png")
    first, second = terminal.saved[-2:]
    assert first.read_bytes() != second.read_bytes()  # the areas overlay shows on the picture
    history = await run(terminal, out, "themiscyra history")
    assert history == "1. alice: e5 e8 @e8"
    assert await run(terminal, out, "themiscyra moves --areas") == "✗ Unknown option --areas for this command."


async def test_geyser_from_the_starting_squares_to_the_first_steps(terminal: Terminal, out: list[str]) -> None:
    text = await run(terminal, out, "geyser new alice bob --seed 11 --tokens 5")
    assert "Geyser #1: alice vs bob." in text and "alice to move" in text
    assert await run(terminal, out, "geyser moves") == "2 legal moves in 1 group:\nstart (2): f1 f11"  # f1, f11
    text = await run(terminal, out, "geyser move start f1")
    assert "alice starts on f1." in text and "bob starts opposite, on f11." in text and "Opening roll: alice " in text
    history = await run(terminal, out, "geyser history")
    assert history.startswith("1. alice: start f1 [opening ")  # the dice are in the move log
    refused = await run(terminal, out, "geyser move f1-e1 --as bob")
    assert refused.startswith("✗ bob: It is ") or refused.startswith("✗ bob, you have no token on f1")
    for line, message in [
        ("geyser new alice", "Name 2 to 4 players for Geyser (not 1)"),
        ("geyser new alice bob --seven loud", "seven must be mother"),
        ("geyser new alice bob --tokens 0", "tokens must be a whole number from 1 to 40"),
        ("geyser move a1-a2", "a1 is water."),
        ("geyser move z9", "is not a move"),
    ]:
        assert message in await run(terminal, out, line), line
    assert [m.id for m in terminal.service.running()] == [1]


async def test_horizon_hides_cards_in_public_lines_and_shows_the_hand_on_request(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    text = await run(terminal, out, "horizon new alice bob --first bob --seed 3")
    assert "Event Horizon #1: alice vs bob." in text and "bob to move" in text
    match = await service.get(1)
    card = next(c for c in match.state.hands[1] if c != "SW")
    text = await run(terminal, out, f"horizon move place {card.lower()} opp:4")
    assert "bob places a card face down on alice's space 4." in text and card not in text
    assert await run(terminal, out, "horizon history") == "1. bob: place a card on opp:4"
    asked = await run(terminal, out, "horizon hand --as bob")
    assert asked == "bob's hand is for bob's eyes only: pass the screen to bob, then press Enter."
    private = await run(terminal, out, "")
    assert private.startswith("bob, for your eyes only:\nYour hand: ")
    assert "Face-down cards you know: alice's space 4: " in private and private.endswith(".png")
    refused = await run(terminal, out, "horizon move place SW me:1")
    assert refused == "✗ Swap is never placed on a mat: play it with swap me:5 F2."
    assert "Name 2 players for Event Horizon" in await run(terminal, out, "horizon new alice")


async def test_a_game_against_the_computer_from_the_terminal(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    from bot.computer import ComputerPlayers
    from tests.test_computer import InlineExecutor

    computers = ComputerPlayers(service, executor=InlineExecutor())
    text = await run(terminal, out, "fish new alice computer:easy --first computer --seed 5")
    assert "alice vs Easy computer" in text
    await computers.idle()
    assert "Easy computer places a token on" in "\n".join(out)  # it moved by itself, and it was printed
    match = await service.get(terminal.current or 0)
    assert match.ply == 1
    assert "plays for itself" in await run(terminal, out, "fish move A1 --as computer")
    assert "Easy computer plays for itself" not in await run(terminal, out, "fish moves")
    assert "no computer level 'genius'" in await run(terminal, out, "fish new alice computer:genius")
    assert (await service.get(match.id)).ply == 1  # the refusals changed nothing


# --- hostile input: every line answered in one line, refusals change nothing, files stay in data/ ---


async def test_hostile_names_and_lines_get_a_one_line_refusal_and_change_nothing(
    terminal: Terminal, out: list[str], service: MatchService, tmp_path: Path
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    cases = {
        "fish new al\x00ice bob": "U+0000, a control or bidirectional character",
        "fish new \u202eevil bob": "U+202E (right-to-left override)",
        "fish new alice " + "b" * 300: "1 to 32 characters, as on Discord ('" + "b" * 40 + "'… has 300)",
        "horizon new ../../../escaped bob --seed 1": "cannot hold / or \\",
        "volcano new 'a\\b'": "cannot hold / or \\",
        "volcano new 'zero\u200bwidth' bob": "must be printable: 'zero\\u200bwidth' holds U+200B (zero width space)",
        "volcano new ' alice'": "cannot start or end with a space",
        "volcano new ''": "cannot be empty",
        "fish dm alice bob --first " + "x" * 33: "1 to 32 characters",
        "stats " + "y" * 40: "1 to 32 characters",
        "stats " + "z" * 100_000: "That line is 100,006 characters long; a command is at most 4,000.",
        "replay data/\x00x.json": "U+0000",
        "replay " + "f" * 3000 + ".json": "Cannot read ffffffffffffffffffff",
        f"replay {deep}": "nested far too deeply",
        "\x1b[31mred": "U+001B",
        "x" * 5000: "a command is at most 4,000",
    }
    for line, message in cases.items():
        text = await run(terminal, out, line)
        assert text.startswith("✗ ") and message in text and "\n" not in text and len(text) < 300, (line[:50], text)
    assert terminal.current is None and service.running() == [] and terminal.saved == []
    assert not (tmp_path / "renders").exists() and not any(tmp_path.parent.glob("**/escaped*"))


async def test_names_are_checked_wherever_they_are_typed(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    await run(terminal, out, "horizon new 'Zoë' bob --seed 3")
    match = await service.get(1)
    for line in ("horizon hand --as " + "q" * 33, "horizon move pass --as 'b/ob'", "mod adjudicate 'bob\u200d'"):
        text = await run(terminal, out, line)
        assert text.startswith("✗ A player's name") and "\n" not in text, line
    assert (await service.get(1)).ply == match.ply and (await service.get(1)).running


async def test_pictures_are_named_by_seat_and_a_safe_slug_inside_the_renders_folder(
    terminal: Terminal, out: list[str], service: MatchService, tmp_path: Path
) -> None:
    await run(terminal, out, "horizon new 'Zoë' \"o'brien\" --first \"o'brien\" --seed 3")
    for line in ("horizon hand --as 'zoë'", "", 'horizon hand --as "O\'Brien"', ""):
        await run(terminal, out, line)
    renders = tmp_path / "renders"
    hands = ["match-1-ply-000-hand-1-zo.png", "match-1-ply-000-hand-2-o-brien.png"]
    assert [p.name for p in terminal.saved[-2:]] == hands
    assert all(path.parent == renders for path in terminal.saved)
    written = {p.relative_to(tmp_path).parts[0] for p in tmp_path.rglob("*") if p.is_file()}
    assert written <= {"renders", "bot.sqlite3", "bot.sqlite3-wal", "bot.sqlite3-shm"}, written
    with pytest.raises(ValueError, match="not a plain file name"):
        terminal._file("match-1-hand-../../../escaped.png")


async def test_addtime_takes_whole_seconds_from_1_to_24_hours(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    await run(terminal, out, "fish dm alice bob --first alice --move 10 --reserve 5")
    clock = (await service.get(1)).clock
    for seconds in ("-1000", "0", "-0", "1e3", "1.5", "86401", "9" * 3000, "٣", "thirty", "nan"):
        text = await run(terminal, out, f"mod addtime bob {seconds}")
        assert text.startswith("✗ mod addtime gives 1 to 86,400 whole seconds") and len(text) < 200, seconds[:20]
    assert (await service.get(1)).clock == clock and [a for a in await service.store.actions(1)] == []
    assert "+1 d for bob" in await run(terminal, out, "mod addtime bob 86400")
    assert "+0:01 for bob" in await run(terminal, out, "mod addtime bob +1")


async def test_a_failure_inside_the_bot_is_answered_in_one_line_not_a_traceback(
    terminal: Terminal, out: list[str], service: MatchService, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    def broken() -> list[object]:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(service, "running", broken)
    assert await terminal.handle("games") is True
    assert out[-1] == "✗ Something went wrong on our side (the details are in the log); try another command."
    assert "the terminal command 'games' failed" in caplog.text and "RecursionError" in caplog.text


async def test_board_text_prints_the_position_in_words(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    """`board --text` (any game) prints renderers/alt_text.py's text board and saves no picture."""
    from bot import posts
    from renderers.alt_text import text_board

    await run(terminal, out, "fish new alice bob --seed 5")
    await run(terminal, out, "fish move a1")
    saved = len(terminal.saved)
    words = await run(terminal, out, "fish board --text")
    match = await service.get(1)
    drawn = text_board("fish", match.state, posts.caption(service, match, service.time.now()))
    assert words == i18n.unmarked(drawn)  # as printed
    assert words.startswith('"1, 2, 3" board, Match #1.\n') and "Row A: A1 1 fish, orange token" in words
    assert "Last move: alice places a token on A1." in words and len(terminal.saved) == saved
    await run(terminal, out, "themiscyra new alice bob")  # its first board is saved
    stones = await run(terminal, out, "themiscyra board --areas --text")
    assert "Row 10: a10 to j10 empty." in stones and len(terminal.saved) == saved + 1
    assert await run(terminal, out, "themiscyra moves --text") == "✗ Unknown option --text for this command."
