"""A small bot that exercises what the product bot needs from Discord, for the fake's self-tests.

Commands (one GroupCog, ``/probe``): ``picture`` (PNG upload after a defer), ``secret``
(ephemeral reply), ``poke`` (member option), ``tidy`` (edit and delete), ``whisper`` (DM, or a
channel notice when DMs are closed), ``pick`` (with autocomplete), ``knock`` (a message with a
DynamicItem button), ``colours`` (a persistent view with a select menu), ``table`` (opens a
thread), ``rename`` (a modal), ``announce`` / ``announce-eager`` (channel message after /
before acknowledging), ``slow`` (answers late unless it defers), ``missing`` (calls a route
the fake does not serve), ``admin ping`` (a subcommand group), and, to prove the fake's limits:
``label`` (a button with a label of a given length), ``choices`` (autocomplete with a given number
of choices of a given length), ``raw`` (sends the raw payload a test put in ``ProbeBot.answers``
to a chosen route) and ``panel`` (a button whose click is answered with a raw payload).

Button custom_id templates: ``probe1:knock:<count>`` (count = knocks so far), ``probe1:raw:<name>``
(answered with ``answers[name]``); a modal submitted with custom_id ``probe1:rawmodal:<name>`` is
answered with ``answers[name]`` too. A raw request the fake refuses is kept in
``ProbeBot.refused`` and the interaction, if still unanswered, gets ``Refused <code>`` instead.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_response_params
from PIL import Image

FRUITS = ("apple", "apricot", "banana", "cherry", "grape", "grapefruit")
CLOSED_DMS = 50007
RAW_ROUTES = {
    "channel": ("POST", "/channels/{channel_id}/messages"),
    "dm": ("POST", "/channels/{channel_id}/messages"),
    "edit-channel": ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    "followup": ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    "edit-original": ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    "edit-followup": ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
}
"""Where ``/probe raw`` sends its payload (besides ``reply``, the interaction callback itself)."""


async def raw_callback(interaction: discord.Interaction, body: dict[str, Any]) -> None:
    """Answers an interaction with a raw callback body (``{"type": ..., "data": ...}``) through
    discord.py's own webhook adapter, as its ``InteractionResponse`` methods do."""
    http = interaction._state.http
    await async_context.get().create_interaction_response(
        interaction.id, interaction.token, session=interaction._session, proxy=http.proxy,
        proxy_auth=http.proxy_auth, params=interaction_response_params(body["type"], body.get("data")),
    )


async def answer_refused(interaction: discord.Interaction, exc: discord.HTTPException) -> None:
    """Keeps a refusal on the bot and tells the user, if the interaction is still unanswered."""
    bot = interaction.client
    assert isinstance(bot, ProbeBot)
    bot.refused.append(exc)
    if interaction.response.is_done():
        await interaction.followup.send(f"Refused {exc.code}", ephemeral=True)
    elif interaction.type is discord.InteractionType.autocomplete:
        await interaction.response.autocomplete([])
    else:
        await interaction.response.send_message(f"Refused {exc.code}", ephemeral=True)


def draw_png(size: int) -> bytes:
    """Returns a square PNG of ``size`` pixels, drawn in memory."""
    picture = Image.new("RGB", (size, size), (200, 30, 30))
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    return buffer.getvalue()


class KnockButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                  template=r"probe1:knock:(?P<count>\d+)"):
    """A button that counts knocks; its state lives only in its custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label="Knock", style=discord.ButtonStyle.primary,
                                           custom_id=f"probe1:knock:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[discord.ui.View], match: re.Match[str],
    ) -> KnockButton:
        """Rebuilds the button from its custom_id."""
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Counts the knock and updates the message in place."""
        view = discord.ui.View(timeout=None)
        view.add_item(KnockButton(self.count + 1))
        await interaction.response.edit_message(content=f"Knocked {self.count + 1} times", view=view)


class ColourView(discord.ui.View):
    """A persistent view (fixed custom_id, no timeout) with a string select menu."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="probe1:colour", placeholder="Colour",
                       options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")])
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select[ColourView]) -> None:
        """Announces the chosen colours."""
        await interaction.response.send_message(f"{interaction.user.name} chose {', '.join(select.values)}")


class RenameModal(discord.ui.Modal, title="Rename the table"):
    """A modal with one text input."""

    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(label="New name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Announces the new name."""
        await interaction.response.send_message(f"Renamed to {self.name.value}")


class Probe(commands.GroupCog, group_name="probe", group_description="Probes the fake Discord"):
    """Commands that touch every Discord surface the product bot uses."""

    admin = app_commands.Group(name="admin", description="Administration")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Uploads a picture")
    async def picture(self, interaction: discord.Interaction, size: int = 32) -> None:
        """Defers, draws a PNG in a thread and uploads it; reports a failed upload."""
        await interaction.response.defer()
        data = await asyncio.to_thread(draw_png, size)
        try:
            await interaction.followup.send("Board", file=discord.File(io.BytesIO(data), "board.png"))
        except discord.HTTPException as exc:
            await interaction.edit_original_response(content=f"Upload failed ({exc.status}); try again.")

    @app_commands.command(description="Replies only to you")
    async def secret(self, interaction: discord.Interaction, text: str = "psst") -> None:
        """Replies ephemerally."""
        await interaction.response.send_message(f"Secret: {text}", ephemeral=True)

    @app_commands.command(description="Sends you a DM")
    async def whisper(self, interaction: discord.Interaction, text: str) -> None:
        """DMs the caller; says so in the channel when their DMs are closed."""
        try:
            await interaction.user.send(f"Whisper: {text}")
        except discord.Forbidden as exc:
            if exc.code != CLOSED_DMS:
                raise
            await interaction.response.send_message(
                f"{interaction.user.mention}, I cannot DM you; open your DMs to get private messages.")
            return
        await interaction.response.send_message("Sent you a DM.", ephemeral=True)

    @app_commands.command(description="Picks a fruit")
    async def pick(self, interaction: discord.Interaction, fruit: str) -> None:
        """Echoes the chosen fruit."""
        await interaction.response.send_message(f"You picked {fruit}")

    @pick.autocomplete("fruit")
    async def pick_fruit(
        self, interaction: discord.Interaction, current: str,
    ) -> list[app_commands.Choice[str]]:
        """Offers the fruits that start with what was typed."""
        return [app_commands.Choice(name=f, value=f) for f in FRUITS if f.startswith(current.lower())]

    @app_commands.command(description="Posts a knock button")
    async def knock(self, interaction: discord.Interaction) -> None:
        """Replies with a message carrying a DynamicItem button."""
        view = discord.ui.View(timeout=None)
        view.add_item(KnockButton(0))
        await interaction.response.send_message("Knock knock", view=view)

    @app_commands.command(description="Posts a colour menu")
    async def colours(self, interaction: discord.Interaction) -> None:
        """Replies with a persistent select menu."""
        await interaction.response.send_message("Pick colours", view=ColourView())

    @app_commands.command(description="Opens a thread for a table")
    async def table(self, interaction: discord.Interaction, name: str) -> None:
        """Opens a public thread, greets in it and links to it."""
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
        await thread.send(f"Table {name} is open.")
        await interaction.response.send_message(f"Opened {thread.mention}")

    @app_commands.command(description="Asks for a new name in a modal")
    async def rename(self, interaction: discord.Interaction) -> None:
        """Opens the rename modal."""
        await interaction.response.send_modal(RenameModal(custom_id="probe1:rename"))

    @app_commands.command(description="Posts to the channel")
    async def announce(self, interaction: discord.Interaction, text: str) -> None:
        """Acknowledges first, then posts a channel message."""
        await interaction.response.defer(ephemeral=True)
        await interaction.channel.send(f"Announcement: {text}")  # type: ignore[union-attr]
        await interaction.followup.send("Posted.", ephemeral=True)

    @app_commands.command(name="announce-eager", description="Posts, then acknowledges")
    async def announce_eager(self, interaction: discord.Interaction, text: str) -> None:
        """Posts a channel message before acknowledging (too late if the post is slow)."""
        await interaction.channel.send(f"Announcement: {text}")  # type: ignore[union-attr]
        await interaction.response.send_message("Posted.", ephemeral=True)

    @app_commands.command(description="Answers after a while")
    async def slow(self, interaction: discord.Interaction, seconds: float, defer: bool = False) -> None:
        """Sleeps, then answers; defers first when asked."""
        if defer:
            await interaction.response.defer()
        await asyncio.sleep(seconds)
        if defer:
            await interaction.followup.send("Done, slowly.")
        else:
            await interaction.response.send_message("Done, slowly.")

    @app_commands.command(description="Calls a route the fake does not serve")
    async def missing(self, interaction: discord.Interaction) -> None:
        """Fetches the guild's emojis and reports the 404."""
        try:
            await interaction.guild.fetch_emojis()  # type: ignore[union-attr]
        except discord.NotFound:
            await interaction.response.send_message("Not found.", ephemeral=True)

    @app_commands.command(description="Pokes a member")
    async def poke(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Mentions the chosen member (a resolved user option)."""
        await interaction.response.send_message(f"{member.mention} was poked by {interaction.user.name}")

    @app_commands.command(description="Edits and deletes its own messages")
    async def tidy(self, interaction: discord.Interaction) -> None:
        """Posts a draft and edits it, posts a note and deletes it, then answers ephemerally."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        draft = await channel.send("draft")  # type: ignore[union-attr]
        await draft.edit(content="final")
        note = await channel.send("temporary")  # type: ignore[union-attr]
        await note.delete()
        await interaction.edit_original_response(content="Tidied.")

    @admin.command(description="Answers pong")
    async def ping(self, interaction: discord.Interaction, times: int = 1) -> None:
        """Replies with ``times`` pongs."""
        await interaction.response.send_message(" ".join(["pong"] * times))


    @app_commands.command(description="Posts a button with a label of a given length")
    async def label(self, interaction: discord.Interaction, length: int) -> None:
        """Replies with one button labelled with ``length`` characters (discord.py sends it as is)."""
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="L" * length, custom_id="probe1:label"))
        try:
            await interaction.response.send_message("Labelled", view=view)
        except discord.HTTPException as exc:
            await answer_refused(interaction, exc)

    @app_commands.command(description="Offers a given number of choices")
    async def choices(self, interaction: discord.Interaction, count: int, thing: str, length: int = 5) -> None:
        """Echoes the chosen thing."""
        await interaction.response.send_message(f"Chose {thing}")

    @choices.autocomplete("thing")
    async def choices_thing(
        self, interaction: discord.Interaction, current: str,
    ) -> list[app_commands.Choice[str]]:
        """Offers ``count`` choices whose names are ``length`` characters long."""
        count, length = int(interaction.namespace.count), int(interaction.namespace.length or 5)
        return [app_commands.Choice(name=f"{i:0{length}d}"[-length:] if length else "", value=str(i))
                for i in range(count)]

    @app_commands.command(description="Sends a raw payload the test prepared")
    async def raw(self, interaction: discord.Interaction, target: str, name: str) -> None:
        """Sends ``answers[name]`` as the callback (``reply``), a second callback (``twice``), or to a
        route of ``RAW_ROUTES``; answers ``Sent`` or ``Refused <code>``."""
        bot = interaction.client
        assert isinstance(bot, ProbeBot)
        body = bot.answers[name]
        try:
            if target == "reply":
                await raw_callback(interaction, body)
                return
            if target == "twice":
                await interaction.response.send_message("First answer")
                await raw_callback(interaction, body)
                return
            method, path = RAW_ROUTES[target]
            ids: dict[str, Any] = {"webhook_id": bot.application_id, "webhook_token": interaction.token}
            if target == "edit-original":
                await interaction.response.send_message("Original")
            else:
                await interaction.response.defer(ephemeral=True)
            channel = interaction.channel
            assert channel is not None
            ids["channel_id"] = channel.id
            if target == "dm":
                ids["channel_id"] = (await interaction.user.create_dm()).id
            elif target == "edit-channel":
                ids["message_id"] = (await channel.send("Draft")).id  # type: ignore[union-attr]
            elif target == "edit-followup":
                ids["message_id"] = (await interaction.followup.send("Follow-up", wait=True)).id
            await bot.http.request(Route(method, path, **ids), json=body)
        except discord.HTTPException as exc:
            await answer_refused(interaction, exc)
            return
        await interaction.followup.send("Sent", ephemeral=True)

    @app_commands.command(description="Posts a button answered with a raw payload")
    async def panel(self, interaction: discord.Interaction, name: str) -> None:
        """Replies with one button, ``probe1:raw:<name>``."""
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Answer", custom_id=f"probe1:raw:{name}"))
        await interaction.response.send_message("Panel", view=view)


class ProbeBot(commands.Bot):
    """The probe bot: no privileged intents, dynamic buttons registered in ``setup_hook``."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.errors: list[BaseException] = []
        self.answers: dict[str, dict[str, Any]] = {}
        """Raw callback or message bodies by name, for ``/probe raw``, ``probe1:raw:`` and ``probe1:rawmodal:``."""
        self.refused: list[discord.HTTPException] = []
        """The raw requests the fake refused, as discord.py raised them."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answers a ``probe1:raw:<name>`` button or ``probe1:rawmodal:<name>`` modal with ``answers[name]``."""
        custom_id = str((interaction.data or {}).get("custom_id") or "")
        prefix = {discord.InteractionType.component: "probe1:raw:",
                  discord.InteractionType.modal_submit: "probe1:rawmodal:"}.get(interaction.type)
        if prefix is None or not custom_id.startswith(prefix):
            return
        try:
            await raw_callback(interaction, self.answers[custom_id.removeprefix(prefix)])
        except discord.HTTPException as exc:
            await answer_refused(interaction, exc)

    async def setup_hook(self) -> None:
        """Loads the cog and registers the dynamic button so old buttons work after a restart."""
        self.add_dynamic_items(KnockButton)
        self.add_view(ColourView())
        await self.add_cog(Probe(self))
        self.tree.on_error = self.on_tree_error

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError,
    ) -> None:
        """Keeps command errors for the tests to inspect."""
        self.errors.append(error)


def make_probe_bot() -> ProbeBot:
    """Builds a fresh probe bot (a bot factory)."""
    return ProbeBot()
