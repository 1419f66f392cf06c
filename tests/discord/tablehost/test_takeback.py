"""/game takeback on Discord: the question with [Accept] [Decline], who may answer, its end, a restart."""

from __future__ import annotations

from cogs.client import Tablehost
from host.store import Store
from host.tables import Table, Tables
from tests.discord.tablehost.helpers import said
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentMessage

USERS = {"Ann": "ann", "Bob": "bob", "Cy": "cy"}
EXPIRED = "This takeback request has expired: a move was made since."


async def table_of(dt: DiscordTest, tables: Tables) -> Table:
    return await tables.table(str(dt.channel("general").id))


async def to_an_attack(dt: DiscordTest, tables: Tables) -> tuple[str, str]:
    """Opens XISK for Ann, Bob and Cy (a card each) and plays on to an attack, which is made.

    Returns the attack and the user who made it.
    """
    await dt.slash("xisk", "new", user="ann", cards_per_player=1)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "join", user="cy")
    await dt.slash("game", "start", user="ann")
    for _ in range(60):
        table = await table_of(dt, tables)
        assert table.game is not None
        seat = table.game.to_act()[0]
        legal = table.game.legal_moves(seat)
        attacks = [m for m in legal if m.startswith("attack ")]
        places = [m for m in legal if m.startswith("place ")]
        move = attacks[0] if attacks else max(places, key=lambda m: int(m.split()[2])) if places else legal[0]
        record = await dt.slash("game", "play", user=USERS[seat], move=move)
        assert record.content == f"Played `{move}`.", record.content
        if attacks:
            return move, USERS[seat]
    raise AssertionError("no attack within 60 moves")


def others(mover: str) -> list[str]:
    return [u for u in USERS.values() if u != mover]


async def asked(dt: DiscordTest, mover: str) -> SentMessage:
    """Runs /game takeback for ``mover``; returns the question it posted."""
    record = await dt.slash("game", "takeback", user=mover)
    assert record.ephemeral and record.content.startswith("Asked: waiting for "), record.content
    question = dt.messages("general")[-1]
    assert [b["label"] for b in question.buttons()] == ["Accept", "Decline"]
    return question


async def test_takeback_all_accept_undoes_after_dice(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    attack, mover = await to_an_attack(dt, tables)
    rolled = (await table_of(dt, tables)).game
    assert rolled is not None
    first, second = others(mover)
    question = await asked(dt, mover)
    assert question.content == (f"{mover.title()} asks to take back `{attack}`. {first.title()}, {second.title()}:"
                                " accept or decline.")
    assert question.pinged == []
    half = await dt.click(question, "Accept", user=first)
    assert half.ephemeral and half.content == f"Noted: you accept. Waiting for {second.title()}."
    assert question.content.endswith(f"accept or decline. Accepted: {first.title()}.") and question.buttons()
    done = await dt.click(question, "Accept", user=second)
    assert done.content == "Done."
    assert question.content == f"Takeback accepted by everyone: `{attack}` is taken back." and question.buttons() == []
    table = await table_of(dt, tables)
    board = [m for m in dt.messages("general") if m.files][-1]  # the live board, edited: the new picture
    assert board.files[0].filename == f"xisk-{table.row.id}-{table.row.version}.webp"
    assert f"Takeback accepted by everyone: \\`{attack}\\` is taken back." in said(board)  # escaped
    game = table.game
    assert game is not None and attack in game.legal_moves(mover.title())  # the attack may be made again
    state, before = game.dump_state(), rolled.dump_state()
    assert state["rng"] == before["rng"] and state != before  # the draws stay drawn; the battle is gone


async def test_takeback_one_declines_move_stands(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    attack, mover = await to_an_attack(dt, tables)
    version = (await table_of(dt, tables)).row.version
    first, _ = others(mover)
    question = await asked(dt, mover)
    record = await dt.click(question, "Decline", user=first)
    assert record.ephemeral and record.content == "Noted: you decline."
    assert question.content == f"{first.title()} declined: the move stands." and question.buttons() == []
    assert (await table_of(dt, tables)).row.version == version
    again = await dt.slash("game", "takeback", user=mover)
    assert again.content == f"{first.title()} declined taking back `{attack}`: it stands."


async def test_takeback_expires_on_next_move(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    attack, mover = await to_an_attack(dt, tables)
    question = await asked(dt, mover)
    table = await table_of(dt, tables)
    assert table.game is not None
    move = next(m for m in table.game.legal_moves(mover.title()) if m.startswith("attack ") and m != attack)
    await dt.slash("game", "play", user=mover, move=move)
    record = await dt.click(question, "Accept", user=others(mover)[0])
    assert record.ephemeral and record.content == EXPIRED
    assert question.buttons() == []
    assert (await table_of(dt, tables)).row.version == table.row.version + 1  # only the move


async def test_takeback_only_others_may_answer(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    attack, mover = await to_an_attack(dt, tables)
    version = (await table_of(dt, tables)).row.version
    refused = await dt.slash("game", "takeback", user=others(mover)[0])
    assert refused.ephemeral and refused.content == (
        f"Only the player who made the last move may ask to take it back: `{attack}` is {mover.title()}'s.")
    question = await asked(dt, mover)
    own = await dt.click(question, "Accept", user=mover)
    assert own.ephemeral and own.content == f"You asked to take back `{attack}`: the other players answer."
    dt.fake.add_user("dave")
    stranger = await dt.click(question, "Decline", user="dave")
    assert stranger.ephemeral
    assert stranger.content == "Only the other players of this game answer its takeback requests."
    assert question.buttons() and "declined" not in question.content  # nothing changed
    first, _ = others(mover)
    await dt.click(question, "Accept", user=first)
    twice = await dt.click(question, "Decline", user=first)
    assert twice.content == "You have answered already: your first answer stands."
    assert "declined" not in question.content and (await table_of(dt, tables)).row.version == version


async def test_takeback_survives_restart(discord_test: DiscordTest, tables: Tables, db_file: str) -> None:
    dt = discord_test
    attack, mover = await to_an_attack(dt, tables)
    first, second = others(mover)
    question = await asked(dt, mover)
    await dt.click(question, "Accept", user=first)
    await dt.stop_bot()
    store = await Store.open(db_file)
    try:
        await dt.start_bot(
            lambda: Tablehost(tables=Tables(store, debug=True), threads_by_default=False, edit_every=0.0))
        done = await dt.click(question, "Accept", user=second)  # the old message's button, read again
        assert done.content == "Done."
        assert question.content == f"Takeback accepted by everyone: `{attack}` is taken back."
    finally:
        await dt.stop_bot()
        await store.close()


async def test_takeback_logged_as_own_entry(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    attack, mover = await to_an_attack(dt, tables)
    question = await asked(dt, mover)
    for user in others(mover):
        await dt.click(question, "Accept", user=user)
    log = await dt.slash("game", "log", user="cy", count=2)
    version = (await table_of(dt, tables)).row.version
    assert log.content.splitlines()[-2:] == [f"`{version - 1:>4}` {mover.title()}: `{attack}`",
                                             f"`{version:>4}` {mover.title()}: `takeback`"]
