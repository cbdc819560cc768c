"""The layout and docs/architecture.md's module map agree: every module of the package is in the
map, every path the map names exists, and the engine stays pure (no Django, nothing of the
app but itself). Plain text and ``ast``, no Django."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "scoresheet"
MAP = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
# The engine and its pure neighbours: the rules, and what is computed from them.
PURE = ["scoring.py", "tally.py", "stats.py", "chart.py", "numbers.py", "nights/draw.py"]
# Sessions, clubs, nights, files and lists: a concept each.
CONCEPTS = ["sheets", "clubs", "nights", "files", "lists"]


def modules() -> list[str]:
    """Every Python module of the package, as a path from the repository, packages' empty
    ``__init__`` files, migrations and the commands (named in one row) aside."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if "/migrations/" in relative or "/management/" in relative:
            continue
        if path.name == "__init__.py" and not ast.parse(path.read_text()).body[1:]:
            continue
        found.append(relative)
    return found


def named_in_map() -> set[str]:
    """The paths in the map's table rows (their first cell): ``scoresheet/…`` and
    ``static/…``, a folder ending in /."""
    named = set()
    for line in MAP.splitlines():
        if not line.startswith("| `"):
            continue
        first = line.split("|")[1]
        named.update(re.findall(r"`((?:scoresheet|static)/[^`]+)`", first))
    return named


def test_every_module_is_in_the_map():
    named = named_in_map()
    folders = {name for name in named if name.endswith("/")}
    missing = [
        module
        for module in modules()
        if module not in named and not any(module.startswith(folder) for folder in folders)
    ]
    assert missing == []


def test_every_path_the_map_names_exists():
    assert [name for name in sorted(named_in_map()) if not (ROOT / name).exists()] == []


def test_every_code_path_the_docs_name_exists():
    """A module named anywhere in README and docs/ (`scoresheet/…`, `static/…`) is there."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    wrong = []
    for page in pages:
        for name in re.findall(r"`((?:scoresheet|static)/[\w/.-]+)`", page.read_text()):
            if not (ROOT / name.rstrip("/")).exists() and "*" not in name:
                wrong.append(f"{page.name}: {name}")
    assert wrong == []


def test_the_concepts_are_packages():
    for concept in CONCEPTS:
        assert (APP / concept / "__init__.py").exists(), concept
    # No module of the old flat layout is left beside them (this browser's lists, recent.py,
    # are below every concept: the stack's shared helpers).
    flat = {path.name for path in APP.glob("*.py")}
    assert not flat & {"views.py", "forms.py", "writes.py", "backup.py", "rows.py"}
    assert not [name for name in flat if name.startswith("club")]


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_engine_is_pure():
    """The rules and their pure neighbours import no Django and nothing of the app but the
    engine: every other module asks them, none of them asks back."""
    allowed = {"scoresheet", *(f"scoresheet.{name[:-3].replace('/', '.')}" for name in PURE)}
    for name in PURE:
        found = imports(APP / name)
        assert not [module for module in found if module.split(".")[0] == "django"], name
        app = {module for module in found if module.split(".")[0] == "scoresheet"}
        outside = {m for m in app if m not in allowed and m.rsplit(".", 1)[0] not in allowed}
        assert outside == set(), name


def test_a_concept_writes_through_its_own_write_module():
    """A view of one concept never calls another concept's write module: a club's pages call
    ``clubs.writes``, a session's ``sheets.writes`` (a club night starts the club's sessions
    through ``nights.writes``, which may ask ``clubs.writes``)."""
    owners = {
        "scoresheet.sheets.writes": "sheets",
        "scoresheet.clubs.writes": "clubs",
        "scoresheet.nights.writes": "nights",
    }
    wrong = []
    for concept in CONCEPTS:
        for path in sorted((APP / concept).glob("*views.py")):
            for module in imports(path):
                owner = owners.get(module)
                if owner and owner != concept and concept != "files":
                    wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert wrong == []
