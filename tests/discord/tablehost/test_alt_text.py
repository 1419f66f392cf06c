"""Every board picture carries alt text (its attachment's ``description``): the game, the turn, who is to act,
the counts that matter; on every post and edit, in spectator channels, on ``/game board`` and the replay GIF."""

from __future__ import annotations

import random
from typing import Any

from cogs import nexo, nxs, xisk
from cogs.surface import ALT_LIMIT, DEFAULT, Surface, default_alt_text
from host.tables import Tables
from tests.discord.tablehost.helpers import open_game
from tests.discord.tablehost.test_nxs_cog import greedy
from tests.discord.tablehost.test_xisk_cog import CARD, NAMES, choose, held_cards, play, table_of
from tests.fakediscord.api import DiscordTest
from tests.fakediscord.recorder import SentMessage


def alts(message: SentMessage) -> list[str | None]:
    """Returns the alt text of each attachment a message shows now, as the fake Discord keeps it."""
    return [a.get("description") for a in message.payload["attachments"]]


def uploaded_alts(message: SentMessage) -> list[str | None]:
    """Returns the alt text of every file uploaded to a message, its post and each edit (new files have an index
    for ``id``; kept attachments have their snowflake, as a string)."""
    return [a.get("description") for body in message.bodies for a in body.get("attachments") or []
            if isinstance(a.get("id"), int)]


def boards(dt: DiscordTest, channel: str = "general") -> list[SentMessage]:
    return [m for m in dt.messages(channel) if any(f.filename.endswith((".png", ".webp")) for f in m.files)]


# each game's alt text, from its public view

XISK_VIEW: dict[str, Any] = {
    "phase": "attack", "turn_number": 4, "to_act": ["Bob"], "order": ["Ann", "Bob", "Cy"],
    "countries": {"a": {"owner": "Ann", "chips": 5}, "b": {"owner": "Bob", "chips": 2},
                  "c": {"owner": "Bob", "chips": 1}, "d": {"owner": "Cy", "chips": 9}},
    "cards_held": {"Ann": 0, "Bob": 3, "Cy": 1}, "eliminated": [], "winner": None,
}


def test_the_xisk_alt_text_names_the_turn_the_phase_who_acts_and_each_players_counts() -> None:
    assert xisk.alt_text("XISK", XISK_VIEW) == (
        "XISK board, turn 4, Attack phase: Bob to act. Ann 1 country, 5 chips, 0 cards;"
        " Bob 2 countries, 3 chips, 3 cards; Cy 1 country, 9 chips, 1 card.")


def test_the_xisk_alt_text_says_who_is_out_and_who_won() -> None:
    view = {**XISK_VIEW, "phase": "over", "to_act": [], "eliminated": ["Cy"], "winner": "Bob"}
    assert xisk.alt_text("XISK", view).startswith("XISK board, turn 4: Bob won. Ann 1 country")
    assert xisk.alt_text("XISK", view).endswith("; Cy out.")


def test_the_xisk_alt_text_never_reads_a_hand() -> None:
    view = {**XISK_VIEW, "hand": ["AS", "10H"], "redeemable": ["redeem AS 10H KD"]}
    assert xisk.alt_text("XISK", view) == xisk.alt_text("XISK", XISK_VIEW)
    assert not CARD.findall(xisk.alt_text("XISK", view))


def test_the_nxs_alt_text_names_the_step_who_acts_and_each_sides_hexes_ships_and_captures() -> None:
    view = {"players": ["Ann", "Bob"], "colours": {"Ann": "white", "Bob": "black"}, "step": "rotate", "turn": "Bob",
            "score": {"Ann": 2, "Bob": 5}, "target": {"Ann": 10, "Bob": 8}, "captured": {"Ann": 1, "Bob": 0},
            "pieces": [{"owner": "Ann"}] * 3 + [{"owner": "Bob"}] * 4, "result": None}
    assert nxs.alt_text("NXS", view) == (
        "NXS board, rotate step: Bob (black) to act. Ann (white) 2 of 10 hexes held, 3 ships, 1 captured;"
        " Bob (black) 5 of 8 hexes held, 4 ships, 0 captured.")
    over = {**view, "turn": None, "result": {"termination": "target", "winners": ["Bob"]}}
    assert nxs.alt_text("NXS", over).startswith("NXS board: Bob won (target). Ann (white)")


def test_the_nexo_alt_text_names_the_round_the_phase_who_acts_units_carbonite_and_energy() -> None:
    view = {"round": 3, "phase": "initiative", "initiative": "Ann", "turn": "Bob", "active": None, "result": None,
            "players": {"Ann": {"carbonite": 7, "energy_production": 2, "energy_demand": 2, "blackout": False},
                        "Bob": {"carbonite": 0, "energy_production": 1, "energy_demand": 2, "blackout": True}},
            "models": {"a1": {"owner": "Ann"}}, "buildings": {}}
    assert nexo.alt_text("Nexohominis", view) == (
        "Nexohominis board, round 3, Initiative Phase: Ann to act. Ann 1 unit, 0 buildings, 7 Carbonite, Energy 2"
        " produced for 2 needed; Bob 0 units, 0 buildings, 0 Carbonite, Energy 1 produced for 2 needed (Blackout).")
    over = {**view, "phase": "action", "result": "concede", "winners": ["Bob"]}
    assert nexo.alt_text("Nexohominis", over).startswith("Nexohominis board, round 3, Action Phase: Bob won (concede).")


def test_a_game_without_its_own_alt_text_gets_the_default_from_its_view() -> None:
    view = {"turn_number": 2, "phase": "roll", "to_act": ["Ann", "Bob"]}
    assert DEFAULT.alt("Tally", view) == default_alt_text("Tally", view) == (
        "Tally board, turn 2, roll phase: Ann and Bob to act.")


def test_an_alt_text_over_1024_characters_is_shortened_at_a_word_end() -> None:
    surface = Surface(alt_text=lambda title, view: f"{title} board: " + "Annabel " * 200)
    text = surface.alt("Tally", {})
    assert len(text) <= ALT_LIMIT and text.endswith("Annabel…") and text.startswith("Tally board: Annabel")
    many = {**XISK_VIEW, "order": [f"Player{i}" for i in range(60)]}
    assert len(xisk.SURFACE.alt("XISK", many)) <= ALT_LIMIT


# through the bot: every post and edit, its copies, /game board, the replay


async def test_every_xisk_board_post_and_edit_has_alt_text_and_its_spectator_copies_too(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("xisk", "new", user="ann", cards_per_player=4)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "join", user="cy")
    await dt.slash("table", "spectate", user="ann", to=dt.channel("table-1"), stop=False)
    await dt.slash("game", "start", user="ann")
    rng = random.Random(7)
    checked = edited = 0
    seen: set[str] = set()
    for _ in range(120):
        table = await table_of(dt, tables)
        view = table.game.view(None)
        if view["phase"] == "supply" and view["turn_number"] >= 3:
            break
        [actor] = table.game.to_act()
        legal = table.game.legal_moves(actor)
        ones = [m for m in legal if m.startswith("place") and m.endswith(" 1")]  # a Supply phase edits its board
        before = len(dt.messages("general"))
        await play(dt, NAMES[actor], ones[0] if ones else choose(legal, rng), table)
        edited += len(dt.messages("general")) == before
        after = await table_of(dt, tables)
        view = after.game.view(None)
        board = boards(dt)[-1]
        [alt] = alts(board)
        assert alt == xisk.alt_text("XISK", view)
        assert alt.startswith("XISK board, ")
        if after.game.to_act():
            assert f"{after.game.to_act()[0]} to act." in alt
        if view["phase"] == "claim":
            assert "claiming countries (card" in alt
        else:
            assert f"turn {view['turn_number']}, {view['phase'].capitalize()} phase" in alt
            seen.add(view["phase"])
        assert alts(dt.messages("table-1")[-1]) == [alt]  # the copy of the board just posted or edited
        checked += 1
    assert checked > 20 and edited > 5 and {"supply", "attack"} <= seen

    posted = boards(dt)
    uploads = [a for m in posted for a in uploaded_alts(m)]
    assert len(uploads) >= len(posted) + edited  # each post's picture, and each edit's new one
    assert all(isinstance(a, str) and a.startswith("XISK board, ") and len(a) <= ALT_LIMIT for a in uploads)
    copies = boards(dt, "table-1")
    assert len(copies) == len(posted)
    assert [uploaded_alts(c) for c in copies] == [uploaded_alts(m) for m in posted]


async def test_no_xisk_alt_text_ever_names_a_card(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await open_game(dt, "xisk", "ann", "bob", "cy", cards_per_player=4)
    rng = random.Random(11)
    held: set[str] = set()
    for _ in range(50):
        table = await table_of(dt, tables)
        held |= held_cards(table)
        [actor] = table.game.to_act()
        await play(dt, NAMES[actor], choose(table.game.legal_moves(actor), rng), table)
    await dt.slash("game", "board", user="cy")
    texts = [a or "" for m in dt.messages("general") for a in [*uploaded_alts(m), *alts(m)]]
    assert len(texts) > 20 and held
    assert not [t for t in texts if CARD.findall(t)]
    assert any("cards" in t for t in texts)  # the counts are there, never the cards


async def test_every_nxs_board_game_board_and_the_replay_have_alt_text(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await open_game(dt, "nxs", "ann", "bob", layout="short", target=3)
    channel = str(dt.channel("general").id)
    rng = random.Random(2)
    for _ in range(200):
        table = await tables.table(channel)
        if table.game.is_over:
            break
        [actor] = table.game.to_act()
        move = greedy(table.game, actor, rng)
        kind, *words = move.split()
        if kind == "rotate":
            await dt.slash("nxs", "rotate", user=NAMES[actor], direction=words[1], cell=words[0])
        else:
            await dt.slash("nxs", kind, user=NAMES[actor], origin=words[0], destination=words[1])
        after = await tables.table(channel)
        view = after.game.view(None)
        [alt] = alts(boards(dt)[-1])
        assert alt == nxs.alt_text("NXS", view)
        if not after.game.is_over:
            assert alt.startswith(f"NXS board, {view['step']} step: {view['turn']} ({view['colours'][view['turn']]})"
                                  " to act.")
            assert f"{view['score'][view['turn']]} of {view['target'][view['turn']]} hexes held" in alt
    table = await tables.table(channel)
    assert table.game.is_over
    [winner] = table.game.winners
    uploads = [a for m in boards(dt) for a in uploaded_alts(m)]
    assert len(uploads) > 10 and all(a and a.startswith("NXS board") for a in uploads)
    assert alts(boards(dt)[-1])[0].startswith(f"NXS board: {winner} won")
    await dt.slash("game", "board", user="ann")
    [shown] = [m for m in dt.messages("general") if m.content.startswith("NXS — finished")]
    assert alts(shown) == [nxs.alt_text("NXS", table.game.view(None))]

    await dt.wait_until(lambda: any(f.filename.endswith(".gif") for m in dt.messages("general") for f in m.files))
    [replay] = [m for m in dt.messages("general") if any(f.filename.endswith(".gif") for f in m.files)]
    [alt] = alts(replay)
    assert alt.startswith(f"Animated replay of NXS game {table.row.id}: ")
    assert f"Last frame: NXS board: {winner} won" in alt


async def test_game_board_has_alt_text_in_the_game_channel_and_in_a_spectator_channel(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await open_game(dt, "xisk", "ann", "bob", "cy", cards_per_player=4)
    table = await table_of(dt, tables)
    await play(dt, NAMES[table.game.to_act()[0]], choose(table.game.legal_moves(table.game.to_act()[0]),
                                                         random.Random(1)), table)
    expected = xisk.alt_text("XISK", (await table_of(dt, tables)).game.view(None))
    await dt.slash("game", "board", user="bob")
    assert alts(dt.messages("general")[-1]) == [expected]
    await dt.slash("table", "spectate", user="ann", to=dt.channel("table-2"), stop=False)
    assert alts(dt.messages("table-2")[-1]) == [expected]  # the current board, copied when spectating begins
    await dt.slash("game", "board", user="cy", channel="table-2")
    assert alts(dt.messages("table-2")[-1]) == [expected]


async def test_every_nexo_board_from_the_start_has_alt_text(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await open_game(dt, "nexo", "ann", "bob", battlefield="crossroads", round_limit=3)
    channel = str(dt.channel("general").id)
    rng = random.Random(4)
    names = {"Ann": "ann", "Bob": "bob"}
    for _ in range(12):
        table = await tables.table(channel)
        view = table.game.view(None)
        [alt] = alts(boards(dt)[-1])
        assert alt == nexo.alt_text("Nexohominis", view)
        assert alt.startswith(f"Nexohominis board, round {view['round']}, {view['phase'].title()} Phase: ")
        acting = view["initiative"] if view["phase"] == "initiative" else view["turn"]
        assert f"{acting} to act" in alt and " Carbonite, Energy " in alt
        if table.game.is_over:
            break
        actor = table.game.to_act()[0]
        moves = [m for m in table.game.legal_moves(actor) if m.split()[0] not in {"concede", "scrap"}]
        played = await dt.slash("game", "play", user=names[actor], move=rng.choice(moves))
        if played.content.endswith("Play it?"):
            question = next(m for m in reversed(dt.ephemerals(names[actor])) if m.content == played.content)
            await dt.click(question, "Yes, play it", user=names[actor])
    uploads = [a for m in boards(dt) for a in uploaded_alts(m)]
    assert uploads and all(a and a.startswith("Nexohominis board, round ") for a in uploads)
