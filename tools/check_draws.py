#!/usr/bin/env python3
"""Redoes every die of a Tablehost game export, with nothing but Python's standard library.

    python3 tools/check_draws.py xisk-12.json [--explain]

A table's posted commitment is the SHA-256 of a secret server seed (64 hex digits). Draw number n
(from 1) is HMAC-SHA256 with the seed's hex digits as key and "<entropy>:<n>" as message, the
entropy being the players' join ids and own words; its 32 bytes, read big-endian as h, give the
value h mod range, unless h >= 2**256 - 2**256 % range (a last, short block that favours small
values): then n is rejected and n + 1 tried. The export reveals the seed and lists every draw as
[number, range, value]. Exit status 0: all checks hold, 1: a mismatch, 2: a file it cannot check.
"""

import argparse
import hashlib
import hmac
import json
import re
import shlex
import sys
from typing import Any

SPACE = 2**256
HEX64 = re.compile(r"[0-9a-f]{64}")
Check = tuple[bool | None, str]  # (True: holds, False: mismatch, None: nothing to check), the line to print


class Unreadable(Exception):
    """A file this script cannot check (exit status 2)."""


def draw_hash(seed: str, entropy: str, n: int) -> int:
    """Returns HMAC-SHA256(key=seed as ASCII, message="<entropy>:<n>" as UTF-8) as a big-endian number."""
    return int.from_bytes(hmac.digest(seed.encode("ascii"), f"{entropy}:{n}".encode(), hashlib.sha256), "big")


def load(path: str) -> dict[str, Any]:
    """Returns the export; raises Unreadable unless it is a version-2 export with keyed draws."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            data = json.load(f)
    except (OSError, UnicodeDecodeError) as err:
        raise Unreadable(f"cannot read {path}: {err}") from None
    except json.JSONDecodeError as err:
        raise Unreadable(f"{path} is not JSON (line {err.lineno}, column {err.colno})") from None
    if not isinstance(data, dict) or data.get("format") != "tablehost-game":
        raise Unreadable(f'{path} is not a Tablehost game export (it has no "format": "tablehost-game")')
    dice = data.get("dice")
    if data.get("version") == 1 or (isinstance(dice, dict) and dice.get("scheme") == "splitmix64"):
        raise Unreadable("this game rolled the old SplitMix64 dice, not keyed draws: old-scheme games are "
                         "checked only by `python3 tasks.py run --verify FILE`")
    if data.get("version") != 2:
        raise Unreadable(f"version {data.get('version')!r}: this script reads version 2 exports only")
    if not isinstance(dice, dict) or dice.get("scheme") != "hmac-sha256":
        raise Unreadable('the file has no "dice" of scheme "hmac-sha256"')
    if not (isinstance(dice.get("server_seed"), str) and HEX64.fullmatch(dice["server_seed"])):
        raise Unreadable("dice.server_seed: expected 64 lowercase hex digits")
    for key in ("commitment", "entropy"):
        if not isinstance(dice.get(key), str):
            raise Unreadable(f"dice.{key}: expected text")
    draws = dice.get("draws")
    if not (isinstance(draws, list) and all(
            isinstance(d, list) and len(d) == 3 and all(type(x) is int for x in d) for d in draws)):
        raise Unreadable("dice.draws: expected a list of [number, range, value], each a whole number")
    if not (isinstance(data.get("players"), list) and all(isinstance(p, dict) for p in data["players"])):
        raise Unreadable("players: expected a list of seats")
    return data


def check_commitment(dice: dict[str, Any]) -> Check:
    c = hashlib.sha256(dice["server_seed"].encode("ascii")).hexdigest()
    if c != dice["commitment"]:
        return False, f"commitment: SHA-256 of the server seed is {c}, the posted one {dice['commitment']}: MISMATCH"
    posted = f" (posted in message {dice['commitment_message']})" if dice.get("commitment_message") else ""
    return True, f"commitment: SHA-256 of the server seed is {c}: match{posted}"


def part(player: dict[str, Any]) -> str:
    """Returns a seat's part of the entropy: its join id ("bot", or "-" for none), then ":" and its own words."""
    joined, words = player.get("joined"), player.get("entropy")
    own = joined if isinstance(joined, str) and joined else "-"
    return own + (f":{words}" if isinstance(words, str) and words else "")


def check_entropy(players: list[dict[str, Any]], entropy: str) -> Check:
    parts = [part(p) for p in players]  # the export lists them in seat order
    if "|".join(parts) == entropy:
        return True, f"entropy: the players' parts in seat order give {entropy!r}: match"
    for i, p in enumerate(players):
        head = "|".join(parts[: i + 1])
        if entropy != head and not entropy.startswith(head + "|"):
            return False, (f"entropy: seat {p.get('seat', i)} ({p.get('name')}) gives {parts[i]!r}, which is not "
                           f"there in the file's entropy {entropy!r}: MISMATCH")
    return False, f"entropy: the file's entropy {entropy!r} goes on after the last seat's part: MISMATCH"


def check_draws(seed: str, entropy: str, draws: list[list[int]]) -> Check:
    last = 0
    for number, r, value in draws:
        at = f"draws: draw number {number} (range {r}, value {value})"
        if r < 1:
            return False, f"{at}: range: it must be at least 1: MISMATCH"
        if not 0 <= value < r:
            return False, f"{at}: value: it must be from 0 to range - 1: MISMATCH"
        if number <= last:
            return False, f"{at}: number: it must come after number {last}, the one drawn before: MISMATCH"
        limit = SPACE - SPACE % r  # h >= limit is rejected
        for skipped in range(last + 1, number):
            if draw_hash(seed, entropy, skipped) < limit:
                return False, f"{at}: number: {skipped} was skipped, but it is no rejection for range {r}: MISMATCH"
        h = draw_hash(seed, entropy, number)
        if h >= limit:
            return False, f"{at}: number: {number} is a rejection for range {r}, it gives no value: MISMATCH"
        if h % r != value:
            return False, f"{at}: value: HMAC-SHA256 gives {h % r}: MISMATCH"
        last = number
    return True, f"draws: all {len(draws)} match"


def check_final(final: Any, seed: str, entropy: str, last: int) -> Check:
    rng = final.get("rng") if isinstance(final, dict) else None
    if rng is None:
        return None, "final state: it holds no dice state (not checked)"
    if not isinstance(rng, dict):
        return False, "final state: rng is not keyed draws (key, entropy, counter): MISMATCH"
    for field, want, what in (("key", seed, "the server seed"), ("entropy", entropy, "the dice entropy"),
                              ("counter", last, "the last draw's number (none is used after it)")):
        if rng.get(field) != want or type(rng.get(field)) is not type(want):
            return False, f"final state: rng.{field} is {rng.get(field)!r}, not {what}, {want!r}: MISMATCH"
    return True, f"final state: its dice key, entropy and counter ({last}) match"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Redoes every die of a Tablehost game export (version 2).")
    parser.add_argument("file", help="the file /table export gave")
    parser.add_argument("--explain", action="store_true", help="also show how to redo the first draw by hand")
    args = parser.parse_args(argv)
    try:
        data = load(args.file)
    except Unreadable as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    dice = data["dice"]
    seed, entropy, draws = dice["server_seed"], dice["entropy"], dice["draws"]
    checks = [check_commitment(dice), check_entropy(data["players"], entropy), check_draws(seed, entropy, draws),
              check_final(data.get("final_state"), seed, entropy, draws[-1][0] if draws else 0)]
    for _, line in checks:
        print(line)
    if args.explain:
        n, r, _ = draws[0] if draws else (1, 6, 0)
        print(f"by hand, draw number {n}: printf '%s' {shlex.quote(f'{entropy}:{n}')} | openssl dgst -sha256 "
              f"-hmac {seed}\n  and then python3 -c 'print(0x<the hex it prints> % {r})' gives its value")
    done = [ok for ok, _ in checks if ok is not None]
    failed = done.count(False)
    print(f"result: all {len(done)} checks hold" if not failed else f"result: {failed} of {len(done)} checks fail")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
