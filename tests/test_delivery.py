"""Pure helpers of the Discord delivery: message splitting, pings, hand formatting, options."""

from __future__ import annotations

import pytest

from cogs.buttons import default_quick_moves
from cogs.delivery import mention_line, nonce
from cogs.hands import format_secret
from cogs.replies import LIMIT, chunks
from engines import GameError
from host.options import parse_options
from host.outbox import Outbox
from host.tables import Table


def test_long_posts_are_split_at_line_ends_under_the_limit() -> None:
    text = "\n".join(f"line {n} " + "x" * 50 for n in range(100))
    pieces = chunks(text)
    assert len(pieces) > 1 and all(len(p) <= LIMIT for p in pieces)
    assert "\n".join(pieces) == text


def test_a_single_overlong_line_is_cut() -> None:
    assert [len(p) for p in chunks("y" * (LIMIT * 2 + 5))] == [LIMIT, LIMIT, 5]


def test_mention_line_pings_each_user() -> None:
    assert mention_line(["1"]) == "<@1> — your move."
    assert mention_line(["1", "2"]) == "<@1> <@2> — your moves."


def test_secret_is_written_field_by_field() -> None:
    assert format_secret("tally", {"hand": ["AS", "10H"], "secret": 4}) == "**Hand:** AS, 10H\n**Secret:** 4"


def test_bad_option_text_is_refused() -> None:
    with pytest.raises(GameError, match="name=value"):
        parse_options("target")


def _table(game: str, players: list[str], seed: int) -> Table:
    from datetime import UTC, datetime

    from engines import GAMES
    from host.store import GameRow, Seat, Status

    stamp = datetime.now(UTC).isoformat()
    row = GameRow(1, "1", "9", game, Status.RUNNING, "u0", {}, seed, None, 0, None, stamp, stamp)
    seats = [Seat(n, f"u{n}", name) for n, name in enumerate(players)]
    return Table(row, seats, GAMES[game].new(players, seed, {}))


def test_default_quick_moves_never_show_a_move_of_a_game_with_secrets() -> None:
    table = _table("xisk", ["ann", "bob"], 3)
    assert table.game is not None and table.game.HAS_SECRETS
    assert default_quick_moves(table, "ann") == []
    open_game = _table("nxs", ["ann", "bob"], 3)  # no secrets: its few legal moves may be buttons
    assert open_game.game is not None and not open_game.game.HAS_SECRETS
    legal = [m for m in open_game.game.legal_moves("ann") if m not in {"resign", "concede"}]
    assert default_quick_moves(open_game, "ann") == ([(m.capitalize(), m) for m in legal] if len(legal) <= 5 else [])


def test_each_message_of_an_announcement_has_its_own_nonce_within_discords_25_characters() -> None:
    out = Outbox(game_id=1, game="xisk", channel_id="9", id=2**40)
    parts = [nonce(out, p) for p in ("c0", "c1", "d0.0", "d12.3", "n0")]
    assert len(set(parts)) == 5 and all(p is not None and len(p) <= 25 for p in parts)
    assert nonce(Outbox(game_id=1, game="xisk", channel_id="9"), "c0") is None  # never stored: no nonce


def test_no_quick_button_gives_up_and_only_giving_up_is_asked_first() -> None:
    from cogs.buttons import confirmation, gives_up

    assert gives_up("scrap b1") and gives_up("concede") and not gives_up("end")
    table = _table("nxs", ["ann", "bob"], 3)
    assert all(not gives_up(m) for _, m in default_quick_moves(table, "ann"))
    assert confirmation("resign") == "`resign` cannot be taken back. Play it?"
    assert confirmation("move f4 f5") is None
    assert confirmation("end") is None and confirmation("pass") is None  # what an end skips is optional
