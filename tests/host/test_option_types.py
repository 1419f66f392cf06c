"""Options of the wrong type are refused with a sentence naming the option, never a crash.

Each engine's ``check_options`` refuses a list, an object, null, true/false, a float where
a whole number is due, text too long or holding NUL (one case per option of each game),
with a GameError whose message names the option. Hypothesis then sends arbitrary JSON
(nested lists and objects of null, booleans, numbers and text) as the value of every option
of every game, and of unknown ones: only a GameError or completed options come back.
``Tables.create``, which calls ``check_options``, refuses the same way and opens nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import GAMES, Game, GameError
from engines.nexo.game import Nexo
from engines.nxs.game import Nxs
from engines.xisk.game import Xisk
from host.table import NoGame, Refusal
from host.tables import Tables
from tests.host.conftest import ANN, CHANNEL

MAX_REFUSAL = 300
"""The longest refusal a player may be sent."""

NOT_TEXT: list[Any] = [[], ["short"], {}, {"name": "short"}, None, 1, 2.5, True]
"""Values of every JSON type but text."""
NOT_WHOLE: list[Any] = [10.0, "10", True, False, None, [10], {"n": 10}]
"""Values of every JSON type but a whole number (a float with nothing after the point included)."""
JUNK_TEXT: list[Any] = ["", "\x00", "short\x00", "x" * 10_001]
"""Text that names nothing: empty, NUL bytes, longer than any option may be."""

WRONG: dict[type[Game], dict[str, list[Any]]] = {
    Nxs: {
        "layout": NOT_TEXT + JUNK_TEXT,
        "target": NOT_WHOLE,
        "handicap": [[], ["bob", 8], "bob=8", 8, None, True, {"bob": 8.0}, {"bob": "8"}, {"bob": [8]},
                     {"white": True}, {"bob": None}, {"bob": {"n": 8}}],
        "quiet_turns": NOT_WHOLE,
        "repetitions": NOT_WHOLE,
    },
    Xisk: {
        "cards_per_player": [v for v in NOT_WHOLE if v is not None],  # null is the default: dealt by seat count
    },
    Nexo: {
        "scenario": [[], [{}], "crossroads", 1, 2.5, True, {"round": "3"}, {"round": 3.0}, {"sides": []},
                     {"sides": {"p1": {"models": {}}}}, {"depots": [{"id": "K1", "x": "10", "y": 18}]}],
        "battlefield": [*NOT_TEXT, {"preset": "crossroads"}, *JUNK_TEXT],
        "carbonite": [200.0, "200", True, None, [200], {"n": 200}],
        "round_limit": [v for v in NOT_WHOLE if v is not None],  # null is the default: no limit
    },
}


def refusal(cls: type[Game], name: str, value: Any) -> str:
    """Returns the refusal of ``{name: value}``; fails unless it is a short GameError naming the option."""
    with pytest.raises(GameError) as info:
        cls.check_options({name: value})
    text = str(info.value)
    assert name in text, text
    assert len(text) <= MAX_REFUSAL, text[:400]
    assert "Traceback" not in text and "object at" not in text and "Error(" not in text, text
    return text


def refuses_every_wrong_type(cls: type[Game]) -> None:
    """Checks every case of :data:`WRONG` for ``cls``, which must have one for each of its options."""
    assert set(WRONG[cls]) == set(cls.OPTIONS), "every option needs its wrong-typed values here"
    for name, values in WRONG[cls].items():
        for value in values:
            refusal(cls, name, value)


def test_nxs_refuses_a_value_of_the_wrong_type_for_each_option() -> None:
    refuses_every_wrong_type(Nxs)
    assert refusal(Nxs, "layout", []) == "layout must be one of short, medium, long, not a list."
    assert refusal(Nxs, "layout", {}) == "layout must be one of short, medium, long, not an object."
    assert refusal(Nxs, "target", 10.0) == "target must be a whole number from 1 to 37, not 10.0."
    assert refusal(Nxs, "quiet_turns", 20_000).endswith("from 1 to 10000, not 20000.")
    assert "not 8.0 for 'bob'" in refusal(Nxs, "handicap", {"bob": 8.0})


def test_nxs_still_reads_each_valid_option() -> None:
    opts = Nxs.check_options({"layout": "short", "target": 12, "handicap": {"bob": 8}, "quiet_turns": 1,
                              "repetitions": 100})
    assert opts == {"layout": "short", "target": 12, "handicap": {"bob": 8}, "quiet_turns": 1, "repetitions": 100}
    assert Nxs.check_options({}) == Nxs.OPTIONS
    assert refusal(Nxs, "layout", "shrt") == (
        "NXS has no layout 'shrt': did you mean short? (layouts: short, medium, long).")
    assert refusal(Nxs, "layout", "\x00") == "NXS has no layout '' (layouts: short, medium, long)."


def test_xisk_refuses_a_value_of_the_wrong_type_for_each_option() -> None:
    refuses_every_wrong_type(Xisk)
    assert refusal(Xisk, "cards_per_player", 7.0) == "cards_per_player must be a whole number from 1 to 21, not 7.0."
    assert Xisk.check_options({"cards_per_player": None}) == {"cards_per_player": None}
    assert Xisk.check_options({"cards_per_player": 7}) == {"cards_per_player": 7}


def test_nexo_refuses_a_value_of_the_wrong_type_for_each_option() -> None:
    refuses_every_wrong_type(Nexo)
    assert refusal(Nexo, "battlefield", []) == (
        "battlefield must be one of crossroads, dust_belt, random, not a list.")
    assert refusal(Nexo, "carbonite", 200.0) == "carbonite must be a whole number of at least 0, not 200.0."
    assert refusal(Nexo, "scenario", []).startswith("The scenario is not valid: scenario: (top): expected an object")
    opts = Nexo.check_options({"battlefield": "random", "carbonite": 0, "round_limit": 3, "scenario": {}})
    assert opts == {"battlefield": "random", "carbonite": 0, "round_limit": 3, "scenario": {}}


def test_options_that_are_not_name_value_pairs_are_refused() -> None:
    for cls in (Nxs, Xisk, Nexo):
        for options in (None, [], [["layout", "short"]], "layout=short", 5, True):
            with pytest.raises(GameError, match=f"^{cls.TITLE} options must be name=value pairs.$"):
                cls.check_options(options)


# -- any JSON, through every game -----------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
"""Arbitrary JSON-like values: NaN, infinities and huge whole numbers included."""


def option_sets(cls: type[Game]) -> st.SearchStrategy[Any]:
    """Draws options for ``cls``: mostly its own names (and a few unknown ones) with any values,
    sometimes a default value kept, sometimes something that is not name=value pairs at all."""
    names = st.sampled_from([*cls.OPTIONS, "colour", ""]) | st.text(max_size=8)
    values = JSON_VALUES | st.sampled_from([v for v in cls.OPTIONS.values()])
    return st.dictionaries(names, values, max_size=3) | JSON_VALUES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_any_json_option_value_is_refused_with_a_game_error_or_read(game: str) -> None:
    cls = GAMES[game]

    @settings(max_examples=300, deadline=None, database=None)
    @given(options=option_sets(cls))
    def check(options: Any) -> None:
        try:
            opts = cls.check_options(options)
        except GameError as err:  # anything else (TypeError, KeyError, AttributeError…) fails the test
            text = str(err)
            assert text and len(text) <= MAX_REFUSAL, text[:400]
            if isinstance(options, dict) and len(options) == 1 and set(options) <= set(cls.OPTIONS):
                assert next(iter(options)) in text, text  # the refusal names the option
            return
        assert isinstance(options, dict) and set(opts) == set(cls.OPTIONS)
        assert json.loads(json.dumps(opts)) == opts  # completed options are stored as JSON

    check()


# -- through Tables.create ------------------------------------------------------------


@pytest.mark.parametrize("options", [None, [], [["layout", "short"]], "layout=short", 5])
async def test_create_refuses_options_that_are_not_a_dict_and_opens_nothing(tables: Tables, options: Any) -> None:
    with pytest.raises(GameError, match="NXS options must be name=value pairs"):
        await tables.create(channel_id=CHANNEL, guild_id="1", game="nxs", creator=ANN, options=options)
    with pytest.raises(NoGame):
        await tables.table(CHANNEL)


@pytest.mark.parametrize(("game", "options", "name"), [
    ("nxs", {"layout": []}, "layout"),
    ("nxs", {"layout": {"short": 1}}, "layout"),
    ("nxs", {"target": 10.0}, "target"),
    ("nxs", {"handicap": [8]}, "handicap"),
    ("xisk", {"cards_per_player": "7"}, "cards_per_player"),
    ("nexo", {"battlefield": ["crossroads"]}, "battlefield"),
    ("nexo", {"scenario": "crossroads"}, "scenario"),
])
async def test_create_refuses_an_option_of_the_wrong_type_by_name_and_opens_nothing(
    tables: Tables, game: str, options: dict[str, Any], name: str
) -> None:
    with pytest.raises(GameError, match=name):
        await tables.create(channel_id=CHANNEL, guild_id="1", game=game, creator=ANN, options=options)
    with pytest.raises(NoGame):
        await tables.table(CHANNEL)
    await tables.create(channel_id=CHANNEL, guild_id="1", game=game, creator=ANN, options={})
    assert (await tables.table(CHANNEL)).row.game == game


@pytest.mark.parametrize("game", [["nxs"], None, {"name": "nxs"}, 5])
async def test_create_refuses_a_game_name_that_is_not_text(tables: Tables, game: Any) -> None:
    with pytest.raises(Refusal, match="There is no game called"):
        await tables.create(channel_id=CHANNEL, guild_id="1", game=game, creator=ANN, options={})
