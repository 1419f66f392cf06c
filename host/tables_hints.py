"""The coach: ``/game hint`` for the player to act, and the creator's switch, ``/table hints on|off``.

A hint is the normal bot's move for the seat, from the seat's own view (:meth:`host.thinker.Thinker.hint`),
with one line of why when the game's policy gives one. It is offered in a game that cannot be
rated anyway (fewer than :data:`host.ratings.MIN_HUMANS` people seated) and in one whose creator
turned hints on; only the player who must act gets one, and only they see it.

The first hint of a game marks it ``hinted`` (:mod:`host.store_hints`) before the hint is
told, and then the game does not count for the ratings ("a hint was taken"). A game that would
otherwise be rated says so on its live board from then on (:data:`HINTED_LINE`): the hint's
announcement edits the board, adding a line to the turn's recap, and every board after it
carries the note (:meth:`TablesHints.unrated_note`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.ai import has_bots
from host.outbox import Outbox
from host.ratings import enough_humans
from host.store import StaleVersion, Status
from host.store_hints import Hints, HintState
from host.table import NoGame, Person, Refusal, Table, secret_part
from host.tables_cache import TablesCache, _title
from host.tables_outbox import TablesOutbox, _saving

HINTED_LINE = "Unrated: a hint was taken"
"""The note a hinted game's boards carry (when it would otherwise be rated)."""
TAKEN = "A hint was taken: this game is unrated now."
"""The line the first hint adds to the live board's recap."""
HINTS_OFF = ("Hints are off in rated games; the table's creator can turn them on with /table hints on"
             " (a hint then makes the game unrated).")


@dataclass(frozen=True)
class Hint:
    """The coach's answer to the player to act: a move in the game's notation, and why (may be "")."""

    move: str
    why: str
    unrated: bool = False
    """True when this hint was the game's first and made a game that would be rated unrated."""
    out: Outbox | None = None
    """The first hint's announcement (it edits the live board), committed with the mark; else None."""


class TablesHints(TablesCache, TablesOutbox):
    """Hints for the player to act, and the switch that allows them (a part of :class:`host.tables.Tables`)."""

    @property
    def hints(self) -> Hints:
        """The store's hint columns."""
        return Hints(self.store)

    async def hint(self, channel_id: str, person: Person) -> Hint:
        """Returns the coach's move for ``person``, who must act in the channel's running game.

        The first hint marks the game hinted, committed (with the board's announcement when the
        game would be rated) before this returns. Raises Refusal when there is no running game,
        the caller is not seated or not to act, the game has no coach, or hints are off in a game
        that could be rated; then nothing changes.
        """
        table = await self.table(channel_id)
        row, game = table.row, table.game
        if row.status is Status.LOBBY or game is None:
            raise Refusal("The game has not started yet: a hint is for the player to act once it runs.")
        if row.status is not Status.RUNNING or game.is_over:
            raise Refusal("This game has ended: there is no move to hint.")
        seat = table.name_of(person.id)
        if seat is None:
            raise Refusal("You are not playing in this game: a hint is for the player to act.")
        acting = game.to_act()
        if seat not in acting:
            raise Refusal(f"It is {' and '.join(acting)}'s turn, not yours: a hint is for the player to act.")
        if not has_bots(row.game):
            raise Refusal(f"{table.title} has no coach yet.")
        state = await self.hints.get(row.id)
        rated = enough_humans(s.player_id for s in table.seats)
        if rated and not state.allowed:
            raise Refusal(HINTS_OFF)
        choice = await self.thinker.hint(game, seat)  # off the loop, on a copy; the game may move meanwhile
        out, first = await self._mark_hinted(table, state, rated)
        return Hint(choice.move, choice.why, unrated=first and rated, out=out)

    async def _mark_hinted(self, table: Table, state: HintState, rated: bool) -> tuple[Outbox | None, bool]:
        """Marks the game hinted (once) if it is still where the hint was thought; returns the board's
        announcement (a game that would be rated) and whether this call marked it."""
        row, game = table.row, table.game
        assert game is not None
        moved_on = Refusal("The game moved on while the coach thought: ask again.")
        async with self.lock(row.channel_id):
            if state.hinted:
                current = await self.store.game(row.id, snapshot=False)
                if current is None or (current.status, current.version) != (Status.RUNNING, row.version):
                    raise moved_on
                return None, False
            out = None
            if rated:
                secrets = {s.name: secret_part(game, s.name) for s in table.seats}
                out = self._move_outbox(table, game, [], set(game.to_act()), secrets, None, row.version)
                out.lines = [TAKEN]
            with _saving():
                try:
                    first = await self.hints.mark(row.id, row.version, announce=out)
                except StaleVersion as err:
                    raise moved_on from err
        return (out if first else None), first

    async def set_hints(self, channel_id: str, person: Person, allowed: bool, *, manager: bool = False) -> Outbox:
        """Turns hints on or off in the channel's game (lobby or running), for its creator or a ``manager``.

        Returns the announcement (a public line), committed. Raises Refusal for anyone else, for a
        game without a coach, and when hints already are so; then nothing changes.
        """
        async with self.lock(channel_id):
            row = await self.store.active_game(channel_id, snapshot=False)
            if row is None:
                raise NoGame("There is no game in this channel to turn hints on or off.")
            if person.id != row.creator_id and not manager:
                raise Refusal("Only the game's creator or someone with Manage Channels can turn hints on or off.")
            if not has_bots(row.game):
                raise Refusal(f"{_title(row)} has no coach yet, so it has no hints.")
            state = await self.hints.get(row.id)
            if state.allowed == allowed:
                raise Refusal(f"Hints are already {'on' if allowed else 'off'} in this game.")
            out = self._outbox(row, await self.store.seats(row.id), actor=person, lines=[_switch_line(allowed, state)])
            with _saving():
                try:
                    await self.hints.allow(row.id, allowed, announce=out)
                except StaleVersion as err:
                    raise Refusal("The game ended meanwhile. Nothing was changed.") from err
        return out

    async def unrated_note(self, out: Outbox) -> str | None:
        """Returns :data:`HINTED_LINE` for a board of a hinted game that would otherwise be rated, else None.

        ``out.names`` holds the game's seats; a game with too few people, or no coach, is not read.
        """
        if not enough_humans(out.names) or not has_bots(out.game):
            return None
        return HINTED_LINE if (await self.hints.get(out.game_id)).hinted else None


def _switch_line(allowed: bool, state: HintState) -> str:
    if allowed:
        return "Hints are on: a hint makes the game unrated."
    return "Hints are off: no more hints in this game." + (" It stays unrated: a hint was taken." if state.hinted
                                                           else "")
