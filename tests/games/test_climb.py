"""Climb, the game installed as a package of its own: its rules, bots, picture, surface, rules text and entry point.

The end-to-end game on the fake Discord is tests/discord/tablehost/test_climb_package.py (where the
bot's fixtures are).
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from importlib.metadata import entry_points
from types import SimpleNamespace
from typing import Any, cast

import pytest
import tablehost_climb
from PIL import Image
from tablehost_climb.ai import choose
from tablehost_climb.commands import describe_secret, hand_moves, quick_moves, secret_line
from tablehost_climb.engine import CARDS, COPIES, DECK_SIZE, Climb
from tablehost_climb.picture import HEIGHT, WIDTH, draw, render

from engines import GAMES, KITS, GameError, IllegalMove
from engines.core import BadNotation, NotYourTurn, ai, is_public
from engines.core.registry import GROUP, ONLY
from host.table import Table
from render import generic

PLAYERS = ["ann", "bob"]


def position(
    hands: dict[str, list[int]], deck: list[int], pile: list[int] | None = None, turn: int = 0,
    resigned: list[str] | None = None,
) -> Climb:
    """Returns a game set to a chosen position (checked as a saved state is)."""
    game = Climb.new(list(hands), seed=1, options={"hand": 1})
    state = {**game.dump_state(), "hands": hands, "deck": deck, "pile": pile or [], "turn": turn,
             "resigned": resigned or []}
    game.check_state(state)
    game.load_state(state)
    return game


def texts(events: list[dict[str, Any]], *, public: bool = True) -> list[str]:
    """Returns the texts of the public events (or, with ``public`` false, the private ones)."""
    return [e["text"] for e in events if is_public(e) == public]


def all_cards(game: Climb) -> list[int]:
    state = game.dump_state()
    return sorted(state["deck"] + state["pile"] + [c for h in state["hands"].values() for c in h])


@pytest.fixture
def climb_offered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Offers Climb in this process (``TABLEHOST_GAMES`` names it) for one test, then the default games again."""
    with monkeypatch.context() as patch:
        patch.setenv(ONLY, "climb,nexo,nxs,xisk")
        KITS.reload()
        yield
    KITS.reload()


# -- the deal -------------------------------------------------------------------------


def test_the_deck_is_the_cards_1_to_9_four_of_each_shuffled_from_the_seed() -> None:
    game = Climb.new(PLAYERS, seed=7)
    assert all_cards(game) == sorted(c for c in CARDS for _ in range(COPIES)) and DECK_SIZE == 36
    assert Climb.new(PLAYERS, seed=7).dump_state() == game.dump_state()
    assert Climb.new(PLAYERS, seed=8).dump_state()["deck"] != game.dump_state()["deck"]


def test_each_player_is_dealt_hand_cards() -> None:
    game = Climb.new(["ann", "bob", "cy", "dee"], seed=3, options={"hand": 8})
    assert [len(game.view(p)["hand"]) for p in game.players] == [8, 8, 8, 8]
    assert game.view(None)["deck"] == 36 - 32 and game.view(None)["hands"] == dict.fromkeys(game.players, 8)
    assert Climb.new(PLAYERS, seed=3).view(None)["hands"] == {"ann": 5, "bob": 5}


@pytest.mark.parametrize("hand", [0, 9, -1, "5", True, 2.5])
def test_hand_must_be_a_whole_number_from_1_to_8(hand: object) -> None:
    with pytest.raises(GameError, match="hand must be a whole number from 1 to 8"):
        Climb.new(PLAYERS, options={"hand": hand})


def test_the_seat_count_is_2_to_4() -> None:
    for players in (["ann"], ["a", "b", "c", "d", "e"]):
        with pytest.raises(GameError, match="Climb needs 2–4 players"):
            Climb.new(players)


def test_the_opening_announces_the_deal_and_tells_each_hand_privately() -> None:
    game = Climb.new(PLAYERS, seed=21, options={"hand": 2})
    events = game.opening_events()
    assert texts(events) == ["The deal: 2 cards each."]
    assert [(e["to"], e["text"]) for e in events if not is_public(e)] == [
        ("ann", "You are dealt 1 · 4."), ("bob", "You are dealt 5 · 7.")]


# -- views ----------------------------------------------------------------------------


def test_the_public_view_shows_counts_never_a_hand() -> None:
    game = Climb.new(PLAYERS, seed=21, options={"hand": 2})
    game.play("ann", "play 1")
    public = game.view(None)
    assert public == {
        "players": ["ann", "bob"], "pile_top": 1, "pile_size": 1, "deck": 32, "hands": {"ann": 1, "bob": 2},
        "resigned": [], "turn": "bob", "turn_number": 2, "last_move": {"player": "ann", "move": "play 1"},
        "winner": None,
    }
    assert "hand" not in public and "hand" not in game.view("cy")


def test_a_player_s_view_adds_their_own_hand_sorted() -> None:
    game = position({"ann": [9, 2, 5], "bob": [4]}, deck=[1])
    assert game.view("ann") == {**game.view(None), "hand": [2, 5, 9]}
    assert game.view("bob")["hand"] == [4]
    assert game.private_view("ann") == {"hand": [2, 5, 9]} and game.private_view("cy") == {}


# -- playing --------------------------------------------------------------------------


def test_any_card_may_start_an_empty_pile() -> None:
    game = position({"ann": [1, 9], "bob": [5]}, deck=[3])
    assert game.legal_moves("ann") == ["play 1", "play 9", "draw", "resign"]
    assert texts(game.play("ann", "play 1")) == ["ann plays 1."]
    assert game.view(None)["pile_top"] == 1


def test_a_card_must_be_higher_than_the_pile_top() -> None:
    game = position({"ann": [3, 5, 8], "bob": [2]}, deck=[1], pile=[2, 5])
    assert game.legal_moves("ann") == ["play 8", "draw", "resign"]
    for card in (3, 5):
        with pytest.raises(IllegalMove, match=f"{card} is not higher than the pile's top card, 5"):
            game.play("ann", f"play {card}")
    game.play("ann", "play 8")
    assert game.view(None)["pile_top"] == 8 and game.view(None)["pile_size"] == 3


def test_a_card_not_in_your_hand_is_refused_naming_your_hand() -> None:
    game = position({"ann": [3, 5], "bob": [2]}, deck=[1])
    with pytest.raises(IllegalMove, match=r"You have no 4: your hand is 3 · 5\."):
        game.play("ann", "play 4")


def test_draw_takes_the_deck_s_top_card_privately_and_says_so_publicly() -> None:
    game = position({"ann": [3], "bob": [2]}, deck=[7, 1])
    events = game.play("ann", "draw")
    assert texts(events) == ["ann draws a card."]
    assert [(e["to"], e["text"]) for e in events if not is_public(e)] == [("ann", "You draw a 7.")]
    assert game.view("ann")["hand"] == [3, 7] and game.view(None)["deck"] == 1
    assert "7" not in " ".join(texts(events))


def test_draw_clears_the_pile() -> None:
    game = position({"ann": [3], "bob": [2]}, deck=[7], pile=[1, 4, 6])
    assert "The pile of 3 cards is cleared." in texts(game.play("ann", "draw"))
    assert game.view(None)["pile_top"] is None and game.view(None)["pile_size"] == 0
    assert game.legal_moves("bob") == ["play 2", "resign"]  # an empty pile takes any card, and the deck is empty


def test_draw_is_legal_while_the_deck_has_cards_even_when_a_card_could_be_played() -> None:
    game = position({"ann": [9], "bob": [2]}, deck=[7], pile=[1])
    assert "play 9" in game.legal_moves("ann") and "draw" in game.legal_moves("ann")


def test_with_an_empty_deck_a_playable_card_must_be_played() -> None:
    game = position({"ann": [2, 6, 8], "bob": [2]}, deck=[], pile=[5])
    assert game.legal_moves("ann") == ["play 6", "play 8", "resign"]
    with pytest.raises(IllegalMove, match="The deck is empty, so you must play while you can: you can play 6 or 8"):
        game.play("ann", "draw")


def test_with_an_empty_deck_and_no_playable_card_draw_takes_nothing_and_clears_the_pile() -> None:
    game = position({"ann": [2, 3], "bob": [4]}, deck=[], pile=[5])
    assert game.legal_moves("ann") == ["draw", "resign"]
    events = game.play("ann", "draw")
    assert texts(events) == ["ann cannot play, and the deck is empty: they draw nothing.",
                             "The pile of 1 card is cleared."]
    assert game.view("ann")["hand"] == [2, 3] and game.view(None)["pile_top"] is None and game.to_act() == ["bob"]


def test_first_to_empty_their_hand_wins() -> None:
    game = position({"ann": [4, 6], "bob": [5, 9]}, deck=[1, 1])
    game.play("ann", "play 4")
    assert not game.is_over and game.to_act() == ["bob"]
    game.play("bob", "play 5")
    assert texts(game.play("ann", "play 6")) == ["ann plays 6: their last card."]
    assert game.is_over and game.winners == ["ann"] and game.to_act() == [] and game.legal_moves("bob") == []
    assert game.view(None)["winner"] == "ann" and game.view(None)["turn"] is None


def test_resign_leaves_and_the_last_player_wins() -> None:
    game = position({"ann": [4, 6], "bob": [5], "cy": [1, 2, 3]}, deck=[9])
    assert texts(game.play("ann", "resign")) == ["ann resigns; their 2 cards are set aside."]
    assert game.view(None)["resigned"] == ["ann"] and game.view(None)["hands"]["ann"] == 0
    assert game.to_act() == ["bob"] and not game.is_over
    game.play("bob", "draw")
    assert game.to_act() == ["cy"]
    game.play("cy", "play 1")
    assert game.to_act() == ["bob"]  # ann's seat is passed over
    assert texts(game.play("bob", "resign")) == ["bob resigns; their 2 cards are set aside.",
                                                 "cy is the last player left."]
    assert game.is_over and game.winners == ["cy"]


def test_the_turn_passes_in_seat_order() -> None:
    game = position({"ann": [1, 1], "bob": [2, 2], "cy": [3, 3]}, deck=[9, 9, 9, 9])
    order = []
    for _ in range(4):
        [actor] = game.to_act()
        order.append(actor)
        game.play(actor, "draw")
    assert order == ["ann", "bob", "cy", "ann"]


# -- notation and refusals --------------------------------------------------------------


@pytest.mark.parametrize("typed", ["play 7", "PLAY 7", "  play   7 ", "Play 07", "play7", "7", "07"])
def test_play_is_read_forgivingly_and_logged_canonically(typed: str) -> None:
    game = position({"ann": [7, 8], "bob": [2]}, deck=[1])
    game.play("ann", typed)
    assert game.last_move == "play 7" and game.view(None)["last_move"] == {"player": "ann", "move": "play 7"}


@pytest.mark.parametrize(("typed", "canonical"), [("DRAW", "draw"), (" draw ", "draw"), ("Resign", "resign")])
def test_draw_and_resign_are_read_in_any_case(typed: str, canonical: str) -> None:
    game = position({"ann": [7], "bob": [2], "cy": [3]}, deck=[1])
    game.play("ann", typed)
    assert game.last_move == canonical


@pytest.mark.parametrize(("typed", "message"), [
    ("jump 3", "I can't read 'jump 3': write 'play 7', 'draw' or 'resign'. Legal now: play 3, draw, resign."),
    ("play seven", "'seven' is not a card: the cards are numbers from 1 to 9, like 'play 7'. Legal now:"),
    ("", "I can't read '': write 'play 7', 'draw' or 'resign'."),
])
def test_unreadable_moves_quote_what_was_typed_and_say_what_is_legal(typed: str, message: str) -> None:
    game = position({"ann": [3], "bob": [2]}, deck=[1])
    with pytest.raises(BadNotation) as err:
        game.play("ann", typed)
    assert str(err.value).startswith(message)


def test_a_card_that_does_not_exist_is_refused_as_typed() -> None:
    game = position({"ann": [3], "bob": [2]}, deck=[1])
    for typed, shown in (("play 10", "10"), ("play 0", "0"), ("play 00012", "00012")):
        with pytest.raises(IllegalMove, match=f"There is no card {shown}: the cards are 1 to 9."):
            game.play("ann", typed)


def test_illegal_moves_change_nothing() -> None:
    game = position({"ann": [2, 6, 8], "bob": [3, 9]}, deck=[], pile=[5])
    before = game.to_json()
    for player, move, error in [
        ("ann", "play 2", IllegalMove), ("ann", "play 4", IllegalMove), ("ann", "draw", IllegalMove),
        ("ann", "hop", BadNotation), ("ann", "play x", BadNotation), ("bob", "play 9", NotYourTurn),
        ("cy", "draw", IllegalMove),
    ]:
        with pytest.raises(error):
            game.play(player, move)
        assert game.to_json() == before, (player, move)


def test_no_move_after_the_game_is_over() -> None:
    game = position({"ann": [4], "bob": [5]}, deck=[1])
    game.play("ann", "play 4")
    with pytest.raises(IllegalMove, match="The game is over"):
        game.play("bob", "play 5")


# -- saving -----------------------------------------------------------------------------


def test_a_saved_game_loads_and_continues_identically() -> None:
    game = Climb.new(["ann", "bob", "cy"], seed=11, options={"hand": 4})
    rng = random.Random(3)
    for _ in range(6):
        [actor] = game.to_act()
        game.play(actor, rng.choice([m for m in game.legal_moves(actor) if m != "resign"]))
    copy = Climb.from_json(game.to_json())
    assert copy.to_json() == game.to_json() and copy.view(None) == game.view(None)
    while not game.is_over:
        [actor] = game.to_act()
        assert copy.legal_moves(actor) == game.legal_moves(actor)
        move = rng.choice([m for m in game.legal_moves(actor) if m != "resign"])
        assert copy.play(actor, move) == game.play(actor, move)  # the same draws: the RNG and deck were saved
        assert copy.to_json() == game.to_json()
    assert copy.winners == game.winners


@pytest.mark.parametrize(("change", "field"), [
    ({"turn": 5}, "turn"), ({"deck": [10]}, "deck[0]"), ({"pile": [5, 3]}, "pile"),
    ({"hands": {"ann": [1]}}, "hands"), ({"resigned": ["zed"]}, "resigned[0]"), ({"rng": -1}, "rng"),
    ({"deck": [1, 1, 1, 1, 1]}, "more than four copies"), ({"winner": "zed"}, "winner"),
])
def test_a_damaged_save_is_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    saved = json.loads(Climb.new(PLAYERS, seed=2).to_json())
    saved["state"].update(change)
    with pytest.raises(GameError, match="The saved Climb game is damaged") as err:
        Climb.from_json(json.dumps(saved))
    assert field in str(err.value)


# -- the turn clock -----------------------------------------------------------------------


def test_the_clock_s_skip_plays_the_lowest_playable_card_else_draws() -> None:
    assert position({"ann": [9, 4, 7], "bob": [2]}, deck=[1], pile=[3]).timeout_moves("ann", "skip") == ["play 4"]
    assert position({"ann": [2, 3], "bob": [2]}, deck=[1], pile=[5]).timeout_moves("ann", "skip") == ["draw"]
    assert position({"ann": [2, 3], "bob": [2]}, deck=[], pile=[5]).timeout_moves("ann", "skip") == ["draw"]
    assert position({"ann": [2], "bob": [2]}, deck=[1]).timeout_moves("bob", "skip") == []  # not bob's turn


def test_the_clock_s_forfeit_resigns() -> None:
    game = position({"ann": [2], "bob": [3]}, deck=[1])
    assert game.timeout_moves("ann", "forfeit") == ["resign"]
    assert set(Climb.TIMEOUT_DOCS) == {"skip", "forfeit"}


def test_every_game_ends_whatever_is_played() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        game = Climb.new(PLAYERS[: 2] + ["cy", "dee"][: seed % 3], seed=seed, options={"hand": 1 + seed % 8})
        for _ in range(2000):  # each draw from a full deck uses a card; a draw from an empty one is followed by a play
            if game.is_over:
                break
            [actor] = game.to_act()
            game.play(actor, rng.choice([m for m in game.legal_moves(actor) if m != "resign"]))
        assert game.is_over, seed


# -- the bots -------------------------------------------------------------------------------


def test_normal_and_hard_bots_play_the_lowest_playable_card_else_draw() -> None:
    for level in ("normal", "hard"):
        assert choose({}, ["play 4", "play 9", "draw", "resign"], "ann", level, random.Random(0)) == "play 4"
        assert choose({}, ["draw", "resign"], "ann", level, random.Random(0)) == "draw"


def test_an_easy_bot_picks_any_legal_move_but_resign() -> None:
    legal = ["play 4", "play 9", "draw", "resign"]
    picked = {choose({}, legal, "ann", "easy", random.Random(n)) for n in range(60)}
    assert picked == {"play 4", "play 9", "draw"}


def test_bots_think_from_their_own_view_and_finish_a_game(
    climb_offered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Climb.new(["ann", "bob", "cy"], seed=5)
    seen: list[dict[str, Any]] = []
    found = ai.policy("climb")  # the kit's policy, found through the registry
    assert found is choose

    def spy(view: dict[str, Any], legal: list[str], seat: str, level: str, rng: random.Random,
            **options: Any) -> Any:
        seen.append(view)
        return found(view, legal, seat, level, rng, **options)

    monkeypatch.setattr(ai, "policy", lambda name: spy)
    rng = random.Random(1)
    for n in range(500):
        if game.is_over:
            break
        [actor] = game.to_act()
        move = ai.think(game, actor, ai.LEVELS[n % 3], rng)
        assert seen[-1] == game.view(actor)  # the seat's own view: its hand, no other
        game.play(actor, move)
    assert game.is_over


# -- the picture -------------------------------------------------------------------------------


def test_the_picture_is_an_800_by_360_png_of_the_public_view() -> None:
    game = Climb.new(["ann", "bob", "cy"], seed=9)
    png = render(game.view(None))
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT) == (800, 360)
    assert draw(game.view(None)).tobytes() == image.convert("RGB").tobytes()
    assert png != generic.render(game.view(None), title="Climb")


def test_the_picture_shows_the_pile_the_deck_the_counts_and_who_is_to_act() -> None:
    base = position({"ann": [3, 8], "bob": [2, 9]}, deck=[1, 5])
    pictures = {render(base.view(None))}
    for changed in (
        position({"ann": [3, 8], "bob": [2, 9]}, deck=[1, 5], pile=[4]),  # a pile
        position({"ann": [3, 8], "bob": [2, 9]}, deck=[1, 5], pile=[6]),  # another top card
        position({"ann": [3, 8], "bob": [2, 9]}, deck=[1]),  # a smaller deck
        position({"ann": [3], "bob": [2, 9]}, deck=[1, 5]),  # ann holds one card less
        position({"ann": [3, 8], "bob": [2, 9]}, deck=[1, 5], turn=1),  # bob to act
    ):
        pictures.add(render(changed.view(None)))
    assert len(pictures) == 6
    assert render(position({"ann": [4, 6], "bob": [2, 9]}, deck=[1, 5]).view(None)) in pictures  # hands unseen


def test_the_picture_draws_a_finished_game_and_a_resigned_player() -> None:
    game = position({"ann": [4], "bob": [5], "cy": [6]}, deck=[1])
    game.play("ann", "resign")
    game.play("bob", "resign")
    image = draw(game.view(None))
    assert image.size == (800, 360) and game.view(None)["winner"] == "cy"


# -- the Discord surface ------------------------------------------------------------------------


def table_of(game: Climb) -> Table:
    """Returns a stand-in for a table: the surface's functions read only its game."""
    return cast(Table, SimpleNamespace(game=game))


def test_the_board_offers_a_draw_button_only_when_draw_is_legal() -> None:
    assert quick_moves(table_of(position({"ann": [2], "bob": [3]}, deck=[1])), "ann") == [("Draw", "draw")]
    assert quick_moves(table_of(position({"ann": [7], "bob": [3]}, deck=[], pile=[5])), "ann") == []
    assert quick_moves(table_of(position({"ann": [2], "bob": [3]}, deck=[1])), "bob") == []  # not bob's turn


def test_the_hand_menu_offers_the_playable_cards() -> None:
    game = position({"ann": [2, 6, 8, 8], "bob": [3]}, deck=[1], pile=[5])
    assert hand_moves(table_of(game), "ann") == [("Play 6", "play 6"), ("Play 8", "play 8")]
    assert hand_moves(table_of(game), "bob") == []


def test_the_hand_dm_lists_the_cards() -> None:
    assert secret_line({"hand": [2, 5, 7, 9]}) == "**Your hand:** 2 · 5 · 7 · 9"
    assert secret_line({"hand": []}) == "**Your hand:** no cards"
    assert describe_secret({"hand": [3, 1]}) == "Your hand: 1 · 3"


def test_the_surface_gives_the_slash_command_group_and_no_hand_alert() -> None:
    surface = tablehost_climb.SURFACE
    assert surface.commands is not None and surface.commands.__cog_group_name__ == "climb"
    assert surface.hand_alert is None and surface.event_line is None
    assert {c.name for c in surface.commands.__cog_app_commands__} == {"new", "play", "draw", "resign", "rules", "help"}


# -- the rules summary ----------------------------------------------------------------------------


def test_the_rules_summary_has_two_titled_pages_that_fit_a_message(climb_offered: None) -> None:
    from cogs.rules import PAGE_LIMIT, pages

    found = pages("climb")
    assert len(found) == 2
    for page in found:
        assert len(page) < PAGE_LIMIT == 1800
        first = page.splitlines()[0]
        assert first.startswith("**") and first.endswith("**")


# -- the entry point --------------------------------------------------------------------------------


def test_climb_is_found_through_its_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    [point] = [p for p in entry_points(group=GROUP) if p.name == "climb"]
    assert point.value == "tablehost_climb:KIT" and point.dist is not None and point.dist.name == "tablehost-climb"
    assert "climb" not in KITS  # installed, but not offered unless TABLEHOST_GAMES names it
    with monkeypatch.context() as patch:
        patch.setenv(ONLY, "climb,nexo,nxs,xisk")
        KITS.reload()
        try:
            assert KITS["climb"] is tablehost_climb.KIT and point.load() is tablehost_climb.KIT
            assert GAMES["climb"] is Climb and sorted(KITS) == ["climb", "nexo", "nxs", "xisk"]
            kit = KITS["climb"]
            assert (kit.group, kit.ai, kit.render, kit.picture) == ("climb", choose, render, draw)
            assert kit.rules is not None and kit.rules.is_file() and kit.surface is tablehost_climb.SURFACE
            assert kit.notation_help == "Moves: `play <card>`, `draw`, `resign`."
        finally:
            KITS.reload()
    KITS.reload()
    assert "climb" not in KITS
