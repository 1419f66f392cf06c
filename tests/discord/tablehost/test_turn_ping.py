"""The turn ping is an instruction, and help is in context.

A new live board's content pings the player to act with their next step and its numbers
("<@id> Ann: place 6 chips (Supply phase), then attack or end."); its "Last turn" field sums
up the turn before in at most 1,024 characters, never cut inside a word, and never names a
drawn card. ``/game help`` in a game's channel is that game's help in one message; elsewhere
it lists the games and their ``/<game> help``.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator

import pytest

from cogs.board import FIELD_LIMIT, LAST_TURN
from engines import KITS
from engines.core import Game
from engines.core.registry import ONLY
from host.rows import Board
from host.tables import Table, Tables
from tests.discord.tablehost.helpers import field, open_game, open_tally, said
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentMessage

NAMES = {"Ann": "ann", "Bob": "bob"}
CARD = re.compile(r"\b(?:[AKQJ2-9]|10)[SHDC]\b")
"""A card as XISK writes it (``AS``, ``10H``)."""
SUPPLY = re.compile(r"^(<@\d+> )?(Ann|Bob): (redeem a cardset first \(you hold \d+ cards\), then )?"
                    r"place \d+ chips? \(Supply phase\), then attack or end\.$")
CLAIM = re.compile(r"^<@\d+> (Ann|Bob): claim a country: card \d+ of \d+\.$")
CLIMB = importlib.util.find_spec("tablehost_climb") is not None
"""The test package game (tests/games/climb) is installed (requirements-dev.txt installs it)."""
GAMES_HERE = ["xisk", "nxs", "nexo", *(["climb"] if CLIMB else [])]


@pytest.fixture
def every_game() -> Iterator[None]:
    """Offers the built-in games and, when installed, the Climb package (before the bot starts)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ONLY, ",".join(sorted(GAMES_HERE)))
        KITS.reload()
        yield
    KITS.reload()


def boards(dt: DiscordTest) -> list[SentMessage]:
    """Returns the channel's live boards (the messages with an embed)."""
    return [m for m in dt.messages("general") if m.embeds]


def aggressive(game: Game, player: str) -> str:
    """Returns a deterministic XISK move that conquers often: all chips on the biggest stack, attack with 3+."""
    legal, view = game.legal_moves(player), game.view(None)
    chips = {c: v["chips"] for c, v in view["countries"].items()}
    for prefix in ("redeem", "claim"):
        first = next((m for m in legal if m.startswith(prefix)), None)
        if first:
            return first
    places = [m for m in legal if m.startswith("place")]
    if places:
        return max(places, key=lambda m: (int(m.split()[2]), chips[m.split()[1]], m))
    attacks = [m for m in legal if m.startswith("attack") and chips[m.split()[1]] >= 3]
    if attacks:
        return max(attacks, key=lambda m: (chips[m.split()[1]] - chips[m.split()[2]], m))
    invades = [m for m in legal if m.startswith("invade")]
    if invades:
        return invades[-1]
    return "end" if "end" in legal else legal[0]


async def act(dt: DiscordTest, user: str, move: str) -> None:
    """Plays a move with ``/game play``, answering yes when it is asked first (ending with attacks left)."""
    record = await dt.slash("game", "play", user=user, move=move)
    if record.content.endswith("?") or "now?" in record.content:
        await dt.click(dt.ephemerals(user)[-1], "Yes, play it", user=user)
        await dt.wait_until(lambda: dt.ephemerals(user)[-1].content.startswith(f"Played `{move}`"))
    else:
        assert record.content == f"Played `{move}`.", record.content


async def xisk_table(dt: DiscordTest, tables: Tables) -> Table:
    return await tables.table(str(dt.channel("general").id))


async def test_every_xisk_turn_start_names_the_step_and_its_number(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await open_game(dt, "xisk", "ann", "bob", cards_per_player=4)
    [start] = boards(dt)
    assert CLAIM.match(start.content), start.content
    starts = claims = 0
    for _ in range(400):
        table = await xisk_table(dt, tables)
        game = table.game
        assert game is not None
        if game.is_over or starts >= 8:
            break
        [actor] = game.to_act()
        before = len(boards(dt))
        await act(dt, NAMES[actor], aggressive(game, actor))
        after = (await xisk_table(dt, tables)).game
        assert after is not None
        for board in boards(dt)[before:]:  # a new board: its player changed
            [now] = after.to_act() or [None]
            phase = after.view(None)["phase"]
            if now is None:
                continue
            pinged = [] if now == actor else [dt.user(NAMES[now]).id]  # who claimed last plays first: not pinged
            assert board.pinged == pinged  # the ping pings whom it always did, no one else
            if phase == "supply":
                starts += 1
                assert SUPPLY.match(board.content), board.content
                chips = after.view(None)["supply_left"]
                assert f"place {chips} chip" in board.content or "redeem a cardset first" in board.content
            else:
                claims += 1
                assert phase == "claim" and CLAIM.match(board.content), board.content
    assert starts >= 8 and claims >= 1  # every turn started on a board of its own (a claim: when its player changed)
    summaries = [field(b, LAST_TURN) for b in boards(dt)]
    assert all(s is not None and len(s) <= FIELD_LIMIT for s in summaries[1:]), summaries  # each board after the first
    assert any(s and " took " in s for s in summaries) and any(s and "drew a card" in s for s in summaries), summaries


async def test_a_drawn_card_is_never_named_in_the_summary(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await open_game(dt, "xisk", "ann", "bob", cards_per_player=4)
    drawn: set[str] = set()
    for _ in range(400):
        game = (await xisk_table(dt, tables)).game
        assert game is not None
        if game.is_over or len(drawn) >= 2:
            break
        [actor] = game.to_act()
        hand_before = set(game.view(actor)["hand"])
        await act(dt, NAMES[actor], aggressive(game, actor))
        after = (await xisk_table(dt, tables)).game
        assert after is not None
        if after.view(None)["phase"] == "supply" and after.to_act() != [actor]:  # the turn ended
            drawn |= set(after.view(actor)["hand"]) - hand_before
    assert drawn, "no card was drawn"
    summaries = [field(b, LAST_TURN) or "" for b in boards(dt)]
    assert any("drew a card" in s for s in summaries)
    assert not [s for s in summaries if CARD.search(s)], summaries  # no card, drawn or other, is named


async def test_a_huge_xisk_turn_is_summed_up_in_one_field_within_its_limit(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await open_game(dt, "xisk", "ann", "bob", cards_per_player=4)
    for _ in range(100):  # through the claims, to the first turn with chips to place
        game = (await xisk_table(dt, tables)).game
        assert game is not None
        if game.view(None)["phase"] == "supply":
            break
        [actor] = game.to_act()
        await act(dt, NAMES[actor], aggressive(game, actor))
    table = await xisk_table(dt, tables)
    assert table.game is not None
    [actor] = table.game.to_act()
    countries = list(table.game.view(None)["countries"])
    board = await tables.store.board(table.row.id)
    assert board is not None
    huge = [  # a turn of hundreds of battles and conquests, as if played before the next move
        e for n, c in enumerate(countries * 6) for e in (
            {"kind": "battle", "text": "…", "attacker": actor, "defender": "x", "source": c, "target": c,
             "attacker_losses": n % 3, "defender_losses": 2},
            {"kind": "conquer", "text": "…", "player": actor, "country": c, "defender": "x", "moved": 3},
        )
    ]
    await tables.store.set_board(table.row.id, Board(board.message_id, board.actors, board.recap, tuple(huge)))
    for _ in range(100):  # the rest of the turn
        game = (await xisk_table(dt, tables)).game
        assert game is not None
        if game.to_act() != [actor]:
            break
        await act(dt, NAMES[actor], "end" if "end" in game.legal_moves(actor) else aggressive(game, actor))
    summary = field(boards(dt)[-1], LAST_TURN)
    assert summary is not None and len(summary) <= FIELD_LIMIT
    assert summary.startswith(f"{actor} ") and f"took {len(huge) // 2} countries (" in summary
    assert "more)" in summary and summary.endswith(".")  # six countries named, the rest counted: a whole sentence


async def test_the_last_turn_field_never_cuts_a_word(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await open_tally(dt, "ann", "bob")
    table = await tables.table(str(dt.channel("general").id))
    board = await tables.store.board(table.row.id)
    assert board is not None
    words = [f"Ann{'x' * (n % 7)} counts to {n}." for n in range(400)]  # a turn of 400 recap lines
    await tables.store.set_board(table.row.id, Board(board.message_id, board.actors, tuple(words)))
    await dt.slash("game", "play", user="ann", move="add 1")
    summary = field(boards(dt)[-1], LAST_TURN)
    assert summary is not None and len(summary) <= FIELD_LIMIT and summary.endswith("…")
    whole = " · ".join([*words, "Ann adds 1: the total is 1."])
    kept = summary.removesuffix("…")
    assert whole.startswith(kept) and not whole[len(kept)].isalnum()  # cut where a word ends
    assert len(said(boards(dt)[-1])) > len(summary)  # and the board itself was accepted (Discord's limits)


async def test_an_nxs_turn_start_names_the_step(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("nxs", "new", user="ann", layout="short")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    channel = str(dt.channel("general").id)
    for _ in range(6):  # three turns: a move, then its rotation
        game = (await tables.table(channel)).game
        assert game is not None
        [actor] = game.to_act()
        move = next(m for m in game.legal_moves(actor) if m.startswith(("move", "rotate")))
        await act(dt, NAMES[actor], move)
    starts = boards(dt)
    assert len(starts) == 4  # the start, then one board a turn
    for board in starts:
        assert re.match(r"^<@\d+> (Ann|Bob) \((white|black)\): move or capture with a ship, then rotate it "
                        r"\(\d+ of \d+ hexes held\)\.$", board.content), board.content
        assert len(board.pinged) == 1
    assert " turns the " in (field(starts[-1], LAST_TURN) or "")  # the turn before, from its recap lines


async def test_the_board_says_the_current_step_under_its_recap(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("nxs", "new", user="ann", layout="short")
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    game = (await tables.table(str(dt.channel("general").id))).game
    assert game is not None
    move = next(m for m in game.legal_moves("Ann") if m.startswith("move"))
    await act(dt, "ann", move)
    [board] = boards(dt)  # the same turn: edited
    cell = move.split()[2]
    assert board.embeds[0]["description"].endswith(f"**Now:** Ann: rotate the ship on {cell} left or right"
                                                   " to end the turn.")
    assert "rotate it" in board.content  # the content, written once, is not edited (it pinged)


@pytest.mark.parametrize("game", GAMES_HERE)
async def test_help_in_xisk_channel_is_one_message_of_that_game(
    every_game: None, discord_test: DiscordTest, game: str
) -> None:
    dt = discord_test
    await dt.slash("game", "new", user="ann", game=game)
    before = len(dt.ephemerals("bob"))
    record = await dt.slash("game", "help", user="bob")
    [reply] = dt.ephemerals("bob")[before:]
    kit = KITS[game]
    assert record.ephemeral and reply.content == record.content and len(record.content) <= 2000
    assert record.content.startswith(f"**{kit.title}** (`{game}`, ")
    assert kit.notation_help in record.content and f"`/{kit.group} " in record.content
    assert "`/game` " in record.content and "`/table` " in record.content  # the shared groups, named
    assert "signed by this bot's key **" in record.content
    others = [k.group for name, k in KITS.items() if name != game and k.group]
    assert not [g for g in others if f"`/{g} " in record.content]  # no other game's commands


async def test_help_elsewhere_lists_games(discord_test: DiscordTest) -> None:
    dt = discord_test
    for where in ("general", dt.dm_channel("ann")):  # a channel with no game, and a DM
        record = await dt.slash("game", "help", user="ann", channel=where)
        assert len(record.content) <= 2000 and "signed by this bot's key **" in record.content
        for name, kit in KITS.items():  # the test game Tally too, which has no group of its own
            where_help = f"`/{kit.group} help`" if kit.group else "`/game help` in a channel playing it"
            assert f"**{kit.title}** (`{name}`, " in record.content and where_help in record.content
        assert "`/xisk attack`" not in record.content


@pytest.mark.parametrize("game", GAMES_HERE)
async def test_game_help_subcommand_each_game(every_game: None, discord_test: DiscordTest, game: str) -> None:
    dt = discord_test
    record = await dt.slash(KITS[game].group or game, "help", user="ann")  # no game here: the game's help all the same
    assert record.ephemeral and len(record.content) <= 2000
    assert record.content.startswith(f"**{KITS[game].title}** (`{game}`, ")
    await dt.slash("game", "new", user="ann", game=game)
    in_channel = await dt.slash("game", "help", user="ann")
    assert in_channel.content == record.content  # one help, wherever it is asked for
