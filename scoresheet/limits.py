"""The limits of what the app stores, in one place: the forms apply them to what a person types
and the backup readers to what a file holds, so that an import can store nothing a form would
refuse. Pure Python, no Django.

The game's own numbers (3 to 6 seats, 91 card points) are the rules': ``scoring.py``.
"""

# A player's name, and a session's, a club's or a night's name, at most (in characters, once
# cleaned: names.py).
PLAYER_LENGTH = 40
TITLE_LENGTH = 80

# Names added to a club's roster at once (its text box, one a line).
ROSTER_ADD = 200

# A club night: the players it seats (the draw needs 8 to make tables of 3 to 5), the rounds
# planned, the deals of a round at each table, the minutes of a round, its seed's length.
NIGHT_FEWEST = 8
NIGHT_MOST = 200
NIGHT_ROUNDS = 20
NIGHT_DEALS = 40
NIGHT_MINUTES = 240
SEED_LENGTH = 20

# A session's backup: read whole into memory and checked hand by hand. Its hands at most, and
# the file's size, which 20,000 of the longest hands the app writes stay under.
SESSION_BACKUP_HANDS = 20_000
SESSION_BACKUP_BYTES = 5 * 1024 * 1024

# A club's backup holds many sessions: larger than a session's, still read whole. The limits
# keep its import well inside gunicorn's 30 s worker timeout on a busy 2-core machine
# (benchmarks/writes.py): the hands of all its sessions, its sessions, its roster, its nights.
CLUB_BACKUP_HANDS = 50_000
CLUB_BACKUP_BYTES = 10 * 1024 * 1024
CLUB_BACKUP_SESSIONS = 5_000
CLUB_BACKUP_PLAYERS = 1_000
CLUB_BACKUP_NIGHTS = 1_000
