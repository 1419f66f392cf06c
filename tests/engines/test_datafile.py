"""Data files: every failure to read one names the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.core.datafile import read_json


class DataProblem(ValueError):
    pass


def test_a_good_file_is_parsed(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    path.write_text('{"a": [1, 2]}', encoding="utf-8")
    assert read_json(path, DataProblem) == {"a": [1, 2]}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"a": }', r"^bad\.json: line 1: not valid JSON"),
        (b"\xff\xfe junk", r"^bad\.json: not UTF-8 text"),
    ],
)
def test_a_broken_file_is_named(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(DataProblem, match=message):
        read_json(path, DataProblem)


def test_a_missing_file_is_named_with_its_label(tmp_path: Path) -> None:
    with pytest.raises(DataProblem, match=r"^maps/gone\.json: the file is missing$"):
        read_json(tmp_path / "gone.json", DataProblem, label="maps/gone.json")
