"""The web table's server: tokens, headers, what a page may show, live changes, the dice (no browser)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from host.store import Store
from host.tables import Person, Table, Tables
from host.web_links import WebLinks
from tests.engines.xisk.helpers import leaked
from tests.web.server import ANN, BOB, CHANNEL, CY, keyed_tables, next_change, play_one, serve, started_xisk

ROOT = Path(__file__).resolve().parents[2]
CSP = "default-src 'none'; script-src 'self'"
PARTS = ("", "/game.json", "/board/0.png", "/events", "/dice.json")


def check_draws_module():  # type: ignore[no-untyped-def]
    """tools/check_draws.py, the standard-library checker a doubter runs."""
    spec = importlib.util.spec_from_file_location("check_draws", ROOT / "tools" / "check_draws.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = await Store.open(str(tmp_path / "tablehost.db"))
    yield keyed_tables(store)
    await store.close()


async def test_a_forged_token_gets_404_the_same_as_a_missing_game(tables: Tables) -> None:
    game_id = await started_xisk(tables, ANN, BOB)
    await tables.create(channel_id="701", guild_id="1", game="xisk", creator=CY, options={})  # a lobby only
    lobby = (await tables.table("701")).row.id
    async with serve(tables) as web:
        forged = WebLinks(b"another secret, not the bot's one", web.base)
        wrong = [f"{web.base}/g/{game_id}/{forged.token(game_id)}", f"{web.base}/g/{game_id}/{web.links.token(lobby)}",
                 f"{web.base}/g/{game_id}/x", web.page(999_999), web.page(lobby)]
        answers = set()
        for address in wrong:
            for part in PARTS:
                async with web.http.get(address + part) as reply:
                    answers.add((reply.status, await reply.text()))
                    assert CSP in reply.headers["Content-Security-Policy"]
        async with web.http.get(web.base + "/g/unknown/path") as reply:
            answers.add((reply.status, await reply.text()))
        assert answers == {(404, "Not found.\n")}
        async with web.http.get(web.page(game_id)) as reply:  # the right token opens the page
            assert reply.status == 200 and reply.content_type == "text/html"


async def test_every_answer_carries_the_csp_nosniff_and_no_referrer(tables: Tables) -> None:
    game_id = await started_xisk(tables, ANN, BOB)
    async with serve(tables) as web:
        page = web.page(game_id)
        for address in (page, f"{page}/game.json", f"{page}/board/0.png", f"{web.base}/static/table.js",
                        f"{web.base}/static/table.css", f"{page}/dice.json"):
            async with web.http.get(address) as reply:
                await reply.read()
                assert reply.headers["Content-Security-Policy"].startswith(CSP), address
                assert "'unsafe-inline'" not in reply.headers["Content-Security-Policy"]
                assert reply.headers["X-Content-Type-Options"] == "nosniff"
                assert reply.headers["Referrer-Policy"] == "no-referrer"
        page_html = (ROOT / "web" / "static" / "page.html").read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", page_html), "no inline script"
        assert " style=" not in page_html and "<style" not in page_html, "no inline style"


async def test_the_page_shows_players_moves_and_a_picture_per_position(tables: Tables) -> None:
    game_id = await started_xisk(tables, ANN, BOB)
    rnd, people = random.Random(3), {"Ann": ANN, "Bob": BOB}
    for _ in range(30):
        await play_one(tables, people, rnd)
    async with serve(tables) as web:
        data = await web.get_json(game_id)
        assert [p["name"] for p in data["players"]] == ["Ann", "Bob"] and data["status"] == "running"
        moves = await tables.store.moves(game_id)
        assert data["count"] == len(moves) == 30 and len(data["positions"]) == 31
        assert [m["move"] for m in data["moves"]] == [m.move for m in moves]
        assert [p["n"] for p in data["positions"]] == list(range(31))
        table = await tables.table(CHANNEL)
        assert data["to_act"] == table.game.to_act() if table.game else False
        assert data["commitment"] == table.row.commitment and data["entropy"] == table.row.entropy
        assert data["positions"][-1]["alt"].startswith("XISK") and data["dice"] is False
        for n in (0, 15, 30):
            async with web.http.get(f"{web.page(game_id)}/board/{n}.png") as reply:
                body = await reply.read()
                assert reply.status == 200 and reply.content_type in ("image/png", "image/webp") and len(body) > 1000
        async with web.http.get(f"{web.page(game_id)}/board/31.png") as reply:
            assert reply.status == 404


async def test_a_player_named_like_html_is_sent_as_text_never_markup(tables: Tables) -> None:
    evil = Person("2009", "<img src=x onerror=alert(1)>")
    game_id = await started_xisk(tables, ANN, evil)
    async with serve(tables) as web:
        async with web.http.get(f"{web.page(game_id)}/game.json") as reply:
            raw = await reply.text()
            assert reply.content_type == "application/json"
        assert "<img" not in raw and "<" not in raw  # escaped as \u003c, and nosniff
        assert json.loads(raw)["players"][1]["name"] == evil.name


async def test_a_live_page_hears_a_move_within_a_second_of_its_commit(tables: Tables) -> None:
    game_id = await started_xisk(tables, ANN, BOB)
    rnd, people = random.Random(5), {"Ann": ANN, "Bob": BOB}
    async with serve(tables) as web, web.http.get(f"{web.page(game_id)}/events") as stream:
        assert stream.content_type == "text/event-stream"
        await stream.content.readline()  # the stream is open: its retry line
        for _ in range(3):
            started = time.perf_counter()
            await play_one(tables, people, rnd)
            change = await next_change(stream.content, within=1.0)
            assert time.perf_counter() - started < 1.0
            row = await tables.store.game(game_id, snapshot=False)
            assert row is not None and change == {"version": row.version, "status": "running"}
            data = await web.get_json(game_id)
            assert data["version"] == row.version and data["count"] == len(await tables.store.moves(game_id))


async def test_no_hidden_card_reaches_a_page_or_its_event_stream_over_whole_games(tables: Tables) -> None:
    for n, (seed, people) in enumerate([(7, (ANN, BOB)), (8, (ANN, BOB, CY))]):
        channel = f"80{n}"
        game_id = await started_xisk(tables, *people, channel=channel)
        by_name, rnd = {p.name: p for p in people}, random.Random(seed)
        held_at: list[set[str]] = [held(await tables.table(channel))]  # position n: the cards in hands then
        async with serve(tables) as web, web.http.get(f"{web.page(game_id)}/events") as stream:
            await stream.content.readline()
            while await play_one(tables, by_name, rnd, channel):
                held_at.append(held(await tables.table(channel)))
                change = await next_change(stream.content, within=2.0)
                data = await web.get_json(game_id)
                newest = {"position": data["positions"][-1], "move": data["moves"][-1], "to_act": data["to_act"],
                          "title": data["title"], "change": change}
                assert not leaked(held_at[-1], newest), (len(held_at), leaked(held_at[-1], newest))
            async with web.http.get(web.page(game_id)) as reply:
                assert not leaked(set().union(*held_at), await reply.text())  # the page itself is static
        # Each position and each move as the finished page shows it, against the hands of its time (a card shown
        # when it was played may be dealt again later: what was public then stays public).
        assert data["status"] == "finished" and len(data["positions"]) == len(held_at) > 50
        for position, cards in zip(data["positions"], held_at, strict=True):
            assert not leaked(cards, position), (position["n"], leaked(cards, position))
        for move in data["moves"]:
            assert not leaked(held_at[move["n"]], move), (move["n"], leaked(held_at[move["n"]], move))


def held(table: Table) -> set[str]:
    """Returns every card in a hand of the table's game now."""
    game = table.game
    assert game is not None
    return {c for name in game.players for c in game.view(name).get("hand", [])}


async def test_the_dice_are_served_only_once_the_game_ended_and_all_check(tables: Tables) -> None:
    game_id = await started_xisk(tables, ANN, BOB)
    rnd, people = random.Random(9), {"Ann": ANN, "Bob": BOB}
    async with serve(tables) as web:
        async with web.http.get(f"{web.page(game_id)}/dice.json") as reply:
            assert reply.status == 404 and SEED_TEXT not in await reply.text()
        while await play_one(tables, people, rnd):
            pass
        data = await web.get_json(game_id)
        assert data["status"] == "finished" and data["dice"] is True and data["to_act"] == []
        row = await tables.store.game(game_id, snapshot=False)
        assert row is not None and row.winners is not None and len(row.winners) == 1
        assert data["winners"] == row.winners and row.winners[0] in ("Ann", "Bob")
        dice = await web.get_json(game_id, "dice.json")
    checker = check_draws_module()
    assert dice["server_seed"] == SEED_TEXT and checker.check_commitment(dice)[0] is True
    assert checker.check_entropy(dice["players"], dice["entropy"])[0] is True
    ok, line = checker.check_draws(dice["server_seed"], dice["entropy"], dice["draws"])
    assert ok is True and len(dice["draws"]) > 100, line


SEED_TEXT = "5e" * 32


async def test_a_move_committed_by_another_process_reaches_the_page_on_postgresql(pg_dsn: str) -> None:
    serving, moving = await Store.open(pg_dsn), await Store.open(pg_dsn)  # two processes' stores, one database
    try:
        mover = keyed_tables(moving)
        game_id = await started_xisk(mover, ANN, BOB)
        rnd, people = random.Random(4), {"Ann": ANN, "Bob": BOB}
        async with serve(keyed_tables(serving)) as web, web.http.get(f"{web.page(game_id)}/events") as stream:
            await stream.content.readline()
            await asyncio.sleep(0.3)  # the hub's LISTEN connection is up (it hears what comes after)
            for _ in range(2):
                started = time.perf_counter()
                await play_one(mover, people, rnd)
                change = await next_change(stream.content, within=1.0)
                assert time.perf_counter() - started < 1.0
                row = await moving.game(game_id, snapshot=False)
                assert row is not None and change["version"] == row.version
                assert (await web.get_json(game_id))["count"] == len(await moving.moves(game_id))
    finally:
        await serving.close()
        await moving.close()


async def test_an_address_may_hold_only_so_many_requests_at_once(tables: Tables) -> None:
    game_id = await started_xisk(tables, ANN, BOB)
    async with serve(tables, per_address=2) as web:
        async with web.http.get(f"{web.page(game_id)}/events") as one, \
                web.http.get(f"{web.page(game_id)}/events") as two:
            await one.content.readline()
            await two.content.readline()
            async with web.http.get(f"{web.page(game_id)}/game.json") as third:
                assert third.status == 429 and "Too many open requests" in await third.text()
                assert third.headers["Content-Security-Policy"].startswith(CSP)
        await asyncio.sleep(0.1)  # the streams closed: the address may ask again
        assert (await web.get_json(game_id))["id"] == game_id


def test_the_pages_secret_is_written_into_env_on_the_first_run_without_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from host.web_links import SECRET_NAME, ensure_secret

    monkeypatch.setenv(SECRET_NAME, "")  # unset, as far as ensure_secret sees; restored afterwards
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=x")
    secret = ensure_secret(env)
    assert len(secret) >= 40 and env.read_text() == f"DISCORD_TOKEN=x\n{SECRET_NAME}={secret}\n"
    assert ensure_secret(env) == secret and env.read_text().count(SECRET_NAME) == 1  # kept, not written again
    monkeypatch.setenv(SECRET_NAME, "given")
    assert ensure_secret(tmp_path / "other.env") == "given" and not (tmp_path / "other.env").exists()


async def test_a_damaged_log_gets_a_plain_message_and_a_log_line_not_a_trace(
        tables: Tables, caplog: pytest.LogCaptureFixture) -> None:
    game_id = await started_xisk(tables, ANN, BOB)
    await play_one(tables, {"Ann": ANN, "Bob": BOB}, random.Random(1))
    await tables.store.db.write(lambda tx: tx.execute("UPDATE moves SET move = 'fly to the moon' WHERE game_id = ?",
                                                      game_id))
    async with serve(tables) as web, web.http.get(f"{web.page(game_id)}/game.json") as reply:
        assert reply.status == 500 and await reply.text() == "This game's record could not be read.\n"
        assert reply.headers["Content-Security-Policy"].startswith(CSP)
    assert f"game {game_id} cannot be replayed" in caplog.text and "Traceback" not in caplog.text
