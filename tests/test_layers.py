"""The packages form a stack (docs/architecture.md, "The stack"): an import only goes down the
layer order, a module's private names stay in that module, no two packages import each other,
however far round, and a module is imported by its own name. Read from the code with ``ast``,
no Django; each check is shown to fail on what it exists to catch, planted in the code it
reads."""

import ast
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "scoresheet"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

# Bottom to top. A module belongs to the layer of the longest prefix naming it.
LAYERS = {
    # The rules and what is computed from them: pure Python.
    "engine": ["scoring", "tally", "stats", "chart", "numbers", "limits", "nights.draw"],
    # What is stored, and the small helpers every concept shares.
    "stored": [
        "models",
        "bulk",
        "json_rows",
        "player_names",
        "typography",
        "keys",
        "recent",
        "filenames",
        "routes",
        "theme",
        "throttle",
        "health",
        "version",
        "lan",
        "settings",
    ],
    "sheets": ["sheets"],
    "clubs": ["clubs"],
    "nights": ["nights"],
    "files": ["files"],
    # The pages and URLs on top, and what assembles the app.
    "pages": [
        "lists",
        "urls",
        "templatetags",
        "apps",
        "wsgi",
        "warm",
        "gunicorn_conf",
        "management",
    ],
}
ORDER = list(LAYERS)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources_of(root: Path) -> dict[str, str]:
    """Every module of the package under ``root`` (its migrations aside: they import nothing
    of the app, tests/test_migrations.py), by dotted name."""
    found = {
        module_name(path, root): path.read_text(encoding="utf-8")
        for path in sorted((root / "scoresheet").rglob("*.py"))
        if "migrations" not in path.relative_to(root).parts
    }
    # The package itself is empty: it is no layer's.
    assert not found.pop("scoresheet").strip()
    return found


def layer(module: str) -> str | None:
    """The layer of ``scoresheet.x.y``: the layer listing the longest prefix of ``x.y``."""
    inside = module.removeprefix("scoresheet.")
    best, found = -1, None
    for name, prefixes in LAYERS.items():
        for prefix in prefixes:
            if (inside == prefix or inside.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), name
    return found


def imports(sources: dict[str, str]) -> list[tuple[str, str, int]]:
    """Every import of one module of the app by another: (importer, imported, line), wherever
    it stands (in a function, under TYPE_CHECKING). ``from a import b`` imports ``a.b`` when
    that is a module, else ``a``."""
    found = []
    for module, source in sources.items():
        package = module if _is_package(module, sources) else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node, package)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in sources else base
                    for alias in node.names
                ]
            else:
                continue
            for target in targets:
                target = _known(target, sources)
                if target is not None and target != module:
                    found.append((module, target, node.lineno))
    return found


def _is_package(module: str, sources: dict[str, str]) -> bool:
    return any(other.startswith(module + ".") for other in sources)


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
    return f"{base}.{node.module}" if node.module else base


def _known(target: str, sources: dict[str, str]) -> str | None:
    """The app's module ``target`` names (itself or the module it is a name of), or None."""
    while target and target not in sources:
        target = target.rpartition(".")[0]
    return target or None


def upward(sources: dict[str, str]) -> list[str]:
    """Each import that runs up the layer order, and each module no layer holds."""
    wrong = [f"{module}: in no layer" for module in sources if layer(module) is None]
    for importer, imported, line in imports(sources):
        low, high = layer(importer), layer(imported)
        if low and high and ORDER.index(high) > ORDER.index(low):
            wrong.append(f"{importer}:{line} ({low}) imports {imported} ({high})")
    return wrong


def private_uses(sources: dict[str, str]) -> list[str]:
    """Each use of another module's private name: ``from x import _y``, or ``x._y`` where
    ``x`` is a module of the app imported by that name."""
    wrong = []
    for module, source in sources.items():
        tree = ast.parse(source)
        package = module if _is_package(module, sources) else module.rpartition(".")[0]
        bound = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = _absolute(node, package)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    if full in sources:
                        bound[alias.asname or alias.name] = full
                    elif _private(alias.name) and _known(base, sources) and base != module:
                        wrong.append(f"{module}:{node.lineno} imports {base}.{alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in sources:
                        bound[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and _private(node.attr)
            ):
                wrong.append(f"{module}:{node.lineno} uses {bound[node.value.id]}.{node.attr}")
    return wrong


def aliased(sources: dict[str, str]) -> list[str]:
    """Each module of the app imported under another name than its own (``import x as y``,
    ``from a import x as y``): a module is read by its own name wherever it is used."""
    wrong = []
    for module, source in sources.items():
        package = module if _is_package(module, sources) else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom):
                base = _absolute(node, package)
                names = [(f"{base}.{alias.name}", alias) for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [(alias.name, alias) for alias in node.names]
            else:
                continue
            for full, alias in names:
                if full in sources and alias.asname and alias.asname != full.rpartition(".")[2]:
                    wrong.append(f"{module}:{node.lineno} imports {full} as {alias.asname}")
    return wrong


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def package(module: str) -> str:
    """The package a module belongs to: ``scoresheet.clubs`` for its modules, a top-level
    module for itself."""
    parts = module.split(".")
    return ".".join(parts[:2])


def package_cycles(sources: dict[str, str]) -> list[list[str]]:
    """The packages that import one another, however far round (Tarjan's strongly connected
    components of more than one package)."""
    graph: dict[str, set[str]] = {package(module): set() for module in sources}
    for importer, imported, _line in imports(sources):
        if package(importer) != package(imported):
            graph[package(importer)].add(package(imported))
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


# The app as it is


SOURCES = sources_of(ROOT)


def test_every_import_goes_down_the_stack():
    assert upward(SOURCES) == []


def test_no_module_uses_another_modules_private_name():
    assert private_uses(SOURCES) == []


def test_no_two_packages_import_each_other():
    assert package_cycles(SOURCES) == []


def test_every_module_is_imported_by_its_own_name():
    assert aliased(SOURCES) == []


def test_the_layers_are_the_ones_the_architecture_page_lists():
    """docs/architecture.md's stack names each layer's modules in this order."""
    page = ARCHITECTURE.read_text(encoding="utf-8")
    stack = page.split("## The stack", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in stack.splitlines() if re.match(r"\| \d+ \|", line)]
    assert [row.split("|")[2].strip() for row in rows] == list(reversed(ORDER))
    for row in rows:
        name = row.split("|")[2].strip()
        listed = set(re.findall(r"`([\w./]+)`", row.split("|")[3]))
        expected = {prefix.replace(".", "/") for prefix in LAYERS[name]}
        assert {entry.removesuffix(".py").removesuffix("/") for entry in listed} == expected


# The checks fail on what they exist to catch


def test_an_upward_import_is_found():
    sources = {
        "scoresheet.models": "from scoresheet.sheets import writes\n",
        "scoresheet.sheets": "",
        "scoresheet.sheets.writes": "from scoresheet import models\n",
    }
    assert upward(sources) == [
        "scoresheet.models:1 (stored) imports scoresheet.sheets.writes (sheets)"
    ]


def test_an_upward_import_inside_a_function_or_for_typing_is_found():
    sources = {
        "scoresheet.clubs": "",
        "scoresheet.clubs.writes": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n"
            "    from scoresheet.files.club_backup import ClubBackup\n"
            "def f():\n"
            "    import scoresheet.nights.writes\n"
        ),
        "scoresheet.files": "",
        "scoresheet.files.club_backup": "",
        "scoresheet.nights": "",
        "scoresheet.nights.writes": "",
    }
    assert [line.split(" imports ")[1] for line in upward(sources)] == [
        "scoresheet.files.club_backup (files)",
        "scoresheet.nights.writes (nights)",
    ]


def test_a_module_in_no_layer_is_found():
    assert upward({"scoresheet.utils": ""}) == ["scoresheet.utils: in no layer"]


def test_another_modules_private_name_is_found():
    sources = {
        "scoresheet.clubs": "",
        "scoresheet.clubs.writes": "def _locked(club): ...\n_locked(None)\n",
        "scoresheet.nights": "",
        "scoresheet.nights.writes": (
            "from scoresheet.clubs import writes as club_writes\n"
            "from scoresheet.clubs.writes import _locked\n"
            "club_writes._locked(None)\n"
            "club_writes.__doc__\n"
        ),
    }
    assert private_uses(sources) == [
        "scoresheet.nights.writes:2 imports scoresheet.clubs.writes._locked",
        "scoresheet.nights.writes:3 uses scoresheet.clubs.writes._locked",
    ]


def test_a_module_imported_under_another_name_is_found():
    sources = {
        "scoresheet.player_names": "",
        "scoresheet.files": "",
        "scoresheet.files.session_backup": "",
        "scoresheet.files.views": (
            "from scoresheet import player_names as names\n"
            "import scoresheet.files.session_backup as backup\n"
            "from scoresheet.files import session_backup\n"
            "from django.utils.translation import gettext as _\n"
        ),
    }
    assert aliased(sources) == [
        "scoresheet.files.views:1 imports scoresheet.player_names as names",
        "scoresheet.files.views:2 imports scoresheet.files.session_backup as backup",
    ]


def test_a_cycle_between_packages_is_found():
    sources = {
        "scoresheet.lists": "",
        "scoresheet.lists.views": "from scoresheet.templatetags import scoresheet\n",
        "scoresheet.templatetags": "",
        "scoresheet.templatetags.scoresheet": "from scoresheet.lists import views\n",
    }
    assert upward(sources) == []
    assert package_cycles(sources) == [["scoresheet.lists", "scoresheet.templatetags"]]


def test_an_upward_import_planted_in_a_copy_of_the_app_is_found(tmp_path):
    """The same reading of the files as the tests above, on a copy of the app in which the
    models import the club's writes."""
    shutil.copytree(APP, tmp_path / "scoresheet", ignore=shutil.ignore_patterns("migrations"))
    models = tmp_path / "scoresheet" / "models.py"
    models.write_text(
        models.read_text(encoding="utf-8") + "\nfrom scoresheet.clubs import writes\n",
        encoding="utf-8",
    )
    planted = sources_of(tmp_path)
    assert [line for line in upward(planted) if "scoresheet.models:" in line] == [
        f"scoresheet.models:{len(models.read_text().splitlines())} (stored) imports "
        "scoresheet.clubs.writes (clubs)"
    ]
    assert any("scoresheet.models" in cycle for cycle in package_cycles(planted))
