#!/usr/bin/env python3
"""Sets up a local virtual environment and runs the bot or the tests.

    python3 tasks.py run [bot.py arguments]   # set up, then run the bot
    python3 tasks.py test [pytest arguments]  # set up, then lint, type-check and run every test

Only the Python standard library is used here, so this works on a fresh machine
with nothing but Python and access to the package registry. Packages are
installed into ``.venv`` once, and again whenever a requirements file changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".requirements.sha256"


def _requirements_digest(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.read_bytes())
    return digest.hexdigest()


def ensure_venv(*, dev: bool) -> None:
    """Creates ``.venv`` and installs the requirements when they are missing or changed."""
    files = [ROOT / "requirements.txt"] + ([ROOT / "requirements-dev.txt"] if dev else [])
    wanted = _requirements_digest(files)
    if not PYTHON.exists():
        print("tasks: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    if STAMP.exists() and wanted in STAMP.read_text().split():
        return
    print("tasks: installing requirements", flush=True)
    cmd = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    for f in files:
        cmd += ["-r", str(f)]
    subprocess.run(cmd, check=True)
    known = STAMP.read_text().split() if STAMP.exists() else []
    covered = [wanted, _requirements_digest(files[:1])]  # the test set includes the runtime set
    STAMP.write_text("\n".join(dict.fromkeys([*known, *covered])) + "\n")


def main(argv: list[str]) -> int:
    """Runs ``run`` or ``test``; returns the exit status."""
    if not argv or argv[0] not in {"run", "test"}:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    task, rest = argv[0], argv[1:]
    os.chdir(ROOT)
    if task == "run":
        ensure_venv(dev=False)
        return subprocess.call([str(PYTHON), "bot.py", *rest])
    ensure_venv(dev=True)
    for name, check in (("ruff", ["ruff", "check", "."]), ("mypy", ["mypy"])):
        status = subprocess.call([str(PYTHON), "-m", *check])
        if status != 0:
            print(f"tasks: {name} found problems (see above)", file=sys.stderr)
            return status
    return subprocess.call([str(PYTHON), "-m", "pytest", *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
