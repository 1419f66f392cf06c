"""Log records as JSON lines (LOG_FORMAT=json) or text lines, each naming its process, shards and game."""

from __future__ import annotations

import io
import json
import logging
import os
import socket
from collections.abc import Iterator
from datetime import datetime

import pytest

from host.config import Config
from host.logs import Context, JsonFormatter, TextFormatter, configure, game_context

FIELDS = {"time", "level", "logger", "message", "process", "shards", "game"}
Written = tuple[logging.Logger, io.StringIO, logging.Handler]
"""A logger, the string its records are written to, and the handler writing them."""


@pytest.fixture
def written() -> Iterator[Written]:
    """A logger of its own whose records go, through a stamping handler, to a string (no propagation)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(Context(process="vm1:4242", shards=(0, 1)))
    logger = logging.getLogger("tests.host.logs")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield logger, stream, handler
    logger.removeHandler(handler)
    logger.propagate = True


def objects(stream: io.StringIO) -> list[dict[str, object]]:
    """Returns each line written as the JSON object it must be."""
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_each_json_record_is_one_object_on_one_line_with_every_field(written: Written) -> None:
    logger, stream, handler = written
    handler.setFormatter(JsonFormatter())
    logger.info("ready as %s in %d servers", "Tablehost#0001", 3)
    logger.warning("two\nlines and a \u2028 separator")
    first, second = objects(stream)
    assert set(first) == FIELDS
    assert first["message"] == "ready as Tablehost#0001 in 3 servers"
    assert (first["level"], first["logger"], first["process"], first["shards"], first["game"]) == (
        "INFO", "tests.host.logs", "vm1:4242", [0, 1], None)
    assert datetime.fromisoformat(str(first["time"])).utcoffset() is not None  # ISO 8601, with its zone
    assert second["message"] == "two\nlines and a \u2028 separator"  # kept, escaped within its one line
    assert len(stream.getvalue().splitlines()) == 2


def test_a_game_passed_in_extra_is_carried(written: Written) -> None:
    logger, stream, handler = written
    handler.setFormatter(JsonFormatter())
    logger.info("game %s started", 12, extra={"game": 12})
    logger.info("no game")
    assert [o["game"] for o in objects(stream)] == [12, None]


def test_a_game_context_marks_every_record_inside_it_and_extra_wins(written: Written) -> None:
    logger, stream, handler = written
    handler.setFormatter(JsonFormatter())
    with game_context(7):
        logger.info("inside")
        logger.info("another game's", extra={"game": 8})
    logger.info("after")
    assert [o["game"] for o in objects(stream)] == [7, 8, None]


def test_an_exception_is_one_exc_field_holding_the_traceback(written: Written) -> None:
    logger, stream, handler = written
    handler.setFormatter(JsonFormatter())
    try:
        raise KeyError("lost seat")
    except KeyError:
        logger.exception("the move failed")
    logger.info("and then")
    failed, after = objects(stream)
    assert failed["message"] == "the move failed" and failed["level"] == "ERROR"
    assert str(failed["exc"]).startswith("Traceback (most recent call last):")
    assert "KeyError: 'lost seat'" in str(failed["exc"])
    assert "exc" not in after


def test_an_unsharded_process_has_null_shards() -> None:
    record = logging.LogRecord("host", logging.INFO, __file__, 1, "hello", None, None)
    Context(process="vm1:1").filter(record)
    assert json.loads(JsonFormatter().format(record))["shards"] is None
    assert TextFormatter().format(record).endswith(" INFO [vm1:1] host: hello")


def test_the_text_line_names_process_shards_and_game(written: Written) -> None:
    logger, stream, handler = written
    handler.setFormatter(TextFormatter())
    logger.info("game %s started", 12, extra={"game": 12})
    logger.warning("no game")
    first, second = stream.getvalue().splitlines()
    assert first.endswith(" INFO [vm1:4242 shards 0,1 game 12] tests.host.logs: game 12 started")
    assert second.endswith(" WARNING [vm1:4242 shards 0,1] tests.host.logs: no game")


def test_the_process_is_named_host_and_pid_by_default() -> None:
    assert Context().process == f"{socket.gethostname()}:{os.getpid()}"


def test_configure_leaves_a_handler_already_installed_alone() -> None:
    root = logging.getLogger()
    assert root.handlers  # pytest's own capture
    before, level = list(root.handlers), root.level
    assert configure(level="DEBUG", json_lines=True) is None
    assert root.handlers == before and root.level == level


def test_configure_installs_one_json_handler_on_a_bare_root(monkeypatch: pytest.MonkeyPatch) -> None:
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])
    monkeypatch.setattr(root, "level", root.level)
    handler = configure(level="WARNING", json_lines=True, shards=range(3))
    assert handler is not None and root.handlers == [handler] and root.level == logging.WARNING
    assert isinstance(handler.formatter, JsonFormatter)
    record = logging.LogRecord("host", logging.WARNING, __file__, 1, "x", None, None)
    assert handler.filter(record) and json.loads(handler.format(record))["shards"] == [0, 1, 2]


# -- LOG_FORMAT -----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "read"), [("", "text"), ("text", "text"), ("json", "json"), (" JSON ", "json")])
def test_log_format_is_text_or_json(text: str, read: str) -> None:
    assert Config.from_env({"LOG_FORMAT": text}).log_format == read


def test_log_format_is_text_by_default() -> None:
    assert Config.from_env({}).log_format == "text"


@pytest.mark.parametrize("text", ["xml", "jsonl", "logfmt"])
def test_another_log_format_is_refused_in_a_sentence_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match=rf"^LOG_FORMAT must be text or json, not '{text}'\.$"):
        Config.from_env({"LOG_FORMAT": text})
