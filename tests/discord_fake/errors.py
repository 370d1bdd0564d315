"""Errors answered as Discord answers them (``{"message", "code", "errors"}``) and JSON responses."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.discord_api import InvalidForm

if TYPE_CHECKING:
    pass


def _json_response(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    """JSON with exactly ``Content-Type: application/json``: discord.py parses nothing else (no charset)."""
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json", headers=headers)


class _ApiError(Exception):
    """An error answered the way Discord does: ``{"message", "code", "errors"}`` with an HTTP status.

    ``expected`` marks failures a test arranged (`fail_next`, `forbid`, `lock_thread`, `delete_channel`,
    `remove_member`): they are answered but not counted against the bot in `DiscordFake.rejected`.
    """

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None, *, expected: bool = False
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.expected = expected

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body

    @classmethod
    def invalid_form(cls, error: InvalidForm) -> _ApiError:
        return cls(400, 50035, "Invalid Form Body", error.errors())


def _invalid_form(path: str, message: str, code: str = "BASE_TYPE_INVALID") -> _ApiError:
    """A 50035 error at a dotted field path (``data.choices.0.name``), nested as Discord nests it."""
    parts = tuple(int(part) if part.isdigit() else part for part in path.split(".") if part)
    return _ApiError.invalid_form(InvalidForm(parts, code, message))


def _flatten_errors(errors: dict[str, Any], path: str = "") -> Iterator[str]:
    """``components.0.label: Must be 80 or fewer in length.`` lines from Discord's nested ``errors``."""
    for key, value in errors.items():
        if key == "_errors":
            for error in value:
                yield f"{path or '<body>'}: {error.get('message')} ({error.get('code')})"
        elif isinstance(value, dict):
            yield from _flatten_errors(value, f"{path}.{key}" if path else key)


# ---------------------------------------------------------------------------------------------------
# Recorded and stored objects
