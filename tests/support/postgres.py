"""A throwaway PostgreSQL server for the tests, run from the machine's server binaries.

In a test, ask for the ``pg_dsn`` fixture (tests/conftest.py) for a fresh empty database::

    async def test_something(pg_dsn: str) -> None:
        conn = await asyncpg.connect(pg_dsn)

Outside pytest::

    server = PostgresServer.start(make_root())  # a new folder in /dev/shm or /tmp
    dsn = server.create_database_sync()      # or: await server.create_database()
    server.stop()                            # stops the server and removes its folder

The server trusts every local connection, listens on 127.0.0.1 only (on a free port) and has
durability switched off (fsync, synchronous_commit, full_page_writes), so it is fast and holds
nothing worth keeping. PostgreSQL refuses to run as root, so when we are root ``initdb`` and
``pg_ctl`` run as ``nobody``; the server's folder must then be reachable by ``nobody`` (pytest's
own temporary folders under /tmp/pytest-of-root are not; ``make_root()`` makes one that is).
Whatever keeps the server from starting raises ``PostgresUnavailable`` with a one-line reason.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import re
import shlex
import shutil
import socket
import stat
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import asyncpg
import pytest

UNPRIVILEGED_USER = "nobody"
SERVER_BINARIES = ("initdb", "pg_ctl", "postgres")
REQUIRED_ENV = "TABLEHOST_PG_REQUIRED"
BIN_ENV = "TABLEHOST_PG_BIN"
_PORT_TRIES = 3


class PostgresUnavailable(Exception):
    """The test server could not be started; ``reason`` says why, on one line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def find_bindir() -> Path | None:
    """The folder of the PostgreSQL server binaries, or None.

    Looks at ``$TABLEHOST_PG_BIN`` (taken as given), ``pg_config --bindir`` (if it holds initdb),
    the newest ``/usr/lib/postgresql/*/bin`` with initdb (Debian), then initdb on ``PATH``.
    """
    if os.environ.get(BIN_ENV):
        return Path(os.environ[BIN_ENV])
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=10)
            bindir = Path(out.stdout.strip())
            if out.returncode == 0 and out.stdout.strip() and (bindir / "initdb").is_file():
                return bindir
    debian = [p.parent for p in Path("/usr/lib/postgresql").glob("*/bin/initdb") if p.is_file()]
    if debian:
        return max(debian, key=lambda p: _version_key(p.parent.name))
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", name)) or (0,)


def make_root(*, on_disk: bool = False) -> Path:
    """A new empty folder for a server: in /dev/shm when it is a roomy shared tmpfs, else the temp folder.

    On tmpfs, initdb and each CREATE DATABASE run several times faster than on a slow disk; a small
    /dev/shm (64 MB in a default Docker container) would fill up, so it needs 1 GiB free. ``on_disk``
    always takes the temp folder (a benchmark of durable commits).
    """
    if on_disk:
        return Path(tempfile.mkdtemp(prefix="tablehost-pg-"))
    shm = Path("/dev/shm")
    with contextlib.suppress(OSError):
        mode = shm.stat().st_mode
        shared = stat.S_ISDIR(mode) and mode & stat.S_ISVTX and mode & stat.S_IWOTH and mode & stat.S_IXOTH
        if shared and shutil.disk_usage(shm).free >= 1 << 30 and os.access(shm, os.W_OK):
            return Path(tempfile.mkdtemp(prefix="tablehost-pg-", dir=shm))
    return Path(tempfile.mkdtemp(prefix="tablehost-pg-"))


def unavailable(reason: str) -> NoReturn:
    """Skips the test, or fails it when ``$TABLEHOST_PG_REQUIRED`` is 1 (as ``tasks.py test`` sets)."""
    if os.environ.get(REQUIRED_ENV) == "1":
        pytest.fail(f"PostgreSQL is required ({REQUIRED_ENV}=1) but not available: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL is not available: {reason}")


def _one_line(text: str, limit: int = 600) -> str:
    line = " | ".join(s.strip() for s in text.splitlines() if s.strip())
    return line if len(line) <= limit else "..." + line[-limit:]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One running server in its own folder (``root``): ``root/data`` holds the cluster, ``root/log`` its log."""

    def __init__(self, root: Path, bindir: Path, port: int, run_as: dict[str, Any], durable: bool = False) -> None:
        self.root = root
        self.durable = durable
        self.bindir = bindir
        self.port = port
        self.startup_seconds = 0.0
        self._run_as = run_as
        self._stopped = False

    @property
    def data(self) -> Path:
        """The cluster's data directory."""
        return self.root / "data"

    @property
    def log(self) -> Path:
        """The server's log file."""
        return self.root / "log"

    @classmethod
    def start(cls, root: Path, *, bindir: Path | None = None, port: int | None = None,
              durable: bool = False) -> PostgresServer:
        """Makes ``root``, runs initdb in it and starts the server; raises ``PostgresUnavailable``.

        ``bindir`` defaults to ``find_bindir()``; ``port`` to a free one (retried if it is taken meanwhile).
        ``durable`` keeps PostgreSQL's own fsync and synchronous commits (for benchmarks; tests go without).
        The server owns ``root`` from here on: it is removed on failure and by ``stop()``.
        """
        began = time.monotonic()
        try:
            server = cls(root, _checked_bindir(bindir), port or _free_port(), _run_as_kwargs(), durable)
            server._prepare_root()
            server._initdb()
            for attempt in range(1, _PORT_TRIES + 1):
                try:
                    server._pg_ctl_start()
                    break
                except PostgresUnavailable as exc:
                    if port is not None or attempt == _PORT_TRIES or "already in use" not in exc.reason:
                        raise
                    server.port = _free_port()
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        server.startup_seconds = time.monotonic() - began
        atexit.register(server.stop)
        return server

    def pause(self) -> None:
        """Stops the server (fast shutdown) but keeps its data, for :meth:`resume` (an outage)."""
        self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"], 60)

    def resume(self) -> None:
        """Starts a server :meth:`pause` stopped, on the same port and data."""
        self._pg_ctl_start()

    def stop(self) -> None:
        """Stops the server (fast shutdown) and removes its folder; does nothing the second time."""
        if self._stopped:
            return
        self._stopped = True
        atexit.unregister(self.stop)
        try:
            for mode in ("fast", "immediate"):
                with contextlib.suppress(subprocess.TimeoutExpired):
                    done = self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"], 60)
                    if done.returncode == 0 or not (self.data / "postmaster.pid").exists():
                        break
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def dsn(self, database: str = "postgres") -> str:
        """A connection URI for ``database`` on this server, as user ``postgres`` (no password)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def create_database(self) -> str:
        """Creates a fresh, uniquely named empty database and returns its DSN."""
        name = _new_database_name()
        conn = await asyncpg.connect(self.dsn(), timeout=30)
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        finally:
            await conn.close()
        return self.dsn(name)

    async def drop_database(self, dsn_or_name: str) -> None:
        """Drops a database (by DSN or name), ending any connection still open to it."""
        name = _database_name(dsn_or_name)
        conn = await asyncpg.connect(self.dsn(), timeout=30)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    def create_database_sync(self) -> str:
        """``create_database`` without an event loop (through ``psql``), for sync code and fixtures."""
        name = _new_database_name()
        self._psql(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.dsn(name)

    def drop_database_sync(self, dsn_or_name: str) -> None:
        """``drop_database`` without an event loop (through ``psql``)."""
        self._psql(f'DROP DATABASE IF EXISTS "{_database_name(dsn_or_name)}" WITH (FORCE)')

    def _psql(self, sql: str) -> None:
        psql = next((p for p in (self.bindir / "psql", Path("/usr/bin/psql")) if p.is_file()), None)
        if psql is None:
            raise PostgresUnavailable(f"no psql in {self.bindir} or /usr/bin")
        cmd = [str(psql), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.dsn(), "-c", sql]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=_clean_env())
        if done.returncode != 0:
            raise RuntimeError(f"psql failed (exit {done.returncode}): {_one_line(done.stderr)}")

    def _prepare_root(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        user = self._run_as.get("user")
        if user is None:
            return
        account = pwd.getpwnam(user)
        os.chown(self.root, account.pw_uid, account.pw_gid)
        for parent in self.root.resolve().parents:
            st = parent.stat()
            if st.st_uid != account.pw_uid and not st.st_mode & stat.S_IXOTH:
                raise PostgresUnavailable(
                    f"{parent} (mode {stat.filemode(st.st_mode)}) cannot be entered by {user!r}, who must run "
                    "the server; put its folder somewhere reachable, e.g. tempfile.mkdtemp() under /tmp"
                )

    def _initdb(self) -> None:
        flags = ["-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]
        cmd = [str(self.bindir / "initdb"), "-D", str(self.data), *flags]
        try:
            done = self._run(cmd, 120)
        except subprocess.TimeoutExpired as exc:
            raise PostgresUnavailable("initdb did not finish in 120 s") from exc
        if done.returncode != 0:
            raise PostgresUnavailable(f"initdb failed (exit {done.returncode}): {_one_line(done.stdout + done.stderr)}")

    def _pg_ctl_start(self) -> None:
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={shlex.quote(str(self.root))}"
            " -c max_connections=200"
        )
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        cmd = [str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options]
        cmd += ["-t", "60", "-w", "start"]
        try:
            done = self._run(cmd, 90)
            failed = f"exit {done.returncode}" if done.returncode != 0 else ""
        except subprocess.TimeoutExpired:
            failed = "no answer in 90 s"
        if failed:
            with contextlib.suppress(OSError, subprocess.SubprocessError):  # a server half up must not linger
                self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"], 30)
            raise PostgresUnavailable(
                f"pg_ctl start failed ({failed}) on port {self.port}; server log: {self._log_tail()}"
            )

    def _log_tail(self, lines: int = 6) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError as exc:
            return f"(unreadable: {exc})"
        return _one_line("\n".join(text.splitlines()[-lines:])) or "(empty)"

    def _run(self, cmd: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.root,
            env=_clean_env(),
            stdin=subprocess.DEVNULL,
            **self._run_as,
        )


def _checked_bindir(bindir: Path | None) -> Path:
    """``bindir`` (default ``find_bindir()``) if it holds the server binaries, else ``PostgresUnavailable``."""
    if bindir is None:
        bindir = find_bindir()
        if bindir is None:
            raise PostgresUnavailable(
                f"no PostgreSQL server binaries found (looked at ${BIN_ENV}, pg_config --bindir, "
                "/usr/lib/postgresql/*/bin and PATH); install the 'postgresql' package"
            )
    missing = [name for name in SERVER_BINARIES if not (bindir / name).is_file()]
    if missing:
        raise PostgresUnavailable(f"no {', '.join(missing)} in {bindir} (set ${BIN_ENV} to the server's bin folder)")
    return bindir


def _run_as_kwargs() -> dict[str, Any]:
    """``subprocess.run`` arguments that drop root (PostgreSQL refuses it); none when we are not root."""
    if os.geteuid() != 0:
        return {}
    try:
        account = pwd.getpwnam(UNPRIVILEGED_USER)
    except KeyError:
        raise PostgresUnavailable(
            f"running as root and there is no {UNPRIVILEGED_USER!r} user to run PostgreSQL as (it refuses root)"
        ) from None
    return {"user": account.pw_name, "group": account.pw_gid, "extra_groups": []}


def _clean_env() -> dict[str, str]:
    """The environment without libpq's PG* variables (they would redirect psql or pg_ctl), in the C locale."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env["LC_ALL"] = "C"
    return env


def _new_database_name() -> str:
    return f"tablehost_test_{uuid.uuid4().hex[:16]}"


def _database_name(dsn_or_name: str) -> str:
    name = urlsplit(dsn_or_name).path.lstrip("/") if "://" in dsn_or_name else dsn_or_name
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise ValueError(f"not a test database name: {name!r}")
    return name
