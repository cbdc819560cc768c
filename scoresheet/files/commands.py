"""What the file commands (``export_session``, ``export_club``, ``import_session``,
``import_club``) share: reading a backup from a file or stdin, writing a download to a file or
stdout, and finding a session's or a club's token in a link."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError


def token_in(link: str, prefix: str) -> str:
    """The token in a URL or path ``…/<prefix>/<token>/`` (``s`` for a session, ``c`` for a
    club), or the argument itself."""
    match = re.search(rf"(?:^|/){prefix}/([^/]+)/?$", urlsplit(link.strip()).path)
    return match[1] if match else link.strip()


def read(file: str, limit: int) -> bytes:
    """The backup's bytes from ``file`` (``-``: stdin), at most ``limit`` and one more: enough
    to know that a file is too large without reading all of it."""
    try:
        if file == "-":
            return sys.stdin.buffer.read(limit + 1)
        with open(file, "rb") as source:
            return source.read(limit + 1)
    except OSError as error:
        raise CommandError(f"Cannot read {file}: {error.strerror}.") from None


def write(command: BaseCommand, output: str | None, chunks: Iterable[str]) -> None:
    """The file's text to ``output``, or to stdout (no ``output``, or ``-``)."""
    if output is None or output == "-":
        for chunk in chunks:
            command.stdout.write(chunk, ending="")
        return
    # newline="": a CSV's own \r\n line ends are written as they are.
    try:
        with open(output, "w", encoding="utf-8", newline="") as file:
            file.writelines(chunks)
    except OSError as error:
        raise CommandError(f"Cannot write {output}: {error.strerror}.") from None
    command.stdout.write(f"Wrote {output}")
