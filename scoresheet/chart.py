"""The running totals of a scored sheet as inline SVG, drawn by the server; pure Python.

One line per player from 0 before the first hand to the current total, told apart by colour
(Okabe–Ito, readable with colour blindness), dash pattern and marker shape, with the zero line
and each current total labelled at the end of its line (labels nudged apart so that they never
overlap; lines that coincide slightly dodged so that each stays visible). It uses presentation
attributes only (no ``style``), so the Content-Security-Policy needs no ``unsafe-inline``;
every text it draws is XML-escaped, so the caller may mark the result safe.

Messages are English source strings marked with ``_`` for extraction; the caller passes its
translation function, as with ``scoring.Problem.translated``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from scoresheet.numbers import signed
from scoresheet.tally import Tally

__all__ = ["STYLES", "draw", "running_totals", "sampled"]


def _(message: str) -> str:
    """Mark a message for translation; the caller translates it (gettext_noop)."""
    return message


# Okabe & Ito's palette, minus the three lightest colours: each line keeps at least 3:1
# against white (WCAG 1.4.11). Dash patterns and markers repeat the distinction without colour.
STYLES = (
    ("#0072B2", "", "circle"),
    ("#D55E00", "7 4", "square"),
    ("#009E73", "1 4", "triangle"),
    ("#CC79A7", "10 3 2 3", "diamond"),
    ("#000000", "4 2", "triangle-down"),
)
INK = "#14171a"
MUTED = "#50575e"
GRID = "#e1e4e8"

# The viewBox: its width is a phone's, so that 12 units read as about 12 px at 360 px.
WIDTH, HEIGHT = 360, 232
LEFT, TOP, BOTTOM = 40, 10, 208
LABEL_GAP = 14
# The end labels take what they need on the right, between these widths; a longer name is cut.
# Widths are estimated generously (a wide font, 12 units), as the server cannot measure text.
LABEL_MIN, LABEL_MAX = 60, 104
CHAR, BOLD_CHAR = 7.2, 8.4
# The score ticks (11 units; a wide font's digits, as DejaVu Sans draws them) take what their
# widest label needs on the left, at least LEFT.
TICK_CHAR, TICK_GAP = 7.5, 5
LABEL_OFFSET = 21
# Defenders score alike, so lines often coincide: each seat's line is moved this much from the
# next one (under 2 px), enough to see every colour side by side, too little to misread.
DODGE = 1.6
# Beyond this many hands a marker on every point turns into a smear: mark every k-th point.
MARKERS = 24
# A line is drawn through every hand up to this many hands; beyond, through every k-th hand
# and the last (a phone's width has fewer pixels than a long session has hands), so the chart
# of a 10,000-hand session weighs what a 60-hand one does (and reads 61 stored totals).
POINTS = 60


def _label(name: str, total: str) -> tuple[str, float]:
    """The name as the end label shows it, cut to fit beside its total, and the label's width."""
    room = LABEL_MAX - BOLD_CHAR * len(total) - CHAR / 2
    if CHAR * len(name) > room:
        name = name[: max(1, int(room / CHAR) - 1)] + "…"
    return name, CHAR * len(name) + CHAR / 2 + BOLD_CHAR * len(total)


def _step(span: float, most: int, factors: Sequence[float]) -> int:
    """The smallest round step (a factor times a power of ten) giving at most ``most`` steps."""
    magnitude = 10 ** max(0, math.floor(math.log10(max(span / most, 1))))
    for scale in (magnitude, magnitude * 10):
        for factor in factors:
            step = int(factor * scale)
            if step >= 1 and span / step <= most:
                return step
    return magnitude * 10


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _marker(shape: str, x: float, y: float) -> str:
    """A marker centred on (x, y) as path data, so all of one line's markers are one path."""
    if shape == "circle":
        return f"M{_number(x - 3.5)},{_number(y)}a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0z"
    if shape == "square":
        return f"M{_number(x - 3.2)},{_number(y - 3.2)}h6.4v6.4h-6.4z"
    if shape == "triangle":
        return f"M{_number(x)},{_number(y - 4.3)}l4,7h-8z"
    if shape == "diamond":
        return f"M{_number(x)},{_number(y - 4.3)}l4.3,4.3l-4.3,4.3l-4.3,-4.3z"
    return f"M{_number(x)},{_number(y + 4.3)}l4,-7h-8z"


def _spread(wanted: list[float], low: float, high: float, gap: float) -> list[float]:
    """Move label positions apart by at least ``gap``, keeping them in [low, high], in order."""
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    placed = [wanted[i] for i in order]
    for k in range(len(placed)):
        placed[k] = max(placed[k], low if k == 0 else placed[k - 1] + gap)
    for k in reversed(range(len(placed))):
        placed[k] = min(placed[k], high if k == len(placed) - 1 else placed[k + 1] - gap)
    result = [0.0] * len(wanted)
    for k, i in enumerate(order):
        result[i] = placed[k]
    return result


def sampled(hands: int, kept: int = 1) -> list[int]:
    """The hand numbers whose running totals the chart of ``hands`` hands draws (0 is the
    start): every hand up to ``POINTS``, then every k-th and the last; the markers' too. k is
    a multiple of ``kept``, the step of the totals at hand (a sheet's checkpoints)."""
    step, every = _steps(hands, kept)
    marked = {*range(every, hands + 1, every), hands} - {0}
    drawn = {*range(0, hands + 1, step), hands}
    return sorted(marked | drawn)


def _steps(hands: int, kept: int = 1) -> tuple[int, int]:
    """Every how many hands a line has a point (a multiple of ``kept``), and a marker: markers
    sit on the line's points, so a long session reads no more totals than the line draws."""
    step = kept * math.ceil(math.ceil(hands / POINTS) / kept) or 1
    every = step * math.ceil(math.ceil(hands / MARKERS) / step) if hands else 1
    return step, every


def running_totals(
    sheet: Tally,
    names: Sequence[str],
    *,
    gettext: Callable[[str], str] = str,
    id_prefix: str = "chart",
) -> str:
    """The SVG of each player's running total across the hands of a scored sheet."""
    totals = (0,) * sheet.seats
    points = {0: totals}
    for row in sheet.rows:
        totals = tuple(t + s for t, s in zip(totals, row.scores, strict=True))
        points[row.number] = totals
    wanted = sampled(len(sheet.rows))
    return draw(
        {number: points[number] for number in wanted},
        sheet.totals,
        names,
        gettext=gettext,
        id_prefix=id_prefix,
    )


def draw(
    points: Mapping[int, Sequence[int]],
    ends: Sequence[int],
    names: Sequence[str],
    *,
    gettext: Callable[[str], str] = str,
    id_prefix: str = "chart",
    kept: int = 1,
) -> str:
    """The SVG of each player's running total, as markup safe to insert.

    ``points`` maps each hand number of ``sampled(hands, kept)`` (0 included) to the running
    totals after it; ``ends`` are the totals after the last hand.
    """
    hands = max(points, default=0)
    series = [
        {number: totals[seat] for number, totals in points.items()} for seat in range(len(names))
    ]
    totals_at_end = list(ends)
    ends = [signed(total) for total in totals_at_end]
    labels = [_label(name, end) for name, end in zip(names, ends, strict=True)]
    bottom_value, top_value, ticks = _scale(series)
    frame = _frame(hands, bottom_value, top_value, ticks, labels)
    return "\n".join(
        [
            *_head(names, totals_at_end, hands, gettext, id_prefix),
            *_axes(frame, ticks),
            *_lines_and_labels(frame, series, points.keys(), labels, ends, kept),
            "</svg>",
        ]
    )


@dataclass(frozen=True)
class _Frame:
    """Where the plot sits in the viewBox, and how hands and scores map onto it."""

    hands: int
    left: float
    right: float
    bottom_value: float
    top_value: float

    def x_of(self, number: int) -> float:
        return self.left + (self.right - self.left) * number / max(self.hands, 1)

    def y_of(self, value: float) -> float:
        span = self.top_value - self.bottom_value
        return BOTTOM - (BOTTOM - TOP) * (value - self.bottom_value) / span


def _scale(series: list[dict[int, int]]) -> tuple[float, float, range]:
    """The score range the plot shows (bottom, top) and its round ticks."""
    values = [value for line in series for value in line.values()]
    low, high = min(values), max(values)
    if low == high:  # No score yet: a small symmetric range around the zero line.
        low, high = -100, 100
    step = _step(high - low, 5, (1, 2, 2.5, 5))
    # A little room above and below the lines, so that markers stay inside the plot.
    margin = (high - low) / 20
    bottom_value, top_value = low - margin, high + margin
    first_tick = math.ceil(bottom_value / step) * step
    return bottom_value, top_value, range(first_tick, math.floor(top_value) + 1, step)


def _frame(
    hands: int,
    bottom_value: float,
    top_value: float,
    ticks: range,
    labels: list[tuple[str, float]],
) -> _Frame:
    """The plot between the tick labels on the left and the end labels on the right."""
    width = min(LABEL_MAX, max(LABEL_MIN, *(w for _name, w in labels)))
    right = WIDTH - LABEL_OFFSET - width - 2
    # "−12000" needs more room than "+500": the plot starts after the widest tick label.
    widest = max((len(signed(value)) for value in ticks), default=1)
    left = max(LEFT, math.ceil(TICK_CHAR * widest) + TICK_GAP + 2)
    return _Frame(hands, left, right, bottom_value, top_value)


def _head(
    names: Sequence[str],
    totals_at_end: list[int],
    hands: int,
    gettext: Callable[[str], str],
    id_prefix: str,
) -> list[str]:
    """The opening tag, and the title and description a screen reader says."""
    title = gettext(_("Running totals"))
    totals = ", ".join(
        f"{name} {signed(total)}" for name, total in zip(names, totals_at_end, strict=True)
    )
    if hands:
        description = gettext(_("After hand %(number)s: %(totals)s.")) % {
            "number": hands,
            "totals": totals,
        }
    else:
        description = gettext(_("No hand played yet: %(totals)s.")) % {"totals": totals}
    prefix = escape(id_prefix)
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="running-totals" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        f'aria-labelledby="{prefix}-title {prefix}-desc" '
        f'font-family="system-ui, sans-serif" font-size="12" fill="{INK}">',
        f'<title id="{prefix}-title">{escape(title)}</title>',
        f'<desc id="{prefix}-desc">{escape(description)}</desc>',
    ]


def _axes(frame: _Frame, ticks: range) -> list[str]:
    """Grid and axes: score ticks on the left, hand numbers underneath, the zero line."""
    left, right, hands = frame.left, frame.right, frame.hands
    grid = [f'<g class="axes" font-size="11" fill="{MUTED}">']
    for value in ticks:
        y = _number(frame.y_of(value))
        if value:
            grid.append(f'<line x1="{left}" x2="{right}" y1="{y}" y2="{y}" stroke="{GRID}"/>')
        grid.append(
            f'<text x="{left - TICK_GAP}" y="{y}" dy=".35em" text-anchor="end">'
            f"{signed(value)}</text>"
        )
    if hands:
        every = _step(hands, 6, (1, 2, 5))
        for number in range(every, hands + 1, every):
            grid.append(
                f'<text x="{_number(frame.x_of(number))}" y="{BOTTOM + 16}" '
                f'text-anchor="middle">{number}</text>'
            )
    grid.append("</g>")
    zero = _number(frame.y_of(0))
    grid.append(
        f'<line class="zero" x1="{left}" x2="{right}" y1="{zero}" y2="{zero}" '
        f'stroke="{MUTED}" stroke-width="1.5"/>'
    )
    return grid


def _lines_and_labels(
    frame: _Frame,
    series: list[dict[int, int]],
    numbers: Iterable[int],
    labels: list[tuple[str, float]],
    ends: list[str],
    kept: int = 1,
) -> list[str]:
    """Each player's line, then each end label: no line is drawn over a label."""
    hands = frame.hands
    step, every = _steps(hands, kept)
    marked = sorted(({*range(every, hands + 1, every), hands} - {0}) & set(numbers))
    drawn = sorted({*range(0, hands + 1, step), hands} & set(numbers))
    players = len(series)
    dodges = [(seat - (players - 1) / 2) * DODGE for seat in range(players)]
    line_ends = [
        frame.y_of(line[hands]) + dodge for line, dodge in zip(series, dodges, strict=True)
    ]
    label_ys = _spread(line_ends, TOP + 6, HEIGHT - 8, LABEL_GAP)
    lines, tags = [], []
    for seat, line in enumerate(series):
        style = STYLES[seat % len(STYLES)]
        lines += _line(frame, seat, line, dodges[seat], style, drawn, marked)
        tags += _end_label(frame, seat, style, line_ends[seat], label_ys[seat], labels, ends)
    return lines + tags


def _line(
    frame: _Frame,
    seat: int,
    line: dict[int, int],
    dodge: float,
    style: tuple[str, str, str],
    drawn: list[int],
    marked: list[int],
) -> list[str]:
    """One player's line through the ``drawn`` hands, with markers on the ``marked`` ones."""
    colour, dashes, shape = style
    coordinates = " ".join(
        f"{_number(frame.x_of(number))},{_number(frame.y_of(line[number]) + dodge)}"
        for number in drawn
    )
    dash = f' stroke-dasharray="{dashes}"' if dashes else ""
    parts = [
        f'<g class="player" data-seat="{seat}">',
        f'<polyline points="{coordinates}" fill="none" stroke="{colour}" stroke-width="2.25" '
        f'stroke-linejoin="round" stroke-linecap="round"{dash}/>',
    ]
    if marked:
        path = "".join(_marker(shape, frame.x_of(n), frame.y_of(line[n]) + dodge) for n in marked)
        parts.append(f'<path d="{path}" fill="{colour}" stroke="#fff" stroke-width="1"/>')
    parts.append("</g>")
    return parts


def _end_label(
    frame: _Frame,
    seat: int,
    style: tuple[str, str, str],
    line_end: float,
    label_y: float,
    labels: list[tuple[str, float]],
    ends: list[str],
) -> list[str]:
    """A player's name and total at the end of their line, tied to it by a short stroke."""
    colour, _dashes, shape = style
    right = frame.right
    y = _number(label_y)
    tags = [f'<g class="label" data-seat="{seat}">']
    if frame.hands:
        tags.append(
            f'<line x1="{_number(right + 2)}" y1="{_number(line_end)}" '
            f'x2="{_number(right + 8)}" y2="{y}" stroke="{colour}" stroke-width="1"/>'
        )
    tags.append(
        f'<path d="{_marker(shape, right + 14, label_y)}" fill="{colour}" '
        f'stroke="#fff" stroke-width="1"/>'
    )
    tags.append(
        f'<text x="{_number(right + LABEL_OFFSET)}" y="{y}" dy=".35em">'
        f'{escape(labels[seat][0])} <tspan font-weight="700">{ends[seat]}</tspan></text>'
    )
    tags.append("</g>")
    return tags
