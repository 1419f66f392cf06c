"""NXS on Discord: a whole duel through /nxs commands and rotate buttons, a picture after every step."""

from __future__ import annotations

import random

from engines import GAMES
from engines.core import Game
from host.tables import Tables
from tests.discord.tablehost.helpers import pictures, said
from tests.fakediscord.api import DiscordTest

NAMES = {"Ann": "ann", "Bob": "bob"}


def greedy(game: Game, player: str, rng: random.Random) -> str:
    """Returns a capture if any, else the move that scores most (seeded ties), never a resignation.

    At the rotate step it mostly turns the ship just moved (what the buttons offer).
    """
    legal = [m for m in game.legal_moves(player) if m != "resign"]
    if legal[0].startswith("rotate"):
        moved = game.view(None)["last_move"]["to"]
        usual = [m for m in legal if m.split()[1] == moved]
        return rng.choice(usual if usual and rng.random() < 0.8 else legal)
    captures = [m for m in legal if m.startswith("capture")]
    if captures:
        return rng.choice(captures)

    def score(move: str) -> tuple[int, float]:
        trial = GAMES["nxs"].from_json(game.to_json())
        trial.play(player, move)
        return trial.view(None)["score"][player], rng.random()

    return max(legal, key=score)


async def test_a_whole_game_with_a_picture_after_every_step(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("nxs", "new", user="ann", layout="short", target=3)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    channel = str(dt.channel("general").id)
    rng = random.Random(2)
    clicks = turns = 0
    for _ in range(200):
        table = await tables.table(channel)
        game = table.game
        if game.is_over:
            break
        [actor] = game.to_act()
        move = greedy(game, actor, rng)
        kind, *words = move.split()
        before = len(dt.messages("general"))
        turn = [m for m in dt.messages("general") if m.buttons()]
        buttons = {b["custom_id"].split(":", 3)[3]: b["label"] for b in turn[-1].buttons()} if turn else {}
        if kind == "rotate" and "+".join(move.split()) in buttons:
            record = await dt.click(turn[-1], buttons["+".join(move.split())], user=NAMES[actor])
            clicks += 1
        elif kind == "rotate":
            record = await dt.slash("nxs", "rotate", user=NAMES[actor], direction=words[1], cell=words[0])
        else:
            record = await dt.slash("nxs", kind, user=NAMES[actor], origin=words[0], destination=words[1])
        assert record.ephemeral and record.content == f"Played `{move}`.", record.content
        new = dt.messages("general")[before:]
        after = (await tables.table(channel)).game
        if after.to_act() == [actor]:  # the same turn goes on: its board is edited, nothing is posted
            assert new == [], f"a message after {move}, within a turn"
            [shown] = pictures([dt.messages("general")[-1]])[0].files
            assert shown.filename.endswith(f"-{(await tables.table(channel)).row.version}.png")
        else:  # the turn ended: one new board, with its picture
            assert len(new) == 1 and pictures(new), f"not one board after {move}"
            turns += 1
    table = await tables.table(channel)
    assert table.game.is_over and clicks > 0 and turns > 5
    winner = table.game.winners[0]
    final = [m for m in dt.messages("general") if m.embeds][-1]  # the last board (its replay may follow)
    assert f"Game over: {winner} wins!" in said(final)
    assert said(final).count("Game over") == 1
    late = await dt.slash("nxs", "resign", user="ann")
    assert late.ephemeral and "no game running" in late.content


async def test_show_answers_privately_with_the_ships_moves(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("nxs", "new", user="ann")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    before = len(dt.messages("general"))
    record = await dt.slash("nxs", "show", user="bob", cell="f4")
    assert record.ephemeral and record.content.startswith("f4: ")
    [picture] = record.files
    assert picture.image().format == "PNG"
    assert len(dt.messages("general")) == before
    empty = await dt.slash("nxs", "show", user="bob", cell="a1")
    assert empty.ephemeral and "no ship on a1" in empty.content.lower()


async def test_moves_autocomplete_from_the_legal_moves(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("nxs", "new", user="ann")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    game = (await tables.table(str(dt.channel("general").id))).game
    origins = sorted({m.split()[1] for m in game.legal_moves("Ann") if m.startswith("move ")})
    assert sorted(await dt.autocomplete("nxs", "move", focused="origin", user="ann", origin="")) == origins
    targets = await dt.autocomplete("nxs", "move", focused="destination", user="ann", origin="f4", destination="")
    assert targets == [m.split()[2] for m in game.legal_moves("Ann") if m.startswith("move f4 ")]
    refused = await dt.slash("nxs", "move", user="bob", origin="k4", destination="k5")
    assert refused.ephemeral and "not your turn" in refused.content


async def test_resign_asks_first_and_only_yes_ends_the_game(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("nxs", "new", user="ann")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    asked = await dt.slash("nxs", "resign", user="ann")
    assert asked.ephemeral and asked.content == "`resign` cannot be taken back. Play it?"
    assert not (await tables.table(str(dt.channel("general").id))).game.is_over
    await dt.click(dt.ephemerals("ann")[-1], "Yes, play it", user="ann")
    await dt.wait_until(lambda: dt.ephemerals("ann")[-1].content == "Played `resign`.")
    table = await tables.table(str(dt.channel("general").id))
    assert table.game.is_over and table.game.winners == ["Bob"]
    final = [m for m in dt.messages("general") if m.embeds][-1]  # the last board (a replay may follow it)
    assert [b["label"] for b in final.buttons()] == ["Rematch"]  # no move buttons left


async def test_undo_takes_back_a_move_step_and_edits_the_live_board(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("nxs", "new", user="ann")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    channel = str(dt.channel("general").id)
    start = (await tables.table(channel)).game.to_json()
    move = next(m for m in (await tables.table(channel)).game.legal_moves("Ann") if m.startswith("move"))
    await dt.slash("game", "play", user="ann", move=move)
    posts = len(dt.messages("general"))
    record = await dt.slash("game", "undo", user="ann")
    assert record.ephemeral and record.content == "Done."
    assert (await tables.table(channel)).game.to_json() == start
    assert len(dt.messages("general")) == posts  # the same turn: its board is edited
    assert f"Ann takes back their move ({move})." in said(dt.messages("general")[-1])
    refused = await dt.slash("game", "undo", user="bob")
    assert refused.ephemeral and "Only your own last move" in refused.content


async def test_show_in_an_nxs_lobby_says_the_game_has_not_started(discord_test: DiscordTest) -> None:
    await discord_test.slash("nxs", "new", user="ann")
    record = await discord_test.slash("nxs", "show", user="ann", cell="a1")
    assert record.ephemeral and record.content.startswith("The NXS game here has not started yet")
    bare = await discord_test.slash("nxs", "show", user="ann", channel="table-1", cell="a1")
    assert bare.content == "There is no NXS game in this channel."


async def test_a_move_that_cannot_be_read_is_refused_before_any_question(discord_test: DiscordTest) -> None:
    await discord_test.slash("nxs", "new", user="ann")
    await discord_test.slash("game", "join", user="bob")
    await discord_test.slash("game", "start", user="ann")
    record = await discord_test.slash("game", "play", user="ann", move="resign please")
    assert "Play it?" not in record.content and "resign please" in record.content, record.content
    asked = await discord_test.slash("game", "play", user="ann", move="resign")
    assert asked.content == "`resign` cannot be taken back. Play it?"  # a real resignation is still asked about
