"""Self-test of the fake Discord (tests/discord_fake/): a tiny discord.py bot, driven as users would."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator, Awaitable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import Route
from PIL import Image

from tests.discord_fake import INTENT_GUILD_MEMBERS, DiscordFake, FakeChannel, Rejection

FRUITS = ["apple", "apricot", "banana", "blueberry", "cherry"]


def board_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), "white").save(buffer, "PNG")
    return buffer.getvalue()


class ConfirmView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Confirm", custom_id="demo:confirm", style=discord.ButtonStyle.green)
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button[ConfirmView]) -> None:
        await interaction.response.edit_message(content=f"Confirmed by {interaction.user.name}", view=None)


class Demo(commands.GroupCog, group_name="demo", group_description="Demo commands"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.tasks: set[asyncio.Task[None]] = set()
        self.failures: list[discord.HTTPException] = []  # what background work caught (and a bot might hide)

    def later(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in the background after a moment, keeping any HTTP error it raises."""

        async def run() -> None:
            await asyncio.sleep(0.05)
            try:
                await work
            except discord.HTTPException as error:
                self.failures.append(error)

        task = asyncio.create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @app_commands.command(description="Say something")
    async def say(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text)

    @app_commands.command(description="Show the board")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send("The board", file=discord.File(io.BytesIO(board_png()), "board.png"))

    @app_commands.command(description="Open a match thread")
    async def thread(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.response.defer(ephemeral=True, thinking=True)  # answer first, then the requests
        thread = await interaction.channel.create_thread(name="match-1", type=discord.ChannelType.public_thread)
        await thread.send(f"{interaction.user.mention} to move", view=ConfirmView())
        await interaction.followup.send(f"Match in {thread.mention}", ephemeral=True)

    @app_commands.command(description="Pick a fruit")
    async def pick(self, interaction: discord.Interaction, fruit: str) -> None:
        await interaction.response.send_message(f"You picked {fruit}")

    @pick.autocomplete("fruit")
    async def pick_fruit(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f.title(), value=f) for f in FRUITS if f.startswith(current.lower())]

    @app_commands.command(description="Challenge someone")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member, stake: int = 1) -> None:
        roles = ",".join(r.name for r in opponent.roles if not r.is_default()) or "none"
        await interaction.response.send_message(
            f"{interaction.user.name} challenges {opponent.name} (roles: {roles}) for {stake}"
        )

    @app_commands.command(description="Remind the channel a moment later")
    async def remind(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Will remind", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        self.later(channel.send("Reminder: your move"))

    @app_commands.command(description="Echo what you type")
    async def echo(self, interaction: discord.Interaction, text: str, private: bool = False) -> None:
        await interaction.response.send_message(text[:2000], ephemeral=private)

    @echo.autocomplete("text")
    async def echo_text(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        count = 26 if current == "many" else 1
        return [app_commands.Choice(name=current[:100] or "empty", value=current) for _ in range(count)]

    @app_commands.command(description="Answer, then edit the answer a moment later")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("working")
        self.later(interaction.edit_original_response(content="done"))

    @app_commands.command(description="Who am I?")
    async def whoami(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(interaction.user.display_name)

    @app_commands.command(description="Send me a DM")
    async def dmme(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Sent", ephemeral=True)
        await interaction.user.send("Confirm here", view=ConfirmView())

    @app_commands.command(description="Post before answering (what a bot must not do)")
    async def eager(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("posted first")
        await interaction.response.send_message("answered second", ephemeral=True)

    @app_commands.command(description="Fail on purpose")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")


class TinyBot(commands.Bot):
    """Global commands (offered in DMs too, but /reset) copied to the guild, and /local in the guild only."""

    def __init__(self, guild_id: int, intents: discord.Intents | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default())
        self.guild_id = guild_id

        @self.tree.command(description="Are you there?")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        @self.tree.command(description="Reset everything (moderators)")
        @app_commands.default_permissions(manage_guild=True)
        @app_commands.guild_only()
        async def reset(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("reset done", ephemeral=True)

        @app_commands.command(description="Only in the test guild")
        async def local(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("local", ephemeral=True)

        self.tree.add_command(local, guild=discord.Object(guild_id))

    @property
    def demo(self) -> Demo:
        cog = self.get_cog("Demo")
        assert isinstance(cog, Demo)
        return cog

    async def setup_hook(self) -> None:
        await self.add_cog(Demo(self))
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        await self.tree.sync()


@pytest.fixture
async def fake() -> AsyncIterator[DiscordFake]:
    async with DiscordFake.serve() as fake:
        yield fake


@pytest.fixture
async def bot(fake: DiscordFake) -> AsyncIterator[TinyBot]:
    bot = TinyBot(fake.guild.id)
    async with fake.run(bot):
        yield bot


@contextlib.asynccontextmanager
async def running(intents: discord.Intents | None = None, **options: Any) -> AsyncIterator[tuple[DiscordFake, TinyBot]]:
    """A fake with ``options`` (latency, deadlines) and the tiny bot connected to it."""
    async with DiscordFake.serve(**options) as fake:
        bot = TinyBot(fake.guild.id, intents)
        async with fake.run(bot):
            yield fake, bot


def text_channel(bot: TinyBot, place: FakeChannel) -> Any:
    """discord.py's object for a channel or thread the fake has (the bot must have seen it)."""
    channel = bot.get_channel(place.id)
    assert channel is not None, place
    return channel


async def refused(fake: DiscordFake, call: Awaitable[Any], *, code: int) -> Rejection:
    """Await a bot request that Discord refuses with ``code``; take its rejection off ``fake.rejected``."""
    with pytest.raises(discord.HTTPException) as caught:
        await call
    assert caught.value.code == code, caught.value
    [rejection] = fake.rejected
    fake.rejected.clear()
    return rejection


def paths(rejection: Rejection) -> list[str]:
    """The field paths a rejection names (``components.0.label``), ``<body>`` for the whole body."""
    return [line.split(":")[0] for line in rejection.fields]


async def send_raw(bot: TinyBot, place: FakeChannel, body: dict[str, Any]) -> Any:
    """POST a message body as given, past discord.py's own checks."""
    return await bot.http.request(Route("POST", "/channels/{channel_id}/messages", channel_id=place.id), json=body)


async def test_the_bot_connects_and_syncs_its_commands(fake: DiscordFake, bot: TinyBot) -> None:
    assert bot.user is not None and bot.user.id == fake.application_id
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and {c.name for c in guild.text_channels} == {"general", "games"}
    assert {c["name"] for c in fake.commands(fake.guild)} == {"ping", "reset", "demo", "local"}
    assert {c["name"] for c in fake.commands()} == {"ping", "reset", "demo"}
    demo = next(c for c in fake.commands(fake.guild) if c["name"] == "demo")
    assert {o["name"] for o in demo["options"]} == {
        "say", "board", "thread", "pick", "challenge", "remind", "boom", "echo", "slow", "whoami", "dmme", "eager"
    }  # fmt: skip
    assert fake.gateway_queries[0]["v"] == "10" and fake.gateway_queries[0]["encoding"] == "json"
    assert fake.identify_payload is not None and fake.identify_payload["token"] == "fake-token"


async def test_ping_answers_pong_ephemerally(fake: DiscordFake, bot: TinyBot) -> None:
    reply = await fake.slash("alice", "ping")
    assert reply.callback is not None and reply.callback.type == 4
    assert reply.ephemeral and reply.content == "pong"
    assert fake.channel_messages("general") == []  # ephemeral: only alice sees it


async def test_say_replies_publicly(fake: DiscordFake, bot: TinyBot) -> None:
    reply = await fake.slash("bob", "demo say", options={"text": "hello there"}, channel="games")
    assert not reply.ephemeral and reply.content == "hello there"
    assert [m.content for m in fake.channel_messages("games")] == ["hello there"]


async def test_board_defers_then_sends_a_png(fake: DiscordFake, bot: TinyBot) -> None:
    reply = await fake.slash("alice", "demo board")
    assert reply.type == 5 and not reply.ephemeral
    assert reply.followups and reply.message is reply.followups[0]  # the first followup fills the deferral
    assert reply.content == "The board"
    [png] = reply.files
    assert png.filename == "board.png" and png.content_type == "image/png"
    with Image.open(io.BytesIO(png.data)) as image:
        assert image.size == (64, 48)
    [upload] = fake.requests_to("POST", r"^/webhooks/")[0].files
    assert upload.data == png.data


async def test_thread_post_and_button(fake: DiscordFake, bot: TinyBot) -> None:
    reply = await fake.slash("alice", "demo thread")
    assert reply.ephemeral and reply.content is not None and reply.content.startswith("Match in <#")
    thread = fake.thread("match-1")
    assert thread.type == 11 and thread.parent_id == fake.channel("general").id
    [post] = fake.channel_messages(thread)
    assert post.content == f"<@{fake.user('alice')['id']}> to move"
    assert post.custom_ids == ["demo:confirm"]
    await fake.wait_until(lambda: bot.get_channel(thread.id), what="THREAD_CREATE to reach the bot")

    click = await fake.click("bob", post, "demo:confirm")
    assert click.type == 7
    assert post.components == [] and post.content == "Confirmed by bob"
    with pytest.raises(KeyError):
        await fake.click("bob", post, "demo:confirm")  # the button is gone


async def test_autocomplete_filters_choices(fake: DiscordFake, bot: TinyBot) -> None:
    choices = await fake.autocomplete("alice", "demo pick", options={"fruit": "ap"})
    assert choices == [{"name": "Apple", "value": "apple"}, {"name": "Apricot", "value": "apricot"}]


async def test_member_option_is_resolved(fake: DiscordFake, bot: TinyBot) -> None:
    reply = await fake.slash("alice", "demo challenge", options={"opponent": "mod", "stake": 3})
    assert reply.content == "alice challenges mod (roles: Moderator) for 3"
    resolved = reply.interaction["data"]["resolved"]
    assert fake.user("mod")["id"] in resolved["members"]


async def test_bot_initiated_message_arrives(fake: DiscordFake, bot: TinyBot) -> None:
    reply = await fake.slash("carol", "demo remind")
    assert reply.ephemeral
    message = await fake.wait_for_message(lambda m: m.content.startswith("Reminder"), channel="general")
    assert message.content == "Reminder: your move" and not message.ephemeral
    assert message.author["id"] == str(fake.application_id)


async def test_user_mistakes_are_caught_before_reaching_the_bot(fake: DiscordFake, bot: TinyBot) -> None:
    with pytest.raises(PermissionError):
        await fake.slash("alice", "reset")  # needs Manage Server
    assert (await fake.slash("mod", "reset")).content == "reset done"
    with pytest.raises(LookupError):
        await fake.slash("alice", "nonsense")
    with pytest.raises(KeyError):
        await fake.slash("alice", "demo say", options={"txt": "typo"})
    with pytest.raises(TypeError):
        await fake.slash("alice", "demo challenge", options={"opponent": "bob", "stake": "3"})
    with pytest.raises(ValueError):
        await fake.slash("alice", "demo say")  # required option missing


async def test_errors_and_gaps_are_reported(fake: DiscordFake, bot: TinyBot) -> None:
    with pytest.raises(AssertionError, match="kaboom"):
        await fake.slash("alice", "demo boom")
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/not/a/route"))
    assert [r.path for r in fake.unknown_requests] == ["/not/a/route"]
    with pytest.raises(AssertionError, match="unknown routes"):
        fake.check()
    fake.errors.clear()
    fake.unknown_requests.clear()


async def test_the_bot_resumes_after_a_disconnect(fake: DiscordFake, bot: TinyBot) -> None:
    await fake.disconnect()
    assert any(frame.get("op") == 6 for frame in fake.gateway_received)  # RESUME, not a new IDENTIFY
    assert (await fake.slash("alice", "ping")).content == "pong"


# --- strictness: Discord's schema and limits ------------------------------------------------------------


async def test_bodies_are_checked_against_discords_spec_and_rejections_fail_the_test(
    fake: DiscordFake, bot: TinyBot
) -> None:
    general = fake.channel("general")
    with pytest.raises(discord.HTTPException) as caught:
        await send_raw(bot, general, {"content": 5})
    assert caught.value.status == 400 and "In content" in caught.value.text  # as discord.py shows Discord's errors
    assert paths(fake.rejected.pop()) == ["content"]
    button = {"type": 2, "style": 1, "custom_id": "b", "label": "x" * 81}
    with pytest.raises(discord.HTTPException):
        await send_raw(bot, general, {"components": [{"type": 1, "components": [button]}]})
    [rejection] = fake.rejected
    assert rejection.fields == [
        "components.0.components.0.label: Must be 80 or fewer in length. (BASE_TYPE_MAX_LENGTH)"
    ]
    assert rejection.request.error is not None and rejection.request.error["code"] == 50035
    with pytest.raises(AssertionError, match=r"requests Discord would reject:\nPOST /channels/\d+/messages -> 400"):
        fake.check()
    fake.rejected.clear()

    # Multipart: the payload_json part is checked, the file apart.
    channel = text_channel(bot, general)
    file = discord.File(io.BytesIO(board_png()), "board.png", description="d" * 1025)
    assert paths(await refused(fake, channel.send("board", file=file), code=50035)) == ["attachments.0.description"]
    # discord.py sends allowed_mentions ids as integers, which Discord takes (the one relaxation of the spec).
    alice = discord.Object(int(fake.user("alice")["id"]))
    await channel.send(f"<@{alice.id}>", allowed_mentions=discord.AllowedMentions(users=[alice]))
    assert fake.rejected == []


async def test_command_sync_meets_discords_limits(fake: DiscordFake, bot: TinyBot) -> None:
    def command(**fields: Any) -> dict[str, Any]:
        return {"name": "play", "description": "Play a move", "type": 1, **fields}

    def option(name: str, **fields: Any) -> dict[str, Any]:
        return {"name": name, "description": "An option", "type": 3, **fields}

    choices = [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]
    cases = {
        "0.name": [command(name="Play")],
        "0.description": [command(description="")],
        "0.options.1.required": [command(options=[option("a"), option("b", required=True)])],
        "0.options.1.name": [command(options=[option("a"), option("a")])],
        "0.options.0.choices": [command(options=[option("a", choices=choices + choices[:1])])],
        "0.options.0.choices.0.value": [command(options=[option("a", choices=[{"name": "n", "value": "v" * 101}])])],
        "0": [command(options=[option("a", choices=choices[:12]), option("b", choices=choices[:12])])],  # > 4,000
        "1.name": [command(), command()],
        "<body>": [command(name=f"c{i}") for i in range(101)],
    }
    before = fake.commands(fake.guild)
    for field_path, payload in cases.items():
        upsert = bot.http.bulk_upsert_guild_commands(fake.application_id, fake.guild.id, payload)
        assert paths(await refused(fake, upsert, code=50035)) == [field_path], payload[0]
    assert fake.commands(fake.guild) == before  # nothing was stored


async def test_messages_meet_discords_component_and_attachment_limits(fake: DiscordFake, bot: TinyBot) -> None:
    def button(custom_id: str, **fields: Any) -> dict[str, Any]:
        return {"type": 2, "style": 1, "custom_id": custom_id, "label": "Go", **fields}

    def select(**fields: Any) -> dict[str, Any]:
        options = [{"label": f"o{i}", "value": f"o{i}"} for i in range(2)]
        return {"type": 3, "custom_id": "s", "options": options, **fields}

    def row(*components: dict[str, Any]) -> dict[str, Any]:
        return {"type": 1, "components": list(components)}

    many = [{"label": str(i), "value": str(i)} for i in range(26)]
    cases = {
        "components": [row(button(f"b{i}")) for i in range(6)],
        "components.0.components": row(select(), button("b")),
        "components.0.components.0.options": row(select(options=many)),
        "components.0.components.0.max_values": row(select(max_values=3)),
        "components.0.components.0.placeholder": row(select(placeholder="p" * 151)),
        "components.0.components.0.options.0.description": row(
            select(options=[{"label": "a", "value": "a", "description": "d" * 101}])
        ),
        "components.0.components.0.label": row(button("b", label=None)),
        "components.1.components.0.custom_id": [row(button("b")), row(button("b"))],
        "attachments": [{"id": i, "filename": f"{i}.png"} for i in range(11)],
    }
    general = fake.channel("general")
    for field_path, value in cases.items():
        key = "attachments" if field_path == "attachments" else "components"
        value = value if isinstance(value, list) else [value]
        rejection = await refused(fake, send_raw(bot, general, {"content": "x", key: value}), code=50035)
        assert paths(rejection) == [field_path], rejection
    post = await send_raw(bot, general, {"content": "ok", "components": [row(button("b"))]})
    edit = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=general.id, message_id=post["id"])
    await refused(fake, bot.http.request(edit, json={"content": "x" * 2001}), code=50035)


async def test_autocomplete_answers_meet_discords_limits(fake: DiscordFake, bot: TinyBot) -> None:
    assert await fake.autocomplete("alice", "demo echo", {"text": "x" * 100}) == [
        {"name": "x" * 100, "value": "x" * 100}
    ]
    for typed, field_path in (("x" * 101, "data.choices.0.value"), ("many", "data.choices")):
        with pytest.raises(AssertionError, match="logged an error"):  # discord.py logs the 400
            await fake.autocomplete("alice", "demo echo", {"text": typed})
        [rejection] = fake.rejected
        assert rejection.code == 50035 and rejection.fields[0].startswith(field_path + ":"), rejection
        fake.rejected.clear()
        fake.errors.clear()


# --- deadlines ------------------------------------------------------------------------------------------


async def test_deadlines_count_the_simulated_latency() -> None:
    async with running(latency=0.15, response_timeout=0.5) as (fake, _):
        reply = await fake.slash("alice", "ping")
        callback = fake.requests_to("POST", r"/callback$")[-1]
        assert reply.content == "pong" and callback.at - reply._record.sent_at >= 0.15
    async with running(latency=0.3, response_timeout=0.2) as (fake, _):
        with pytest.raises(AssertionError, match=r"answered /ping 0\.3\d s after it was sent, past Discord's 0\.2 s"):
            await fake.slash("alice", "ping")
        [rejection] = fake.rejected
        assert (rejection.status, rejection.code, rejection.message) == (404, 10062, "Unknown interaction")
        await fake.wait_until(lambda: fake.errors, what="discord.py to log the NotFound")
        fake.rejected.clear()
        fake.errors.clear()


async def test_interaction_tokens_expire(fake: DiscordFake, bot: TinyBot) -> None:
    reply = await fake.slash("alice", "demo slow")
    fake.age_interactions(901)  # the edit comes "15 minutes" later
    await fake.wait_until(lambda: bot.demo.failures, what="the late edit")
    [error] = bot.demo.failures
    assert (error.status, error.code) == (401, 50027) and reply.content == "working"
    assert [r.code for r in fake.rejected] == [50027]  # the bot swallowed it, the test still fails on it
    fake.rejected.clear()
    async with running(followup_lifetime=0.01) as (short, short_bot):
        await short.slash("alice", "demo slow")
        await short.wait_until(lambda: short_bot.demo.failures, what="the late edit")
        assert short_bot.demo.failures[0].code == 50027
        short.rejected.clear()


# --- direct messages ------------------------------------------------------------------------------------


async def test_dm_interactions_look_like_discords(fake: DiscordFake, bot: TinyBot) -> None:
    reply = await fake.slash("alice", "demo whoami", dm=True)
    payload = reply.interaction
    assert "guild_id" not in payload and "member" not in payload and payload["user"]["username"] == "alice"
    assert payload["context"] == 1 and payload["authorizing_integration_owners"] == {"0": "0"}
    dm = fake.dm_channel("alice")
    assert payload["channel"]["type"] == 1 and reply.message is not None and reply.message.channel_id == dm.id
    assert reply.content == "Alice"
    assert await fake.autocomplete("alice", "demo pick", {"fruit": "ch"}, dm=True) == [
        {"name": "Cherry", "value": "cherry"}
    ]

    with pytest.raises(PermissionError, match="would not offer /reset in DMs"):
        await fake.slash("mod", "reset", dm=True)  # guild_only: dm_permission false
    with pytest.raises(LookupError, match="guild command"):
        await fake.slash("alice", "local", dm=True)  # only synced to the guild
    forced = await fake.slash("alice", "local", dm=True, force=True)  # a stale client
    assert forced.content == "local" and forced.interaction["data"]["guild_id"] == str(fake.guild.id)

    before = fake.last_message_id()
    await fake.slash("alice", "demo dmme")
    message = await fake.wait_for_message(channel=dm, after=before)
    with pytest.raises(PermissionError):
        await fake.click("bob", message, "demo:confirm")  # alice's DM
    click = await fake.click("alice", message, "demo:confirm", dm=True)
    assert click.interaction["context"] == 1 and message.content == "Confirmed by alice"


# --- failures on demand ---------------------------------------------------------------------------------


async def test_fail_next_answers_discords_errors(fake: DiscordFake, bot: TinyBot) -> None:
    channel = text_channel(bot, fake.channel("general"))
    fake.fail_next("POST", r"^/channels/\d+/messages$", 403, count=2)
    for _ in range(2):
        with pytest.raises(discord.Forbidden) as forbidden:
            await channel.send("hi")
        assert forbidden.value.code == 50013
    await channel.send("hi")
    fake.fail_next("post", r"/messages$", 503)
    with pytest.raises(discord.DiscordServerError):  # raised at once; 500/502/504 would be retried
        await channel.send("hi")
    fake.fail_next("GET", r"/messages/\d+$", 404, code=10008, message="Unknown Message")
    with pytest.raises(discord.NotFound, match="Unknown Message"):
        await channel.fetch_message(fake.channel_messages("general")[0].id)
    statuses = [r.status for r in fake.requests_to("POST", r"/messages$")[-4:]]
    assert statuses == [403, 403, 200, 503] and fake.rejected == []  # arranged failures are not the bot's
    with pytest.raises(ValueError):
        fake.fail_next("POST", "/", 429)


async def test_forbid_takes_send_messages_away(fake: DiscordFake, bot: TinyBot) -> None:
    general = fake.channel("general")
    channel = text_channel(bot, general)
    fake.forbid(general)
    with pytest.raises(discord.Forbidden):
        await channel.send("hi")
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
    reply = await fake.slash("alice", "ping")  # the interaction webhook still works
    assert reply.content == "pong"
    assert not discord.Permissions(int(reply.interaction["app_permissions"])).send_messages
    fake.allow(general)
    await channel.send("hi")
    assert fake.rejected == []


async def test_archived_and_locked_threads(fake: DiscordFake, bot: TinyBot) -> None:
    await fake.slash("alice", "demo thread")
    thread = fake.thread("match-1")
    [post] = fake.channel_messages(thread)
    await fake.wait_until(lambda: bot.get_channel(thread.id), what="THREAD_CREATE")
    channel = text_channel(bot, thread)

    await fake.archive(thread)
    await fake.wait_until(lambda: channel.archived, what="THREAD_UPDATE")
    await refused(fake, channel.get_partial_message(post.id).edit(content="x"), code=50083)  # the bot's to avoid
    await channel.send("still here")  # posting unarchives
    assert not thread.archived

    await fake.lock_thread(thread)
    with pytest.raises(discord.HTTPException) as archived:
        await channel.send("hello?")
    assert archived.value.code == 50083
    await channel.edit(archived=False)  # the bot created it, so it may unarchive it
    with pytest.raises(discord.HTTPException) as locked:
        await channel.send("hello?")
    assert locked.value.code == 160005 and fake.rejected == []
    await refused(fake, channel.edit(locked=False), code=50013)  # unlocking needs Manage Threads


async def test_deleted_channels_and_threads_are_gone(fake: DiscordFake, bot: TinyBot) -> None:
    await fake.slash("alice", "demo thread")
    thread = fake.thread("match-1")
    [post] = fake.channel_messages(thread)
    await fake.wait_until(lambda: bot.get_channel(thread.id), what="THREAD_CREATE")
    channel = text_channel(bot, thread)
    await fake.delete_channel(thread)
    await fake.wait_until(lambda: bot.get_channel(thread.id) is None, what="THREAD_DELETE")
    for call in (channel.send("hi"), channel.fetch_message(post.id)):
        with pytest.raises(discord.NotFound) as gone:
            await call
        assert gone.value.code == 10003
    await fake.delete_channel("games")
    await fake.wait_until(lambda: bot.get_channel(fake.guild.channel_ids[1]) is None, what="CHANNEL_DELETE")
    assert fake.rejected == []
    await refused(
        fake, bot.http.send_message(1234, params=discord.http.MultipartParameters({}, None, None)), code=10003
    )


async def test_members_leave_and_have_names(fake: DiscordFake, bot: TinyBot) -> None:
    await fake.set_nick("alice", "Queen A")
    reply = await fake.slash("alice", "demo whoami")
    assert reply.content == "Queen A" and reply.interaction["member"]["nick"] == "Queen A"
    fake.add_user("zed", global_name="Zed the Great")
    assert (await fake.slash("zed", "demo whoami", dm=True)).content == "Zed the Great"
    with pytest.raises(ValueError):
        fake.add_user("long", global_name="x" * 33)
    with pytest.raises(ValueError):
        await fake.set_nick("bob", "x" * 33)

    carol = int(fake.user("carol")["id"])
    await fake.remove_member("carol")
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None
    with pytest.raises(discord.NotFound) as unknown:
        await guild.fetch_member(carol)
    assert unknown.value.code == 10007 and fake.rejected == []
    assert not any(frame.get("t") == "GUILD_MEMBER_REMOVE" for frame in fake.gateway_sent)  # no members intent
    with pytest.raises(ValueError):
        await fake.slash("carol", "ping")


async def test_member_events_need_the_members_intent() -> None:
    members = discord.Intents(guilds=True, members=True)
    async with running(intents=members, privileged_intents=INTENT_GUILD_MEMBERS) as (fake, bot):
        guild = bot.get_guild(fake.guild.id)
        carol = int(fake.user("carol")["id"])
        assert guild is not None and guild.get_member(carol) is not None
        await fake.set_nick("carol", "Cee")
        await fake.wait_until(lambda: guild.get_member(carol).nick == "Cee", what="GUILD_MEMBER_UPDATE")
        await fake.remove_member("carol")
        await fake.wait_until(lambda: guild.get_member(carol) is None, what="GUILD_MEMBER_REMOVE")


# --- mentions ---------------------------------------------------------------------------------------------


async def test_pings_follow_discords_allowed_mentions_rules(fake: DiscordFake, bot: TinyBot) -> None:
    alice, bob, carol = (int(fake.user(name)["id"]) for name in ("alice", "bob", "carol"))
    moderators = int(fake.guild.role("Moderator")["id"])
    channel = text_channel(bot, fake.channel("general"))
    text = f"<@{alice}> <@!{bob}> <@&{moderators}> @everyone"

    await channel.send(text)  # no allowed_mentions: everything in the content pings
    loud = fake.channel_messages("general")[-1]
    assert loud.allowed_mentions is None and loud.pings.users == {alice, bob} and loud.pings.roles == {moderators}
    assert loud.pings.everyone and fake.unsafe_pings() == [loud] and loud.payload()["mention_everyone"]

    only = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(alice)])
    await channel.send(text, allowed_mentions=only)
    quiet = fake.channel_messages("general")[-1]
    assert quiet.allowed_mentions is not None and quiet.pings.users == {alice} and not quiet.pings.unsafe
    assert [u["id"] for u in quiet.mentions] == [str(alice)]
    assert fake.pinged("alice") == [loud, quiet] and fake.pinged("carol") == []

    await channel.get_partial_message(quiet.id).edit(content=f"<@{bob}>")  # no allowed_mentions: parse all
    assert [u["id"] for u in quiet.mentions] == [str(bob)]  # the mentions follow the edit...
    assert quiet.pings.users == {alice} and fake.pinged("bob") == [loud]  # ...but an edit notifies nobody
    exclusive = {"content": text, "allowed_mentions": {"parse": ["users"], "users": [str(alice)]}}
    rejection = await refused(fake, send_raw(bot, fake.channel("general"), exclusive), code=50035)
    assert paths(rejection) == ["allowed_mentions.users"] and "mutually exclusive" in rejection.fields[0]

    said = await fake.say("carol", "my move?")
    await channel.get_partial_message(said.id).reply("yes")  # a reply pings its author by default
    assert fake.channel_messages("general")[-1].pings.users == {carol}
    await channel.get_partial_message(said.id).reply("yes", mention_author=False)
    assert fake.channel_messages("general")[-1].pings.users == set()
    for private, pinged in ((False, {bob}), (True, set())):  # ephemeral answers notify nobody
        echo = await fake.slash("alice", "demo echo", {"text": f"<@{bob}>", "private": private})
        assert echo.message is not None and echo.message.pings.users == pinged


async def test_only_allowed_pings_add_users_to_a_private_thread(fake: DiscordFake, bot: TinyBot) -> None:
    carol = int(fake.user("carol")["id"])
    channel = text_channel(bot, fake.channel("general"))
    thread = await channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
    await thread.send(f"<@{carol}>", allowed_mentions=discord.AllowedMentions.none())
    assert carol not in fake.thread("secret").member_ids
    await thread.send(f"<@{carol}>", allowed_mentions=discord.AllowedMentions(users=True))
    assert carol in fake.thread("secret").member_ids
