"""What a table's change announces and leaves behind: its :class:`~host.outbox.Outbox`, its move's log record.

Also the one sentence a player gets when the change cannot be saved.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engines.core import Event, Game, is_public
from host.bot_seats import is_bot
from host.fairness import digest, old_reveal_line, reveal_line
from host.outbox import Outbox
from host.store import GameRow, Seat, StorageUnavailable
from host.table import Person, Table, Unavailable, secret_part


class TablesOutbox:
    """Builds the announcements of the table service's changes (a part of :class:`host.tables.Tables`)."""

    def _move_outbox(
        self,
        table: Table,
        game: Game,
        events: list[Event],
        acting_before: set[str],
        secrets_before: dict[str, dict[str, Any]],
        canonical: str | None,
        version: int,
        *,
        actor: Person | None = None,
    ) -> Outbox:
        out = self._outbox(table.row, table.seats, actor=actor, picture=True, finished=game.is_over)
        out.view, out.move, out.version = game.view(None), canonical, version
        out.events = [e for e in events if is_public(e)]
        for e in events:
            if not is_public(e) and (uid := table.user_of(e["to"])) and not is_bot(uid):
                out.private.setdefault(uid, []).append(e["text"])
        after = {s.name: secret_part(game, s.name) for s in table.seats}
        for s in table.seats:
            if after[s.name] and after[s.name] != secrets_before.get(s.name) and not is_bot(s.player_id):
                out.secrets[s.player_id] = after[s.name]
        table.secrets = after  # a change that fails to commit drops the whole cached table (see _act)
        out.to_act = [uid for name in game.to_act() if (uid := table.user_of(name))]
        out.mention = [
            uid for name in game.to_act()
            if name not in acting_before and (uid := table.user_of(name)) and not is_bot(uid)
        ]
        if game.is_over:  # last, after the move that ended the game, and once
            winners = game.winners
            text = (
                f"Game over: {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}!"
                if winners
                else "Game over: a draw."
            )
            out.events.append({"kind": "game_over", "text": text, "winners": list(winners)})
            reveal = _reveal(table.row)
            if reveal:
                out.events.append({"kind": "fair_dice", "text": reveal})
        return out

    @staticmethod
    def _outbox(
        row: GameRow, seats: list[Seat] | None = None, *, actor: Person | None = None, **fields: Any
    ) -> Outbox:
        names = {s.player_id: s.name for s in seats or []}
        return Outbox(
            game_id=row.id,
            game=row.game,
            channel_id=row.channel_id,
            guild_id=row.guild_id,
            names=names,
            actor_id=actor.id if actor else None,
            commitment=row.sealed,
            entropy=row.entropy,
            **fields,
        )


def _reveal(row: GameRow) -> str | None:
    """Returns the line revealing an ended game's seed (None: a game from before fair dice)."""
    if row.keyed and row.server_seed and row.commitment and row.entropy is not None:
        return reveal_line(row.server_seed, row.commitment, row.entropy)
    if row.seed is not None and row.salt:
        return old_reveal_line(row.seed, row.salt)
    return None


def record_of(events: list[Event], game: Game) -> tuple[str, str]:
    """Returns what a move leaves in the log beside its text: its public events (JSON) and the state's digest."""
    return json.dumps([e for e in events if is_public(e)], separators=(",", ":")), digest(game.dump_state())


@contextmanager
def _saving() -> Iterator[None]:
    """Turns a storage failure into the one sentence a player gets (the admin's log names the file)."""
    try:
        yield
    except StorageUnavailable as err:
        raise Unavailable(f"I can't save moves right now: {err.reason}. Nothing was changed.") from err
