"""A large club backup restored outside the request that uploads it.

The largest file the limits accept (50,000 hands) takes longer to write than a request may last
(10 s on a loaded 2-core server; `make bench` measures it). So the upload's request checks the
file whole, as for any backup (a refused file is answered at once, nothing written), and when it
is over ``BACKGROUND_BYTES`` bytes hands the checked backup to a thread of the same worker, which
restores it in one transaction (``club_backup.restore``: all or nothing), and answers with the
import's page. That page reads the job's state from the "jobs" cache, a table of the database,
so any worker of any app server shows it: writing (with the seconds so far), done (it sends the
browser to the new club), refused, or interrupted when its worker stopped before the end (a
restart, a crash: the transaction never committed, nothing was stored).
"""

import logging
import time
import uuid
from threading import Thread

from django.core.cache import caches
from django.db import connection
from django.utils import translation

from scoresheet.files import club_backup, json_backup

log = logging.getLogger(__name__)

# Smaller files (about 5,700 hands a megabyte) are restored in the request, as before.
BACKGROUND_BYTES = 1_000_000
# A job writing for longer than this has lost its worker (the largest takes seconds).
STALE = 180
# How long a job's state is kept.
KEPT = 3600

WRITING, DONE, REFUSED, INTERRUPTED = "writing", "done", "refused", "interrupted"


def jobs():
    return caches["jobs"]


def start(checked: club_backup.ClubBackup) -> str:
    """Restore ``checked`` in a thread of this process; the job's id, for its page."""
    job = uuid.uuid4().hex
    jobs().set(job, {"state": WRITING, "started": time.time(), "name": checked.name}, KEPT)
    # Not a daemon: a worker asked to stop (gunicorn's graceful stop) waits for it.
    runner = Thread(target=in_thread, args=(job, checked, translation.get_language()))
    runner.start()
    return job


def in_thread(job: str, checked: club_backup.ClubBackup, language: str) -> None:
    """The thread's work, then its own database connection closed (Django gives each thread
    one)."""
    try:
        run(job, checked, language)
    finally:
        connection.close()


def run(job: str, checked: club_backup.ClubBackup, language: str) -> None:
    """Restore, then say how it went."""
    started = time.time()
    try:
        with translation.override(language):
            club = club_backup.restore(checked)
        state = {"state": DONE, "club": club.token, "name": club.name}
        log.info("Club backup restored in %.1f s: %s", time.time() - started, club.name)
    except json_backup.BackupError as error:
        state = {"state": REFUSED, "message": error.message, "name": checked.name}
    except Exception:
        log.exception("Club backup import failed")
        state = {"state": REFUSED, "message": None, "name": checked.name}
    jobs().set(job, {**state, "started": started, "ended": time.time()}, KEPT)


def state(job: str) -> dict | None:
    """The job's state, or None for a job this site never started (or long gone)."""
    found = jobs().get(job)
    if found and found["state"] == WRITING and time.time() - found["started"] > STALE:
        return {**found, "state": INTERRUPTED}
    return found
