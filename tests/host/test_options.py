"""Options typed as text: every input is a value or a GameError, never a crash."""

from __future__ import annotations

import pytest

from engines import GameError
from host.options import parse_options, parse_value


@pytest.mark.parametrize("text", ["--5", "-", "²", "5²", "-²", "٣x"])
def test_junk_that_looks_numeric_is_read_as_text(text: str) -> None:
    assert parse_value(text) == text


def test_numbers_are_read_as_numbers() -> None:
    assert parse_options("target=15 handicap=-3") == {"target": 15, "handicap": -3}


def test_a_word_without_a_value_is_refused() -> None:
    with pytest.raises(GameError, match="can't read the option 'target'"):
        parse_options("target")
