"""The fake's command checks hold localizations to Discord's rules: locale keys Discord's own, localized
names as names (the regex, 1-32, lowercase), localized descriptions and choice names 1-100."""

from __future__ import annotations

from typing import Any

import pytest

from tests import discord_api
from tests.discord_api import InvalidForm


def command(**changes: Any) -> dict[str, Any]:
    option = {
        "type": 3,
        "name": "game",
        "description": "which game",
        "choices": [{"name": "Volcano", "value": "volcano"}],
    }
    body: dict[str, Any] = {"type": 1, "name": "play", "description": "Play a move", "options": [option]}
    for path, value in changes.items():
        target: Any = body
        *keys, last = path.split(".")
        for key in keys:
            target = target[int(key)] if key.isdigit() else target[key]
        target[last] = value
    return body


def test_good_localizations_pass() -> None:
    discord_api.check_command(
        command(
            name_localizations={"de": "spielen", "pt-BR": "jogar"},
            description_localizations={"fr": "Jouer un coup"},
            **{
                "options.0.name_localizations": {"es-ES": "juego"},
                "options.0.description_localizations": {"de": "welches Spiel"},
                "options.0.choices.0.name_localizations": {"de": "Vulkan"},
            },
        )
    )


@pytest.mark.parametrize(
    ("changes", "path", "code"),
    [
        ({"name_localizations": {"xx": "spielen"}}, ("name_localizations", "xx"), "BASE_TYPE_CHOICES"),
        ({"name_localizations": {"es": "jugar"}}, ("name_localizations", "es"), "BASE_TYPE_CHOICES"),  # es-ES
        ({"name_localizations": {"de": "Spielen"}}, ("name_localizations", "de"), "APPLICATION_COMMAND_INVALID_NAME"),
        (
            {"name_localizations": {"de": "zug machen"}},
            ("name_localizations", "de"),
            "APPLICATION_COMMAND_INVALID_NAME",
        ),
        ({"name_localizations": {"fr": "x" * 33}}, ("name_localizations", "fr"), "APPLICATION_COMMAND_INVALID_NAME"),
        ({"description_localizations": {"fr": "x" * 101}}, ("description_localizations", "fr"), "BASE_TYPE_MAX_LENGTH"),
        ({"description_localizations": {"fr": ""}}, ("description_localizations", "fr"), "BASE_TYPE_MIN_LENGTH"),
        (
            {"options.0.name_localizations": {"de": "Spiel"}},
            ("options", 0, "name_localizations", "de"),
            "APPLICATION_COMMAND_INVALID_NAME",
        ),
        (
            {"options.0.description_localizations": {"pt-BR": "y" * 101}},
            ("options", 0, "description_localizations", "pt-BR"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"options.0.choices.0.name_localizations": {"de": "z" * 101}},
            ("options", 0, "choices", 0, "name_localizations", "de"),
            "BASE_TYPE_MAX_LENGTH",
        ),
    ],
)
def test_bad_localizations_are_refused_naming_the_field(
    changes: dict[str, Any], path: tuple[Any, ...], code: str
) -> None:
    with pytest.raises(InvalidForm) as refused:
        discord_api.check_command(command(**{k.replace("__", "."): v for k, v in changes.items()}))
    assert (refused.value.path, refused.value.code) == (path, code)
