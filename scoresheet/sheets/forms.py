"""A session's forms: a new session, one hand checked by the scoring engine, the house rules,
the players' names."""

import uuid
from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format, localize
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoresheet import numbers, player_names, scoring
from scoresheet.keys import KeyedForm
from scoresheet.models import Camp, Chelem, Contract, Poignee

MAX_SEATS = max(scoring.SEATS)
NAME_LENGTH = player_names.PLAYER_LENGTH


def choose(what):
    """Error messages for a choice that names the field."""
    return {"required": what, "invalid_choice": what, "invalid": what}


def player_field(seat: int) -> forms.CharField:
    """The name of the player at ``seat`` (from 0), as the new-session and rename forms ask it."""
    return forms.CharField(
        label=_("Player %(number)s") % {"number": seat + 1},
        max_length=NAME_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "list": "known-names"}),
    )


def checked_names(form: forms.Form, seats: int) -> list[str]:
    """The names of fields ``player_0`` to ``player_{seats - 1}``, cleaned as they are
    stored; a name left blank, too long or already at the table (compared by ``player_names.key``)
    gets its reason on its field, and is left out."""
    data = form.cleaned_data
    names = []
    seen = set()
    for seat in range(seats):
        field = f"player_{seat}"
        try:
            name = player_names.checked(data.get(field) or "")
        except player_names.InvalidName as error:
            if error.reason == "blank":
                message = gettext("Player %(number)s: enter a name.")
            else:
                # NFC can lengthen a name the field's own check let through.
                message = gettext("Player %(number)s: a name has at most %(length)s characters.")
            form.add_error(field, message % {"number": seat + 1, "length": error.length})
            continue
        folded = player_names.key(name)
        if folded in seen:
            form.add_error(
                field,
                gettext("Player %(number)s: “%(name)s” is already at the table.")
                % {"number": seat + 1, "name": name},
            )
            continue
        seen.add(folded)
        names.append(name)
    return names


def checked_session_name(form: forms.Form) -> str:
    """The ``name`` field cleaned as it is stored ("" if blank); too long, it gets the reason."""
    try:
        return player_names.checked(
            form.cleaned_data.get("name") or "", player_names.TITLE_LENGTH, blank=True
        )
    except player_names.InvalidName as error:
        form.add_error(
            "name",
            gettext("Session name: a name has at most %(length)s characters.")
            % {"length": error.length},
        )
        return ""


class RulesForm(forms.Form):
    """A session's house rules (docs/rules.md §6.1); every default is the FFT's."""

    poignees = forms.ChoiceField(
        label="Poignées",
        choices=[
            ("20-30-40", _("20, 30, 40 (FFT)")),
            ("20-40-60", "20, 40, 60"),
        ],
        initial="20-30-40",
        # A form that leaves a rule out plays it the FFT's way.
        required=False,
        widget=forms.RadioSelect,
        help_text=_("What a simple, double and triple poignée are worth."),
        error_messages=choose(_("Poignées: choose 20, 30, 40 or 20, 40, 60.")),
    )
    rounding = forms.TypedChoiceField(
        label=_("Rounding"),
        choices=[(1, _("none (FFT)")), (5, _("to 5")), (10, _("to 10"))],
        coerce=int,
        initial=1,
        required=False,
        empty_value=1,
        widget=forms.RadioSelect,
        help_text=_(
            "The difference is rounded to the nearest 5 or 10, halves up: 25 + 8 → 25 + 10."
        ),
        error_messages=choose(_("Rounding: choose none, 5 or 10.")),
    )
    misere = forms.TypedChoiceField(
        label="Misère",
        choices=[(0, _("off (FFT)")), (10, "10"), (20, "20")],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
        widget=forms.RadioSelect,
        help_text=_(
            "A player dealt no trump or no face card announces it, and is paid this much by "
            "every other player in the hand."
        ),
        error_messages=choose(_("Misère: choose off, 10 or 20.")),
    )
    dealer_sits_out = forms.BooleanField(
        label=_("The dealer sits out each hand"),
        required=False,
        help_text=_("At 5 players, 4 play each hand and the dealer scores 0; at 6, always."),
    )

    def __init__(self, *args, seats: int | None = None, **kwargs):
        """``seats``: a session's, when it has one: "the dealer sits out" is then a choice at
        5 seats only (docs/rules.md §6.1: always at 6, never at 3 or 4)."""
        super().__init__(*args, **kwargs)
        self.seats = seats
        if seats is not None and seats != 5 and "dealer_sits_out" in self.fields:
            del self.fields["dealer_sits_out"]

    def rules(self) -> scoring.Rules:
        data = self.cleaned_data
        if "dealer_sits_out" in self.fields:
            sits_out = bool(data.get("dealer_sits_out"))
        else:
            sits_out = self.seats == 6
        return scoring.Rules(
            poignees=data.get("poignees") or scoring.FFT.poignees,
            rounding=data["rounding"],
            misere=data["misere"],
            dealer_sits_out=sits_out,
        )

    def check_seats(self, seats: int) -> scoring.Rules | None:
        """The rules, or None with the reason on its field when ``seats`` cannot play them."""
        if any(name in self.errors for name in ("poignees", "rounding", "misere")):
            return None
        rules = self.rules()
        for problem in scoring.check_rules(rules, seats):
            field = problem.field if problem.field in self.fields else None
            self.add_error(field, problem.translated(gettext))
        return None if self.errors else rules

    @classmethod
    def initial_from(cls, rules: scoring.Rules) -> dict:
        return rules.to_data()

    def rule_fields(self):
        names = ("poignees", "rounding", "misere", "dealer_sits_out")
        return [self[name] for name in names if name in self.fields]

    def house_rules_open(self) -> bool:
        """Open the fold when a house rule is chosen or wrong."""
        fields = self.rule_fields()
        if not self.is_bound:
            return any(self.initial.get(f.name) not in (None, f.field.initial) for f in fields)
        rules = self.cleaned_data.get("rules") if self.is_valid() else None
        return any(f.errors for f in fields) or bool(rules and not rules.is_fft)


class SheetForm(KeyedForm, RulesForm):
    """A new session: 3 to 6 player names, the first dealer, an optional name, its rules; and
    its key, so that the form sent twice opens one session."""

    # The number of seats (its name is the form's, as posted).
    players = forms.TypedChoiceField(
        label=_("Number of players"),
        choices=[(n, str(n)) for n in scoring.SEATS],
        coerce=int,
        initial=4,
        widget=forms.RadioSelect,
    )
    name = forms.CharField(
        label=_("Session name"),
        max_length=player_names.TITLE_LENGTH,
        required=False,
        help_text=_("Optional: today's date and time by default."),
    )
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer"),
        choices=[(n, str(n + 1)) for n in range(MAX_SEATS)],
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in range(MAX_SEATS):
            self.fields[f"player_{seat}"] = player_field(seat)

    def seat_fields(self):
        return [self[f"player_{seat}"] for seat in range(MAX_SEATS)]

    def clean(self):
        data = super().clean()
        seats = data.get("players")
        if seats is None:
            return data
        names = checked_names(self, seats)
        data["names"] = names
        first_dealer = data.get("first_dealer")
        if first_dealer is not None and first_dealer >= seats:
            self.add_error(
                "first_dealer", gettext("First dealer: choose one of the players at the table.")
            )
        if seats == 6:
            # docs/rules.md §6.4: at 6 seats the dealer always sits out.
            data["dealer_sits_out"] = True
        elif seats < 5:
            data["dealer_sits_out"] = False
        data["rules"] = self.check_seats(seats)
        data["name"] = checked_session_name(self)
        if not data["name"]:
            data["name"] = date_format(timezone.localtime(), "DATETIME_FORMAT")
        return data


class RenameForm(forms.Form):
    """New names for a session and its players (in seat order), checked as at its creation."""

    name = forms.CharField(
        label=_("Session name"), max_length=player_names.TITLE_LENGTH, required=False
    )

    def __init__(self, *args, seats: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in range(seats):
            self.fields[f"player_{seat}"] = player_field(seat)

    def seat_fields(self):
        return [self[f"player_{seat}"] for seat in range(self.seats)]

    def clean(self):
        data = super().clean()
        data["names"] = checked_names(self, self.seats)
        data["name"] = checked_session_name(self)
        if not data["name"] and "name" not in self.errors:
            self.add_error("name", gettext("Session name: enter a name."))
        return data


class PointsField(forms.DecimalField):
    """Card points, read by ``scoring.read_card_points`` (as the preview and the import read them):
    digits with at most one decimal, after a point or a comma as French keyboards type it."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        points = scoring.read_card_points(str(value))
        if points is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return points


class NumberField(forms.IntegerField):
    """A whole number read as every number a browser sends is (``numbers.read``): ASCII digits
    only, so "١٢", "+1", " 1" and "1_0", which Django's ``IntegerField`` reads, are invalid."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        number = numbers.read(str(value))
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number


# The partner field's value for a taker who plays alone.
ALONE = "alone"


class SeatField(forms.TypedChoiceField):
    """A seat of the table (the taker, the partner). The form offers the seats that play the
    hand; any seat of the table is read, so that the rules refuse the dealer who sits out by
    name ("the dealer sits out this hand, so cannot take") rather than a choice vanishing."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = ()

    def valid_value(self, value):
        return str(value) in self.seats or super().valid_value(value)


class HandForm(forms.Form):
    """One hand. The rules' checks are the scoring engine's, so the form and the rules agree."""

    key = forms.UUIDField(widget=forms.HiddenInput)
    # The version of the hand a correction started from (see Hand.version).
    version = NumberField(widget=forms.HiddenInput, required=False, min_value=1)
    taker = SeatField(
        label=_("Taker"),
        coerce=int,
        widget=forms.RadioSelect,
        error_messages=choose(_("Taker: choose who took.")),
    )
    contract = forms.ChoiceField(
        label=_("Contract"),
        choices=Contract.choices,
        widget=forms.RadioSelect,
        error_messages=choose(_("Contract: choose prise, garde, garde sans or garde contre.")),
    )
    # At 5 players a required choice, with no default: a forgotten tap must not score the
    # taker alone (×4). "alone" is a choice of its own, read as no partner.
    partner = SeatField(
        label=_("Partner"),
        coerce=lambda value: None if value == ALONE else int(value),
        widget=forms.RadioSelect,
        error_messages=choose(_("Partner: choose one of the players, or alone.")),
    )
    bouts = forms.TypedChoiceField(
        label=_("Bouts"),
        choices=[(n, str(n)) for n in range(4)],
        coerce=int,
        widget=forms.RadioSelect,
        error_messages=choose(_("Bouts: choose 0, 1, 2 or 3.")),
    )
    points = PointsField(
        label=_("Points"),
        min_value=0,
        max_value=91,
        # Text, not a number input: Chromium refuses "40,5" there, and a French keyboard types
        # a comma. Shown in the locale's format (40,5 in French); read with either separator.
        localize=True,
        widget=forms.TextInput(
            attrs={
                "inputmode": "decimal",
                "autocomplete": "off",
            }
        ),
        error_messages={
            "required": _("Points: enter the card points."),
            "invalid": _(
                "Points: enter a number between 0 and 91, in whole or half points (49 or 40.5)."
            ),
            "min_value": _("Points: enter a number between 0 and 91."),
            "max_value": _("Points: enter a number between 0 and 91."),
        },
    )
    counted_by_defence = forms.BooleanField(
        label=_("These are the defence's points"),
        required=False,
        help_text=_("The attack then has 91 minus them."),
    )
    petit_au_bout = forms.ChoiceField(
        label="Petit au bout",
        choices=[("", _("none")), *Camp.choices],
        required=False,
        widget=forms.RadioSelect,
        error_messages=choose(_("Petit au bout: choose none, attack or defence.")),
    )
    chelem = forms.ChoiceField(
        label="Chelem",
        choices=[("", _("none")), *Chelem.choices],
        required=False,
        widget=forms.RadioSelect,
        error_messages=choose(_("Chelem: choose one of the listed outcomes.")),
    )
    defence_chelem = forms.BooleanField(label=_("Chelem by the defence"), required=False)
    # A deal past the plan of a club night's table, confirmed ("hand" or "passed": what the
    # question was asked for). Sent by the question's button, never typed; the write path
    # refuses such a deal unconfirmed (writes.BeyondPlan), and the form then asks.
    beyond_plan = forms.CharField(
        label=_("Beyond the plan"), required=False, max_length=10, widget=forms.HiddenInput
    )

    def __init__(
        self,
        *args,
        seats,
        rules: scoring.Rules = scoring.FFT,
        dealer: int = 0,
        editing: bool = False,
        **kwargs,
    ):
        """``seats``: the session's player names; ``dealer``: who deals this hand. A
        correction (``editing``) can also correct who dealt."""
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.seats = list(seats)
        # The seats in the session, and how many of them play this hand.
        self.seat_count = len(self.seats)
        self.players = rules.players(self.seat_count)
        # A number no page of the app sends (a seat in a field's name, the dealer: "²", "+1", 5,000
        # digits): the form comes back with why, and the view answers 400 (a bad request).
        self.tampered = False
        if editing:
            dealer = self._add_dealer_field(dealer)
        self.dealer = dealer
        # docs/rules.md §6.4: the dealer sits out and takes no role.
        self.sitting_out = dealer if rules.dealer_sits_out else None
        names = [(seat, name) for seat, name in enumerate(self.seats) if seat != self.sitting_out]
        self._set_roles(names)
        self._set_points_step()
        if rules.misere:
            self._add_misere_fields(names)
        self._add_poignee_fields(names)
        if not self.is_bound and "key" not in self.initial:
            self.initial["key"] = uuid.uuid4()
        self.expired = False
        # The hand as typed, once every field was read (before the rules are asked): what the
        # write path gets, which answers a key already spent before checking the hand.
        self.typed_hand = None
        # Set by a view when someone else saved this hand first: the form shows theirs.
        self.conflict = False
        if self.is_bound:
            self._check_hidden_fields()
            self._check_announced_seats()

    def _check_announced_seats(self) -> None:
        """A poignée or a misère sent for a seat that is not a number, which no page of the app
        sends, marks the form tampered with."""
        self.tampered = self.tampered or any(
            numbers.read(seat) is None for _prefix, seat, _value in self._announced()
        )

    def _add_dealer_field(self, dealer: int) -> int:
        """A correction's "dealer" field; the dealer posted, when it is a seat, else ``dealer``."""
        self.fields["dealer"] = forms.TypedChoiceField(
            label=_("Dealer"),
            choices=list(enumerate(self.seats)),
            coerce=int,
            initial=dealer,
            # Left out, the hand keeps the dealer it has.
            required=False,
            empty_value=dealer,
            widget=forms.Select,
            error_messages=choose(_("Dealer: choose one of the players at the table.")),
        )
        if self.is_bound and self.data.get("dealer") not in (None, ""):
            posted = numbers.read(self.data.get("dealer"))
            if posted is None:
                self.tampered = True
            elif posted < self.seat_count:
                return posted
        return dealer

    def _set_roles(self, names: list[tuple[int, str]]) -> None:
        """The taker's choices, and the partner's at 5 players (no partner field otherwise)."""
        self.fields["taker"].choices = names
        table = [str(seat) for seat in range(self.seat_count)]
        self.fields["taker"].seats = table
        if self.players == 5:
            self.fields["partner"].choices = [*names, (ALONE, _("alone"))]
            self.fields["partner"].seats = table
        else:
            del self.fields["partner"]

    def _set_points_step(self) -> None:
        # Half points at 3 and 5 players: what the − and + buttons step by.
        self.step = "0.5" if self.players in (3, 5) else "1"
        self.fields["points"].widget.attrs["pattern"] = (
            "[0-9]{1,2}([.,][05])?" if self.step == "0.5" else "[0-9]{1,2}"
        )

    def _add_misere_fields(self, names: list[tuple[int, str]]) -> None:
        """One "misere_<seat>" field per player in the hand: none, 1 or 2 (docs/rules.md §6.3)."""
        for seat, name in names:
            self.fields[f"misere_{seat}"] = forms.TypedChoiceField(
                label=name,
                choices=[("", pgettext_lazy("feminine noun", "none")), (1, "1"), (2, "2")],
                coerce=int,
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
                error_messages=choose(
                    _("Misère of %(name)s: choose none, 1 or 2.") % {"name": name}
                ),
            )

    def _add_poignee_fields(self, names: list[tuple[int, str]]) -> None:
        """One "poignee_<seat>" field per player in the hand, each size with its trumps."""
        trumps = scoring.POIGNEE_TRUMPS.get(self.players, {})
        sizes = [
            (kind, _("%(size)s (%(trumps)s trumps)") % {"size": label, "trumps": trumps[kind]})
            for kind, label in Poignee.choices
            if kind in trumps
        ]
        for seat, name in names:
            self.fields[f"poignee_{seat}"] = forms.ChoiceField(
                label=name,
                # "aucune": poignée (and misère) are feminine in French.
                choices=[("", pgettext_lazy("feminine noun", "none")), *sizes],
                required=False,
                widget=forms.RadioSelect,
                error_messages=choose(
                    _("Poignée of %(name)s: choose none, simple, double or triple.")
                    % {"name": name}
                ),
            )

    def _check_hidden_fields(self) -> None:
        """A broken key gets a fresh one; a broken version expires the form."""
        try:
            uuid.UUID(str(self.data.get("key")))
        except ValueError:
            self.renew_key()
        try:
            self.fields["version"].clean(self.data.get("version"))
        except ValidationError:
            # A hidden field no one can fix: say the form expired (not "check the
            # highlighted fields"), and let the edit start again from the stored hand.
            self.data = self.data.copy()
            self.data["version"] = ""
            self.expired = True

    def renew_key(self):
        """Give the form a fresh key: its own was broken or belongs to another sheet."""
        self.data = self.data.copy()
        self.data["key"] = str(uuid.uuid4())
        self.expired = True
        self._errors = None

    @property
    def sitting_out_name(self) -> str | None:
        return None if self.sitting_out is None else self.seats[self.sitting_out]

    def playing_seats(self) -> list[int]:
        return [seat for seat in range(self.seat_count) if seat != self.sitting_out]

    def poignee_fields(self):
        return [self[f"poignee_{seat}"] for seat in self.playing_seats()]

    def misere_fields(self):
        if not self.rules.misere:
            return []
        return [self[f"misere_{seat}"] for seat in self.playing_seats()]

    def announcement_fields(self):
        """The fields folded under "announcements": open the fold when one is set or wrong."""
        return [
            self["petit_au_bout"],
            *self.poignee_fields(),
            self["chelem"],
            self["defence_chelem"],
            *self.misere_fields(),
        ]

    def announcements_open(self) -> bool:
        if not self.is_bound:
            return any(self.initial.get(f.name) for f in self.announcement_fields())
        return any(f.value() or f.errors for f in self.announcement_fields())

    def attack_points(self) -> Decimal | None:
        points = self.cleaned_data.get("points")
        if points is None:
            return None
        if self.cleaned_data.get("counted_by_defence"):
            return scoring.TOTAL_POINTS - points
        return points

    def clean(self):
        data = super().clean()
        if self.expired:
            self.add_error(
                None, gettext("This form had expired; check the hand and save it again.")
            )
        self._refuse_unread_seats()
        required = ["taker", "contract", "bouts", "points"]
        if "partner" in self.fields:
            required.append("partner")
        if any(name not in data for name in required):
            return data
        hand = self.scoring_hand()
        if not self._errors:
            self.typed_hand = hand
        for problem in scoring.validate(hand, self.rules):
            field = {"poignees": "poignee", "miseres": "misere"}.get(problem.field)
            field = f"{field}_{problem.seat}" if field else problem.field
            if field not in self.fields:
                # Poignées shown together (no single field is wrong), or a field this table
                # does not have: the form carries it, and its message names the field.
                field = None
            self.add_error(field, problem.translated(gettext, number=localize))
        data["hand"] = hand
        return data

    def _announced(self):
        """(prefix, seat as sent, value) of every poignée or misère sent with a value."""
        for name in self.data:
            prefix, underscore, seat = name.partition("_")
            if (
                underscore
                and prefix in ("poignee", "misere")
                and self.data.get(name) not in ("", None)
            ):
                yield prefix, seat, self.data.get(name)

    def unasked(self, prefix: str) -> dict:
        """What was sent for the announcements this table does not ask (``prefix``
        "poignee" or "misere": the dealer who sits out, a seat that is not there, a misère
        when the session plays none), by seat: never dropped, the rules refuse it by name."""
        found = {}
        for sent, seat, value in self._announced():
            number = numbers.read(seat)
            if sent == prefix and f"{prefix}_{seat}" not in self.fields and number is not None:
                found[number] = value
        return found

    def _refuse_unread_seats(self) -> None:
        """A poignée or a misère under a seat that is no number ("poignee_²"): refused by
        name, whether or not the rest of the hand is there to be checked."""
        for prefix, seat, _value in self._announced():
            if numbers.read(seat) is None:
                shown = seat if len(seat) <= 12 else seat[:11] + "…"
                if prefix == "poignee":
                    message = gettext("Poignée: seat %(value)s is not at the table.")
                else:
                    message = gettext("Misère: seat %(value)s is not at the table.")
                self.add_error(None, message % {"value": shown})

    def scoring_hand(self) -> scoring.Hand:
        data = self.cleaned_data
        if "partner" in self.fields:
            partner = data.get("partner")
        else:
            # A partner where there is none (4 or 3 in the hand): the rules refuse it by name.
            partner = self.data.get("partner") or None
        return scoring.Hand(
            seats=self.seat_count,
            taker=data["taker"],
            contract=data["contract"],
            bouts=data["bouts"],
            points=self.attack_points(),
            partner=partner,
            petit_au_bout=data.get("petit_au_bout") or None,
            poignees={
                **{
                    seat: data.get(f"poignee_{seat}")
                    for seat in self.playing_seats()
                    if data.get(f"poignee_{seat}")
                },
                **self.unasked("poignee"),
            },
            chelem=data.get("chelem") or None,
            defence_chelem=bool(data.get("defence_chelem")),
            dealer=self.dealer,
            miseres={
                **{
                    seat: data.get(f"misere_{seat}")
                    for seat in self.playing_seats()
                    if data.get(f"misere_{seat}")
                },
                **self.unasked("misere"),
            },
        )

    @classmethod
    def initial_from(cls, hand) -> dict:
        """Initial data that prefills the form with a stored hand (to edit it)."""
        if hand.passed:
            return {"key": hand.key, "version": hand.version, "dealer": hand.dealer}
        initial = {
            "key": hand.key,
            "version": hand.version,
            "dealer": hand.dealer,
            "taker": hand.taker,
            "contract": hand.contract,
            "partner": ALONE if hand.partner is None else hand.partner,
            "bouts": hand.bouts,
            # 60, not 60.0 (nor 6E+1): the input shows what the player typed.
            "points": hand.points.quantize(Decimal(1)) if hand.points % 1 == 0 else hand.points,
            "petit_au_bout": hand.petit_au_bout,
            "chelem": hand.chelem,
            "defence_chelem": hand.defence_chelem,
        }
        for seat, size in hand.poignees.items():
            initial[f"poignee_{seat}"] = size
        for seat, count in hand.miseres.items():
            initial[f"misere_{seat}"] = count
        return initial
