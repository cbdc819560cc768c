"""Names (scoresheet/player_names.py): one function decides what a player's name is
and when two are the same, and every place that takes a name uses it. Characters that show
nothing (Unicode's default-ignorable code points) are removed, those that look blank are a
space: a second player who looks like the first is refused everywhere, naming the field.

The look-alikes are the issue's: U+3164 (Hangul filler), U+034F (combining grapheme joiner),
U+2800 (braille blank), and their kin; and letters of another script that look the same
(Unicode's confusables, UTS #39): a Cyrillic А or a Greek Α for a Latin A.
"""

import json
import unicodedata
import uuid
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from scoresheet import player_names
from scoresheet.clubs import standings as clubs
from scoresheet.clubs import writes as club_writes
from scoresheet.files import club_backup
from scoresheet.files import session_backup as backup
from scoresheet.models import Club, ClubPlayer, Seat, Sheet
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import writes
from tests.conftest import BACKUPS

# Each a second "Ana" to the eye.
LOOK_ALIKES = [
    "Ana\u3164",  # Hangul filler after it
    "\u3164Ana",
    "An\u034fa",  # combining grapheme joiner inside
    "Ana\u2800",  # braille blank
    "\u115fAna\u1160",  # Hangul choseong and jungseong fillers
    "Ana\uffa0",  # halfwidth Hangul filler
    "A\ufe0fna",  # variation selector 16
    "Ana\U000e0041",  # tag latin capital A
    "A\u200bna",  # zero-width space
    "A\u00adna",  # soft hyphen
    "A\u180ena",  # Mongolian vowel separator
]
# Blank-looking characters between two words: one space, as a space typed there.
BETWEEN = ["\u3164", "\u2800", "\u115f", "\u1160", "\uffa0", "\u3164\u2800 \u3164"]


# The one function


@pytest.mark.parametrize("typed", LOOK_ALIKES)
def test_a_look_alike_is_cleaned_to_the_name_and_has_its_key(typed):
    assert player_names.clean(typed) == "Ana"
    assert player_names.key(typed) == player_names.key("ANA") == "ana"


@pytest.mark.parametrize("blank", BETWEEN)
def test_a_blank_looking_character_is_a_space(blank):
    assert player_names.clean(f"Anne{blank}Marie") == "Anne Marie"
    assert player_names.key(f"Anne{blank}Marie") == player_names.key("anne marie")


@pytest.mark.parametrize("blank", [*BETWEEN, "\u034f", "\u200b\ufe0f", "\U000e0020"])
def test_a_name_of_nothing_visible_is_blank(blank):
    assert player_names.clean(blank) == ""
    with pytest.raises(player_names.InvalidName) as refused:
        player_names.checked(blank)
    assert refused.value.reason == "blank"


def test_every_default_ignorable_code_point_is_removed():
    """Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): a sample from each
    of its ranges, the unassigned ones too."""
    ignorable = [
        "\u00ad",
        "\u034f",
        "\u061c",
        "\u115f",
        "\u17b4",
        "\u180b",
        "\u180f",
        "\u200b",
        "\u200f",
        "\u202a",
        "\u2060",
        "\u206f",
        "\u3164",
        "\ufe00",
        "\ufe0f",
        "\ufeff",
        "\uffa0",
        "\ufff0",
        "\U0001bca0",
        "\U0001d173",
        "\U000e0000",
        "\U000e0fff",
    ]
    for char in ignorable:
        assert player_names.clean(f"A{char}na") in ("Ana", "A na"), hex(ord(char))
        assert player_names.key(f"A{char}na") in ("ana", "a na"), hex(ord(char))


def test_what_stays_a_different_name():
    # Case folding as Unicode does it: "İ" is i + a combining dot, never "i" alone.
    assert player_names.key("İVAN") != player_names.key("Ivan")
    # An accent is a letter's: "Ana" and "Aná", "Chloé" and "Chloe" are two players.
    assert player_names.key("Aná") != player_names.key("Ana")
    assert player_names.key("Chloé") != player_names.key("Chloe")
    # A letter of another script that looks like no Latin one is another name.
    assert player_names.key("Жана") != player_names.key("Жано")
    assert player_names.key("Λena") != player_names.key("Lena")
    assert player_names.clean("  Anne   Marie ") == "Anne Marie"


# Look-alikes across scripts: the confusable skeleton (UTS #39), as ICU computes it. Each pair
# is the same name to the eye: the second is written with letters of another script.
ACROSS_SCRIPTS = [
    ("Anna", "\u0410nna"),  # Cyrillic capital А
    ("Anna", "\u0391nna"),  # Greek capital Alpha
    ("Olga", "\u039flga"),  # Greek capital Omicron
    ("O", "\u039f"),  # the Greek letter alone
    ("Paul", "\u0420aul"),  # Cyrillic capital Р
    ("Pepe", "\u0420\u0435\u0440\u0435"),  # Cyrillic Р, е, р, е: not one Latin letter
    ("Coco", "\u0421\u043e\u0441\u043e"),  # Cyrillic С, о, с, о
    ("Ana", "\uff21na"),  # a fullwidth Ａ (NFKC, as before)
    ("Ana", "\U0001d400na"),  # mathematical bold 𝐀
]


@pytest.mark.parametrize(("first", "second"), ACROSS_SCRIPTS)
def test_a_look_alike_in_another_script_has_the_same_key(first, second):
    assert player_names.clean(second) == unicodedata.normalize("NFC", second)
    assert player_names.key(second) == player_names.key(first)
    assert player_names.key(second.upper()) == player_names.key(first.lower())


def test_the_key_is_a_fixed_point_for_every_letter_of_the_scripts_that_look_latin():
    """Folding and the skeleton run until nothing moves: a key's key is itself, for every
    code point of Latin, Greek, Cyrillic, Armenian, Cherokee, the letterlike symbols, the
    mathematical alphanumerics and the fullwidth forms, between two letters."""
    blocks = [
        (0x0000, 0x0600),
        (0x13A0, 0x1400),
        (0x1D00, 0x2200),
        (0xFF00, 0xFFF0),
        (0x1D400, 0x1D800),
    ]
    for start, end in blocks:
        for code in range(start, end):
            key = player_names.key(f"a{chr(code)}b")
            assert player_names.key(key) == key, hex(code)


@pytest.mark.parametrize(
    "marks", ["\u0301", "\u0301\u0308", " \u0300 \u0327 ", "\u20dd", "\u0903"]
)
def test_a_name_of_combining_marks_alone_is_blank(marks):
    assert player_names.clean(marks) == ""
    with pytest.raises(player_names.InvalidName) as refused:
        player_names.checked(marks)
    assert refused.value.reason == "blank"


def test_a_name_with_a_letter_under_its_marks_is_a_name():
    assert player_names.checked("e\u0301") == "é"
    assert player_names.checked("\u0301e") == "\u0301e"


def test_the_rule_for_a_valid_name_is_one():
    assert player_names.checked(" Ana ") == "Ana"
    assert player_names.checked("x" * player_names.PLAYER_LENGTH) == "x" * 40
    with pytest.raises(player_names.InvalidName) as refused:
        player_names.checked("x" * 41)
    assert (refused.value.reason, refused.value.length) == ("long", 40)
    # A session's name: 80, and it may be left blank where the form fills it in.
    assert player_names.checked("", player_names.TITLE_LENGTH, blank=True) == ""
    for nothing in ("\x00Ana", "\ud800", 7, None):
        with pytest.raises(player_names.InvalidName):
            player_names.checked(nothing)


# Every place that takes a name


def session_form(client, players, path=None):
    data = {"players": len(players), "first_dealer": 0, "key": str(uuid.uuid4())}
    data |= {f"player_{seat}": player for seat, player in enumerate(players)}
    return client.post(path or reverse("new_sheet"), data)


def upload(data):
    return SimpleUploadedFile("backup.json", json.dumps(data).encode(), "application/json")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("Ana\u3164", "Ana"),
        ("An\u034fa", "Ana"),
        ("Ana\u2800", "Ana"),
        # Across scripts: the name as typed, which looks the same.
        ("\u0410na", "\u0410na"),  # Cyrillic А
        ("\u0391na", "\u0391na"),  # Greek Α
    ],
)
class TestEveryPlaceThatTakesAName:
    def test_the_new_session_form(self, client, typed, shown):
        response = session_form(client, ["Ana", typed, "Ben"])
        assert response.status_code == 200
        assert response.context["form"].errors["player_1"] == [
            f"Player 2: “{shown}” is already at the table."
        ]
        assert not Sheet.objects.exists()

    def test_a_rename(self, client, sheet4, typed, shown):
        data = {"name": "Vendredi", "player_0": "Ana", "player_1": typed}
        data |= {"player_2": "Chloé", "player_3": "Dan"}
        response = client.post(reverse("players", args=[sheet4.token]), data)
        assert response.status_code == 200
        assert response.context["form"].errors["player_1"] == [
            f"Player 2: “{shown}” is already at the table."
        ]
        assert list(sheet4.seats.values_list("name", flat=True)) == ["Ana", "Ben", "Chloé", "Dan"]
        with pytest.raises(ValueError):
            writes.rename(sheet4.token, "Vendredi", ["Ana", typed, "Chloé", "Dan"])

    def test_the_roster(self, client, typed, shown):
        club = club_writes.create_club("Jeudi", players=["Ana", "Ben"]).club
        players = f"/c/{club.token}/players/"
        response = client.post(players, {"action": "add", "add-names": typed})
        expected = (
            "“Ana” is already one of the club's players."
            if shown == "Ana"
            else f"“{shown}” is the same name as “Ana”, already one of the club's players."
        )
        assert response.context["add_form"].errors["names"] == [expected]
        ben = club.players.get(name="Ben")
        response = client.post(players, {"action": "rename", "player": ben.pk, "name": typed})
        assert response.context["rename_error"] == (
            str(ben.pk),
            f"“{shown}” is already one of the club's players: merge them instead.",
        )
        assert f'id="rename-error-{ben.pk}"' in response.content.decode()
        assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Ben"]
        # A name given to the club twice at its creation is refused too.
        with pytest.raises(clubs.ClubError):
            club_writes.create_club("Autre", players=["Ana", typed])

    def test_a_merge_leaves_the_name_it_keeps(self, client, typed, shown):
        # "Ana" and "Anna" were two entries; merged, the look-alike of the one kept is refused.
        club = club_writes.create_club("Jeudi", players=["Ana", "Anna"]).club
        ana, anna = club.players.get(name="Ana"), club.players.get(name="Anna")
        data = {"action": "merge", "merge-drop": anna.pk, "merge-keep": ana.pk}
        assert client.post(f"/c/{club.token}/players/", data).status_code == 302
        with pytest.raises(clubs.ClubError):
            club_writes.add_player(club, typed)
        assert list(club.players.values_list("name", flat=True)) == ["Ana"]

    def test_a_late_arrival(self, client, typed, shown):
        club = club_writes.create_club("Jeudi").club
        names = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Farid", "Gaëlle", "Hugo"]
        night = night_writes.create_night(club, "Vendredi", date(2026, 12, 4), names, 3, 2).night
        path = reverse("night_players", args=[club.token, night.number])
        response = client.post(path, {"action": "join", "name": typed}, follow=True)
        assert "A late arrival: Ana is already playing tonight." in response.content.decode()
        night.refresh_from_db()
        assert len(night.players) == 8
        assert club.players.count() == 8
        # Once she has left, the look-alike is Ana coming back: no second entry.
        ana = club.players.get(name="Ana")
        night_writes.leave(club, night, ana.pk)
        client.post(path, {"action": "join", "name": typed})
        night.refresh_from_db()
        assert (len(night.players), night.gone) == (8, [])
        assert club.players.count() == 8

    def test_the_clubs_session_form_finds_the_roster_player(self, client, typed, shown):
        club = club_writes.create_club("Jeudi", players=["Ana", "Ben"]).club
        ana = club.players.get(name="Ana")
        response = session_form(client, [typed, "Ben", "Chloé"], f"/c/{club.token}/new/")
        assert response.status_code == 302
        # The seat is Ana of the roster, not a second Ana.
        assert club.players.count() == 3
        assert club.club_sheets.get().players[0] == ana.pk
        # The seat keeps the name as typed (cleaned), as "ana" typed in lower case would.
        assert Seat.objects.get(position=0).name == shown

    def test_attaching_a_session(self, typed, shown):
        club = club_writes.create_club("Jeudi", players=["Ana"]).club
        sheet = writes.create_sheet("Lundi", ["Ana", "Ben", "Chloé"], 0)
        with pytest.raises(clubs.ClubError, match="different player"):
            club_writes.attach(club, sheet, ["Ana", typed, "Chloé"])
        club_writes.attach(club, sheet, [typed, "Ben", "Chloé"])
        assert club.club_sheets.get().players[0] == club.players.get(name="Ana").pk

    def test_a_session_backup(self, client, typed, shown):
        data = json.loads(json.dumps(BACKUPS[4]))
        data["players"][1] = typed
        response = client.post(reverse("import_backup"), {"backup": upload(data)})
        assert response.context["import_form"].errors["backup"] == [
            f"Player 2: “{shown}” is already at the table."
        ]
        with pytest.raises(backup.BackupError):
            backup.read(json.dumps(data))
        assert not Sheet.objects.exists()

    def test_a_club_backup(self, client, typed, shown):
        session = json.loads(json.dumps(BACKUPS[4]))
        data = {
            "format": "tarot-club/1",
            "name": "Jeudi",
            "created": "2026-09-01T20:00:00+02:00",
            "players": ["Ana", "Ben", "Chloé", "Dan", typed],
            "rules": {},
            "sessions": [session],
        }
        with pytest.raises(backup.BackupError, match=f"Player 5: “{shown}” is already one of"):
            club_backup.read(json.dumps(data))
        response = client.post(reverse("club_import"), {"backup": upload(data)})
        assert response.status_code == 422
        (refusal,) = response.context["import_form"].errors["backup"]
        assert f"Player 5: “{shown}” is already one of" in refusal
        assert not Club.objects.exists()
        # In a session of the file, the look-alike is the roster's Ana.
        data["players"] = data["players"][:4]
        session["players"][0] = typed
        club = club_backup.load(json.dumps(data))
        assert club.players.count() == 4
        assert club.club_sheets.get().players[0] == club.players.get(name="Ana").pk
        assert not Club.objects.exclude(pk=club.pk).exists()


# The migration: stored keys computed again


@pytest.mark.django_db(transaction=True)
def test_the_migration_computes_every_key_again_and_keeps_look_alikes_apart():
    """Rows stored under the old key (which kept U+3164 and U+2800): a name alone gets its new
    key; two names of one sheet or club that are now the same keep their names, the later one
    with its key marked (by seat, by entry), so nothing is lost, merged or renamed."""
    executor = MigrationExecutor(connection)
    executor.migrate([("scoresheet", "0011_spent_keys")])
    apps = executor.loader.project_state([("scoresheet", "0011_spent_keys")]).apps
    OldSheet = apps.get_model("scoresheet", "Sheet")
    OldSeat = apps.get_model("scoresheet", "Seat")
    OldClub = apps.get_model("scoresheet", "Club")
    OldPlayer = apps.get_model("scoresheet", "ClubPlayer")
    sheet = OldSheet.objects.create(name="Lundi", first_dealer=0, token="t1", view_token="v1")
    seats = ["Ana", "Ana\u3164", "Ben\u2800", "Chloé"]
    # The keys as the old player_names.key made them (it kept U+3164, U+2800 and U+034F).
    for position, name in enumerate(seats):
        OldSeat.objects.create(sheet=sheet, position=position, name=name, key=name.casefold())
    club = OldClub.objects.create(name="Jeudi", token="t2", view_token="v2")
    for name in ["Zoé\u3164", "Ana", "ana\u034f"]:
        OldPlayer.objects.create(club=club, name=name, key=name.casefold())
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    stored = list(Seat.objects.filter(sheet_id=sheet.pk).order_by("position"))
    assert [seat.name for seat in stored] == seats
    assert [seat.key for seat in stored] == ["ana", "ana#1", "ben", "chloé"]
    players = list(ClubPlayer.objects.filter(club_id=club.pk).order_by("id"))
    assert [p.name for p in players] == ["Zoé\u3164", "Ana", "ana\u034f"]
    assert [p.key for p in players] == ["zoé", "ana", f"ana#{players[2].pk}"]
    # The roster page lists both Anas, so that they can be merged (or one renamed).
    ana, other = players[1], players[2]
    change = club_writes.merge_players(Club.objects.get(pk=club.pk), ana.pk, other.pk)
    assert change.player.pk == ana.pk
    assert list(ClubPlayer.objects.filter(club_id=club.pk).values_list("key", flat=True)) == [
        "ana",
        "zoé",
    ]


@pytest.mark.django_db(transaction=True)
def test_the_skeleton_migration_keeps_look_alikes_stored_before_it(client):
    """Names stored before the keys compared skeletons: "Anna" and "Аnna" (Cyrillic А) were
    two players of one session and of one club. The migration keeps both, names and rows, the
    later one's key marked (by seat, by entry); the roster lists both to merge, the session's
    players page asks for one to change, and a name typed afterwards finds the first."""
    executor = MigrationExecutor(connection)
    executor.migrate([("scoresheet", "0014_club_sheet")])
    apps = executor.loader.project_state([("scoresheet", "0014_club_sheet")]).apps
    OldSheet = apps.get_model("scoresheet", "Sheet")
    OldSeat = apps.get_model("scoresheet", "Seat")
    OldClub = apps.get_model("scoresheet", "Club")
    OldPlayer = apps.get_model("scoresheet", "ClubPlayer")
    sheet = OldSheet.objects.create(name="Lundi", first_dealer=0, token="t1", view_token="v1")
    seats = ["Anna", "\u0410nna", "Ben", "\u0301"]
    # The keys as 0012's player_names.key made them: case folded, no skeleton.
    for position, name in enumerate(seats):
        OldSeat.objects.create(sheet=sheet, position=position, name=name, key=name.casefold())
    club = OldClub.objects.create(name="Jeudi", token="t2", view_token="v2")
    for name in ["\u039flga", "Anna", "\u0410NNA", "Olga"]:
        OldPlayer.objects.create(club=club, name=name, key=name.casefold())
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    stored = list(Seat.objects.filter(sheet_id=sheet.pk).order_by("position"))
    assert [seat.name for seat in stored] == seats
    # The accent alone is a blank name now: its key is empty, as no name typed today has.
    assert [seat.key for seat in stored] == ["anna", "anna#1", "ben", ""]
    players = list(ClubPlayer.objects.filter(club_id=club.pk).order_by("id"))
    assert [p.name for p in players] == ["\u039flga", "Anna", "\u0410NNA", "Olga"]
    assert [p.key for p in players] == [
        "olga",
        "anna",
        f"anna#{players[2].pk}",
        f"olga#{players[3].pk}",
    ]

    # The club: both Annas listed; a name typed now finds the first; merged, they are one.
    club = Club.objects.get(pk=club.pk)
    page = client.get(f"/c/{club.token}/players/").content.decode()
    assert "Anna" in page
    assert "\u0410NNA" in page
    with pytest.raises(clubs.ClubError):
        club_writes.add_player(club, "anna")
    assert club_writes.roster_entries(club, ["\u0410nna"]) == [players[1]]
    club_writes.merge_players(club, players[1].pk, players[2].pk)
    assert list(club.players.order_by("id").values_list("key", flat=True)) == [
        "olga",
        "anna",
        f"olga#{players[3].pk}",
    ]

    # The session: its names saved as they are are refused, naming the field; changed, kept.
    sheet = Sheet.objects.get(pk=sheet.pk)
    data = {"name": "Lundi", "player_0": "Anna", "player_1": "\u0410nna", "player_2": "Ben"}
    response = client.post(reverse("players", args=[sheet.token]), data | {"player_3": "Dan"})
    assert response.context["form"].errors["player_1"] == [
        "Player 2: “\u0410nna” is already at the table."
    ]
    response = client.post(
        reverse("players", args=[sheet.token]), data | {"player_1": "Annie", "player_3": "Dan"}
    )
    assert response.status_code == 302
    assert list(sheet.seats.order_by("position").values_list("key", flat=True)) == [
        "anna",
        "annie",
        "ben",
        "dan",
    ]


# The names of one table as the totals bar shows them: the shortest form no other player there
# shows (first name; first name and initial; the whole name), worked out by hand.
@pytest.mark.parametrize(
    ("names", "shown"),
    [
        (
            ["Cécile Roux", "Cécile Martin", "Jean-Baptiste Côté", "Maëlle Durand", "Zoé"],
            ["Cécile R.", "Cécile M.", "Jean-Baptiste", "Maëlle", "Zoé"],
        ),
        # The same initial: only the whole names tell them apart.
        (["Cécile Roux", "Cécile Rivière", "Ana"], ["Cécile Roux", "Cécile Rivière", "Ana"]),
        # A first name alone, and the same first name with more: "Cécile" stays as it is.
        (["Cécile", "Cécile Roux", "Bob"], ["Cécile", "Cécile R.", "Bob"]),
        # Told apart by the key, not by the case; the initial is a whole letter as seen.
        (["émile Zola", "Émile Ébert", "Léa"], ["émile Z.", "Émile É.", "Léa"]),
        (
            ["Anne-Sophie", "Jean-Baptiste", "Maximilien"],
            ["Anne-Sophie", "Jean-Baptiste", "Maximilien"],
        ),
        # Three words: the initial of the second.
        (
            ["Marie de la Tour", "Marie Dupont", "Paul Durand"],
            ["Marie de la Tour", "Marie Dupont", "Paul"],
        ),
    ],
)
def test_short_names_tell_the_players_of_a_table_apart(names, shown):
    assert player_names.short(names) == shown
    assert len({player_names.key(name) for name in shown}) == len(names)


def test_one_collation_for_every_list_of_names():
    """Accents and case set aside first: É beside E, not after Z; then the key and the name, so
    that names equal but for an accent keep one order."""
    typed = ["Zoé", "Élodie", "émile", "Anaïs", "Bruno"]
    assert player_names.alphabetical(typed) == ["Anaïs", "Bruno", "Élodie", "émile", "Zoé"]
    found = player_names.alphabetical(["Ève", "Eve", "Evan", "eva"])
    assert found == ["eva", "Evan", "Eve", "Ève"]
    # Letters that carry their mark in themselves go with the letter they are read as.
    assert player_names.alphabetical(["Pia", "Øyvind", "Oscar", "Luc", "Łukasz", "Lz"]) == [
        "Luc",
        "Łukasz",
        "Lz",
        "Oscar",
        "Øyvind",
        "Pia",
    ]
    # A name typed with a combining accent sits where the composed one does.
    assert player_names.collation("E\u0301lodie")[0] == player_names.collation("Élodie")[0]
    # Items by their name.
    assert player_names.alphabetical([(2, "Zoé"), (1, "élise")], name=lambda item: item[1]) == [
        (1, "élise"),
        (2, "Zoé"),
    ]
