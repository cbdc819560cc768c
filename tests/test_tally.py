"""Saving a hand answers with totals kept per revision: they must always be the real ones."""

import random
import uuid

import pytest
from django.core.cache import caches

from scoresheet import tally
from tests.reading import shown_totals, totals_of

pytestmark = pytest.mark.django_db

HANDS = [
    {"taker": 2, "contract": "garde", "bouts": 2, "points": 49, "petit_au_bout": "attack"},
    {"taker": 3, "contract": "garde_sans", "bouts": 1, "points": 55},
    {"taker": 1, "contract": "prise", "bouts": 0, "points": 49, "poignee_1": "simple"},
    {"taker": 0, "contract": "garde_contre", "bouts": 3, "points": 47},
]


def post(client, path, data, **headers):
    return client.post(path, {k: str(v) for k, v in data.items()}, **headers)


def test_every_answer_shows_the_real_totals_whatever_happened_before(
    client, htmx, sheet4, django_capture_on_commit_callbacks
):
    """Saves (served from the kept tally), corrections, deletions, undos and double taps,
    in a random order: after each, the totals shown are those of the stored hands."""
    rng = random.Random(7)
    base = f"/s/{sheet4.token}/"
    for step in range(60):
        action = rng.choice(["save", "save", "save", "edit", "delete", "undo", "again"])
        hands = list(sheet4.hands.all())
        with django_capture_on_commit_callbacks(execute=True):
            if action in ("save", "again") or not hands:
                data = {"key": str(uuid.uuid4()), **rng.choice(HANDS)}
                response = post(htmx, base + "hands/new/", data)
                if action == "again":
                    response = post(htmx, base + "hands/new/", data)
            elif action == "edit":
                number = rng.randrange(len(hands)) + 1
                hand = hands[number - 1]
                data = {"key": hand.key, "version": hand.version, **rng.choice(HANDS)}
                response = post(htmx, base + f"hands/{number}/edit/", data)
            elif action == "delete":
                number = rng.randrange(len(hands)) + 1
                response = post(
                    htmx, base + f"hands/{number}/delete/", {"key": hands[number - 1].key}
                )
            else:
                response = post(htmx, base + "undo/", {"key": hands[-1].key})
        assert response.status_code == 200, (step, action)
        assert shown_totals(response.content.decode()) == totals_of(sheet4), (step, action)
    assert sheet4.hands.count() > 5


def test_a_save_after_a_correction_does_not_use_the_totals_from_before_it(
    client, htmx, sheet4, django_capture_on_commit_callbacks
):
    base = f"/s/{sheet4.token}/"
    with django_capture_on_commit_callbacks(execute=True):
        post(htmx, base + "hands/new/", {"key": uuid.uuid4(), **HANDS[0]})
    hand = sheet4.hands.get()
    with django_capture_on_commit_callbacks(execute=True):
        post(client, base + "hands/1/edit/", {"key": hand.key, "version": 1, **HANDS[3]})
    with django_capture_on_commit_callbacks(execute=True):
        response = post(htmx, base + "hands/new/", {"key": uuid.uuid4(), **HANDS[1]})
    assert shown_totals(response.content.decode()) == totals_of(sheet4)


def test_the_tally_is_kept_per_revision_and_only_once_committed(
    sheet4, django_capture_on_commit_callbacks
):
    sheet4.revision = 7
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        tally.keep(sheet4, tally.Tally(3, (1, 2, 3, -6)))
    assert caches["tally"].get(f"tally:{sheet4.token}:7") is None
    callbacks[0]()
    assert tally.current(sheet4) == tally.Tally(3, (1, 2, 3, -6))
    sheet4.revision = 8
    assert tally.current(sheet4) == tally.Tally(0, (0, 0, 0, 0))


@pytest.mark.django_db(transaction=True)
def test_saving_a_hand_costs_the_same_queries_at_two_sizes(
    htmx, make_sheet, django_assert_max_num_queries
):
    """Outside a test transaction, as in production: no savepoints, commits run."""
    sheet = make_sheet()
    base = f"/s/{sheet.token}/"
    counts = []
    for size in (5, 60):
        while sheet.hands.count() < size:
            post(htmx, base + "hands/new/", {"key": uuid.uuid4(), **HANDS[0]})
        with django_assert_max_num_queries(6) as captured:
            response = post(htmx, base + "hands/new/", {"key": uuid.uuid4(), **HANDS[1]})
        counts.append(len(captured.captured_queries))
        assert shown_totals(response.content.decode()) == totals_of(sheet)
    assert counts[0] == counts[1]


def test_sheet_page_queries_at_two_sizes(client, htmx, sheet4, django_assert_max_num_queries):
    base = f"/s/{sheet4.token}/"
    counts = []
    for size in (3, 130):
        while sheet4.hands.count() < size:
            post(htmx, base + "hands/new/", {"key": uuid.uuid4(), **HANDS[2]})
        with django_assert_max_num_queries(8) as captured:
            page = client.get(base).content.decode()
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1]
    # The page shows the latest 100 hands and links to the others.
    assert 'id="hand-130"' in page
    assert 'id="hand-30"' not in page
    assert "Show the 30 earlier hands" in page
    every = client.get(base + "?all").content.decode()
    assert 'id="hand-1"' in every
    assert shown_totals(every) == shown_totals(page) == totals_of(sheet4)
