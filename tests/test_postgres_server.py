"""The PostgreSQL test server (tests/support/postgres.py) and its fixtures work, and fail clearly."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import asyncpg
import pytest

from tests.support.postgres import PostgresServer, PostgresUnavailable, find_bindir, make_root, unavailable


async def test_pg_dsn_is_a_working_empty_database(pg_dsn: str) -> None:
    conn = await asyncpg.connect(pg_dsn)
    try:
        assert await conn.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
        await conn.execute("CREATE TABLE games (id serial PRIMARY KEY, name text NOT NULL)")
        await conn.executemany("INSERT INTO games (name) VALUES ($1)", [("xisk",), ("nexo",)])
        rows = await conn.fetch("SELECT id, name FROM games ORDER BY id")
        assert [(r["id"], r["name"]) for r in rows] == [(1, "xisk"), (2, "nexo")]
        assert await conn.fetchval("SHOW server_encoding") == "UTF8"
    finally:
        await conn.close()


async def test_each_database_is_separate(postgres_server: PostgresServer, pg_dsn: str) -> None:
    other = await postgres_server.create_database()
    try:
        assert other != pg_dsn
        first = await asyncpg.connect(pg_dsn)
        second = await asyncpg.connect(other)
        try:
            await first.execute("CREATE TABLE only_here (x int)")
            assert await second.fetchval("SELECT to_regclass('only_here')") is None
            assert await first.fetchval("SELECT current_database()") != await second.fetchval(
                "SELECT current_database()"
            )
        finally:
            await first.close()
            await second.close()
    finally:
        await postgres_server.drop_database(other)


async def test_databases_made_and_dropped_without_a_loop(postgres_server: PostgresServer) -> None:
    dsn = postgres_server.create_database_sync()
    assert dsn.startswith(f"postgresql://postgres@127.0.0.1:{postgres_server.port}/tablehost_test_")
    conn = await asyncpg.connect(dsn)
    await conn.close()  # the drop below would end it anyway (WITH (FORCE))
    postgres_server.drop_database_sync(dsn)
    with pytest.raises(asyncpg.InvalidCatalogNameError):
        await asyncpg.connect(dsn)


def test_server_listens_on_loopback_only(postgres_server: PostgresServer) -> None:
    assert postgres_server.dsn("x") == f"postgresql://postgres@127.0.0.1:{postgres_server.port}/x"
    with socket.create_connection(("127.0.0.1", postgres_server.port), timeout=5):
        pass
    assert "listen_addresses=127.0.0.1" in (postgres_server.data / "postmaster.opts").read_text()


def test_a_bindir_without_initdb_is_a_clear_reason(tmp_path: Path) -> None:
    root = tmp_path / "pg"
    with pytest.raises(PostgresUnavailable) as caught:
        PostgresServer.start(root, bindir=tmp_path / "nowhere")
    reason = caught.value.reason
    assert reason.startswith("no initdb, pg_ctl, postgres in ") and str(tmp_path / "nowhere") in reason
    assert "\n" not in reason and str(caught.value) == reason
    assert not root.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root hands the server to nobody")
def test_a_folder_nobody_cannot_reach_is_a_clear_reason(postgres_server: PostgresServer, tmp_path: Path) -> None:
    """pytest's tmp_path is under /tmp/pytest-of-root (0700): nobody could not run the server there."""
    with pytest.raises(PostgresUnavailable, match=r"\(mode drwx------\) cannot be entered by 'nobody'"):
        PostgresServer.start(tmp_path / "pg", bindir=postgres_server.bindir)
    assert not (tmp_path / "pg").exists()


def test_a_failed_start_reports_the_server_log(postgres_server: PostgresServer) -> None:
    """A port already taken: pg_ctl fails, and the reason carries the tail of the server log."""
    root = make_root()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(PostgresUnavailable) as caught:
            PostgresServer.start(root, bindir=postgres_server.bindir, port=taken.getsockname()[1])
    reason = caught.value.reason
    assert reason.startswith("pg_ctl start failed (exit 1) on port ") and "server log: " in reason
    assert "Address already in use" in reason and "\n" not in reason
    assert not root.exists()


def test_find_bindir_prefers_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TABLEHOST_PG_BIN", str(tmp_path))
    assert find_bindir() == tmp_path
    monkeypatch.delenv("TABLEHOST_PG_BIN")
    found = find_bindir()
    assert found is None or (found / "initdb").is_file()


def test_unavailable_skips_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLEHOST_PG_REQUIRED", raising=False)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL is not available: no initdb"):
        unavailable("no initdb")
    monkeypatch.setenv("TABLEHOST_PG_REQUIRED", "1")
    with pytest.raises(pytest.fail.Exception, match=r"TABLEHOST_PG_REQUIRED=1.*: no initdb"):
        unavailable("no initdb")
