"""Self-test of the fake Discord (tests/discord_fake.py): a tiny discord.py bot, driven as users would."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import Route
from PIL import Image

from tests.discord_fake import DiscordFake

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
        thread = await interaction.channel.create_thread(name="match-1", type=discord.ChannelType.public_thread)
        await thread.send(f"{interaction.user.mention} to move", view=ConfirmView())
        await interaction.response.send_message(f"Match in {thread.mention}", ephemeral=True)

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

        async def later() -> None:
            await asyncio.sleep(0.05)
            await channel.send("Reminder: your move")

        task = asyncio.create_task(later())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @app_commands.command(description="Fail on purpose")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")


class TinyBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.guild_id = guild_id

        @self.tree.command(description="Are you there?")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        @self.tree.command(description="Reset everything (moderators)")
        @app_commands.default_permissions(manage_guild=True)
        async def reset(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("reset done", ephemeral=True)

    async def setup_hook(self) -> None:
        await self.add_cog(Demo(self))
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


@pytest.fixture
async def fake() -> AsyncIterator[DiscordFake]:
    async with DiscordFake.serve() as fake:
        yield fake


@pytest.fixture
async def bot(fake: DiscordFake) -> AsyncIterator[TinyBot]:
    bot = TinyBot(fake.guild.id)
    async with fake.run(bot):
        yield bot


async def test_the_bot_connects_and_syncs_its_commands(fake: DiscordFake, bot: TinyBot) -> None:
    assert bot.user is not None and bot.user.id == fake.application_id
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and {c.name for c in guild.text_channels} == {"general", "games"}
    assert {c["name"] for c in fake.commands(fake.guild)} == {"ping", "reset", "demo"}
    demo = next(c for c in fake.commands(fake.guild) if c["name"] == "demo")
    assert {o["name"] for o in demo["options"]} == {"say", "board", "thread", "pick", "challenge", "remind", "boom"}
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
