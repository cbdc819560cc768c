"""Draw the home-screen icons (PNG) into static/scoresheet/icons/: run once, commit the files.

A white playing card with a "21" (the highest trump) on the app's ink-dark background: 192 and
512 pixels, and a maskable 512 whose card stays inside the central 80 % circle that Android's
masks keep. Pure Python (zlib + struct): no image library for three small files.

    python scripts/icons.py
"""

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "scoresheet" / "icons"
INK = (20, 23, 26)  # --ink of app.css: the header bar, the theme colour
CARD = (255, 255, 255)
RED = (163, 22, 27)  # --negative
EDGE = (201, 205, 210)

# "2" and "1" on a 5 × 7 grid.
DIGITS = {
    "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
    "1": ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
}


def png(width: int, height: int, pixels) -> bytes:
    """An 8-bit RGB PNG from rows of (r, g, b) tuples."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + bytes(v for pixel in row for v in pixel) for row in pixels)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def icon(size: int, scale: float) -> bytes:
    """The card fills ``scale`` of the icon's height (centred), the rest is the background."""
    card_h = size * scale
    card_w = card_h * 0.68
    left, top = (size - card_w) / 2, (size - card_h) / 2
    radius = card_w * 0.1
    border = max(1.0, size / 128)
    cell = card_w / 16  # one cell of the digits' grid
    text_w, text_h = 11 * cell, 7 * cell
    text_left, text_top = left + (card_w - text_w) / 2, top + (card_h - text_h) / 2

    def inside_card(x: float, y: float, inset: float = 0.0) -> bool:
        x0, y0, x1, y1 = left + inset, top + inset, left + card_w - inset, top + card_h - inset
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        r = max(0.0, radius - inset)
        cx = min(max(x, x0 + r), x1 - r)
        cy = min(max(y, y0 + r), y1 - r)
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r

    def digit_at(x: float, y: float) -> bool:
        gx, gy = int((x - text_left) // cell), int((y - text_top) // cell)
        if not (0 <= gy < 7 and 0 <= gx < 11) or gx == 5:
            return False
        glyph, column = ("2", gx) if gx < 5 else ("1", gx - 6)
        return DIGITS[glyph][gy][column] == "1"

    rows = []
    for j in range(size):
        row = []
        for i in range(size):
            x, y = i + 0.5, j + 0.5
            if not inside_card(x, y):
                row.append(INK)
            elif not inside_card(x, y, border):
                row.append(EDGE)
            elif digit_at(x, y):
                row.append(RED)
            else:
                row.append(CARD)
        rows.append(row)
    return png(size, size, rows)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, scale in [
        ("icon-192.png", 192, 0.84),
        ("icon-512.png", 512, 0.84),
        # Maskable: everything that matters within the central circle of 80 % diameter.
        ("maskable-512.png", 512, 0.62),
    ]:
        (OUT / name).write_bytes(icon(size, scale))
        print(OUT / name)


if __name__ == "__main__":
    main()
