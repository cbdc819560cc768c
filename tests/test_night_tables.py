"""A club night's table as its phone sees it (scoresheet/nights/tables.py, registered with
scoresheet/sheets/around.py): the night on every page of the table's session, named after the
night; a deal past the table's plan confirmed first, by the write path under the sheet's lock,
the hand views and the offline queue's answer; a passed deal counted or not; and the live poll
that follows a draw."""

import html
import json
import re
import uuid
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import Night, Sheet, SpentKey
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import around, writes
from tests.reading import numbered
from tests.test_concurrency import at_once

NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Farid", "Gaëlle", "Hugo", "Inès"]
# The offline queue's requests (docs/architecture.md, "What the queue reads").
QUEUE = {"HX-Request": "true", "Accept": "application/json"}
# A garde made with 2 bouts and 56 points (41 needed: made by 15), taken by seat 0 at 4:
# (25 + 15) × 2 = 80 a defender, 240 to the taker (docs/rules.md §2).
GARDE = {"taker": "0", "contract": "garde", "bouts": "2", "points": "56"}


@pytest.fixture
def club(db):
    return club_writes.create_club("Le jeudi", players=NAMES[:8]).club


def new_night(club, count=8, rounds=2, deals=2, name="Vendredi", minutes=None, **options):
    """Eight players: two tables of 4 (docs/club-night.md, "Sizes")."""
    return night_writes.create_night(
        club,
        name,
        date(2026, 12, 4),
        NAMES[:count],
        rounds,
        deals,
        minutes,
        seed="123456",
        **options,
    ).night


def table_sheet(night, round_number=1, table=1) -> Sheet:
    return Sheet.objects.get(
        club_sheet__night_table__night=night,
        club_sheet__night_table__round=round_number,
        club_sheet__night_table__table=table,
    )


def garde(seats=4, taker=0):
    return scoring.Hand(seats=seats, taker=taker, contract="garde", bouts=2, points=56)


def deal(sheet, hand="garde", beyond=False, key=None):
    """One deal stored by the write path: a garde, or a deal everyone passed (None)."""
    hand = garde() if hand == "garde" else hand
    return writes.add_hand(sheet.token, hand, key or uuid.uuid4(), beyond_plan=beyond)


def page_text(response) -> str:
    """What a page shows: its text, without markup (the printed sheet is streamed)."""
    body = (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode()
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def words(text: str) -> str:
    return " ".join(text.split())


# Its name


def test_a_table_is_named_after_its_night(club):
    night = new_night(club)
    assert table_sheet(night, 1, 1).name == "Vendredi · Round 1 · Table 1"
    assert table_sheet(night, 1, 2).name == "Vendredi · Round 1 · Table 2"
    for table in (1, 2):
        deal(table_sheet(night, 1, table))
        deal(table_sheet(night, 1, table))
    with translation.override("fr"):
        night_writes.draw_round(club, night, 2)
    # In the organiser's language, as the draw was asked for.
    assert table_sheet(night, 2, 2).name == "Vendredi · Manche 2 · Table 2"


def test_a_long_night_name_is_shortened_to_fit_a_session_s_name(club):
    # 80 characters of night, then " · Round 1 · Table 1" (20): the night keeps 59 and "…",
    # and the whole is a session's 80 characters at most.
    night = new_night(club, name="N" * 80)
    name = table_sheet(night).name
    assert name == "N" * 59 + "… · Round 1 · Table 1"
    assert len(name) == 80


def test_the_table_s_name_is_what_every_page_of_it_and_the_club_page_show(client, club):
    night = new_night(club)
    sheet = table_sheet(night)
    deal(sheet)
    for name in ("sheet", "summary", "print_sheet", "statistics"):
        assert "Vendredi · Round 1 · Table 1" in page_text(
            client.get(reverse(name, args=[sheet.token]))
        )
    assert "Vendredi · Round 1 · Table 1" in page_text(client.get(club.get_absolute_url()))


# The night on the table's pages


@pytest.mark.parametrize("name", ["sheet", "summary", "statistics", "print_sheet"])
@pytest.mark.parametrize("readonly", [False, True])
def test_every_page_of_a_table_shows_its_night_round_table_and_deal(client, club, name, readonly):
    night = new_night(club, rounds=5, deals=4)
    sheet = table_sheet(night, 1, 2)
    deal(sheet)
    deal(sheet)
    token = sheet.view_token if readonly else sheet.token
    shown = words(
        page_text(client.get(reverse(("view_" if readonly else "") + name, args=[token])))
    )
    # Two deals played of four: the third is being played.
    assert "Vendredi Round 1 of 5 · Table 2 Deal 3 of 4" in shown


def test_after_its_deals_the_round_is_over_for_the_table(client, club):
    night = new_night(club, deals=2)
    sheet = table_sheet(night)
    deal(sheet)
    shown = words(page_text(client.get(sheet.get_absolute_url())))
    assert "Deal 2 of 2" in shown
    assert "This round is over for this table." not in shown
    deal(sheet)
    shown = words(page_text(client.get(sheet.get_absolute_url())))
    assert "2 of 2 deals played" in shown
    assert "This round is over for this table." in shown
    # Round 2 is not drawn yet: the page says where its seats will show.
    assert "Where each player sits in round 2 shows here once it is drawn." in shown


def test_a_session_of_its_own_shows_no_night(client, sheet4):
    page = client.get(sheet4.get_absolute_url()).content.decode()
    assert 'id="night-line"' not in page
    assert 'id="night-status"' not in page
    assert 'data-around=""' in page


def test_once_the_next_round_is_drawn_each_player_s_table_shows(client, club):
    night = new_night(club, count=9, rounds=3, deals=1)
    for table in night.tables.filter(round=1):
        deal(table_sheet(night, 1, table.table), hand=garde(len(table.players)))
    # Ana leaves before round 2: she is in no table of it.
    ana = club.players.get(name="Ana")
    night_writes.leave(club, night, ana.pk)
    night_writes.draw_round(club, night, 2)
    names = dict(club.players.values_list("pk", "name"))
    going = {
        names[player]: table.table
        for table in Night.objects.get(pk=night.pk).tables.filter(round=2)
        for player in table.players
    }
    for table in night.tables.filter(round=1):
        shown = words(page_text(client.get(table_sheet(night, 1, table.table).get_absolute_url())))
        assert "Round 2: where you sit" in shown
        for player in table.players:
            name = names[player]
            if name == "Ana":
                assert "Ana: not in this round" in shown
            else:
                assert f"{name} → Table {going[name]}" in shown
    assert "Ana" not in going


def test_after_the_last_round_the_night_is_over_with_its_read_only_ranking(client, club):
    night = new_night(club, rounds=1, deals=1)
    sheet = table_sheet(night)
    deal(sheet)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "The night is over." in page
    ranking = reverse("view_night", args=[club.view_token, night.number])
    assert f'href="{ranking}"' in page
    # The table's phone holds its session's link, never the club's full one.
    assert club.token not in page
    assert client.get(ranking).status_code == 200


def test_the_live_poll_follows_a_draw(client, club, django_assert_num_queries):
    night = new_night(club, deals=1)
    sheet = table_sheet(night)
    deal(sheet)
    deal(table_sheet(night, 1, 2))
    page = client.get(sheet.get_absolute_url()).content.decode()
    marker = re.search(r'id="live"[^>]* data-revision="(\d+)" data-around="([^"]*)"', page)
    asked = {"revision": marker.group(1), "around": marker.group(2)}
    live = reverse("live", args=[sheet.token])
    with django_assert_num_queries(1):
        assert client.get(live, asked).status_code == 204
    night_writes.draw_round(club, night, 2)
    # The sheet did not move; the night did: one poll shows where its players go.
    assert Sheet.objects.get(pk=sheet.pk).revision == int(asked["revision"])
    answer = client.get(live, asked)
    assert answer.status_code == 200
    assert "→ Table" in answer.content.decode()
    assert 'id="night-status" class="night-status" aria-live="polite" hx-swap-oob="true"' in (
        answer.content.decode()
    )
    again = re.search(r'data-around="([^"]*)"', answer.content.decode()).group(1)
    assert again != asked["around"]
    assert client.get(live, {**asked, "around": again}).status_code == 204


# A deal past the plan: the write path


def test_a_deal_past_the_plan_is_refused_unconfirmed_and_nothing_is_written(club):
    night = new_night(club, deals=2)
    sheet = table_sheet(night)
    deal(sheet)
    deal(sheet)
    before = Sheet.objects.get(pk=sheet.pk)
    key = uuid.uuid4()
    with pytest.raises(writes.BeyondPlan) as refused:
        deal(sheet, key=key)
    assert (refused.value.planned, refused.value.number) == (2, 3)
    after = Sheet.objects.get(pk=sheet.pk)
    assert (after.hand_count, after.revision, after.totals) == (2, before.revision, before.totals)
    # Its key stays unspent: the same form, confirmed, stores it.
    assert not SpentKey.objects.filter(key=key).exists()
    change = deal(sheet, key=key, beyond=True)
    assert change.number == 3
    assert Sheet.objects.get(pk=sheet.pk).totals == [720, -240, -240, -240]


def test_a_passed_deal_counts_as_a_deal_by_default(club):
    night = new_night(club, deals=2)
    sheet = table_sheet(night)
    deal(sheet, hand=None)
    deal(sheet)
    with pytest.raises(writes.BeyondPlan):
        deal(sheet)
    with pytest.raises(writes.BeyondPlan):
        deal(sheet, hand=None)


def test_a_night_where_a_passed_deal_does_not_count(club):
    night = new_night(club, deals=2, passed_counts=False)
    sheet = table_sheet(night)
    deal(sheet, hand=None)
    deal(sheet)
    deal(sheet, hand=None)
    # Two passed, one played of two: one more deal without asking.
    deal(sheet)
    with pytest.raises(writes.BeyondPlan) as refused:
        deal(sheet, hand=None)
    assert refused.value.number == 3
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 4


def test_a_session_of_its_own_has_no_plan(sheet4):
    for _hand in range(6):
        writes.add_hand(sheet4.token, garde(), uuid.uuid4())
    assert Sheet.objects.get(pk=sheet4.pk).hand_count == 6
    assert around.plan_of(sheet4) is None


@pytest.mark.django_db(transaction=True)
def test_two_phones_saving_the_last_planned_deal_at_once_store_it_once(concurrent_db):
    club = club_writes.create_club("Le jeudi", players=NAMES[:8]).club
    night = new_night(club, deals=2)
    sheet = table_sheet(night)
    deal(sheet)

    def save():
        try:
            return deal(sheet).number
        except writes.BeyondPlan as error:
            return f"beyond {error.number}"

    # Under the sheet's lock, the second sees the first's deal: the table has played its 2.
    assert sorted(at_once(save, save), key=str) == [2, "beyond 3"]
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 2


# A deal past the plan: the hand views and the offline queue's answer


def test_the_form_asks_before_a_deal_past_the_plan_and_stores_it_once_confirmed(club):
    night = new_night(club, deals=2)
    sheet = table_sheet(night)
    deal(sheet)
    deal(sheet)
    phone = Client()
    new = reverse("hand_new", args=[sheet.token])
    opened = phone.get(new).content.decode()
    # The question is in the form from the start, hidden until Save (offline/save.js).
    assert re.search(r'id="beyond-plan"[^>]* hidden', opened)
    data = {"key": str(uuid.uuid4()), **GARDE, "save": ""}
    asked = phone.post(new, data)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert not re.search(r'id="beyond-plan"[^>]* hidden', page)
    assert "This table has played its 2 deals. Save deal <span data-deal-next>3</span>?" in page
    assert 'name="beyond_plan" value="hand"' in page
    assert "Beyond the plan: this table has played its 2 deals" in page
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 2
    # Yes: the question's button sends the same form, confirmed.
    confirmed = {k: v for k, v in data.items() if k != "save"} | {"beyond_plan": "hand"}
    stored = phone.post(new, confirmed)
    assert stored.status_code == 302
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 3


def test_htmx_gets_the_question_with_422_and_a_passed_deal_is_confirmed_as_passed(club, htmx):
    night = new_night(club, deals=1)
    sheet = table_sheet(night)
    deal(sheet)
    new = reverse("hand_new", args=[sheet.token])
    data = {"key": str(uuid.uuid4()), "passed": "1"}
    asked = htmx.post(new, data)
    assert asked.status_code == 422
    assert 'name="beyond_plan" value="passed"' in asked.content.decode()
    stored = htmx.post(new, {"key": data["key"], "beyond_plan": "passed"})
    assert stored.status_code == 200
    assert json.loads(stored["HX-Trigger"]) == {"hand-stored": {}}
    assert list(numbered(sheet).values_list("number", "passed")) == [
        (1, False),
        (2, True),
    ]


def test_the_queue_is_answered_a_deal_past_the_plan_as_data_naming_the_field(club):
    night = new_night(club, deals=1)
    sheet = table_sheet(night)
    deal(sheet)
    new = reverse("hand_new", args=[sheet.token])
    data = {"key": str(uuid.uuid4()), **GARDE}
    response = Client().post(new, data, headers=QUEUE)
    assert response.status_code == 422
    answer = response.json()
    assert answer["outcome"] == "refused"
    # The field named, and why: the phone asks, then sends it again with beyond_plan.
    assert list(answer["errors"]) == ["beyond_plan"]
    assert answer["errors"]["beyond_plan"] == [
        "Beyond the plan: this table has played its 1 deal; deal 2 is saved only once confirmed."
    ]
    again = Client().post(new, {**data, "beyond_plan": "1"}, headers=QUEUE)
    assert again.status_code == 200
    assert again.json()["outcome"] == "stored"
    assert again.json()["number"] == 2
    assert again.json()["scores"] == [240, -80, -80, -80]


def test_the_sheet_s_state_carries_its_plan_for_the_offline_code(client, club, sheet4):
    night = new_night(club, deals=3, passed_counts=False)
    sheet = table_sheet(night)
    deal(sheet, hand=None)

    def state(page) -> dict:
        found = re.search(r'<section id="totals"[^>]* data-sheet="([^"]*)"', page)
        return json.loads(html.unescape(found.group(1)))

    shown = state(client.get(sheet.get_absolute_url()).content.decode())
    assert shown["plan"] == {"deals": 3, "passed_counts": False, "passed": 1}
    assert shown["hand_count"] == 1
    assert state(client.get(sheet4.get_absolute_url()).content.decode())["plan"] is None
