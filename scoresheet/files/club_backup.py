"""A club's files: the standings as CSV, and the JSON backup (``tarot-club/1``) that restores
the club, its roster and its sessions.

The backup is ``{"format": "tarot-club/1", "name", "created", "players": [roster names],
"rules": {…}, "sessions": [tarot-scoresheet/1 objects whose players are roster names]}``
(README, "The club"). Each session is checked by ``backup.read_content``, as a session's own
backup is; importing checks the whole file before writing anything.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from types import SimpleNamespace

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from scoresheet import names as player_names
from scoresheet import scoring
from scoresheet.clubs import standings as clubs
from scoresheet.clubs import writes as club_writes
from scoresheet.files import session_backup as backup
from scoresheet.models import Club

FORMAT = "tarot-club/1"
KEYS = ("format", "name", "created", "players", "rules", "sessions")
# A club's backup holds many sessions: larger than a session's, still read whole. The limits
# keep its import well inside gunicorn's 30 s worker timeout on a busy 2-core machine: 36,000
# hands (6.3 MB) import in about 4 s there, the most it holds in 6 to 12 (issue 20,
# benchmarks/writes.py).
MAX_BYTES = 10 * 1024 * 1024
MAX_SESSIONS = 5_000
MAX_PLAYERS = 1_000
MAX_HANDS = 50_000


# Writing


def dump(club: Club) -> dict:
    """Everything the app stores about a club, as the backup's JSON object; each session's
    players are written as their roster names."""
    names = {p.pk: p.name for p in club.players.all()}
    sessions = []
    for session in club.sessions.select_related("sheet").order_by("sheet__created", "sheet_id"):
        data = backup.dump(session.sheet)
        data["players"] = [names[pk] for pk in session.players]
        sessions.append(data)
    return {
        "format": FORMAT,
        "name": club.name,
        "created": backup.local_time(club.created).isoformat(),
        "players": sorted(names.values(), key=player_names.key),
        "rules": club.game_rules.to_data(),
        "sessions": sessions,
    }


def _default(value):
    if isinstance(value, Decimal):
        return backup.card_points(value)
    raise TypeError(type(value).__name__)


def dumps(data: dict) -> str:
    """The backup as text: one hand per line, as a session's backup writes them."""
    head = [
        f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in data.items()
        if key != "sessions"
    ]
    sessions = ",\n".join(
        "\n".join("  " + line for line in backup.dumps(session).rstrip("\n").split("\n"))
        for session in data["sessions"]
    )
    body = f'  "sessions": [\n{sessions}\n  ]' if sessions else '  "sessions": []'
    return "{\n" + ",\n".join([*head, body]) + "\n}\n"


# Reading


@dataclass(frozen=True)
class ClubBackup:
    """A club backup that passed every check."""

    name: str
    created: datetime
    players: tuple[str, ...]
    rules: scoring.Rules
    sessions: tuple[backup.Backup, ...]


def parse_json(data: bytes | str) -> object:
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
    if size > MAX_BYTES:
        backup.refuse(
            _(
                "This file is larger than %(size)s MB, the most a club's backup can be: a "
                "bigger one would take too long to import."
            ),
            size=MAX_BYTES // (1024 * 1024),
        )
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        # The backup is written in UTF-8; a file saved again in another encoding is refused.
        backup.refuse(_("This file is not a backup of a club: it is not UTF-8 text."))
    try:
        return json.loads(
            text.removeprefix(backup.BOM),
            parse_float=Decimal,
            parse_constant=backup._refuse_constant,
            object_pairs_hook=backup._unique_keys,
        )
    except (ValueError, RecursionError):
        backup.refuse(_("This file is not a backup of a club: it is not JSON."))


def read(data: bytes | str) -> ClubBackup:
    """Check a whole club backup; raises ``backup.BackupError`` at the first thing wrong,
    naming the session (from 1) and the hand."""
    content = parse_json(data)
    if not isinstance(content, dict) or "format" not in content:
        backup.refuse(_("This file is not a backup of a club: it has no “format”."))
    if content["format"] == backup.FORMAT:
        backup.refuse(
            _(
                "This file is the backup of one session, not of a club: import it on the home "
                "page."
            ),
            field="format",
        )
    if content["format"] != FORMAT:
        backup.refuse(
            _("This backup's format is “%(value)s”; this app reads “%(format)s”."),
            field="format",
            value=backup.shown(content["format"]),
            format=FORMAT,
        )
    for key in content:
        if key not in KEYS:
            backup.refuse(
                _("The backup has an unknown entry “%(key)s”."), field=key, key=backup.shown(key)
            )
    for key in KEYS:
        if key not in content:
            backup.refuse(_("The backup has no “%(key)s”."), field=key, key=key)
    name = backup.clean_name(content["name"], clubs.CLUB_NAME_LENGTH)
    if not name:
        backup.refuse(
            _("Name: give the club a name of 1 to %(length)s characters."),
            field="name",
            length=clubs.CLUB_NAME_LENGTH,
        )
    created = backup.read_created(content["created"])
    players = read_roster(content["players"])
    try:
        rules = scoring.Rules.from_data(content["rules"])
    except scoring.InvalidRules as error:
        problem = error.problems[0]
        params = {key: backup.shown(value) for key, value in problem.params.items()}
        raise backup.BackupError(gettext(problem.message) % params, field="rules") from None
    sessions = content["sessions"]
    if not isinstance(sessions, list):
        backup.refuse(_("Sessions: give the list of sessions."), field="sessions")
    if len(sessions) > MAX_SESSIONS:
        backup.refuse(
            _("This backup has %(count)s sessions; a club's backup holds at most %(most)s."),
            field="sessions",
            count=len(sessions),
            most=MAX_SESSIONS,
        )
    # Counted before any is checked: a file too big to import in time is refused at once.
    hands = sum(
        len(session["hands"])
        for session in sessions
        if isinstance(session, dict) and isinstance(session.get("hands"), list)
    )
    if hands > MAX_HANDS:
        backup.refuse(
            _(
                "This backup has %(count)s hands; a club's backup holds at most %(most)s: a "
                "bigger one would take too long to import."
            ),
            field="sessions",
            count=hands,
            most=MAX_HANDS,
        )
    roster = {player_names.key(name) for name in players}
    checked = []
    for number, session in enumerate(sessions, start=1):
        try:
            read_session = backup.read_content(session)
            for player in read_session.players:
                if player_names.key(player) not in roster:
                    backup.refuse(
                        _("Players: “%(name)s” is not one of the club's players."),
                        field="players",
                        name=backup.shown(player),
                    )
        except backup.BackupError as error:
            label = session.get("name") if isinstance(session, dict) else None
            label = backup.shown(label) if isinstance(label, str) else ""
            text = gettext("Session %(number)s (“%(name)s”): %(problem)s") % {
                "number": number,
                "name": label,
                "problem": error.message,
            }
            raise backup.BackupError(text, hand=error.hand, field=error.field) from None
        checked.append(read_session)
    return ClubBackup(name, created, players, rules, tuple(checked))


def read_roster(value: object) -> tuple[str, ...]:
    """The roster's names: each a valid player name, no two with the same key."""
    if not isinstance(value, list):
        backup.refuse(_("Players: give the list of the club's players."), field="players")
    if len(value) > MAX_PLAYERS:
        backup.refuse(
            _("Players: a club has at most %(most)s players."), field="players", most=MAX_PLAYERS
        )
    names, seen = [], set()
    for number, name in enumerate(value, start=1):
        name = backup.clean_name(name, clubs.NAME_LENGTH)
        if not name:
            backup.refuse(
                _("Player %(number)s: give a name of 1 to %(length)s characters."),
                field="players",
                number=number,
                length=clubs.NAME_LENGTH,
            )
        if player_names.key(name) in seen:
            backup.refuse(
                _("Player %(number)s: “%(name)s” is already one of the club's players."),
                field="players",
                number=number,
                name=name,
            )
        seen.add(player_names.key(name))
        names.append(name)
    return tuple(names)


def restore(checked: ClubBackup) -> Club:
    """A new club (new links) holding a checked backup: ``club_writes.restore``."""
    return club_writes.restore(checked).club


def load(data: bytes | str) -> Club:
    """Restore a club backup as a new club; raises ``backup.BackupError``, writing nothing."""
    return restore(read(data))


# The standings as CSV


def csv_header() -> list[str]:
    return [
        gettext("Player"),
        gettext("Sessions"),
        gettext("Hands"),
        gettext("Points"),
        gettext("Points per hand"),
        gettext("Sessions won"),
        gettext("Hands taken"),
        gettext("Made (%)"),
        gettext("Average contract"),
        gettext("Rating"),
    ]


def csv_rows(result: clubs.Standings) -> Iterator[list]:
    yield csv_header()
    for row in result.rows:
        yield [
            row.player.name,
            row.sessions,
            row.hands,
            row.points,
            "" if row.per_hand is None else row.per_hand,
            row.wins,
            row.taken,
            "" if row.share_made is None else row.share_made,
            "" if row.average_contract is None else row.average_contract,
            row.rating if row.sessions else "",
        ]


def csv_lines(result: clubs.Standings) -> Iterator[str]:
    """The standings as the session CSV is written: UTF-8 with a BOM, every text quoted, a
    text that would run as a formula prefixed with '."""
    writer = csv.writer(backup._Echo(), quoting=csv.QUOTE_NONNUMERIC)
    rows = csv_rows(result)
    yield backup.BOM + writer.writerow([backup.cell(value) for value in next(rows)])
    for row in rows:
        yield writer.writerow([backup.cell(value) for value in row])


def filename(club: Club, extension: str, what: str = "") -> str:
    """A file name made of the club's name (and ``what``), safe on every system."""
    name = backup.filename(SimpleNamespace(name=club.name, created=club.created), extension)
    return f"{what} {name}" if what else name
