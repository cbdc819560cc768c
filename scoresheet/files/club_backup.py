"""A club's JSON backup (``tarot-club/1``): writing it, and reading it back into a new club,
its roster and its sessions (the standings' CSV: ``club_csv.py``).

The backup is ``{"format": "tarot-club/1", "name", "created", "players": [roster names],
"rules": {…}, "sessions": [tarot-scoresheet/1 objects whose players are roster names]}``
(docs/formats.md, "JSON backup of a club"). Each session is checked by
``session_backup.read_content``, as a session's own backup is; importing checks the whole file
before writing anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from scoresheet import player_names, scoring
from scoresheet.files import json_backup, night_files, session_backup, writes
from scoresheet.models import Club, local_time

FORMAT = "tarot-club/1"
KEYS = ("format", "name", "created", "players", "rules", "sessions", "nights")
# The club nights (issue 24, files/night_files.py): older files have none.
OPTIONAL = ("nights",)
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
    for session in club.club_sheets.select_related("sheet").order_by("sheet__created", "sheet_id"):
        data = session_backup.dump(session.sheet)
        data["players"] = [names[pk] for pk in session.players]
        sessions.append(data)
    data = {
        "format": FORMAT,
        "name": club.name,
        "created": local_time(club.created).isoformat(),
        "players": sorted(names.values(), key=player_names.key),
        "rules": club.game_rules.to_data(),
        "sessions": sessions,
    }
    if club.nights.exists():
        data["nights"] = night_files.dump(club, names)
    return data


def dumps(data: dict) -> str:
    """The backup as text: one hand per line, as a session's backup writes them."""
    head = [
        f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in data.items()
        if key != "sessions"
    ]
    sessions = ",\n".join(
        "\n".join("  " + line for line in session_backup.dumps(session).rstrip("\n").split("\n"))
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
    sessions: tuple[session_backup.Backup, ...]
    nights: tuple = ()


def parse_json(data: bytes | str) -> object:
    """The file's JSON value, after the size check; refuses what is not JSON."""
    return json_backup.parse(
        data,
        most=MAX_BYTES,
        too_large=_(
            "This file is larger than %(size)s MB, the most a club's backup can be: a "
            "bigger one would take too long to import."
        ),
        # The backup is written in UTF-8; a file saved again in another encoding is refused.
        not_text=_("This file is not a backup of a club: it is not UTF-8 text."),
        not_json=_("This file is not a backup of a club: it is not JSON."),
        size=MAX_BYTES // (1024 * 1024),
    )


def read(data: bytes | str) -> ClubBackup:
    """Check a whole club backup; raises ``json_backup.BackupError`` at the first thing wrong,
    naming the session (from 1) and the hand."""
    content = parse_json(data)
    if not isinstance(content, dict) or "format" not in content:
        json_backup.refuse(_("This file is not a backup of a club: it has no “format”."))
    if content["format"] == session_backup.FORMAT:
        json_backup.refuse(
            _(
                "This file is the backup of one session, not of a club: import it on the home "
                "page."
            ),
            field="format",
        )
    if content["format"] != FORMAT:
        json_backup.refuse(
            _("This backup's format is “%(value)s”; this app reads “%(format)s”."),
            field="format",
            value=json_backup.shown(content["format"]),
            format=FORMAT,
        )
    for key in content:
        if key not in KEYS:
            json_backup.refuse(
                _("The backup has an unknown entry “%(key)s”."),
                field=key,
                key=json_backup.shown(key),
            )
    for key in KEYS:
        if key not in content and key not in OPTIONAL:
            json_backup.refuse(_("The backup has no “%(key)s”."), field=key, key=key)
    name = json_backup.clean_name(content["name"], player_names.TITLE_LENGTH)
    if not name:
        json_backup.refuse(
            _("Name: give the club a name of 1 to %(length)s characters."),
            field="name",
            length=player_names.TITLE_LENGTH,
        )
    created = json_backup.read_created(content["created"])
    players = read_roster(content["players"])
    try:
        rules = scoring.Rules.from_data(content["rules"])
    except scoring.InvalidRules as error:
        problem = error.problems[0]
        params = {key: json_backup.shown(value) for key, value in problem.params.items()}
        raise json_backup.BackupError(gettext(problem.message) % params, field="rules") from None
    sessions = content["sessions"]
    if not isinstance(sessions, list):
        json_backup.refuse(_("Sessions: give the list of sessions."), field="sessions")
    if len(sessions) > MAX_SESSIONS:
        json_backup.refuse(
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
        json_backup.refuse(
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
            read_session = session_backup.read_content(session)
            for player in read_session.players:
                if player_names.key(player) not in roster:
                    json_backup.refuse(
                        _("Players: “%(name)s” is not one of the club's players."),
                        field="players",
                        name=json_backup.shown(player),
                    )
        except json_backup.BackupError as error:
            label = session.get("name") if isinstance(session, dict) else None
            label = json_backup.shown(label) if isinstance(label, str) else ""
            text = gettext("Session %(number)s (“%(name)s”): %(problem)s") % {
                "number": number,
                "name": label,
                "problem": error.message,
            }
            raise json_backup.BackupError(text, hand=error.hand, field=error.field) from None
        checked.append(read_session)
    nights = night_files.read(content.get("nights"), players, checked, rules)
    return ClubBackup(name, created, players, rules, tuple(checked), nights)


def read_roster(value: object) -> tuple[str, ...]:
    """The roster's names: each a valid player name, no two with the same key."""
    if not isinstance(value, list):
        json_backup.refuse(_("Players: give the list of the club's players."), field="players")
    if len(value) > MAX_PLAYERS:
        json_backup.refuse(
            _("Players: a club has at most %(most)s players."), field="players", most=MAX_PLAYERS
        )
    return json_backup.read_names(
        value, _("Player %(number)s: “%(name)s” is already one of the club's players.")
    )


def restore(checked: ClubBackup) -> Club:
    """A new club (new links) holding a checked backup, its nights included
    (``writes.restore_club``)."""
    return writes.restore_club(checked)


def load(data: bytes | str) -> Club:
    """Restore a club backup as a new club; raises ``json_backup.BackupError``, writing nothing."""
    return restore(read(data))
