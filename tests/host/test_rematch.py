"""Rematch: the same seats and options, a new seed, started once every player is ready."""

from __future__ import annotations

import pytest

from host.clock import ClockSettings
from host.rematch import Rematches
from host.store import Status, Store
from host.tables import Person, Refusal, Tables
from tests.host.conftest import ANN, BOB, CHANNEL, CY

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""

SEEDS = iter(f"{n:064x}" for n in range(100, 200))


@pytest.fixture
async def service(store: Store, tally_registered: type) -> Tables:
    return Tables(store, debug=True, seeds=lambda: next(SEEDS))


async def finished(tables: Tables, *players: Person) -> int:
    """Plays a Tally race to 3 in CHANNEL, won by the first player; returns the game's id."""
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=players[0], options={"target": 3},
                        clock=ClockSettings(remind_after=3600, timeout=7200, on_timeout="forfeit"))
    for p in players[1:]:
        await tables.join(CHANNEL, p)
    await tables.start(CHANNEL, players[0])
    out = await tables.act(CHANNEL, players[0].id, "add 3")
    assert out.finished
    return out.game_id


async def test_a_rematch_seats_the_same_players_and_starts_when_all_are_ready(service: Tables) -> None:
    old = await finished(service, BOB, ANN, CY)
    rematches = Rematches(service)
    first = await rematches.ready(old, ANN)
    assert (first.ready, first.needed, first.started) == (1, 3, False)
    assert "ann asks for a rematch of Tally: bob, ann, cy are seated" in first.announcements[0].lines[0]
    lobby = await service.store.active_game(CHANNEL, snapshot=False)
    assert lobby is not None and lobby.status is Status.LOBBY and lobby.rematch_of == old
    again = await rematches.ready(old, ANN)  # the same player twice counts once
    assert (again.ready, again.announcements) == (1, [])
    await rematches.ready(old, CY)
    last = await rematches.ready(old, BOB)
    assert last.started and "Tally begins: bob, ann, cy." in last.announcements[-1].lines[0]
    new = await service.table(CHANNEL)
    old_row = await service.store.game(old, snapshot=False)
    assert [s.player_id for s in new.seats] == [BOB.id, ANN.id, CY.id] and new.game.players == ["bob", "ann", "cy"]
    assert new.row.options == {"target": 3} and new.row.creator_id == BOB.id
    assert new.row.server_seed != old_row.server_seed and new.row.commitment != old_row.commitment
    on_timeout = await service.store.db.read(
        lambda tx: tx.fetchval("SELECT on_timeout FROM clocks WHERE game_id = ?", new.row.id))
    assert on_timeout == "forfeit"


async def test_only_a_finished_game_s_players_may_ask_and_not_over_another_game(service: Tables) -> None:
    old = await finished(service, ANN, BOB)
    rematches = Rematches(service)
    with pytest.raises(Refusal, match="Only the players of that game"):
        await rematches.ready(old, CY)
    await service.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=CY, options={})
    with pytest.raises(Refusal, match="another game now"):
        await rematches.ready(old, ANN)
    other = await service.store.active_game(CHANNEL, snapshot=False)
    with pytest.raises(Refusal, match="Only a finished game"):
        await rematches.ready(other.id, CY)
