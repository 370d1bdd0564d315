"""Health and metrics (bot/metrics.py, bot/health.py) and the deployment files (Dockerfile, docker-compose.yml).

The metrics are measured through a real service on a real SQLite file, the Discord poster against the fake
Discord, and the endpoint over HTTP with aiohttp's client; the pipeline and thinking times run on a timer the
test moves, flags on the fake clock, so every count and sum is exact.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, Future
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import discord_app
from bot.app import serve_health
from bot.clock import LAG_GRACE, ClockSettings, FakeTime
from bot.computer import ComputerPlayers
from bot.config import Config
from bot.discord_app import GameBot
from bot.games import GAMES, IllegalMove, Termination
from bot.health import Health, HealthServer
from bot.metrics import FAILED_REASONS, LATENESS_BUCKETS, PIPELINE_BUCKETS, MetricsUnavailable, PrometheusMetrics
from bot.models import computer
from bot.service import MatchService, Notice
from bot.store import Store
from tests.conftest import ALICE, BOB, TEST_GAMES, eventually
from tests.discord_fake import DiscordFake
from tests.discord_helpers import make_bot, was_played

ROOT = Path(__file__).resolve().parent.parent
FISH = GAMES["fish"]
CLOCK = ClockSettings(30, 60)
BOARDS = ("started", "moved", "undone", "board", "over")


class Timer:
    """The metrics' monotonic clock, moved by the test (and by the stand-ins below)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Poster:
    """A front-end that takes `seconds` on the timer to post each board, then reports it posted."""

    def __init__(self, service: MatchService, timer: Timer, seconds: float) -> None:
        self.service, self.timer, self.seconds = service, timer, seconds
        service.subscribe(self)

    async def __call__(self, notice: Notice) -> None:
        if notice.kind in BOARDS:
            self.timer.now += self.seconds
            await self.service.board_posted(notice.match.id, notice.match.ply)


class SteppingExecutor(Executor):
    """Thinks at once on the event loop's thread, taking `seconds` on the timer."""

    def __init__(self, timer: Timer, seconds: float) -> None:
        self.timer, self.seconds = timer, seconds

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.timer.now += self.seconds
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def sample(metrics: PrometheusMetrics, name: str, **labels: str) -> float:
    """A sample's value in the registry (0 for one never observed)."""
    value = metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


@pytest.fixture
async def measured(db_path: Path, fake_time: FakeTime) -> AsyncIterator[tuple[MatchService, PrometheusMetrics, Timer]]:
    """A started service measured by its own metrics, on the fake clock (flags) and a test timer (latencies)."""
    timer = Timer()
    metrics = PrometheusMetrics(timer)
    store = await Store.open(db_path, TEST_GAMES)
    service = MatchService(store, fake_time, metrics=metrics)
    await service.start()
    try:
        yield service, metrics, timer
    finally:
        await service.close()
        await store.close()


# --- the service -------------------------------------------------------------------------------------


def test_the_service_loads_neither_aiohttp_nor_prometheus_client() -> None:
    """Measuring costs a process nothing it did not ask for: the service and bot/metrics.py import neither
    the web server nor prometheus_client (or discord.py); only a `PrometheusMetrics` loads the latter."""
    code = (
        "import sys, bot.service, bot.metrics; loaded = {'aiohttp', 'discord', 'prometheus_client'} & set(sys.modules);"
        " bot.metrics.PrometheusMetrics(); print(sorted(loaded), 'prometheus_client' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["[]", "True"]


async def test_moves_are_counted_by_game_and_timed_from_the_service_to_their_board(
    measured: tuple[MatchService, PrometheusMetrics, Timer],
) -> None:
    service, metrics, timer = measured
    Poster(service, timer, 0.03)  # every board takes 30 ms to post
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    assert sample(metrics, "boardgame_move_pipeline_seconds_count", game="fish") == 0  # a start is no move
    for ply in range(3):
        state = (await service.get(match.id)).state
        mover = (ALICE, BOB)[FISH.to_move(state)]
        await service.move(match.id, mover.id, FISH.legal_moves(state)[0], ply=ply)
    with pytest.raises(IllegalMove):
        await service.move(match.id, BOB.id, "nonsense")  # refused: neither counted nor timed
    await service.board_posted(match.id, 3)  # the same board reported again is not a second trip

    assert sample(metrics, "boardgame_moves_total", game="fish") == 3
    assert sample(metrics, "boardgame_moves_total", game="volcano") == 0
    assert sample(metrics, "boardgame_move_pipeline_seconds_count", game="fish") == 3
    assert sample(metrics, "boardgame_move_pipeline_seconds_sum", game="fish") == pytest.approx(0.09)
    assert sample(metrics, "boardgame_move_pipeline_seconds_bucket", game="fish", le="0.025") == 0
    assert sample(metrics, "boardgame_move_pipeline_seconds_bucket", game="fish", le="0.05") == 3


async def test_a_move_whose_board_is_never_posted_is_counted_but_not_timed(
    measured: tuple[MatchService, PrometheusMetrics, Timer],
) -> None:
    service, metrics, timer = measured
    match = await service.create_match("fish", [ALICE, BOB], seed=5)  # nobody posts its boards
    await service.move(match.id, ALICE.id, FISH.legal_moves(match.state)[0])
    timer.now += 7.0
    await service.board_posted(match.id, 0)  # an older board than the move's
    assert sample(metrics, "boardgame_moves_total", game="fish") == 1
    assert sample(metrics, "boardgame_move_pipeline_seconds_count", game="fish") == 0
    await service.board_posted(match.id, 1)  # posted at last (a repost): 7 s after the service took it
    assert sample(metrics, "boardgame_move_pipeline_seconds_sum", game="fish") == pytest.approx(7.0)
    assert sample(metrics, "boardgame_move_pipeline_seconds_bucket", game="fish", le="5.0") == 0
    assert sample(metrics, "boardgame_move_pipeline_seconds_bucket", game="fish", le="10.0") == 1


async def test_open_matches_are_counted_by_game_when_scraped(
    measured: tuple[MatchService, PrometheusMetrics, Timer],
) -> None:
    service, metrics, _ = measured
    assert sample(metrics, "boardgame_open_matches", game="fish") == 0  # every game is listed, at 0
    first = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.create_match("fish", [BOB, ALICE], seed=6)
    await service.create_match("themiscyra", [ALICE, BOB])
    assert sample(metrics, "boardgame_open_matches", game="fish") == 2
    assert sample(metrics, "boardgame_open_matches", game="themiscyra") == 1
    assert sample(metrics, "boardgame_open_matches", game="volcano") == 0
    await service.playing.resign(first.id, ALICE.id)
    assert sample(metrics, "boardgame_open_matches", game="fish") == 1


async def test_a_flag_that_falls_late_shows_how_late_in_the_lateness_histogram(
    measured: tuple[MatchService, PrometheusMetrics, Timer], fake_time: FakeTime
) -> None:
    service, metrics, timer = measured
    Poster(service, timer, 0.0)
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)  # its clock starts with the post
    flag_time = fake_time.now() + CLOCK.move_seconds + CLOCK.reserve_seconds + LAG_GRACE
    fake_time.advance(flag_time - fake_time.now() + 2.5)  # the scheduler gets to it 2.5 s after its flag time
    await eventually(lambda: service.running_match(match.id) is None)
    result = (await service.get(match.id)).result
    assert result is not None and result.termination is Termination.FLAG
    assert sample(metrics, "boardgame_flag_lateness_seconds_count") == 1
    assert sample(metrics, "boardgame_flag_lateness_seconds_sum") == pytest.approx(2.5)
    assert sample(metrics, "boardgame_flag_lateness_seconds_bucket", le="1.0") == 0
    assert sample(metrics, "boardgame_flag_lateness_seconds_bucket", le="2.5") == 1


async def test_a_flag_on_time_lands_in_the_first_bucket(
    measured: tuple[MatchService, PrometheusMetrics, Timer], fake_time: FakeTime
) -> None:
    service, metrics, timer = measured
    Poster(service, timer, 0.0)
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    fake_time.advance(CLOCK.move_seconds + CLOCK.reserve_seconds + LAG_GRACE + 0.002)
    await eventually(lambda: service.running_match(match.id) is None)
    assert sample(metrics, "boardgame_flag_lateness_seconds_bucket", le=str(LATENESS_BUCKETS[0])) == 1
    assert sample(metrics, "boardgame_flag_lateness_seconds_sum") == pytest.approx(0.002, abs=1e-6)


async def test_a_computers_thinking_is_timed_by_game_and_level(
    measured: tuple[MatchService, PrometheusMetrics, Timer],
) -> None:
    service, metrics, timer = measured
    Poster(service, timer, 0.01)
    computers = ComputerPlayers(service, executor=SteppingExecutor(timer, 0.2))  # 200 ms a move
    try:
        match = await service.create_match("fish", [computer("easy"), ALICE], seed=3, options={"first": 0})
        await computers.idle()
    finally:
        await computers.close()
    assert (await service.get(match.id)).ply == 1  # it moved, through the service like anyone
    assert sample(metrics, "boardgame_computer_thinking_seconds_count", game="fish", level="easy") == 1
    assert sample(metrics, "boardgame_computer_thinking_seconds_sum", game="fish", level="easy") == pytest.approx(0.2)
    assert sample(metrics, "boardgame_moves_total", game="fish") == 1
    assert sample(metrics, "boardgame_move_pipeline_seconds_sum", game="fish") == pytest.approx(0.01)


def test_the_histograms_buckets_span_5_ms_to_10_s() -> None:
    assert PIPELINE_BUCKETS[0] == 0.005 and PIPELINE_BUCKETS[-1] == 10.0
    assert list(PIPELINE_BUCKETS) == sorted(PIPELINE_BUCKETS) and list(LATENESS_BUCKETS) == sorted(LATENESS_BUCKETS)


def test_two_metrics_objects_never_share_a_count() -> None:
    """Each has its own registry (not prometheus_client's global one), so tests and restarts stay apart."""
    first, second = PrometheusMetrics(), PrometheusMetrics()
    first.move_accepted("fish", 1, 1, first.now())
    first.post_failed("a reason nobody listed")
    assert sample(first, "boardgame_moves_total", game="fish") == 1
    assert sample(second, "boardgame_moves_total", game="fish") == 0
    assert sample(first, "boardgame_failed_posts_total", reason="other") == 1


# --- the endpoint ------------------------------------------------------------------------------------


async def get(port: int, path: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, response.headers["Content-Type"], await response.text()


def families(text: str) -> dict[str, Any]:
    return {family.name: family for family in text_string_to_metric_families(text)}


class LeaseHook:
    """What bot/shards.py's leases say to /healthz: the shards held (None: no leases taken at all)."""

    def __init__(self) -> None:
        self.held: set[int] | None = {0}

    def __call__(self) -> set[int] | None:
        return self.held


Endpoint = tuple[MatchService, PrometheusMetrics, LeaseHook, HealthServer]


@pytest.fixture
async def endpoint(measured: tuple[MatchService, PrometheusMetrics, Timer]) -> AsyncIterator[Endpoint]:
    """/healthz and /metrics of the measured service on a free port, with a lease hook the test sets."""
    service, metrics, _ = measured
    leases = LeaseHook()
    health = Health(
        database=service.store.schema_version,
        open_matches=lambda: len(service.running()),
        shards=lambda: [0],
        leases=leases,
    )
    server = await HealthServer.start(health, metrics, "127.0.0.1", 0)
    try:
        yield service, metrics, leases, server
    finally:
        await server.close()


async def test_healthz_says_what_the_process_runs(endpoint: Endpoint) -> None:
    service, _, _, server = endpoint
    await service.create_match("fish", [ALICE, BOB], seed=5)
    assert server.port is not None and server.port > 0
    status, content_type, text = await get(server.port, "/healthz")
    assert status == 200 and content_type.startswith("application/json")
    assert json.loads(text) == {
        "ok": True,
        "mode": "terminal",
        "connected": None,
        "shards": [0],
        "leases": [0],
        "database": "ok",
        "open_matches": 1,
    }


async def test_healthz_is_503_when_the_process_has_lost_its_leases(endpoint: Endpoint) -> None:
    _, _, leases, server = endpoint
    assert server.port is not None
    leases.held = set()  # another process took the shard over
    status, _, text = await get(server.port, "/healthz")
    body = json.loads(text)
    assert status == 503 and body["ok"] is False and body["leases"] == [] and body["database"] == "ok"
    assert server.health.problems == ["no shard lease held"]
    leases.held = None  # a process that takes no leases at all
    status, _, text = await get(server.port, "/healthz")
    assert status == 200 and json.loads(text)["leases"] is None


async def test_healthz_is_503_when_the_database_does_not_answer(endpoint: Endpoint) -> None:
    service, _, _, server = endpoint
    assert server.port is not None
    await service.store.close()
    status, _, text = await get(server.port, "/healthz")
    body = json.loads(text)
    assert status == 503 and body["ok"] is False and body["database"] != "ok"
    assert server.health.problems[0].startswith("database: ")


async def test_healthz_is_503_when_the_database_hangs() -> None:
    async def hanging() -> None:
        await asyncio.Event().wait()

    health = Health(database=hanging, open_matches=lambda: 0, timeout=0.05)
    assert await health.check() == (
        503,
        {
            "ok": False,
            "mode": "terminal",
            "connected": None,
            "shards": [],
            "leases": None,
            "database": "no answer in 0.05 s",
            "open_matches": 0,
        },
    )


async def test_metrics_serves_the_counts_in_prometheus_text_format(
    endpoint: Endpoint, measured: tuple[MatchService, PrometheusMetrics, Timer]
) -> None:
    service, _, _, server = endpoint
    _, _, timer = measured
    assert server.port is not None
    Poster(service, timer, 0.004)
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, FISH.legal_moves(match.state)[0], ply=0)
    status, content_type, text = await get(server.port, "/metrics")
    assert status == 200 and content_type.startswith("text/plain; version=")
    found = families(text)
    moves = {s.labels["game"]: s.value for s in found["boardgame_moves"].samples if s.name.endswith("_total")}
    assert moves == {"fish": 1.0}
    pipeline = {s.labels["le"]: s.value for s in found["boardgame_move_pipeline_seconds"].samples if "le" in s.labels}
    assert pipeline["0.005"] == 1.0 and pipeline["+Inf"] == 1.0
    open_matches = {s.labels["game"]: s.value for s in found["boardgame_open_matches"].samples}
    assert open_matches["fish"] == 1.0 and open_matches["volcano"] == 0.0
    failed = {s.labels["reason"]: s.value for s in found["boardgame_failed_posts"].samples if "reason" in s.labels}
    assert failed == dict.fromkeys(FAILED_REASONS, 0.0)  # every reason listed from the start
    assert {"boardgame_flag_lateness_seconds", "boardgame_computer_thinking_seconds"} <= set(found)
    assert "python_gc_objects_collected" not in found  # its own registry, not the global one


async def test_a_port_in_use_is_refused_in_one_line(endpoint: Endpoint) -> None:
    _, metrics, _, server = endpoint
    with pytest.raises(MetricsUnavailable, match=rf"127\.0\.0\.1:{server.port} .*METRICS_PORT"):
        await HealthServer.start(server.health, metrics, "127.0.0.1", server.port or 0)


async def test_the_terminal_serves_healthz_when_metrics_port_is_set(
    measured: tuple[MatchService, PrometheusMetrics, Timer], db_path: Path
) -> None:
    service, metrics, _ = measured
    config = Config(None, db_path, None, None, "INFO", True, metrics_port=0)
    server = await serve_health(config, service, metrics)
    try:
        assert server.port is not None
        status, _, text = await get(server.port, "/healthz")
    finally:
        await server.close()
    body = json.loads(text)
    assert status == 200 and body["mode"] == "terminal" and body["connected"] is None and body["shards"] == [0]


def test_metrics_port_and_host_come_from_the_environment() -> None:
    default = Config.load({}, dotenv=None)
    assert default.metrics_port is None and default.metrics_host == "127.0.0.1"  # off unless asked for
    chosen = Config.load({"METRICS_PORT": "9108", "METRICS_HOST": "0.0.0.0"}, dotenv=None)
    assert chosen.metrics_port == 9108 and chosen.metrics_host == "0.0.0.0"
    for bad in ("http", "0", "70000", "-1", "９"):
        with pytest.raises(SystemExit, match="METRICS_PORT must be a port number"):
            Config.load({"METRICS_PORT": bad}, dotenv=None)


# --- the Discord front-end ---------------------------------------------------------------------------


@pytest.fixture
async def served(fake: DiscordFake, db_path: Path) -> AsyncIterator[GameBot]:
    """The real bot against the fake Discord, serving /healthz and /metrics on a free port."""
    bot = GameBot(replace(make_bot(fake, db_path).config, metrics_port=0))
    bot.hold_retries = ()
    async with fake.run(bot):
        yield bot  # type: ignore[misc]


async def challenge(fake: DiscordFake) -> Any:
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
    await fake.click("bob", asked.message, label="Accept")
    return fake.threads[-1]


async def move(fake: DiscordFake, bot: GameBot) -> Any:
    match = await bot.matches.get(1)
    user = ("alice", "bob")[FISH.to_move(match.state)]
    legal = FISH.legal_moves(match.state)[0]
    return await fake.slash(user, "fish move", {"move": f"{legal}@{match.ply}", "match": 1}, channel="games")


async def test_the_bots_healthz_and_its_moves_and_board_posts(fake: DiscordFake, served: GameBot) -> None:
    assert served.health is not None and served.health.port is not None
    await challenge(fake)
    assert was_played(await move(fake, served))
    metrics = served.metrics
    assert sample(metrics, "boardgame_moves_total", game="fish") == 1
    assert sample(metrics, "boardgame_move_pipeline_seconds_count", game="fish") == 1  # its board went up
    status, _, text = await get(served.health.port, "/healthz")
    assert status == 200
    assert json.loads(text) == {
        "ok": True,
        "mode": "discord",
        "connected": True,
        "shards": [0],
        "leases": None,
        "database": "ok",
        "open_matches": 1,
    }
    served.held_leases = set  # the shard leases (bot/shards.py) say none is held any more
    status, _, text = await get(served.health.port, "/healthz")
    assert status == 503 and json.loads(text)["leases"] == []


async def test_failed_posts_are_counted_by_reason(fake: DiscordFake, served: GameBot) -> None:
    thread = await challenge(fake)
    await move(fake, served)
    fake.fail_next("POST", rf"^/channels/{thread.id}/messages$", 503, count=1)
    await move(fake, served)  # the board cannot be posted: the match holds
    assert sample(served.metrics, "boardgame_failed_posts_total", reason="5xx") == 1
    await fake.delete_channel(thread)
    repost = await fake.slash("mod", "mod repost", {"match": 1}, channel="general")
    assert (repost.content or "").startswith("Done")  # in a new thread, after a 404 from the old one
    assert sample(served.metrics, "boardgame_failed_posts_total", reason="404") >= 1
    assert sample(served.metrics, "boardgame_failed_posts_total", reason="403") == 0


class Response:
    """Enough of an aiohttp response for discord.HTTPException."""

    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "x"


@pytest.mark.parametrize(
    ("status", "code", "reason"),
    [
        (403, 50013, "403"),
        (404, 10003, "404"),
        (400, 50083, "50083"),
        (503, 0, "5xx"),
        (500, 0, "5xx"),
        (400, 50035, "other"),
    ],
)
def test_a_failed_sends_reason(status: int, code: int, reason: str) -> None:
    error = discord.HTTPException(Response(status), {"code": code, "message": "m"})  # type: ignore[arg-type]
    assert discord_app._failure(error) == reason


# --- deployment --------------------------------------------------------------------------------------


def yaml_subset(text: str) -> Any:
    """The YAML docker-compose.yml is written in (PyYAML is not a dependency): block mappings and lists,
    scalars plain or double-quoted, flow lists as JSON. Anything else (tabs, odd indentation, a duplicate
    key) fails, so a broken file fails here rather than at `docker compose up`."""
    lines = []
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        assert "\t" not in raw, f"a tab in {raw!r}"
        lines.append((len(raw) - len(raw.lstrip(" ")), raw.strip()))  # comments only on lines of their own

    def scalar(text: str) -> Any:
        return json.loads(text) if text.startswith(("[", '"')) else text

    def block(i: int, indent: int) -> tuple[Any, int]:
        if lines[i][1].startswith("- "):
            items = []
            while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
                items.append(scalar(lines[i][1][2:].strip()))
                i += 1
            return items, i
        mapping: dict[str, Any] = {}
        while i < len(lines) and lines[i][0] == indent:
            key, colon, rest = lines[i][1].partition(":")
            assert colon and re.fullmatch(r"[A-Za-z0-9_.-]+", key), f"not a mapping line: {lines[i][1]!r}"
            assert key not in mapping, f"{key} twice"
            i += 1
            if rest.strip():
                mapping[key] = scalar(rest.strip())
            elif i < len(lines) and lines[i][0] > indent:
                mapping[key], i = block(i, lines[i][0])
            else:
                mapping[key] = None
        return mapping, i

    parsed, end = block(0, 0)
    assert end == len(lines), f"not understood from line {lines[end][1]!r}"
    return parsed


def test_the_yaml_subset_reader_refuses_what_it_does_not_understand() -> None:
    assert yaml_subset('a:\n  b: "1"\n  c:\n    - x\n    - "y"\nd: [1, "z"]\n') == {
        "a": {"b": "1", "c": ["x", "y"]},
        "d": [1, "z"],
    }
    for broken in ("a:\n  b: 1\n   c: 2\n", "a: 1\na: 2\n", "a:\n\tb: 1\n", "a:\n  - x\n  y: 1\n"):
        with pytest.raises((AssertionError, json.JSONDecodeError)):
            yaml_subset(broken)


@pytest.fixture(scope="module")
def compose() -> Any:
    return yaml_subset((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


def bots(compose: Any) -> dict[str, Any]:
    return {name: service for name, service in compose["services"].items() if name != "db"}


def test_compose_runs_postgresql_15_on_a_named_volume(compose: Any) -> None:
    db = compose["services"]["db"]
    assert db["image"] == "postgres:15"
    volume, _, mount = db["volumes"][0].partition(":")
    assert mount == "/var/lib/postgresql/data" and volume in compose["volumes"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert set(db["environment"]) == {"POSTGRES_DB", "POSTGRES_USER", "POSTGRES_PASSWORD"}


def test_compose_runs_two_bots_one_shard_each_over_that_database(compose: Any) -> None:
    from bot.shards import ShardPlan

    found = bots(compose)
    assert len(found) == 2
    db = compose["services"]["db"]["environment"]
    plans, ports = [], []
    for service in found.values():
        env = service["environment"]
        assert service["build"] == "." and service["depends_on"]["db"]["condition"] == "service_healthy"
        assert env["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN")  # from .env, never written here
        url = env["DATABASE_URL"]
        assert url.startswith(f"postgresql://{db['POSTGRES_USER']}:") and url.endswith(f"@db/{db['POSTGRES_DB']}")
        plans.append(ShardPlan.from_env(env))
        config = Config.load(env, dotenv=None)
        assert config.metrics_port == int(env["METRICS_PORT"]) and config.metrics_host == "0.0.0.0"
        check = " ".join(service["healthcheck"]["test"])
        assert f"http://127.0.0.1:{config.metrics_port}/healthz" in check
        host, _, inside = service["ports"][0].rpartition(":")
        assert inside == env["METRICS_PORT"] and host.startswith("127.0.0.1:")  # published to this machine only
        ports.append(host)
    assert [(plan.count, plan.ids) for plan in plans] == [(2, (0,)), (2, (1,))]
    assert len(set(ports)) == 2


def test_the_dockerfile_builds_a_slim_image_that_runs_the_bot_as_nobody_special() -> None:
    from renderers.draw import FALLBACK_FONTS

    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))  # continuation lines joined
    instructions = [line.split(None, 1) for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert instructions[0] == ["FROM", "python:3.11-slim"]
    assert any(kind == "RUN" and "fonts-noto-cjk" in rest for kind, rest in instructions)
    assert "NotoSansCJK" in FALLBACK_FONTS[0]  # what that package installs, where the renderers look first
    users = [rest for kind, rest in instructions if kind == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert instructions[-1] == ["CMD", '["python", "-m", "bot"]']
    assert any(kind == "RUN" and "pip install" in rest and "-e ." in rest for kind, rest in instructions)


def test_the_readme_and_env_example_document_the_endpoint_and_every_metric() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    names = {family.name for family in PrometheusMetrics().registry.collect()}
    suffixed = {name + "_total" if name in ("boardgame_moves", "boardgame_failed_posts") else name for name in names}
    assert suffixed and all(f"`{name}`" in readme for name in suffixed), suffixed
    assert "/healthz" in readme and "/metrics" in readme and "docker compose up" in readme
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert re.search(r"^METRICS_PORT=", example, re.M) and re.search(r"^METRICS_HOST=", example, re.M)
