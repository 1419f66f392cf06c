"""The rules summaries in data/rules/ fit Discord: 2–5 pages of at most 1,800 characters, titled."""

from __future__ import annotations

from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[1] / "data" / "rules"
GAMES = ["xisk", "nxs", "nexo"]
PAGE_LIMIT = 1800


def _pages(game: str) -> list[str]:
    return (RULES / f"{game}.md").read_text(encoding="utf-8").split("\n---\n")


@pytest.mark.parametrize("game", GAMES)
def test_rules_file_exists(game: str) -> None:
    assert (RULES / f"{game}.md").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_rules_have_two_to_five_pages(game: str) -> None:
    assert 2 <= len(_pages(game)) <= 5


@pytest.mark.parametrize("game", GAMES)
def test_every_page_fits_a_message_and_is_not_empty(game: str) -> None:
    for n, page in enumerate(_pages(game), 1):
        assert page.strip(), f"{game}: page {n} is empty"
        assert len(page) <= PAGE_LIMIT, f"{game}: page {n} has {len(page)} characters"


@pytest.mark.parametrize("game", GAMES)
def test_first_page_starts_with_a_title(game: str) -> None:
    assert _pages(game)[0].startswith("# ")
