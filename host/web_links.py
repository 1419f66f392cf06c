"""The web table's addresses: each game's page is ``<public url>/g/<id>/<token>``, its token unguessable.

The token is the first 22 characters of the url-safe base64 of HMAC-SHA256(``TABLEHOST_WEB_SECRET``,
``"tablehost-web-game:<id>"``): 132 bits, so an address cannot be guessed from another game's, and
a page is found only through its link, which the bot posts only where the game is (access follows
the channel). A wrong or forged token is treated as a missing game (:meth:`WebLinks.valid`)::

    >>> links = WebLinks(b"k" * 32, "https://tables.example.org/")
    >>> links.url(12)
    'https://tables.example.org/g/12/54h6Uu5kiC1n8Nae_9EJRz'
    >>> links.valid(12, links.token(12)), links.valid(13, links.token(12)), links.valid(12, "x")
    (True, False, False)

The secret is ``TABLEHOST_WEB_SECRET``; :func:`ensure_secret` writes a new one into ``.env`` on the
first run that serves pages without one. Every process of a sharded bot must share it (the same
``.env`` or environment), or their links would not open on each other's pages.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

TOKEN_CHARS = 22
"""Characters of a page's token (132 bits)."""
SECRET_NAME = "TABLEHOST_WEB_SECRET"


class WebLinks:
    """Makes and checks the game pages' addresses under one secret."""

    def __init__(self, secret: bytes, public_url: str) -> None:
        if len(secret) < 16:
            raise ValueError(f"{SECRET_NAME} must be at least 16 bytes long")
        self._secret = secret
        self.public_url = public_url.rstrip("/")

    def token(self, game_id: int) -> str:
        """Returns the token of a game's page."""
        digest = hmac.digest(self._secret, f"tablehost-web-game:{game_id}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(digest).decode()[:TOKEN_CHARS]

    def path(self, game_id: int) -> str:
        """Returns the page's path, ``/g/<id>/<token>``."""
        return f"/g/{game_id}/{self.token(game_id)}"

    def url(self, game_id: int) -> str:
        """Returns the page's full address under the public URL."""
        return self.public_url + self.path(game_id)

    def valid(self, game_id: int, token: str) -> bool:
        """Tells whether ``token`` is the game's (in constant time)."""
        return hmac.compare_digest(self.token(game_id).encode(), token.encode("utf-8", "replace"))


def ensure_secret(env_file: Path = Path(".env")) -> str:
    """Returns ``TABLEHOST_WEB_SECRET`` from the environment, first writing a new one into ``env_file`` (and the
    environment) when it is missing."""
    existing = os.environ.get(SECRET_NAME, "").strip()
    if existing:
        return existing
    secret = secrets.token_urlsafe(32)
    text = env_file.read_text(encoding="utf-8") if env_file.exists() else ""
    line = f"{SECRET_NAME}={secret}\n"
    env_file.write_text(text + ("" if not text or text.endswith("\n") else "\n") + line, encoding="utf-8")
    os.environ[SECRET_NAME] = secret
    return secret
