"""The Discord client: owns the table service and the picture workers, loads the cogs.

This is the bottom of ``cogs/`` (see :mod:`cogs`): it imports no cog. Each cog registers
its own buttons and hooks when it loads: the delivery cog installs :attr:`Tablehost.announcer`,
the ``/game`` cog installs :attr:`Tablehost.mover` and the buttons, and each game's command
group comes from its kit (:func:`cogs.surface.surface_of`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.surface import surface_of
from engines import GameError
from engines.core.registry import KITS
from host import metrics
from host.bots import Bots
from host.db import StorageUnavailable
from host.deliverer import Deliverer, Unreachable
from host.outbox import Outbox
from host.ratings import Ratings
from host.spectators import Spectators
from host.store import Status, StoreError
from host.tables import Tables
from host.timekeeper import Timekeeper
from host.web_links import WebLinks
from render import render

if TYPE_CHECKING:
    from host.config import Config

log = logging.getLogger(__name__)

COGS: tuple[str, ...] = ("cogs.delivery", "cogs.game")
"""The shared extensions loaded at start-up; each game's own command group comes from its kit."""

Announcer = Callable[["Tablehost", Outbox, bool], Awaitable[None]]
"""``announce(bot, announcement, late)``: delivers one stored announcement on Discord."""
Mover = Callable[..., Awaitable[None]]
"""``play_move(interaction, move, *, button=None, game=None, confirmed=False)``: plays a caller's move."""


MAX_REPLY = 1900
"""Longest reply text sent (Discord refuses a message over 2,000 characters)."""


def refusal(error: BaseException) -> str:
    """Returns a refusal's sentence for a reply, cut in the middle when it would be too long.

    Engine messages quote what the player typed, and a typed option may be 6,000 characters.

    >>> refusal(ValueError("I can't read '" + "x" * 5000 + "': try 'end'."))[-20:]
    "xxxxxxx': try 'end'."
    """
    text = str(error)
    if len(text) <= MAX_REPLY:
        return text
    half = (MAX_REPLY - 3) // 2
    return f"{text[:half]} … {text[-half:]}"


ALREADY_ACKNOWLEDGED = 40060
"""Discord's code for a second answer to one interaction (it was delivered twice)."""
AUTOCOMPLETE = 4
"""The interaction type of an autocomplete request."""

APOLOGY = "Something went wrong on our side. `/game board` shows the game as it stands; please try again."


async def apologise(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Logs an unexpected error with its trace and tells the caller briefly, privately."""
    if isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED:
        log.info("interaction %s arrived twice; the first delivery answered it", interaction.id)
        return
    if isinstance(error, GameError | app_commands.NoPrivateMessage):  # a refusal: still the player's message
        message = refusal(error)
    elif isinstance(error, StorageUnavailable):  # expected in an outage: the store logged its one line
        message = f"I can't reach the saved games right now: {error.reason}. Nothing was changed; try again soon."
    else:
        log.error("interaction %s failed", interaction.data and interaction.data.get("name"), exc_info=error)
        message = APOLOGY
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about the error")


class Tree(app_commands.CommandTree):
    """The command tree: one error handler for every slash command of every cog."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        """Answers privately: the engine's sentence for a refusal, an apology for a bug."""
        await apologise(interaction, getattr(error, "original", error))


EDIT_EVERY = 1.0
"""Seconds at least between two edits of one channel's boards (see :mod:`cogs.board`)."""
BUSY_AFTER = 10.0
"""Seconds a player waits for their move's board before being told, once, that Discord is busy."""
STOP_WITHIN = 20.0
"""Seconds a graceful stop waits for the interactions and deliveries in flight before it cuts them short."""
RESTARTING = "The bot is restarting: try again in a few seconds. Nothing was changed."
"""The answer to an interaction that arrives while the bot stops."""
CLOSE_WITHIN = 10.0
"""Seconds closing waits for the clocks, deliveries and bots' tasks to stop once cancelled."""
HANDLERS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-", "discord-ui-modal-")
"""Names discord.py gives the tasks that run an interaction's handler (commands, buttons, menus, forms)."""


class Tablehost(commands.Bot):
    """The bot: slash commands only, no privileged intents.

    ``tables`` is passed in and owned by the caller (``bot.py`` opens and closes
    the store); at most ``render_workers`` pictures are drawn at once, each in a
    worker thread so the event loop keeps answering within Discord's 3 s window.
    """

    def __init__(
        self,
        *,
        tables: Tables,
        render_workers: int = 2,
        sync_guild: int | None = None,
        sync: bool = False,
        extensions: tuple[str, ...] = COGS,
        threads_by_default: bool = True,
        edit_every: float = EDIT_EVERY,
        busy_after: float = BUSY_AFTER,
        **options: Any,
    ) -> None:
        intents = discord.Intents.default()  # guilds, no privileged intents
        intents.message_content = False
        intents.members = False
        intents.presences = False
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, tree_cls=Tree, **options
        )
        self.tables = tables
        self.threads_by_default = threads_by_default
        self.edit_every = edit_every
        """Seconds at least between two edits of a channel's boards: moves that land sooner are shown together."""
        self.board_edits: dict[str, float] = {}
        """When each channel's boards were last edited (the event loop's clock)."""
        self.keeps_time = True
        """Runs the timekeeper's loop once ready; a test that ticks the clocks by hand sets it False first."""
        self.stopping = False
        """True once a graceful stop began: new interactions are told to try again."""
        self.busy_after = busy_after
        """Seconds a player waits for their move's board before being told that Discord is busy."""
        self.web_links: WebLinks | None = None
        """The web table's addresses when its pages are served at a public URL: each board links its game's page."""
        self.background: set[asyncio.Task[Any]] = set()
        """Deliveries that outlasted their player's wait: kept referenced until they finish."""
        self.deliverer = Deliverer(tables.store, self.announce, wanted=self.wanted)
        self.spectators = Spectators(tables.store)
        self._deliveries: asyncio.Task[None] | None = None
        self.timekeeper = Timekeeper(tables, deliver=self.deliverer.deliver)
        self.bots = Bots(tables, deliver=self.deliverer.deliver)
        self.ratings = Ratings(tables.store)
        self._clocks: asyncio.Task[None] | None = None
        self._bot_watch: asyncio.Task[None] | None = None
        self._render_slots = asyncio.Semaphore(render_workers)
        self._sync_guild = sync_guild
        self._sync = sync
        self._extensions = extensions
        self.announcer: Announcer | None = None
        """Delivers an announcement on Discord; installed by the delivery cog (:mod:`cogs.delivery`)."""
        self.mover: Mover | None = None
        """Plays a caller's move; installed by the ``/game`` cog (:func:`cogs.actions.play_move`)."""

    async def setup_hook(self) -> None:
        """Loads the shared cogs, then each offered game's command group; syncs commands when asked to."""
        parsers = self._connection.parsers
        parsers["INTERACTION_CREATE"] = self._unless_stopping(parsers["INTERACTION_CREATE"])
        for ext in self._extensions:
            await self.load_extension(ext)
        for name in KITS:
            group = surface_of(name).commands
            if group is not None:
                await self.add_cog(group(self))  # type: ignore[call-arg]
        await self.ratings.sweep()  # games that ended while their ratings were not recorded
        if self._sync:
            await self.sync_commands()

    async def sync_commands(self) -> int:
        """Syncs slash commands to the dev guild when set, else globally; returns how many."""
        if self._sync_guild:
            guild = discord.Object(id=self._sync_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands to %s", len(synced), self._sync_guild or "all servers")
        return len(synced)

    async def picture(self, game: str, view: dict[str, Any], *, title: str | None = None, **marks: Any) -> bytes:
        """Returns the PNG of a view, drawn in a worker thread with a bound on concurrent renders."""
        async with self._render_slots:
            with metrics.rendering(game):
                return await asyncio.to_thread(render, game, view, title=title, **marks)

    def pace_wait(self, channel_id: str) -> float:
        """Returns the seconds until the channel's boards may be edited again (0: now), :attr:`edit_every` after
        the last edit."""
        last = self.board_edits.get(channel_id)
        return 0.0 if last is None else max(last + self.edit_every - asyncio.get_running_loop().time(), 0.0)

    def paced(self, channel_id: str) -> bool:
        """Tells whether the channel's next board edit waits (its boards were edited less than a pace ago)."""
        return self.pace_wait(channel_id) > 0

    def board_edited(self, channel_id: str) -> None:
        """Notes that a board of the channel was just edited (or closed), for the pace."""
        self.board_edits[channel_id] = asyncio.get_running_loop().time()

    async def play_move(self, interaction: discord.Interaction[Any], move: str, **how: Any) -> None:
        """Plays a caller's move through the installed :attr:`mover` (buttons and menus call this)."""
        if self.mover is None:
            raise GameError("Moves can't be played right now: the bot is still starting. Try again in a moment.")
        await self.mover(interaction, move, **how)

    async def wanted(self, out: Outbox) -> bool:
        """Tells whether an announcement Discord keeps refusing still matters: all do but a reminder of a
        turn already played (or of a game over)."""
        if out.notice != "reminder":
            return True
        row = await self.tables.store.game(out.game_id, snapshot=False)
        return row is not None and row.status is Status.RUNNING and row.version == out.version

    def keep(self, task: asyncio.Task[Any]) -> None:
        """Keeps a background task referenced until it finishes (the event loop holds only weak references)."""
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def announce(self, out: Outbox, late: bool) -> None:
        """Delivers one stored announcement on Discord (the deliverer calls this) through :attr:`announcer`."""
        if self.announcer is None:  # not loaded yet: the announcement stays stored and is retried
            raise Unreachable("the delivery cog is not loaded yet")
        await self.announcer(self, out, late)
        if out.finished and out.game_id:  # idempotent; the sweep at start catches any missed
            try:
                settled = await self.ratings.settle(out.game_id)
            except StoreError:
                log.exception("game %s: its ratings are left to the next start's sweep", out.game_id)
                return
            if settled.news:
                await self.tell_unrated(out, settled.news)

    async def tell_unrated(self, out: Outbox, why: str) -> None:
        """Tells a game's channel that the game just ended is not rated, and why (once: the rating is settled once).

        Said after its ratings are settled, so a failure here only loses the note, never a rating.
        """
        try:
            channel = self.get_channel(int(out.channel_id)) or await self.fetch_channel(int(out.channel_id))
            if not isinstance(channel, discord.abc.Messageable):
                return
            await channel.send(f"This game is not rated: {why}.", nonce=f"th{out.id}u"[:25] if out.id else None,
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as err:
            log.warning("game %s: could not say it is unrated (%s)", out.game_id, err.status)

    async def on_ready(self) -> None:
        """Logs who the bot is once connected, and starts delivering what is still pending."""
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        if self._deliveries is None or self._deliveries.done():
            self._deliveries = asyncio.create_task(self.deliverer.run(), name="tablehost-deliveries")
        if self._clocks is None or self._clocks.done():
            if self.keeps_time:
                self._clocks = asyncio.create_task(self.timekeeper.run(), name="tablehost-clocks")
            await self.bots.sweep()  # a bot whose turn it was when the bot stopped plays now
        if self.tables.store.shared and (self._bot_watch is None or self._bot_watch.done()):
            # another process may stop before its bots play: this one's watch plays them
            self._bot_watch = asyncio.create_task(self.bots.watch(), name="tablehost-bot-watch")

    def _unless_stopping(self, parse: Callable[[Any], None]) -> Callable[[Any], None]:
        """Wraps discord.py's handling of an incoming interaction: while stopping, it is told to try again."""

        def parse_interaction(data: Any) -> None:
            if not self.stopping:
                parse(data)
            elif data.get("type") != AUTOCOMPLETE:  # suggestions have nowhere to say it
                self.keep(asyncio.create_task(self._tell_restarting(data), name="tablehost-restarting"))

        return parse_interaction

    async def _tell_restarting(self, data: Any) -> None:
        try:
            interaction: discord.Interaction[Any] = discord.Interaction(data=data, state=self._connection)
            await interaction.response.send_message(RESTARTING, ephemeral=True)
        except (discord.HTTPException, KeyError, TypeError, ValueError):
            log.warning("an interaction that came while stopping could not be answered")

    def in_flight(self) -> set[asyncio.Task[Any]]:
        """Returns the tasks still handling an interaction, and the deliveries still at work."""
        handlers = {t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(HANDLERS)}
        return handlers | {t for t in self.background if not t.done()} | self.deliverer.draining()

    async def stop_gracefully(self, within: float = STOP_WITHIN) -> None:
        """Stops as SIGTERM asks: takes no new interaction, answers those in flight and lets their
        deliveries finish (for ``within`` seconds at most), hands back its channels' claims, then closes.

        Whatever is still undelivered then stays stored, with its receipt, for the next start or another
        process (the claims are given up, so another process takes the channels at once).
        """
        if self.stopping:
            return
        self.stopping = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        log.info("stopping: finishing %d interactions and deliveries in flight", len(self.in_flight()))
        while (busy := self.in_flight() - {asyncio.current_task()}) and loop.time() < deadline:
            await asyncio.wait(busy, timeout=max(deadline - loop.time(), 0.0))
        if busy := self.in_flight():
            log.warning("stopping with %d interactions or deliveries cut short; they are retried", len(busy))
        await self.close()

    async def close(self) -> None:
        """Stops the clocks and deliveries (what is pending stays stored for the next start), then disconnects."""
        tasks = {t for t in (self._clocks, self._deliveries, self._bot_watch, *self.background) if t is not None}
        for task in tasks:
            task.cancel()
        if tasks:  # each saves what it sent; one that ignored its cancel must not hold the exit forever
            _, stuck = await asyncio.wait(tasks, timeout=CLOSE_WITHIN)
            if stuck:
                log.error("closing with %d tasks that did not stop: %s", len(stuck),
                          sorted(t.get_name() for t in stuck))
        await super().close()


class ShardedTablehost(Tablehost, commands.AutoShardedBot):
    """The bot on some of Discord's shards: one gateway connection per shard in ``shard_ids``.

    Discord sends each shard the events of its guilds only (``(guild_id >> 22) % shard_count``;
    DMs go to shard 0), so each process serves its shards' guilds; what is stored (every game,
    ``/game mine``) is read from the shared database. The method order puts discord.py's
    ``AutoShardedClient`` before ``Client``: ``Tablehost``, ``Bot``, ``AutoShardedBot``, ``BotBase``,
    ..., ``AutoShardedClient``, ``Client``.
    """

    def __init__(self, *, shard_count: int, shard_ids: tuple[int, ...] | None = None, **options: Any) -> None:
        """``shard_ids`` None: every shard, 0 to ``shard_count - 1``, in this process."""
        super().__init__(shard_count=shard_count, shard_ids=list(shard_ids) if shard_ids is not None else None,
                         **options)


def make_bot(
    config: Config, *, tables: Tables, sync: bool = False, extensions: tuple[str, ...] = COGS, **options: Any,
) -> Tablehost:
    """Returns the bot for ``config``: a ``ShardedTablehost`` on its shards when ``SHARD_COUNT`` is set,
    else a plain ``Tablehost`` (one connection, every guild)."""
    settings: dict[str, Any] = {
        "tables": tables, "render_workers": config.render_workers, "sync_guild": config.dev_guild_id,
        "sync": sync, "extensions": extensions, "threads_by_default": config.threads,
        "busy_after": config.busy_after, **options,
    }
    if config.shard_count is None:
        return Tablehost(**settings)
    return ShardedTablehost(shard_count=config.shard_count, shard_ids=config.shard_ids, **settings)
