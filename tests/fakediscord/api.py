"""The test API: run a bot against the fake server, call its commands and read what it sent.

Several guilds: add them before the bot starts (``fake.add_guild("Second", channels=["general",
"lobby"], members=["ann", "bob"])``; users are members of every guild unless ``members`` says
otherwise), or while it runs with ``await fake.join_guild(...)`` (GUILD_CREATE). Channels of any guild
are FakeChannels: ``fake.add_channel("den", guild="Second")``, ``dt.channel("general",
guild="Second")`` (a bare name is looked up in the first guild first), and every method taking a
``channel`` accepts them: ``dt.slash("game", "mine", user="ann", channel=dt.channel("lobby"))``,
``dt.messages("general", guild="Second")``. Commands synced globally are available in every guild;
guild commands (``tree.sync(guild=...)``, done by ``start_bot`` for each guild that has any) only in
theirs.

The bot's DM: ``dt.slash("game", "mine", user="ann", channel=dt.dm_channel("ann"))`` dispatches the
interaction as Discord does in a DM (no guild, ``user`` at the top level, ``context`` 1), or raises
LookupError when Discord would not offer the command there (``@app_commands.guild_only()``, contexts
without 1, ``dm_permission`` false, a guild command). Answers are recorded as anywhere else: the
record's ``responses``, ``dt.ephemerals("ann")``, and non-ephemeral ones in ``dt.dms("ann")``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from tests.fakediscord.commands import command_data
from tests.fakediscord.faults import Faults
from tests.fakediscord.payloads import FakeChannel, FakeGuild, FakeUser
from tests.fakediscord.recorder import InteractionRecord, Recorder, SentMessage
from tests.fakediscord.server import FakeDiscord, GuildRef

BotFactory = Callable[[], discord.Client]
"""Builds a fresh, not yet started bot (``discord.Client`` or ``commands.Bot``)."""

TIMEOUT = 10.0
SETTLE = 0.1


class _ErrorLog(logging.Handler):
    """Keeps the ERROR records that discord.py logs (exceptions it caught and ignored)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class DiscordTest:
    """Drives one bot on a fake Discord server the way players would."""

    def __init__(self, fake: FakeDiscord, *, timeout: float = TIMEOUT, settle: float = SETTLE) -> None:
        self.fake = fake
        self.bot: discord.Client | None = None
        self.timeout = timeout
        self.settle = settle
        self._task: asyncio.Task[None] | None = None
        self._errors = _ErrorLog()
        logging.getLogger("discord").addHandler(self._errors)

    async def close(self) -> None:
        """Stops the bot and stops collecting discord.py's error log."""
        try:
            await self.stop_bot()
        finally:
            logging.getLogger("discord").removeHandler(self._errors)

    def logged_errors(self) -> list[str]:
        """Returns the errors discord.py logged so far (e.g. an exception in a view or command)."""
        return [record.getMessage() for record in self._errors.records]

    # running the bot

    async def start_bot(self, factory: BotFactory, *, sync: bool = True) -> discord.Client:
        """Builds a bot, logs it in on the fake server, waits for READY and syncs its commands."""
        if self.bot is not None:
            raise RuntimeError("a bot is already running; call stop_bot() or restart()")
        bot = factory()
        bot._connection.guild_ready_timeout = 0.05  # READY follows the guild at once, not after 2 s
        self.bot = bot
        self._task = task = asyncio.create_task(bot.start("fake-token"), name="fake-discord-bot")
        try:
            ready = asyncio.create_task(bot.wait_until_ready())
            done, _ = await asyncio.wait({ready, task}, timeout=self.timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            if ready not in done:
                ready.cancel()
                if task in done:
                    await task  # raises the bot's start-up error
                raise TimeoutError("the bot did not become ready on the fake server")
            tree = getattr(bot, "tree", None)
            if sync and tree is not None:
                await tree.sync()
                for known in self.fake.guilds:
                    guild = discord.Object(known.id)
                    if tree.get_commands(guild=guild):
                        await tree.sync(guild=guild)
        except BaseException:
            await self.stop_bot()
            raise
        return bot

    async def stop_bot(self) -> None:
        """Closes the bot and waits for its task to end."""
        bot, task, self.bot, self._task = self.bot, self._task, None, None
        if bot is not None:
            await bot.close()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, timeout=self.timeout)

    async def restart(self, factory: BotFactory) -> discord.Client:
        """Stops the bot and starts a new one from ``factory`` on the same server (state kept)."""
        await self.stop_bot()
        return await self.start_bot(factory)

    # lookups

    def user(self, name: str) -> FakeUser:
        """Returns a user by name (``ann``, ``bob``, ``cy``)."""
        return self.fake.user(name)

    def channel(self, name: str | FakeChannel = "general", *, guild: GuildRef | None = None) -> FakeChannel:
        """Returns a text channel or thread by name (``general``, ``table-1``, ``table-2``), in ``guild``
        (object, name or id) when given, else the first guild that has one by that name."""
        return self.fake.channel(name, guild=guild)

    def guild(self, name: GuildRef | None = None) -> FakeGuild:
        """Returns a guild by name or id (None: the first guild, ``fake.guild``)."""
        return self.fake.guild_of(name)

    def dm_channel(self, user: FakeUser | str) -> FakeChannel:
        """Returns the bot's DM channel with a user (pass it as ``channel=`` to run a command there)."""
        return self.fake.dm_channel(self._user(user))

    @property
    def faults(self) -> Faults:
        """Returns the fake server's fault switches."""
        return self.fake.faults

    @property
    def recorder(self) -> Recorder:
        """Returns the recorder of everything the bot sent."""
        return self.fake.recorder

    def messages(self, channel: FakeChannel | str = "general", *, guild: GuildRef | None = None,
                 ) -> list[SentMessage]:
        """Returns the live, non-ephemeral messages in a channel (by name, in ``guild`` if given), in order."""
        return self.fake.recorder.in_channel(self._channel(channel, guild).id)

    def dms(self, user: FakeUser | str) -> list[SentMessage]:
        """Returns the live DMs the bot sent to a user, in order."""
        return self.fake.recorder.dms_to(self._user(user).id)

    def ephemerals(self, user: FakeUser | str) -> list[SentMessage]:
        """Returns the live ephemeral messages shown only to a user, in order."""
        return self.fake.recorder.ephemerals_for(self._user(user).id)

    # interactions

    async def slash(
        self, *path: str, user: FakeUser | str, channel: FakeChannel | str = "general",
        timeout: float | None = None, with_options: dict[str, Any] | None = None, wait_quiet: bool = True,
        **options: Any,
    ) -> InteractionRecord:
        """Runs a slash command by name (``slash("game", "board", user="ann")``) and returns its record.

        ``channel`` is a channel name (of the first guild that has one so named) or a FakeChannel of
        any guild (``dt.channel("general", guild="Second")``); the interaction carries that channel's
        guild (``guild_id``, ``guild``, the user's ``member`` there). For the bot's DM pass
        ``channel=dt.dm_channel("ann")``: then, as Discord sends it, there is no guild_id, guild or
        member, ``user`` is at the top level, ``context`` is 1 and only global commands whose
        ``contexts`` include 1 (or, without contexts, whose ``dm_permission`` is not false) can run;
        any other raises LookupError ("command /game is not available in DMs: ...") and nothing is
        dispatched. A user may act only in guilds they are a member of and in their own DM.

        The command's options are the other keywords, or ``with_options`` (a mapping) for one whose
        name is also a keyword of this method: ``slash("table", "clock", user="ann",
        with_options={"timeout": "1d"})``.

        Returns once the bot has answered for good (a message, an edit of a deferred response or a
        follow-up) and has been quiet for a moment (``wait_quiet`` False: at once, for a bot that
        is never quiet, say retrying through a storm); raises TimeoutError otherwise.
        """
        ch = self._channel(channel)
        data, name = command_data(self.fake, path, _options(with_options, options), guild_id=ch.guild_id)
        record = await self.fake.send_interaction(kind=2, data=data, user=self._user(user), channel=ch,
                                                  name=name)
        return await self.wait_answered(record, timeout=timeout, wait_quiet=wait_quiet)

    async def autocomplete(
        self, *path: str, focused: str, user: FakeUser | str, channel: FakeChannel | str = "general",
        timeout: float | None = None, with_options: dict[str, Any] | None = None, **options: Any,
    ) -> list[str]:
        """Asks for the choices of option ``focused`` (typed text in the options); returns their names.

        ``channel`` and ``with_options`` as for ``slash`` (a DM channel too, with the same refusals)."""
        ch = self._channel(channel)
        data, name = command_data(self.fake, path, _options(with_options, options), guild_id=ch.guild_id,
                                  focused=focused)
        record = await self.fake.send_interaction(kind=4, data=data, user=self._user(user), channel=ch,
                                                  name=name)
        await self.wait_answered(record, timeout=timeout)
        return [str(c["name"]) for c in record.choices]

    async def click(
        self, message: SentMessage | int, button: str, *, user: FakeUser | str,
        timeout: float | None = None, wait_for_edit: bool = True,
    ) -> InteractionRecord:
        """Clicks a button (by label or custom_id) on a message the bot sent; returns the record.

        A deferred update (type 6) counts as the answer only with ``wait_for_edit=False``.
        """
        msg = self.fake.messages[message] if isinstance(message, int) else message
        found = msg.button(button)
        if "custom_id" not in found:
            raise LookupError(f"button {button!r} is a link button and cannot be clicked")
        record = await self.fake.send_interaction(
            kind=3, data={"custom_id": found["custom_id"], "component_type": 2}, user=self._user(user),
            channel=self.fake.channel(msg.channel_id), name=found["custom_id"], message=msg,
        )
        return await self.wait_answered(record, timeout=timeout, defer_is_answer=not wait_for_edit)

    async def select(
        self, message: SentMessage | int, custom_id: str, values: list[str], *, user: FakeUser | str,
        timeout: float | None = None, wait_for_edit: bool = True,
    ) -> InteractionRecord:
        """Chooses ``values`` in a string select menu (by custom_id) on a message; returns the record."""
        msg = self.fake.messages[message] if isinstance(message, int) else message
        msg.component(custom_id)
        record = await self.fake.send_interaction(
            kind=3, data={"custom_id": custom_id, "component_type": 3, "values": list(values)},
            user=self._user(user), channel=self.fake.channel(msg.channel_id), name=custom_id, message=msg,
        )
        return await self.wait_answered(record, timeout=timeout, defer_is_answer=not wait_for_edit)

    async def submit_modal(
        self, opened_by: InteractionRecord, values: dict[str, Any], *, timeout: float | None = None,
    ) -> InteractionRecord:
        """Fills and submits the modal an interaction opened; ``values`` maps custom_id or label to input.

        Text inputs take a string, select menus a list of values. Raises LookupError if the bot
        opened no modal or a key names no field.
        """
        modal = opened_by.modal
        if modal is None:
            kinds = [c.type for c in opened_by.callbacks]
            raise LookupError(f"{opened_by.name!r} opened no modal; callback types: {kinds}")
        used: set[str] = set()
        fields = modal_answers(modal["components"], values, used)
        data = {"custom_id": modal["custom_id"], "components": fields}
        if unused := set(values) - used:
            raise LookupError(f"modal {modal['custom_id']!r} has no field {sorted(unused)}")
        source = self.fake.messages.get(opened_by.source_message_id or 0)
        user = self.fake.user_by_id(opened_by.user_id)
        assert user is not None
        record = await self.fake.send_interaction(
            kind=5, data=data, user=user,
            channel=self.fake.channel(opened_by.channel_id), name=modal["custom_id"], message=source,
        )
        return await self.wait_answered(record, timeout=timeout)

    async def wait_answered(
        self, record: InteractionRecord, *, timeout: float | None = None, defer_is_answer: bool = False,
        wait_quiet: bool = True,
    ) -> InteractionRecord:
        """Waits until the bot answered an interaction for good, then (``wait_quiet``) until it is quiet."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        while not record.answered.is_set():
            if defer_is_answer and any(cb.type == 6 for cb in record.callbacks):
                break
            if time.monotonic() > deadline:
                refused = "".join(f"; refused: {r}" for r in record.refusals)
                raise TimeoutError(f"no final answer to {record.name!r} within {limit} s; "
                                   f"callbacks: {[(c.type, c.data) for c in record.callbacks]}{refused}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(record.answered.wait(), timeout=0.05)
        if wait_quiet:
            await self.quiet()
        return record

    async def redeliver(self, record: InteractionRecord) -> InteractionRecord:
        """Delivers an interaction a second time (as after a replay) and waits until the bot is quiet."""
        await self.fake.redeliver(record)
        await asyncio.sleep(self.settle)
        await self.quiet()
        return record

    async def wait_until(self, predicate: Callable[[], object], *, timeout: float | None = None) -> None:
        """Waits until ``predicate()`` is true (e.g. a reminder the bot posts on its own)."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        while not predicate():
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not met within {limit} s")
            await asyncio.sleep(0.02)

    async def quiet(self, settle: float | None = None) -> None:
        """Waits until no request is in flight and none came for ``settle`` seconds (at most the timeout)."""
        settle = self.settle if settle is None else settle
        recorder = self.fake.recorder
        limit = time.monotonic() + self.timeout
        while time.monotonic() < limit:
            idle = time.monotonic() - recorder.last_activity
            if recorder.in_flight == 0 and idle >= settle:
                return
            await asyncio.sleep(max(settle - idle, min(settle, 0.02)))  # a short settle is polled as often

    # gateway

    async def drop_gateway(self, *, code: int = 4000, forget_session: bool = False) -> None:
        """Drops the bot's gateway connection; the bot RESUMEs (identifies if the session is forgotten)."""
        await self.fake.gateway.drop(code=code, forget_session=forget_session)

    async def wait_connected(self, timeout: float | None = None) -> None:
        """Waits until the bot is identified or resumed on the gateway."""
        await asyncio.wait_for(self.fake.gateway.live.wait(), self.timeout if timeout is None else timeout)

    def _user(self, user: FakeUser | str) -> FakeUser:
        return self.fake.user(user) if isinstance(user, str) else user

    def _channel(self, channel: FakeChannel | str, guild: GuildRef | None = None) -> FakeChannel:
        if isinstance(channel, FakeChannel) and guild is not None and channel.guild_id != self.guild(guild).id:
            raise LookupError(f"channel {channel.name!r} is not in guild {self.guild(guild).name!r}")
        return channel if isinstance(channel, FakeChannel) else self.fake.channel(channel, guild=guild)


def _options(mapping: dict[str, Any] | None, keywords: dict[str, Any]) -> dict[str, Any]:
    """Merges ``with_options`` and the keyword options of ``slash``; a name in both is an error."""
    if mapping and (twice := sorted(set(mapping) & set(keywords))):
        raise TypeError(f"options {twice} given both in with_options= and as keywords")
    return {**(mapping or {}), **keywords}


def modal_answers(
    components: list[Any], values: dict[str, Any], used: set[str], label: str = "",
) -> list[Any]:
    """Returns the submitted components of a modal, filling each field from ``values``."""
    out: list[Any] = []
    for comp in components:
        kind = comp.get("type")
        if kind == 1:
            out.append({"type": 1, "components": modal_answers(comp.get("components") or [], values, used)})
        elif kind == 18:
            inner = modal_answers([comp["component"]], values, used, label=str(comp.get("label") or ""))
            out.append({"type": 18, "component": inner[0]})
        elif "custom_id" in comp:
            custom_id = comp["custom_id"]
            key = next((k for k in (custom_id, comp.get("label"), label) if k and k in values), None)
            if key is not None:
                used.add(key)
            if kind == 4:
                text = values[key] if key is not None else comp.get("value") or ""
                out.append({"type": 4, "custom_id": custom_id, "value": str(text)})
            else:
                out.append({"type": kind, "custom_id": custom_id,
                            "values": [str(v) for v in values[key]] if key is not None else []})
    return out
