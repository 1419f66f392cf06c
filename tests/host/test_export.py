"""/table export's file (version 2): a finished game's fair-dice record, log with dice and digests, and its end.

The games here are real ones played through the table service: NXS with random legal moves
to its end (with an undo), XISK with random legal moves (battles, a turn played by the clock)
until a player resigns, Nexohominis to its end. ``play_out`` starts them on the old scheme
(``seed=``: an integer seed sealed with a salt, ``dice.scheme`` "splitmix64"); ``seed=None``
starts them on keyed draws, as every game the bot opens now.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from importlib import resources

import pytest

from engines import GAMES
from engines.core.rng import keyed_seed
from host.clock import ClockSettings
from host.export import (
    FORMAT,
    RUNNING,
    SCHEMA,
    VERSION,
    ExportError,
    export_game,
    export_text,
    file_name,
    load_export,
    schema_validator,
)
from host.fairness import commitment, digest
from host.store import Store
from host.tables import Person, Refusal, Tables
from host.undo import UNDO
from tests.host.conftest import ANN, BOB, CHANNEL, started_tally

BACKENDS = ("sqlite", "postgres")
"""Every test here runs on a SQLite file and on a PostgreSQL database (tests/host/conftest.py)."""


async def play_out(
    tables: Tables,
    game: str,
    *,
    seed: int | None = 5,
    resign_after: int | None = None,
    undo_at: int | None = None,
    clock_at: int | None = None,
    channel: str = CHANNEL,
    people: tuple[Person, ...] = (ANN, BOB),
    choices: int = 1,
) -> int:
    """Plays a game to its end through the table service with random legal moves; returns its id.

    ``seed`` starts it on the old scheme (None: keyed draws, the table's server seed);
    ``resign_after`` moves, the player to act resigns; after move ``undo_at`` its player takes
    it back (when the host allows); after move ``clock_at`` the turn clock plays for whoever acts.
    """
    await tables.create(channel_id=channel, guild_id="1", game=game, creator=people[0], options={})
    for p in people[1:]:
        await tables.join(channel, p)
    await tables.start(channel, people[0], seed=seed)
    pick = random.Random(choices)
    n = 0
    while True:
        table = await tables.table(channel)
        g = table.game
        assert g is not None
        if g.is_over:
            return table.row.id
        name = g.to_act()[0]
        uid = table.user_of(name)
        assert uid is not None
        if resign_after is not None and n >= resign_after:
            assert g.FORFEIT_MOVE
            move = g.FORFEIT_MOVE
        else:
            move = pick.choice([m for m in g.legal_moves(name) if m != g.FORFEIT_MOVE])
        await tables.act(channel, uid, move)
        n += 1
        if n == undo_at:
            try:
                await tables.undo(channel, next(p for p in people if p.id == uid))
            except Refusal:
                undo_at += 1  # that move used chance or revealed something: take back the next one
        if n == clock_at:
            row = await tables.store.game(table.row.id, snapshot=False)
            assert row is not None
            assert await tables.time_out(row.id, row.version, ClockSettings()) is not None


async def exported(tables: Tables, game_id: int) -> str:
    """Returns the export file's text of a game."""
    return export_text(await export_game(tables.store, game_id))


async def test_an_export_holds_seed_salt_commitment_log_and_end(tables: Tables) -> None:
    game_id = await play_out(tables, "xisk", resign_after=120, clock_at=60)
    data = await export_game(tables.store, game_id)
    row = await tables.store.game(game_id)
    assert row is not None and row.seed is not None and row.salt
    assert data["format"] == FORMAT and data["version"] == VERSION == 2
    assert (data["game"], data["title"], data["id"], data["status"]) == ("xisk", "XISK", game_id, "finished")
    assert data["players"] == [{"seat": 0, "name": "ann", "id": ANN.id}, {"seat": 1, "name": "bob", "id": BOB.id}]
    sealed = hashlib.sha256(f"{row.seed}:{row.salt}".encode()).hexdigest()
    assert data["dice"] == {"scheme": "splitmix64", "seed": row.seed, "salt": row.salt, "commitment": sealed,
                            "commitment_message": None, "draws": None}  # a game on the old scheme says so
    assert "seed" not in data and "salt" not in data and "commitment" not in data
    log = await tables.store.moves(game_id)
    assert [m["move"] for m in data["moves"]] == [m.move for m in log]
    assert data["moves"][-1]["move"] == "resign" and data["winners"] == row.winners
    battles = [e for m in data["moves"] for e in m["events"] if e["kind"] == "battle"]
    assert battles and all(isinstance(e["attacker_dice"], list) for e in battles)
    assert any(m["origin"] == "clock" for m in data["moves"])
    assert all(m["digest"] == stored.digest for m, stored in zip(data["moves"], log, strict=True))
    final = GAMES["xisk"].from_json(row.snapshot or "").dump_state()
    assert data["final_state"] == final and data["moves"][-1]["digest"] == digest(final)
    assert data["created"] == row.created_at and data["ended"] == row.updated_at
    assert file_name(data) == f"xisk-{game_id}.json"


async def test_the_file_is_stable_indented_json_that_loads_back(tables: Tables) -> None:
    game_id = await play_out(tables, "nxs", undo_at=5, choices=3)
    text = await exported(tables, game_id)
    assert text == await exported(tables, game_id)  # the same game gives the same bytes
    assert json.loads(text) == await export_game(tables.store, game_id)
    lines = text.splitlines()
    assert lines[1] == '  "format": "tablehost-game",' and lines[2] == '  "version": 2,'
    assert sum(1 for line in lines if line.startswith('    {"seq": ')) == len(json.loads(text)["moves"])
    data = load_export(text)
    assert data.game == "nxs" and data.names == ["ann", "bob"] and data.status == "finished"
    assert UNDO in [m.move for m in data.moves]
    assert data.moves[0].events and data.moves[0].digest


async def test_a_running_game_is_refused_its_seed_is_secret(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    table = await tables.table(CHANNEL)
    with pytest.raises(Refusal) as refused:
        await export_game(tables.store, table.row.id)
    assert str(refused.value) == RUNNING
    assert "still running" in RUNNING and "secret" in RUNNING


async def test_a_lobby_an_unknown_game_and_an_aborted_game(tables: Tables) -> None:
    await tables.create(channel_id=CHANNEL, guild_id="1", game="nxs", creator=ANN, options={})
    lobby = await tables.store.active_game(CHANNEL)
    assert lobby is not None
    with pytest.raises(Refusal, match="never started"):
        await export_game(tables.store, lobby.id)
    with pytest.raises(Refusal, match="no game 999"):
        await export_game(tables.store, 999)
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN, seed=2)
    table = await tables.table(CHANNEL)
    assert table.game is not None
    await tables.act(CHANNEL, ANN.id, table.game.legal_moves("ann")[0])
    await tables.abort(CHANNEL, ANN, can_manage=False)
    data = await export_game(tables.store, lobby.id)
    assert data["status"] == "aborted" and data["winners"] is None and len(data["moves"]) == 1
    assert data["dice"]["commitment"] == commitment(data["dice"]["seed"], data["dice"]["salt"])


async def test_the_commitment_posted_at_the_start_matches_the_revealed_seed(tables: Tables) -> None:
    opened = await tables.create(channel_id=CHANNEL, guild_id="1", game="tally", creator=ANN, options={"target": 6},
                                 joined="1183", entropy="my  lucky words")
    posted = next(m for line in opened.lines if (m := re.search(r"sealed as SHA-256 ([0-9a-f]{64})", line)))
    await tables.join(CHANNEL, BOB)
    await tables.start(CHANNEL, ANN)  # keyed draws from the table's secret server seed, as the bot draws it
    last = None
    for who, move in [(ANN, "roll"), (BOB, "add 3"), (ANN, "add 3")]:
        last = await tables.act(CHANNEL, who.id, move)
    assert last is not None and last.finished
    reveal = next(e for e in last.events if e["kind"] == "fair_dice")
    found = re.search(r"server seed ([0-9a-f]{64}); its SHA-256 is ([0-9a-f]{64})", reveal["text"])
    assert found, reveal["text"]
    server_seed = found[1]
    assert hashlib.sha256(server_seed.encode()).hexdigest() == posted[1] == found[2]
    table = await tables.table(CHANNEL)
    data = await export_game(tables.store, table.row.id)
    assert data["version"] == 2 and data["players"] == [
        {"seat": 0, "name": "ann", "id": ANN.id, "joined": "1183", "entropy": "my lucky words"},
        {"seat": 1, "name": "bob", "id": BOB.id, "joined": None, "entropy": None},
    ]
    dice = data["dice"]
    assert (dice["scheme"], dice["server_seed"], dice["commitment"]) == ("hmac-sha256", server_seed, posted[1])
    assert dice["entropy"] == "1183:my lucky words|-"  # each seat's part, in seat order
    assert dice["draws"] and [d[0] for d in dice["draws"]] == list(range(1, len(dice["draws"]) + 1))
    for n, size, value in dice["draws"]:  # every draw listed is HMAC-SHA256(seed, "<entropy>:<n>") mod its range
        h = int.from_bytes(hmac.digest(server_seed.encode(), f"{dice['entropy']}:{n}".encode(), "sha256"), "big")
        assert h % size == value
    game = GAMES["tally"].new(["ann", "bob"], keyed_seed(server_seed, dice["entropy"]), {"target": 6})
    assert game.dump_state()["rng"]["key"] == server_seed  # the seed drives it
    assert data["final_state"]["rng"]["counter"] == dice["draws"][-1][0]  # the list ends where the dice stopped


async def test_a_long_xisk_export_is_well_under_discords_file_limit(tables: Tables) -> None:
    game_id = await play_out(tables, "xisk", resign_after=600)
    text = await exported(tables, game_id)
    per_move = len(text.encode()) / 600
    assert len(text.encode()) < 1_000_000, len(text)
    assert per_move * 5000 < 8 * 1024 * 1024  # even 5,000 moves would fit in one Discord file


async def test_moves_from_before_records_export_as_not_recorded(tables: Tables, store: Store, db_path: str) -> None:
    game_id = await play_out(tables, "nxs")
    from tests.host.conftest import tamper

    tamper(db_path, "UPDATE moves SET events = NULL, digest = NULL WHERE game_id = ? AND seq <= 5", game_id)
    tamper(db_path, "UPDATE moves SET events = '{broken' WHERE game_id = ? AND seq = 6", game_id)
    data = await export_game(store, game_id)
    assert [m["events"] for m in data["moves"][:6]] == [None] * 6 and data["moves"][6]["events"]
    assert data["moves"][0]["digest"] is None


JUNK = [
    (b"\xff\xfe\x00junk", "not UTF-8 text"),
    ("", "it is not JSON"),
    ("{\"format\": ", "it is not JSON (line 1"),
    ("[1, 2]", "it holds no JSON object"),
    ("[" * 100_000, "nested too deeply"),
    ('{"game": "xisk"}', "it has no 'format'"),
    ('{"format": "chess-pgn"}', "its format is 'chess-pgn'"),
    ('{"format": "tablehost-game", "version": 9, "game": "xisk"}', "version: the file is version 9, newer"),
    ('{"format": "tablehost-game", "version": "1"}', "version: expected a whole number, got '1'"),
    ('{"format": "tablehost-game", "version": 1, "game": "chess"}', "game: this bot has no game called 'chess'"),
]


@pytest.mark.parametrize(("text", "message"), JUNK)
def test_a_file_that_is_not_an_export_gets_one_clear_message(text: str | bytes, message: str) -> None:
    with pytest.raises(ExportError) as refused:
        load_export(text)
    assert message in str(refused.value)
    assert "Traceback" not in str(refused.value) and "\n" not in str(refused.value)


async def test_a_bad_field_is_named(tables: Tables) -> None:
    game_id = await play_out(tables, "nxs")
    good = json.loads(await exported(tables, game_id))

    def fails(change: object, message: str) -> None:
        data = json.loads(json.dumps(good))
        change(data)  # type: ignore[operator]
        with pytest.raises(ExportError) as refused:
            load_export(json.dumps(data))
        assert message in str(refused.value), str(refused.value)

    fails(lambda d: d.update(status="running"), "status: must be one of finished, aborted, got 'running'")
    fails(lambda d: d["dice"].update(seed="12"), "dice.seed: expected a whole number, got '12'")
    fails(lambda d: d.update(players=d["players"][:1]), "players: NXS needs 2 players, not 1")
    fails(lambda d: d["players"][1].update(name="ann"), "players: a name is seated twice")
    fails(lambda d: d["moves"][3].update(seq="four"), "moves[3].seq: expected a whole number, got 'four'")
    fails(lambda d: d["moves"][3].update(player="zed"), "moves[3].player: 'zed' is not a seated player")
    fails(lambda d: d["moves"][3].update(events="rolled 6"), "moves[3].events: expected a list, got 'rolled 6'")
    fails(lambda d: d["moves"][3]["events"][0].pop("text"), "moves[3].events[0].text: missing")
    fails(lambda d: d["moves"][3].update(digest="abc"), "moves[3].digest: expected 64 hex digits")
    fails(lambda d: d["moves"][3]["events"][0].update(deep=[[[[[[[[[[[[[1]]]]]]]]]]]]]),
          "moves[3].events[0].deep[0]")
    fails(lambda d: d["dice"].update(commitment="zz"), "dice.commitment: expected 64 hex digits")
    fails(lambda d: d.update(winners=["zed"]), "winners[0]: 'zed' is not a seated player")
    fails(lambda d: d.update(options={"colour": "red"}), "options: NXS has no option 'colour'")
    fails(lambda d: d.update(final_state=[1]), "final_state: expected an object, got a list")
    # what the schema (host/export_schema.json) requires of version 2, named by the field's path
    fails(lambda d: d.pop("dice"), "the export file: dice: missing")
    fails(lambda d: d["dice"].update(commitment=None), "dice.commitment: expected 64 hex digits (a SHA-256), got null")
    fails(lambda d: d["dice"].update(salt=None), "dice.salt: expected text, got null")
    fails(lambda d: d["dice"].update(scheme="dice"), "dice.scheme: must be one of hmac-sha256, splitmix64, got 'dice'")
    fails(lambda d: d["players"][1].pop("id"), "players[1].id: missing")
    fails(lambda d: d["moves"][3].update(origin="bot"), "moves[3].origin: expected null or 'clock'")
    fails(lambda d: d["moves"][3].update(at=None), "moves[3].at: expected text, got null")
    fails(lambda d: d["moves"][3].update(at="yesterday"), "moves[3].at: expected an ISO 8601 time, got 'yesterday'")
    fails(lambda d: d.update(ended=17), "ended: expected text, got 17")


def test_the_schema_is_shipped_with_the_package_and_checks_both_versions() -> None:
    assert resources.files("host").joinpath(SCHEMA).is_file()
    validator = schema_validator()
    v1 = {"format": FORMAT, "version": 1, "game": "nxs", "status": "aborted", "players": [{"name": "ann"}],
          "moves": [], "seed": 5, "salt": None, "commitment": None}
    assert not list(validator.iter_errors(v1))  # a game from before fair dice: nothing sealed
    missing = {e.message for e in validator.iter_errors({**v1, "version": 2})}
    assert {"'dice' is a required property", "'created' is a required property"} <= missing  # version 2 has both
