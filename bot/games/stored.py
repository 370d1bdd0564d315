"""What every engine's `loads` checks before it trusts a stored state: a stored state is read back into a
running match, so a tampered, truncated or foreign one must be refused at the door (`BadState`), not fail
later in the middle of a move.

The checks shared by all games live here: the text is a JSON object of this game with the fields `dumps`
writes (`read`), conversion errors become refusals (`converting`), and every field of the state holds what
its annotation says (`check_types`, from the dataclass itself, so a new field is checked without a word
here). Each engine then checks its own invariants. Messages name the game and the field, never a value of
a game with hidden information (Event Horizon's cards).
"""

from __future__ import annotations

import dataclasses
import json
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from bot.games.base import AnyGame, BadState

S = TypeVar("S")


def refuse(game: AnyGame, what: str) -> BadState:
    """The refusal of a stored `game` state, saying what is wrong."""
    return BadState(f"Not a valid stored {game.key} state: {what}.")


def read(game: AnyGame, text: str, required: frozenset[str], optional: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The JSON object of a stored state of `game`, with every `required` field and no field that is
    neither required nor `optional` (the "game" key is checked and dropped)."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise refuse(game, "the text is not JSON") from None
    if not isinstance(data, dict):
        raise refuse(game, "the JSON is not an object")
    if data.get("game") != game.key:
        other = data.get("game")
        raise refuse(game, f"it is a state of {other[:40]!r}" if isinstance(other, str) else "it names no game")
    del data["game"]
    missing, unknown = sorted(required - set(data)), sorted(set(data) - required - optional)
    if missing:
        raise refuse(game, f"it misses {', '.join(missing)}")
    if unknown:
        raise refuse(game, f"it has unknown fields {', '.join(unknown)[:200]}")
    return data


@contextmanager
def converting(game: AnyGame) -> Iterator[None]:
    """Turn what a malformed field raises while the state is built (a list where a text was expected, a
    square name that does not exist) into a refusal; the error is quoted unless the game hides things."""
    try:
        yield
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        detail = "" if game.hidden_information else f" ({type(error).__name__}: {error})"
        raise refuse(game, f"a field is malformed{detail}") from None


def listed(value: Any) -> tuple[Any, ...]:
    """A JSON list as a tuple; anything else (a text, an object, whose `tuple()` would pass) is malformed."""
    if type(value) is not list:
        raise TypeError(f"a list was expected, not {type(value).__name__}")
    return tuple(value)


def sound(game: AnyGame, state: S, broken: Callable[[S], str | None]) -> S:
    """`state` as `loads` gives it: every field of its type (`check_types`), and none of the game's
    invariants `broken` (which says what is wrong, or None); else BadState."""
    check_types(game, state)
    if (what := broken(state)) is not None:
        raise refuse(game, what)
    return state


def check_types(game: AnyGame, state: Any) -> None:
    """Every field of the (dataclass) state holds a value of its annotated type, all the way down."""
    for name, kind in _hints(type(state)).items():
        if not _holds(getattr(state, name), kind):
            raise refuse(game, f"{name} is not {_shown(kind)}")


def _hints(cls: type) -> dict[str, Any]:
    """The annotated type of each field of a dataclass, worked out once per class."""
    found = _HINTS.get(cls)
    if found is None:
        hints = get_type_hints(cls)
        found = _HINTS[cls] = {f.name: hints[f.name] for f in dataclasses.fields(cls)}
    return found


_HINTS: dict[type, dict[str, Any]] = {}


def _holds(value: Any, kind: Any) -> bool:
    if kind is Any:
        return True
    if kind is type(None):
        return value is None
    if kind in (int, bool, str):
        return type(value) is kind  # exactly: JSON's true is no seat number
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        return any(_holds(value, option) for option in get_args(kind))
    if origin is tuple:
        args = get_args(kind)
        if type(value) is not tuple:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_holds(item, args[0]) for item in value)
        return len(value) == len(args) and all(_holds(item, arg) for item, arg in zip(value, args, strict=True))
    if origin is frozenset:
        return type(value) is frozenset and all(_holds(item, get_args(kind)[0]) for item in value)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return type(value) is kind and all(_holds(getattr(value, n), k) for n, k in _hints(kind).items())
    raise TypeError(f"check_types cannot check {kind!r}")  # a state field of a new kind: teach it here


def _shown(kind: Any) -> str:
    return kind.__name__ if isinstance(kind, type) else str(kind).replace("typing.", "")
