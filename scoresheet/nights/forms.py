"""The new-night form: its name and date, the players present (ticked from the roster, new
names added), the rounds, the deals of a round, the minutes of a round, the house rules."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoresheet import limits, player_names
from scoresheet.keys import KeyedForm
from scoresheet.sheets.forms import NumberField, RulesForm


def bounded(label, least, most, message, **kwargs):
    """A whole number from ``least`` to ``most``; anything else is refused by ``message``
    (which names the field)."""
    errors = dict.fromkeys(("required", "invalid", "min_value", "max_value"), message)
    return NumberField(
        label=label, min_value=least, max_value=most, error_messages=errors, **kwargs
    )


class NightForm(KeyedForm, RulesForm):
    """A new club night; cleaning it gives ``names``, every player present, none twice."""

    name = forms.CharField(
        label=_("Name of the night"),
        max_length=player_names.TITLE_LENGTH,
        error_messages={
            "required": _("Name of the night: enter a name."),
            "max_length": _("Name of the night: a name has at most 80 characters."),
        },
    )
    date = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": _("Date: enter the night's date."),
            "invalid": _("Date: enter a date such as 2026-03-14."),
        },
    )
    players = forms.MultipleChoiceField(
        label=_("Players present"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": _("Players present: tick the club's players.")},
    )
    new_players = forms.CharField(
        label=_("New players"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One name a line: each joins the club's players."),
        error_messages={"max_length": _("New players: at most 4000 characters.")},
    )
    rounds = bounded(
        _("Rounds"),
        1,
        limits.NIGHT_ROUNDS,
        _("Rounds: a whole number from 1 to 20."),
        initial=5,
    )
    deals = bounded(
        _("Deals per round at each table"),
        1,
        limits.NIGHT_DEALS,
        _("Deals per round: a whole number from 1 to 40."),
        initial=4,
    )
    passed_counts = forms.BooleanField(
        label=_("A passed deal counts as a deal"),
        required=False,
        initial=True,
        help_text=_(
            "Off: a deal everyone passed is dealt again, and the table still plays its deals."
        ),
    )
    minutes = bounded(
        _("Minutes per round"),
        1,
        limits.NIGHT_MINUTES,
        _("Minutes per round: leave it empty, or a whole number from 1 to 240."),
        required=False,
        help_text=_("Optional: a timer counts down on the night's page and the screen."),
    )

    def __init__(self, *args, roster=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(name, name) for name in roster]

    def clean(self):
        data = super().clean()
        data["names"] = self._present(data)
        if not self.has_error("players") and not self.has_error("new_players"):
            self._check_count(data["names"])
        try:
            data["name"] = player_names.checked(data.get("name") or "", player_names.TITLE_LENGTH)
        except player_names.InvalidName:
            if not self.has_error("name"):
                self.add_error("name", self.fields["name"].error_messages["required"])
        if not any(name in self.errors for name in ("poignees", "rounding", "misere")):
            data["rules"] = self.rules()
        return data

    def _present(self, data) -> list[str]:
        """Every player present, each once: the ticked names, then the typed ones; a name too
        long, or there twice, is refused on its field."""
        names, seen = [], {}
        ticked = data.get("players") or []
        typed = [line.strip() for line in (data.get("new_players") or "").splitlines()]
        for name in [*ticked, *(line for line in typed if line)]:
            try:
                name = player_names.checked(name, player_names.PLAYER_LENGTH)
            except player_names.InvalidName:
                self.add_error(
                    "new_players",
                    _("New players: a name has at most %(length)s characters.")
                    % {"length": player_names.PLAYER_LENGTH},
                )
                continue
            key = player_names.key(name)
            if key in seen:
                field = "new_players" if name in typed else "players"
                self.add_error(
                    field,
                    _("Players: “%(name)s” is there twice.") % {"name": name},
                )
                continue
            seen[key] = name
            names.append(name)
        return names

    def _check_count(self, names: list[str]) -> None:
        """Refuses, on Players present, a night of fewer or more players than a night holds."""
        if len(names) < limits.NIGHT_FEWEST:
            self.add_error(
                "players",
                _("Players present: a night needs at least %(count)s players, not %(value)s.")
                % {"count": limits.NIGHT_FEWEST, "value": len(names)},
            )
        elif len(names) > limits.NIGHT_MOST:
            self.add_error(
                "players",
                _("Players present: at most %(most)s players.") % {"most": limits.NIGHT_MOST},
            )
