"""This release's version number, as pyproject.toml says (CHANGELOG.md tells what each one
changed): in every page's footer and in ``/healthz``'s answer, so that an operator sees which
release each app server runs."""

import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def read() -> str:
    """The checkout's own pyproject.toml (the app runs from its checkout: after ``git pull``
    it is the new number even before the package is installed again); else the installed
    package's metadata."""
    try:
        return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return metadata.version("tarot-scoresheet")


VERSION = read()


def context(request) -> dict:
    """Template context processor: the version for base.html's footer."""
    return {"version": VERSION}
