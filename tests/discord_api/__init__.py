"""Discord's HTTP API as data (``openapi.json``, see README.md) and the documented limits it does not state.

The fake Discord (tests/discord_fake/) runs these checks on every request body the bot sends and answers
a failure as Discord does: 400, code 50035 "Invalid Form Body", with an ``errors`` object naming the field.
`check_body` validates against the route's request schema in the spec (JSON Schema 2020-12); the other
checks add what the spec leaves out (command names and sizes, component layout, mention rules).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.exceptions import relevance

SPEC_FILE = Path(__file__).with_name("openapi.json")

Path_ = tuple[str | int, ...]

# Documented limits the spec leaves out (developers/interactions/application-commands and message-components).
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")  # the docs' ^[-_'\p{L}\p{N}...]{1,32}$, lowercase where cased
COMMAND_TEXT_LIMIT = 4000  # name + description + option/choice texts per command: DESIGN.md's 4,000, which
# Discord raised to 8,000 in February 2024; the stricter figure keeps the bot within both.
COMMAND_COUNTS = {1: 100, 2: 15, 3: 15}  # chat input, user and message commands per scope
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
BUTTON, TEXT_INPUT = 2, 4
SELECTS = (3, 5, 6, 7, 8)
LINK_STYLE, PREMIUM_STYLE = 5, 6


class InvalidForm(Exception):
    """One "Invalid Form Body" error at a field ``path`` (keys and list indexes, as in Discord's answer)."""

    def __init__(self, path: Path_, code: str, message: str) -> None:
        super().__init__(f"{'.'.join(map(str, path)) or '<body>'}: {message}")
        self.path, self.code, self.message = path, code, message

    def errors(self) -> dict[str, Any]:
        """Discord's nested ``errors`` object: ``{"content": {"_errors": [{"code", "message"}]}}``."""
        tree: dict[str, Any] = {"_errors": [{"code": self.code, "message": self.message}]}
        for key in reversed(self.path):
            tree = {str(key): tree}
        return tree


# ---------------------------------------------------------------------------------------------------
# The spec


@functools.cache
def spec() -> dict[str, Any]:
    """The OpenAPI document, read once per test run, with one correction and one equivalent rewrite.

    The correction: Discord reads a snowflake from a JSON integer as well as from a string, and discord.py
    relies on it (``allowed_mentions.users``/``roles`` are lists of ints, ``attachments[].id`` is the
    upload's int index). The spec only states the string form, so ``SnowflakeType`` also takes
    non-negative integers; nothing else is loosened.

    The rewrites, equivalent, make validation about five times as fast (a message with 25 buttons takes ~2 ms
    instead of ~10, a plain one ~0.02 ms) and its errors clearer: see `_by_kind`.
    """
    document: dict[str, Any] = json.loads(SPEC_FILE.read_text())
    schemas = document["components"]["schemas"]
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}
    _by_kind(document, document)
    return document


def _kinds(document: dict[str, Any], schema: dict[str, Any]) -> list[Any] | None:
    """The values of ``type`` an object schema pins (``properties.type`` with ``enum`` or ``const``)."""
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rpartition("/")[2]]
    kind = schema.get("properties", {}).get("type")
    if schema.get("type") != "object" or not isinstance(kind, dict):
        return None
    return [kind["const"]] if "const" in kind else kind.get("enum")


def _by_kind(document: dict[str, Any], node: Any) -> None:
    """Rewrite unions as what they mean, so one value is not checked against every alternative.

    A oneOf/anyOf whose branches are each a ``const`` (the spec's documented enums such as component
    types and button styles) becomes an ``enum``; one over object kinds told apart by their ``type``
    field becomes ``x-kind``, a map from each ``type`` value to its branch (`_kind_keyword`). Both are
    equivalent since the values are distinct, and an error then names the field that is wrong instead
    of "not valid under any of the given schemas".
    """
    if isinstance(node, list):
        for item in node:
            _by_kind(document, item)
        return
    if not isinstance(node, dict):
        return
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list) or len(branches) < 2:
            continue
        constants = [branch.get("const") for branch in branches if isinstance(branch, dict) and "const" in branch]
        if len(constants) == len(branches) and len(set(constants)) == len(constants):
            del node[keyword]
            node["enum"] = constants
            continue
        kinds = [_kinds(document, branch) for branch in branches]
        values = [value for kind in kinds for value in kind or [None]]
        if None in values or len(values) != len(set(values)):
            continue
        del node[keyword]
        node["x-kind"] = {value: branch for kind, branch in zip(kinds, branches, strict=True) for value in kind or []}
    for value in list(node.values()):
        _by_kind(document, value)


def _kind_keyword(
    validator: Any, branches: dict[Any, Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """``x-kind``: validate an object against the branch its ``type`` names, and nothing else."""
    if not validator.is_type(instance, "object"):
        return
    branch = branches.get(instance.get("type"))
    if branch is None:
        yield from validator.descend(instance.get("type"), {"enum": list(branches)}, path="type")
    else:
        yield from validator.descend(instance, branch)


_Validator = validators.extend(Draft202012Validator, {"x-kind": _kind_keyword})


def has_operation(method: str, path: str) -> bool:
    """Whether the spec describes ``method path`` (a path template such as ``/channels/{channel_id}``)."""
    return method.lower() in spec()["paths"].get(path, {})


@functools.cache
def _validator(method: str, path: str) -> Any:
    """The compiled validator of a route's JSON request body (None if it takes none); one per route."""
    content = spec()["paths"][path][method.lower()].get("requestBody", {}).get("content", {})
    schema = (content.get("application/json") or next(iter(content.values()), {})).get("schema")
    if schema is None:
        return None
    # The route's schema with the document's components at its root, so "#/components/..." refs resolve.
    return _Validator({**schema, "components": spec()["components"]})


_VALID: dict[tuple[str, str, str], None] = {}  # bodies already found valid (every test syncs the same commands)
_VALID_LIMIT = 4096


def check_body(method: str, path: str, body: Any) -> None:
    """Validate a JSON body (or a multipart ``payload_json``) against the route's schema in the spec."""
    validator = _validator(method, path)
    if validator is None or body is None:
        return
    key = (method, path, json.dumps(body, sort_keys=True))
    if key in _VALID:
        return
    errors = list(validator.iter_errors(body))
    if errors:
        raise _from_schema_error(_pick(errors))
    if len(_VALID) >= _VALID_LIMIT:
        _VALID.clear()
    _VALID[key] = None


def _other_kind(error: ValidationError) -> bool:
    """An error saying the value is another kind than this union branch is for (null, or another type)."""
    at_type = list(error.relative_path) == ["type"] and error.validator in ("enum", "const")
    return at_type or (error.validator == "type" and not error.relative_path)


def _branches(error: ValidationError) -> list[list[ValidationError]]:
    """A oneOf/anyOf error's failures grouped by branch, leaving out branches for other kinds of value."""
    grouped: dict[Any, list[ValidationError]] = {}
    for sub in error.context or []:
        grouped.setdefault(sub.relative_schema_path[0], []).append(sub)
    return [subs for subs in grouped.values() if not any(_other_kind(sub) for sub in subs)]


def _weight(errors: list[ValidationError]) -> int:
    """How much is wrong along the likeliest branches: fewer means the body more likely meant that one."""
    total = 0
    for error in errors:
        branches = _branches(error)
        total += min((_weight(subs) for subs in branches), default=1) if error.context else 1
    return total


def _pick(errors: list[ValidationError]) -> ValidationError:
    """The error to report: like jsonschema's `best_match`, but a union is followed into the branch the
    body meant (the one with the fewest failures among those for its kind of value)."""
    best = max(errors, key=relevance)
    while best.context:
        branches = _branches(best)
        if not branches:
            break
        best = max(min(branches, key=_weight), key=relevance)
    return best


def _from_schema_error(error: ValidationError) -> InvalidForm:
    """The error as Discord words it (codes from its answers; jsonschema's text where there is none)."""
    path: Path_ = tuple(error.absolute_path)
    limit = error.validator_value
    kind = error.validator
    if kind in ("maxLength", "maxItems"):
        return InvalidForm(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    if kind in ("minLength", "minItems"):
        return InvalidForm(path, "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length.")
    if kind == "required":
        missing = next(name for name in limit if name not in error.instance)
        return InvalidForm((*path, missing), "BASE_TYPE_REQUIRED", "This field is required")
    if kind in ("enum", "const"):
        choices = limit if kind == "enum" else [limit]
        return InvalidForm(path, "BASE_TYPE_CHOICES", f"Value must be one of {choices}.")
    if kind == "maximum":
        return InvalidForm(path, "NUMBER_TYPE_MAX", f"Value should be less than or equal to {limit}.")
    if kind == "minimum":
        return InvalidForm(path, "NUMBER_TYPE_MIN", f"Value should be greater than or equal to {limit}.")
    return InvalidForm(path, "BASE_TYPE_INVALID", error.message)


# ---------------------------------------------------------------------------------------------------
# Limits on top of the spec


def _fail(path: Path_, message: str, code: str = "BASE_TYPE_INVALID") -> None:
    raise InvalidForm(path, code, message)


def _length(path: Path_, value: Any, low: int, high: int) -> None:
    size = len(value) if isinstance(value, str | list) else 0
    if size > high:
        _fail(path, f"Must be {high} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    if size < low:
        _fail(path, f"Must be {low} or more in length.", "BASE_TYPE_MIN_LENGTH")


def walk_components(
    components: Iterable[dict[str, Any]], path: Path_ = ("components",)
) -> Iterator[tuple[Path_, dict[str, Any]]]:
    """Every component with its field path, depth first: rows, sections (accessory) and containers nest."""
    for index, component in enumerate(components):
        here = (*path, index)
        yield here, component
        yield from walk_components(component.get("components") or [], (*here, "components"))
        if component.get("accessory"):
            yield (*here, "accessory"), component["accessory"]


def check_message(body: dict[str, Any], *, prefix: Path_ = (), components_v2: bool = False) -> None:
    """Content, attachments and components of a message create/edit (``prefix``: e.g. ``("data",)``)."""
    if body.get("content") is not None:
        _length((*prefix, "content"), body["content"], 0, 2000)
    attachments = body.get("attachments") or []
    _length((*prefix, "attachments"), attachments, 0, 10)
    for index, attachment in enumerate(attachments):
        if attachment.get("description") is not None:
            _length((*prefix, "attachments", index, "description"), attachment["description"], 0, 1024)
    check_components(body.get("components") or [], prefix=prefix, components_v2=components_v2)
    if body.get("allowed_mentions") is not None:
        check_allowed_mentions(body["allowed_mentions"], (*prefix, "allowed_mentions"))


def check_components(components: list[dict[str, Any]], *, prefix: Path_ = (), components_v2: bool = False) -> None:
    """Layout (5 rows of 5 buttons or one select), lengths, value counts and unique custom ids."""
    top = (*prefix, "components")
    if not components_v2:
        _length(top, components, 0, 5)
        for index, component in enumerate(components):
            if component.get("type") != 1:
                _fail((*top, index, "type"), "Top-level components must be action rows (without the V2 flag).")
    seen: set[str] = set()
    for path, component in walk_components(components, top):
        kind = component.get("type")
        if kind == 1:
            _check_row(path, component.get("components") or [])
        elif kind == BUTTON:
            _check_button(path, component)
        elif kind in SELECTS:
            _check_select(path, component)
        elif kind == TEXT_INPUT:
            _fail((*path, "type"), "Text inputs belong in modals, not in messages.")
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                _fail(
                    (*path, "custom_id"), "Component custom id cannot be duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED"
                )
            seen.add(custom_id)


def _check_row(path: Path_, children: list[dict[str, Any]]) -> None:
    _length((*path, "components"), children, 1, 5)
    kinds = [child.get("type") for child in children]
    if any(kind in SELECTS for kind in kinds) and len(kinds) > 1:
        _fail(
            (*path, "components"), "A select menu must be alone in its action row.", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
        )
    for index, kind in enumerate(kinds):
        if kind not in (BUTTON, *SELECTS):
            _fail((*path, "components", index, "type"), f"Component type {kind} cannot be in an action row.")


def _check_button(path: Path_, button: dict[str, Any]) -> None:
    if button.get("label") is not None:
        _length((*path, "label"), button["label"], 0, 80)
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url") or button.get("custom_id") is not None:
            _fail(path, "A link button has a url and no custom_id.")
    elif style != PREMIUM_STYLE:
        _length((*path, "custom_id"), button.get("custom_id") or "", 1, 100)
        if not button.get("label") and not button.get("emoji"):
            _fail((*path, "label"), "A button needs a label or an emoji.", "BASE_TYPE_REQUIRED")


def _check_select(path: Path_, select: dict[str, Any]) -> None:
    _length((*path, "custom_id"), select.get("custom_id") or "", 1, 100)
    if select.get("placeholder") is not None:
        _length((*path, "placeholder"), select["placeholder"], 0, 150)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= 25:
        _fail((*path, "min_values"), "Must be between 0 and 25.")
    if not 1 <= high <= 25 or high < low:
        _fail((*path, "max_values"), f"Must be between {max(low, 1)} and 25.")
    if select.get("type") != 3:
        return
    options = select.get("options") or []
    _length((*path, "options"), options, 1, 25)
    for index, option in enumerate(options):
        _length((*path, "options", index, "label"), option.get("label") or "", 1, 100)
        _length((*path, "options", index, "value"), option.get("value") or "", 1, 100)
        if option.get("description") is not None:
            _length((*path, "options", index, "description"), option["description"], 0, 100)
    if high > len(options):
        _fail((*path, "max_values"), f"Must be {len(options)} or fewer (the number of options).")


def check_allowed_mentions(allowed: dict[str, Any], path: Path_) -> None:
    """``parse: ["users"]`` with a ``users`` list (or roles with roles) is a 400 on Discord."""
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            _fail(
                (*path, kind),
                f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            )


def check_autocomplete(data: dict[str, Any], prefix: Path_ = ("data",)) -> None:
    """At most 25 choices, each name and (string) value 1-100 characters."""
    choices = data.get("choices")
    if not isinstance(choices, list):
        _fail((*prefix, "choices"), "This field is required", "BASE_TYPE_REQUIRED")
    _length((*prefix, "choices"), choices, 0, 25)
    for index, choice in enumerate(choices):
        _length((*prefix, "choices", index, "name"), choice.get("name") or "", 1, 100)
        if isinstance(choice.get("value"), str):
            _length((*prefix, "choices", index, "value"), choice["value"], 1, 100)


def check_commands(commands: Sequence[dict[str, Any]]) -> None:
    """A bulk overwrite: each command, the counts per type and unique names per type."""
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        check_command(command, (index,))
        key = (command.get("type") or 1, command.get("name") or "")
        if key in seen:
            _fail((index, "name"), "Application command names must be unique", "APPLICATION_COMMANDS_DUPLICATE_NAME")
        seen.add(key)
    for kind, limit in COMMAND_COUNTS.items():
        if sum(1 for command in commands if (command.get("type") or 1) == kind) > limit:
            _fail((), f"Must be {limit} or fewer commands of type {kind}.", "BASE_TYPE_MAX_LENGTH")


def check_command(command: dict[str, Any], path: Path_ = ()) -> None:
    """Names, descriptions, options and the total size of one command."""
    kind = command.get("type") or 1
    if kind == 1:
        _check_name((*path, "name"), command.get("name") or "")
        _length((*path, "description"), command.get("description") or "", 1, 100)
        _check_localized(command, "name", path, _check_name)
        _check_localized(command, "description", path, _description)
        _check_options(command.get("options") or [], (*path, "options"))
        if _text_size(command) > COMMAND_TEXT_LIMIT:
            _fail(path, f"Command exceeds maximum size ({COMMAND_TEXT_LIMIT})", "APPLICATION_COMMAND_TOO_LARGE")
    else:
        _length((*path, "name"), command.get("name") or "", 1, 32)
        if command.get("description") or command.get("options"):
            _fail((*path, "description"), "Context menu commands have no description or options.")


@functools.cache
def locales() -> frozenset[str]:
    """Discord's locales (the spec's AvailableLocalesEnum): the only keys a localizations object may have."""
    raw = json.loads(SPEC_FILE.read_text(encoding="utf-8"))["components"]["schemas"]["AvailableLocalesEnum"]
    return frozenset(item["const"] for item in raw["oneOf"])


def _check_localized(item: dict[str, Any], key: str, path: Path_, check: Any) -> None:
    """`name_localizations` / `description_localizations`: Discord's locale keys only, each text held to the
    rule of the default text (`check(path, text)`), as Discord validates them."""
    localized = item.get(f"{key}_localizations") or {}
    for locale, text in localized.items():
        here = (*path, f"{key}_localizations", locale)
        if locale not in locales():
            _fail(here, f"Value must be one of {sorted(locales())}.", "BASE_TYPE_CHOICES")
        check(here, text if isinstance(text, str) else "")


def _check_name(path: Path_, name: str) -> None:
    if not COMMAND_NAME.match(name):
        _fail(path, "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME")
    if name != name.lower():
        _fail(path, "Command name must be lowercase", "APPLICATION_COMMAND_INVALID_NAME")


def _check_options(options: list[dict[str, Any]], path: Path_) -> None:
    _length(path, options, 0, 25)
    names: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        here = (*path, index)
        name = option.get("name") or ""
        _check_name((*here, "name"), name)
        _length((*here, "description"), option.get("description") or "", 1, 100)
        _check_localized(option, "name", here, _check_name)
        _check_localized(option, "description", here, _description)
        if name in names:
            _fail((*here, "name"), "Option names must be unique", "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME")
        names.add(name)
        if option.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP):
            _check_options(option.get("options") or [], (*here, "options"))
            continue
        if option.get("required"):
            if optional_seen:
                _fail((*here, "required"), "Required options must be placed before non-required options")
        else:
            optional_seen = True
        choices = option.get("choices") or []
        _length((*here, "choices"), choices, 0, 25)
        for number, choice in enumerate(choices):
            _length((*here, "choices", number, "name"), choice.get("name") or "", 1, 100)
            _check_localized(choice, "name", (*here, "choices", number), _description)
            if isinstance(choice.get("value"), str):
                _length((*here, "choices", number, "value"), choice["value"], 1, 100)


def _description(path: Path_, text: str) -> None:
    _length(path, text, 1, 100)


def _longest(item: dict[str, Any], key: str) -> int:
    """A text's size for the command total: the longest of the default and its localizations."""
    texts = [str(item.get(key) or ""), *(item.get(f"{key}_localizations") or {}).values()]
    return max(len(text) for text in texts)


def _text_size(item: dict[str, Any]) -> int:
    size = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(_text_size(option) for option in item.get("options") or [])
