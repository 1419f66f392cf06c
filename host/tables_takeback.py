"""Takeback by agreement: the player who made the game's last move asks, every other player answers.

``/game takeback`` (:meth:`TablesTakeback.ask_takeback`) asks to take back the latest standing move
of a running game. Only the player who made that move may ask (the refusal says whose it is), and
not for a move the turn clock played. Every other seated person answers
(:meth:`TablesTakeback.answer_takeback`); a bot counts as accepting. One decline ends the request
and the move stands. When everyone has accepted, the move is taken back even though it rolled dice
or showed a card, logged as a ``takeback`` entry of its own: the game goes back to the state before
the move, except its RNG, which stays where the move left it (:mod:`host.undo`).

A request belongs to the game's version when it was asked (the number of log entries): the next
change of the game, a move or an undo, ends it. Requests are stored (table ``takebacks``: one row
per player and request, ``ask``, ``accept`` or ``decline``), so they survive a restart; a player's
first answer is the one that counts. The answer that completes the agreement is not stored: the
takeback's own commit records it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from host.bot_seats import is_bot
from host.db import Tx
from host.outbox import Outbox
from host.store import DuplicateInteraction, MoveRow, StaleVersion, Status
from host.table import Person, Refusal, Stale, Table, secret_part
from host.tables_cache import TablesCache, _replayed
from host.tables_outbox import TablesOutbox, _saving, record_of
from host.undo import TAKEBACK, effective_moves

ASK, ACCEPT, DECLINE = "ask", "accept", "decline"
"""What a row of ``takebacks`` says: the request itself, or one player's answer."""
EXPIRED = "This takeback request has expired: a move was made since."


@dataclass
class Takeback:
    """A takeback request as it stands after an ask or an answer (names are seat names)."""

    game_id: int
    version: int
    """The game's version when it was asked; the request ends when the game moves on."""
    move: str
    """The move asked back, as the log writes it."""
    asker: str
    accepted: list[str] = field(default_factory=list)
    """The people who accepted so far (bots are not listed: they accept without a word)."""
    waiting: list[str] = field(default_factory=list)
    """The people whose answer is still missing."""
    declined_by: str | None = None
    """Who declined: the request has ended and the move stands."""
    done: Outbox | None = None
    """The takeback's announcement, once everyone accepted and it was committed."""
    again: bool = False
    """True when the caller had asked or answered before: their first word stands, nothing changed."""


class TablesTakeback(TablesCache, TablesOutbox):
    """Takeback requests and their answers (a part of :class:`host.tables.Tables`)."""

    async def ask_takeback(self, channel_id: str, person: Person, *, interaction_id: str | None = None) -> Takeback:
        """Asks the other players to let ``person`` take back the game's last move, which must be theirs.

        Returns the request as it stands (``again`` when it was asked already); with no one to
        ask (every other seat a bot) it is taken back at once (``done``). Raises Refusal when there
        is no running game, the caller is not seated, the last move is not theirs or was the
        clock's, or someone declined taking it back already.
        """
        async with self.lock(channel_id):
            table = self._cache.get(channel_id) or await self._running(channel_id, interaction_id)
            row = table.row
            if table.name_of(person.id) is None:
                raise Refusal("You are not playing in this game.")
            log_rows = await self.store.moves(row.id)
            last = _last_move(table, log_rows, person.id)

            async def work(tx: Tx) -> dict[str, str]:
                await tx.execute("DELETE FROM takebacks WHERE game_id = ? AND version <> ?", row.id, row.version)
                await tx.execute("INSERT INTO takebacks (game_id, version, player_id, answer) VALUES (?, ?, ?, ?)"
                                 " ON CONFLICT DO NOTHING", row.id, row.version, person.id, ASK)
                return await _answers(tx, row.id, row.version)

            before = await self._read_answers(row.id, row.version)
            with _saving():
                answers = await self.store.db.write(work)
            request = _request(table, last, answers)
            request.again = ASK in before.values()
            if request.declined_by is not None:
                raise Refusal(f"{request.declined_by} declined taking back `{last.move}`: it stands.")
            if not request.waiting:
                request.done = await self._take_back(table, log_rows, last, person, interaction_id)
            return request

    async def answer_takeback(
        self, channel_id: str, person: Person, game_id: int, version: int, *, accept: bool,
        interaction_id: str | None = None,
    ) -> Takeback:
        """Records ``person``'s answer to the request asked in game ``game_id`` at ``version``.

        Returns the request as it stands: declined, still waiting, or taken back (``done``, when
        this answer was the last acceptance). A second answer of the same person changes nothing
        (``again``). Raises Stale when the game has ended or moved on since (the request expired),
        and Refusal for the asker and for anyone not seated.
        """
        async with self.lock(channel_id):
            row = await self.store.active_game(channel_id, snapshot=False)
            if row is None or row.id != game_id or row.status is not Status.RUNNING:
                raise Stale("This game has ended.")
            if row.version != version:
                raise Stale(EXPIRED)
            table = await self._load(row, await self.store.seats(row.id))  # the cached engine when it is current
            answers = await self._read_answers(row.id, version)
            log_rows = await self.store.moves(row.id)
            standing = effective_moves(log_rows)
            asker = next((uid for uid, answer in answers.items() if answer == ASK), None)
            if asker is None or not standing or standing[-1].player_id != asker:
                raise Stale("This takeback request has ended.")
            last = standing[-1]
            if person.id == asker:
                raise Refusal(f"You asked to take back `{last.move}`: the other players answer.")
            name = table.name_of(person.id)
            if name is None:
                raise Refusal("Only the other players of this game answer its takeback requests.")
            request = _request(table, last, answers)
            if request.declined_by is not None or person.id in answers:
                request.again = True
            elif accept and request.waiting == [name]:  # the last one: the takeback's commit records it
                request.waiting, request.accepted = [], [*request.accepted, name]
            else:
                with _saving():
                    answers = await self.store.db.write(lambda tx: _answer(tx, game_id, version, person.id, accept))
                request = _request(table, last, answers)
            if request.declined_by is None and not request.waiting:
                request.done = await self._take_back(table, log_rows, last, person, interaction_id)
            return request

    async def _read_answers(self, game_id: int, version: int) -> dict[str, str]:
        return await self.store.db.read(lambda tx: _answers(tx, game_id, version))

    async def _take_back(self, table: Table, log_rows: list[MoveRow], last: MoveRow, actor: Person,
                         interaction_id: str | None) -> Outbox:
        """Commits the takeback of ``last`` (everyone agreed) with its announcement; returns the announcement."""
        row, game = table.row, table.game
        assert game is not None
        after = _replayed(row, table.seats, log_rows, then=TAKEBACK)
        secrets_before = {s.name: secret_part(game, s.name) for s in table.seats}
        version = row.version + 1
        taken = Table(row, table.seats, after)
        out = self._move_outbox(taken, after, [], set(game.to_act()), secrets_before, TAKEBACK, version,
                                actor=actor)
        out.lines.insert(0, f"Takeback accepted by everyone: `{last.move}` is taken back.")
        self._cache.pop(row.channel_id, None)
        with _saving():
            try:
                await self.store.commit_move(
                    row.id, expected_version=row.version, player_id=last.player_id, move=TAKEBACK,
                    snapshot=after.to_json(), interaction_id=interaction_id, finished=False, announce=out,
                    record=record_of([], after), clock_at=self.clock(),
                )
            except DuplicateInteraction:
                return self._outbox(row, lines=["That was already done."], duplicate=True)
            except StaleVersion as err:  # another process changed the game meanwhile
                raise Stale(EXPIRED) from err
        taken.row = replace(row, version=version)
        self._remember(taken)
        self._changed(row.channel_id)
        return out


def _last_move(table: Table, log_rows: list[MoveRow], user_id: str) -> MoveRow:
    """Returns the game's latest standing move when ``user_id`` may ask to take it back; raises Refusal."""
    standing = effective_moves(log_rows)
    if not standing:
        raise Refusal("No move has been played yet: there is nothing to take back.")
    last = standing[-1]
    if last.player_id != user_id:
        raise Refusal(f"Only the player who made the last move may ask to take it back: `{last.move}` is"
                      f" {table.name_of(last.player_id) or 'another player'}'s.")
    if last.origin == "clock":
        raise Refusal(f"`{last.move}` was played by the turn clock when your time ran out: it stands.")
    return last


def _request(table: Table, last: MoveRow, answers: dict[str, str]) -> Takeback:
    """Returns the request for ``last`` as the stored answers (user id → answer) make it."""
    asker = table.name_of(last.player_id) or "?"
    others = [s for s in table.seats if s.player_id != last.player_id and not is_bot(s.player_id)]
    declined = next((s.name for s in others if answers.get(s.player_id) == DECLINE), None)
    return Takeback(
        game_id=table.row.id, version=table.row.version, move=last.move, asker=asker,
        accepted=[s.name for s in others if answers.get(s.player_id) == ACCEPT],
        waiting=[s.name for s in others if s.player_id not in answers],
        declined_by=declined,
    )


async def _answers(tx: Tx, game_id: int, version: int) -> dict[str, str]:
    rows = await tx.fetch("SELECT player_id, answer FROM takebacks WHERE game_id = ? AND version = ?", game_id,
                          version)
    return {str(r["player_id"]): str(r["answer"]) for r in rows}


async def _answer(tx: Tx, game_id: int, version: int, player_id: str, accept: bool) -> dict[str, str]:
    """Stores a player's first answer (a later one changes nothing); returns every answer of the request."""
    await tx.execute("INSERT INTO takebacks (game_id, version, player_id, answer) VALUES (?, ?, ?, ?)"
                     " ON CONFLICT DO NOTHING", game_id, version, player_id, ACCEPT if accept else DECLINE)
    return await _answers(tx, game_id, version)
