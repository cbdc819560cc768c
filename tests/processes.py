"""The app's commands and scripts run as a server runs them: in processes of their own, on a
database of their own (the ``fresh_database`` fixture of conftest.py)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def manage(env: dict, *args, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python manage.py ARGS`` with ``env``."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def python(env: dict, code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Python ``code`` run after ``django.setup()`` with ``env``."""
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def django(env: dict, code: str, timeout: float = 120):
    """The JSON that ``code`` prints last (run as ``python`` runs it)."""
    result = python(env, code, timeout)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
