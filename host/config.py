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
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            dev_guild_id=int(guild) if guild else None,
            db_path=env.get("TABLEHOST_DB", "").strip() or "tablehost.db",
            debug=env.get("TABLEHOST_DEBUG", "0").strip().lower() in {"1", "true", "yes", "on"},
            log_level=env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            render_workers=int(workers),
            cache_size=int(cache),
            threads=env.get("TABLEHOST_THREADS", "1").strip().lower() not in {"0", "false", "no", "off"},
        )
