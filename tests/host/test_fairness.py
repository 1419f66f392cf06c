"""Keyed draws at the table: the seed sealed before anyone joins, each join's entropy, the deal fixed at the start."""

from __future__ import annotations

import hashlib
import re

import pytest

from engines.core.rng import KeyedDraws
from host.fairness import game_entropy, join_part, own_text, seal
from host.store import Status
from host.tables import Refusal, Tables
from tests.host.conftest import ANN, BOB, CHANNEL, CY, tamper

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""

SERVER_SEED = "5e" * 32


def fixed(store: object, **kw: object) -> Tables:
    """A table service whose every table gets SERVER_SEED (join ids kept, as on Discord)."""
    return Tables(store, debug=True, seeds=lambda: SERVER_SEED, **kw)  # type: ignore[arg-type]


async def xisk_hands(tables: Tables, channel: str, texts: tuple[str | None, str | None]) -> dict[str, list[str]]:
    """Opens a 2-player XISK table with ANN and BOB joining with ``texts``, starts it, returns the hands."""
    await tables.create(channel_id=channel, guild_id="1", game="xisk", creator=ANN, options={}, joined="901",
                        entropy=texts[0])
    await tables.join(channel, BOB, joined="902", entropy=texts[1])
    await tables.start(channel, ANN)
    game = (await tables.table(channel)).game
    return {p: game.view(p)["hand"] for p in ("ann", "bob")}


def test_own_text_is_cleaned_to_what_a_player_can_type_again() -> None:
    assert own_text("  lucky\n\tseven  ") == "lucky seven"
    assert own_text("a|b`c") == "a/b'c"  # "|" separates the parts; a backtick would break the board's quotes
    assert own_text("\x00\x07") == "" and own_text(None) == ""
    assert join_part("901", "x") == "901:x" and join_part(None, None) == "-" and join_part("bot", None) == "bot"


async def test_the_commitment_is_posted_when_the_table_opens_before_anyone_joins(tables: Tables) -> None:
    out = await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={})
    row = await tables.store.active_game(CHANNEL)
    assert row is not None and row.status is Status.LOBBY and row.server_seed and row.commitment
    assert re.fullmatch(r"[0-9a-f]{64}", row.server_seed) and row.commitment == seal(row.server_seed)
    assert row.commitment == hashlib.sha256(row.server_seed.encode()).hexdigest()
    assert any(f"sealed as SHA-256 {row.commitment}." in line for line in out.lines) and out.seals
    assert row.server_seed not in out.to_json()  # the seed itself stays secret
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN)
    started = await tables.store.game(row.id)
    assert started is not None and (started.server_seed, started.commitment) == (row.server_seed, row.commitment)


async def test_the_message_that_posted_the_commitment_is_stored_with_it(tables: Tables) -> None:
    out = await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={})
    assert out.id is not None
    await tables.store.delivered(out.id, {"channel": [7001, 7002], "seal": 7001})
    later = await tables.join(CHANNEL, BOB)
    assert later.id is not None
    await tables.store.delivered(later.id, {"channel": [7003], "seal": 7003})  # kept once: the first one stands
    row = await tables.store.active_game(CHANNEL)
    assert row is not None and row.commitment_message == "7001"


async def test_the_same_server_seed_with_other_join_entropy_deals_otherwise(store: object) -> None:
    tables = fixed(store)
    first = await xisk_hands(tables, "601", ("my lucky words", None))
    again = await xisk_hands(tables, "602", ("my lucky words", None))
    other = await xisk_hands(tables, "603", ("other words", None))
    assert first == again  # the same seed and the same joins: the same deal (nothing else is mixed in)
    assert first != other  # one player's own text changes the deal, though the host's seed is the same
    row = await tables.store.active_game("603")
    assert row is not None and row.entropy == "901:other words|902"


async def test_the_deal_is_fixed_once_the_game_starts(store: object) -> None:
    tables = fixed(store)
    hands = await xisk_hands(tables, CHANNEL, ("mine", "yours"))
    with pytest.raises(Refusal, match="The game has already started"):
        await tables.join(CHANNEL, CY, joined="903", entropy="late words")
    with pytest.raises(Refusal, match="The game has already started"):
        await tables.join(CHANNEL, BOB, joined="904", entropy="new words for me")
    row = await tables.store.active_game(CHANNEL)
    assert row is not None and row.entropy == "901:mine|902:yours"
    assert [(s.joined, s.entropy) for s in await tables.store.seats(row.id)] == [("901", "mine"), ("902", "yours")]
    tables.forget(row.id)
    game = (await tables.table(CHANNEL)).game
    assert {p: game.view(p)["hand"] for p in ("ann", "bob")} == hands  # reloaded: the same deal
    state = game.dump_state()["rng"]
    assert set(state) == {"key", "entropy", "counter"} and state["entropy"] == row.entropy
    assert state["key"] == SERVER_SEED and state["counter"] == 51  # the shuffle's 51 steps: only the counter moved


async def test_each_player_is_told_their_part_and_the_channel_only_that_they_gave_one(store: object) -> None:
    tables = fixed(store)
    await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={}, joined="901")
    out = await tables.join(CHANNEL, BOB, joined="902", entropy="  a secret | phrase ")
    assert out.reply is not None and '"902:a secret / phrase"' in out.reply
    assert out.lines == ["bob joins with randomness of their own (2/6)."]  # the text itself waits for the start
    again = await tables.join(CHANNEL, ANN, joined="905", entropy="changed my mind")  # seated: replaces her part
    assert again.lines == ["ann adds randomness of their own."] and '"905:changed my mind"' in (again.reply or "")
    with pytest.raises(Refusal, match="nothing that counts"):
        await tables.join(CHANNEL, CY, joined="906", entropy="\x00\x01")
    with pytest.raises(Refusal, match="already seated"):
        await tables.join(CHANNEL, BOB, joined="907")
    start = await tables.start(CHANNEL, ANN)
    line = next(x for x in start.lines if "entropy is" in x)
    assert '"905:changed my mind|902:a secret / phrase"' in line  # in seat order, every part in full
    assert start.entropy == "905:changed my mind|902:a secret / phrase" and start.commitment == seal(SERVER_SEED)


async def test_the_first_draws_are_the_hmac_of_the_entropy_and_their_number(
    store: object, tally_registered: type
) -> None:
    tables = fixed(store)
    await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={}, joined="901")
    await tables.join(CHANNEL, BOB, joined="902", entropy="x")
    await tables.start(CHANNEL, ANN)
    row = await tables.store.active_game(CHANNEL)
    assert row is not None and row.keyed and row.engine_seed == f"{SERVER_SEED}:901|902:x"
    mirror = KeyedDraws(key=SERVER_SEED, entropy=game_entropy(["901", "902:x"]))
    state = (await tables.table(CHANNEL)).game.dump_state()
    assert state["secrets"] == {"ann": mirror.randint(1, 99), "bob": mirror.randint(1, 99)}  # Tally's setup draws
    assert state["rng"]["counter"] == mirror.counter == 2


async def test_a_bot_seat_adds_bot_and_a_seat_without_an_interaction_adds_a_dash(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={})
    await tables.add_bot(CHANNEL, ANN, "easy")
    await tables.start(CHANNEL, ANN)
    row = await tables.store.active_game(CHANNEL)
    assert row is not None and row.entropy == "-|bot"


async def test_a_lobby_opened_before_keyed_draws_is_sealed_at_its_start(db_path: str, tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    tamper(db_path, "UPDATE games SET server_seed = NULL, commitment = NULL")
    out = await tables.start(CHANNEL, ANN)
    row = await tables.store.active_game(CHANNEL)
    assert row is not None and row.keyed and row.commitment == seal(row.server_seed or "")
    assert any(f"sealed as SHA-256 {row.commitment}." in line for line in out.lines)


async def test_a_game_started_on_the_old_scheme_still_loads_plays_and_is_marked_so(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="xisk", creator=ANN, options={})
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=424242)  # as games started before keyed draws were
    row = await tables.store.active_game(CHANNEL)
    assert row is not None and not row.keyed and row.seed == 424242 and row.salt and row.entropy is None
    table = await tables.table(CHANNEL)
    assert isinstance(table.game.dump_state()["rng"], int)  # the SplitMix64 state, as before
    tables.forget(row.id)
    table = await tables.table(CHANNEL)
    seat = table.game.to_act()[0]
    await tables.act(CHANNEL, table.user_of(seat), table.game.legal_moves(seat)[0])
    assert (await tables.replay(row.id)).to_json() == (await tables.store.game(row.id)).snapshot
