"""What the players entered: sheets, their seats and their hands. Never a computed score."""

import secrets
import uuid

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoresheet import names as player_names
from scoresheet import scoring
from scoresheet import sheet as sheets


def new_token() -> str:
    """An unguessable, URL-safe key: 144 random bits, never starting with "-" (a command
    line would take it for an option)."""
    while (token := secrets.token_urlsafe(18)).startswith("-"):
        pass
    return token


class Sheet(models.Model):
    """One session at the table: its players and, through ``hands``, everything they played."""

    # Two independent secrets: the link that lets its holder enter and fix hands, and the
    # read-only link for spectators and for sharing results.
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    view_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    name = models.CharField(_("name"), max_length=80)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # Changes in the same transaction as any change to the sheet's hands (see tally.py).
    revision = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("sheet", args=[self.token])

    def get_view_url(self):
        """The read-only link."""
        return reverse("view_sheet", args=[self.view_token])

    def load(self) -> tuple[list[str], list["Hand"], sheets.Sheet]:
        """The seat names, the stored hands in play order, and the sheet they score.

        Reads ``seats`` and ``hands`` through their managers, so a prefetch serves them.
        """
        names = [seat.name for seat in self.seats.all()]
        hands = list(self.hands.all())
        scored = sheets.build(
            len(names), self.first_dealer, (hand.to_scoring(len(names)) for hand in hands)
        )
        return names, hands, scored


class Seat(models.Model):
    """A player's place at the table; ``position`` is the seat number the scoring uses."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=40)
    # names.key(name), computed in Python on every write: the one way names are compared.
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
    """One deal, as entered: the inputs of ``scoring.Hand``, or a deal everyone passed.

    Play order is insertion order; hand numbers are derived from it, so deleting a hand
    renumbers the later ones without rewriting them.
    """

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="hands")
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
    created = models.DateTimeField(auto_now_add=True)
    # Bumped by every correction, so two phones editing one hand cannot overwrite each other.
    version = models.PositiveIntegerField(default=1, editable=False)

    # What the players entered: the fields a correction rewrites.
    INPUTS = (
        "passed",
        "taker",
        "partner",
        "contract",
        "bouts",
        "points",
        "petit_au_bout",
        "poignees",
        "chelem",
        "defence_chelem",
    )

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["sheet", "id"], name="hand_play_order")]

    def __str__(self):
        return f"{self.sheet_id}:{self.pk}"

    def to_scoring(self, players: int) -> scoring.Hand | None:
        """The hand for ``scoring``; None for a passed deal."""
        if self.passed:
            return None
        return scoring.Hand(
            players=players,
            taker=self.taker,
            contract=self.contract,
            bouts=self.bouts,
            points=self.points,
            partner=self.partner,
            petit_au_bout=self.petit_au_bout or None,
            poignees={int(seat): size for seat, size in self.poignees.items()},
            chelem=self.chelem or None,
            defence_chelem=self.defence_chelem,
        )

    @classmethod
    def from_scoring(cls, hand: scoring.Hand, **fields) -> "Hand":
        """An unsaved model hand holding a scoring hand's inputs."""
        return cls(
            taker=hand.taker,
            contract=str(hand.contract),
            bouts=hand.bouts,
            points=scoring.card_points(hand.points),
            partner=hand.partner,
            petit_au_bout=str(hand.petit_au_bout or ""),
            poignees={str(seat): str(size) for seat, size in hand.poignees.items() if size},
            chelem=str(hand.chelem or ""),
            defence_chelem=hand.defence_chelem,
            **fields,
        )
