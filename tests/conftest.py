"""Shared fixtures: a real database per test (a SQLite file; on PostgreSQL too for the suites marked
`backends`, tests/databases.py), a fake clock, and a service opened on them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import i18n
from bot.clock import FakeTime
from bot.discord_app import GameBot
from bot.games import GAMES
from bot.local import Terminal
from bot.models import Player
from bot.service import MatchService, Notice
from bot.store import Store
from tests import strays
from tests.databases import BACKENDS, SERVER_URL, fresh_schema, no_server
from tests.discord_fake import DiscordFake
from tests.discord_helpers import RATE_SCALE, make_bot
from tests.toygame import TOY

TEST_GAMES = {**GAMES, TOY.key: TOY}

ALICE = Player("local:alice", "alice")
BOB = Player("local:bob", "bob")
MOD = Player("local:mod", "mod")


class Recorder:
    """A front-end stand-in that records notices and reports every board as posted at once."""

    def __init__(self, service: MatchService, post: bool = True) -> None:
        self.service = service
        self.notices: list[Notice] = []
        self.post = post
        service.subscribe(self)

    async def __call__(self, notice: Notice) -> None:
        self.notices.append(notice)
        if self.post and notice.kind in ("started", "moved", "undone", "board"):
            await self.service.board_posted(notice.match.id, notice.match.ply)

    def kinds(self) -> list[str]:
        return [n.kind for n in self.notices]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


# --- both backends: `database` is the store's target (tests/databases.py) ---


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "backends(*names): run on SQLite and on PostgreSQL (or the backends named), the `database` fixture"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("backends")
    if "database" in metafunc.fixturenames and marker is not None:
        metafunc.parametrize("database", marker.args or BACKENDS, indirect=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    on_postgres = [item for item in items if _backend(item) == "postgresql"]
    if not on_postgres:
        return
    reason = no_server()
    if reason is not None:
        for item in on_postgres:
            item.add_marker(pytest.mark.skip(reason=reason))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line saying why the PostgreSQL cases were skipped, read off the skips reported (with pytest-xdist
    the workers, not this process, collect the tests and ask for a server)."""
    skipped = terminalreporter.stats.get("skipped", [])
    said = {report.longrepr[2] for report in skipped if isinstance(report.longrepr, tuple)}
    reason = next((text.removeprefix("Skipped: ") for text in sorted(said) if "PostgreSQL" in text), None)
    if reason:
        terminalreporter.write_line(reason, yellow=True)


def _backend(item: pytest.Item) -> str | None:
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("database") if callspec is not None else None


@pytest.fixture
async def database(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Path | str]:
    """The store's target: the SQLite file `db_path`, or (parametrised `postgresql`) the URL of a fresh
    schema on TEST_DATABASE_URL's server, dropped after the test."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield db_path
        return
    async with fresh_schema(SERVER_URL) as url:
        yield url


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
async def open_service(
    database: Path | str, fake_time: FakeTime
) -> AsyncIterator[Callable[[], Awaitable[MatchService]]]:
    """Opens services on the same database (call it again to simulate a restart)."""
    opened: list[tuple[MatchService, Store]] = []

    async def opener() -> MatchService:
        store = await Store.open(database, TEST_GAMES)
        service = MatchService(store, fake_time)
        opened.append((service, store))
        return service

    yield opener
    for service, store in opened:
        await service.close()
        await store.close()


@pytest.fixture
async def service(open_service: Callable[[], Awaitable[MatchService]]) -> MatchService:
    svc = await open_service()
    await svc.start()
    return svc


async def eventually(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait (in real time) until a background task has made `condition` true. `timeout` only bounds a test
    that would otherwise hang: work in the background (a database write, a backup) may take seconds on a
    loaded machine, and a passing test never waits that long."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


# --- the Discord front-end against the fake Discord (tests/discord_fake/) ---


@pytest.fixture
async def fake() -> AsyncIterator[DiscordFake]:
    async with DiscordFake.serve(rate_scale=RATE_SCALE) as fake:
        yield fake


@pytest.fixture
async def bot(fake: DiscordFake, db_path: Path) -> AsyncIterator[GameBot]:
    async with fake.run(make_bot(fake, db_path)) as running:
        yield running  # type: ignore[misc]


@pytest.fixture
def out() -> list[str]:
    """What the terminal printed, line by line."""
    return []


@pytest.fixture
def terminal(service: MatchService, tmp_path: Path, out: list[str]) -> Terminal:
    """The offline terminal on the test's service, printing into `out`."""
    return Terminal(service, tmp_path / "renders", out.append)


@pytest.fixture(autouse=True)
def said_in_english(request: pytest.FixtureRequest) -> Iterator[None]:
    """The marking run (tests/strays.py) over the terminal and the pictures: a Discord or terminal test
    whose terminal output or picture says English that skipped the catalog fails (the fake Discord checks
    what it receives itself)."""
    module = request.module.__name__.rsplit(".", 1)[-1]
    if not (module.startswith(("test_discord", "test_local")) or "terminal" in request.fixturenames):
        yield
        return
    heard: list[str] = []

    def trace(where: str, text: str, words: list[str]) -> None:
        if words := i18n.stray_english(text, strays.COMPUTER_NAMES):
            heard.append(f"{where}: {' '.join(words)}: {i18n.unmarked(text)!r}")

    i18n.tracer = trace
    try:
        with strays.marking():
            yield
    finally:
        i18n.tracer = None
    problems = strays.found("terminal and pictures", heard)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
