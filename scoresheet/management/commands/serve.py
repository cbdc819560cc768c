"""Serve the app for real: gunicorn on every interface, with the URLs and a QR code to open."""

import io
import os
import shutil
import sys

import segno
from django.core.management.base import BaseCommand

from scoresheet import lan


class Command(BaseCommand):
    help = "Serve the app with gunicorn on all interfaces; print the URLs and a QR code."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
        parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
        parser.add_argument(
            "--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", 3))
        )

    def handle(self, *, port, host, workers, **options):
        if host in ("0.0.0.0", "::"):
            urls = [f"http://localhost:{port}/"]
            urls += [f"http://{address}:{port}/" for address in lan.addresses()]
        else:
            # One address (an app server behind Caddy: 127.0.0.1): no other URL answers.
            urls = [f"http://{host}:{port}/"]
        self.stdout.write("\nTarot score sheet is served at:")
        for url in urls:
            self.stdout.write(f"  {url}")
        if len(urls) > 1:
            self.stdout.write("\nPhones on the same network can scan this:\n")
            picture = io.StringIO()
            segno.make(urls[1], error="m").terminal(out=picture, compact=True)
            self.stdout.write(picture.getvalue())
        self.stdout.write("")
        self.stdout.flush()
        gunicorn = shutil.which("gunicorn", path=os.path.dirname(sys.executable)) or "gunicorn"
        args = [
            gunicorn,
            "scoresheet.wsgi",
            # preload_app and the warm-up before the fork (scoresheet/gunicorn_conf.py).
            "--config=python:scoresheet.gunicorn_conf",
            f"--bind={host}:{port}",
            f"--workers={workers}",
            "--access-logfile=-",
            # A cheap laptop at the table: no worker should hold a phone waiting for long.
            "--timeout=30",
            # A stop lets each worker finish the request it answers (an import takes up to 10 s);
            # before it, the proxy stopped sending this server anything (DRAIN_FILE, health.py).
            "--graceful-timeout=15",
        ]
        os.execv(gunicorn, args)
