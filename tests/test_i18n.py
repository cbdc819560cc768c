"""Translations: every language complete, compiled, and the game terms kept French."""

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
GAME_TERMS = ["prise", "garde", "petit au bout", "poignée", "chelem", "bouts"]


def catalog(language):
    """(msgid, msgstr, flags) for each entry of a .po file, plurals joined with a NUL."""
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if line.strip()]
        flags = " ".join(line for line in lines if line.startswith("#,"))
        parts, key = {}, None
        for line in lines:
            if line.startswith("#"):
                continue
            match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) (".*")$', line)
            if match:
                key = match.group(1)
                parts[key] = ast.literal_eval(match.group(2))
            elif key:
                parts[key] += ast.literal_eval(line)
        if "msgid" not in parts:
            continue
        msgid = parts["msgid"]
        if "msgctxt" in parts:
            # As gettext keys a message with a context: the context, EOT, the message.
            msgid = parts["msgctxt"] + "\x04" + msgid
        if "msgid_plural" in parts:
            msgid += "\0" + parts["msgid_plural"]
            msgstr = "\0".join(v for k, v in sorted(parts.items()) if k.startswith("msgstr["))
        else:
            msgstr = parts.get("msgstr", "")
        entries.append((msgid, msgstr, flags))
    return entries


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_translated(language):
    entries = [e for e in catalog(language) if e[0]]
    assert len(entries) > 100
    untranslated = [msgid for msgid, msgstr, _ in entries if not all(msgstr.split("\0"))]
    fuzzy = [msgid for msgid, _, flags in entries if "fuzzy" in flags]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalog_matches_the_po_file(language):
    path = LOCALE / language / "LC_MESSAGES" / "django.mo"
    with path.open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for msgid, msgstr, _ in catalog(language):
        if not msgid:
            continue
        if "\0" in msgid:
            singular, plural = msgid.split("\0")
            assert compiled.ngettext(singular, plural, 1) == msgstr.split("\0")[0], msgid
        elif "\x04" in msgid:
            context, message = msgid.split("\x04")
            assert compiled.pgettext(context, message) == msgstr, msgid
        else:
            assert compiled.gettext(msgid) == msgstr, msgid


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_survive_translation(language):
    for msgid, msgstr, _ in catalog(language):
        for source, target in zip(msgid.split("\0"), msgstr.split("\0"), strict=False):
            wanted = sorted(re.findall(r"%\(\w+\)s", source))
            assert sorted(set(re.findall(r"%\(\w+\)s", target))) == sorted(set(wanted)), msgid


@pytest.mark.parametrize("language", LANGUAGES)
def test_game_terms_stay_french(language):
    """A source string that names a game term keeps it in the translation."""
    for msgid, msgstr, _ in catalog(language):
        for term in GAME_TERMS:
            if term in msgid.lower():
                assert term in msgstr.lower(), (msgid, msgstr)
