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
from host.fairness import (
    BOT_JOIN,
    game_entropy,
    join_part,
    new_salt,
    old_commit_line,
    open_line,
    own_text,
    seal,
    start_line,
)
from host.outbox import Outbox
from host.store import ChannelTaken, NewSeat, SeatTaken, StaleVersion, Status
from host.table import NoGame, Person, Refusal, Table, seat_name
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
        joined: str | None = None,
        entropy: str | None = None,
        parent_id: str | None = None,
    ) -> Outbox:
        """Opens a lobby with its turn clock and seats its creator; raises Refusal or GameError.

        The table's server seed is drawn now and its commitment posted with the opening, before
        anyone joins (:mod:`host.fairness`); ``joined`` (the interaction's id) and ``entropy`` (the
        creator's own text) are the creator's part of the game's entropy. ``parent_id`` is the channel
        whose thread ``channel_id`` is, when the table opened a thread of its own (commands typed in
        that channel then point to the thread: :meth:`host.store.Store.games_in_threads_of`).
        """
        cls = GAMES.get(game) if isinstance(game, str) else None  # GAMES.get([]) would be a TypeError
        if cls is None:
            raise Refusal(f"There is no game called '{shown(str(game), 30)}' (games: {', '.join(sorted(GAMES))}).")
        opts = cls.check_options(options)  # refuses a non-dict or any bad value by name
        shown_opts = ", ".join(f"{k}={_option_text(v)}" for k, v in opts.items() if v != cls.OPTIONS.get(k))
        server_seed = self.server_seed()
        sealed = seal(server_seed)
        out = Outbox(
            game_id=0,
            game=game,
            channel_id=channel_id,
            guild_id=guild_id,
            actor_id=creator.id,
            lines=[
                f"{creator.name} opened a {cls.TITLE} table"
                + (f" ({shown_opts})" if shown_opts else "")
                + f". {cls._seat_range()} players: join, then start.",
                open_line(sealed),
            ],
            commitment=sealed,
            seals=True,
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
                        server_seed=server_seed,
                        sealed=sealed,
                        joined=self._joined(joined),
                        entropy=own_text(entropy),
                        parent_id=parent_id,
                    )
                except ChannelTaken as err:
                    raise Refusal("This channel already has a game.") from err
        out.reply = _yours(join_part(self._joined(joined), own_text(entropy)))
        return out

    async def join(
        self, channel_id: str, person: Person, *, joined: str | None = None, entropy: str | None = None
    ) -> Outbox:
        """Seats a player in the channel's lobby; raises Refusal.

        ``joined`` (the join interaction's id) and ``entropy`` (the player's own text) are their part
        of the game's entropy. A seated player who gives text replaces their part (their own text
        changes, the seat does not); the part itself stays private until the start shows them all.
        """
        own = own_text(entropy)
        if entropy is not None and entropy.strip() and not own:
            raise Refusal("That text has nothing that counts as randomness (letters, digits or signs). Nothing"
                          " was changed.")
        async with self.lock(channel_id):
            row = await self._lobby(channel_id)
            seats = await self.store.seats(row.id)
            cls = GAMES[row.game]
            mine = next((s for s in seats if s.player_id == person.id), None)
            if mine is not None and not own:
                raise Refusal("You are already seated at this table.")
            if mine is not None:
                out = self._outbox(row, actor=person, lines=[f"{mine.name} adds randomness of their own."])
                with _saving():
                    try:
                        await self.store.set_seat_entropy(row.id, person.id, joined=self._joined(joined),
                                                          entropy=own, announce=out)
                    except StaleVersion as err:
                        raise Refusal("The game has already started, or its table was closed. Nothing was"
                                      " changed.") from err
                out.reply = _yours(join_part(self._joined(joined) or mine.joined, own))
                return out
            if len(seats) >= cls.MAX_PLAYERS:
                raise Refusal(f"The table is full ({cls.MAX_PLAYERS} players).")
            name = seat_name(person.name, {s.name for s in seats})
            mark = " with randomness of their own" if own else ""
            out = self._outbox(row, actor=person,
                               lines=[f"{name} joins{mark} ({len(seats) + 1}/{cls.MAX_PLAYERS})."])
            with _saving():
                try:
                    await self.store.add_seat(row.id, person.id, name, announce=out, joined=self._joined(joined),
                                              entropy=own)
                except (SeatTaken, StaleVersion) as err:
                    raise Refusal("The table changed meanwhile: look again and retry. Nothing was changed.") from err
            out.reply = _yours(join_part(self._joined(joined), own))
        return out

    def _joined(self, interaction_id: str | None) -> str | None:
        """Returns a join's interaction id as the entropy keeps it (None when tests leave ids out)."""
        return interaction_id if self.join_ids else None

    async def add_bot(self, channel_id: str, person: Person, level: str, count: int = 1) -> Outbox:
        """Seats ``count`` bots of ``level`` in the channel's lobby (asked by a seated player or the creator).

        All in one change with one announcement line, or none: ``count`` bots that do not fit are
        refused and nothing is seated.
        """
        if level not in LEVELS:
            raise Refusal(f"A bot's level is {', '.join(LEVELS)}; not '{shown(level, 20)}'.")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise Refusal(f"Ask for at least one bot; not {shown(str(count), 20)}.")
        async with self.lock(channel_id):
            row = await self._lobby(channel_id)
            seats = await self.store.seats(row.id)
            cls = GAMES[row.game]
            if person.id != row.creator_id and all(s.player_id != person.id for s in seats):
                raise Refusal("Only a seated player or the table's creator can add a bot.")
            if not has_bots(row.game):
                raise Refusal(f"{cls.TITLE} has no bots yet.")
            room = cls.MAX_PLAYERS - len(seats)
            if room <= 0:
                raise Refusal(f"The table is full ({cls.MAX_PLAYERS} players).")
            if count > room:
                raise Refusal(f"The table has room for {room} more player{'s' if room != 1 else ''};"
                              f" {count} bots asked. Nothing was changed.")
            taken, n, new = {s.name for s in seats}, sum(is_bot(s.player_id) for s in seats), []
            for _ in range(count):
                name = seat_name(f"{cls.TITLE} bot ({level})", taken)
                taken.add(name)
                n += 1
                new.append(NewSeat(bot_id(level, n), name, BOT_JOIN))
            seated = f"({len(seats) + count}/{cls.MAX_PLAYERS})"
            line = (f"{person.name} seats {new[0].name} {seated}. It plays its turns at once." if count == 1 else
                    f"{person.name} seats {count} {cls.TITLE} bots ({level}): {', '.join(s.name for s in new)}"
                    f" {seated}. They play their turns at once.")
            out = self._outbox(row, actor=person, lines=[line])
            with _saving():
                try:
                    await self.store.add_seats(row.id, new, announce=out)
                except (SeatTaken, StaleVersion) as err:
                    raise Refusal("The table changed meanwhile: look again and retry. Nothing was changed.") from err
        return out

    async def leave(self, channel_id: str, person: Person) -> Outbox:
        """Unseats a player from the lobby; the lobby closes when nobody is left."""
        async with self.lock(channel_id):
            row = await self.store.active_game(channel_id, snapshot=False)
            if row is None:
                raise NoGame("There is no game in this channel.")
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
        """Starts the lobby's game with the seated players; raises Refusal or GameError.

        The game's entropy is fixed now, from every seat's part in seat order, and shown on the
        start board (:mod:`host.fairness`). ``seed`` (tests only) starts the game on the old
        scheme instead, an integer seed sealed with a salt, as games from before keyed draws.
        """
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
            begins = f"{cls.TITLE} begins: {', '.join(s.name for s in seats)}."
            if seed is not None:  # the old scheme (tests)
                salt = new_salt()
                started = replace(row, status=Status.RUNNING, seed=seed, salt=salt, server_seed=None,
                                  commitment=None, version=0)
                fairness: dict[str, Any] = {"seed": seed, "salt": salt}
                lines = [begins, old_commit_line(seed, salt)]
            else:
                server_seed, lines = row.server_seed, [begins]
                if server_seed is None:  # a lobby opened before keyed draws: sealed now, before the deal
                    server_seed = self.server_seed()
                    lines.append(open_line(seal(server_seed)))
                entropy = game_entropy([s.part for s in seats])
                started = replace(row, status=Status.RUNNING, server_seed=server_seed,
                                  commitment=row.commitment or seal(server_seed), entropy=entropy, version=0)
                fairness = {"entropy": entropy, "server_seed": server_seed, "sealed": started.commitment}
                lines.append(start_line(entropy))
            game = cls.new([s.name for s in seats], started.engine_seed, row.options)
            table = Table(started, seats, game)
            out = self._move_outbox(table, game, game.opening_events(), set(), {}, None, 0, actor=person)
            out.lines[:0] = lines
            with _saving():
                try:
                    await self.store.start_game(
                        row.id, snapshot=game.to_json(), announce=out, clock_at=self.clock(), **fairness
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


def _yours(part: str) -> str:
    """Returns what a player is told their join added to the entropy (only they see it before the start)."""
    return (f"Your join adds \"{part}\" to this game's entropy (your part, in seat order, of what every draw is"
            " keyed with). All parts are shown when the game starts.")
