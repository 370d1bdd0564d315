"""Each game's registration (bot/games/registration.py) is complete: every part it names exists and is that
game's, and every table the front-ends keep by game key is the registry's."""

from __future__ import annotations

import inspect

import pytest

from bot import analysis
from bot.ai import model_for
from bot.ai.model import Model
from bot.games import GAMES, REGISTRY, Registration
from bot.games.registration import resolve

KEYS = sorted(REGISTRY)


def test_the_registry_is_the_games() -> None:
    assert list(REGISTRY) == list(GAMES) == ["fish", "volcano", "themiscyra", "geyser", "horizon"]
    for key, registration in REGISTRY.items():
        assert registration.key == key and registration.engine is GAMES[key]


@pytest.mark.parametrize("key", KEYS)
def test_its_pictures_and_words(key: str) -> None:
    import renderers
    from renderers import alt_text

    registration = REGISTRY[key]
    module = resolve(registration.renderer)
    assert registration.renderer == f"renderers.{key}"
    assert callable(module.draw) and callable(module.panel) and isinstance(module.PANEL_LEFT, int)
    assert renderers.DRAWERS[key] is module.draw
    assert renderers.PANELS[key] == (module.panel, module.PANEL_LEFT - 4)
    words = resolve(registration.words)
    assert inspect.isfunction(words) and alt_text.WORDS[key] is words
    assert [*inspect.signature(words).parameters] == ["view", "caption"]


@pytest.mark.parametrize("key", KEYS)
def test_its_cog(key: str) -> None:
    from bot.cogs import START_COMMANDS
    from bot.discord_app import EXTENSIONS

    registration = REGISTRY[key]
    module = resolve(registration.cog)
    assert registration.cog in EXTENSIONS and callable(module.setup)
    (cog,) = [
        value
        for value in vars(module).values()
        if inspect.isclass(value) and value.__module__ == module.__name__ and getattr(value, "game_key", None) == key
    ]
    assert cog.__cog_group_name__ == key
    commands = {command.name: command for command in cog.__cog_app_commands__}
    assert registration.start in ("challenge", "new") and registration.start in commands
    assert ("dm" in commands) == registration.death_matches
    board = [parameter.name for parameter in commands["board"].parameters]
    assert [name for name in board if name not in ("match", "text")] == list(registration.overlays)
    assert f"`/{key} {registration.start}`" in START_COMMANDS


@pytest.mark.parametrize("key", KEYS)
def test_its_computer_and_its_analysis(key: str) -> None:
    registration = REGISTRY[key]
    assert registration.model == f"bot.ai.{key}:MODEL"
    model = model_for(key)
    assert model is resolve(registration.model) and model.game is GAMES[key]
    assert all(callable(getattr(model, name)) for name in vars(Model) if not name.startswith("_") and name != "game")
    assert registration.analysis_iterations >= 100
    assert analysis.iterations_for(key) == registration.analysis_iterations


@pytest.mark.parametrize("key", KEYS)
def test_its_terminal_commands(key: str) -> None:
    from bot.local import NEW, OWN, full_help

    typed = REGISTRY[key].typed
    assert NEW[key] is typed and typed.example.startswith(f"{key} new ") and f"{key} move " in typed.moves
    assert typed.players == typed.players.upper() and typed.note
    assert OWN[key] == ("new", *("dm",) * REGISTRY[key].death_matches, *typed.commands)
    assert not GAMES[key].chance or typed.seed  # a game of chance takes its seed
    for command in OWN[key]:
        assert f"  {key} {command} " in full_help()


def test_every_death_match_game_is_two_player() -> None:
    for registration in REGISTRY.values():
        assert not registration.death_matches or registration.engine.max_players == 2


def test_resolve_names_a_module_or_its_attribute() -> None:
    assert resolve("bot.games.fish:FISH") is GAMES["fish"]
    assert resolve("bot.games.fish").FISH is GAMES["fish"]
    with pytest.raises(AttributeError):
        resolve("bot.games.fish:NOTHING")
    assert isinstance(REGISTRY["fish"], Registration)
