"""The table service's lobby: open a table, join it, seat a bot, leave, start the game, abort it."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from engines import GAMES
from engines.core import shown
from engines.core.ai import LEVELS, has_bots
from host.bot_seats import bot_id, is_bot
from host.clock import ClockSettings
from host.fairness import commit_line, new_salt
from host.outbox import Outbox
from host.store import ChannelTaken, SeatTaken, StaleVersion, Status
from host.table import Person, Refusal, Table, seat_name
from host.tables_cache import TablesCache, _title
from host.tables_outbox import TablesOutbox, _saving


class TablesLobby(TablesCache, TablesOutbox):
    """Lobby changes, from opening a table to starting or aborting its game (a part of :class:`host.tables.Tables`)."""

    async def create(
        self,
        *,
        channel_id: str,
        guild_id: str | None,
        game: str,
        creator: Person,
        options: dict[str, Any],
        clock: ClockSettings | None = None,
    ) -> Outbox:
        """Opens a lobby with its turn clock and seats its creator; raises Refusal or GameError."""
        cls = GAMES.get(game)
        if cls is None:
            raise Refusal(f"There is no game called '{shown(game, 30)}' (games: {', '.join(sorted(GAMES))}).")
        opts = cls.check_options(options)
        shown_opts = ", ".join(f"{k}={_option_text(v)}" for k, v in opts.items() if v != cls.OPTIONS.get(k))
        out = Outbox(
            game_id=0,
            game=game,
            channel_id=channel_id,
            guild_id=guild_id,
            actor_id=creator.id,
            lines=[
                f"{creator.name} opened a {cls.TITLE} table"
                + (f" ({shown_opts})" if shown_opts else "")
                + f". {cls._seat_range()} players: join, then start."
            ],
        )
        async with self.lock(channel_id):
            current = await self.store.active_game(channel_id, snapshot=False)
            if current is not None:
                raise Refusal(f"This channel already has a {_title(current)} game ({current.status}).")
            with _saving():
                try:
                    await self.store.create_game(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        game=game,
                        creator_id=creator.id,
                        options=opts,
                        creator_name=seat_name(creator.name, set()),
                        announce=out,
                        clock_settings=clock,
                    )
                except ChannelTaken as err:
                    raise Refusal("This channel already has a game.") from err
        return out

    async def join(self, channel_id: str, person: Person) -> Outbox:
        """Seats a player in the channel's lobby; raises Refusal."""
        async with self.lock(channel_id):
            row = await self._lobby(channel_id)
            seats = await self.store.seats(row.id)
            cls = GAMES[row.game]
            if any(s.player_id == person.id for s in seats):
                raise Refusal("You are already seated at this table.")
            if len(seats) >= cls.MAX_PLAYERS:
                raise Refusal(f"The table is full ({cls.MAX_PLAYERS} players).")
            name = seat_name(person.name, {s.name for s in seats})
            out = self._outbox(row, actor=person, lines=[f"{name} joins ({len(seats) + 1}/{cls.MAX_PLAYERS})."])
            with _saving():
                try:
                    await self.store.add_seat(row.id, person.id, name, announce=out)
                except (SeatTaken, StaleVersion) as err:
                    raise Refusal("The table changed meanwhile: look again and retry. Nothing was changed.") from err
        return out

    async def add_bot(self, channel_id: str, person: Person, level: str) -> Outbox:
        """Seats a bot of ``level`` in the channel's lobby (asked by a seated player or the creator)."""
        if level not in LEVELS:
            raise Refusal(f"A bot's level is {', '.join(LEVELS)}; not '{shown(level, 20)}'.")
        async with self.lock(channel_id):
            row = await self._lobby(channel_id)
            seats = await self.store.seats(row.id)
            cls = GAMES[row.game]
            if person.id != row.creator_id and all(s.player_id != person.id for s in seats):
                raise Refusal("Only a seated player or the table's creator can add a bot.")
            if not has_bots(row.game):
                raise Refusal(f"{cls.TITLE} has no bots yet.")
            if len(seats) >= cls.MAX_PLAYERS:
                raise Refusal(f"The table is full ({cls.MAX_PLAYERS} players).")
            n = 1 + sum(is_bot(s.player_id) for s in seats)
            name = seat_name(f"{cls.TITLE} bot ({level})", {s.name for s in seats})
            out = self._outbox(row, actor=person, lines=[
                f"{person.name} seats {name} ({len(seats) + 1}/{cls.MAX_PLAYERS}). It plays its turns at once."])
            with _saving():
                try:
                    await self.store.add_seat(row.id, bot_id(level, n), name, announce=out)
                except (SeatTaken, StaleVersion) as err:
                    raise Refusal("The table changed meanwhile: look again and retry. Nothing was changed.") from err
        return out

    async def leave(self, channel_id: str, person: Person) -> Outbox:
        """Unseats a player from the lobby; the lobby closes when nobody is left."""
        async with self.lock(channel_id):
            row = await self.store.active_game(channel_id, snapshot=False)
            if row is None:
                raise Refusal("There is no game in this channel.")
            if row.status is Status.RUNNING:
                raise Refusal(
                    "The game is running, so seats are fixed: play on, resign if the game allows it,"
                    " or ask the game's creator or a channel manager to /game abort."
                )
            seats = await self.store.seats(row.id)
            name = next((s.name for s in seats if s.player_id == person.id), None)
            if name is None:
                raise Refusal("You are not seated at this table.")
            last = all(is_bot(s.player_id) for s in seats if s.player_id != person.id)  # bots alone: closes
            line = (f"{name} leaves the table." if not last else f"{name} leaves; the table is empty and closes."
                    if len(seats) == 1 else f"{name} leaves; only bots are left, so the table closes.")
            out = self._outbox(row, actor=person, lines=[line], finished=last)
            with _saving():  # only bots left: the table closes with the seat, they never play alone
                if await self.store.remove_seat(row.id, person.id, announce=out, close=last) is None:
                    raise Refusal("You are not seated at this table.")
        return out

    async def start(self, channel_id: str, person: Person, *, seed: int | None = None) -> Outbox:
        """Starts the lobby's game with the seated players; raises Refusal or GameError."""
        async with self.lock(channel_id):
            row = await self._lobby(channel_id)
            seats = await self.store.seats(row.id)
            cls = GAMES[row.game]
            if person.id != row.creator_id and all(s.player_id != person.id for s in seats):
                raise Refusal("Only a seated player can start the game.")
            if not cls.MIN_PLAYERS <= len(seats) <= cls.MAX_PLAYERS:
                raise Refusal(f"{cls.TITLE} needs {cls._seat_range()} players; {len(seats)} seated.")
            if all(is_bot(s.player_id) for s in seats):
                raise Refusal("A game needs at least one person: bots alone would play themselves forever.")
            seed = self._seeds() if seed is None else seed
            salt = new_salt()
            game = cls.new([s.name for s in seats], seed, row.options)
            started = replace(row, status=Status.RUNNING, seed=seed, salt=salt, version=0)
            table = Table(started, seats, game)
            out = self._move_outbox(table, game, game.opening_events(), set(), {}, None, 0, actor=person)
            out.lines[:0] = [f"{cls.TITLE} begins: {', '.join(s.name for s in seats)}.", commit_line(seed, salt)]
            with _saving():
                try:
                    await self.store.start_game(
                        row.id, seed=seed, snapshot=game.to_json(), announce=out, clock_at=self.clock(), salt=salt
                    )
                except StaleVersion as err:  # another process started or closed it meanwhile
                    raise Refusal("The game has already started, or its table was closed.") from err
            self._remember(table)
        self._changed(channel_id)
        return out

    async def abort(self, channel_id: str, person: Person, *, can_manage: bool) -> Outbox:
        """Ends the channel's game for good; only its creator or a channel manager may."""
        async with self.lock(channel_id):
            self._cache.pop(channel_id, None)
            row = await self.store.active_game(channel_id, snapshot=False)
            if row is None:
                raise Refusal("There is no game in this channel to abort.")
            if person.id != row.creator_id and not can_manage:
                raise Refusal("Only the game's creator or someone with Manage Channels can abort it.")
            out = self._outbox(row, actor=person, lines=[f"{person.name} aborted the {_title(row)} game."])
            out.finished = True
            with _saving():
                try:
                    await self.store.set_status(row.id, Status.ABORTED, announce=out)
                except StaleVersion as err:
                    raise Refusal("That game has just ended. Nothing was changed.") from err
        return out


def _option_text(value: Any) -> str:
    """Returns an option's value for the lobby line: as typed for a word or number, else short JSON.

    >>> _option_text(15), _option_text({"ships": ["frigate"] * 20})[:20]
    ('15', '{"ships":["frigate",')
    """
    if isinstance(value, str | int | float):
        return shown(str(value), 40)
    return shown(json.dumps(value, separators=(",", ":")), 40)
