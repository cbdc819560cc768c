"""What both backups share (scoresheet/files/json_backup.py): the declared shapes, each
refusal they can give, and the text every string must be."""

import pytest
from django.utils import translation

from scoresheet.files import club_backup, json_backup, session_backup

# A node with one of these keywords can refuse a value: it must say why, in its "refusal".
CONSTRAINTS = {
    "type",
    "enum",
    "const",
    "not",
    "format",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
}


def nodes(schema: dict, path: str = "$"):
    """Every node of a schema that is checked against a value ("if" only chooses a branch)."""
    yield path, schema
    for key in ("then", "else", "items"):
        if isinstance(schema.get(key), dict):
            yield from nodes(schema[key], f"{path}.{key}")
    for name, node in schema.get("properties", {}).items():
        yield from nodes(node, f"{path}.{name}")
    for number, node in enumerate(schema.get("allOf", [])):
        yield from nodes(node, f"{path}.allOf[{number}]")


@pytest.mark.parametrize(
    "shape",
    [session_backup.SHAPE, *session_backup.HAND_SHAPES.values(), club_backup.SHAPE],
    ids=["session", "passed deal", "played hand", "club"],
)
def test_every_constraint_of_a_shape_says_why_it_refuses(shape):
    silent = []
    for path, node in nodes(shape.schema):
        if CONSTRAINTS & set(node) and "refusal" not in node:
            silent.append(f"{path}: no refusal")
        if "required" in node and "missing" not in node:
            silent.append(f"{path}: no message for a missing key")
        if node.get("additionalProperties") is False and "unknown" not in node:
            silent.append(f"{path}: no message for an unknown key")
    assert silent == []


def test_the_walk_sees_every_node():
    """The test above can fail: a constraint without its refusal is found."""
    schema = {"properties": {"a": {"items": {"type": "integer"}}}, "required": ["a"]}
    found = [path for path, node in nodes(schema) if CONSTRAINTS & set(node)]
    assert found == ["$.a.items"]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("Ana", True),
        ("Chloé 😀", True),
        ("", True),
        ("\x00", False),
        ("Ben\x00", False),
        ("\ud800", False),
        ("Chlo\udce9", False),
        # json.loads joins the pair JSON writes for 😀 into one code point; left apart, no text.
        ("\ud83d\ude00", False),
    ],
)
def test_text_has_no_nul_and_no_lone_surrogate(value, text):
    assert json_backup.is_text(value) is text


NUMBERED = json_backup.Shape(
    {
        "type": "object",
        "properties": {
            "rounds": {
                "type": "array",
                "numbered": "round",
                "each": "Round %(number)s: %(problem)s",
                "items": {
                    "type": "array",
                    "numbered": "table",
                    "items": {
                        "type": "object",
                        "required": ["name"],
                        "missing": "table %(table)s of round %(round)s has no “%(key)s”",
                        "properties": {
                            "name": json_backup.string("%(value)s is no name (table %(table)s)")
                        },
                    },
                },
            }
        },
    }
)


def test_a_refusal_says_where_it_is():
    with pytest.raises(json_backup.BackupError) as refused:
        NUMBERED.check({"rounds": [[{"name": "a"}], [{"name": "b"}, {"name": 7}]]})
    assert refused.value.message == "Round 2: 7 is no name (table 2)"
    assert refused.value.field == "name"
    with pytest.raises(json_backup.BackupError) as refused:
        NUMBERED.check({"rounds": [[{}]]})
    assert refused.value.message == "Round 1: table 1 of round 1 has no “name”"
    assert refused.value.field == "name"
    with pytest.raises(json_backup.BackupError) as refused:
        NUMBERED.check({"rounds": [[{"name": "N\x00"}]]})
    assert refused.value.message == "Round 1: N\\u0000 is no name (table 1)"


def test_a_refusal_is_translated():
    data = {"format": "tarot-scoresheet/1", "name": "Vendredi"}
    with translation.override("fr"), pytest.raises(json_backup.BackupError) as refused:
        session_backup.SHAPE.check(data)
    assert refused.value.message == "La sauvegarde n’a pas de «\u00a0created\u00a0»."
