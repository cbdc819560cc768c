"""What SQLite's synchronous=FULL costs a save: the same htmx saves, in-process, with the
settings' FULL (the log is synced at every commit: an acknowledged hand survives a power cut)
and with NORMAL (WAL's default: it survives a killed server, not a power cut).

    python benchmarks/durability.py [--saves 200]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=200)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="tarot-durability-")
    os.environ["SQLITE_PATH"] = str(Path(tmp) / "db.sqlite3")
    os.environ.setdefault("SECRET_KEY", "benchmark-" + uuid.uuid4().hex)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ["DJANGO_SETTINGS_MODULE"] = "scoresheet.settings"
    os.environ["RATE_LIMIT"] = "100000/m"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from scoresheet.sheets import writes

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    call_command("migrate", verbosity=0)
    options = settings.DATABASES["default"]["OPTIONS"]
    full = options["init_command"]
    assert "synchronous=FULL" in full
    client = Client(headers={"HX-Request": "true"})
    hand = {"taker": "1", "contract": "garde", "bouts": "2", "points": "49"}
    results = {}
    for mode in ("FULL", "NORMAL", "FULL", "NORMAL"):
        connection.close()
        options["init_command"] = full.replace("synchronous=FULL", f"synchronous={mode}")
        sheet = writes.create_sheet(mode, ["Ana", "Ben", "Chloé", "Dan"], 0)
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous")
            assert cursor.fetchone()[0] == {"FULL": 2, "NORMAL": 1}[mode]
        path = f"/s/{sheet.token}/hands/new/"
        times = []
        for _ in range(args.saves):
            started = time.perf_counter()
            response = client.post(path, {"key": str(uuid.uuid4()), **hand})
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200
        results.setdefault(mode, []).extend(times)
    for mode, times in results.items():
        print(
            f"synchronous={mode:<6} save: median {statistics.median(times):.2f} ms, "
            f"p90 {statistics.quantiles(times, n=10)[-1]:.2f} ms ({len(times)} saves)"
        )
    ratio = statistics.median(results["FULL"]) / statistics.median(results["NORMAL"])
    print(f"FULL / NORMAL: {ratio:.2f}")


if __name__ == "__main__":
    main()
