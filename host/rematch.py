"""Rematch: the players of a finished game play again, same seats and options, a new seed.

The first player to ask opens the lobby, in the game's channel, with every seat of the
old game taken in the same order and the same clock; each player's "ready" is stored
(``rematch_votes``), and the game starts when all of them are. A lobby and its first
vote are one transaction, so two quick clicks open one lobby.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from engines import GAMES
from host import clock
from host.bot_seats import is_bot
from host.clock import ClockSettings
from host.db import Conflict, Tx
from host.fairness import BOT_JOIN, open_line, seal
from host.outbox import Outbox
from host.store import GameRow, Seat, Status, _insert_outbox, now
from host.table import Person, Refusal
from host.tables import Tables


@dataclass
class Rematch:
    """What a "ready" did: the announcements written, and how many players are ready of how many."""

    ready: int
    needed: int
    announcements: list[Outbox] = field(default_factory=list)

    @property
    def started(self) -> bool:
        """True when this "ready" was the last one and the game started."""
        return self.ready >= self.needed


class Rematches:
    """Opens and starts rematches of a table service's finished games."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store

    async def ready(self, game_id: int, person: Person, *, joined: str | None = None) -> Rematch:
        """Counts ``person`` ready for a rematch of ``game_id``; opens its lobby first, starts it last.

        ``joined`` is the id of the click's interaction: the player's part of the new game's entropy.

        Raises Refusal when the game is not finished, the person did not play it, or the
        channel has another game by now.
        """
        old = await self.store.game(game_id, snapshot=False)
        if old is None or old.status is not Status.FINISHED or old.game not in GAMES:
            raise Refusal("Only a finished game can be played again.")
        seats = await self.store.seats(game_id)
        if person.id not in {s.player_id for s in seats}:
            raise Refusal("Only the players of that game can ask for a rematch.")
        written: list[Outbox] = []
        async with self.tables.lock(old.channel_id):
            lobby = await self.store.active_game(old.channel_id, snapshot=False)
            if lobby is not None and lobby.rematch_of != game_id:
                raise Refusal("This channel has another game now: the rematch can't open here.")
            if lobby is not None and lobby.status is not Status.LOBBY:
                raise Refusal("The rematch has already started.")
            settings = await self._clock_of(game_id)
            if lobby is None:
                written.append(await self._open(old, seats, person, settings))
            ready = await self._vote(game_id, person.id, joined)
        result = Rematch(ready, len(seats), written)
        if result.started:
            creator = next((s for s in seats if s.player_id == old.creator_id), seats[0])
            try:
                result.announcements.append(
                    await self.tables.start(old.channel_id, Person(creator.player_id, creator.name))
                )
            except Refusal as err:
                if "already started" not in str(err):
                    raise
        return result

    async def _clock_of(self, game_id: int) -> ClockSettings:
        row = await self.store.db.read(lambda tx: clock.read(tx, game_id))
        return row.settings if row is not None else ClockSettings()

    async def _open(self, old: GameRow, seats: list[Seat], person: Person, settings: ClockSettings) -> Outbox:
        """Opens the rematch lobby with every old seat taken, in one transaction; returns its announcement."""
        cls = GAMES[old.game]
        names = ", ".join(s.name for s in seats)
        out = Outbox(game_id=0, game=old.game, channel_id=old.channel_id, guild_id=old.guild_id, actor_id=person.id,
                     names={s.player_id: s.name for s in seats},
                     lines=[f"{person.name} asks for a rematch of {cls.TITLE}: {names} are seated, with the same"
                            f" options and a new seed. It starts when every player has clicked Rematch.",
                            open_line(sealed := seal(server_seed := self.tables.server_seed()))])
        stamp = now()

        async def work(tx: Tx) -> int:
            new_id = int(await tx.fetchval(
                "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options, created_at, updated_at,"
                " rematch_of, server_seed, commitment, parent_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                old.guild_id, old.channel_id, old.game, old.creator_id, json.dumps(old.options), stamp, stamp, old.id,
                server_seed, sealed, old.parent_id,  # the same thread: its parent channel still points to it
            ))
            await tx.executemany(
                "INSERT INTO seats (game_id, seat, player_id, name, joined) VALUES (?, ?, ?, ?, ?)",
                [(new_id, s.seat, s.player_id, s.name, BOT_JOIN if is_bot(s.player_id) else None) for s in seats],
            )
            await clock.insert(tx, new_id, settings)
            await _insert_outbox(tx, new_id, out)
            return new_id

        try:
            await self.store.db.write(work)
        except Conflict as err:  # another process opened a game here meanwhile
            raise Refusal("This channel has another game now: the rematch can't open here.") from err
        return out

    async def _vote(self, game_id: int, player_id: str, joined: str | None) -> int:
        """Records a player ready (their click joins them to the rematch's entropy); returns how many are."""

        async def work(tx: Tx) -> int:
            await tx.execute("INSERT INTO rematch_votes (game_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                             game_id, player_id)
            if joined is not None:
                await tx.execute(
                    "UPDATE seats SET joined = ? WHERE player_id = ? AND game_id = (SELECT id FROM games"
                    " WHERE rematch_of = ? AND status = 'lobby')", joined, player_id, game_id)
            return int(await tx.fetchval("SELECT COUNT(*) FROM rematch_votes WHERE game_id = ?", game_id))

        return await self.store.db.write(work)
