"""Nexohominis in an evening: two scripted players, eight rounds on crossroads, through the fake Discord.

The players give orders as people would with the tools a table has: ``/nexo first``, one
``harvest all`` for the Worker Phase (it stands: each worker that can harvest does, turn by
turn), a chain typed in ``/game play`` for each unit worth activating ("move a4 toward b2;
shoot a4 b2; done a4"), ``done all`` for the rest, and the Production Phase in one
``/nexo orders`` form. What to order is read off the board (the game as the channel shows it):
the attacks the engine offers, the "toward" forms the suggestions offer, and for production
the normal bot's choices. Every command, click and form sent is counted, per player per round.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from engines.core import GameError
from engines.nexo import ai, legal
from engines.nexo.game import Nexo
from engines.nexo.state import SEATS, Model
from host.store import Store
from host.tables import Table, Tables
from tests.discord.tablehost.conftest import SEED, SIGNING_KEY
from tests.fakediscord.api import DiscordTest

NAMES = {"Ann": "ann", "Bob": "bob"}
ROUNDS = 8
"""The round limit of the play-test: the game is scored after round 8's Production Phase."""
LATE = (6, 7, 8)
"""The rounds whose commands are held to :data:`MOST_COMMANDS`."""
MOST_COMMANDS = 15
"""Issue 25's bound: commands or clicks a player needs in a late round (46 orders a round before)."""
ACTIVATIONS = 5
"""Units a scripted player activates by hand in an Action Phase; ``done all`` ends the others."""
WORKER_ORDERS = 4
"""Worker orders a scripted player gives by hand in a Worker Phase besides ``harvest all``."""
PRODUCTION_ORDERS = 4
"""Orders a scripted player gives in a Production Phase before ``end`` (one form of five lines)."""


@pytest.fixture
async def tables(db_file: str, tally_registered: type) -> AsyncIterator[Tables]:
    """The table service without debug replays (eight rounds of log would be replayed at every load)."""
    store = await Store.open(db_file)
    await store.db.write(lambda tx: tx.execute("INSERT INTO signing_key (id, private) VALUES (1, ?)", SIGNING_KEY))
    yield Tables(store, seeds=lambda: SEED, join_ids=False)
    await store.close()


@dataclass
class Tally:
    """What the play-test counts: interactions per (player, round), harvests and their chances."""

    sent: Counter[tuple[str, int]] = field(default_factory=Counter)
    harvests: Counter[tuple[str, int]] = field(default_factory=Counter)
    could_harvest: set[tuple[str, int]] = field(default_factory=set)
    orders: Counter[tuple[str, int]] = field(default_factory=Counter)
    """Orders the engine played per (player, round): each of a chain, each played by a standing order."""


def _try(game: Nexo, player: str, orders: list[str]) -> Nexo | None:
    """Returns a copy of ``game`` with ``orders`` played as one chain, or None if the chain is refused."""
    trial = copy.deepcopy(game)
    try:
        trial.play(player, "; ".join(orders))
    except GameError:
        return None
    return trial if trial.dump_state() != game.dump_state() else None


def _attacks(game: Nexo, player: str, pid: str) -> list[str]:
    """Returns the attacks ``pid`` may make now on enemy pieces, weakest target first."""
    w = game.world()
    mine = w.piece(pid).owner
    found = []
    for move in game.legal_moves(player):
        words = move.split()
        if words[0] in ("shoot", "fight") and words[1] == pid and len(words) >= 3:
            target = w.piece(words[2])
            if target.owner != mine:
                found.append((target.hp, words[2], move))
    return [m for _, _, m in sorted(found)]


def _activation(game: Nexo, player: str, pid: str) -> list[str] | None:
    """Returns a whole activation for ``pid`` (attack; or move toward an enemy, then attack), ending in done."""
    seat = SEATS[game.players.index(player)]
    plans: list[list[str]] = []
    if attacks := _attacks(game, player, pid):
        plans.append([attacks[0]])
    for _, order in legal.toward_forms(game.world(), seat, pid):
        if order.split()[0] == "move" and order.split()[2] == "toward":
            plans.append([order])
            break
    for plan in plans:
        trial = _try(game, player, plan)
        if trial is None:
            continue
        more = _attacks(trial, player, pid) if plan[0].startswith("move") and trial.state.active == pid else []
        if more and (shot := _try(trial, player, [more[0]])) is not None:
            plan, trial = [*plan, more[0]], shot
        if trial.state.active == pid:
            plan = [*plan, f"done {pid}"]
        return plan
    return None


def _worker(game: Nexo, player: str, given: int, rng: random.Random) -> list[str]:
    """Returns the scripted player's next Worker Phase order: ``harvest all`` first when a worker can
    harvest, then the normal bot's order for a worker that cannot (build, repair, walk toward a depot)
    as one chain, then ``done all``."""
    legal_now = game.legal_moves(player)
    if not given and "harvest all" in legal_now:
        return ["harvest all"]
    if given >= WORKER_ORDERS:
        return ["done all"]
    order = ai.choose(game.view(player), legal_now, player, "normal", rng)
    if order.startswith(("done", "pass")) or order == "harvest all":
        return ["done all"]
    plan = [order]
    trial = _try(game, player, plan)
    if trial is None:
        return ["done all"]
    if trial.state.active is not None and trial.to_act() == [player]:
        plan.append(f"done {trial.state.active}")
    return plan


def _action(game: Nexo, player: str, done_by_hand: int) -> list[str]:
    """Returns the scripted player's next Action Phase activation as a chain, or ``["done all"]``."""
    if done_by_hand >= ACTIVATIONS:
        return ["done all"]
    w = game.world()
    seat = SEATS[game.players.index(player)]
    foes = [m for m in w.state.models.values() if m.owner != seat]
    pieces = w.eligible(seat, "action")

    def urgency(p: object) -> tuple[int, float, str]:
        armed = bool(_attacks(game, player, p.id))  # type: ignore[attr-defined]
        near = min((abs(f.x - p.x) + abs(f.y - p.y) for f in foes), default=99.0)  # type: ignore[attr-defined]
        return (0 if armed else 1, near, p.id)  # type: ignore[attr-defined]

    for piece in sorted(pieces, key=urgency):
        plan = _activation(game, player, piece.id)
        if plan is not None:
            return plan
    return ["done all"]


def _production(game: Nexo, player: str, rng: random.Random) -> list[str]:
    """Returns up to five Production Phase lines chosen by the normal bot, the last one ``end``."""
    trial = copy.deepcopy(game)
    lines: list[str] = []
    while len(lines) < PRODUCTION_ORDERS:
        order = ai.choose(trial.view(player), trial.legal_moves(player), player, "normal", rng)
        if order == "end":
            break
        trial.play(player, order)
        lines.append(order)
    return [*lines, "end"]


def _harvest_chances(game: Nexo, round_: int, tally: Tally) -> None:
    """Notes, at the Worker Phase's start, each player who has a worker able to reach a depot with room."""
    w = game.world()
    for seat, name in zip(SEATS, game.players, strict=True):
        if any(legal.harvest_plan(w, m) for m in w.eligible(seat, "worker") if isinstance(m, Model)):
            tally.could_harvest.add((name, round_))


async def _answer(dt: DiscordTest, user: str, record_content: str) -> str:
    """Says yes when the bot asks first (a scrap); returns the final answer."""
    if not record_content.endswith("Play it?"):
        return record_content
    question = next(m for m in reversed(dt.ephemerals(user)) if m.content == record_content)
    await dt.click(question, "Yes, play it", user=user)
    return dt.ephemerals(user)[-1].content


async def _turn(dt: DiscordTest, table: Table, tally: Tally, rng: random.Random, hand: Counter[tuple[str, str]]
                ) -> None:
    """Plays the acting player's next command, counted, and checks it was played."""
    game = table.game
    assert isinstance(game, Nexo)
    player = game.to_act()[0]
    user, view = NAMES[player], game.view(None)
    round_, phase = int(view["round"]), str(view["phase"])
    key = (player, f"{round_} {phase}")
    if phase == "initiative":
        record, sent = await dt.slash("nexo", "first", user=user, who="me"), 1
    elif phase == "worker":
        chain = _worker(game, player, hand[key], rng)
        if chain == ["harvest all"]:
            record = await dt.slash("nexo", "harvest", user=user, worker="all")
        elif chain == ["done all"]:
            record = await dt.slash("nexo", "done", user=user, unit="all")
        else:
            record = await dt.slash("game", "play", user=user, move="; ".join(chain))
        sent = 1
        hand[key] += 1
    elif phase == "action":
        chain = _action(game, player, hand[key])
        if chain == ["done all"]:
            record, sent = await dt.slash("nexo", "done", user=user, unit="all"), 1
        else:
            record, sent = await dt.slash("game", "play", user=user, move="; ".join(chain)), 1
        hand[key] += 1
    else:
        lines = _production(game, player, rng)
        opened = await dt.slash("nexo", "orders", user=user)
        record = await dt.submit_modal(opened, {f"Order {k}": line for k, line in enumerate(lines, start=1)})
        sent = 2  # the command that opens the form, and its Submit
    tally.sent[(player, round_)] += sent
    answer = await _answer(dt, user, record.content)
    assert answer.startswith(("Played `", "Playing `")), f"round {round_} {phase}, {player}: {answer}"


async def test_eight_rounds_on_crossroads_need_at_most_15_commands_a_player_in_the_late_rounds(
    discord_test: DiscordTest, tables: Tables
) -> None:
    dt = discord_test
    dt.settle = 0.02  # each answer is read from the table service, not from messages still on their way
    await dt.slash("nexo", "new", user="ann", battlefield="crossroads", round_limit=ROUNDS)
    await dt.slash("game", "join", user="bob")
    await dt.slash("game", "start", user="ann")
    channel = str(dt.channel("general").id)
    tally, rng, hand = Tally(), random.Random(25), Counter[tuple[str, str]]()
    seen_worker_phase: set[int] = set()
    logged = 0
    by_id = {str(dt.user(user).id): name for name, user in NAMES.items()}
    while True:
        table = await tables.table(channel)
        game = table.game
        assert isinstance(game, Nexo)
        if game.is_over:
            break
        view = game.view(None)
        round_ = int(view["round"])
        if view["phase"] == "worker" and round_ not in seen_worker_phase:
            seen_worker_phase.add(round_)
            _harvest_chances(game, round_, tally)
        await _turn(dt, table, tally, rng, hand)
        for row in (await tables.store.moves(table.row.id))[logged:]:
            logged += 1
            tally.orders[(by_id[row.player_id], round_)] += len(row.move.split(";"))
            for e in json.loads(row.events or "[]"):
                if e.get("kind") == "harvest":
                    tally.harvests[(game.players["ab".index(e["unit"][0])], round_)] += 1
                if e.get("kind") == "standing":
                    tally.orders[(e["player"], round_)] += len(e["orders"])
    game = (await tables.table(channel)).game
    assert isinstance(game, Nexo)
    assert game.view(None)["result"] == "round_limit" and game.view(None)["round"] == ROUNDS
    counts = {r: {p: (tally.sent[(p, r)], tally.orders[(p, r)]) for p in NAMES} for r in range(1, ROUNDS + 1)}
    print("round: {player: (commands sent, orders played)}", counts)
    assert all(counts[r][p][0] <= MOST_COMMANDS for r in LATE for p in NAMES), counts
    assert all(counts[r][p][1] > counts[r][p][0] for r in LATE for p in NAMES), counts  # batching saved commands
    assert tally.could_harvest and all(tally.harvests[chance] for chance in tally.could_harvest), (
        sorted(tally.could_harvest), dict(tally.harvests))
