"""The evening's summary as a picture: 1200 × 630 pixels (the Open Graph size), the standings
at a glance, drawn with Pillow.

The font is DejaVu Sans (``scoresheet/fonts``, from Debian's fonts-dejavu-core, under its free
licence beside it): Latin with every accent (é, ß, ł, œ…), Greek, Cyrillic, Armenian, Georgian,
Hebrew and Arabic letters, and the true minus sign. It has no CJK glyph: a Chinese, Japanese or
Korean name is drawn as empty boxes here (the pages show it whole). A name too long for its
line ends in "…"; six players with 40-character names fit.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
# Drawn again when this changes: part of the image's ETag.
VERSION = 1
FONTS = Path(__file__).resolve().parent.parent / "fonts"
MARGIN = 56
HEADER = 140
FOOTER = 64
ELLIPSIS = "…"

# app.css's colours.
INK = "#14171a"
PAPER = "#fbfaf7"
MUTED = "#50575e"
LIGHT = "#c9cdd2"
POSITIVE = "#116b2f"
NEGATIVE = "#a3161b"
LEADER = "#fff4cc"
LEADER_EDGE = "#8a6d00"


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text``, or as much of it as fits in ``width`` pixels followed by "…"."""
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    # The longest start that fits with its ellipsis.
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


@dataclass(frozen=True)
class Line:
    """One player's line: place, name, total (written with its sign) and the total's value."""

    place: int
    name: str
    total: str
    value: int


@dataclass(frozen=True)
class Layout:
    """Where each line of ``count`` players goes."""

    count: int

    @property
    def row_height(self) -> int:
        return min(104, (HEIGHT - HEADER - FOOTER - 16) // max(self.count, 1))

    @property
    def size(self) -> int:
        """The lines' text size: 40 px at six players, larger for fewer."""
        return min(56, int(self.row_height * 0.6))

    def middle(self, index: int) -> int:
        """The vertical middle of line ``index``."""
        top = HEADER + 12 + (HEIGHT - HEADER - FOOTER - 16 - self.count * self.row_height) // 2
        return top + index * self.row_height + self.row_height // 2

    # Columns: the place, the name, and the total ending at the right margin.
    place_x = MARGIN + 16
    name_x = MARGIN + 96
    total_x = WIDTH - MARGIN - 16

    def name_width(self) -> float:
        """Room for a name: up to the widest total a session writes (seven characters)."""
        return self.total_x - self.name_x - font(self.size, bold=True).getlength("−000000") - 40


def draw(title: str, subtitle: str, lines: list[Line], footer: str) -> Image.Image:
    """The picture: the session's name and a line about it on a dark band, then one line per
    player (the leaders highlighted), then ``footer``."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, WIDTH, HEADER), fill=INK)
    heading = font(52, bold=True)
    pen.text(
        (MARGIN, 58),
        fit(title, heading, WIDTH - 2 * MARGIN),
        font=heading,
        fill="white",
        anchor="lm",
    )
    detail = font(28)
    pen.text(
        (MARGIN, 118),
        fit(subtitle, detail, WIDTH - 2 * MARGIN),
        font=detail,
        fill=LIGHT,
        anchor="lm",
    )

    layout = Layout(len(lines))
    bold, regular = font(layout.size, bold=True), font(layout.size)
    for index, line in enumerate(lines):
        middle = layout.middle(index)
        half = layout.row_height // 2 - 4
        if line.place == 1:
            pen.rounded_rectangle(
                (MARGIN, middle - half, WIDTH - MARGIN, middle + half),
                radius=14,
                fill=LEADER,
                outline=LEADER_EDGE,
                width=3,
            )
        pen.text((layout.place_x, middle), str(line.place), font=bold, fill=MUTED, anchor="lm")
        name = fit(line.name, bold if line.place == 1 else regular, layout.name_width())
        pen.text(
            (layout.name_x, middle),
            name,
            font=bold if line.place == 1 else regular,
            fill=INK,
            anchor="lm",
        )
        colour = POSITIVE if line.value > 0 else NEGATIVE if line.value < 0 else MUTED
        pen.text((layout.total_x, middle), line.total, font=bold, fill=colour, anchor="rm")

    small = font(24)
    pen.text((MARGIN, HEIGHT - FOOTER // 2), footer, font=small, fill=MUTED, anchor="lm")
    return image


def png(image: Image.Image) -> bytes:
    """The picture as PNG bytes (a few tens of kilobytes)."""
    buffer = io.BytesIO()
    # optimize=True would save 3% for five times the time: the ETag already spares a redraw.
    image.save(buffer, format="PNG")
    return buffer.getvalue()
