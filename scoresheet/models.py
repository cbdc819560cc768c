"""What the players entered: sheets, their seats and their hands; and, beside them, the scores
and totals derived from them.

The derived fields (``Hand.scores``, ``Sheet.hand_count``, ``Sheet.totals``,
``Sheet.next_dealer``, ``Sheet.checkpoints``, ``Sheet.statistics``) are written only by
``scoresheet.sheets.writes``, in the same transaction as the facts they come from, and
``manage.py rescore`` recomputes them. A hand's running totals are not stored: a page adds them
up from the sheet's totals or its checkpoints (``tally``), so that correcting or deleting a hand
writes nothing of the hands after it.
"""

import secrets
import uuid
from dataclasses import fields
from datetime import UTC, datetime

from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoresheet import limits, player_names, scoring, tally


def new_token() -> str:
    """An unguessable, URL-safe key: 144 random bits, never starting with "-" (a command
    line would take it for an option)."""
    while (token := secrets.token_urlsafe(18)).startswith("-"):
        pass
    return token


def local_time(moment: datetime) -> datetime:
    """A stored moment in the server's time zone; in UTC when that would leave the calendar (a
    date stored before imports checked it, like 9999-12-31T23:30Z): a page or an export shows
    it, never fails on it."""
    try:
        return timezone.localtime(moment)
    except (OverflowError, ValueError):
        return moment.astimezone(UTC)


class TokenField(models.CharField):
    """A secret link's token, a new one for every row (``new_token``). The migrations hold it
    as a plain unique ``CharField``: the same column, and no migration depends on this code."""

    def __init__(self, *args, **kwargs):
        kwargs |= {"max_length": 32, "unique": True, "default": new_token, "editable": False}
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, _path, args, kwargs = super().deconstruct()
        del kwargs["default"]
        return name, "django.db.models.CharField", args, kwargs


# A screen's short code: letters and digits a remote types, none read as another (no 0/o, 1/l/i).
SCREEN_LETTERS = "23456789abcdefghjkmnpqrstuvwxyz"
SCREEN_LENGTH = 8


def new_screen_code() -> str:
    """A night's screen code: 8 of 31 symbols (about 40 random bits), none taken yet."""
    while True:
        code = "".join(secrets.choice(SCREEN_LETTERS) for _letter in range(SCREEN_LENGTH))
        if not Night.objects.filter(screen=code).exists():
            return code


class ScreenCodeField(models.CharField):
    """A night's screen code, a new one for every night (``new_screen_code``); the migrations
    hold it as a plain unique ``CharField``, as ``TokenField``."""

    def __init__(self, *args, **kwargs):
        kwargs |= {
            "max_length": SCREEN_LENGTH,
            "unique": True,
            "default": new_screen_code,
            "editable": False,
        }
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, _path, args, kwargs = super().deconstruct()
        del kwargs["default"]
        return name, "django.db.models.CharField", args, kwargs


class Sheet(models.Model):
    """One session at the table: its players and, through ``hands``, everything they played."""

    # Two independent secrets: the link that lets its holder enter and fix hands, and the
    # read-only link for spectators and for sharing results.
    token = TokenField()
    view_token = TokenField()
    name = models.CharField(_("name"), max_length=player_names.TITLE_LENGTH)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # When the session was restored from a backup (it keeps its own ``created``), or None: the
    # home page tells a restored copy from the original.
    restored = models.DateTimeField(null=True, blank=True, editable=False)
    # Moves on in the same transaction as any change to the sheet (see writes.py): a phone
    # compares it to know whether its page is current.
    revision = models.PositiveIntegerField(default=0, editable=False)
    # The session's house rules (scoring.Rules.to_data()); {} is FFT.
    rules = models.JSONField(default=dict, blank=True, editable=False)
    # Derived from the hands by writes.py (never typed): what the pages show without reading
    # every hand.
    hand_count = models.PositiveIntegerField(default=0, editable=False)
    totals = models.JSONField(default=list, editable=False)
    next_dealer = models.PositiveSmallIntegerField(default=0, editable=False)
    # The running totals after every k-th hand (tally.Checkpoints.to_data()): the chart's
    # points, and where a page of earlier hands starts adding up.
    checkpoints = models.JSONField(default=dict, editable=False)
    # The statistics' running counters (stats.Counters.to_data()).
    statistics = models.JSONField(default=dict, editable=False)
    # Hand ``n`` is stored at ``Hand.position`` n + this: deleting a hand moves the hands on
    # its shorter side by one place (writes.py), and when those are the earlier ones, the
    # numbers start one place later.
    hand_offset = models.PositiveIntegerField(default=0, db_default=0, editable=False)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("sheet", args=[self.token])

    def get_view_url(self):
        """The read-only link."""
        return reverse("view_sheet", args=[self.view_token])

    @property
    def game_rules(self) -> scoring.Rules:
        """The rules every hand of this session is scored under (stored as ``to_data()``)."""
        return scoring.Rules.from_data(self.rules)

    def summary(self) -> tally.Tally:
        """The totals, ranks, hand count and next dealer, as stored: no hand is read."""
        return tally.Tally(
            seats=len(self.totals),
            rows=(),
            totals=tuple(self.totals),
            next_dealer=self.next_dealer,
            count=self.hand_count,
        )

    def position(self, number: int) -> int:
        """Where hand ``number`` is stored (``Hand.position``): an index reads it there."""
        return number + self.hand_offset

    def numbered_hands(self) -> models.QuerySet:
        """The session's hands in play order, each with its ``number`` (from 1), which the
        query computes from where it is stored."""
        return self.hands.annotate(number=models.F("position") - self.hand_offset).order_by(
            "position"
        )


class Seat(models.Model):
    """A player's place at the table; ``position`` is the seat number the scoring uses."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=player_names.PLAYER_LENGTH)
    # player_names.key(name), computed in Python on every write: the one way names are compared.
    key = player_names.NameKeyField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["sheet", "key"], name="seat_name_key_unique"),
        ]

    def __str__(self):
        return self.name


class Contract(models.TextChoices):
    # Game terms stay French in every language.
    PRISE = scoring.Contract.PRISE, "Prise"
    GARDE = scoring.Contract.GARDE, "Garde"
    GARDE_SANS = scoring.Contract.GARDE_SANS, "Garde sans"
    GARDE_CONTRE = scoring.Contract.GARDE_CONTRE, "Garde contre"


class Camp(models.TextChoices):
    ATTACK = scoring.Camp.ATTACK, _("attack")
    DEFENCE = scoring.Camp.DEFENCE, _("defence")


class Chelem(models.TextChoices):
    ANNOUNCED_MADE = scoring.Chelem.ANNOUNCED_MADE, _("announced and made")
    UNANNOUNCED_MADE = scoring.Chelem.UNANNOUNCED_MADE, _("made unannounced")
    ANNOUNCED_FAILED = scoring.Chelem.ANNOUNCED_FAILED, _("announced and failed")


class Poignee(models.TextChoices):
    SIMPLE = scoring.Poignee.SIMPLE, "simple"
    DOUBLE = scoring.Poignee.DOUBLE, "double"
    TRIPLE = scoring.Poignee.TRIPLE, "triple"


class Hand(models.Model):
    """One deal, as entered: who dealt, the inputs of ``scoring.Hand`` or a deal everyone
    passed; and its row as scored under the session's rules.

    A hand's number, its place in play order from 1, is its ``position`` less the sheet's
    ``hand_offset``: ``Sheet.numbered_hands`` reads it, ``Sheet.position`` finds a hand by
    it. Deleting a hand moves the hands on its shorter side by one place (writes.py): deleting
    the first of 10,000 hands writes no other. The dealer of each hand is a fact that never
    moves.
    """

    # Found through the index (sheet, position), whose first column it is: no index of its own.
    sheet = models.ForeignKey(
        Sheet, on_delete=models.CASCADE, related_name="hands", db_index=False
    )
    # Stored in the column "number", as before the offset: an upgrade renames nothing.
    position = models.PositiveIntegerField(db_column="number", editable=False)
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    # The form's idempotency key: a resubmitted form finds its hand instead of adding another.
    key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    passed = models.BooleanField(default=False)
    taker = models.PositiveSmallIntegerField(null=True, blank=True)
    partner = models.PositiveSmallIntegerField(null=True, blank=True)
    contract = models.CharField(max_length=12, choices=Contract.choices, blank=True)
    bouts = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.DecimalField(max_digits=3, decimal_places=1, null=True, blank=True)
    petit_au_bout = models.CharField(max_length=7, choices=Camp.choices, blank=True)
    # {"seat": "simple" | "double" | "triple"}: JSON keys are strings.
    poignees = models.JSONField(default=dict, blank=True)
    chelem = models.CharField(max_length=16, choices=Chelem.choices, blank=True)
    defence_chelem = models.BooleanField(default=False)
    # {"seat": 1 | 2}: the misères announced, when the session plays them.
    miseres = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Bumped by every correction, so two phones editing one hand cannot overwrite each other.
    version = models.PositiveIntegerField(default=1, editable=False)
    # Derived (writes.py): one score per seat.
    scores = models.JSONField(default=list, editable=False)

    # What the players entered, the fields a correction rewrites: whether the deal was passed,
    # and the inputs of ``scoring.Hand``, named there once (the seats are the table's, the
    # dealer is stored apart, a fact that never moves).
    INPUTS = (
        "passed",
        *(field.name for field in fields(scoring.Hand) if field.name not in ("seats", "dealer")),
    )
    # What scoring a hand reads (``scoring_hand``'s arguments after the seats): who dealt, and
    # the inputs. A long sheet is re-scored from these values, without model instances.
    SCORING = ("dealer", *INPUTS)
    # What a club's records read of a hand (clubs/results.py): its number (annotated:
    # ``Sheet.numbered_hands``), who dealt, took and was called, whether it was passed, and
    # its row.
    RECORDED = ("number", "dealer", "taker", "partner", "passed", "scores")

    class Meta:
        ordering = ["position"]
        indexes = [models.Index(fields=["sheet", "position"], name="hand_number")]

    def __str__(self):
        return f"{self.sheet_id}@{self.position}"

    @property
    def balanced(self) -> bool:
        """docs/rules.md §4: every row sums to zero."""
        return sum(self.scores) == 0

    def row(self, seats: int, rules: scoring.Rules) -> tally.Row:
        """The hand's line on the sheet: its stored scores, and the breakdown that explains
        them (a hand read with its ``number``: ``Sheet.numbered_hands``)."""
        hand = self.to_scoring(seats)
        detail = scoring.breakdown(hand, rules) if hand is not None else None
        return tally.Row(self.number, self.dealer, hand, detail, tuple(self.scores))

    def to_scoring(self, seats: int) -> scoring.Hand | None:
        """The hand for ``scoring`` at a table of ``seats``; None for a passed deal."""
        return scoring_hand(seats, *(getattr(self, name) for name in self.SCORING))

    @classmethod
    def from_scoring(cls, hand: scoring.Hand, **fields) -> "Hand":
        """An unsaved model hand holding a scoring hand's inputs."""
        return cls(**cls.inputs_of(hand), dealer=hand.dealer, **fields)

    @staticmethod
    def inputs_of(hand: scoring.Hand | None) -> dict:
        """What a hand stores (``INPUTS``) of a scoring hand's inputs; None is a passed deal.
        An import builds its rows from these, without a model instance per hand."""
        if hand is None:
            return {**PASSED}
        stored = {name: getattr(hand, name) for name in Hand.INPUTS if name != "passed"}
        # Stored as the columns hold them: text for a choice ("" for none), seats as JSON's
        # string keys, card points a Decimal.
        return stored | {
            "passed": False,
            "contract": str(hand.contract),
            "points": scoring.read_card_points(hand.points),
            "petit_au_bout": str(hand.petit_au_bout or ""),
            "poignees": {str(seat): str(size) for seat, size in hand.poignees.items() if size},
            "chelem": str(hand.chelem or ""),
            "miseres": {str(seat): count for seat, count in hand.miseres.items() if count},
        }


# The inputs of a passed deal: the fields' defaults.
PASSED = {
    **{name: Hand._meta.get_field(name).get_default() for name in Hand.INPUTS},
    "passed": True,
}


def scoring_hand(seats: int, *values) -> scoring.Hand | None:
    """The hand for ``scoring`` from a stored hand's ``Hand.SCORING`` values (in that order),
    at a table of ``seats``; None for a passed deal."""
    hand = dict(zip(Hand.SCORING, values, strict=True))
    if hand.pop("passed"):
        return None
    # A choice left blank is None; JSON's string keys are seats again.
    hand["petit_au_bout"] = hand["petit_au_bout"] or None
    hand["chelem"] = hand["chelem"] or None
    poignees, miseres = hand["poignees"], hand["miseres"]
    # Most hands announce neither: nothing to convert (a long sheet is read hand by hand).
    hand["poignees"] = {int(seat): size for seat, size in poignees.items()} if poignees else {}
    hand["miseres"] = {int(seat): count for seat, count in miseres.items()} if miseres else {}
    return scoring.Hand(seats=seats, **hand)


# The club: players who last beyond one evening, and standings across sessions.


class Club(models.Model):
    """A table of friends who play again and again: a roster, default house rules, and the
    sessions it holds. Reached, like a session, by two secret links of its own."""

    token = TokenField()
    view_token = TokenField()
    name = models.CharField(_("name"), max_length=player_names.TITLE_LENGTH)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # The house rules a session started from the club takes (scoring.Rules.to_data()).
    rules = models.JSONField(default=dict, blank=True, editable=False)
    # Derived (clubs/results.py): the stored ratings are up to date before this session (its
    # date and ClubSheet id, the rating's order); from it on they wait to be rated again, and
    # the standings rate them on read meanwhile. None: every stored rating is up to date.
    rate_from_played = models.DateTimeField(null=True, blank=True, editable=False)
    rate_from_club_sheet = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    # Moves with every change to what the ratings are computed from, after which a rating
    # computed before it is not written.
    rating_revision = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("club", args=[self.token])

    def get_view_url(self):
        """The read-only link."""
        return reverse("view_club", args=[self.view_token])

    @property
    def game_rules(self) -> scoring.Rules:
        return scoring.Rules.from_data(self.rules)


class ClubPlayer(models.Model):
    """An entry of a club's roster: one person across every session of the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=player_names.PLAYER_LENGTH)
    # player_names.key(name): two entries of one club never share it (as the seats of a sheet).
    key = player_names.NameKeyField()

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="club_player_key_unique"),
        ]

    def __str__(self):
        return self.name


class ClubSheet(models.Model):
    """A session the club counts: the sheet, and which roster player sat at each seat.

    The sheet knows nothing of it (its links never lead to the club); detaching deletes this
    row and leaves the sheet as it was.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="club_sheets")
    sheet = models.OneToOneField(Sheet, on_delete=models.CASCADE, related_name="club_sheet")
    # [ClubPlayer id, …] in seat order.
    players = models.JSONField(default=list)

    def __str__(self):
        return f"{self.club_id}:{self.sheet_id}"


class ClubResult(models.Model):
    """Derived (clubs/results.py, in the same transaction as the change it follows): one
    player's result in one session the club counts, and their rating after it.

    Written by the write path when the session changes (writes.py) and by the club's own
    changes (attach, detach, merge); ``manage.py rescore`` recomputes them. The standings of
    any period add these rows up in the database.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    club_sheet = models.ForeignKey(ClubSheet, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(ClubPlayer, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    # The session's date (its sheet's ``created``): the periods and the rating's order.
    played = models.DateTimeField()
    points = models.IntegerField()
    hands = models.PositiveIntegerField()
    taken = models.PositiveIntegerField()
    made = models.PositiveIntegerField()
    # The sum of the multipliers of the contracts taken (prise 1 … garde contre 6).
    contracts = models.PositiveIntegerField()
    # The player's place by total (1 is the best, ties share it); None while the session has
    # no hand: it is then neither won nor rated.
    rank = models.PositiveSmallIntegerField(null=True)
    won = models.BooleanField()
    # What the player's page shows beyond the standings: {"best": [score, hand number] | None,
    # "worst": idem, "partners": {seat: times their partner at 5 players}, "streak": longest
    # run of positive hands, "contracts": {contract: [taken, made]}}.
    record = models.JSONField(default=dict)
    # The openskill rating after this session (None: not rated).
    mu = models.FloatField(null=True)
    sigma = models.FloatField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club_sheet", "seat"], name="club_result_seat_unique"),
        ]
        indexes = [
            models.Index(fields=["club", "played"], name="club_result_played"),
            models.Index(fields=["player", "played"], name="club_result_player"),
        ]

    def __str__(self):
        return f"{self.club_sheet_id}:{self.seat}"


class SpentKey(models.Model):
    """A form's key once it made something: a hand, a session, a club. Kept for good, so the
    same form sent again (a double tap, a resubmitted page, the offline queue whose first
    answer was lost) never makes it again, even after what it made was deleted or undone.

    Written by the write modules in the same transaction as what the key made, and never
    deleted with it: nothing points from here to a hand. ``sheet`` is the session the key
    added a hand to or made; ``club`` the club it made or started a session in.
    """

    class Made(models.TextChoices):
        HAND = "hand"
        SHEET = "sheet"
        CLUB = "club"
        NIGHT = "night"

    key = models.UUIDField(unique=True)
    made = models.CharField(max_length=5, choices=Made.choices)
    sheet = models.ForeignKey(
        Sheet, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.made}:{self.key}"


# The club night: several tables at once, rounds drawn, one ranking.


class Night(models.Model):
    """A club night: the players who came, the rounds drawn so far (``tables``), and what a
    round is (its deals, its minutes). Written by ``nights.writes`` alone."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    # The club's first night is 1: the number in the night's links.
    number = models.PositiveIntegerField(editable=False)
    name = models.CharField(_("name"), max_length=player_names.TITLE_LENGTH)
    date = models.DateField(_("date"))
    # Round 1 is this seed's shuffle (nights/draw.py): shown, so that a draw can be checked.
    seed = models.CharField(max_length=limits.SEED_LENGTH, editable=False)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    deals = models.PositiveSmallIntegerField(_("deals per round"))
    minutes = models.PositiveSmallIntegerField(_("minutes per round"), null=True, blank=True)
    rules = models.JSONField(default=dict, blank=True, editable=False)
    # [ClubPlayer id, …]: everyone who came, in the order they came; ``gone``: those who left,
    # out of the next draws.
    players = models.JSONField(default=list)
    gone = models.JSONField(default=list)
    # How many rounds are drawn, and when the last one was (its timer).
    drawn = models.PositiveSmallIntegerField(default=0, editable=False)
    round_started = models.DateTimeField(null=True, blank=True, editable=False)
    # Moves on with every change to the night: with its tables' sheets' revisions, what a
    # screen compares to know whether it is current.
    revision = models.PositiveIntegerField(default=0, editable=False)
    # The new-night form's key: the same form sent twice opens one night.
    key = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    # Whether a deal everyone passed counts as one of the deals a table plays in a round.
    passed_counts = models.BooleanField(_("a passed deal counts as a deal"), default=True)
    # The screen's short read-only address, /tv/<screen>: typed on a TV's remote.
    screen = ScreenCodeField()

    class Meta:
        ordering = ["-date", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["club", "number"], name="night_number_unique"),
        ]

    def __str__(self):
        return self.name

    @property
    def game_rules(self) -> scoring.Rules:
        return scoring.Rules.from_data(self.rules)

    @property
    def present(self) -> list[int]:
        """The players the next draw seats."""
        gone = set(self.gone)
        return [player for player in self.players if player not in gone]


class NightTable(models.Model):
    """One table of one round of a night: its players in seat order and the club's session
    they play it in."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    # [ClubPlayer id, …] in seat order, as drawn.
    players = models.JSONField(default=list)
    club_sheet = models.OneToOneField(
        ClubSheet, null=True, blank=True, on_delete=models.SET_NULL, related_name="night_table"
    )

    class Meta:
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["night", "round", "table"], name="night_table_unique"),
        ]

    def __str__(self):
        return f"{self.night_id}:{self.round}:{self.table}"
