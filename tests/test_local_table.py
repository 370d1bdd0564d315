"""The terminal's command table (bot/local/table.py): the help, the parsing and the refusals are made from
it, for every command of every game."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from bot import i18n
from bot.games import REGISTRY
from bot.local import COMMANDS, Terminal, full_help
from bot.local.checks import CommandError
from bot.local.table import Args, Command, Flag, split


def refusal(call: Callable[[], object]) -> str:
    """The refusal `call` raises, as its reader sees it (the marking run's marks taken out)."""
    with pytest.raises(CommandError) as caught:
        call()
    return i18n.unmarked(str(caught.value))


def leaves(commands: tuple[Command, ...]) -> list[Command]:
    return [leaf for c in commands for leaf in (leaves(c.commands) if c.commands else [c])]


def test_the_help_lists_every_command_once() -> None:
    listed = [c for c in leaves(COMMANDS) if c.shown]
    said = i18n.unmarked(full_help())
    for command in listed:
        assert said.count(f"  {command.usage()} ") == 1, command.name
    for key in REGISTRY:  # the shared commands are listed once, as GAME's
        assert f"  {key} move" not in said and f"  {key} new" in said
    assert "  GAME move MOVE [--as NAME] " in said


def test_every_game_has_the_shared_commands_and_its_own() -> None:
    groups = {c.name: c for c in COMMANDS if c.commands}
    shared = ["move", "board", "moves", "history", "rules", "resign", "record", "analysis"]
    for key, registration in REGISTRY.items():
        words = [c.word for c in groups[key].commands]
        assert words[: len(words) - 12] == ["new", *["dm"] * registration.death_matches, *registration.typed.commands]
        assert words[len(words) - 12 :][: len(shared)] == shared
        board = groups[key].find("board")
        assert board is not None and {f.name for f in board.flags} == {"match", "text", *registration.overlays}
        assert groups[key].find("play") is groups[key].find("move")


def test_the_words_and_flags_are_checked_before_a_command_runs() -> None:
    command = Command("mod addtime", "", None, "NAME SECONDS", (2, 2), (Flag("match", "ID"),))
    command.check(Args(["alice", "30"], {"match": "1"}))
    assert re.match(r"^Use: mod addtime NAME SECONDS\.$", refusal(lambda: command.check(Args(["alice"], {}))))
    assert re.match(
        r"^Unknown option --as for this command\.$",
        refusal(lambda: command.check(Args(["alice", "30"], {"as": "bob"}))),
    )
    bare = Command("fish history", "", None)
    assert re.match(
        r"^fish history takes no words \('x y' is too much\)", refusal(lambda: bare.check(Args(["x", "y"], {})))
    )
    named = Command("fish new", "", None, takes=(0, None), flags=(Flag("clock", "30/60"),), names_flags=True)
    assert re.match(
        r"^Unknown option --colour for fish new \(it takes --clock\)\.$",
        refusal(lambda: named.check(Args([], {"colour": "red"}))),
    )


def test_flags_are_split_from_the_words_anywhere_in_the_line() -> None:
    assert split(["a", "--AS", "bob", "b", "--areas"], frozenset({"areas"})) == ({"as": "bob", "areas": ""}, ["a", "b"])
    assert split(["--", "-x"], frozenset()) == ({}, ["--", "-x"])
    assert re.match(r"^--as needs a value\.$", refusal(lambda: split(["--as"], frozenset())))


async def test_a_group_refuses_a_missing_or_unknown_command(terminal: Terminal, out: list[str]) -> None:
    said = {}
    for line in ("mod", "mod explode", "geyser", "geyser fly", "tournament frob", "settings frob", "game move"):
        await terminal.handle(line)
        said[line] = out[-1]
    assert said == {
        "mod": "✗ mod what? list, pause, resume, addtime NAME SECONDS, undo, adjudicate NAME, abort or backup.",
        "mod explode": "✗ Unknown mod command 'explode': list, pause, resume, addtime, undo, adjudicate, abort or"
        " backup.",
        "geyser": "✗ geyser what? new, move, board, moves, history, rules, resign, record, analysis, takeback, accept,"
        " decline or claim.",
        "geyser fly": "✗ Unknown geyser command 'fly': new, move, board, moves, history, rules, resign, record,"
        " analysis, takeback, accept, decline or claim.",
        "tournament frob": "✗ Use: tournament new GAME FORMAT [--rounds N] [--clock C] [--seats N] [--series dm], or"
        " join NAME, leave NAME, start, standings or record.",
        "settings frob": "✗ Use: settings, settings set KEY VALUE or settings reset KEY.",
        "game move": "✗ Unknown command 'game'; type help for the list. Did you mean games?",
    }
    assert terminal.service.running() == []
