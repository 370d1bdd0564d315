"""The shape of the code: no module of bot/ or renderers/ imports, however indirectly, a module that
imports it back, counting imports inside functions too (a lazy import hides a cycle, it does not remove it)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "renderers")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, known: set[str]) -> set[str]:
    """The project modules `path` imports anywhere in it (`from bot import posts` is bot.posts)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name in known}


def graph() -> dict[str, set[str]]:
    files = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    known = {module_name(path) for path in files}
    edges = {module_name(path): imports(path, known) for path in files}
    for name in edges:  # a package's __init__ is not an edge of its own modules' imports
        edges[name] = {other for other in edges[name] if not name.startswith(other + ".")}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def test_the_checker_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_the_discord_layer_shape() -> None:
    """The buttons know nothing of the bot class; engines and renderers know nothing of the bot."""
    edges = graph()
    assert "bot.discord_app" not in edges["bot.views"]
    for name, imported in edges.items():
        if name.startswith(("bot.games", "renderers")):
            assert not {m for m in imported if m.startswith(("bot.service", "bot.store", "bot.discord", "bot.cogs"))}


def test_the_service_loads_no_pillow_and_no_discord() -> None:
    """The service knows no Discord and no Pillow: it takes its notices' words from bot/posts.py, which
    imports `renderers` only where it draws, so a process that only plays matches (bench/load.py) loads
    neither."""
    import subprocess
    import sys

    code = "import sys, bot.service; print(sorted({'PIL', 'discord', 'renderers'} & set(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_the_service_writes_no_discord_syntax() -> None:
    """No mention or timestamp markup in the service (`<@id>`, `<@&id>`, `<#id>`, `<t:…>`): a front-end writes
    people, roles, channels and times its own way (the settings' `Refer`, `who`, `when`)."""
    import re

    markup = re.compile(r"<(@&?|#|t:)[{\\d]")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "bot" / "service").glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if markup.search(line)
    ]
    assert found == []
