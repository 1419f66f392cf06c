"""What a live board says of a turn: each player's next step, the turn before in short, words never cut."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from cogs import nexo, nxs, xisk
from cogs.board import FIELD_LIMIT, last_turn, shorten, steps
from cogs.delivery import board_heading
from cogs.spectate import unpinged
from cogs.surface import Surface, default_instruction
from engines import GAMES
from host.outbox import Outbox
from host.rows import Board

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300)


@given(TEXT, st.integers(min_value=1, max_value=320))
def test_shorten_fits_and_is_the_text_or_a_start_that_ends_a_word(text: str, limit: int) -> None:
    short = shorten(text, limit)
    assert len(short) <= limit
    if short != text:
        start = short.removesuffix("…")
        assert short.endswith("…") and text.startswith(start)
        assert not (start[-1:].isalnum() and text[len(start)].isalnum())  # never inside a word


@given(st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=12), min_size=1, max_size=80),
       st.integers(min_value=1, max_value=200))
def test_shorten_keeps_whole_words_only(words: list[str], limit: int) -> None:
    text = " ".join(words)
    kept = shorten(text, limit).removesuffix("…").split()
    assert kept == words[: len(kept)]


def test_shorten_refuses_a_limit_below_one() -> None:
    try:
        shorten("text", 0)
    except ValueError as err:
        assert "0 characters" in str(err)
    else:
        raise AssertionError("a limit of 0 was accepted")


def _out(game: str, view: dict, to_act: list[str], *, mention: list[str] | None = None, **fields: object) -> Outbox:
    names = {"1": "Ann", "2": "Bob"}
    return Outbox(game_id=1, game=game, channel_id="9", view=view, to_act=to_act, names=names,
                  mention=to_act if mention is None else mention, **fields)  # type: ignore[arg-type]


def test_the_turn_ping_names_the_player_and_the_step_and_pings_only_whom_it_did() -> None:
    view = {"phase": "supply", "supply_left": 6, "cards_held": {"Bob": 1}}
    out = _out("xisk", view, ["2"])
    content, pings = board_heading(out, late=False)
    assert content == "<@2> Bob: place 6 chips (Supply phase), then attack or end."
    copied = unpinged(content, out.names)  # a spectator copy: no ping, the name once
    assert copied == "Bob: place 6 chips (Supply phase), then attack or end."
    assert [u.id for u in pings.users] == [2] and pings.everyone is False and pings.roles is False


def test_a_player_to_act_who_is_not_pinged_is_named_with_their_step() -> None:
    content, pings = board_heading(_out("xisk", {"phase": "attack"}, ["1"], mention=[]), late=False)
    assert content == "Ann: attack or end the attack phase." and pings.users == []


def test_a_late_announcement_keeps_its_note_and_pings_the_actor_too() -> None:
    out = _out("xisk", {"phase": "adjust"}, ["1"], actor_id="2", move="end")
    content, pings = board_heading(out, late=True)
    step, note = content.splitlines()
    assert step == "<@1> Ann: adjust once (chips between two of your countries) or skip."
    assert note == "<@2>: your move `end` was saved, but my reply to you was lost (the bot restarted)."
    assert sorted(u.id for u in pings.users) == [1, 2]


def test_a_display_name_in_a_step_is_escaped() -> None:
    out = Outbox(game_id=1, game="tally", channel_id="9", view={}, to_act=["1"], names={"1": "*@everyone*"})
    assert steps(out) == ["\\*@\u200beveryone\\*: your move."]


def test_the_default_step_says_the_turn_and_phase_the_view_has() -> None:
    assert default_instruction({"turn_number": 3, "phase": "attack"}, "Ann") == "Ann: your move (turn 3, attack phase)."
    assert Surface().step({}, "Ann") == "Ann: your move."
    assert Surface(instruction=lambda v, p: None).step({}, "Ann") == "Ann: your move."  # None: the default


def test_each_xisk_phase_has_its_step_with_its_numbers() -> None:
    game = GAMES["xisk"].new(players=["Ann", "Bob"], seed=4, options={"cards_per_player": 3})
    claimer = game.to_act()[0]
    assert xisk.instruction(game.view(None), claimer) == f"{claimer}: claim a country: card 1 of 6."
    rng = random.Random(1)
    seen: dict[str, str] = {}
    for _ in range(600):
        if game.is_over or len(seen) >= 5:
            break
        [actor] = game.to_act()
        view = game.view(None)
        line = xisk.instruction(view, actor)
        assert line is not None and line.startswith(f"{actor}: ")
        seen.setdefault(view["phase"], line)
        if view["phase"] == "supply":
            assert f"place {view['supply_left']} chip" in line or "redeem a cardset first" in line
        if view["phase"] == "invade":
            assert f"move 0–{view['invade']['most']} more chips into " in line
        legal = [m for m in game.legal_moves(actor) if m != "resign"]
        game.play(actor, rng.choice(legal))
    assert {"claim", "supply", "attack", "adjust"} <= set(seen), seen


def test_a_xisk_player_who_must_redeem_is_told_so_from_the_card_count_alone() -> None:
    view = {"phase": "supply", "supply_left": 4, "cards_held": {"Ann": 5}, "next_set_value": 3}
    assert xisk.instruction(view, "Ann") == ("Ann: redeem a cardset first (you hold 5 cards), then place 7 chips"
                                             " (Supply phase), then attack or end.")
    assert xisk.instruction({"phase": "over"}, "Ann") is None


def test_a_xisk_summary_says_what_the_turn_did_and_never_names_a_drawn_card() -> None:
    events = [
        {"kind": "redeem", "player": "Bob", "cards": ["AS", "KS", "QS"], "set_number": 2, "text": "…"},
        {"kind": "place", "player": "Bob", "country": "alaska", "count": 6, "text": "…"},
        *({"kind": "battle", "attacker": "Bob", "attacker_losses": 1, "defender_losses": 2, "text": "…"}
          for _ in range(5)),
        *({"kind": "conquer", "player": "Bob", "country": c, "text": "…"} for c in ("alaska", "kamchatka", "peru")),
        {"kind": "turn", "player": "Ann", "supply": 3, "text": "Ann's turn: 3 supply chips."},
        {"kind": "draw", "player": "Bob", "text": "Bob draws a card."},
    ]
    summary = xisk.turn_summary("Bob", events)
    assert summary == ("Bob redeemed 1 cardset (+2 chips), placed 6 chips, took 3 countries (Alaska, Kamchatka,"
                       " Peru), lost 5 chips, killed 10, drew a card.")
    assert xisk.turn_summary("Bob", [{"kind": "end_attack", "player": "Bob", "text": "…"}]) is None


def test_a_huge_turn_fits_its_field_and_is_cut_where_a_word_ends() -> None:
    out = _out("tally", {}, ["2"])
    ended = Board("m", ("1",), tuple(f"Ann adds {n} and counts again." for n in range(300)))
    summary = last_turn(out, ended)
    assert len(summary) <= FIELD_LIMIT and summary.endswith("…")
    assert " · ".join(ended.recap).startswith(summary.removesuffix("…"))
    xisk_out = _out("xisk", {}, ["2"])
    battles = tuple({"kind": "conquer", "player": "Ann", "country": "peru", "text": "…"} for _ in range(2000))
    own = last_turn(xisk_out, Board("m", ("1", "turn 3"), ("…",), battles))
    assert own == "Ann took 2000 countries (Peru, Peru, Peru, Peru, Peru, Peru and 1994 more)."


def test_a_game_s_own_summary_is_escaped_and_the_recap_is_the_default() -> None:
    out = Outbox(game_id=1, game="xisk", channel_id="9", names={"1": "*Ann*"})
    events = ({"kind": "draw", "player": "*Ann*", "text": "*Ann* draws a card."},)
    assert last_turn(out, Board("m", ("1",), ("recap",), events)) == "\\*Ann\\* drew a card."
    assert last_turn(out, Board("m", ("1",), ("one.", " ", "two."))) == "one. · two."  # no events: the recap


def test_nxs_and_nexo_steps_come_from_their_views() -> None:
    duel = GAMES["nxs"].new(players=["Ann", "Bob"], seed=1, options={})
    assert nxs.instruction(duel.view(None), "Ann") == ("Ann (white): move or capture with a ship, then rotate it"
                                                       " (0 of 10 hexes held).")
    move = next(m for m in duel.legal_moves("Ann") if m.startswith("move"))
    duel.play("Ann", move)
    assert nxs.instruction(duel.view(None), "Ann") == (f"Ann: rotate the ship on {move.split()[2]} left or right"
                                                       " to end the turn.")
    skirmish = GAMES["nexo"].new(players=["Ann", "Bob"], seed=1, options={})
    [first] = skirmish.to_act()
    assert nexo.instruction(skirmish.view(None), first) == (f"{first}: you won the initiative: choose who activates"
                                                            " first (first me, or first them).")
    skirmish.play(first, "first me")
    line = nexo.instruction(skirmish.view(None), skirmish.to_act()[0])
    assert line is not None and "Worker Phase, round 1" in line
