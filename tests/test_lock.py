"""The lock files (requirements/app.txt for the servers, requirements/test.txt for the tests too)
agree with pyproject.toml: every dependency pinned to one version its range allows, every pin
with its hashes, the same version in both files. A dependency added to pyproject.toml without
`make lock` fails here, before any server installs something else. Plain text, no network."""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PIN = re.compile(r"^([A-Za-z0-9._-]+(?:\[[^\]]*\])?)==([^\s;\\]+)(.*)$")


def pins(name: str) -> dict[str, tuple[str, int]]:
    """A lock file's pins: {name: (version, number of hashes)}."""
    found: dict[str, tuple[str, int]] = {}
    current = None
    for line in (ROOT / "requirements" / name).read_text().splitlines():
        match = PIN.match(line)
        if match:
            current = canonicalize_name(Requirement(match.group(1)).name)
            assert current not in found, f"{name}: {current} pinned twice"
            found[current] = (match.group(2), 0)
        elif current and line.strip().startswith("--hash=sha256:"):
            version, hashes = found[current]
            found[current] = (version, hashes + 1)
        elif line.strip() and not line.lstrip().startswith("#"):
            assert line.startswith("    "), f"{name}: unexpected line {line!r}"
    return found


def requirements(*extras: str) -> list[Requirement]:
    wanted = list(PROJECT["dependencies"])
    for extra in extras:
        wanted += PROJECT["optional-dependencies"][extra]
    return [Requirement(text) for text in wanted]


@pytest.mark.parametrize(("lock", "extras"), [("app.txt", ()), ("test.txt", ("test", "browser"))])
def test_every_dependency_is_pinned_within_its_range(lock, extras):
    locked = pins(lock)
    for requirement in requirements(*extras):
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{lock}: {name} is not locked (run make lock)"
        version = locked[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{lock}: {name}=={version} is outside {requirement.specifier} (run make lock)"
        )


@pytest.mark.parametrize("lock", ["app.txt", "test.txt"])
def test_every_pin_has_its_hashes(lock):
    assert [name for name, (_version, hashes) in pins(lock).items() if hashes == 0] == []


def test_the_servers_run_what_the_tests_ran():
    app, test = pins("app.txt"), pins("test.txt")
    assert {name: app[name][0] for name in app} == {name: test[name][0] for name in app}
    # Only what the app needs is on a server: no test tool.
    assert not {"pytest", "playwright", "ruff", "hypothesis"} & set(app)
    assert "django" in app
