"""XISK on Discord: lobby to victory through /xisk commands and buttons, hands by DM only."""

from __future__ import annotations

import random
import re

from engines.xisk.board import load_board
from engines.xisk.hand import describe_hand
from host.tables import Table, Tables
from tests.discord.tablehost.helpers import open_game, pictures, said
from tests.fakediscord.api import DiscordTest

NAMES = {"Ann": "ann", "Bob": "bob", "Cy": "cy"}
CARD = re.compile(r"\b(?:[AKQJ2-9]|10)[SHDC]\b")


async def table_of(dt: DiscordTest, tables: Tables) -> Table:
    return await tables.table(str(dt.channel("general").id))


async def play(dt: DiscordTest, user: str, move: str, table: Table) -> bool:
    """Plays one XISK move the way a player would: a button when there is one, else its slash command.

    Returns whether a button was clicked.
    """
    words = move.split()
    turn = [m for m in dt.messages("general") if m.buttons()]
    if turn:
        for button in turn[-1].buttons():
            if button["custom_id"].endswith(":" + "+".join(words)):
                record = await dt.click(turn[-1], button["label"], user=user)
                if record.content.startswith(f"`{words[0]}` now?"):  # "End attack" with attacks left: asked
                    await confirm(dt, user, move)
                    return True
                assert record.content == f"Played `{move}`.", record.content
                return True
    kind = words[0]
    options: dict[str, object] = {}
    if kind in {"claim", "place"}:
        options["country"] = words[1]
        if kind == "place":
            options["chips"] = int(words[2])
    elif kind in {"attack", "adjust"}:
        options.update(origin=words[1], target=words[2])
        if kind == "adjust":
            options["chips"] = int(words[3])
    elif kind == "invade":
        options["chips"] = int(words[1])
    elif kind == "redeem":
        options["cards"] = " ".join(words[1:])
    record = await dt.slash("xisk", kind, user=user, **options)
    if record.content.startswith(f"`{kind}` now?"):  # ending with moves left is asked first
        await confirm(dt, user, move)
        return False
    assert record.ephemeral and record.content == f"Played `{move}`.", record.content
    return False


async def confirm(dt: DiscordTest, user: str, move: str) -> None:
    """Answers "yes" to the question just asked, and waits for the move's reply."""
    await dt.click(dt.ephemerals(user)[-1], "Yes, play it", user=user)
    await dt.wait_until(lambda: dt.ephemerals(user)[-1].content.startswith(f"Played `{move}`."))


def choose(legal: list[str], rng: random.Random) -> str:
    """Returns an aggressive but seeded choice: redeem, place all at once, attack, invade all, else end."""
    for prefix in ("redeem", "claim"):
        options = [m for m in legal if m.startswith(prefix)]
        if options:
            return rng.choice(options)
    places = [m for m in legal if m.startswith("place")]
    if places:
        most = max(int(m.split()[2]) for m in places)
        return rng.choice([m for m in places if int(m.split()[2]) == most])
    attacks = [m for m in legal if m.startswith("attack")]
    if attacks:
        return rng.choice(attacks)
    invades = [m for m in legal if m.startswith("invade")]
    if invades:
        return invades[-1]
    return "end" if "end" in legal else rng.choice(legal)


def held_cards(table: Table) -> set[str]:
    assert table.game is not None
    return {c for p in table.game.players for c in table.game.view(p)["hand"]}


async def test_three_players_from_new_through_claims_and_full_turns(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("xisk", "new", user="ann", cards_per_player=4)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "join", user="cy")
    await dt.slash("game", "start", user="ann")
    table = await table_of(dt, tables)
    game = table.game
    assert game is not None and game.view(None)["phase"] == "claim"

    # The deal: each hand by DM to its owner only, never in the channel.
    for name, user in NAMES.items():
        [dm] = dt.dms(user)
        hand = game.view(name)["hand"]
        assert f"**Your hand:** {describe_hand(hand)}" in dm.content
    assert not CARD.findall("\n".join(m.content for m in dt.messages("general") if "claims" not in m.content))

    rng = random.Random(5)
    turns_started = clicks = edits = 0
    dms_in_claims: dict[str, int] = {}
    last_move = ""
    for _ in range(600):
        table = await table_of(dt, tables)
        game = table.game
        assert game is not None
        if game.is_over or turns_started > 7:
            break
        [actor] = game.to_act()
        user = NAMES[actor]
        before = len(dt.messages("general"))
        phase = game.view(None)["phase"]
        legal = game.legal_moves(actor)
        move = choose(legal, rng)
        if move.startswith("attack") and rng.random() < 0.3:
            move = "end"  # the "End attack" button
        elif move.startswith("attack") and last_move in legal and rng.random() < 0.6:
            move = last_move  # the "Attack again" button
        last_move = move

        if rng.random() < 0.08:  # someone else tries to act: refused privately, nothing changes
            other = next(u for n, u in NAMES.items() if n != actor)
            refused = await dt.slash("xisk", "end", user=other)
            assert refused.ephemeral and "not your turn" in refused.content
            assert len(dt.messages("general")) == before

        clicks += await play(dt, user, move, table)
        after = await table_of(dt, tables)
        new_posts = dt.messages("general")[before:]
        post_text = "\n".join(said(m) for m in dt.messages("general")[-2:])
        assert not set(CARD.findall(post_text)) & held_cards(after), f"a held card leaked after {move}"
        pinged = [uid for m in new_posts for uid in m.pinged]
        if after.game.to_act() == [actor]:  # the turn goes on: its live board is edited, nothing posted
            assert new_posts == [], f"a new message within {actor}'s turn after {move}"
            [board] = pictures([dt.messages("general")[-1]])
            assert board.files[0].filename == f"xisk-{after.row.id}-{after.row.version}.webp"
            edits += 1
        else:  # the player to act changed: one new board, one ping
            assert len(new_posts) == 1 and pictures(new_posts), f"not one board after {move}"
            expected = [dt.user(NAMES[after.game.to_act()[0]]).id] if after.game.to_act() else []
            assert pinged == expected
        if phase == "claim" and after.game.view(None)["phase"] != "claim":
            dms_in_claims = {u: len(dt.dms(u)) for u in NAMES.values()}
        if after.game.view(None)["phase"] == "supply" and phase != "supply":
            turns_started += 1
    assert turns_started >= 7 and clicks > 0 and edits > 10  # through the claims and 6 full turns
    assert dms_in_claims and max(dms_in_claims.values()) <= 2, dms_in_claims
    for user in NAMES.values():  # every DM fits, and they arrive in order
        dms = dt.dms(user)
        assert all(len(m.content) < 2000 for m in dms) and [m.id for m in dms] == sorted(m.id for m in dms)

    # Every hand that changed reached its owner by DM; the last DM shows the hand as it is now.
    game = (await table_of(dt, tables)).game
    for name, user in NAMES.items():
        hand = game.view(name)["hand"]
        last = [m.content for m in dt.dms(user) if "Your hand" in m.content][-1]
        assert describe_hand(hand) in last

    # An illegal move by the player to act is refused privately and changes nothing.
    actor = game.to_act()[0]
    version = (await table_of(dt, tables)).row.version
    refused = await dt.slash("xisk", "invade", user=NAMES[actor], chips=999)
    assert refused.ephemeral and "invade" in refused.content.lower()
    assert (await table_of(dt, tables)).row.version == version


async def test_country_names_and_prefixes_are_resolved_and_autocompleted(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await dt.slash("xisk", "new", user="ann", cards_per_player=4)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    game = (await table_of(dt, tables)).game
    actor = game.to_act()[0]
    choices = await dt.autocomplete("xisk", "claim", focused="country", user=NAMES[actor], country="kam")
    assert choices == ["Kamchatka KAM (0 chips)"]
    by_code = await dt.autocomplete("xisk", "claim", focused="country", user=NAMES[actor], country="nwt")
    assert by_code == ["Northwest Territory NWT (0 chips)"]  # the code printed on the board
    assert await dt.autocomplete("xisk", "claim", focused="country", user="cy", country="") == []
    vague = await dt.slash("xisk", "claim", user=NAMES[actor], country="west")
    assert vague.ephemeral and "could mean" in vague.content
    record = await dt.slash("xisk", "claim", user=NAMES[actor], country="Kamchatka")
    assert record.content == "Played `claim kamchatka`."


def focused(table: Table, player: str) -> str:
    """Returns a deterministic, purposeful move: mass chips on the strongest front and attack from there."""
    game = table.game
    assert game is not None
    legal, countries = game.legal_moves(player), game.view(None)["countries"]
    neighbours = load_board().neighbours
    chips = {c: v["chips"] for c, v in countries.items()}
    for prefix in ("redeem", "claim"):
        first = next((m for m in legal if m.startswith(prefix)), None)
        if first:
            return first
    places = [m for m in legal if m.startswith("place")]
    if places:
        most = max(int(m.split()[2]) for m in places)
        allin = [m for m in places if int(m.split()[2]) == most]
        front = [m for m in allin if any(countries[n]["owner"] != player for n in neighbours[m.split()[1]])]
        return max(front or allin, key=lambda m: (chips[m.split()[1]], m))
    attacks = [m for m in legal if m.startswith("attack")]
    if attacks:
        best = max(attacks, key=lambda m: (chips[m.split()[1]] - chips[m.split()[2]], m))
        if chips[best.split()[1]] >= 3 or chips[best.split()[1]] > chips[best.split()[2]]:
            return best
    invades = [m for m in legal if m.startswith("invade")]
    if invades:
        return invades[-1]
    return "end" if "end" in legal else legal[0]


async def test_a_big_hand_is_served_in_pieces_discord_accepts(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("xisk", "new", user="ann")  # two players: 21 cards each, hundreds of cardsets
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    table = await tables.table(str(dt.channel("general").id))
    hand = table.game.view("Bob")["hand"]
    before = len(dt.ephemerals("bob"))
    record = await dt.slash("game", "hand", user="bob")
    assert record.ephemeral and "went wrong" not in record.content
    replies = [m.content for m in dt.ephemerals("bob")[before:]]
    assert replies and all(len(r) <= 2000 for r in replies)
    assert f"**Your hand:** {describe_hand(hand)}" in "\n".join(replies)


async def test_after_a_restart_mid_turn_the_next_move_edits_the_same_live_board(
    discord_test: DiscordTest, tables: Tables, bot_factory
) -> None:
    dt = discord_test
    await dt.slash("xisk", "new", user="ann", cards_per_player=4)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    for _ in range(60):  # the claims, up to a Supply phase with chips to place one at a time
        table = await table_of(dt, tables)
        [actor] = table.game.to_act()
        legal = table.game.legal_moves(actor)
        if table.game.view(None)["phase"] == "supply" and table.game.view(None)["supply_left"] >= 2:
            break
        await play(dt, NAMES[actor], choose(legal, random.Random(1)), table)
    place = next(m for m in legal if m.startswith("place") and m.endswith(" 1"))
    await play(dt, NAMES[actor], place, table)
    board = dt.messages("general")[-1]
    count = len(dt.messages("general"))

    await dt.restart(bot_factory)
    table = await table_of(dt, tables)
    again = next(m for m in table.game.legal_moves(actor) if m.startswith("place") and m.endswith(" 1"))
    await play(dt, NAMES[actor], again, table)
    assert len(dt.messages("general")) == count  # nothing new was posted
    edited = dt.messages("general")[-1]
    assert edited.id == board.id and edited.files[0].filename.endswith(f"-{table.row.version + 1}.webp")


async def test_game_hand_offers_the_cardsets_as_a_menu_that_redeems(discord_test: DiscordTest, tables: Tables) -> None:
    dt = discord_test
    await dt.slash("xisk", "new", user="ann")  # two players: 21 cards each, so redeeming is soon legal
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    rng = random.Random(2)
    channel = str(dt.channel("general").id)
    for _ in range(600):  # the claims, then turns of conquest, until a set of three cards may be redeemed
        table = await table_of(dt, tables)
        [actor] = table.game.to_act()
        legal = table.game.legal_moves(actor)
        if any(m.startswith("redeem") for m in legal):
            break
        # played through the table service: the commands and buttons are tested above, this test is about the hand;
        # their announcements are marked delivered unsent, so the redeem's board waits behind none of them
        user = table.user_of(actor)
        assert user is not None
        out = await tables.act(channel, user, choose(legal, rng))
        await tables.store.delivered(out.id, {})
    await dt.quiet()
    redeems = [m for m in legal if m.startswith("redeem")]
    assert redeems
    await dt.slash("game", "hand", user=NAMES[actor])
    menu = dt.ephemerals(NAMES[actor])[-1]
    assert "Play one now" in menu.content and menu.components()
    custom_id = f"th1p:{table.row.id}:{table.row.version}"
    record = await dt.select(menu, custom_id, [redeems[0]], user=NAMES[actor])
    assert "went wrong" not in record.content
    await dt.wait_until(lambda: dt.ephemerals(NAMES[actor])[-1].content == f"Played `{redeems[0]}`.", timeout=30)
    assert (await table_of(dt, tables)).row.version == table.row.version + 1


async def test_a_hand_dm_is_edited_with_one_request_and_no_user_fetched(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    await open_game(dt, "xisk", "ann", "bob", cards_per_player=4)
    recorder = dt.recorder
    for _ in range(80):  # through the claims and a few turns, each ending turn drawing a card into a hand
        table = await table_of(dt, tables)
        [actor] = table.game.to_act()
        if table.game.view(None)["turn_number"] >= 4:
            break
        fetched, opened = len(recorder.requests_to("GET /users/{user_id}")), len(
            recorder.requests_to("POST /users/@me/channels"))
        hand_before = {name: list(table.game.view(name)["hand"]) for name in table.game.players}
        await play(dt, NAMES[actor], focused(table, actor), table)
        after = (await table_of(dt, tables)).game
        changed = [n for n in after.players if after.view(n)["hand"] != hand_before[n]]
        if changed and all(dt.dms(NAMES[n]) for n in changed):  # an edit of a hand DM that exists
            assert len(recorder.requests_to("GET /users/{user_id}")) == fetched
            assert len(recorder.requests_to("POST /users/@me/channels")) == opened
    assert (await table_of(dt, tables)).game.view(None)["turn_number"] >= 4
