"""The turn clock's contract (``Game.timeout_moves``), for every game and the shared default."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import GAMES, Game, IllegalMove
from engines.core import JSON, Event, event
from engines.core.game import ON_TIMEOUT
from engines.xisk.state import Phase

PLAYERS = {"xisk": ["ann", "bob", "cy"], "nxs": ["ann", "bob"], "nexo": ["ann", "bob"]}
GIVE_UP = {"resign", "concede"}


class Turns(Game):
    """A bare game for the default: players say ``next`` in turn; ``quit`` ends it. No skip, no give-up."""

    NAME, TITLE, MIN_PLAYERS, MAX_PLAYERS = "turns", "Turns", 2, 2

    def setup(self) -> None:
        self.turn, self.quitter = 0, ""

    def to_act(self) -> list[str]:
        return [] if self.quitter else [self.players[self.turn]]

    def legal_moves(self, player: str) -> list[str]:
        return ["next", "quit"] if player in self.to_act() else []

    @property
    def is_over(self) -> bool:
        return bool(self.quitter)

    @property
    def winners(self) -> list[str]:
        return [p for p in self.players if self.quitter and p != self.quitter]

    def view(self, player: str | None) -> JSON:
        return {"turn": self.turn}

    def apply(self, player: str, text: str) -> tuple[str, list[Event]]:
        if text not in ("next", "quit"):
            raise IllegalMove("Say next or quit.")
        if text == "quit":
            self.quitter = player
        self.turn = 1 - self.turn
        return text, [event(text, f"{player}: {text}.")]

    def dump_state(self) -> JSON:
        return {"turn": self.turn, "quitter": self.quitter}

    def load_state(self, data: JSON) -> None:
        self.turn, self.quitter = data["turn"], data["quitter"]


class Quits(Turns):
    """Turns whose give-up move is ``quit``; still no skip."""

    FORFEIT_MOVE = "quit"


class Skips(Quits):
    """Quits with a skip: ``next``."""

    def skip_moves(self, player: str) -> list[str]:
        return ["next"]


def test_the_policies_are_skip_and_forfeit() -> None:
    assert ON_TIMEOUT == ("skip", "forfeit") and Game.ON_TIMEOUT == ON_TIMEOUT


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_unknown_policy_raises_value_error(name: str) -> None:
    g = GAMES[name].new(PLAYERS[name], seed=1)
    with pytest.raises(ValueError, match="on_timeout must be one of skip, forfeit"):
        g.timeout_moves(g.to_act()[0], "bot")
    with pytest.raises(ValueError):
        g.timeout_moves("nobody", "Skip")  # checked before anything else, case and all


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_names_its_give_up_move_and_documents_both_policies(name: str) -> None:
    cls = GAMES[name]
    assert cls.FORFEIT_MOVE in GIVE_UP and set(cls.TIMEOUT_DOCS) == set(ON_TIMEOUT)
    g = cls.new(PLAYERS[name], seed=2)
    assert g.timeout_moves(g.to_act()[0], "forfeit") == [cls.FORFEIT_MOVE]


def test_a_game_without_a_skip_falls_back_to_forfeit() -> None:
    g = Quits.new(["ann", "bob"])
    assert g.timeout_moves("ann", "skip") == g.timeout_moves("ann", "forfeit") == ["quit"]


def test_a_game_with_a_skip_skips_and_forfeits_apart() -> None:
    g = Skips.new(["ann", "bob"])
    assert g.timeout_moves("ann", "skip") == ["next"] and g.timeout_moves("ann", "forfeit") == ["quit"]


def test_a_game_with_no_give_up_move_has_no_forfeit() -> None:
    g = Turns.new(["ann", "bob"])
    assert g.timeout_moves("ann", "forfeit") == [] and g.timeout_moves("ann", "skip") == []


def test_a_player_who_is_not_to_act_gets_nothing() -> None:
    g = Skips.new(["ann", "bob"])
    assert g.timeout_moves("bob", "forfeit") == [] and g.timeout_moves("zed", "skip") == []
    g.play("ann", "quit")
    assert g.timeout_moves("bob", "skip") == [] and g.timeout_moves("ann", "forfeit") == []


def test_clone_is_the_same_game_and_independent() -> None:
    g = GAMES["xisk"].new(PLAYERS["xisk"], seed=3)
    h = g.clone()
    assert h.to_json() == g.to_json() and h is not g
    h.play(h.to_act()[0], h.legal_moves(h.to_act()[0])[0])
    assert h.to_json() != g.to_json()


# -- property: from random positions, skip plays and hands the turn on --------------------


def random_position(name: str, seed: int, moves: int) -> Game:
    """Returns a game of ``name`` after up to ``moves`` random legal moves (a rare XISK resign)."""
    g = GAMES[name].new(PLAYERS[name], seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        player = g.to_act()[0]
        legal = g.legal_moves(player)
        if "resign" in legal and name == "xisk" and rnd.random() < 0.02:
            g.play(player, "resign")
            continue
        choices = [m for m in legal if m not in GIVE_UP and not m.startswith("scrap")]
        attacks = [m for m in choices if m.startswith(("attack", "invade"))]
        g.play(player, rnd.choice(attacks if attacks and rnd.random() < 0.8 else choices))
    return g


def _activations(g: Game) -> int:
    """Nexohominis: how many activations and Passes have been used this phase."""
    s = g.state  # type: ignore[attr-defined]
    used = sum(p.activated for p in [*s.models.values(), *s.buildings.values()])
    return used - sum(side.passes for side in s.sides.values())


def handed_on(name: str, before: Game, after: Game, player: str) -> bool:
    """True when ``player``'s turn (or their part of it) is over in ``after``."""
    if after.is_over or player not in after.to_act():
        return True
    b, a = before.state, after.state  # type: ignore[attr-defined]
    if name == "xisk":  # a new turn, or the first one after the claiming
        return bool(a.turn_number != b.turn_number or (b.phase is Phase.CLAIM and a.phase is not Phase.CLAIM))
    if name == "nexo":  # an activation, a Pass, an Initiative choice or a Production end went by
        phase_moved = (a.round, a.phase) != (b.round, b.phase)
        ended = any(a.sides[k].ended != b.sides[k].ended for k in a.sides)
        finished = b.active is not None or _activations(after) > _activations(before)
        return a.active is None and (phase_moved or ended or finished)
    return False


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), moves=st.integers(0, 60))
def test_skip_moves_all_play_and_hand_the_turn_on(name: str, seed: int, moves: int) -> None:
    g = random_position(name, seed, moves)
    if g.is_over:
        return
    player = g.to_act()[0]
    before = g.clone()
    skip = g.timeout_moves(player, "skip")
    assert g.to_json() == before.to_json()  # asking changes nothing
    assert skip
    for move in skip:
        assert player in g.to_act(), (move, skip)
        g.play(player, move)
    assert handed_on(name, before, g, player), skip


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), moves=st.integers(0, 60))
def test_forfeit_moves_all_play_and_the_player_is_out(name: str, seed: int, moves: int) -> None:
    g = random_position(name, seed, moves)
    if g.is_over:
        return
    player = g.to_act()[0]
    forfeit = g.timeout_moves(player, "forfeit")
    for move in forfeit:
        g.play(player, move)
    if name == "xisk" and not forfeit:  # the last player left may not resign (reading 13)
        assert [p for p in g.players if p not in g.view(None)["eliminated"]] == [player]
    elif name == "xisk":
        assert player in g.view(None)["eliminated"] and player not in g.to_act()
        assert not g.is_over or len(g.winners) == 1
    else:
        assert g.is_over and g.winners == [p for p in g.players if p != player]
