"""The club's writes: the club and its settings, its roster (add, rename, merge), the sessions
it counts (start, attach, detach), in the shape of a sheet's (``sheets/writes.py``).

Each function is one call and one short transaction: it locks the club's row (for a write
that touches a session too: the sheet first, then the club, the order ``writes`` takes them
in), checks the form's key or what it was told under that lock, writes, updates the derived
data (``results``), and returns what changed (``ClubChange``). A unique violation (two
phones at once) is turned here into the club's own error (``ClubError``), never reaching a
view. A session's own hands still go through ``writes``.

Views parse a request, call one of these and render what it returns.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404

# _ only marks a message for extraction; ClubError.translated translates it.
from django.utils.translation import gettext_noop as _

from scoresheet import bulk, keys, limits, player_names, scoring
from scoresheet.clubs import ClubError, results
from scoresheet.models import Club, ClubPlayer, ClubSheet, Sheet, SpentKey
from scoresheet.sheets import writes

# What a roster name already taken says, wherever it is typed.
TAKEN = _("“%(name)s” is already one of the club's players.")


@dataclass(frozen=True)
class ClubChange:
    """What a club write did: the club after it and the roster player, session or sheet
    concerned.

    ``done`` is False when nothing was written: the same form sent again (``already``: its
    key made the club or the session the first time, which this holds), a name already the
    player's, or a session no longer counted.
    """

    club: Club
    player: ClubPlayer | None = None
    # The players a roster write added, in the order typed (``add_players``).
    players: tuple[ClubPlayer, ...] = ()
    club_sheet: ClubSheet | None = None
    sheet: Sheet | None = None
    done: bool = True
    already: bool = False


def locked(club: Club) -> Club:
    """The club, locked until the transaction ends (or 404 if it is gone): the owner row of
    every write of the club and of its nights."""
    return get_object_or_404(Club.objects.select_for_update(), pk=club.pk)


def _locked_sheet(sheet_id: int) -> Sheet:
    return get_object_or_404(Sheet.objects.select_for_update(), pk=sheet_id)


# The roster


def clean_player_name(value: str) -> str:
    """A roster name as it is stored, or ``ClubError`` saying why it cannot be one."""
    try:
        return player_names.checked(value or "", player_names.PLAYER_LENGTH)
    except player_names.InvalidName as error:
        if error.reason == "blank":
            raise ClubError(_("Name: enter the player's name.")) from None
        raise ClubError(
            _("Name: a name has at most %(length)s characters."), length=player_names.PLAYER_LENGTH
        ) from None


def roster_names(names) -> list[str]:
    """Roster names, cleaned, none twice (by ``player_names.key``); ``ClubError`` names the
    first that cannot be one."""
    cleaned, seen = [], set()
    for name in names:
        name = clean_player_name(name)
        if player_names.key(name) in seen:
            raise ClubError(TAKEN, name=name)
        seen.add(player_names.key(name))
        cleaned.append(name)
    return cleaned


def create_club(
    name: str,
    rules: scoring.Rules = scoring.FFT,
    players=(),
    *,
    key: uuid.UUID | None = None,
    created=None,
) -> ClubChange:
    """A new club, its default house rules and its first players (``created``: a restored
    club's date). ``key``, the new-club form's: the same form sent again, even twice at once,
    opens the club it made the first time (``already``)."""
    name = player_names.checked(name, player_names.TITLE_LENGTH)
    players = roster_names(players)

    def make() -> Club:
        with transaction.atomic():
            club = Club.objects.create(name=name, rules=rules.to_data())
            if key is not None:
                keys.spend(key, SpentKey.Made.CLUB, club=club)
            if created is not None:
                # auto_now_add stamps today; a restored club keeps the date it was created.
                Club.objects.filter(pk=club.pk).update(created=created)
                club.created = created
            ClubPlayer.objects.bulk_create(ClubPlayer(club=club, name=p) for p in players)
        return club

    if key is None:
        return ClubChange(make())
    club, made = keys.once(key, SpentKey.Made.CLUB, make)
    return ClubChange(club, done=made, already=not made)


def change_club(club: Club, name: str, rules: scoring.Rules) -> ClubChange:
    """Rename a club and change its default house rules: only sessions started afterwards take
    them; every session already played keeps its own rules and scores."""
    name = player_names.checked(name, player_names.TITLE_LENGTH)
    with transaction.atomic():
        club = locked(club)
        club.name, club.rules = name, rules.to_data()
        club.save(update_fields=["name", "rules"])
    return ClubChange(club)


def add_player(club: Club, name: str) -> ClubChange:
    """Put a new name on the roster (``add_players`` with one line); refuses a name already
    there (by ``player_names.key``): of a double tap, the first adds it, the second is told it
    is there."""
    return add_players(club, [name])


class RosterRefused(ClubError):
    """Names typed for the roster, refused together: ``problems`` holds one ``ClubError`` per
    wrong line, each naming it; nothing was stored."""

    def __init__(self, problems: list[ClubError]):
        super().__init__(problems[0].message, **problems[0].params)
        self.problems = problems


# The roster's text box: what each line may be refused for (the first message of each pair
# when the box holds one name, without its line).
LINE_BLANK = _("Names: enter the players' names, one a line.")
LINE_MANY = _("Names: at most %(most)s names at once, not %(count)s.")
LINE_LONG = _("Names, line %(line)s: a name has at most %(length)s characters.")
LINE_TWICE = _("Names, line %(line)s: “%(name)s” is on line %(first)s already.")
LINE_ALIKE = _(
    "Names, line %(line)s: “%(name)s” is the same name as “%(other)s” (line %(first)s)."
)
LINE_TAKEN = _("Names, line %(line)s: “%(name)s” is already one of the club's players.")
LINE_ALIKE_TAKEN = _(
    "Names, line %(line)s: “%(name)s” is the same name as “%(other)s”, already one of the "
    "club's players."
)
ALIKE_TAKEN = _("“%(name)s” is the same name as “%(other)s”, already one of the club's players.")


def typed_names(lines: list[str]) -> tuple[list[tuple[int, str]], list[tuple[int, ClubError]]]:
    """The names of a text box, one a line, each with its line's number (from 1), blank lines
    left out; and the lines that cannot be a new name, each with its ``ClubError``: too long,
    or the same name as a line above it (typed twice, or alike but for case, an accent typed
    apart or an invisible character)."""
    found, problems, seen = [], [], {}
    single = sum(1 for line in lines if player_names.clean(line)) == 1
    for number, line in enumerate(lines, start=1):
        if not player_names.clean(line):
            continue
        try:
            name = clean_player_name(line)
        except ClubError as error:
            long = ClubError(LINE_LONG, line=number, length=player_names.PLAYER_LENGTH)
            problems.append((number, error if single else long))
            continue
        key = player_names.key(name)
        if key in seen:
            first, other = seen[key]
            message = LINE_TWICE if other == name else LINE_ALIKE
            problem = ClubError(message, line=number, name=name, other=other, first=first)
            problems.append((number, problem))
            continue
        seen[key] = (number, name)
        found.append((number, name))
    return found, problems


def add_players(club: Club, lines: list[str]) -> ClubChange:
    """Put the names of ``lines`` (a text box, one name a line) on the roster, all of them or
    none: a line that cannot be a new name (``typed_names``), or whose name the roster has
    already (alike but for case or an accent typed apart included), refuses the whole box
    (``RosterRefused``, naming every such line). One transaction; of a double tap, the first
    adds the names and the second is told they are there."""
    typed, problems = typed_names(lines)
    if not typed and not problems:
        raise RosterRefused([ClubError(LINE_BLANK)])
    if len(typed) > limits.ROSTER_ADD:
        raise RosterRefused([ClubError(LINE_MANY, most=limits.ROSTER_ADD, count=len(typed))])
    single = len(typed) + len(problems) == 1
    try:
        with transaction.atomic():
            club = locked(club)
            problems.extend(_taken(club, typed, single))
            if problems:
                problems.sort(key=lambda problem: problem[0])
                raise RosterRefused([problem for _number, problem in problems])
            players = ClubPlayer.objects.bulk_create(
                ClubPlayer(club=club, name=name) for _number, name in typed
            )
    except IntegrityError:
        raise ClubError(TAKEN, name=typed[0][1]) from None
    return ClubChange(club, player=players[0], players=tuple(players))


# What a typed name the roster has already says, by (one name typed, the very same name).
_TAKEN_MESSAGES = {
    (True, True): TAKEN,
    (True, False): ALIKE_TAKEN,
    (False, True): LINE_TAKEN,
    (False, False): LINE_ALIKE_TAKEN,
}


def _taken(club: Club, typed: list[tuple[int, str]], single: bool) -> list[tuple[int, ClubError]]:
    """The typed names (line number, name) the roster has already, alike included, each with
    its line's number and ``ClubError`` (without the line when ``single``: one name typed)."""
    wanted = {player_names.key(name): (number, name) for number, name in typed}
    found = []
    for player in club.players.filter(key__in=list(wanted)):
        number, name = wanted[player.key]
        message = _TAKEN_MESSAGES[single, player.name == name]
        found.append((number, ClubError(message, line=number, name=name, other=player.name)))
    return found


def roster_entries(club: Club, names) -> list[ClubPlayer]:
    """The roster players of ``names`` (cleaned names), in order; a name not on the roster
    yet is added to it. Inside a write of this module, the club locked."""
    wanted = [player_names.key(name) for name in names]
    found = {p.key: p for p in club.players.filter(key__in=wanted)}
    new = {}
    for name, key in zip(names, wanted, strict=True):
        if key not in found and key not in new:
            new[key] = ClubPlayer(club=club, name=clean_player_name(name))
    # One statement for every new name (a night of newcomers), their ids returned.
    found.update(zip(new, ClubPlayer.objects.bulk_create(new.values()), strict=True))
    return [found[key] for key in wanted]


def rename_player(club: Club, player_id: int, name: str) -> ClubChange:
    """Give a roster entry another name; refuses a name another entry has, and an entry gone
    meanwhile (merged into another)."""
    name = clean_player_name(name)
    clash = ClubError(
        _("“%(name)s” is already one of the club's players: merge them instead."), name=name
    )
    try:
        with transaction.atomic():
            club = locked(club)
            player = club.players.filter(pk=player_id).first()
            if player is None:
                raise ClubError(_("That player is not one of the club's players."))
            if club.players.filter(key=player_names.key(name)).exclude(pk=player.pk).exists():
                raise clash
            if player.name == name:
                return ClubChange(club, player=player, done=False)
            player.name = name
            player.save(update_fields=["name", "key"])
    except IntegrityError:
        raise clash from None
    return ClubChange(club, player=player)


def merge_players(club: Club, keep_id: int, drop_id: int) -> ClubChange:
    """Make ``drop`` (a name typed twice) the same player as ``keep``: every session of
    ``drop`` counts for ``keep``, and ``drop`` leaves the roster."""
    if keep_id == drop_id:
        raise ClubError(_("Choose two different players to merge."))
    with transaction.atomic():
        club = locked(club)
        players = {p.pk: p for p in club.players.filter(pk__in=[keep_id, drop_id])}
        if len(players) != 2:
            raise ClubError(_("That player is not one of the club's players."))
        keep, drop = players[keep_id], players[drop_id]
        changed = []
        # Only what the merge reads: a big club's sessions carry their sheets' statistics.
        club_sheets = club.club_sheets.select_related("sheet").only(
            "club", "players", "sheet__name"
        )
        for club_sheet in club_sheets:
            if drop.pk not in club_sheet.players:
                continue
            if keep.pk in club_sheet.players:
                raise ClubError(
                    _("%(keep)s and %(drop)s both played “%(session)s”: they are two people."),
                    keep=keep.name,
                    drop=drop.name,
                    session=club_sheet.sheet.name,
                )
            club_sheet.players = [keep.pk if p == drop.pk else p for p in club_sheet.players]
            changed.append(club_sheet)
        bulk.update(ClubSheet, ("players",), [(each.pk, each.players) for each in changed])
        results.merged(club.pk, keep.pk, drop.pk)
        drop.delete()
    return ClubChange(club, player=keep)


# The club's sessions


def start_sheet(
    club: Club,
    name: str,
    names,
    first_dealer: int,
    rules: scoring.Rules | None = None,
    *,
    key: uuid.UUID | None = None,
) -> ClubChange:
    """A new session of the club: its seats are roster players (a new name joins the roster),
    and it plays the club's default rules unless given others. ``key``, the form's: the same
    form sent again opens the session it made the first time (``already``); a key spent in
    another club raises ``keys.KeyTaken``."""
    names = roster_names(names)

    def make() -> Sheet:
        with transaction.atomic():
            # The club first: two sessions started at once with a new name add it once.
            owner = locked(club)
            entries = roster_entries(owner, names)
            sheet = writes.create_sheet(
                name, names, first_dealer, rules=owner.game_rules if rules is None else rules
            )
            if key is not None:
                keys.spend(key, SpentKey.Made.SHEET, sheet=sheet, club=owner)
            counted(owner, sheet, entries)
        return sheet

    if key is None:
        sheet, made = make(), True
    else:
        sheet, made = keys.once(key, SpentKey.Made.SHEET, make, club=club)
    if not made:
        return ClubChange(club, sheet=sheet, done=False, already=True)
    return ClubChange(club, club_sheet=sheet.club_sheet, sheet=sheet)


def start_sheets(club: Club, sessions) -> list[ClubSheet]:
    """New sessions of the club at once, without a hand yet (a night's round): ``sessions``
    are (name, roster players in seat order, rules). A few statements whatever their number.
    Inside a write, the club locked."""
    new = writes.NewSheets()
    for name, entries, rules in sessions:
        new.add(name, [player.name for player in entries], 0, rules=rules)
    sheets = new.write()
    club_sheets = ClubSheet.objects.bulk_create(
        ClubSheet(club=club, sheet=sheet, players=[player.pk for player in entries])
        for sheet, (_name, entries, _rules) in zip(sheets, sessions, strict=True)
    )
    results.started(club.pk, club_sheets, sheets)
    return club_sheets


def counted(club: Club, sheet: Sheet, entries: list[ClubPlayer]) -> ClubSheet:
    """Count ``sheet`` in the club, seat ``i`` being ``entries[i]``, with its results. Inside a
    write of this module, the sheet and the club locked."""
    club_sheet = ClubSheet.objects.create(club=club, sheet=sheet, players=[p.pk for p in entries])
    results.store(club_sheet, sheet)
    return club_sheet


def attach(club: Club, sheet: Sheet, names) -> ClubChange:
    """Count an existing session in the club, seat ``i`` being roster player ``names[i]``
    (a new name joins the roster). A session belongs to one club at most: of two attaches at
    once, the first counts it, the second is told it belongs to a club."""
    names = [clean_player_name(name) for name in names]
    if len(names) != sheet.seats.count():
        raise ClubError(_("Give a player for every seat of the session."))
    name_keys = [player_names.key(name) for name in names]
    if len(set(name_keys)) != len(name_keys):
        raise ClubError(_("Each seat needs a different player."))
    belongs = ClubError(_("This session already belongs to a club."))
    try:
        with transaction.atomic():
            # The sheet first, then the club, as the write path locks them: its totals cannot
            # change between reading them and counting them.
            sheet = _locked_sheet(sheet.pk)
            club = locked(club)
            if ClubSheet.objects.filter(sheet=sheet).exists():
                raise belongs
            club_sheet = counted(club, sheet, roster_entries(club, names))
    except IntegrityError:
        raise belongs from None
    return ClubChange(club, club_sheet=club_sheet, sheet=sheet)


def detach(club: Club, club_sheet_id: int) -> ClubChange:
    """Stop counting a session in the club; the session itself is left as it is. ``done`` is
    False (``sheet`` None) when it was no longer counted."""
    sheet_id = club.club_sheets.filter(pk=club_sheet_id).values_list("sheet_id", flat=True).first()
    if sheet_id is None:
        return ClubChange(club, done=False)
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id)
        club = locked(club)
        club_sheet = club.club_sheets.filter(pk=club_sheet_id).first()
        if club_sheet is None:
            # Detached meanwhile, by another phone.
            return ClubChange(club, done=False)
        club_sheet.sheet = sheet
        results.remove(club_sheet)
    return ClubChange(club, sheet=sheet)
