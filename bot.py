#!/usr/bin/env python3
"""Starts Tablehost: reads ``.env``, sets up logging, runs the Discord bot or the console table.

    python bot.py                                            # the Discord bot
    python bot.py --sync [--serve]                           # register the slash commands, then exit (or run)
    python bot.py --console <game> --players ann,bob [...]   # a hot-seat game, no Discord
    python bot.py --console --load FILE [--script FILE]      # replay an exported game, move by move
    python bot.py --verify FILE [--all] [--key FINGERPRINT]  # check an export's dice against its seed
    python bot.py --rebuild-ratings                          # recompute every rating from the games table
    python bot.py --copy-db FROM TO                          # copy every game into an empty database
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dotenv import load_dotenv

if TYPE_CHECKING:
    from cogs.client import Tablehost
    from host.config import Config
    from host.web import HttpServer

NO_TOKEN = (
    "DISCORD_TOKEN is not set: put it in .env (copy .env.example) or the environment;"
    " to try a game without Discord, run: python3 tasks.py run --console <game> --players ann,bob"
)


async def run_bot(*, sync: bool, serve: bool = True) -> int:
    """Runs the bot until it is closed or signalled; the store is closed cleanly after the last move.

    ``sync`` registers the slash commands first; without ``serve`` it then exits, never having joined
    the gateway (so it takes no shard's session and answers no interaction).
    """
    from cogs.client import COGS, make_bot
    from engines.core.registry import KITS, RegistryError
    from host.config import Config
    from host.store import Store, StoreError
    from host.tables import Tables
    from host.thinker import Thinker
    from host.web import HttpServer

    config = Config.from_env()
    assert config.token is not None
    try:  # the games, from their entry points: a broken game package stops the start, named
        logging.getLogger(__name__).info("games: %s", ", ".join(KITS) or "none")
    except RegistryError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        pool = {"max_size": config.pool_size} if config.db_path.startswith(("postgresql://", "postgres://")) else {}
        store = await Store.open(config.db_path, **pool)
    except StoreError as err:  # names the file and the cause: unwritable, full, locked, newer schema, no grants
        print(f"error: cannot use the database {err}", file=sys.stderr)  # one line; the password left out
        return 1 if passing(err) else 2  # 2 is a setup mistake: the service manager does not start it again
    tables = Tables(store, debug=config.debug, cache_size=config.cache_size, thinker=Thinker(config.bot_budget))
    try:
        bot = make_bot(config, tables=tables, sync=sync, extensions=COGS)
        if config.shard_count is not None:
            shards = config.shard_ids if config.shard_ids is not None else range(config.shard_count)
            logging.getLogger(__name__).info("serving shards %s of %d, database %s",
                                             ", ".join(map(str, shards)), config.shard_count, store.path)
        if sync and not serve:  # login runs setup_hook, which syncs; no gateway session is opened
            async with bot:
                await bot.login(config.token)
            print(f"synced the commands to {config.dev_guild_id or 'every server'}; not serving (--serve runs on)")
            return 0
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.stop_gracefully()))
        web = HttpServer.for_bot(bot)  # /healthz and /metrics, served when TABLEHOST_HTTP is set
        if config.http is not None:
            serve_pages(web, bot, config)  # and the web table's game pages
            try:
                await web.start(*config.http)
            except OSError as err:  # the port is taken, or the address is not this machine's
                print(f"error: cannot serve TABLEHOST_HTTP={config.http[0]}:{config.http[1]}: {err}", file=sys.stderr)
                return 2
        try:
            async with bot:
                await bot.start(config.token)
        finally:
            await web.stop()  # nothing to stop when it was not started
    finally:
        await tables.drain()  # a move in progress finishes its commit first
        await store.close()
        logging.getLogger(__name__).info("store closed; goodbye")
    return 0


def serve_pages(server: HttpServer, bot: Tablehost, config: Config) -> None:
    """Adds the web table's pages to the HTTP listener; with ``TABLEHOST_PUBLIC_URL`` the boards link to them.

    The pages' secret (``TABLEHOST_WEB_SECRET``) is written into ``.env`` on the first run without one.
    """
    from host.web_links import WebLinks, ensure_secret
    from web.app import WebTable

    assert config.http is not None
    host, port = config.http
    secret = ensure_secret(Path(__file__).resolve().parent / ".env")  # beside bot.py, where load_dotenv finds it
    links = WebLinks(secret.encode(), config.public_url or f"http://{host}:{port}")
    server.mounts.append(WebTable(bot.tables, links).mount)
    if config.public_url is not None:
        bot.web_links = links


PASSING = ("the bot's database cannot be reached", "the bot's database has no free connections",
           "the bot's database did not answer in time")
"""Faults at start that pass by themselves (a server restarting, busy): exit 1, and the service manager retries."""


def passing(err: Exception) -> bool:
    """Tells whether a database fault at start may pass by itself (exit 1), rather than need the admin (exit 2)."""
    return getattr(err, "reason", None) in PASSING


QUIET = {
    "discord.http": logging.WARNING,  # at DEBUG: every request body, DMs with hands included
    "discord.gateway": logging.INFO,  # at DEBUG: every event, typed moves included
    "discord.webhook.async_": logging.WARNING,  # interaction replies
    "aiosqlite": logging.WARNING,  # at DEBUG: every call with its arguments
}
"""Loggers that write what players send or receive at DEBUG: kept above it, whatever LOG_LEVEL says."""


def quiet_loggers() -> None:
    """Keeps the libraries' payload logging off, so no hand or move text reaches a log."""
    for name, level in QUIET.items():
        logging.getLogger(name).setLevel(level)


def verify_main(argv: list[str]) -> int:
    """Checks an exported game (``--verify FILE``): 0 when every move matches its seed, 1 when not, 2 unreadable."""
    parser = argparse.ArgumentParser(
        prog="bot.py --verify", description="Check that an exported game's dice and deals came from its seed."
    )
    parser.add_argument("file", help="a game exported with /table export")
    parser.add_argument("--all", action="store_true", help="list every move, not only those that do not match")
    parser.add_argument("--key", metavar="FINGERPRINT", help="refuse a file signed by another key (see /game help)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # a usage error: argparse has printed it
        return 2 if stop.code else 0
    from host.verify import main as verify

    return verify(args.file, every=args.all, key=args.key)


async def rebuild_ratings(db_path: str) -> int:
    """Recomputes every rating from the games table (``--rebuild-ratings``) and says how many games counted."""
    from host.ratings import Ratings
    from host.store import Store, StoreError

    try:
        store = await Store.open(db_path)
    except StoreError as err:
        print(f"error: cannot use the database {err}", file=sys.stderr)  # err names it, password left out
        return 2
    try:
        counted = await Ratings(store).rebuild()
    finally:
        await store.close()
    print(f"Ratings rebuilt from {store.path}: {counted} game{'s' if counted != 1 else ''} counted.")
    return 0


async def copy_db(source: str, target: str) -> int:
    """Copies every row of one database into an empty one (``--copy-db``), e.g. SQLite to PostgreSQL."""
    from host.copy import copy_store
    from host.store import Store, StoreError

    opened: list[Store] = []
    try:
        for where in (source, target):
            opened.append(await Store.open(where))
        counts = await copy_store(*opened)
    except StoreError as err:
        print(f"error: nothing was copied: {err}", file=sys.stderr)  # names the databases, passwords left out
        return 2
    finally:
        for store in opened:
            await store.close()
    print(f"Copied {opened[0].path} into {opened[1].path}: {counts['games']} games, {counts['moves']} moves.")
    return 0


def main(argv: list[str]) -> int:
    """Parses arguments and runs the bot or the console; returns the exit status."""
    load_dotenv()
    if argv[:1] == ["--console"]:
        import console

        return console.main(argv[1:])
    if argv[:1] == ["--verify"]:
        return verify_main(argv[1:])
    parser = argparse.ArgumentParser(description="Run the Tablehost Discord bot.")
    parser.add_argument("--sync", action="store_true",
                        help="register the slash commands (to DEV_GUILD_ID when set), then exit")
    parser.add_argument("--serve", action="store_true", help="with --sync: run the bot after syncing")
    parser.add_argument("--console", action="store_true", help="play at the console instead (see console.py)")
    parser.add_argument("--verify", metavar="FILE", help="check an exported game's dice against its seed")
    parser.add_argument("--rebuild-ratings", action="store_true", help="recompute every rating from the games table")
    parser.add_argument("--copy-db", nargs=2, metavar=("FROM", "TO"),
                        help="copy every game from one database (a file or postgresql://...) into an empty one")
    args = parser.parse_args(argv)
    if args.verify is not None:  # --verify=FILE, or after another flag
        return verify_main([args.verify])

    from host.config import Config
    from host.logs import configure

    try:
        config = Config.from_env()
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    every = config.shard_count is not None and config.shard_ids is None  # SHARD_COUNT alone: all of them
    served = range(config.shard_count or 0) if every else config.shard_ids

    def set_up_logging() -> None:  # LOG_FORMAT=json: one JSON object a line (host.logs)
        configure(level=config.log_level, json_lines=config.log_format == "json", shards=served)

    if args.copy_db:  # needs the databases only
        set_up_logging()
        return asyncio.run(copy_db(*args.copy_db))
    if args.rebuild_ratings:  # needs the database only, not a token
        set_up_logging()
        return asyncio.run(rebuild_ratings(config.db_path))
    if config.token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    set_up_logging()
    quiet_loggers()
    return asyncio.run(run_bot(sync=args.sync, serve=args.serve or not args.sync))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
