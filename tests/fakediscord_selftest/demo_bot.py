"""A tiny discord.py bot that exercises what the Belote bot relies on, for the fake's self-tests.

/demo open   -> a reply with a persistent View button and DynamicItem seat buttons
/demo dm     -> a DM with an image to the caller
/demo edit   -> a channel message, then an edit of it
/demo thread -> a thread under the channel with a message in it
/demo late, /demo twice, /demo wide -> the strict errors (late, double, oversized reply)
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands


def png_bytes(width: int = 8, height: int = 4) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "green").save(buffer, "PNG")
    return buffer.getvalue()


class Seat(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"seat:(?P<table>\d+):(?P<seat>\d)"
):
    """A seat button that survives restarts: everything it needs is in its custom_id."""

    def __init__(self, table: int, seat: int) -> None:
        super().__init__(discord.ui.Button(label=f"Seat {seat}", custom_id=f"seat:{table}:{seat}"))
        self.table, self.seat = table, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Seat:
        return cls(int(match["table"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: DemoBot = interaction.client  # type: ignore[assignment]
        bot.events.append(("seat", self.table, self.seat, interaction.user.id))
        await interaction.response.send_message(
            f"{interaction.user.name} sat at seat {self.seat}", ephemeral=True
        )


class Lobby(discord.ui.View):
    """A persistent view (timeout None, fixed custom_ids), registered with add_view at start."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Close", custom_id="lobby:close", style=discord.ButtonStyle.danger)
    async def close_lobby(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        bot: DemoBot = interaction.client  # type: ignore[assignment]
        bot.events.append(("close", interaction.message.id if interaction.message else None))
        closed = discord.File(io.BytesIO(png_bytes(2, 2)), "closed.png")
        await interaction.response.edit_message(
            content="Lobby closed", view=None, attachments=[closed]
        )


class WideView(discord.ui.View):
    """Six buttons in one row: discord.py refuses to build that, so the rows are written by hand."""

    def to_components(self) -> list[dict[str, Any]]:
        buttons = [
            {"type": 2, "style": 1, "label": str(i), "custom_id": f"wide:{i}"} for i in range(6)
        ]
        return [{"type": 1, "components": buttons}]


class Counter(discord.ui.View):
    """A non-persistent view, stored by discord.py under the reply's message id."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="counter:add")
    async def add(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count {self.count}", view=self)

    @discord.ui.button(label="Refresh", custom_id="counter:refresh")
    async def refresh(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()  # type 6: nothing visible yet
        await asyncio.sleep(0.05)
        await interaction.edit_original_response(content=f"count {self.count} (refreshed)")


class Play(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"play:(?P<card>\d+)"):
    """A card button in a DM."""

    def __init__(self, card: int) -> None:
        super().__init__(discord.ui.Button(label=f"Card {card}", custom_id=f"play:{card}"))
        self.card = card

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Play:
        return cls(int(match["card"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        where = "DM" if interaction.guild is None else "server"
        await interaction.response.edit_message(content=f"played {self.card} in {where}", view=None)


class Named(discord.ui.Modal, title="Name the table"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="modal:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"named {self.name.value}")


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.events: list[tuple[Any, ...]] = []
        self.errors: list[discord.HTTPException] = []
        self.late_delay = 0.0
        self.background: set[asyncio.Task[None]] = set()
        self.tree.add_command(demo)

    async def setup_hook(self) -> None:
        self.add_view(Lobby())
        self.add_dynamic_items(Seat, Play)
        await self.tree.sync()

    def record(self, exc: discord.HTTPException) -> None:
        self.errors.append(exc)


demo = app_commands.Group(name="demo", description="Exercise the fake Discord")


def _bot(interaction: discord.Interaction) -> DemoBot:
    return interaction.client  # type: ignore[return-value]


@demo.command(name="open", description="Open a lobby")
@app_commands.describe(table="Table number")
async def open_lobby(
    interaction: discord.Interaction, table: app_commands.Range[int, 1, 99] = 1
) -> None:
    view = Lobby()
    for seat in range(4):
        view.add_item(Seat(table, seat))
    await interaction.response.send_message(f"Table {table}", view=view)


@demo.command(name="counter", description="A counter with a non-persistent view")
async def counter(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("count 0", view=Counter())


@demo.command(name="dm", description="Get a DM")
async def send_dm(interaction: discord.Interaction) -> None:
    try:
        await interaction.user.send(
            "Your hand", file=discord.File(io.BytesIO(png_bytes()), "hand.png")
        )
    except discord.Forbidden as exc:
        _bot(interaction).record(exc)
        await interaction.response.send_message("Your DMs are closed", ephemeral=True)
        return
    await interaction.response.send_message("Sent you a DM", ephemeral=True)


@demo.command(name="edit", description="Post then edit a message")
@app_commands.choices(
    mode=[
        app_commands.Choice(name="Text", value="text"),
        app_commands.Choice(name="Image", value="image"),
    ]
)
async def post_and_edit(interaction: discord.Interaction, mode: str = "text") -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    assert isinstance(interaction.channel, discord.abc.Messageable)
    try:
        message = await interaction.channel.send("first")
        if mode == "image":
            await message.edit(
                content="second",
                attachments=[discord.File(io.BytesIO(png_bytes(16, 9)), "table.png")],
            )
        else:
            await message.edit(content="second")
    except discord.HTTPException as exc:
        _bot(interaction).record(exc)
        await interaction.followup.send(f"failed: {exc.code}")
        return
    await interaction.followup.send("done")


@demo.command(name="thread", description="Start a thread")
async def start_thread(interaction: discord.Interaction, name: str) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
    await thread.send("Welcome to the table")
    await interaction.response.send_message(f"Opened {thread.mention}")


@demo.command(name="late", description="Answer too late")
async def late(interaction: discord.Interaction) -> None:
    await asyncio.sleep(_bot(interaction).late_delay)
    try:
        await interaction.response.send_message("finally")
    except discord.HTTPException as exc:
        _bot(interaction).record(exc)


@demo.command(name="twice", description="Answer twice")
async def twice(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("once")
    try:
        # Bypass discord.py's own is_done() guard, as two concurrent handlers would.
        interaction.response._response_type = None
        await interaction.response.send_message("twice")
    except discord.HTTPException as exc:
        _bot(interaction).record(exc)


@demo.command(name="wide", description="Six buttons in a row")
async def wide(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.send_message("too wide", view=WideView())
    except discord.HTTPException as exc:
        _bot(interaction).record(exc)


@demo.command(name="name", description="Open a modal")
async def name_modal(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(Named())


@demo.command(name="sit", description="Seat a member")
async def sit(interaction: discord.Interaction, member: discord.Member) -> None:
    await interaction.response.send_message(f"{member.display_name} is seated", ephemeral=True)


@demo.command(name="hand", description="Get your cards by DM")
async def hand(interaction: discord.Interaction) -> None:
    view = discord.ui.View(timeout=None)
    for card in (3, 17):
        view.add_item(Play(card))
    await interaction.user.send("Your cards", view=view)
    await interaction.response.send_message("Check your DMs", ephemeral=True)


@demo.command(name="background", description="Acknowledge, then work in a task of its own")
async def background(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("working")

    async def later() -> None:
        await asyncio.sleep(0.1)
        await interaction.edit_original_response(content="worked")

    # Kept on the bot: the loop holds tasks only weakly.
    _bot(interaction).background.add(asyncio.create_task(later(), name="demo-background"))


VARIANTS = ["classic", "coinche", "bulgarian"]


async def variant_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v.title(), value=v) for v in VARIANTS if v.startswith(current)]


@demo.command(name="variant", description="Pick a variant")
@app_commands.autocomplete(variant=variant_names)
@app_commands.rename(variant="game")
async def pick_variant(interaction: discord.Interaction, variant: str) -> None:
    await interaction.response.send_message(f"variant {variant}")


@demo.command(name="card", description="An image only you can see")
async def card(interaction: discord.Interaction) -> None:
    image = discord.File(io.BytesIO(png_bytes(5, 7)), "your-card.png")
    await interaction.response.send_message("Your card", file=image, ephemeral=True)


class BidPicker(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="bid:pick",
        options=[discord.SelectOption(label=str(v), value=str(v)) for v in (80, 90, 100)],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"bid {select.values[0]}", ephemeral=True)


@demo.command(name="bid", description="A select menu")
async def bid(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Your bid?", view=BidPicker())
