"""The manual's links: every relative link of README.md and docs/*.md leads to a file that
exists, and every #anchor to a heading of its target, as GitHub names it. Plain text, no Django."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+).+?\1")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def prose(path: Path) -> list[str]:
    """The file's lines outside fenced code blocks (a link or heading there is only text)."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        lines.append("" if fenced else line)
    return lines


def links(path: Path) -> list[tuple[int, str]]:
    """(line number, target) of each Markdown link and image, code spans left out."""
    found = []
    for number, line in enumerate(prose(path), start=1):
        for match in LINK.finditer(CODE_SPAN.sub("", line)):
            found.append((number, match.group(1)))
    return found


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text as shown, lower case, punctuation dropped, each
    space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    text = re.sub(r"(\*\*|\*|__)", "", text)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a page's headings; a repeated one gets -1, -2… as on GitHub."""
    seen: dict[str, int] = {}
    result = set()
    for line in prose(path):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def problems(path: Path) -> list[str]:
    """What is wrong with the relative links of one file, one line each."""
    wrong = []
    for number, target in links(path):
        if not target or EXTERNAL.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / file_part).resolve() if file_part else path
        where = f"{path.relative_to(ROOT)}:{number}: {target}"
        if not destination.exists():
            wrong.append(f"{where}: no such file")
        elif ROOT not in destination.parents and destination != ROOT:
            wrong.append(f"{where}: outside the repository")
        elif anchor and destination.suffix != ".md":
            wrong.append(f"{where}: an anchor into a file that is not Markdown")
        elif anchor and anchor not in anchors(destination):
            wrong.append(f"{where}: no heading with this anchor")
    return wrong


@pytest.mark.parametrize("path", [README, *PAGES], ids=lambda path: path.name)
def test_every_relative_link_and_anchor_resolves(path):
    assert problems(path) == []


def test_the_readme_links_every_page_of_the_manual():
    linked = set()
    for _, target in links(README):
        file_part = target.partition("#")[0]
        if file_part and not EXTERNAL.match(target):
            linked.add((ROOT / file_part).resolve())
    pages = {page.resolve() for page in PAGES}
    assert sorted(str(page.relative_to(ROOT)) for page in pages - linked) == []


# The checker itself, on what GitHub does.


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("The club's files", "the-clubs-files"),
        ("In-process, and the slow phone", "in-process-and-the-slow-phone"),
        ("Every page at 10 and 10,000 hands", "every-page-at-10-and-10000-hands"),
        ("`make test` and CI", "make-test-and-ci"),
        ("Poignées à **trois**", "poignées-à-trois"),
        ("[Links](x.md) count by text", "links-count-by-text"),
    ],
)
def test_slug_is_githubs(heading, anchor):
    assert slug(heading) == anchor


def test_a_broken_link_and_anchor_are_reported(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "other.md").write_text("# Title\n\n## Part\n\n## Part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#part-1) [self](#here) ![img](missing.png)\n"
        "[bad](other.md#nothing) `[code](nowhere.md)` [web](https://example.org/x.md)\n"
        "```\n[fenced](nowhere.md)\n```\n## Here\n",
        encoding="utf-8",
    )
    assert problems(page) == [
        "page.md:1: missing.png: no such file",
        "page.md:2: other.md#nothing: no heading with this anchor",
    ]
