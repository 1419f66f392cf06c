"""Junk never crashes a table: whatever a player sends, the answer is a short GameError.

Thousands of strings (hypothesis text with other scripts' digits such as '²', control
characters, huge strings, real verbs followed by junk) go through ``Tables.act`` of real
XISK, NXS and Nexohominis games; options nested 2,000 deep go through ``Tables.create``.
Only ``engines.GameError`` may come back, its message short and free of Python noise, and
a refused move leaves the stored snapshot exactly as it was. Saved states whose values are
out of range are refused by each engine's ``from_json`` with a GameError naming the field.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAMES, GameError
from host.tables import Person, Tables
from tests.host.conftest import ANN, BOB

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py), but the
junk moves: 1,000 examples a game on SQLite, 200 on PostgreSQL."""

MAX_REFUSAL = 300
NOISE = re.compile(
    r"Traceback|\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|[A-Za-z]+Error\(|<[A-Za-z_.]+ object|\{'[^']*': |\['[^']*', '"
)
"""What a refusal must not show: tracebacks, escaped characters, exception or object reprs."""

PREFIXES: dict[str, list[str]] = {
    "xisk": ["claim ", "place alaska ", "attack alaska ", "invade ", "adjust alaska alberta ", "redeem AS KS "],
    "nxs": ["move f4 ", "capture e4 ", "rotate ", "rotate d4 ", "move "],
    "nexo": ["first ", "move a1 ", "dash a1 1,", "shoot a1 ", "fight a1 b1 ", "harvest a1 ", "build a2 ",
             "produce A1 ", "construct foundry ", "scrap ", "done ", "move a1 10,10;", "first me; "],
}

WEIRD = st.characters(categories=["Nd", "No", "Nl", "Cc", "Cf", "Zs", "Zl", "Sm", "Lo"])
"""Digits of other scripts ('٣', '²', 'Ⅻ'), control and format characters, odd spaces."""

junk = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=WEIRD, max_size=20),
    st.text(alphabet="0123456789.,-²³¹٣０ \t\n;", max_size=30),
    st.builds(lambda c, n: c * n, st.characters(), st.integers(1_000, 100_000)),
)


def refusal_is_clean(err: GameError, typed: str = "") -> None:
    """Asserts that a refusal is a short sentence with no traceback or repr in it.

    Noise is looked for only when the input holds no bracket, quote or backslash (a refusal
    may quote the input, and a quoted "{'" reads like a repr).
    """
    text = str(err)
    assert text, "a refusal says why"
    assert len(text) <= MAX_REFUSAL, text[:400]
    if not set(typed) & set("{[<'\\"):
        assert not NOISE.search(text), text


async def started(tables: Tables, game: str, seed: int = 5) -> str:
    """Opens and starts a two-player game of ``game`` in its own channel; returns the channel."""
    channel = f"junk-{game}"
    await tables.create(channel_id=channel, guild_id="1", game=game, creator=ANN, options={})
    await tables.join(channel, BOB)
    await tables.start(channel, ANN, seed=seed)
    return channel


async def snapshot(tables: Tables, channel: str) -> tuple[int, str | None]:
    """Returns the stored (version, snapshot) of the channel's game."""
    table = await tables.table(channel)
    row = await tables.store.game(table.row.id)
    assert row is not None
    return row.version, row.snapshot


async def mover(tables: Tables, channel: str) -> str:
    """Returns the user id of the player to act (or ANN once the game is over)."""
    table = await tables.table(channel)
    assert table.game is not None
    acting = table.game.to_act()
    return (table.user_of(acting[0]) if acting else None) or ANN.id


async def send(tables: Tables, channel: str, user: str, move: str) -> None:
    """Sends one move; a refusal must be a clean GameError that changes nothing."""
    before = await snapshot(tables, channel)
    try:
        await tables.act(channel, user, move)
    except GameError as err:
        refusal_is_clean(err, move)
        assert await snapshot(tables, channel) == before, move[:80]


def mangled(rnd: random.Random, move: str) -> str:
    """Returns a legal move with a few characters inserted, replaced or removed."""
    chars = list(move)
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randrange(len(chars) + 1)
        what = rnd.random()
        if what < 0.4:
            chars.insert(i, rnd.choice("²٣０\u200b\x00\x1b;, -.9zZ\n"))
        elif what < 0.7 and i < len(chars):
            chars[i] = rnd.choice("²٣Ａ\t;,0")
        elif i < len(chars):
            del chars[i]
    return "".join(chars)


async def junk_move(tables: Tables, game: str, data: st.DataObject) -> None:
    """Sends one drawn junk move (after a known prefix, or none) by the mover, another player or a stranger."""
    channel = f"junk-{game}"
    if (await tables.store.active_game(channel)) is None:
        await started(tables, game)
    prefix = data.draw(st.sampled_from(["", *PREFIXES[game]]))
    move = prefix + data.draw(junk)
    user = data.draw(st.sampled_from([await mover(tables, channel), BOB.id, "9999"]))
    await send(tables, channel, user, move)


@pytest.mark.sqlite_only
@pytest.mark.parametrize("game", ["xisk", "nxs", "nexo"])
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_junk_moves_are_refused_with_a_short_game_error_and_change_nothing(
    tables: Tables, game: str, data: st.DataObject
) -> None:
    await junk_move(tables, game, data)


@pytest.mark.postgres_only
@pytest.mark.parametrize("game", ["xisk", "nxs", "nexo"])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_junk_moves_leave_the_postgresql_snapshot_unchanged(
    tables: Tables, game: str, data: st.DataObject
) -> None:
    # The refusal is the engine's (1,000 examples above, on SQLite): here fewer, that it leaves
    # the snapshot PostgreSQL stores as it was
    await junk_move(tables, game, data)


@pytest.mark.parametrize("game", ["xisk", "nxs", "nexo"])
async def test_legal_moves_with_a_few_characters_mangled_never_crash(tables: Tables, game: str) -> None:
    channel = await started(tables, game)
    rnd = random.Random(game)
    for _ in range(400):
        table = await tables.table(channel)
        assert table.game is not None
        if table.game.is_over:
            break
        name = table.game.to_act()[0]
        user = table.user_of(name)
        assert user is not None
        listed = [m for m in table.game.legal_moves(name) if m not in ("concede", "resign")]
        await send(tables, channel, user, mangled(rnd, rnd.choice(listed)))


def nested(depth: int, kind: Callable[[Any], Any]) -> Any:
    """Returns a value nested ``depth`` levels deep (lists or dicts), built without recursion."""
    value: Any = 1
    for _ in range(depth):
        value = kind(value)
    return value


BAD_OPTIONS: list[Any] = [
    {"target": nested(2_000, lambda v: {"x": v})},
    {"handicap": nested(2_000, lambda v: [v])},
    {"scenario": nested(2_000, lambda v: {"sides": v})},
    {"cards_per_player": 10**5000},
    {"carbonite": float("nan")},
    {"layout": "x" * 100_000},
    {1: 2},
    {"target": object()},
    ["target", 15],
    {"x" * 10_000: 1},
]


@pytest.mark.parametrize("game", ["xisk", "nxs", "nexo"])
@pytest.mark.parametrize("options", BAD_OPTIONS, ids=range(len(BAD_OPTIONS)))
async def test_deep_or_odd_options_are_refused_with_a_clear_game_error(
    tables: Tables, game: str, options: Any
) -> None:
    with pytest.raises(GameError) as err:
        await tables.create(channel_id="opts", guild_id="1", game=game, creator=Person("1", "ann"), options=options)
    refusal_is_clean(err.value)
    assert await tables.store.active_game("opts") is None


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    *keys, last = [int(k) if k.isascii() and k.isdigit() else k for k in path.split("/")]
    for k in keys:
        data = data[k]
    if value is DELETE:
        del data[last]
    else:
        data[last] = value


DELETE = object()

DAMAGE: dict[str, list[tuple[str, Any, str]]] = {
    "nxs": [
        ("state/turn", 99, "turn"),
        ("state/turn", "0", "turn"),
        ("state/step", "lunch", "step"),
        ("state/pieces/0/0", "z9", "pieces[0][0]"),
        ("state/pieces/0/1", 5, "pieces[0][1]"),
        ("state/pieces/0/2", "dreadnought", "pieces[0][2]"),
        ("state/captured", [1], "captured"),
        ("state/seen", {"nonsense": 1}, "seen"),
        ("state/outcome", {"termination": "target", "winner": 7}, "winner"),
        ("state/quiet", -1, "quiet"),
        ("players", ["ann"], "players"),
        ("seed", "seven", "seed"),
    ],
    "xisk": [
        ("state/turn_index", 99, "turn_index"),
        ("state/phase", "lunch", "phase"),
        ("state/chips/alaska", -1, "alaska"),
        ("state/owner/alaska", "zed", "alaska"),
        ("state/deck", [], "deck"),
        ("state/hands", {}, "hands"),
        ("state/claim_queue/0/1", "zed", "claim_queue"),
        ("state/rng", -5, "rng"),
        ("state/winner", "ann", "winner"),
        ("options/cards_per_player", 99, "cards_per_player"),
    ],
    "nexo": [
        ("state/turn", "p3", "turn"),
        ("state/round", 0, "round"),
        ("state/models/a1/hp", 999, "hp"),
        ("state/models/a1/type", "dragon", "type"),
        ("state/models/a1/x", 1e9, "x"),
        ("state/models/a1/id", "a9", "id"),
        ("state/active", "zz", "active"),
        ("state/sides/p2", DELETE, "sides"),
        ("state/width", "wide", "width"),
        ("state/terrain/0/poly", [[0, 0], [1, 1]], "poly"),
        ("state/buildings/A1/rot", 45, "rot"),
        ("state/harvests", {"p1:Z9": 1}, "harvests"),
        ("state/initiative_rolls", [[7, 1]], "initiative_rolls"),
        ("state/over", "yes", "over"),
    ],
}


@pytest.mark.parametrize(
    ("game", "path", "value", "named"),
    [(g, p, v, n) for g, cases in DAMAGE.items() for p, v, n in cases],
    ids=lambda v: str(v)[:20] if not isinstance(v, dict | list) else "value",
)
def test_from_json_refuses_an_out_of_range_snapshot_with_a_game_error_naming_the_field(
    game: str, path: str, value: Any, named: str
) -> None:
    g = GAMES[game].new(["ann", "bob"], 3)
    data = json.loads(g.to_json())
    _set(data, path, value)
    with pytest.raises(GameError, match="damaged") as err:
        GAMES[game].from_json(json.dumps(data))
    assert named in str(err.value)
    refusal_is_clean(err.value)


@pytest.mark.parametrize("game", ["xisk", "nxs", "nexo"])
@pytest.mark.parametrize(
    "text", ["", "[]", "{", "null", '"x"', "[" * 5_000 + "]" * 5_000, '{"game": "nxs", "state": NaN}', "1" * 5_000]
)
def test_from_json_refuses_text_that_is_no_saved_game(game: str, text: str) -> None:
    with pytest.raises(GameError) as err:
        GAMES[game].from_json(text)
    refusal_is_clean(err.value)
