"""Ratings per server and per game: OpenSkill's Plackett–Luce model over the finished games.

A finished game **counts** when all of these hold (else it is marked handled, ``counted`` 0,
and the reason is logged at INFO):

- its status is finished (an aborted game never counts), with a known result: the
  ``winners`` recorded with its last move, or for a game from before that column the
  engine's own ``winners`` read from its final snapshot;
- at least two of its players are human. Every seated player is human but the computer
  players, whose player id starts with ``bot:`` (:func:`host.bot_seats.is_bot`).
  Only the humans are rated, among themselves: a bot's seat is left out of the update,
  as if it had not played (so a game two humans lost to a bot is a draw between them);
- it was not decided by a **forfeit at the start**: the game ended by a give-up (its last
  standing move, undos taken out by :func:`host.undo.effective_moves`, is the engine's
  ``FORFEIT_MOVE``, typed by the player or played by the turn clock's ``forfeit``) while
  some seated player had not yet made a standing move of their own (one they played
  themselves, not the clock's, and not the give-up). A give-up after everyone has played
  counts as a loss like any other. A game with no standing move at all does not count.
  Such a game's channel is told it is not rated, and why (:meth:`Ratings.settle`): the
  players see the forfeit, but not that it costs the winner the rating;
- no hint was taken in it (``/game hint``: the game's ``hinted`` column, :mod:`host.tables_hints`;
  its boards said so from the first hint on).

Each counted game is one Plackett–Luce update of the humans, each a team of one, in seat
order: the winners rank 1 and every other player ranks 2, losers tied (XISK's order of
elimination is not used: a loss is a loss); a draw (no winner) ranks everyone 1. Each rated
player's ``games`` goes up by one, and ``wins`` for each winner.

**The order.** The ratings of a (server, game) are defined as the updates of its counted
games in game id order, from the model's default rating (μ 25, σ 25/3) for everyone.
:meth:`Ratings.rebuild` computes exactly that from the games table; :meth:`Ratings.record`
applies one game on top of the stored ratings when no counted game of that (server, game)
has a larger id, and otherwise (games finishing out of the order they were opened in)
recomputes that (server, game) from its counted games, so the stored values always equal a
rebuild, bit for bit. Games with no server (the console) are kept under server ``''``.

**The rating shown** is OpenSkill's ordinal μ − 3σ, to one decimal (:attr:`PlayerRating.rating`):
a skill the player is 99.7 % sure to have. Everyone starts at 0.0; it rises with wins and as
the games played make the estimate surer (σ falls), and can go a little below 0 after losses.
The leaderboard ranks by it.

Every write is one transaction: a game's ``rated`` mark and the change of ratings it
causes are committed together, so a game is counted exactly once, and :meth:`Ratings.sweep`
(at start-up) counts whatever finished between a crash and its :meth:`Ratings.record`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from engines import GAMES
from host.bot_seats import is_bot
from host.db import Row, Tx
from host.store import Status, Store, _move_row
from host.undo import effective_moves

log = logging.getLogger(__name__)

MIN_HUMANS = 2
"""Human players a game needs to count."""

HINTED = "a hint was taken"
"""Why a game in which the coach was asked does not count."""

MODEL = PlackettLuce()
"""The model, with OpenSkill's defaults: μ 25, σ 25/3, β 25/6, τ 25/300."""

ENDED = (Status.FINISHED.value, Status.ABORTED.value)
RATINGS_LOCK = 0x7AB1E402
"""The lock a ratings update holds (PostgreSQL): two processes' game ends update a server's ratings in turn."""


def is_human(player_id: str) -> bool:
    """Tells whether a player id is a person's (not a bot's).

    >>> is_human("1001"), is_human("bot:easy:1")
    (True, False)
    """
    return not is_bot(player_id)


def enough_humans(player_ids: Iterable[str]) -> bool:
    """Tells whether the players include the :data:`MIN_HUMANS` people a game needs to count.

    >>> enough_humans(["1001", "bot:easy:1"]), enough_humans(["1001", "1002", "bot:hard:1"])
    (False, True)
    """
    return sum(map(is_human, player_ids)) >= MIN_HUMANS


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating in one game of one server."""

    game: str
    player_id: str
    mu: float
    sigma: float
    games: int
    wins: int
    ordinal: float = field(init=False)
    """μ − 3σ: the conservative skill estimate the leaderboard ranks by."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "ordinal", self.mu - 3 * self.sigma)

    @property
    def rating(self) -> float:
        """The rating players see: the ordinal to one decimal (0.0 for a newcomer).

        >>> PlayerRating("nxs", "1", 25.0, 25 / 3, 0, 0).rating
        0.0
        """
        return round(self.ordinal, 1) + 0.0  # + 0.0: never "-0.0"

    @property
    def win_rate(self) -> float:
        """Wins per game, 0 to 1 (0 with no game)."""
        return self.wins / self.games if self.games else 0.0


@dataclass
class _Entry:
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0


@dataclass(frozen=True)
class _Verdict:
    """Whether a game counts, and if so who played it (human seats in seat order) and who won."""

    guild_id: str
    game: str
    reason: str | None
    """None when the game counts; else why not."""
    players: tuple[str, ...] = ()
    winners: frozenset[str] = frozenset()
    early: bool = False
    """True for a forfeit at the start: unrated for a reason the players are told."""


@dataclass(frozen=True)
class Settled:
    """What one :meth:`Ratings.settle` did: whether it counted the game, and what to tell its players."""

    counted: bool
    news: str | None = None
    """Why the game just handled is unrated, when its players should hear it (a forfeit at the start)."""


Book = dict[str, _Entry]
"""One (server, game)'s ratings by player id."""


class Ratings:
    """Counts finished games into the ``ratings`` table of a :class:`~host.store.Store` and reads it back."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def record(self, game_id: int) -> bool:
        """Counts one ended game, once; returns True when this call counted it in the ratings.

        False when it was handled already, does not count (then it is marked so, and the
        reason logged at INFO), or has not ended (then nothing is written).
        """
        return (await self.settle(game_id)).counted

    async def settle(self, game_id: int) -> Settled:
        """Counts one ended game, once, as :meth:`record` does; says why this call left it unrated.

        The players are told when a game they finished goes unrated for a reason they may not
        see for themselves (:attr:`Settled.news`): a forfeit at the start.
        """

        async def work(tx: Tx) -> Settled:
            await tx.lock(RATINGS_LOCK)
            if await tx.fetchrow("SELECT 1 FROM rated WHERE game_id = ?", game_id):
                return Settled(False)
            verdict = await _judge(tx, game_id)
            if verdict is None:
                return Settled(False)
            await _mark(tx, game_id, verdict)
            if verdict.reason is not None:
                return Settled(False, verdict.reason if verdict.early else None)
            later = await tx.fetchrow(
                "SELECT 1 FROM rated JOIN games ON games.id = rated.game_id WHERE rated.counted = 1"
                " AND games.id > ? AND COALESCE(games.guild_id, '') = ? AND games.game = ? LIMIT 1",
                game_id, verdict.guild_id, verdict.game,
            )
            if later:  # ended after a game opened later: the order is by id, so recompute
                log.info("game %s ended after a later game was rated: recomputing %s ratings of server %r",
                         game_id, verdict.game, verdict.guild_id)
                await _recompute(tx, verdict.guild_id, verdict.game)
                return Settled(True)
            book = await _load(tx, verdict)
            _update(book, verdict)
            await _save(tx, verdict.guild_id, verdict.game, {p: book[p] for p in verdict.players})
            return Settled(True)

        return await self.store.db.write(work)

    async def rebuild(self, guild_id: str | None = None) -> int:
        """Recomputes the ratings from the games table alone (one server's, or all); returns the games counted.

        Every ended game is judged again, in id order, and its ``rated`` mark rewritten.
        """

        async def work(tx: Tx) -> int:
            await tx.lock(RATINGS_LOCK)
            if guild_id is None:
                await tx.execute("DELETE FROM ratings")
                await tx.execute("DELETE FROM rated")
                ids = await tx.fetch("SELECT id FROM games WHERE status IN (?, ?) ORDER BY id", *ENDED)
            else:
                await tx.execute("DELETE FROM ratings WHERE guild_id = ?", guild_id)
                await tx.execute(
                    "DELETE FROM rated WHERE game_id IN (SELECT id FROM games WHERE COALESCE(guild_id, '') = ?)",
                    guild_id,
                )
                ids = await tx.fetch(
                    "SELECT id FROM games WHERE status IN (?, ?) AND COALESCE(guild_id, '') = ? ORDER BY id",
                    *ENDED, guild_id,
                )
            books: dict[tuple[str, str], Book] = {}
            counted = 0
            for r in ids:
                game_id = int(r["id"])
                verdict = await _judge(tx, game_id)
                if verdict is None:
                    continue
                await _mark(tx, game_id, verdict)
                if verdict.reason is None:
                    _update(books.setdefault((verdict.guild_id, verdict.game), {}), verdict)
                    counted += 1
            for (guild, game), book in books.items():
                await _save(tx, guild, game, book)
            return counted

        counted = await self.store.db.write(work)
        log.info("ratings rebuilt%s: %d games counted", "" if guild_id is None else f" for server {guild_id!r}",
                 counted)
        return counted

    async def sweep(self) -> int:
        """Records every ended game not yet handled (a crash between a game's end and its record); returns
        how many of them counted."""
        rows = await self.store.db.read(
            lambda tx: tx.fetch(
                "SELECT id FROM games WHERE status IN (?, ?) AND id NOT IN (SELECT game_id FROM rated) ORDER BY id",
                *ENDED,
            )
        )
        counted = 0
        for r in rows:
            counted += await self.record(int(r["id"]))
        if rows:
            log.info("ratings: %d ended games were not yet handled; %d of them counted", len(rows), counted)
        return counted

    async def stats(self, guild_id: str | None, player_id: str) -> list[PlayerRating]:
        """Returns a player's ratings in a server, one per game they have a rated game of, by game name."""
        rows = await self.store.db.read(
            lambda tx: tx.fetch(
                "SELECT game, player_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND player_id = ?"
                " ORDER BY game",
                guild_id or "", player_id,
            )
        )
        return [_rating(r) for r in rows]

    async def leaderboard(self, guild_id: str | None, game: str, limit: int = 10) -> list[PlayerRating]:
        """Returns a server's best ``limit`` players of a game: highest rating first (then more games)."""
        rows = await self.store.db.read(
            lambda tx: tx.fetch(
                "SELECT game, player_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ?"
                " ORDER BY mu - 3 * sigma DESC, games DESC, player_id LIMIT ?",
                guild_id or "", game, limit,
            )
        )
        return [_rating(r) for r in rows]

    async def games_rated(self, guild_id: str | None) -> list[str]:
        """Returns the games that have ratings in a server, by name."""
        rows = await self.store.db.read(
            lambda tx: tx.fetch("SELECT DISTINCT game FROM ratings WHERE guild_id = ? ORDER BY game", guild_id or "")
        )
        return [str(r["game"]) for r in rows]


def _rating(r: Row) -> PlayerRating:
    return PlayerRating(str(r["game"]), str(r["player_id"]), float(r["mu"]), float(r["sigma"]), int(r["games"]),
                        int(r["wins"]))


async def _mark(tx: Tx, game_id: int, verdict: _Verdict) -> None:
    """Marks a game handled; a game that does not count says why in the log."""
    await tx.execute("INSERT INTO rated (game_id, counted) VALUES (?, ?)", game_id, int(verdict.reason is None))
    if verdict.reason is not None:
        log.info("game %s (%s) does not count for ratings: %s", game_id, verdict.game, verdict.reason)


async def _judge(tx: Tx, game_id: int) -> _Verdict | None:
    """Decides whether an ended game counts (see the module's rules); None when it has not ended."""
    row = await tx.fetchrow("SELECT guild_id, game, status, winners, snapshot, hinted FROM games WHERE id = ?",
                            game_id)
    if row is None or row["status"] not in ENDED:
        return None
    guild, game = row["guild_id"] or "", str(row["game"])
    if row["status"] == Status.ABORTED.value:
        return _Verdict(guild, game, "it was aborted")
    seats = await tx.fetch("SELECT player_id, name FROM seats WHERE game_id = ? ORDER BY seat", game_id)
    humans = [(str(s["player_id"]), str(s["name"])) for s in seats if is_human(str(s["player_id"]))]
    if len(humans) < MIN_HUMANS:
        return _Verdict(guild, game, f"{len(humans)} human player{'s' if len(humans) != 1 else ''}"
                                     f" (it takes {MIN_HUMANS})")
    if row["hinted"]:
        return _Verdict(guild, game, HINTED)
    winners = _winners(row)
    if winners is None:
        return _Verdict(guild, game, "its result was not recorded")
    moves = effective_moves([_move_row(m) for m in await tx.fetch(
        "SELECT seq, player_id, move, at, interaction_id, origin FROM moves WHERE game_id = ? ORDER BY seq", game_id
    )])
    if not moves:
        return _Verdict(guild, game, "no move was played")
    forfeit = getattr(GAMES.get(game), "FORFEIT_MOVE", None)
    if forfeit and _same_move(moves[-1].move, forfeit):
        played = {m.player_id for m in moves if m.origin is None and not _same_move(m.move, forfeit)}
        idle = [str(s["name"]) for s in seats if s["player_id"] not in played]
        if idle:
            return _Verdict(guild, game, f"a forfeit at the start ({', '.join(idle)} had not made a move)",
                            early=True)
    return _Verdict(guild, game, None, tuple(pid for pid, _ in humans),
                    frozenset(pid for pid, name in humans if name in winners))


def _winners(row: Row) -> set[str] | None:
    """Returns the seat names that won (empty: a draw), or None when unknown.

    A game from before the ``winners`` column is asked its engine's ``winners`` from its final snapshot.
    """
    if row["winners"] is not None:
        try:
            names = json.loads(row["winners"])
        except (ValueError, RecursionError):
            return None
        return {str(n) for n in names} if isinstance(names, list) else None
    cls = GAMES.get(str(row["game"]))
    if cls is None or not row["snapshot"]:
        return None
    try:
        game = cls.from_json(row["snapshot"])
    except Exception:  # a damaged snapshot: the result stays unknown
        return None
    return set(game.winners) if game.is_over else None


def _same_move(move: str, other: str) -> bool:
    return move.lower().split() == other.lower().split()


async def _load(tx: Tx, verdict: _Verdict) -> Book:
    """Reads the stored ratings of a game's players (absent players are not in the book)."""
    marks = ", ".join("?" for _ in verdict.players)
    rows = await tx.fetch(
        f"SELECT player_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ?"
        f" AND player_id IN ({marks})",
        verdict.guild_id, verdict.game, *verdict.players,
    )
    return {str(r["player_id"]): _Entry(float(r["mu"]), float(r["sigma"]), int(r["games"]), int(r["wins"]))
            for r in rows}


def _update(book: Book, verdict: _Verdict) -> None:
    """Applies one counted game to a book: one Plackett–Luce update, games and wins."""
    entries = []
    for pid in verdict.players:
        if pid not in book:
            fresh = MODEL.rating()
            book[pid] = _Entry(fresh.mu, fresh.sigma)
        entries.append(book[pid])
    ranks = [1.0 if not verdict.winners or pid in verdict.winners else 2.0 for pid in verdict.players]
    teams = [[MODEL.rating(mu=e.mu, sigma=e.sigma)] for e in entries]
    rated = MODEL.rate(teams, ranks=ranks)
    for pid, entry, (new,) in zip(verdict.players, entries, rated, strict=True):
        entry.mu, entry.sigma = new.mu, new.sigma
        entry.games += 1
        entry.wins += pid in verdict.winners


async def _save(tx: Tx, guild_id: str, game: str, book: Book) -> None:
    await tx.executemany(
        "INSERT INTO ratings (guild_id, game, player_id, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, game, player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " games = excluded.games, wins = excluded.wins",
        [(guild_id, game, pid, e.mu, e.sigma, e.games, e.wins) for pid, e in book.items()],
    )


async def _recompute(tx: Tx, guild_id: str, game: str) -> None:
    """Rewrites one (server, game)'s ratings from its counted games, in id order."""
    ids = await tx.fetch(
        "SELECT games.id FROM games JOIN rated ON rated.game_id = games.id WHERE rated.counted = 1"
        " AND COALESCE(games.guild_id, '') = ? AND games.game = ? ORDER BY games.id",
        guild_id, game,
    )
    book: Book = {}
    for r in ids:
        verdict = await _judge(tx, int(r["id"]))
        if verdict is not None and verdict.reason is None:
            _update(book, verdict)
    await tx.execute("DELETE FROM ratings WHERE guild_id = ? AND game = ?", guild_id, game)
    await _save(tx, guild_id, game, book)
