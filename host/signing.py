"""The bot's signature on every export: a file changed after ``/table export`` no longer checks.

Replaying a record proves its dice came from the sealed seed, but not that the file is the
bot's: a (move, undo) pair that used no chance, taken out and the log renumbered, leaves no
trace in any state or draw. So the bot signs each export with one Ed25519 key of its own, kept
in its database (every process of a sharded bot shares it), and shows the key's fingerprint in
``/game help`` and on the export's reply; ``bot.py --verify FILE --key FINGERPRINT`` also
refuses a file signed by any other key.

The signature covers the whole file but the ``signature`` field, in canonical JSON (keys
sorted, no spaces, UTF-8)::

    >>> key = new_key()
    >>> data = sign({"format": "tablehost-game", "moves": [1, 2]}, key)
    >>> check(data)[0], check({**data, "moves": [1]})[0]
    (True, False)
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from host.db import Database, Tx

SCHEME = "ed25519"


def new_key() -> Ed25519PrivateKey:
    """Returns a fresh signing key."""
    return Ed25519PrivateKey.generate()


def public_hex(key: Ed25519PrivateKey) -> str:
    """Returns the key's public half as 64 hex digits."""
    return key.public_key().public_bytes_raw().hex()


def fingerprint(public: str) -> str:
    """Returns what a player compares: the first 16 hex digits of the SHA-256 of the public key's hex digits."""
    return hashlib.sha256(public.encode()).hexdigest()[:16]


def canonical(data: dict[str, Any]) -> bytes:
    """Returns what the signature covers: the file but its ``signature``, as canonical JSON."""
    body = {k: v for k, v in data.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sign(data: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """Returns the export with its ``signature``: the scheme, the public key and the signature, in hex."""
    value = key.sign(canonical(data)).hex()
    return {**data, "signature": {"scheme": SCHEME, "key": public_hex(key), "value": value}}


def check(data: dict[str, Any]) -> tuple[bool, str]:
    """Returns whether the file's signature holds, and then the signing key's fingerprint, else why not."""
    sig = data.get("signature")
    if not isinstance(sig, dict) or sig.get("scheme") != SCHEME:
        return False, "signature: the file carries no signature of the bot's"
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(str(sig.get("key"))))
        public.verify(bytes.fromhex(str(sig.get("value"))), canonical(data))
    except (ValueError, InvalidSignature):
        return False, "signature: the file was changed after the bot signed it (or the signature was)"
    return True, fingerprint(str(sig["key"]))


async def bot_key(db: Database) -> Ed25519PrivateKey:
    """Returns the bot's signing key, made and stored on first use (once, whichever process is first)."""
    stored = await db.read(lambda tx: tx.fetchval("SELECT private FROM signing_key WHERE id = 1"))
    if stored is not None:  # a read, not a write, every time but the first
        return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(str(stored)))
    fresh = new_key().private_bytes_raw().hex()

    async def work(tx: Tx) -> str:
        await tx.execute("INSERT INTO signing_key (id, private) VALUES (1, ?) ON CONFLICT DO NOTHING", fresh)
        return str(await tx.fetchval("SELECT private FROM signing_key WHERE id = 1"))

    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(await db.write(work)))


async def bot_fingerprint(db: Database) -> str:
    """Returns the fingerprint of the bot's signing key, which ``/game help`` shows."""
    return fingerprint(public_hex(await bot_key(db)))
