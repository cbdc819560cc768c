"""kill -9 the server while phones are saving hands, start it again, and check that nothing
acknowledged was lost and the database opens cleanly. Loopback only; bounded; stops by itself.

    python benchmarks/crash.py                          # SQLite in a temporary file
    scripts/with-postgres python benchmarks/crash.py    # a throwaway PostgreSQL
"""

import argparse
import json
import threading
import time

from harness import Phone, Server, missing_hands, sheet_adds_up


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--before-kill", type=float, default=3.0, help="seconds of load")
    parser.add_argument("--kills", type=int, default=3, help="how many times to kill -9")
    args = parser.parse_args()

    server = Server().start()
    acknowledged: list[str] = []
    interrupted = 0
    lock = threading.Lock()
    stop = threading.Event()
    tokens = []

    def player(seed: int):
        nonlocal interrupted
        phone = Phone(server.base, seed)
        token = phone.new_sheet(4 + seed % 2)
        with lock:
            tokens.append(token)
        while not stop.is_set():
            try:
                key, ok = phone.play(token, phone.random_hand(4 + seed % 2))
            except OSError:
                # The server is down: this hand was never acknowledged; wait for it to return.
                with lock:
                    interrupted += 1
                time.sleep(0.2)
                continue
            if ok:
                with lock:
                    acknowledged.append(key)

    threads = [threading.Thread(target=player, args=(seed,)) for seed in range(args.phones)]
    for thread in threads:
        thread.start()
    rounds = []
    for _ in range(args.kills):
        time.sleep(args.before_kill)
        before = len(acknowledged)
        server.kill()
        killed_at = time.perf_counter()
        server.start()
        rounds.append(
            {
                "acknowledged_before_kill": before,
                "restart_s": round(time.perf_counter() - killed_at, 2),
            }
        )
    time.sleep(args.before_kill)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)

    server.stop()
    server.start()  # one last clean start: the database must open after all that
    server.django()
    from django.db import connection

    integrity = "n/a"
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA integrity_check")
            integrity = cursor.fetchone()[0]
    checker = Phone(server.base, seed=-1)
    result = {
        "database": server.database,
        "kills": len(rounds),
        "rounds": rounds,
        "hands_acknowledged": len(acknowledged),
        "requests_interrupted": interrupted,
        "hands_missing": missing_hands(acknowledged),
        "sqlite_integrity_check": integrity,
        "sheets_not_adding_up": sum(not sheet_adds_up(checker, token) for token in tokens),
    }
    server.close()
    for name, value in result.items():
        print(f"{name:<22}  {value}")
    print(json.dumps(result))
    ok = not result["hands_missing"] and not result["sheets_not_adding_up"]
    ok = ok and integrity in ("ok", "n/a")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
