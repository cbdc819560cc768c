"""The summary's picture (scoresheet/sheets/summary_image.py): its size, that it is not blank, that
the leader's name is really drawn, that six long names fit, and what its font covers."""

import io

import pytest
from PIL import Image, ImageChops, ImageDraw

from scoresheet.sheets import summary_image
from scoresheet.sheets.summary_image import Layout, Line, draw, fit, font, png

FOUR = [
    Line(1, "Chloé", "+1346", 1346),
    Line(2, "Ben", "−390", -390),
    Line(3, "Ana", "−446", -446),
    Line(4, "Łukasz Straße", "−510", -510),
]


def decoded(lines, title="Vendredi", subtitle="27 Nov 2026 · 45 hands · FFT"):
    data = png(draw(title, subtitle, lines, "Tarot score sheet"))
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def name_box(image_lines, index):
    """Where line ``index``'s name is drawn, and how (text, font), from the picture's layout."""
    layout = Layout(len(image_lines))
    line = image_lines[index]
    face = font(layout.size, bold=line.place == 1)
    text = fit(line.name, face, layout.name_width())
    origin = (layout.name_x, layout.middle(index))
    box = ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox(origin, text, font=face, anchor="lm")
    return origin, text, face, box


def alone(origin, text, face, background):
    """The name drawn by itself with the same font, on its line's background."""
    image = Image.new("RGB", (summary_image.WIDTH, summary_image.HEIGHT), background)
    ImageDraw.Draw(image).text(origin, text, font=face, fill=summary_image.INK, anchor="lm")
    return image


def test_the_picture_is_1200_by_630_and_not_blank():
    image = decoded(FOUR)
    assert image.format == "PNG"
    assert image.size == (1200, 630)
    colours = image.getcolors(maxcolors=1_000_000)
    # Paper, the dark band, the leader's yellow, green and red totals, antialiased text.
    assert len(colours) > 50
    assert image.getpixel((600, 20)) == (0x14, 0x17, 0x1A)
    assert image.getpixel((600, 625)) == (0xFB, 0xFA, 0xF7)


def test_the_leaders_name_is_drawn_where_its_line_is():
    image = decoded(FOUR)
    origin, text, face, box = name_box(FOUR, 0)
    assert text == "Chloé"
    expected = alone(origin, text, face, summary_image.LEADER)
    assert ImageChops.difference(image.crop(box), expected.crop(box)).getbbox() is None
    # And it could fail: another leader's name is not what is drawn there.
    other = decoded([Line(1, "Chloe", "+1346", 1346), *FOUR[1:]])
    assert ImageChops.difference(other.crop(box), expected.crop(box)).getbbox() is not None


def test_accents_are_drawn_with_their_glyphs():
    image = decoded(FOUR)
    origin, text, face, box = name_box(FOUR, 3)
    assert text == "Łukasz Straße"
    expected = alone(origin, text, face, summary_image.PAPER)
    assert ImageChops.difference(image.crop(box), expected.crop(box)).getbbox() is None


def glyph(character, face):
    mask = face.getmask(character)
    return mask.size, bytes(mask)


@pytest.mark.parametrize("bold", [False, True])
def test_the_font_covers_accents_and_the_minus_sign(bold):
    face = font(40, bold=bold)
    # A code point no font maps: what the font draws for a character it lacks (.notdef).
    missing = glyph("\U0010fffd", face)
    for character in "éèêëàçôœæßłŁøåñüÉ−…ąčšžőΩЖ":
        assert glyph(character, face) != missing, character
    # CJK: DejaVu has none of it; such a name is drawn as boxes (docs/using.md, summary_image.py).
    assert glyph("漢", face) == missing


def test_six_players_with_40_character_names_fit():
    names = [
        f"{'Marie-Bénédicte de la Tour' * 2}"[:40],
        *(f"Player {n} " + "W" * 31 for n in range(5)),
    ]
    lines = [Line(n + 1, name, "−123456", -123456) for n, name in enumerate(names)]
    image = decoded(lines)
    layout = Layout(6)
    pen = ImageDraw.Draw(image)
    for index, line in enumerate(lines):
        _origin, text, _face, box = name_box(lines, index)
        assert text.endswith("…")
        assert len(text) < 40
        total = pen.textbbox(
            (layout.total_x, layout.middle(index)),
            line.total,
            font=font(layout.size, bold=True),
            anchor="rm",
        )
        # The name ends before the total starts, and each line stays inside its own.
        assert box[2] < total[0]
        assert layout.middle(index) + layout.row_height // 2 <= 630 - summary_image.FOOTER
    # Six lines at 40 px text: still readable once a chat shrinks the card to a third.
    assert layout.size >= 40


def test_fit_keeps_a_name_that_fits_and_cuts_one_that_does_not():
    face = font(40)
    assert fit("Ana", face, 500) == "Ana"
    cut = fit("A" * 80, face, 500)
    assert cut.endswith("…")
    assert face.getlength(cut) <= 500
    assert face.getlength(cut[:-1] + "A…") > 500
