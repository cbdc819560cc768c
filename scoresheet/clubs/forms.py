"""The club's forms: a new club (or its new name and rules), a session started from it, the
roster, attaching a session (a club's backup is imported by ``files/forms.py``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoresheet import player_names
from scoresheet.keys import KeyedForm
from scoresheet.sheets.forms import RulesForm, SheetForm

# A name refused by player_names.checked, in the words of the field's own checks.
NAME_ERRORS = {"blank": "required", "long": "max_length"}


class ClubForm(RulesForm):
    """A new club: its name and the house rules its sessions start with."""

    name = forms.CharField(
        label=_("Club name"),
        max_length=player_names.TITLE_LENGTH,
        error_messages={
            "required": _("Club name: enter a name."),
            "max_length": _("Club name: a name has at most 80 characters."),
        },
    )

    def clean(self):
        data = super().clean()
        try:
            data["name"] = player_names.checked(data.get("name") or "", player_names.TITLE_LENGTH)
        except player_names.InvalidName as error:
            data["name"] = ""
            if "name" not in self.errors:
                self.add_error(
                    "name", self.fields["name"].error_messages[NAME_ERRORS[error.reason]]
                )
        # A club's rules are checked by each session against its own number of seats.
        if not any(name in self.errors for name in ("poignees", "rounding", "misere")):
            data["rules"] = self.rules()
        return data


class NewClubForm(KeyedForm, ClubForm):
    """A new club, with its key: the form sent twice opens one club."""


class ClubSheetForm(SheetForm):
    """A session started from the club: players typed or picked from the roster."""


class PlayerNameForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=player_names.PLAYER_LENGTH,
        error_messages={
            "required": _("Name: enter the player's name."),
            "max_length": _("Name: a name has at most 40 characters."),
        },
    )


class RosterForm(forms.Form):
    """Names for the roster, one a line: ``lines`` once cleaned (``writes.add_players`` checks
    each)."""

    names = forms.CharField(
        label=_("Names, one a line"),
        # 200 names of 40 characters and their line breaks.
        max_length=10_000,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off", "autocapitalize": "words"}),
        error_messages={
            "required": _("Names: enter the players' names, one a line."),
            "max_length": _("Names: at most 10,000 characters."),
        },
    )

    def clean(self):
        data = super().clean()
        data["lines"] = (data.get("names") or "").splitlines()
        return data


class MergeForm(forms.Form):
    """Two roster entries that are one person: ``drop`` joins ``keep``."""

    drop = forms.TypedChoiceField(
        label=_("This player"),
        coerce=int,
        error_messages={"required": _("Merge: choose the two players.")},
    )
    keep = forms.TypedChoiceField(
        label=_("is the same person as"),
        coerce=int,
        error_messages={"required": _("Merge: choose the two players.")},
    )

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(p.pk, p.name) for p in players]
        invalid = {"invalid_choice": _("Merge: choose two of the club's players.")}
        for name in ("drop", "keep"):
            self.fields[name].choices = choices
            self.fields[name].error_messages.update(invalid)


class AttachForm(forms.Form):
    """A session to count in the club: its full-access link (or token)."""

    session = forms.CharField(
        label=_("The session's link"),
        max_length=300,
        help_text=_("The link you play the session with (…/s/…/), not its read-only link."),
        error_messages={"required": _("The session's link: paste it here.")},
    )
