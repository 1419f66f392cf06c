#!/usr/bin/env python3
"""Sets up a local virtual environment and runs the bot or the tests.

    python3 tasks.py run [bot.py arguments]   # set up, then run the bot (or --verify FILE, --console, …)
    python3 tasks.py test [pytest arguments]  # set up, then lint, type-check, check the layers, run every test

Only the Python standard library is used here, so this works on a fresh machine
with nothing but Python and access to the package registry. Packages are
installed into ``.venv`` once, and again whenever a requirements file changes.

``test`` also needs the PostgreSQL server binaries (initdb, pg_ctl, postgres): run as
root with apt-get it installs the ``postgresql`` package if they are missing, and stops
if that fails (``TABLEHOST_PG_REQUIRED=0`` goes on without). With them, pytest runs with
TABLEHOST_PG_REQUIRED=1, so the PostgreSQL tests fail rather than skip; elsewhere, without
them, it warns and those tests skip.

The web table's browser tests drive Debian's ``chromium`` through Playwright (never
``playwright install``: the pip install skips its browser download). ``test`` installs the
``chromium`` package the same way when it is missing (``TABLEHOST_BROWSER_REQUIRED=0`` goes on
without); with it, pytest runs with TABLEHOST_CHROMIUM set to its path and
TABLEHOST_BROWSER_REQUIRED=1, so the browser tests fail rather than skip; elsewhere they skip.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
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
    """Creates ``.venv`` and installs the requirements when they are missing or changed.

    The requirements install the project itself (and, for tests, the test game's package) in
    editable mode, so their ``pyproject.toml`` files count as requirements too: a changed entry
    point is installed again.
    """
    files = [ROOT / "requirements.txt", ROOT / "pyproject.toml"]
    if dev:
        files += [ROOT / "requirements-dev.txt", *sorted((ROOT / "tests" / "games").glob("*/pyproject.toml"))]
    wanted = _requirements_digest(files)
    if not PYTHON.exists():
        print("tasks: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    if STAMP.exists() and wanted in STAMP.read_text().split():
        return
    print("tasks: installing requirements", flush=True)
    cmd = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    for f in files:
        if f.name.startswith("requirements"):
            cmd += ["-r", str(f)]
    # Playwright is used only with Debian's chromium (tests/web/browser.py): no browser download.
    subprocess.run(cmd, check=True, env={**os.environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"})
    known = STAMP.read_text().split() if STAMP.exists() else []
    covered = [wanted, _requirements_digest(files[:2])]  # the test set includes the runtime set
    STAMP.write_text("\n".join(dict.fromkeys([*known, *covered])) + "\n")


def postgres_bindir() -> Path | None:
    """Where initdb is, found as tests/support/postgres.py's ``find_bindir`` does (kept in step by hand)."""
    if os.environ.get("TABLEHOST_PG_BIN"):
        return Path(os.environ["TABLEHOST_PG_BIN"])
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            out = None
        if out and out.returncode == 0 and out.stdout.strip() and (Path(out.stdout.strip()) / "initdb").is_file():
            return Path(out.stdout.strip())
    debian = [p.parent for p in Path("/usr/lib/postgresql").glob("*/bin/initdb") if p.is_file()]
    if debian:
        return max(debian, key=lambda p: [int(n) for n in re.findall(r"\d+", p.parent.name)])
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def can_apt() -> bool:
    """True when we may install Debian packages: root, with apt-get."""
    return getattr(os, "geteuid", lambda: -1)() == 0 and shutil.which("apt-get") is not None


def apt_install(package: str, what: str) -> None:
    """Installs a Debian package for the tests (updating the package lists once if the first try fails)."""
    print(f"tasks: installing {what} for the tests", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", package]
    if subprocess.call(install, env=env) != 0:
        subprocess.call(["apt-get", "update", "-q"], env=env)
        subprocess.call(install, env=env)


def ensure_postgres() -> bool:
    """True when the PostgreSQL server binaries are there, installing them with apt-get if we are root."""
    found = postgres_bindir()
    if found and (found / "initdb").is_file():
        return True
    if os.environ.get("TABLEHOST_PG_BIN"):
        print(f"tasks: warning: no initdb in TABLEHOST_PG_BIN={found}", file=sys.stderr)
    elif can_apt():
        apt_install("postgresql", "PostgreSQL")
        found = postgres_bindir()
        if found and (found / "initdb").is_file():
            return True
        if os.environ.get("TABLEHOST_PG_REQUIRED") != "0":  # CI runs as root: its PostgreSQL tests must run
            raise SystemExit("tasks: PostgreSQL could not be installed (see above); set TABLEHOST_PG_REQUIRED=0"
                             " to run the tests without it")
    print(
        "tasks: warning: PostgreSQL server binaries not found (install the 'postgresql' package or set"
        " TABLEHOST_PG_BIN); the PostgreSQL tests will be skipped",
        file=sys.stderr,
        flush=True,
    )
    return False


CHROMIUM = Path("/usr/bin/chromium")
"""Where Debian's ``chromium`` package puts the browser."""


def chromium_path() -> Path | None:
    """Where Debian's chromium is (as tests/web/browser.py's ``find_chromium`` looks, kept in step by hand)."""
    if os.environ.get("TABLEHOST_CHROMIUM"):
        return Path(os.environ["TABLEHOST_CHROMIUM"])
    if CHROMIUM.is_file():
        return CHROMIUM
    found = shutil.which("chromium")
    return Path(found) if found else None


def ensure_chromium() -> Path | None:
    """Returns the path of Debian's chromium for the browser tests, installing it with apt-get if we are root."""
    found = chromium_path()
    if found and found.is_file():
        return found
    if os.environ.get("TABLEHOST_CHROMIUM"):
        print(f"tasks: warning: no browser at TABLEHOST_CHROMIUM={found}", file=sys.stderr)
    elif can_apt():
        apt_install("chromium", "Chromium")
        found = chromium_path()
        if found and found.is_file():
            return found
        if os.environ.get("TABLEHOST_BROWSER_REQUIRED") != "0":  # CI runs as root: its browser tests must run
            raise SystemExit("tasks: Chromium could not be installed (see above); set TABLEHOST_BROWSER_REQUIRED=0"
                             " to run the tests without it")
    print(
        "tasks: warning: Chromium not found (install the 'chromium' package or set TABLEHOST_CHROMIUM);"
        " the browser tests will be skipped",
        file=sys.stderr,
        flush=True,
    )
    return None


CHECKS: tuple[tuple[str, list[str]], ...] = (
    ("ruff", ["-m", "ruff", "check", "."]),
    ("mypy", ["-m", "mypy"]),
    ("import-linter", ["-c", "import sys; from importlinter.cli import lint_imports_command as lint;"
                       " sys.exit(lint())", "--no-cache"]),  # the layers of pyproject.toml
)
"""What ``test`` runs before pytest, in order; the first that finds a problem stops the run."""


def check(name: str, args: list[str], *, root: Path = ROOT) -> int:
    """Runs one of :data:`CHECKS` in ``root`` with the project's Python; returns its exit status."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    status = subprocess.call([str(PYTHON), *args], cwd=root, env=env)
    if status != 0:
        print(f"tasks: {name} found problems (see above)", file=sys.stderr)
    return status


def from_caller(args: list[str], caller: Path) -> list[str]:
    """Returns bot.py's arguments with each file that exists where the command was run made absolute.

    ``run`` starts bot.py from the project folder, so ``python3 tasks.py run --verify xisk-12.json``
    in the downloads folder still finds the file.
    """
    return [str((caller / a).resolve()) if not a.startswith("-") and (caller / a).is_file() else a for a in args]


def main(argv: list[str]) -> int:
    """Runs ``run`` or ``test``; returns the exit status."""
    if not argv or argv[0] not in {"run", "test"}:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    task, rest = argv[0], argv[1:]
    caller = Path.cwd()
    os.chdir(ROOT)
    if task == "run":
        ensure_venv(dev=False)
        return subprocess.call([str(PYTHON), "bot.py", *from_caller(rest, caller)])
    ensure_venv(dev=True)
    for name, args in CHECKS:
        status = check(name, args)
        if status != 0:
            return status
    env = dict(os.environ)
    if ensure_postgres():
        env.setdefault("TABLEHOST_PG_REQUIRED", "1")
    chromium = ensure_chromium()
    if chromium:
        env.setdefault("TABLEHOST_CHROMIUM", str(chromium))
        env.setdefault("TABLEHOST_BROWSER_REQUIRED", "1")
    # Two workers a core: much of the suite waits (bot processes, PostgreSQL, sockets, the fake's
    # timers), so one a core leaves the cores idle half the time (4 m 38 s with four workers here, 6 m with two).
    workers = str(2 * (os.cpu_count() or 1))
    # worksteal: a worker that is done takes tests queued on a busy one, so the run ends with its longest test.
    own = any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in rest)
    spread = [] if own else ["-n", workers, "--dist", "worksteal"]
    return subprocess.call([str(PYTHON), "-m", "pytest", *spread, *rest], env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
