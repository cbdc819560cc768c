"""The races of issue 20 over HTTP, against a running server (`make run`), as phones would run
them: each race is a few requests sent by threads released together, tried again and again.
Prints, per race, how many answers of each status came back (never a 500 is the point), and
checks the outcome each time through the pages (one roster entry, one session…).

    PORT=8110 RATE_LIMIT=100000/m make run      # in one terminal (3 workers)
    python scripts/races.py --base http://127.0.0.1:8110 --tries 10

Standard library only. The rate limit is raised for the run: a race here sends far more POSTs
a minute from one address than a table would, and a 429 is not what is measured.
"""

import argparse
import collections
import html
import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """A browser of its own: its cookies, its CSRF token."""

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect
        )

    def request(self, path, data=None):
        body = None
        headers = {}
        if data is not None:
            token = self.csrf()
            body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
            headers["X-CSRFToken"] = token
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read().decode(), response.headers.get("Location")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers.get("Location")

    def csrf(self):
        for cookie in self.jar:
            if cookie.name == "csrftoken":
                return cookie.value
        self.request("/new/")
        return next(cookie.value for cookie in self.jar if cookie.name == "csrftoken")

    def get(self, path):
        return self.request(path)

    def post(self, path, data):
        return self.request(path, data)


def at_once(*calls):
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        barrier.wait(timeout=30)
        results[index] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def new_club(base, players=()):
    phone = Phone(base)
    status, _page, location = phone.post("/club/new/", {"name": "Jeudi", "key": str(uuid.uuid4())})
    assert status == 302, status
    token = location.strip("/").split("/")[-1]
    for name in players:
        phone.post(f"/c/{token}/players/", {"action": "add", "add-name": name})
    return phone, token


def roster(phone, token):
    """The roster's names and their entry numbers, read from the roster page."""
    _status, page, _location = phone.get(f"/c/{token}/players/")
    found = re.findall(
        r'name="player" value="(\d+)">\s*<div[^>]*>\s*<label[^>]*>Rename ([^<]*)</label>', page
    )
    return {html.unescape(name): int(pk) for pk, name in found}


def session_form(names, key=None):
    data = {"players": str(len(names)), "first_dealer": "0", "key": key or str(uuid.uuid4())}
    return data | {f"player_{seat}": name for seat, name in enumerate(names)}


def new_sheet(base, names=("Ana", "Ben", "Chloé", "Dan")):
    phone = Phone(base)
    status, _page, location = phone.post("/new/", session_form(names))
    assert status == 302, status
    return phone, location.strip("/").split("/")[-1]


# The races: each returns the answers' statuses and whether the outcome was the one defined.


def same_new_name(base):
    phone, token = new_club(base, ["Ana", "Ben"])
    answers = at_once(
        *[
            lambda names=names: Phone(base).post(f"/c/{token}/new/", session_form(names))
            for names in (["Ana", "Ben", "Zoé"], ["Ben", "Ana", "Zoé"])
        ]
    )
    names = roster(phone, token)
    return answers, sorted(names) == ["Ana", "Ben", "Zoé"]


def add_player_double_tap(base):
    phone, token = new_club(base)
    add = {"action": "add", "add-name": "Chloé"}
    answers = at_once(*[lambda: Phone(base).post(f"/c/{token}/players/", add)] * 3)
    ok = list(roster(phone, token)) == ["Chloé"]
    ok = ok and sorted(a[0] for a in answers) == [200, 200, 302]
    return answers, ok


def renames_to_one_name(base):
    phone, token = new_club(base, ["Ana", "Anne"])
    entries = roster(phone, token)
    answers = at_once(
        *[
            lambda pk=pk: Phone(base).post(
                f"/c/{token}/players/", {"action": "rename", "player": pk, "name": "Annie"}
            )
            for pk in entries.values()
        ]
    )
    names = sorted(roster(phone, token))
    ok = names in (["Ana", "Annie"], ["Anne", "Annie"]) and sorted(a[0] for a in answers) == [
        200,
        302,
    ]
    return answers, ok


def merge_and_rename(base):
    phone, token = new_club(base, ["Ana", "Bea", "Ben", "Chloé"])
    phone.post(f"/c/{token}/new/", session_form(["Ana", "Bea", "Chloé"]))
    entries = roster(phone, token)
    merge = {"action": "merge", "merge-drop": entries["Bea"], "merge-keep": entries["Ben"]}
    rename = {"action": "rename", "player": entries["Bea"], "name": "Béatrice"}
    answers = at_once(
        lambda: Phone(base).post(f"/c/{token}/players/", merge),
        lambda: Phone(base).post(f"/c/{token}/players/", rename),
    )
    ok = sorted(roster(phone, token)) == ["Ana", "Ben", "Chloé"] and answers[0][0] == 302
    return answers, ok


def attach_twice(base):
    _phone, sheet = new_sheet(base, ("Ana", "Ben", "Chloé"))
    clubs = [new_club(base)[1] for _ in range(2)]
    confirm = {"session": f"/s/{sheet}/", "confirm": "1"}
    confirm |= {f"seat_{seat}": name for seat, name in enumerate(["Ana", "Ben", "Chloé"])}
    answers = at_once(*[lambda t=t: Phone(base).post(f"/c/{t}/attach/", confirm) for t in clubs])
    ok = sorted(a[0] for a in answers) == [200, 302] and any(
        "already belongs to a club" in a[1] for a in answers
    )
    return answers, ok


def rules_from_one_revision(base):
    phone, sheet = new_sheet(base)
    hand = {"key": str(uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "2"}
    phone.post(f"/s/{sheet}/hands/new/", hand | {"points": "49"})
    _status, page, _location = phone.post(f"/s/{sheet}/rules/", {"rounding": "5", "preview": "1"})
    revision = re.search(r'name="revision" value="(\d+)"', page)[1]
    answers = at_once(
        *[
            lambda r=r: Phone(base).post(
                f"/s/{sheet}/rules/", {"rounding": r, "confirm": "1", "revision": revision}
            )
            for r in ("5", "10")
        ]
    )
    ok = sorted(a[0] for a in answers) == [200, 302] and any("meanwhile" in a[1] for a in answers)
    return answers, ok


def new_session_twice(base):
    data = session_form(["Ana", "Ben", "Chloé"])
    answers = at_once(*[lambda: Phone(base).post("/new/", data)] * 3)
    locations = {a[2] for a in answers}
    return answers, len(locations) == 1 and all(a[0] == 302 for a in answers)


def new_club_twice(base):
    data = {"name": "Jeudi", "key": str(uuid.uuid4())}
    answers = at_once(*[lambda: Phone(base).post("/club/new/", data)] * 3)
    locations = {a[2] for a in answers}
    return answers, len(locations) == 1 and all(a[0] == 302 for a in answers)


def deleted_hand_sent_again(base):
    phone, sheet = new_sheet(base)
    hand = {"key": str(uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "2"}
    hand["points"] = "49"
    phone.post(f"/s/{sheet}/hands/new/", hand)
    phone.post(f"/s/{sheet}/hands/1/delete/", {"key": hand["key"]})
    answers = at_once(*[lambda: Phone(base).post(f"/s/{sheet}/hands/new/", hand)] * 2)
    _status, page, _location = phone.get(f"/s/{sheet}/")
    return answers, 'id="hand-1"' not in page


RACES = [
    ("two club sessions at once, one new name", same_new_name),
    ("double tap on Add player (3 at once)", add_player_double_tap),
    ("two roster players renamed to one name", renames_to_one_name),
    ("merge and rename of one player", merge_and_rename),
    ("one session attached to two clubs", attach_twice),
    ("two rule confirmations from one revision", rules_from_one_revision),
    ("new-session form sent 3 times at once", new_session_twice),
    ("new-club form sent 3 times at once", new_club_twice),
    ("a deleted hand's form sent again, twice at once", deleted_hand_sent_again),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="http://127.0.0.1:8110")
    parser.add_argument("--tries", type=int, default=10)
    options = parser.parse_args()
    print("| race | tries | answers | 500s | outcome as defined |")
    print("|---|---|---|---|---|")
    total_500 = 0
    for label, race in RACES:
        statuses = collections.Counter()
        defined = 0
        for _try in range(options.tries):
            answers, ok = race(options.base)
            statuses.update(a[0] for a in answers)
            defined += bool(ok)
        total_500 += statuses[500]
        shown = ", ".join(f"{code}×{count}" for code, count in sorted(statuses.items()))
        tries = options.tries
        print(f"| {label} | {tries} | {shown} | {statuses[500]} | {defined}/{tries} |")
    raise SystemExit(1 if total_500 else 0)


if __name__ == "__main__":
    main()
