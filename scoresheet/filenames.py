"""The names of the files the app hands out, and the header that names a download."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from urllib.parse import quote

from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format

from scoresheet.models import local_time


def filename(item, extension: str, what: str = "") -> str:
    """A file name made of a session's or a club's name (and ``what``) and its date, safe on
    every system."""
    name = re.sub(r'[\x00-\x1f\x7f/\\:*?"<>|]', "-", item.name)
    name = " ".join(name.split()).strip(" .") or "tarot"
    created = local_time(item.created)
    if dated(item.name, created):
        # The default name is the date and time already: the date once is enough.
        name = f"{name}.{extension}"
    else:
        name = f"{name} {created:%Y-%m-%d}.{extension}"
    return f"{what} {name}" if what else name


def dated(name: str, moment: datetime) -> bool:
    """Whether ``name`` holds ``moment``'s date as some language of the app writes it (the
    default session name is the date and time, in the language of whoever created it)."""
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            if date_format(moment, "DATE_FORMAT") in name:
                return True
    return False


def attachment(filename: str) -> str:
    """A Content-Disposition for a download: the UTF-8 name (RFC 5987) and an ASCII fallback."""
    ascii_name = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode()
    ascii_name = "".join(c if c.isalnum() or c in " .,()-_" else "_" for c in ascii_name)
    ascii_name = " ".join(ascii_name.split())
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename, safe='')}"
