"""Text as its language is typeset, for what the app writes itself (a summary's line, a list's
separators, a page's generated line), the translations carrying the same rule in their own
strings (locale/fr, checked by tests/test_french.py).

French: a no-break space (U+00A0, the same everywhere, never the narrow U+202F) before ; : ! ?
and %, and inside « »; an ordinary space there becomes one, a missing one is added. Only where
the sign ends a phrase (a space, the end or a tag follows): "20:41", "https://", "?before=3"
and the HTML entities (&amp;) stay as they are, and so does anything inside braces ({"passed":
true}, a backup's JSON quoted in a message). English and Spanish are left as they are."""

import regex
from django.utils.translation import get_language

NBSP = "\u00a0"
# A space a French sign may have before it: an ordinary one, or already a no-break one.
_SPACE = "[ \u00a0\u202f]?"
# ; : ! ? ending a phrase ("?!" is one), after a character that is no space, no such sign and
# not inside an HTML entity (the ";" of "&amp;").
_BEFORE = regex.compile(rf"(?<!&#?[0-9A-Za-z]+)(?<=[^\s;:!?]){_SPACE}([;:!?]+)(?=[\s<»]|$)")
_PERCENT = regex.compile(rf"(?<=\d){_SPACE}%(?![0-9A-Fa-f]{{2}})")
_OPENING = regex.compile(rf"«{_SPACE}")
_CLOSING = regex.compile(rf"{_SPACE}»")
# What is quoted as code: left alone.
_BRACES = regex.compile(r"(\{[^{}]*\})")


def french(text: str) -> str:
    """``text`` with French spacing: "Donne 3\u00a0: Ben", "13\u00a0%", "«\u00a0Ana\u00a0»"."""
    parts = _BRACES.split(text)
    for index in range(0, len(parts), 2):
        part = _BEFORE.sub(NBSP + r"\1", parts[index])
        part = _PERCENT.sub(NBSP + "%", part)
        parts[index] = _CLOSING.sub(NBSP + "»", _OPENING.sub("«" + NBSP, part))
    return "".join(parts)


def spaced(text: str, language: str | None = None) -> str:
    """``text`` as ``language`` (the active one by default) is typeset: French spacing in
    French, anything else as it is."""
    language = language or get_language() or ""
    return french(text) if language.split("-")[0] == "fr" else text
