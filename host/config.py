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
        )


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
