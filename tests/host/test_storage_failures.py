"""A full, read-only or locked database: one clear sentence for the player, the file named for the admin."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from host.tables import Tables, Unavailable
from tests.host.conftest import ANN, BOB, CHANNEL, started_tally

ROOT = Path(__file__).resolve().parents[2]


async def _state(tables: Tables) -> tuple[int, str | None, int, int]:
    row = await tables.store.active_game(CHANNEL)
    assert row is not None
    return row.version, row.snapshot, len(await tables.store.moves(row.id)), len(await tables.store.pending())


async def test_a_full_disk_refuses_the_move_in_one_sentence_and_writes_nothing(
    tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    await started_tally(tables, ANN, BOB)
    before = await _state(tables)
    pages = await tables.store.db.call(lambda db: db.execute("PRAGMA page_count").fetchone()[0])
    await tables.store.db.call(lambda db: db.execute(f"PRAGMA max_page_count = {pages}"))  # the disk is full
    refusal = None
    for _ in range(40):  # moves until one needs a page the disk no longer has
        try:
            await tables.act(CHANNEL, ANN.id if (await _state(tables))[0] % 2 == 0 else BOB.id, "add 1")
        except Unavailable as refused:
            refusal = str(refused)
            break
    else:
        pytest.fail("no move ever needed a new page")
    assert refusal == "I can't save moves right now: the bot's storage is full. Nothing was changed."
    assert tables.store.path in caplog.text and "full" in caplog.text  # the admin's log names the file
    stuck = await _state(tables)
    assert stuck[0] == stuck[2] and stuck[0] >= before[0]  # the version and the log agree: nothing half-written
    await tables.store.db.call(lambda db: db.execute("PRAGMA max_page_count = 1073741823"))  # space again
    mover = ANN if stuck[0] % 2 == 0 else BOB
    assert (await tables.act(CHANNEL, mover.id, "add 1")).version == stuck[0] + 1


async def test_a_read_only_database_refuses_changes_and_still_shows_the_board(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    before = await _state(tables)
    await tables.store.db.call(lambda db: db.execute("PRAGMA query_only = ON"))
    with pytest.raises(Unavailable, match=r"^I can't save moves right now: the bot's storage is read-only\."):
        await tables.act(CHANNEL, ANN.id, "add 1")
    with pytest.raises(Unavailable, match=r"read-only\. Nothing was changed\."):
        await tables.create(channel_id="other", guild_id="1", game="tally", creator=BOB, options={})
    assert (await tables.table(CHANNEL)).game is not None  # reading still works
    await tables.store.db.call(lambda db: db.execute("PRAGMA query_only = OFF"))
    assert await _state(tables) == before and await tables.store.active_game("other") is None
    assert (await tables.act(CHANNEL, ANN.id, "add 1")).version == 1


async def test_a_database_locked_by_another_program_is_refused_not_crashed(tables: Tables) -> None:
    await started_tally(tables, ANN, BOB)
    await tables.store.db.call(lambda db: db.execute("PRAGMA busy_timeout = 50"))
    other = sqlite3.connect(tables.store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(Unavailable, match=r"locked by another program\. Nothing was changed\."):
            await tables.act(CHANNEL, ANN.id, "add 1")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (await tables.act(CHANNEL, ANN.id, "add 1")).version == 1


def _read_only_copy(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    """Returns a database file this test's bot may read but not write, and how to run as that user."""
    folder = Path(tempfile.mkdtemp(prefix="tablehost-ro-"))
    path = folder / "tablehost.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    path.chmod(0o444)
    folder.chmod(0o555)
    if os.geteuid() == 0:  # root writes any file: run the bot as nobody, who cannot
        return path, {"user": "nobody", "group": "nogroup"}
    return path, {}


@contextmanager
def readable_by_others(*paths: Path) -> Iterator[None]:
    """Lets other users read and enter ``paths`` and their parents for a while (a clone may sit in a 700 folder)."""
    folders = {f for p in paths for f in (p, *p.parents)}
    changed = {f: f.stat().st_mode for f in folders if f.stat().st_mode & 0o005 != 0o005}
    for folder, mode in changed.items():
        folder.chmod(mode | 0o005)
    try:
        yield
    finally:
        for folder, mode in changed.items():
            folder.chmod(mode)


def test_a_start_on_a_read_only_database_exits_2_naming_the_file(tmp_path: Path) -> None:
    path, who = _read_only_copy(tmp_path)
    env = {**os.environ, "DISCORD_TOKEN": "not-used", "TABLEHOST_DB": str(path), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        with readable_by_others(ROOT, Path(sys.executable).parent):
            done = subprocess.run(
                [sys.executable, str(ROOT / "bot.py")], env=env, cwd=path.parent, capture_output=True, text=True,
                timeout=60, **who,  # type: ignore[call-overload]
            )
    finally:
        path.parent.chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert str(path) in done.stderr and "read-only" in done.stderr
    assert "Traceback" not in done.stderr

