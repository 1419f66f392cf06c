"""The console table drives host/ like the cogs do: moves, refusals, scripts, pictures."""

from __future__ import annotations

import io
import re
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
    assert "ann wins!" in text and "Game over: ann wins!" in text


def test_a_finished_game_says_game_over_once_after_the_winning_move(tmp_path: Path, tally_registered) -> None:
    code, text = run(tmp_path, "ann: add 3\nbob: add 3\nann: add 3\n", "--options", "target=9")
    lines = text.splitlines()
    assert code == 0 and text.count("Game over") == 1
    winning = next(i for i, line in enumerate(lines) if line.startswith("ann adds 3: the total is 9"))
    assert lines.index("Game over: ann wins!") > winning


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


def _xisk(tmp_path: Path, script: str) -> tuple[int, str]:
    path = tmp_path / "moves.txt"
    path.write_text(script)
    out = io.StringIO()
    code = console.main(["xisk", "--players", "ann,bob", "--seed", "3", "--script", str(path)], out)
    return code, out.getvalue()


def test_a_xisk_hand_is_shown_by_suit_with_a_few_example_sets(tmp_path: Path) -> None:
    code, text = _xisk(tmp_path, "hand ann\n")
    assert code == 0
    assert "21 cards: ♠ A J 10 9 7 6 · ♥ A J 10 8 7 6 4 · ♦ Q 2 · ♣ A 10 8 6 4 2" in text
    assert "567 possible sets, e.g. AS JS 10S; AS JS 9S; AS JS 7S" in text
    assert "[" not in text and "redeem" not in text


def test_hand_with_no_name_shows_the_hand_of_the_player_to_act(tmp_path: Path) -> None:
    _, named = _xisk(tmp_path, "hand ann\n")
    _, bare = _xisk(tmp_path, "hand\n")
    sealed = re.compile(r"SHA-256 [0-9a-f]{64}")  # each run seals its seed with a fresh salt
    assert "To act: ann" in bare and sealed.sub("", bare) == sealed.sub("", named)


def test_private_notes_say_what_they_are(tmp_path: Path) -> None:
    code, text = _xisk(tmp_path, "claim great britain\n")
    assert code == 0 and "field(s)" not in text and "message(s)" not in text
    assert "(ann has a new hand: type 'hand ann')" in text and "(bob has a new hand: type 'hand bob')" in text
    assert "ann reveals" in text and "claims Great Britain." in text


def test_the_console_plays_nexohominis_in_its_notation(tmp_path: Path) -> None:
    """Seed 4 gives ann the Initiative; positions as a grid cell, x,y and a toward form, as on Discord."""
    script = "first me\nmove a1 I7\nbob: move b1 toward K2\nann: move a2 26,12\nlegal\nlog\n"
    out = io.StringIO()
    code = console.main(["nexo", "--players", "ann,bob", "--seed", "4", "--script", str(_script(tmp_path, script)),
                         "--pictures", str(tmp_path / "pics")], out)
    text = out.getvalue()
    assert code == 0, text
    assert "a1 moves 3.0\" to (17, 13)." in text and "ann chooses ann to activate first" in text
    log = text[text.index("   1 ann: first me"):]
    assert "   2 ann: move a1 17,13" in log and "   4 ann: move a2 26,12" in log
    assert "bob: move b1 toward" not in log and "   3 bob: move b1 " in log  # logged where it ended
    code, text = _run_nexo(tmp_path, "first me\nmove a1 Z99\n")
    assert code == 1 and "line 2: 'move a1 Z99' rejected: I can't read the position 'z99'" in text


def _script(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "nexo.txt"
    path.write_text(text)
    return path


def _run_nexo(tmp_path: Path, script: str) -> tuple[int, str]:
    out = io.StringIO()
    code = console.main(["nexo", "--players", "ann,bob", "--seed", "4", "--script", str(_script(tmp_path, script)),
                         "--pictures", str(tmp_path / "pics")], out)
    return code, out.getvalue()


def test_help_says_how_the_game_s_moves_are_written(tmp_path: Path) -> None:
    path = tmp_path / "moves.txt"
    path.write_text("help\n")
    out = io.StringIO()
    assert console.main(["xisk", "--players", "ann,bob", "--seed", "4", "--script", str(path)], out) == 0
    assert "Moves: `claim <country>`, `redeem <card> <card> <card>`" in out.getvalue()
