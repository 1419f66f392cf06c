"""The replay GIF: one frame per turn, captioned, looping, under the upload limit, turns skipped to fit.

The long game is XISK with three players and 300 turns of seeded random legal moves (random
play never ends a XISK game that soon: see ``tests.host.test_replay_frames.random_game``).
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from host.replay import Frame, turn_views
from render.replay import (
    BAR,
    DURATION,
    LAST_DURATION,
    LIMIT,
    WIDTH,
    TooLarge,
    animate,
    animation,
    caption_bar,
    picture,
    shrink,
)
from tests.host.test_replay_frames import XISK_SEATS, random_game


@pytest.fixture(scope="module")
def long_xisk() -> list[Frame]:
    """The 301 frames (start and 300 turns) of a long XISK game."""
    log, _ = random_game("xisk", XISK_SEATS, 7, turns=300)
    frames = turn_views("xisk", XISK_SEATS, 7, {}, log)
    assert len(frames) == 301
    return frames


@pytest.fixture(scope="module")
def long_gif(long_xisk: list[Frame]) -> tuple[bytes, list[tuple[int, int]]]:
    calls: list[tuple[int, int]] = []
    gif = animate("xisk", long_xisk, progress=lambda done, total: calls.append((done, total)))
    return gif, calls


def frames_of(gif: bytes) -> Any:
    """Returns the decoded GIF (a GifImageFile: n_frames, seek) after checking that it is animated."""
    im: Any = Image.open(io.BytesIO(gif))
    assert im.format == "GIF" and im.is_animated
    return im


def test_a_300_turn_xisk_game_has_one_frame_per_turn_and_fits_in_8_mb(long_gif: tuple[bytes, list]) -> None:
    gif, _ = long_gif
    assert len(gif) <= LIMIT == 8_000_000
    im = frames_of(gif)
    assert im.n_frames == 301 and im.size[0] == WIDTH
    assert im.info["loop"] == 0


def test_each_frame_shows_for_700_ms_and_the_last_for_3_s(long_gif: tuple[bytes, list]) -> None:
    im = frames_of(long_gif[0])
    durations = []
    for n in range(im.n_frames):
        im.seek(n)
        durations.append(im.info["duration"])
    assert durations == [DURATION] * 300 + [LAST_DURATION]


def test_progress_is_called_for_each_frame_drawn(long_gif: tuple[bytes, list]) -> None:
    _, calls = long_gif
    assert calls == [(n, 301) for n in range(1, 302)]


def test_a_frame_is_its_position_under_its_caption(long_xisk: list[Frame], long_gif: tuple[bytes, list]) -> None:
    """Frames are written as changes over the previous one: the decoded frame is still the whole picture."""
    gif, _ = long_gif
    im = frames_of(gif)
    for n in (0, 1, 150, 300):
        im.seek(n)
        shown = im.convert("RGB")
        expected = shrink(picture("xisk", long_xisk[n].view))
        body = shown.crop((0, BAR, shown.width, shown.height))
        assert body.size == expected.size
        diff = ImageChops.difference(body, expected).convert("L")
        assert sum(diff.histogram()[48:]) < 0.01 * body.width * body.height, n  # the same picture, near colours
        bar = ImageChops.difference(shown.crop((0, 0, shown.width, BAR)), caption_bar(long_xisk[n].caption))
        assert sum(bar.convert("L").histogram()[48:]) < 0.01 * shown.width * BAR, n
    captions = [caption_bar(f.caption) for f in long_xisk[:2]]
    assert ImageChops.difference(*captions).getbbox() is not None  # "Start" and "Turn 1 · Ann" differ


def test_over_the_limit_turns_are_skipped_evenly_keeping_the_first_and_last(long_xisk: list[Frame]) -> None:
    calls: list[tuple[int, int]] = []
    result = animation("xisk", long_xisk, limit=900_000, progress=lambda d, t: calls.append((d, t)))
    assert len(result.gif) <= 900_000 and result.step >= 2
    assert result.kept[0] == 0 and result.kept[-1] == 300
    assert result.kept == sorted({*range(0, 301, result.step), 300})
    im = frames_of(result.gif)
    assert im.n_frames == len(result.kept)
    im.seek(im.n_frames - 1)
    body = im.convert("RGB").crop((0, BAR, WIDTH, im.height))
    last = shrink(picture("xisk", long_xisk[-1].view))
    assert sum(ImageChops.difference(body, last).convert("L").histogram()[48:]) < 0.01 * WIDTH * body.height
    done = [d for d, _ in calls]
    assert done == sorted(done) and calls[-1] == (301, 301)  # never going back, and ending complete


def test_a_skipping_replay_says_so_on_its_captions(long_xisk: list[Frame]) -> None:
    result = animation("xisk", long_xisk[:40], limit=200_000)
    assert result.step >= 2
    im = frames_of(result.gif)
    im.seek(1)
    noted = im.convert("RGB").crop((WIDTH // 2, 0, WIDTH, BAR))
    plain = frames_of(animate("xisk", long_xisk[:3]))
    plain.seek(1)
    # the right half of the bar holds "every Nth turn" only when turns are skipped
    assert ImageChops.difference(noted, plain.convert("RGB").crop((WIDTH // 2, 0, WIDTH, BAR))).getbbox()


def test_too_large_even_for_two_frames(long_xisk: list[Frame]) -> None:
    with pytest.raises(TooLarge):
        animate("xisk", long_xisk[:5], limit=20_000)


def test_nxs_nexohominis_and_a_game_without_a_renderer(tally_registered: type) -> None:
    for game, seats in (("nxs", ["Ann", "Bob"]), ("nexo", ["Ann", "Bob"])):
        log, _ = random_game(game, seats, 3, turns=6)
        frames = turn_views(game, seats, 3, {}, log)
        im = frames_of(animate(game, frames))
        assert im.n_frames == len(frames) == 7 and abs(im.width - WIDTH) <= WIDTH // 10
    frames = turn_views("tally", ["ann", "bob"], 1, {}, [("ann", "add 1"), ("bob", "add 2")])
    assert frames_of(animate("tally", frames)).n_frames == 3  # drawn by render.generic


def test_one_frame_is_a_still_gif_and_none_is_an_error() -> None:
    frames = turn_views("nxs", ["Ann", "Bob"], 1, {}, [])
    im = Image.open(io.BytesIO(animate("nxs", frames)))
    assert im.format == "GIF" and getattr(im, "n_frames", 1) == 1
    with pytest.raises(ValueError):
        animate("nxs", [])
