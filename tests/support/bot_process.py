"""Runs the real bot (``bot.main``) in a child process on a fake Discord server, and drives it from a test.

In the child (what ``BotProcess`` spawns)::

    python -m tests.support.bot_process --api-base URL --gateway URL [--guild-ready-timeout S]
                                        [--client-name NAME] [--dotenv] [--exit-on-stdin-eof]
                                        -- [bot.py arguments]

``--api-base`` / ``--gateway`` default to ``FAKE_DISCORD_API_BASE`` / ``FAKE_DISCORD_GATEWAY``.
The child points ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` at the fake
(as ``FakeDiscord.patch_discord`` does), refuses every non-loopback name lookup, waits only
``--guild-ready-timeout`` (0.05 s) for guilds after READY, prints ``bot_process: ready`` on stdout
when discord.py dispatches ``ready``, and runs ``bot.main(argv)``. ``.env`` is not read unless
``--dotenv`` is given. With ``--exit-on-stdin-eof`` it exits at once when its stdin closes, so it
never outlives the test process. ``--client-name`` adds the header ``X-Fake-Discord-Client: NAME``
to every request and gateway connection, so the fake records which process did what (``client``).

In the test (the parent)::

    async with running_bot(fake_discord, tmp_path) as bot:
        await bot.test.slash("game", "board", user="ann")   # a DiscordTest with no in-process bot
        await bot.kill()                                    # SIGKILL
        await bot.start()                                   # or bot.restart()
        assert "Traceback" not in bot.stderr

Several processes on one fake (shards of one bot on a shared PostgreSQL database, say): give each a
``name`` and an ``env``; each waits for its own gateway sessions, and the fake's records name it::

    async with running_bot(fake, tmp_path, name="shard0", db_path=dsn,
                           env={"SHARD_COUNT": "2", "SHARD_IDS": "0"}) as first, running_bot(...) as second:
        record = await first.test.slash("game", "board", user="ann")
        assert record.callbacks[0].client == "shard0"
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

READY_MARK = "bot_process: ready"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", None})
REPO_ROOT = Path(__file__).resolve().parents[2]
POLL = 0.02
CLIENT_HEADER = "X-Fake-Discord-Client"  # tests.fakediscord.recorder.CLIENT_HEADER (not imported in the child)
_names = itertools.count(1)
COMMANDS_ROUTE = "PUT /applications/{application_id}/commands"
GUILD_COMMANDS_ROUTE = "PUT /applications/{application_id}/guilds/{guild_id}/commands"


# the child

def refuse_network() -> None:
    """Makes any name lookup other than loopback fail, so the bot cannot reach the real Discord."""
    real = socket.getaddrinfo

    def loopback_only(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name not in LOOPBACK_HOSTS:
            raise OSError(f"a bot on the fake Discord may not reach the network (looked up {name!r})")
        return real(host, *args, **kwargs)

    socket.getaddrinfo = loopback_only


def point_discord_at(api_base: str, gateway: str, *, guild_ready_timeout: float) -> None:
    """Points discord.py at the fake server and shortens the wait for guilds after READY."""
    import discord
    import discord.gateway
    import discord.http
    import discord.state
    import yarl

    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

    state_init = discord.state.ConnectionState.__init__

    def quick_state(self: Any, *args: Any, **options: Any) -> None:
        options.setdefault("guild_ready_timeout", guild_ready_timeout)
        state_init(self, *args, **options)

    discord.state.ConnectionState.__init__ = quick_state  # type: ignore[method-assign]

    dispatch = discord.Client.dispatch

    def dispatch_and_tell(self: Any, event: str, /, *args: Any, **kwargs: Any) -> None:
        if event == "ready":
            print(READY_MARK, flush=True)
        dispatch(self, event, *args, **kwargs)

    discord.Client.dispatch = dispatch_and_tell  # type: ignore[method-assign]


def name_requests(name: str) -> None:
    """Adds ``X-Fake-Discord-Client: name`` to every aiohttp session's requests (REST and gateway)."""
    import aiohttp

    session_init = aiohttp.ClientSession.__init__

    def named(self: Any, *args: Any, **kwargs: Any) -> None:
        headers = dict(kwargs.pop("headers", None) or {})
        headers.setdefault(CLIENT_HEADER, name)
        session_init(self, *args, headers=headers, **kwargs)

    aiohttp.ClientSession.__init__ = named  # type: ignore[method-assign]


def exit_when_stdin_closes() -> None:
    """Ends this process at once when stdin reaches EOF (the test process closed it, or died)."""

    fd = sys.stdin.fileno()

    def watch() -> None:  # a raw read: a buffered one would block the interpreter's shutdown
        with contextlib.suppress(OSError):
            while os.read(fd, 1024):
                pass
        os._exit(70)

    threading.Thread(target=watch, name="stdin-watchdog", daemon=True).start()


def child_main(argv: Sequence[str]) -> int:
    """Runs ``bot.main`` on the fake Discord named by the arguments or environment."""
    argv = list(argv)
    ours, bot_args = (argv[: argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(prog="python -m tests.support.bot_process")
    parser.add_argument("--api-base", default=os.environ.get("FAKE_DISCORD_API_BASE"))
    parser.add_argument("--gateway", default=os.environ.get("FAKE_DISCORD_GATEWAY"))
    parser.add_argument("--guild-ready-timeout", type=float, default=0.05)
    parser.add_argument("--client-name", help="sent as the X-Fake-Discord-Client header")
    parser.add_argument("--dotenv", action="store_true", help="let bot.main read .env (off by default)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    args = parser.parse_args(ours)
    if not args.api_base or not args.gateway:
        parser.error("--api-base and --gateway (or FAKE_DISCORD_API_BASE and FAKE_DISCORD_GATEWAY) are required")
    if args.exit_on_stdin_eof:
        exit_when_stdin_closes()
    refuse_network()
    point_discord_at(args.api_base, args.gateway, guild_ready_timeout=args.guild_ready_timeout)
    if args.client_name:
        name_requests(args.client_name)
    import bot

    if not args.dotenv:
        bot.load_dotenv = lambda *a, **k: False  # type: ignore[attr-defined]
    return int(bot.main(bot_args))


# the parent

def child_env(db_path: Path | str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """Returns the child's environment: this one, with every setting the bot reads made explicit."""
    env = {k: v for k, v in os.environ.items() if not k.upper().endswith("_PROXY")}
    pythonpath = [str(REPO_ROOT), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env.update({
        "PYTHONPATH": os.pathsep.join(pythonpath),
        "PYTHONUNBUFFERED": "1",
        "NO_PROXY": "127.0.0.1,localhost",
        "DISCORD_TOKEN": "fake-token",
        "TABLEHOST_DB": str(db_path),
        "DEV_GUILD_ID": "",
        "TABLEHOST_DEBUG": "0",
        "TABLEHOST_RENDER_WORKERS": "2",
        "LOG_LEVEL": "INFO",
        "TABLEHOST_WEB_SECRET": "tablehost-test-web-secret",  # else a bot serving pages writes one into .env
    })
    env.update(extra or {})
    return env


class BotProcess:
    """The real bot in a child process on a ``FakeDiscord``: start, kill, terminate, restart.

    ``test`` is a ``DiscordTest`` on the same fake (``slash``, ``click``, ``messages``... work; it
    has no in-process ``bot``). ``stderr`` holds the child's log over every run, ``runs`` the exit
    status of each finished run. The fake keeps its state across restarts. ``db_path`` is a SQLite
    file or a ``postgresql://`` address. ``name`` (default ``bot-1``, ``bot-2``...) is sent with each of
    the child's requests and gateway connections (``X-Fake-Discord-Client``): the fake's records carry
    it as ``client``, and ``start`` and ``wait_disconnected`` watch this process's sessions only.
    """

    def __init__(
        self, fake: Any, *, db_path: Path | str, workdir: Path | str, bot_args: Sequence[str] = ("--sync", "--serve"),
        env: dict[str, str] | None = None, ready_timeout: float = 20.0, dotenv: bool = False,
        name: str | None = None,
    ) -> None:
        from tests.fakediscord.api import DiscordTest

        self.fake = fake
        self.test = DiscordTest(fake)
        self.db_path: Path | str = db_path if isinstance(db_path, str) and "://" in db_path else Path(db_path)
        self.name = name or f"bot-{next(_names)}"
        self.workdir = Path(workdir)
        self.bot_args = list(bot_args)
        self.env = env
        self.ready_timeout = ready_timeout
        self.dotenv = dotenv
        self.stderr_lines: list[str] = []
        self.stdout_lines: list[str] = []
        self.runs: list[int] = []
        """The exit status of each finished run (negative: killed by that signal)."""
        self.starts = 0
        self._run_starts: list[int] = []
        self._proc: asyncio.subprocess.Process | None = None
        self._readers: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()

    # state

    @property
    def stderr(self) -> str:
        """Returns everything the child wrote to stderr, over every run."""
        return "".join(self.stderr_lines)

    def run_stderr(self, run: int = -1) -> str:
        """Returns what one run (0 the first, -1 the latest) wrote to stderr."""
        bounds = [*self._run_starts, len(self.stderr_lines)]
        index = range(len(self._run_starts))[run]
        return "".join(self.stderr_lines[bounds[index]:bounds[index + 1]])

    @property
    def pid(self) -> int | None:
        """Returns the running child's process id, or None."""
        return self._proc.pid if self._proc is not None else None

    @property
    def connected(self) -> bool:
        """Tells whether this process has a gateway session on an open connection."""
        return any(s.connected for s in self.fake.gateway.sessions_of(self.name))

    def _identifies(self) -> int:
        return sum(1 for _, client in self.fake.gateway.identified if client == self.name)

    def _syncs(self) -> int:
        recorder = self.fake.recorder
        return sum(1 for r in [*recorder.requests_to(COMMANDS_ROUTE), *recorder.requests_to(GUILD_COMMANDS_ROUTE)]
                   if r.client == self.name)

    @property
    def running(self) -> bool:
        """Tells whether a child is running."""
        return self._proc is not None and self._proc.returncode is None

    @property
    def returncode(self) -> int | None:
        """Returns the exit status of the last finished run, or None."""
        return self.runs[-1] if self.runs else None

    def command(self) -> list[str]:
        """Returns the child's command line."""
        return [sys.executable, "-m", "tests.support.bot_process", "--api-base", self.fake.api_base,
                "--gateway", self.fake.gateway_url, "--exit-on-stdin-eof", "--client-name", self.name,
                *(["--dotenv"] if self.dotenv else []), "--", *self.bot_args]

    # lifecycle

    async def start(self, *, bot_args: Sequence[str] | None = None) -> None:
        """Spawns the bot and waits until it identified (each of its shards), synced its commands (with
        ``--sync``) and is ready.

        ``bot_args`` replaces the bot's arguments from now on (e.g. ``[]`` to restart without ``--sync``:
        the fake still has the commands).
        """
        if self.running:
            raise RuntimeError("the bot process is already running")
        if bot_args is not None:
            self.bot_args = list(bot_args)
        identifies = self._identifies()
        syncs = self._syncs()
        self._ready.clear()
        self.starts += 1
        self._run_starts.append(len(self.stderr_lines))
        self.stderr_lines.append(f"--- bot process run {self.starts} ---\n")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self._proc = proc = await asyncio.create_subprocess_exec(
            *self.command(), cwd=self.workdir, env=child_env(self.db_path, self.env),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        self._readers = [asyncio.create_task(self._read(proc.stdout, self.stdout_lines, watch=True)),
                         asyncio.create_task(self._read(proc.stderr, self.stderr_lines))]
        deadline = time.monotonic() + self.ready_timeout
        try:
            while True:
                synced = self._syncs()
                if (self._ready.is_set() and self._identifies() > identifies and self.connected
                        and ("--sync" not in self.bot_args or synced > syncs)):
                    return
                if proc.returncode is not None:
                    await self._reap()
                    raise RuntimeError(f"the bot process exited with {proc.returncode} before it was ready;"
                                       f" stderr:\n{self.stderr[-4000:]}")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the bot process was not ready within {self.ready_timeout} s;"
                                       f" stderr:\n{self.stderr[-4000:]}")
                await asyncio.sleep(POLL)
        except BaseException:
            await self.kill()
            raise

    async def kill(self) -> int | None:
        """Kills the child with SIGKILL (no clean-up in the bot) and returns its exit status."""
        return await self._stop(signal.SIGKILL, timeout=10.0)

    async def terminate(self, timeout: float = 10.0) -> int | None:
        """Sends SIGTERM (the bot closes cleanly), waits up to ``timeout`` s (then SIGKILL); returns the status."""
        return await self._stop(signal.SIGTERM, timeout=timeout)

    async def restart(self, *, kill: bool = True, bot_args: Sequence[str] | None = None) -> None:
        """Stops the child (SIGKILL, or SIGTERM with ``kill=False``) and starts a new one on the same fake."""
        await (self.kill() if kill else self.terminate())
        await self.start(bot_args=bot_args)

    async def wait_disconnected(self, timeout: float = 5.0) -> None:
        """Waits until the fake gateway has seen this bot's connections close."""
        deadline = time.monotonic() + timeout
        while self.connected:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the fake gateway still has a connection of {self.name}")
            await asyncio.sleep(POLL)

    async def close(self) -> None:
        """Kills the child if it still runs, reaps it, and stops the test API."""
        try:
            await self.kill()
        finally:
            await self.test.close()

    def errors(self) -> list[str]:
        """Returns the child's stderr lines that report an error or a traceback."""
        return [line for line in self.stderr_lines if " ERROR " in line or line.startswith("Traceback")]

    async def _stop(self, sig: int, *, timeout: float) -> int | None:
        proc = self._proc
        if proc is None:
            return self.returncode
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        await self._reap()
        return self.returncode

    async def _reap(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        await proc.wait()
        readers, self._readers = self._readers, []
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*readers, return_exceptions=True), 2.0)
        for task in readers:
            task.cancel()
        assert proc.returncode is not None
        self.runs.append(proc.returncode)
        self.stderr_lines.append(f"--- bot process run {self.starts} exited with {proc.returncode} ---\n")

    async def _read(self, stream: asyncio.StreamReader, lines: list[str], *, watch: bool = False) -> None:
        while line := await stream.readline():
            text = line.decode(errors="replace")
            lines.append(text)
            if watch and text.strip() == READY_MARK:
                self._ready.set()


@contextlib.asynccontextmanager
async def running_bot(
    fake: Any, tmp_path: Path, *, bot_args: Sequence[str] = ("--sync", "--serve"), env: dict[str, str] | None = None,
    ready_timeout: float = 20.0, db_path: Path | str | None = None, name: str | None = None,
) -> AsyncIterator[BotProcess]:
    """Starts the real bot in a child process on ``fake`` (database and cwd under ``tmp_path``, unless
    ``db_path`` names one), yields its ``BotProcess``, and always kills and reaps it afterwards; its
    stderr is printed (pytest shows it when the test fails)."""
    process = BotProcess(fake, db_path=tmp_path / "tablehost.db" if db_path is None else db_path,
                         workdir=tmp_path / f"{name or 'bot'}-cwd", bot_args=bot_args, env=env,
                         ready_timeout=ready_timeout, name=name)
    try:
        await process.start()
        yield process
    finally:
        await process.close()
        print(process.stderr)


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1:]))
