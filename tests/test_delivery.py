"""Pure helpers of the Discord delivery: message splitting, pings, hand formatting, options."""

from __future__ import annotations

import pytest

from cogs.delivery import LIMIT, chunks, format_secret, mention_line
from engines import GameError
from host.options import parse_options


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
