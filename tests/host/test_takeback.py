"""/game takeback: the last move's player asks, everyone else agrees, and the move is taken back, dice and all.

The RNG does not go back with the move: the game is as before it, but its draw counter stays
where the move left it, in the live game and in every replay (the store's, the export's, --verify's).
"""

from __future__ import annotations

import random
import re

import pytest

from engines.core.rng import recording
from engines.xisk.ai import choose
from host.export import export_game, load_export
from host.fairness import digest
from host.replay import game_frames, turn_views
from host.store import Store
from host.tables import Person, Refusal, Stale, Table, Tables
from host.tables_takeback import EXPIRED
from host.undo import TAKEBACK, effective_moves
from host.verify import TAKEN_BACK, verify
from tests.host.conftest import ANN, BOB, CHANNEL, CY

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""

SEED = "5a" * 32
"""Every table's server seed here: keyed draws, the same dice on every run."""
PEOPLE = {p.name: p for p in (ANN, BOB, CY)}


@pytest.fixture
async def tables(store: Store, tally_registered: type) -> Tables:
    """A table service in debug mode (every load replays the log) whose tables deal alike on every run."""
    return Tables(store, debug=True, seeds=lambda: SEED, join_ids=False)


async def open_xisk(tables: Tables, *people: Person, options: dict[str, object] | None = None) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=people[0],
                        options={"cards_per_player": 1} if options is None else options)
    for p in people[1:]:
        await tables.join(CHANNEL, p)
    await tables.start(CHANNEL, people[0])


async def to_an_attack(tables: Tables) -> tuple[Table, str, Person]:
    """Plays the claims and the supply (all chips on one country) until the player to act may attack.

    Returns the table then, the attack and the person whose it is.
    """
    for _ in range(60):
        table = await tables.table(CHANNEL)
        assert table.game is not None
        seat = table.game.to_act()[0]
        legal = table.game.legal_moves(seat)
        attacks = [m for m in legal if m.startswith("attack ")]
        if attacks:
            return table, attacks[0], PEOPLE[seat]
        places = [m for m in legal if m.startswith("place ")]
        move = max(places, key=lambda m: int(m.split()[2])) if places else legal[0]
        await tables.act(CHANNEL, PEOPLE[seat].id, move)
    raise AssertionError("no attack within 60 moves")


async def attacked(tables: Tables, people: tuple[Person, ...] = (ANN, BOB, CY)) -> tuple[str, Person, dict, dict]:
    """Opens XISK, plays on to an attack and makes it; returns the attack, its player, the states before and after."""
    await open_xisk(tables, *people)
    table, attack, mover = await to_an_attack(tables)
    assert table.game is not None
    before = table.game.dump_state()
    await tables.act(CHANNEL, mover.id, attack)
    after = (await tables.table(CHANNEL)).game
    assert after is not None
    return attack, mover, before, after.dump_state()


def exactly(text: str) -> str:
    """Returns the pattern that matches ``text`` and nothing else (for ``pytest.raises``)."""
    return f"^{re.escape(text)}$"


def others(mover: Person, people: tuple[Person, ...] = (ANN, BOB, CY)) -> list[Person]:
    return [p for p in people if p != mover]


async def test_takeback_all_accept_undoes_after_dice(tables: Tables) -> None:
    attack, mover, before, after = await attacked(tables)
    assert after["rng"]["counter"] > before["rng"]["counter"]  # the battle rolled dice
    first, second = others(mover)
    asked = await tables.ask_takeback(CHANNEL, mover)
    assert (asked.move, asked.asker, asked.waiting, asked.done) == (attack, mover.name, [first.name, second.name], None)
    half = await tables.answer_takeback(CHANNEL, first, asked.game_id, asked.version, accept=True)
    assert (half.accepted, half.waiting, half.done) == ([first.name], [second.name], None)
    done = await tables.answer_takeback(CHANNEL, second, asked.game_id, asked.version, accept=True)
    assert done.done is not None and done.done.lines[0] == f"Takeback accepted by everyone: `{attack}` is taken back."
    assert done.done.picture and done.done.version == asked.version + 1
    table = await tables.table(CHANNEL)
    assert table.game is not None
    now = table.game.dump_state()
    assert {k: v for k, v in now.items() if k != "rng"} == {k: v for k, v in before.items() if k != "rng"}
    assert now["rng"] == after["rng"]  # the draws stay drawn
    with recording() as draws:  # the same attack again: new draws, numbered on from the first attack's
        await tables.act(CHANNEL, mover.id, attack)
    assert draws and min(n for n, _, _ in draws) == after["rng"]["counter"] + 1


async def test_takeback_replays_as_live_after_a_reload(tables: Tables) -> None:
    """The store's replay (debug: every load) gives the live game, its RNG carried over the takeback."""
    _, mover, _, _ = await attacked(tables)
    asked = await tables.ask_takeback(CHANNEL, mover)
    for p in others(mover):
        await tables.answer_takeback(CHANNEL, p, asked.game_id, asked.version, accept=True)
    live = (await tables.table(CHANNEL)).game
    assert live is not None
    assert (await tables.replay(asked.game_id)).to_json() == live.to_json()
    tables.forget(asked.game_id)
    again = await tables.table(CHANNEL)  # debug: replayed and compared with the snapshot, or marked broken
    assert again.game is not None and again.game.to_json() == live.to_json() and not again.row.broken
    row = await tables.store.game(asked.game_id, snapshot=False)
    assert row is not None
    frames = turn_views(row.game, *await game_frames(tables.store, row))
    assert frames[-1].view == live.view(None)


async def test_takeback_logged_as_own_entry(tables: Tables) -> None:
    attack, mover, _, _ = await attacked(tables)
    asked = await tables.ask_takeback(CHANNEL, mover)
    for p in others(mover):
        await tables.answer_takeback(CHANNEL, p, asked.game_id, asked.version, accept=True)
    log = await tables.store.moves(asked.game_id)
    assert [m.move for m in log[-2:]] == [attack, TAKEBACK] and TAKEBACK == "takeback"
    assert log[-1].player_id == mover.id and log[-1].origin is None and log[-1].seq == asked.version + 1
    assert effective_moves(log) == log[:-2]  # the attack no longer stands
    live = (await tables.table(CHANNEL)).game
    assert live is not None and log[-1].digest == digest(live.dump_state()) and log[-1].events == "[]"


async def test_takeback_one_declines_move_stands(tables: Tables) -> None:
    attack, mover, _, after = await attacked(tables)
    first, second = others(mover)
    asked = await tables.ask_takeback(CHANNEL, mover)
    declined = await tables.answer_takeback(CHANNEL, first, asked.game_id, asked.version, accept=False)
    assert (declined.declined_by, declined.done) == (first.name, None)
    late = await tables.answer_takeback(CHANNEL, second, asked.game_id, asked.version, accept=True)
    assert late.again and late.declined_by == first.name and late.done is None  # it ended with the decline
    table = await tables.table(CHANNEL)
    assert table.game is not None and table.game.dump_state() == after and table.row.version == asked.version
    with pytest.raises(Refusal, match=exactly(f"{first.name} declined taking back `{attack}`: it stands.")):
        await tables.ask_takeback(CHANNEL, mover)


async def test_takeback_expires_on_next_move(tables: Tables) -> None:
    attack, mover, _, _ = await attacked(tables)
    first, _ = others(mover)
    asked = await tables.ask_takeback(CHANNEL, mover)
    table = await tables.table(CHANNEL)
    assert table.game is not None
    await tables.act(CHANNEL, mover.id, next(m for m in table.game.legal_moves(mover.name) if m != attack))
    with pytest.raises(Stale, match=exactly(EXPIRED)):
        await tables.answer_takeback(CHANNEL, first, asked.game_id, asked.version, accept=True)
    assert EXPIRED == "This takeback request has expired: a move was made since."
    fresh = await tables.ask_takeback(CHANNEL, mover)  # the new last move may be asked about afresh
    assert fresh.version == asked.version + 1 and not fresh.again and fresh.accepted == []


async def test_takeback_only_others_may_answer(tables: Tables) -> None:
    attack, mover, _, _ = await attacked(tables)
    first, _ = others(mover)
    whose = f"Only the player who made the last move may ask to take it back: `{attack}` is {mover.name}'s."
    with pytest.raises(Refusal, match=exactly(whose)):
        await tables.ask_takeback(CHANNEL, first)
    with pytest.raises(Refusal, match=exactly("You are not playing in this game.")):
        await tables.ask_takeback(CHANNEL, Person("99", "zed"))
    asked = await tables.ask_takeback(CHANNEL, mover)
    with pytest.raises(Refusal, match=exactly(f"You asked to take back `{attack}`: the other players answer.")):
        await tables.answer_takeback(CHANNEL, mover, asked.game_id, asked.version, accept=True)
    with pytest.raises(Refusal, match=exactly("Only the other players of this game answer its takeback requests.")):
        await tables.answer_takeback(CHANNEL, Person("99", "zed"), asked.game_id, asked.version, accept=True)
    with pytest.raises(Stale, match=exactly("This game has ended.")):
        await tables.answer_takeback(CHANNEL, first, asked.game_id + 1, asked.version, accept=True)
    assert (await tables.table(CHANNEL)).row.version == asked.version  # nothing changed


async def test_a_second_answer_of_the_same_player_changes_nothing(tables: Tables) -> None:
    _, mover, _, _ = await attacked(tables)
    first, second = others(mover)
    asked = await tables.ask_takeback(CHANNEL, mover)
    await tables.answer_takeback(CHANNEL, first, asked.game_id, asked.version, accept=True)
    again = await tables.answer_takeback(CHANNEL, first, asked.game_id, asked.version, accept=False)
    assert again.again and again.declined_by is None and again.accepted == [first.name]
    repeat = await tables.ask_takeback(CHANNEL, mover)
    assert repeat.again and repeat.accepted == [first.name] and repeat.waiting == [second.name]


async def test_takeback_survives_restart(tables: Tables, db_path: str) -> None:
    _, mover, before, after = await attacked(tables)
    first, second = others(mover)
    asked = await tables.ask_takeback(CHANNEL, mover)
    await tables.answer_takeback(CHANNEL, first, asked.game_id, asked.version, accept=True)
    store = await Store.open(db_path)  # another start of the bot: nothing of the request is in memory
    try:
        restarted = Tables(store, debug=True)
        done = await restarted.answer_takeback(CHANNEL, second, asked.game_id, asked.version, accept=True)
        assert done.done is not None and done.accepted == [first.name, second.name]
        game = (await restarted.table(CHANNEL)).game
        assert game is not None and game.dump_state() == {**before, "rng": after["rng"]}
    finally:
        await store.close()


async def test_bots_accept_a_takeback_at_once(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.add_bot(CHANNEL, ANN, "easy")
    await tables.start(CHANNEL, ANN)
    await tables.act(CHANNEL, ANN.id, "roll")
    asked = await tables.ask_takeback(CHANNEL, ANN)
    assert asked.waiting == [] and asked.done is not None
    table = await tables.table(CHANNEL)
    assert table.game is not None and table.game.to_act() == ["ann"] and table.game.view(None)["rolls"] == []


async def test_the_clock_s_move_cannot_be_asked_back(tables: Tables) -> None:
    from host.clock import ClockSettings

    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN)
    row = await tables.store.active_game(CHANNEL, snapshot=False)
    assert row is not None and await tables.time_out(row.id, row.version, ClockSettings()) is not None
    clock = "`add 1` was played by the turn clock when your time ran out: it stands."
    with pytest.raises(Refusal, match=exactly(clock)):
        await tables.ask_takeback(CHANNEL, ANN)


async def test_an_undo_never_goes_back_past_a_takeback_s_draws(tables: Tables) -> None:
    """After the attack is taken back, the placement before it is the last move; undoing it would roll the
    taken-back dice again, so the undo rule refuses it as chance."""
    _, mover, _, _ = await attacked(tables)
    asked = await tables.ask_takeback(CHANNEL, mover)
    for p in others(mover):
        await tables.answer_takeback(CHANNEL, p, asked.game_id, asked.version, accept=True)
    last = effective_moves(await tables.store.moves(asked.game_id))[-1]
    assert last.player_id == mover.id and last.move.startswith("place ")
    with pytest.raises(Refusal, match="cannot be taken back: it used chance"):
        await tables.undo(CHANNEL, mover)


async def test_takeback_of_a_card_drawn_gives_back_the_hand_before(tables: Tables) -> None:
    """The adjust that ends a turn with a conquest draws a card: taken back, the hand is as before the move
    (the card goes back on the deck, which its drawer saw), and the new hand is what the DM shows."""
    await open_xisk(tables, ANN, BOB, options={})
    rng = random.Random(0)
    for _ in range(300):
        table = await tables.table(CHANNEL)
        assert table.game is not None
        seat = table.game.to_act()[0]
        legal = table.game.legal_moves(seat)
        adjusts = [m for m in legal if m.startswith("adjust ")]
        if table.game.view(None)["phase"] == "adjust" and table.game.dump_state()["conquered"] and adjusts:
            break
        await tables.act(CHANNEL, PEOPLE[seat].id, choose(table.game.view(seat), legal, seat, "normal", rng))
    else:
        pytest.fail("no turn ended with an adjust after a conquest")
    mover = PEOPLE[seat]
    hand = table.game.view(seat)["hand"]
    state = table.game.dump_state()
    await tables.act(CHANNEL, mover.id, adjusts[0])
    drawn = (await tables.table(CHANNEL)).game
    assert drawn is not None and sorted(drawn.view(seat)["hand"]) != sorted(hand)  # the card drawn
    asked = await tables.ask_takeback(CHANNEL, mover)
    [other] = others(mover, (ANN, BOB))
    done = await tables.answer_takeback(CHANNEL, other, asked.game_id, asked.version, accept=True)
    game = (await tables.table(CHANNEL)).game
    assert game is not None and game.view(seat)["hand"] == hand
    assert {k: v for k, v in game.dump_state().items() if k != "rng"} == {k: v for k, v in state.items() if k != "rng"}
    assert done.done is not None and done.done.secrets[mover.id]["hand"] == hand  # the hand DM is put back


async def test_takeback_replays_and_verifies(tables: Tables) -> None:
    """An export of a game with a takeback after dice verifies: its log, its draws (those of the move taken
    back too, which the counter skips), its end."""
    attack, mover, _, after = await attacked(tables)
    asked = await tables.ask_takeback(CHANNEL, mover)
    for p in others(mover):
        await tables.answer_takeback(CHANNEL, p, asked.game_id, asked.version, accept=True)
    await tables.act(CHANNEL, mover.id, attack)  # rolled again: new dice
    await tables.abort(CHANNEL, ANN, can_manage=True)
    data = load_export(await _text(tables, asked.game_id))
    report = verify(data)
    assert report.ok, report.text()
    [back] = [m for m in report.moves if m.move == TAKEBACK]
    assert back.status == TAKEN_BACK and back.detail.startswith(f"takes back move {asked.version} ({attack})")
    assert "by agreement" in back.detail
    assert data.draws is not None and after["rng"]["counter"] in [n for n, _, _ in data.draws]


async def test_verify_refuses_a_takeback_of_another_player_s_move(tables: Tables) -> None:
    _, mover, _, _ = await attacked(tables)
    asked = await tables.ask_takeback(CHANNEL, mover)
    for p in others(mover):
        await tables.answer_takeback(CHANNEL, p, asked.game_id, asked.version, accept=True)
    await tables.abort(CHANNEL, ANN, can_manage=True)
    raw = await export_game(tables.store, asked.game_id)
    other = others(mover)[0].name
    raw["moves"][-1]["player"] = other
    raw.pop("signature", None)
    report = verify(load_export(_dump(raw)))
    assert not report.ok
    assert report.reasons[0] == (f"move {asked.version + 1} ({other}: takeback): move: the host refuses to take"
                                 f" back move {asked.version} ({raw['moves'][-2]['move']}): it is {mover.name}'s"
                                 f" move, not {other}'s")


async def _text(tables: Tables, game_id: int) -> str:
    from host.export import export_text

    return export_text(await export_game(tables.store, game_id))


def _dump(data: dict) -> str:
    import json

    return json.dumps(data)
