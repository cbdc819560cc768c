"""The browser's code (static/scoresheet/): ES modules, one behaviour per file, each short, and an
offline queue that reads no markup (docs/architecture.md, "In the browser"). Plain text."""

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static" / "scoresheet"
# The service worker is a classic script (its configuration is put above it); the engine's port
# is one behaviour, as long as the rules are.
WORKER = STATIC / "sw.js"
ENGINE = STATIC / "scoring.js"
MODULES = sorted(path for path in STATIC.rglob("*.js") if path != WORKER)


def code(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_every_file_is_short():
    lines = {path.name: len(code(path).splitlines()) for path in MODULES if path != ENGINE}
    assert {name: count for name, count in lines.items() if count >= 300} == {}


def test_modules_throughout():
    for path in MODULES:
        text = code(path)
        assert not re.search(r"^\s*var\s", text, re.M), path.name
        assert '"use strict"' not in text, path.name
        assert "(function ()" not in text, path.name


def test_every_page_loads_its_scripts_as_modules():
    templates = Path(__file__).resolve().parent.parent / "templates"
    for page in templates.rglob("*.html"):
        for tag in re.findall(r"<script\b[^>]*\bsrc=[^>]*>", code(page)):
            assert 'type="module"' in tag, (page.name, tag)


def test_the_queue_reads_no_markup():
    """No HTML parsed, no regex over HTML, no error list looked up: status, headers, JSON."""
    for path in [STATIC / "app.js", *sorted((STATIC / "offline").glob("*.js"))]:
        text = code(path)
        for markup in ("DOMParser", "errorlist", ".innerHTML", ".outerHTML", ".text()"):
            assert markup not in text, (path.name, markup)
        # A regular expression that would read a tag: a literal with a "<" in it.
        statements = re.sub(r"/\*.*?\*/|^\s*//.*$", "", text, flags=re.S | re.M)
        assert not re.search(r"/[^/\n]*<[^/\n]*/", statements), path.name


def test_no_global_shared_through_dataset():
    """Modules coordinate by importing one another or by events, not by flags on the page."""
    for path in MODULES:
        text = code(path)
        assert "documentElement.dataset.sending" not in text, path.name
        assert not re.search(r"\bentry\.dataset\b", text), path.name
