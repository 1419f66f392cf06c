"""Reading the JSON files under ``data/``, with errors that name the file.

    >>> from pathlib import Path
    >>> read_json(Path("/nowhere/map.json"), ValueError)
    Traceback (most recent call last):
    ...
    ValueError: map.json: the file is missing
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_json(path: Path, error: type[Exception], *, label: str | None = None) -> Any:
    """Returns the parsed contents of a JSON data file.

    Raises ``error`` with a message that starts with ``label`` (default: the file's
    name) when the file is missing, unreadable, not UTF-8 or not valid JSON.
    """
    label = label or path.name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise error(f"{label}: the file is missing") from err
    except OSError as err:
        raise error(f"{label}: cannot be read ({err.strerror})") from err
    except UnicodeDecodeError as err:
        raise error(f"{label}: not UTF-8 text (byte {err.start})") from err
    except json.JSONDecodeError as err:
        raise error(f"{label}: line {err.lineno}: not valid JSON ({err.msg})") from err
