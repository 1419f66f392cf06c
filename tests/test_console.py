"""The console table drives host/ like the cogs do: moves, refusals, scripts, pictures."""

from __future__ import annotations

import io
from pathlib import Path

import console


def run(tmp_path: Path, script: str, *extra: str) -> tuple[int, str]:
    path = tmp_path / "moves.txt"
    path.write_text(script)
    out = io.StringIO()
    code = console.main(
        ["tally", "--players", "ann,bob", "--seed", "4", "--script", str(path), "--pictures", str(tmp_path / "pics"),
         *extra],
        out,
    )
    return code, out.getvalue()


def test_a_script_plays_to_the_end(tmp_path: Path, tally_registered) -> None:
    code, text = run(tmp_path, "ann: add 3\nbob: add 3\n# a comment\n\nann: add 3\n", "--options", "target=9")
    assert code == 0
    assert "ann wins!" in text and "Game over. Winners: ann." in text


def test_a_script_stops_at_the_first_rejected_line(tmp_path: Path, tally_registered) -> None:
    code, text = run(tmp_path, "ann: add 1\nann: add 1\nbob: add 1\n")
    assert code == 1
    assert "line 2: 'ann: add 1' rejected: It is not your turn, ann" in text
    assert "bob adds" not in text


def test_bare_moves_legal_hand_and_board(tmp_path: Path, tally_registered) -> None:
    code, text = run(tmp_path, "add 2\nlegal\nhand ann\nboard\nlog\n")
    assert code == 0
    assert "add 1\nadd 2\nadd 3\nroll" in text
    assert "secret:" in text
    pictures = list((tmp_path / "pics").glob("*.png"))
    assert len(pictures) == 1 and pictures[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "   1 ann: add 2" in text


def test_junk_lines_are_refused_with_a_message(tmp_path: Path, tally_registered) -> None:
    code, text = run(tmp_path, "zzz: add 1\n")
    assert code == 1 and "no player called 'zzz'" in text
    code, text = run(tmp_path, "ann: \x00\xff garbage\n")
    assert code == 1 and "I can't read" in text


def test_an_unknown_game_exits_2(tmp_path: Path) -> None:
    out = io.StringIO()
    assert console.main(["chess", "--players", "a,b"], out) == 2
    assert "no game called 'chess'" in out.getvalue()


def test_hand_and_legal_find_a_player_whose_seat_name_differs(tmp_path: Path, tally_registered) -> None:
    path = tmp_path / "moves.txt"
    path.write_text("ann: add 1\nlegal Ann\nhand Ann\nadd 2\n")
    out = io.StringIO()
    code = console.main(["tally", "--players", "ann,Ann", "--seed", "4", "--script", str(path)], out)
    text = out.getvalue()
    assert code == 0 and "Ann has no legal move" not in text and "add 3" in text
    assert "Nothing hidden." not in text and "secret: " in text
    assert "Ann (2) adds 2: the total is 3." in text  # a bare move by the player to act
