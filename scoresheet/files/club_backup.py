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

from django.utils.translation import gettext_noop as _

from scoresheet import limits, player_names, scoring
from scoresheet.files import json_backup, night_files, session_backup, writes
from scoresheet.models import Club, local_time

FORMAT = "tarot-club/1"
# The club nights (files/night_files.py) are optional: older files have none.
KEYS = ("format", "name", "created", "players", "rules", "sessions", "nights")


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
        "players": player_names.alphabetical(names.values()),
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


NAMED = _("Name: give the club a name of 1 to %(length)s characters.")
IN_SESSION = _("Session %(number)s (“%(name)s”): %(problem)s")
SHAPE = json_backup.Shape(
    {
        **json_backup.tagged(
            FORMAT,
            _("This file is not a backup of a club: it has no “format”."),
            {
                "properties": {
                    "format": {
                        "not": {"const": session_backup.FORMAT},
                        "refusal": _(
                            "This file is the backup of one session, not of a club: import it "
                            "on the home page."
                        ),
                    }
                }
            },
        ),
        "required": [key for key in KEYS if key != "nights"],
        "properties": {
            "format": {},
            "name": json_backup.string(NAMED, params={"length": limits.TITLE_LENGTH}),
            "created": json_backup.CREATED,
            "players": {
                "type": "array",
                "refusal": _("Players: give the list of the club's players."),
                "allOf": [
                    {
                        "maxItems": limits.CLUB_BACKUP_PLAYERS,
                        "refusal": _("Players: a club has at most %(most)s players."),
                        "params": {"most": limits.CLUB_BACKUP_PLAYERS},
                    }
                ],
                "items": json_backup.PLAYER,
                "numbered": "number",
            },
            "rules": {},
            "sessions": {
                "type": "array",
                "refusal": _("Sessions: give the list of sessions."),
                "allOf": [
                    {
                        "maxItems": limits.CLUB_BACKUP_SESSIONS,
                        "refusal": _(
                            "This backup has %(count)s sessions; a club's backup holds at most "
                            "%(most)s."
                        ),
                        "params": {"most": limits.CLUB_BACKUP_SESSIONS},
                    }
                ],
                "items": session_backup.SHAPE.schema,
                "each": IN_SESSION,
            },
            "nights": night_files.NIGHTS,
        },
    }
)


def parse_json(data: bytes | str) -> object:
    """The file's JSON value, after the size check; refuses what is not JSON."""
    return json_backup.parse(
        data,
        most=limits.CLUB_BACKUP_BYTES,
        too_large=_(
            "This file is larger than %(size)s MB, the most a club's backup can be: a "
            "bigger one would take too long to import."
        ),
        # The backup is written in UTF-8; a file saved again in another encoding is refused.
        not_text=_("This file is not a backup of a club: it is not UTF-8 text."),
        not_json=_("This file is not a backup of a club: it is not JSON."),
        size=limits.CLUB_BACKUP_BYTES // (1024 * 1024),
    )


def read(data: bytes | str) -> ClubBackup:
    """Check a whole club backup; raises ``json_backup.BackupError`` at the first thing wrong,
    naming the session (from 1) and the hand."""
    content = parse_json(data)
    # Counted before anything else is checked: a file too big to import in time is refused
    # at once.
    check_size(content)
    SHAPE.check(content)
    name = json_backup.title(content["name"], NAMED)
    created = json_backup.read_created(content["created"])
    players = json_backup.read_names(
        content["players"],
        _("Player %(number)s: “%(name)s” is already one of the club's players."),
    )
    rules = json_backup.read_rules(content["rules"])
    roster = {player_names.key(name) for name in players}
    sessions = json_backup.each(
        content["sessions"],
        IN_SESSION,
        lambda session: read_session(session, roster),
    )
    nights = night_files.read(content.get("nights", []), players, sessions, rules)
    return ClubBackup(name, created, players, rules, sessions, nights)


def check_size(content: object) -> None:
    """Refuse a file with more hands in all than a club's backup holds."""
    sessions = content.get("sessions") if isinstance(content, dict) else None
    if not isinstance(sessions, list):
        return
    hands = sum(
        len(session["hands"])
        for session in sessions
        if isinstance(session, dict) and isinstance(session.get("hands"), list)
    )
    if hands > limits.CLUB_BACKUP_HANDS:
        json_backup.refuse(
            _(
                "This backup has %(count)s hands; a club's backup holds at most %(most)s: a "
                "bigger one would take too long to import."
            ),
            field="sessions",
            count=hands,
            most=limits.CLUB_BACKUP_HANDS,
        )


def read_session(content: dict, roster: set[str]) -> session_backup.Backup:
    """One session of the club's backup, checked as a session's backup is; its players are
    roster names."""
    session = session_backup.read_content(content)
    for player in session.players:
        if player_names.key(player) not in roster:
            json_backup.refuse(
                _("Players: “%(name)s” is not one of the club's players."),
                field="players",
                name=json_backup.shown(player),
            )
    return session


def restore(checked: ClubBackup) -> Club:
    """A new club (new links) holding a checked backup, its nights with it, written in one
    transaction (``writes.restore_club``)."""
    return writes.restore_club(checked)


def load(data: bytes | str) -> Club:
    """Restore a club backup as a new club; raises ``json_backup.BackupError``, writing nothing."""
    return restore(read(data))
