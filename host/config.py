"""Settings read from the environment (``.env`` is loaded by bot.py before this)."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    """Everything the bot reads from its environment."""

    token: str | None
    dev_guild_id: int | None
    db_path: str
    debug: bool
    log_level: str
    render_workers: int
    cache_size: int = 512
    threads: bool = True
    shard_count: int | None = None
    """How many shards the bot runs on in all (``SHARD_COUNT``); None: no sharding."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process serves (``SHARD_IDS``); None with a ``shard_count``: all of them."""
    pool_size: int = 10
    """PostgreSQL connections this process keeps at most (``TABLEHOST_DB_POOL``); SQLite has one."""
    http: tuple[str, int] | None = None
    """Where ``/healthz`` and ``/metrics`` are served (``TABLEHOST_HTTP=host:port``); None: nowhere."""
    log_format: str = "text"
    """``text`` (one readable line a record) or ``json`` (one JSON object a line), from ``LOG_FORMAT``."""
    busy_after: float = 10.0
    """Seconds a player waits for their move's board before being told that Discord is busy
    (``TABLEHOST_BUSY_AFTER``)."""
    bot_budget: float = 1.0
    """Seconds a bot (or the coach) may think over a move (``TABLEHOST_BOT_BUDGET``)."""
    public_url: str | None = None
    """The address the web table's links use (``TABLEHOST_PUBLIC_URL``, e.g. ``https://tables.example.org``);
    None: the boards carry no link, though the pages are served on :attr:`http`."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Config:
        """Returns the settings in ``env`` (default: ``os.environ``); raises ValueError on a bad value."""
        env = dict(os.environ if env is None else env)
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        workers = env.get("TABLEHOST_RENDER_WORKERS", "2").strip() or "2"
        if not workers.isdigit() or int(workers) < 1:
            raise ValueError(f"TABLEHOST_RENDER_WORKERS must be a whole number ≥ 1, not {workers!r}.")
        cache = env.get("TABLEHOST_CACHE", "512").strip() or "512"
        if not (cache.isascii() and cache.isdigit()) or int(cache) < 1:
            raise ValueError(f"TABLEHOST_CACHE must be a whole number ≥ 1, not {cache[:20]!r}.")
        pool = env.get("TABLEHOST_DB_POOL", "10").strip() or "10"
        if not (pool.isascii() and pool.isdigit()) or not 1 <= int(pool) <= 1000:
            raise ValueError(f"TABLEHOST_DB_POOL must be a whole number from 1 to 1000, not {pool[:20]!r}.")
        shard_count, shard_ids = shards(env.get("SHARD_COUNT", ""), env.get("SHARD_IDS", ""))
        busy = env.get("TABLEHOST_BUSY_AFTER", "10").strip() or "10"
        try:
            busy_after = float(busy)
        except ValueError:
            busy_after = -1.0
        if not 0 < busy_after <= 600:
            raise ValueError(f"TABLEHOST_BUSY_AFTER must be seconds, more than 0 and at most 600, not {busy[:20]!r}.")
        budget = env.get("TABLEHOST_BOT_BUDGET", "1").strip() or "1"
        try:
            bot_budget = float(budget)
        except ValueError:
            bot_budget = -1.0
        if not 0.05 <= bot_budget <= 60:
            raise ValueError(f"TABLEHOST_BOT_BUDGET must be seconds, from 0.05 to 60, not {budget[:20]!r}.")
        log_format = env.get("LOG_FORMAT", "text").strip().lower() or "text"
        if log_format not in LOG_FORMATS:
            raise ValueError(f"LOG_FORMAT must be text or json, not {log_format[:20]!r}.")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            dev_guild_id=int(guild) if guild else None,
            db_path=env.get("TABLEHOST_DB", "").strip() or "tablehost.db",
            debug=env.get("TABLEHOST_DEBUG", "0").strip().lower() in {"1", "true", "yes", "on"},
            log_level=env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            render_workers=int(workers),
            cache_size=int(cache),
            threads=env.get("TABLEHOST_THREADS", "1").strip().lower() not in {"0", "false", "no", "off"},
            shard_count=shard_count,
            shard_ids=shard_ids,
            pool_size=int(pool),
            http=http_address(env.get("TABLEHOST_HTTP", "")),
            log_format=log_format,
            busy_after=busy_after,
            bot_budget=bot_budget,
            public_url=public_url(env.get("TABLEHOST_PUBLIC_URL", "")),
        )


LOG_FORMATS = ("text", "json")
"""The values of ``LOG_FORMAT``."""


def public_url(text: str) -> str | None:
    """Reads ``TABLEHOST_PUBLIC_URL``: an http(s) address without a query, its trailing slash dropped.

    >>> public_url(""), public_url(" https://tables.example.org/ ")
    (None, 'https://tables.example.org')
    >>> public_url("tables.example.org")
    Traceback (most recent call last):
    ...
    ValueError: TABLEHOST_PUBLIC_URL must be an http(s):// address (no query), not 'tables.example.org'.
    """
    text = text.strip()
    if not text:
        return None
    if not text.startswith(("http://", "https://")) or any(c in text for c in "?#\"\' <>"):
        raise ValueError(f"TABLEHOST_PUBLIC_URL must be an http(s):// address (no query), not {text[:40]!r}.")
    return text.rstrip("/")


def http_address(text: str) -> tuple[str, int] | None:
    """Returns the ``(host, port)`` of ``TABLEHOST_HTTP``, None when it is empty; raises ValueError.

    The host is a name or an address (an IPv6 one in brackets); the port is from 1 to 65535.

    >>> http_address(""), http_address("127.0.0.1:9100"), http_address(" [::1]:9100 ")
    (None, ('127.0.0.1', 9100), ('::1', 9100))
    >>> http_address("9100")
    Traceback (most recent call last):
    ...
    ValueError: TABLEHOST_HTTP must be host:port, such as 127.0.0.1:9100 or 0.0.0.0:9100, not '9100'.
    """
    text = text.strip()
    if not text:
        return None
    host, colon, port = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:  # an IPv6 address without its brackets: which colon starts the port?
        host = ""
    if not colon or not host or any(c.isspace() or c in "[]/" for c in host):
        raise ValueError(f"TABLEHOST_HTTP must be host:port, such as 127.0.0.1:9100 or 0.0.0.0:9100,"
                         f" not {text[:60]!r}.")
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        raise ValueError(f"TABLEHOST_HTTP's port must be a number from 1 to 65535, not {port[:20]!r}"
                         f" (in {text[:60]!r}).")
    return host, int(port)


def shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """Returns ``(shard_count, shard_ids)`` read from ``SHARD_COUNT`` and ``SHARD_IDS``; raises ValueError.

    Both empty: no sharding. ``SHARD_COUNT`` alone: this process runs every shard.

    >>> shards("", "")
    (None, None)
    >>> shards("4", "")
    (4, None)
    >>> shards("4", " 3, 1 ")
    (4, (3, 1))
    """
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ValueError(f"SHARD_IDS needs SHARD_COUNT (how many shards in all); SHARD_IDS is {ids_text[:40]!r}.")
        return None, None
    if not (count_text.isascii() and count_text.isdigit()) or int(count_text) < 1:
        raise ValueError(f"SHARD_COUNT must be a whole number ≥ 1, not {count_text[:20]!r}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.split(","):
        text = part.strip()
        if not (text.isascii() and text.isdigit()):
            what = f"{text[:20]!r} is not a shard number" if text else "one of them is empty"
            raise ValueError(f"SHARD_IDS must be shard numbers separated by commas, not {ids_text[:40]!r} ({what}).")
        if int(text) >= count:
            raise ValueError(f"SHARD_IDS may name shards 0 to {count - 1} (SHARD_COUNT is {count}), not {text!r}.")
        if int(text) in ids:
            raise ValueError(f"SHARD_IDS names shard {int(text)} twice: {ids_text[:40]!r}.")
        ids.append(int(text))
    return count, tuple(ids)
