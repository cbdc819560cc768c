"""House rules and table sizes in the app (docs/rules.md §6): chosen with the session, stored on
it, applied to every hand, changed later with one re-scoring; the dealer sitting out; misère."""

import json
import re
import uuid

import pytest
from django.urls import reverse

from scoresheet import scoring
from scoresheet.files import session_backup as backup
from scoresheet.models import Sheet
from scoresheet.sheets import writes
from tests.reading import hand_numbered, numbered, rescored, shown_totals

pytestmark = pytest.mark.django_db

SIX = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny"]


def url(name, sheet, *args):
    return reverse(name, args=[sheet.token, *args])


def text(response):
    return response.content.decode()


def new_session(client, names, first_dealer=0, **rules):
    data = {"players": str(len(names)), "first_dealer": str(first_dealer), "name": "Maison"}
    data |= {f"player_{seat}": name for seat, name in enumerate(names)}
    data |= {name: str(value) for name, value in rules.items()}
    response = client.post(reverse("new_sheet"), data)
    assert response.status_code == 302, response.context["form"].errors
    return Sheet.objects.get(token=response["Location"].split("/")[2])


def save(client, sheet, **fields):
    data = {"key": str(uuid.uuid4()), **{k: str(v) for k, v in fields.items()}}
    return client.post(url("hand_new", sheet), data)


def test_a_new_session_is_fft_by_default(client):
    sheet = new_session(client, SIX[:4])
    assert sheet.game_rules == scoring.FFT
    page = text(client.get(sheet.get_absolute_url()))
    assert "Rules: FFT" in page


def test_six_seats_always_have_the_dealer_sitting_out(client):
    sheet = new_session(client, SIX, first_dealer=5, poignees="20-40-60")
    assert sheet.game_rules == scoring.Rules(poignees="20-40-60", dealer_sits_out=True)
    page = text(client.get(sheet.get_absolute_url()))
    assert "Poignées 20/40/60\u00a0· Dealer sits out" in page
    assert "Hand 1: <strong>Fanny</strong> deals and sits out" in page


def test_a_house_rule_value_not_in_the_table_is_refused(client):
    data = {"players": "4", "first_dealer": "0", "rounding": "7"}
    data |= {f"player_{seat}": name for seat, name in enumerate(SIX[:4])}
    response = client.post(reverse("new_sheet"), data)
    assert response.status_code == 200
    assert "Rounding: choose none, 5 or 10." in text(response)
    assert not Sheet.objects.exists()


def test_h5_six_seats_with_the_dealer_out(client):
    """docs/rules.md H5: 6 seats, dealer seat 5; prise, 1 bout, 55, partner seat 2."""
    sheet = new_session(client, SIX, first_dealer=5)
    form = text(client.get(url("hand_new", sheet)))
    # The form offers no role to the seat sitting out, and says who it is.
    assert "Fanny deals and sits out" in form
    assert not re.search(r'name="taker" value="5"', form)
    assert not re.search(r'name="partner" value="5"', form)
    response = save(client, sheet, taker=0, contract="prise", bouts=1, points=55, partner=2)
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.hands.get().scores == [58, -29, 29, -29, -29, 0]
    page = text(client.get(sheet.get_absolute_url()))
    assert shown_totals(page) == (58, -29, 29, -29, -29, 0)
    assert "Fanny deals and sits out" in page
    assert "Fanny sits out" in page
    # The deal moves on: Ana deals hand 2 and sits out.
    assert "Hand 2: <strong>Ana</strong> deals and sits out" in page


def test_h6_five_seats_dealer_out_with_misere(client):
    """docs/rules.md H6: 5 seats, dealer seat 4 sits out, misère 10; prise, 1 bout, 60,
    misère by seat 2: +92, −44, −4, −44, 0."""
    sheet = new_session(client, SIX[:5], first_dealer=4, misere=10, dealer_sits_out="on")
    form = text(client.get(url("hand_new", sheet)))
    assert 'name="misere_2"' in form
    assert 'name="misere_4"' not in form  # the dealer sits out: no misère either
    # 4 play: no partner to call.
    assert 'name="partner"' not in form
    save(client, sheet, taker=0, contract="prise", bouts=1, points=60, misere_2=1)
    sheet.refresh_from_db()
    assert sheet.totals == [92, -44, -4, -44, 0]
    page = text(client.get(sheet.get_absolute_url()))
    assert "misère · Chloé" in page
    assert "10 misère × 3 (Chloé)" in page


def test_h1_rounding_to_10_through_the_form(client):
    """docs/rules.md H1: 4 seats, rounding 10; garde, 2 bouts, 49 (made by 8 → 10)."""
    sheet = new_session(client, SIX[:4], rounding=10)
    save(client, sheet, taker=0, contract="garde", bouts=2, points=49)
    sheet.refresh_from_db()
    assert sheet.totals == [210, -70, -70, -70]
    assert "(25 + 8 → 10) × 2" in text(client.get(sheet.get_absolute_url()))


def test_a_role_for_the_seat_sitting_out_is_refused_naming_the_field(client):
    sheet = new_session(client, SIX, first_dealer=5)
    response = save(client, sheet, taker=5, contract="prise", bouts=1, points=55, partner=2)
    assert response.status_code == 200
    assert "Taker" in str(response.context["form"].errors["taker"])
    response = save(client, sheet, taker=0, contract="prise", bouts=1, points=55, partner=5)
    assert "partner" in response.context["form"].errors
    assert not sheet.hands.exists()


def test_a_form_sent_twice_stores_one_hand_when_the_dealer_sits_out(client, htmx):
    """Sent again, the form's hand would be dealt by the next dealer, who sits out and is its
    taker: it is still the same hand, stored once, never a refusal."""
    sheet = new_session(client, SIX[:5], first_dealer=0, dealer_sits_out="on")
    data = {"key": str(uuid.uuid4()), "taker": "1", "contract": "prise", "bouts": "1"}
    data["points"] = "60"
    assert client.post(url("hand_new", sheet), data).status_code == 302
    again = htmx.post(url("hand_new", sheet), data)
    assert again.status_code == 200
    assert "Taker" not in text(again)
    assert sheet.hands.count() == 1


def test_a_misere_when_the_session_has_none_is_not_offered(client):
    sheet = new_session(client, SIX[:4])
    assert 'name="misere_' not in text(client.get(url("hand_new", sheet)))


def test_the_edit_form_corrects_the_dealer(client):
    sheet = new_session(client, SIX[:5], first_dealer=0, dealer_sits_out="on")
    for taker in (1, 2, 3):
        save(client, sheet, taker=taker, contract="prise", bouts=1, points=60)
    first = hand_numbered(sheet, 1)
    assert first.dealer == 0
    # Really Élise (seat 4) dealt and sat out hand 1: Ana played it.
    data = {
        "key": str(first.key),
        "version": "1",
        "dealer": "4",
        "taker": "0",
        "contract": "prise",
        "bouts": "1",
        "points": "60",
    }
    response = client.post(url("hand_edit", sheet, 1), data)
    assert response.status_code == 302
    assert list(numbered(sheet).values_list("dealer", flat=True)) == [4, 1, 2]
    sheet.refresh_from_db()
    # prise, 1 bout, 60: (25 + 9) × 1 = 34 per defender, ×3 to the taker; 4 play.
    assert hand_numbered(sheet, 1).scores == [102, -34, -34, -34, 0]
    assert sheet.totals == list(rescored(sheet).totals)


# Changing the rules mid-session


def test_changing_the_rules_shows_the_new_totals_then_rescores_in_one_step(client):
    sheet = new_session(client, SIX[:4])
    save(client, sheet, taker=0, contract="garde", bouts=2, points=49)
    save(client, sheet, taker=1, contract="prise", bouts=0, points=59)
    sheet.refresh_from_db()
    # FFT: (25 + 8) × 2 = 66 and (25 + 3) × 1 = 28 per defender.
    assert sheet.totals == [198 - 28, -66 + 84, -94, -94]
    page = text(client.get(url("rules", sheet)))
    assert "re-scores the 2 hands already played" in page

    # docs/rules.md Q1–Q2 (R1–R2 under rounding 5): made by 8 → 10, made by 3 → 5.
    preview = client.post(url("rules", sheet), {"rounding": "5", "preview": "1"})
    shown = text(preview)
    assert "Totals under Differences rounded to 5" in shown
    assert re.search(r"Ana</span> <span[^>]*>\+180<", shown)  # 3 × 70 − 30
    sheet.refresh_from_db()
    assert sheet.rules == scoring.FFT.to_data()  # nothing changed yet
    revision = sheet.revision

    response = client.post(
        url("rules", sheet), {"rounding": "5", "confirm": "1", "revision": str(revision)}
    )
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.game_rules == scoring.Rules(rounding=5)
    assert sheet.revision == revision + 1
    assert sheet.totals == [210 - 30, -70 + 90, -100, -100]
    assert [hand.scores for hand in numbered(sheet)] == [
        [210, -70, -70, -70],
        [-30, 90, -30, -30],
    ]


def test_a_confirmation_after_another_change_shows_the_totals_again(client):
    sheet = new_session(client, SIX[:4])
    save(client, sheet, taker=0, contract="garde", bouts=2, points=49)
    sheet.refresh_from_db()
    stale = str(sheet.revision)
    save(client, sheet, taker=1, contract="garde", bouts=2, points=49)
    response = client.post(
        url("rules", sheet), {"rounding": "10", "confirm": "1", "revision": stale}
    )
    assert response.status_code == 200
    assert "Hands were entered or corrected meanwhile" in text(response)
    sheet.refresh_from_db()
    assert sheet.game_rules == scoring.FFT


def test_rules_a_stored_hand_breaks_are_refused_naming_the_hand(client):
    sheet = new_session(client, SIX[:5])
    save(client, sheet, taker=0, contract="prise", bouts=1, points=60, partner=2)
    sheet.refresh_from_db()
    before = (sheet.revision, sheet.totals)
    # With the dealer sitting out, 4 play hand 1: there is no partner to call.
    response = client.post(url("rules", sheet), {"dealer_sits_out": "on", "preview": "1"})
    assert response.status_code == 200
    assert "Hand 1: Partner" in text(response)
    with pytest.raises(writes.HandRefused) as refused:
        writes.change_rules(sheet.token, scoring.Rules(dealer_sits_out=True))
    assert refused.value.number == 1
    sheet.refresh_from_db()
    assert (sheet.revision, sheet.totals) == before


def test_the_read_only_link_cannot_change_the_rules(client):
    sheet = new_session(client, SIX[:4])
    assert client.get(reverse("rules", args=[sheet.view_token])).status_code == 404
    assert "change</a>" not in text(client.get(sheet.get_view_url()))


# Files


def test_backup_round_trips_rules_dealers_and_miseres(client):
    sheet = new_session(client, SIX, first_dealer=2, misere=20, rounding=10)
    save(client, sheet, taker=0, contract="garde", bouts=2, points=49, partner=1, misere_3=2)
    save(client, sheet, passed=1)
    # Hand 2 was really dealt by Fanny: corrected.
    second = hand_numbered(sheet, 2)
    client.post(
        url("hand_edit", sheet, 2),
        {"key": str(second.key), "version": "1", "dealer": "5", "passed": "1"},
    )
    data = backup.dump(sheet)
    assert data["rules"] == {
        "poignees": "20-30-40",
        "rounding": 10,
        "misere": 20,
        "dealer_sits_out": True,
    }
    assert [hand["dealer"] for hand in data["hands"]] == [2, 5]
    assert data["hands"][0]["miseres"] == {"3": 2}
    sheet.refresh_from_db()
    # Made by 8 → 10: (25 + 10) × 2 = 70 per defender, 5 play (Chloé deals and sits out);
    # Dan's 2 misères are worth 2 × 20 from each of the 4 others.
    assert sheet.totals == [140 - 40, 70 - 40, 0, -70 + 160, -70 - 40, -70 - 40]
    restored = backup.load(backup.dumps(data))
    assert backup.dump(restored) | {"created": data["created"]} == data
    assert restored.totals == sheet.totals
    # The next dealer follows the last hand's, as on the original.
    assert restored.next_dealer == 0


def test_a_backup_giving_a_role_to_the_seat_sitting_out_is_refused(make_backup):
    data = make_backup(5)
    data["rules"] = {"dealer_sits_out": True}
    data["hands"] = [
        {
            "dealer": 2,
            "taker": 2,
            "contract": "prise",
            "bouts": 1,
            "points": 60,
            "partner": None,
            "petit_au_bout": None,
            "poignees": {},
            "chelem": None,
            "defence_chelem": False,
        }
    ]
    with pytest.raises(backup.BackupError) as refused:
        backup.read(json.dumps(data))
    assert refused.value.hand == 1
    assert refused.value.message.startswith("Hand 1: Taker")


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"rounding": 3}, "Rounding"),
        ({"misère": 10}, "no rule “misère”"),
        ({"dealer_sits_out": "yes"}, "Dealer sits out"),
    ],
)
def test_a_backup_with_an_unknown_rule_or_value_is_refused_naming_it(make_backup, rules, message):
    data = make_backup(5)
    data["rules"] = rules
    with pytest.raises(backup.BackupError) as refused:
        backup.read(json.dumps(data))
    assert refused.value.field == "rules"
    assert message in refused.value.message


def test_an_old_backup_without_dealers_or_rules_still_imports(make_backup):
    data = make_backup(4, written=False)
    assert "dealer" not in data["hands"][0]
    assert data["rules"] == {}
    sheet = backup.load(json.dumps(data))
    first = data["first_dealer"]
    assert list(numbered(sheet).values_list("dealer", flat=True)) == [
        (first + number) % 4 for number in range(len(data["hands"]))
    ]
    assert sheet.game_rules == scoring.FFT


def test_the_csv_shows_the_rules_and_the_miseres(client):
    sheet = new_session(client, SIX[:4], misere=10, poignees="20-40-60")
    save(client, sheet, taker=0, contract="prise", bouts=1, points=60, misere_2=1)
    body = b"".join(client.get(url("export_csv", sheet)).streaming_content).decode("utf-8-sig")
    lines = body.split("\r\n")
    assert lines[-2] == '"Rules","Poignées 20/40/60; Misère 10"'
    # docs/rules.md H4: +92, −44, −4, −44; the Misère column names who announced.
    assert lines[1].endswith('"Chloé: 1",92,-44,-4,-44')


# Fields the table does not have: refused by name, never dropped


@pytest.mark.parametrize(
    ("seats", "rules", "field", "message"),
    [
        # 6 seats, Fanny deals: she sits out and shows no poignée.
        (6, {}, {"poignee_5": "simple"}, "Poignée: the dealer sits out this hand"),
        # 5 seats with the dealer out and misère: Élise deals, and announces none.
        (
            5,
            {"dealer_sits_out": "on", "misere": "10"},
            {"misere_4": "1"},
            "Misère: the dealer sits out this hand, so announces no misère.",
        ),
        (4, {}, {"misere_1": "1"}, "Misère: this session plays without misère."),
        (4, {}, {"poignee_7": "simple"}, "Poignée: seat 7 is not at the table."),
        (4, {}, {"partner": "1"}, "Partner: there is a partner only at 5 players."),
        (6, {}, {"partner": "5"}, "Partner: the dealer sits out this hand, so cannot be called."),
        (6, {}, {"taker": "5"}, "Taker: the dealer sits out this hand, so cannot take."),
    ],
)
def test_a_field_the_table_does_not_have_is_refused_naming_it(
    client, htmx, seats, rules, field, message
):
    sheet = new_session(client, SIX[:seats], first_dealer=seats - 1, **rules)
    hand = {"taker": 0, "contract": "garde", "bouts": 2, "points": 51}
    if seats - (1 if seats == 6 or rules.get("dealer_sits_out") else 0) == 5:
        hand["partner"] = 1
    response = save(client, sheet, **(hand | field))
    assert response.status_code == 200
    assert message in text(response)
    assert not sheet.hands.exists()
    # The live preview says the same, instead of a row without the field.
    preview = htmx.post(url("hand_preview", sheet), {"key": str(uuid.uuid4())} | hand | field)
    assert message in text(preview)


def test_a_backup_giving_a_poignee_or_a_misere_to_the_dealer_sitting_out_is_refused(
    make_backup,
):
    data = make_backup(5)
    data["rules"] = {"dealer_sits_out": True, "misere": 10}
    hand = {
        "dealer": 2,
        "taker": 0,
        "contract": "prise",
        "bouts": 1,
        "points": 60,
        "partner": None,
        "petit_au_bout": None,
        "poignees": {},
        "chelem": None,
        "defence_chelem": False,
    }
    for extra, field in [
        ({"poignees": {"2": "simple"}}, "poignees"),
        ({"miseres": {"2": 1}}, "miseres"),
    ]:
        data["hands"] = [hand | extra]
        with pytest.raises(backup.BackupError) as refused:
            backup.read(json.dumps(data))
        assert (refused.value.hand, refused.value.field) == (1, field)
        assert "the dealer sits out this hand" in refused.value.message
    data = make_backup(4)
    data["hands"][0]["partner"] = 1
    with pytest.raises(backup.BackupError) as refused:
        backup.read(json.dumps(data))
    assert refused.value.message == "Hand 1: Partner: there is a partner only at 5 players."


def test_a_change_of_rules_from_an_older_revision_is_refused_under_the_lock(sheet4):
    writes.add_hand(sheet4.token, scoring.Hand(4, 0, "garde", 2, 49), uuid.uuid4())
    shown = Sheet.objects.get(pk=sheet4.pk).revision
    writes.add_hand(sheet4.token, scoring.Hand(4, 1, "garde", 2, 49), uuid.uuid4())
    change = writes.change_rules(sheet4.token, scoring.Rules(rounding=10), shown)
    assert (change.done, change.conflict) == (False, True)
    assert change.sheet.revision == shown + 1
    stored = Sheet.objects.get(pk=sheet4.pk)
    assert (stored.game_rules, stored.revision) == (scoring.FFT, shown + 1)
    change = writes.change_rules(sheet4.token, scoring.Rules(rounding=10), shown + 1)
    assert change.done
    # Two gardes made by 8, rounded to 10: 70 a defender each.
    assert Sheet.objects.get(pk=sheet4.pk).totals == [140, 140, -140, -140]


def test_a_stale_confirmation_shows_the_current_totals_again(client):
    sheet = new_session(client, SIX[:4])
    save(client, sheet, taker=0, contract="garde", bouts=2, points=49)
    stale = str(Sheet.objects.get(pk=sheet.pk).revision)
    save(client, sheet, taker=1, contract="garde", bouts=2, points=49)
    response = client.post(
        url("rules", sheet), {"rounding": "10", "confirm": "1", "revision": stale}
    )
    page = text(response)
    assert "Hands were entered or corrected meanwhile" in page
    # Now, with both hands (66 a defender each under FFT), and under rounding to 10 (70).
    assert response.context["comparison"] == [
        ("Ana", 132, 140),
        ("Ben", 132, 140),
        ("Chloé", -132, -140),
        ("Dan", -132, -140),
    ]
    current = Sheet.objects.get(pk=sheet.pk).revision
    assert f'name="revision" value="{current}"' in page
    # A confirmation with no revision, or one no page sends, is a bad request: the totals come
    # back to confirm again, and nothing changes.
    for revision in ({}, {"revision": "x"}, {"revision": "²"}, {"revision": "1_0"}):
        response = client.post(url("rules", sheet), {"rounding": "10", "confirm": "1"} | revision)
        assert response.status_code == 400
        page = text(response)
        assert "This form had expired; check the new totals and confirm again." in page
        assert f'name="revision" value="{current}"' in page
    assert Sheet.objects.get(pk=sheet.pk).game_rules == scoring.FFT
