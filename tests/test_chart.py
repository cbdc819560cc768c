"""The running-totals chart (scoresheet/chart.py): valid SVG, one line per player, escaped text."""

import re
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from scoresheet import chart
from scoresheet.scoring import Hand
from tests.scored import build

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise"]


def parse(markup):
    return ET.fromstring(markup)


def polylines(root):
    return root.findall(f".//{SVG}polyline")


def points(polyline):
    return [tuple(map(float, p.split(","))) for p in polyline.get("points").split()]


def session(players, count):
    """``count`` hands in turn: every fourth passed, the others a prise made by 5 (u = 30)."""
    hands = [
        None if number % 4 == 3 else Hand(players, number % players, "prise", 2, 46)
        for number in range(count)
    ]
    return build(players, 0, hands)


@pytest.mark.parametrize(("players", "count"), [(3, 5), (4, 12), (5, 15), (5, 0), (4, 1)])
def test_one_line_per_player_with_a_point_per_hand_and_the_start(players, count):
    sheet = session(players, count)
    root = parse(chart.running_totals(sheet, NAMES[:players]))
    assert root.tag == f"{SVG}svg"
    lines = polylines(root)
    assert len(lines) == players
    for line in lines:
        found = points(line)
        assert len(found) == count + 1
        # x grows hand by hand.
        assert [x for x, _y in found] == sorted({x for x, _y in found})
    # Every line starts at 0, on the zero line (give or take its dodge).
    zero = root.find(f".//{SVG}line[@class='zero']")
    for line in lines:
        x, y = points(line)[0]
        assert x == float(zero.get("x1"))
        assert abs(y - float(zero.get("y1"))) <= 2 * chart.DODGE + 0.1  # Rounded to 0.1.


def test_lines_that_coincide_stay_apart():
    # Seat 0 takes and makes: seats 1, 2 and 3 defended alike, so their totals are equal.
    sheet = build(4, 0, [Hand(4, 0, "prise", 2, 46)])
    root = parse(chart.running_totals(sheet, NAMES[:4]))
    ends = [points(line)[-1][1] for line in polylines(root)]
    assert len(set(ends[1:])) == 3
    assert max(ends[1:]) - min(ends[1:]) <= 4 * chart.DODGE


def test_line_ends_follow_the_totals():
    sheet = session(4, 12)
    root = parse(chart.running_totals(sheet, NAMES[:4]))
    ends = [points(line)[-1][1] for line in polylines(root)]
    # SVG's y grows downwards: the higher the total, the smaller y.
    by_total = sorted(range(4), key=lambda seat: -sheet.totals[seat])
    by_height = sorted(range(4), key=lambda seat: ends[seat])
    assert [sheet.totals[s] for s in by_total] == [sheet.totals[s] for s in by_height]


def test_title_and_description_name_every_total():
    sheet = build(3, 0, [Hand(3, 0, "prise", 2, 46), None])  # (60, −30, −30)
    root = parse(chart.running_totals(sheet, ["Ana", "Ben", "Chloé"]))
    assert root.get("role") == "img"
    assert root.get("viewBox")
    assert root.get("width") == "100%"
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title.text == "Running totals"
    assert desc.text == "After hand 2: Ana +60, Ben −30, Chloé −30."
    assert root.get("aria-labelledby").split() == [title.get("id"), desc.get("id")]
    # The title comes first: that is what browsers and screen readers read.
    assert root[0] is title


def test_no_hand_yet():
    sheet = build(4, 0, [])
    markup = chart.running_totals(sheet, NAMES[:4])
    root = parse(markup)
    assert root.find(f"{SVG}desc").text == "No hand played yet: Ana 0, Ben 0, Chloé 0, Dan 0."
    assert all(len(points(line)) == 1 for line in polylines(root))
    assert "nan" not in markup.lower()


def test_translated_with_the_callers_gettext():
    french = {
        "Running totals": "Totaux cumulés",
        "After hand %(number)s: %(totals)s.": "Après la donne %(number)s : %(totals)s.",
    }
    sheet = build(3, 0, [Hand(3, 0, "prise", 2, 46)])
    root = parse(chart.running_totals(sheet, ["A", "B", "C"], gettext=french.get))
    assert root.find(f"{SVG}title").text == "Totaux cumulés"
    assert root.find(f"{SVG}desc").text == "Après la donne 1 : A +60, B −30, C −30."


@pytest.mark.parametrize(
    "name", ["<script>alert(1)</script>", 'A&B "q"', "O'Brien", "]]><x/>", "</svg><svg>"]
)
def test_player_names_are_escaped(name):
    names = [name, "Ben", "Chloé"]
    markup = chart.running_totals(session(3, 4), names)
    root = parse(markup)  # Well-formed despite the name.
    assert "<script" not in markup
    assert "<x/>" not in markup
    assert markup.count("<svg") == 1
    assert root.findall(f".//{SVG}script") == []
    # The name reads back exactly, in the description and (short enough) in its label.
    assert name in root.find(f"{SVG}desc").text
    label = root.find(f".//{SVG}g[@class='label'][@data-seat='0']/{SVG}text")
    shown = "".join(label.itertext())
    assert shown.startswith(name if len(name) <= 12 else name[:4])


def test_an_id_prefix_is_escaped_too():
    markup = chart.running_totals(session(3, 2), NAMES[:3], id_prefix='x" onload="alert(1)')
    root = parse(markup)
    assert root.get("onload") is None


def test_each_player_has_its_own_colour_dashes_and_marker():
    root = parse(chart.running_totals(session(5, 8), NAMES))
    lines = polylines(root)
    assert len({line.get("stroke") for line in lines}) == 5
    assert len({line.get("stroke-dasharray") for line in lines}) == 5
    markers = root.findall(f".//{SVG}g[@class='player']/{SVG}path")
    assert len(markers) == 5
    # Different shapes: each marker's path, once its starting point is dropped, differs.
    shapes = {re.sub(r"^M[-\d.]+,[-\d.]+", "", m.get("d").split("z")[0]) for m in markers}
    assert len(shapes) == 5


def test_markers_are_capped_on_long_sessions():
    root = parse(chart.running_totals(session(4, 100), NAMES[:4]))
    for group in root.findall(f".//{SVG}g[@class='player']"):
        marker = group.find(f"{SVG}path")
        assert marker.get("d").count("M") <= chart.MARKERS + 1
        # 100 hands is more than POINTS (60): the line goes through every second hand, 0 to
        # 100, and every marker sits on it.
        assert len(points(group.find(f"{SVG}polyline"))) == 51
    # The totals read for it are the line's points: the markers (every 6th hand, rounded up
    # to the line's step of 2) add none.
    assert chart.sampled(100) == list(range(0, 101, 2))


def test_end_labels_do_not_overlap():
    # Every total equal (no hand) or close: the labels are nudged apart.
    for sheet in (build(5, 0, []), session(5, 1)):
        root = parse(chart.running_totals(sheet, NAMES))
        ys = sorted(
            float(text.get("y")) for text in root.findall(f".//{SVG}g[@class='label']/{SVG}text")
        )
        assert len(ys) == 5
        assert all(b - a >= chart.LABEL_GAP - 0.1 for a, b in pairwise(ys))
        assert all(0 <= y <= chart.HEIGHT for y in ys)


def test_end_labels_show_the_current_totals_with_a_true_minus():
    sheet = build(3, 0, [Hand(3, 0, "prise", 2, 46)])
    root = parse(chart.running_totals(sheet, ["Ana", "Ben", "Chloé"]))
    labels = ["".join(t.itertext()) for t in root.findall(f".//{SVG}g[@class='label']/{SVG}text")]
    assert labels == ["Ana +60", "Ben −30", "Chloé −30"]


def test_a_long_name_is_cut_in_its_label_only():
    name = "Maximilien-Alexandre de la Tour"
    sheet = session(3, 3)
    root = parse(chart.running_totals(sheet, [name, "B", "C"]))
    label = "".join(root.find(f".//{SVG}g[@class='label']/{SVG}text").itertext())
    assert "…" in label
    assert len(label) < 20
    assert name in root.find(f"{SVG}desc").text


def test_no_inline_style_for_the_content_security_policy():
    markup = chart.running_totals(session(5, 10), NAMES)
    assert "style=" not in markup
    assert "<style" not in markup
    assert "<script" not in markup


def test_a_long_session_is_drawn_through_at_most_61_points_with_the_last_one():
    import random

    rng = random.Random(3)
    hands = [
        Hand(seats=4, taker=rng.randrange(4), contract="garde", bouts=2, points=p)
        for p in (rng.randint(20, 70) for _ in range(1000))
    ]
    scored = build(4, 0, hands)
    svg = chart.running_totals(scored, ["A", "B", "C", "D"])
    lines = re.findall(r'<polyline points="([^"]*)"', svg)
    assert len(lines) == 4
    # The plot starts where the zero line does, after the score ticks.
    (left,) = re.findall(r'<line class="zero" x1="([^"]*)"', svg)
    for line in lines:
        points = line.split()
        # Every 17th hand of 1,000 (60 points at most) and the last one.
        assert len(points) == 60
        assert points[0].split(",")[0] == left
    assert len(svg) < 12_000


def test_the_plot_leaves_room_for_its_widest_score_tick():
    """Ticks of five digits ("+10000") need more room on the left than "+500" does."""
    small = chart.draw({0: (0, 0, 0), 1: (400, -200, -200)}, (400, -200, -200), ["A", "B", "C"])
    big = chart.draw(
        {0: (0, 0, 0), 1: (40000, -20000, -20000)}, (40000, -20000, -20000), NAMES[:3]
    )
    assert ">+40000</text>" in big
    zero = r'<line class="zero" x1="([^"]*)"'
    # 6 characters at 7.5 units each, beyond the 5-unit gap before the axis.
    assert float(re.findall(zero, big)[0]) >= 6 * 7.5 + 5
    assert float(re.findall(zero, small)[0]) == chart.LEFT
