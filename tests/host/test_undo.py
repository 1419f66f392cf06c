"""/game undo: your own last move, before anyone acts, when it used no chance and revealed nothing."""

from __future__ import annotations

import random

import pytest
from tablehost_climb.engine import Climb

from engines import GAMES
from engines.xisk.ai import choose
from host.tables import Person, Refusal, Tables
from host.undo import UNDO
from host.undo import refusal as undo_refusal
from tests.host.conftest import ANN, BOB, CHANNEL, started_tally

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""


async def open_nxs(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="nxs", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=3)


async def test_undo_takes_back_your_last_move_and_the_log_still_replays(tables: Tables) -> None:
    await open_nxs(tables)
    table = await tables.table(CHANNEL)
    start = table.game.to_json()
    first = next(m for m in table.game.legal_moves("ann") if m.startswith("move"))
    await tables.act(CHANNEL, ANN.id, first)
    out = await tables.undo(CHANNEL, ANN)
    assert out.lines[0] == f"ann takes back their move ({first})." and out.picture
    table = await tables.table(CHANNEL)
    assert table.game.to_json() == start and table.row.version == 2
    log = await tables.store.moves(table.row.id)
    assert [m.move for m in log] == [first, UNDO]
    assert (await tables.replay(table.row.id)).to_json() == (await tables.store.game(table.row.id)).snapshot
    await tables.act(CHANNEL, ANN.id, first)  # play goes on from the position before
    tables.forget(table.row.id)
    assert (await tables.table(CHANNEL)).row.version == 3  # and a reload (debug: replayed) agrees


async def test_undo_is_refused_after_a_die_roll(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    await tables.act(CHANNEL, ANN.id, "roll")
    with pytest.raises(Refusal, match="`roll` cannot be taken back: it used chance"):
        await tables.undo(CHANNEL, ANN)


async def test_undo_is_refused_once_someone_else_has_acted(tables: Tables) -> None:
    await open_nxs(tables)
    for _ in range(2):  # ann's whole turn (move, then rotation), then it is bob's
        table = await tables.table(CHANNEL)
        await tables.act(CHANNEL, ANN.id, table.game.legal_moves("ann")[0])
    table = await tables.table(CHANNEL)
    await tables.act(CHANNEL, BOB.id, next(m for m in table.game.legal_moves("bob") if m.startswith("move")))
    with pytest.raises(Refusal, match="Only your own last move"):
        await tables.undo(CHANNEL, ANN)
    with pytest.raises(Refusal, match="not playing"):
        await tables.undo(CHANNEL, Person("99", "zed"))


async def test_undo_is_refused_after_a_reveal_and_allowed_for_a_placement(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={"cards_per_player": 2})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=4)
    table = await tables.table(CHANNEL)
    claimant = table.game.to_act()[0]
    uid = table.user_of(claimant)
    person = ANN if uid == ANN.id else BOB
    await tables.act(CHANNEL, uid, table.game.legal_moves(claimant)[0])
    with pytest.raises(Refusal, match="it revealed something you held"):  # a claim shows its card
        await tables.undo(CHANNEL, person)
    for _ in range(200):  # on to a Supply phase, where placing a chip reveals nothing
        table = await tables.table(CHANNEL)
        actor = table.game.to_act()[0]
        if table.game.view(None)["phase"] == "supply" and table.game.view(None)["supply_left"] >= 2:
            break
        moves = table.game.legal_moves(actor)
        await tables.act(CHANNEL, table.user_of(actor), next((m for m in moves if m.startswith("place")), moves[0]))
    place = next(m for m in table.game.legal_moves(actor) if m.startswith("place") and m.endswith(" 1"))
    before = table.game.to_json()
    await tables.act(CHANNEL, table.user_of(actor), place)
    mover = ANN if table.user_of(actor) == ANN.id else BOB
    await tables.undo(CHANNEL, mover)
    after = (await tables.table(CHANNEL)).game
    assert GAMES["xisk"].from_json(before).to_json() == after.to_json()


async def test_undo_is_refused_after_an_adjust_that_drew_a_card(tables: Tables) -> None:
    """The adjust that ends a turn with a conquest draws a card from the deck shuffled at the start: no die
    rolls, but the mover has seen the card, so the move stands."""
    await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=4)
    rng = random.Random(0)
    for _ in range(300):
        table = await tables.table(CHANNEL)
        seat = table.game.to_act()[0]
        legal = table.game.legal_moves(seat)
        adjusts = [m for m in legal if m.startswith("adjust ")]
        if table.game.view(None)["phase"] == "adjust" and table.game.dump_state()["conquered"] and adjusts:
            break
        await tables.act(CHANNEL, table.user_of(seat), choose(table.game.view(seat), legal, seat, "normal", rng))
    else:
        pytest.fail("no turn ended with an adjust after a conquest")
    hand = set(table.game.view(seat)["hand"])
    await tables.act(CHANNEL, table.user_of(seat), adjusts[0])
    after = await tables.table(CHANNEL)
    assert set(after.game.view(seat)["hand"]) - hand  # the card drawn for the conquest
    mover = ANN if table.user_of(seat) == ANN.id else BOB
    with pytest.raises(Refusal, match=r"`adjust .*` cannot be taken back: it put something new in your hand"):
        await tables.undo(CHANNEL, mover)
    assert (await tables.table(CHANNEL)).row.version == after.row.version  # nothing changed


def test_a_hand_written_as_numbers_is_guarded_as_a_hand_of_names() -> None:
    """Climb's cards are numbers: drawing one, or playing one onto the pile, cannot be taken back either."""
    game = Climb.new(["ann", "bob"], seed=5)
    before = game.clone()
    game.play("ann", "draw")
    assert undo_refusal(before, game, "ann") == (
        "it put something new in your hand, which you have now seen (a card drawn, say)")
    game = Climb.new(["ann", "bob"], seed=5)
    before = game.clone()
    game.play("ann", next(m for m in game.legal_moves("ann") if m.startswith("play ")))
    assert undo_refusal(before, game, "ann") == "it revealed something you held"
