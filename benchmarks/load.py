"""Load test through the real server (`make run`'s command), on loopback only.

N phones each create a session and enter M hands, while K phones enter hands into one shared
session. Prints throughput and latency percentiles, then checks that every acknowledged hand
is in the database and that every sheet's totals are the sums of its rows. Bounded: a fixed
number of requests and a time limit; it stops by itself.

    python benchmarks/load.py                                  # SQLite in a temporary file
    scripts/with-postgres python benchmarks/load.py            # a throwaway PostgreSQL
"""

import argparse
import json
import threading
import time

from harness import Phone, Server, missing_hands, percentiles, sheet_adds_up


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20, help="N phones, a session each")
    parser.add_argument("--hands", type=int, default=50, help="M hands per session")
    parser.add_argument("--shared", type=int, default=8, help="K phones on one shared session")
    parser.add_argument("--shared-hands", type=int, default=50, help="hands per shared phone")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--time-limit", type=float, default=300, help="seconds, at most")
    args = parser.parse_args()

    server = Server(workers=args.workers).start()
    deadline = time.monotonic() + args.time_limit
    acknowledged: list[str] = []
    refused = errors = 0
    lock = threading.Lock()
    phones = []
    tokens = []

    host = Phone(server.base, seed=0)
    shared = host.new_sheet(5)
    tokens.append(shared)

    def player(seed: int, token: str | None, hands: int):
        nonlocal refused, errors
        phone = Phone(server.base, seed)
        phones.append(phone)
        try:
            if token is None:
                token = phone.new_sheet(4 + seed % 2)
                with lock:
                    tokens.append(token)
            else:
                phone.open_sheet(token)
            players = 5 if token == shared else 4 + seed % 2
            for _ in range(hands):
                if time.monotonic() > deadline:
                    return
                key, ok = phone.play(token, phone.random_hand(players))
                with lock:
                    if ok:
                        acknowledged.append(key)
                    else:
                        refused += 1
        except OSError:
            with lock:
                errors += 1

    threads = [
        threading.Thread(target=player, args=(seed, None, args.hands))
        for seed in range(1, args.sessions + 1)
    ]
    threads += [
        threading.Thread(target=player, args=(1000 + seed, shared, args.shared_hands))
        for seed in range(args.shared)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started

    latencies = [latency for phone in phones for latency in phone.latencies]
    server.django()
    result = {
        "database": server.database,
        "phones": len(threads),
        "requests": len(latencies),
        "seconds": round(elapsed, 2),
        "requests_per_second": round(len(latencies) / elapsed, 1),
        **{k: round(v, 1) for k, v in percentiles(latencies).items()},
        "hands_acknowledged": len(acknowledged),
        "hands_refused": refused,
        "client_errors": errors,
        "hands_missing": missing_hands(acknowledged),
        "sheets_not_adding_up": sum(not sheet_adds_up(host, token) for token in tokens),
    }
    server.close()
    width = max(map(len, result))
    for name, value in result.items():
        print(f"{name:<{width}}  {value}")
    print(json.dumps(result))
    ok = not (result["hands_missing"] or result["sheets_not_adding_up"] or refused or errors)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
