"""Text the app writes around its words, typeset for its language (scoresheet/typography.py): in
French a no-break space (U+00A0) before ; : ! ? and %, and inside « »; what only looks like such
a sign (a time, a link, an HTML entity, code in braces) is left alone; other languages as they
are. Expected texts written by hand."""

import pytest

from scoresheet import typography

NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("text", "typeset"),
    [
        # The line: no space before ";", an ordinary one before ":" and "%".
        (
            "Ana : 8 donnes, 13 % réussies; Jérôme : 2 donnes, 0 % réussies",
            f"Ana{NBSP}: 8 donnes, 13{NBSP}% réussies{NBSP}; Jérôme{NBSP}: 2 donnes, 0{NBSP}%"
            " réussies",
        ),
        ("Supprimer la donne 3?", f"Supprimer la donne 3{NBSP}?"),
        ("Quoi ?! Non!", f"Quoi{NBSP}?! Non{NBSP}!"),
        ("« Ana » et «Ben»", f"«{NBSP}Ana{NBSP}» et «{NBSP}Ben{NBSP}»"),
        # Already typeset: unchanged (a narrow no-break space becomes the one the app uses).
        (f"Règles{NBSP}: FFT", f"Règles{NBSP}: FFT"),
        ("Règles\u202f: FFT", f"Règles{NBSP}: FFT"),
        # Before a tag, and at the end.
        ("réussies;</dd>", f"réussies{NBSP};</dd>"),
        ("Règles:", f"Règles{NBSP}:"),
        # Not punctuation ending a phrase: left as typed.
        (
            "à 20:41, https://example.org/s/x/?before=3",
            "à 20:41, https://example.org/s/x/?before=3",
        ),
        ("Tom &amp; Jerry", "Tom &amp; Jerry"),
        ("a &#8217; b", "a &#8217; b"),
        ("comme {“passed”: true}.", "comme {“passed”: true}."),
        ("/s/a%20b/", "/s/a%20b/"),
    ],
)
def test_french_spacing(text, typeset):
    assert typography.french(text) == typeset
    # Once is enough: typeset text stays as it is.
    assert typography.french(typeset) == typeset


@pytest.mark.parametrize("language", ["en", "es", "en-gb"])
def test_other_languages_are_left_as_they_are(language):
    assert typography.spaced("Rules: FFT; 13%!", language) == "Rules: FFT; 13%!"


@pytest.mark.parametrize("language", ["fr", "fr-fr", "fr-CA"])
def test_french_in_every_region(language):
    assert typography.spaced("Règles : FFT", language) == f"Règles{NBSP}: FFT"
