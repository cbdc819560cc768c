"""scoresheet/throttle.py: who the client is, with and without a trusted proxy in front
(TRUSTED_PROXIES), and the rate limit keyed on it: per client and session, per client alone for
the POSTs that name no session or a session that does not exist. On SQLite and PostgreSQL."""

import uuid

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.urls import reverse

from scoresheet import settings as app_settings
from scoresheet import throttle
from scoresheet.clubs import writes as club_writes

pytestmark = pytest.mark.django_db

CADDY = "127.0.0.1"
PHONE = "203.0.113.7"
OTHER_PHONE = "198.51.100.23"


def meta(peer, forwarded=None):
    values = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        values["HTTP_X_FORWARDED_FOR"] = forwarded
    return values


# The client's address


def test_without_trusted_proxies_the_client_is_the_peer_and_x_forwarded_for_is_ignored(settings):
    settings.TRUSTED_PROXIES = []
    assert throttle.client_address(meta(CADDY, PHONE)) == CADDY
    assert throttle.client_address(meta(PHONE, "10.9.9.9")) == PHONE


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        # Caddy on this machine, the phone's address appended.
        (CADDY, PHONE, PHONE),
        # A phone that invents addresses of its own: they are left of the one Caddy appended.
        (CADDY, f"1.2.3.4, 127.0.0.1, {PHONE}", PHONE),
        # Two proxies of ours (a load balancer on the private network, then Caddy).
        (CADDY, f"{PHONE}, 10.0.0.5", PHONE),
        (CADDY, f"9.9.9.9,{PHONE} , 10.0.0.5,10.0.2.3", PHONE),
        # Every address a proxy's: the first one the request reached (a check from that host).
        (CADDY, "10.0.0.5, 127.0.0.1", "10.0.0.5"),
        # No header: the proxy itself (Caddy's own health checks).
        (CADDY, None, CADDY),
        (CADDY, " , ", CADDY),
        # IPv6: the loopback proxy, a phone's address.
        ("::1", "2001:db8::5", "2001:db8::5"),
        # A peer that is not a proxy: its header is the client's own words, ignored.
        (PHONE, "1.2.3.4", PHONE),
        ("10.255.0.1", "1.2.3.4", "10.255.0.1"),
    ],
)
def test_behind_trusted_proxies_the_client_is_the_right_most_untrusted_address(
    settings, peer, forwarded, client
):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1", "10.0.0.0/16"]
    assert throttle.client_address(meta(peer, forwarded)) == client


def test_an_ipv6_client_counts_as_its_slash_64(settings, rf):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    request = rf.post("/new/", REMOTE_ADDR=CADDY, HTTP_X_FORWARDED_FOR="2001:db8:1:2:aaaa::1")
    assert throttle.client(request) == "2001:db8:1:2::"


def test_a_trusted_proxy_that_is_not_an_address_stops_the_server(monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXIES", "127.0.0.1, caddy.local")
    with pytest.raises(ImproperlyConfigured, match=r"TRUSTED_PROXIES: 'caddy\.local'"):
        app_settings.proxies("TRUSTED_PROXIES")
    monkeypatch.setenv("TRUSTED_PROXIES", " 127.0.0.1 ,::1, 10.0.0.0/8 ")
    assert app_settings.proxies("TRUSTED_PROXIES") == ["127.0.0.1", "::1", "10.0.0.0/8"]
    monkeypatch.delenv("TRUSTED_PROXIES")
    assert app_settings.proxies("TRUSTED_PROXIES") == []


# The rate limit behind the proxy


@pytest.fixture
def limit(settings):
    settings.RATELIMIT_ENABLE = True
    settings.RATE_LIMIT = "3/m"


def counters() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM scoresheet_ratelimit")
        return cursor.fetchone()[0]


def new_session(client, phone):
    """A new session's POST (refused by the form: nothing is written), from ``phone`` through
    Caddy."""
    return client.post(reverse("new_sheet"), {}, REMOTE_ADDR=CADDY, HTTP_X_FORWARDED_FOR=phone)


def test_behind_the_proxy_each_phone_has_its_own_budget(client, limit, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    for _ in range(3):
        assert new_session(client, PHONE).status_code == 200
    assert new_session(client, PHONE).status_code == 429
    # Another phone in the same room, through the same Caddy: not refused.
    assert new_session(client, OTHER_PHONE).status_code == 200
    # A phone that writes its own X-Forwarded-For gains nothing: Caddy's address is the last.
    spoofed = f"{OTHER_PHONE}, {PHONE}"
    assert new_session(client, spoofed).status_code == 429


def test_without_trusted_proxies_every_phone_behind_the_proxy_is_one_client(client, limit):
    for _ in range(3):
        assert new_session(client, PHONE).status_code == 200
    assert new_session(client, OTHER_PHONE).status_code == 429


def test_a_client_that_sends_x_forwarded_for_itself_is_still_counted_by_its_address(
    client, limit, settings
):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    for number in range(3):
        response = client.post(
            reverse("new_sheet"), {}, REMOTE_ADDR=PHONE, HTTP_X_FORWARDED_FOR=f"10.0.0.{number}"
        )
        assert response.status_code == 200
    refused = client.post(
        reverse("new_sheet"), {}, REMOTE_ADDR=PHONE, HTTP_X_FORWARDED_FOR="10.0.0.99"
    )
    assert refused.status_code == 429


def hand(key=None):
    return {"key": str(key or uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "2"}


def test_posts_to_sessions_that_do_not_exist_write_no_counter_and_are_limited(
    client, limit, sheet4
):
    assert client.post(reverse("new_sheet"), {}).status_code == 200
    rows = counters()
    assert rows == 1
    # Invented tokens: each a 404, none a counter row of its own, counted with the client's.
    for number in range(2):
        response = client.post(reverse("hand_new", args=[f"no-such-session-{number}"]), hand())
        assert response.status_code == 404
    assert counters() == rows
    refused = client.post(reverse("hand_preview", args=["no-such-session-9"]), hand())
    assert refused.status_code == 429
    refused = client.post(reverse("club_settings", args=["no-such-club"]), {})
    assert refused.status_code == 429
    assert counters() == rows
    # A session that exists has its own count, as before.
    assert client.post(reverse("hand_preview", args=[sheet4.token]), hand()).status_code == 200
    assert counters() == rows + 1


def test_a_club_that_exists_has_its_own_count(client, limit):
    club = club_writes.create_club("Le Petit", players=["Ana", "Ben", "Chloé", "Dan"]).club
    for _ in range(3):
        client.post(reverse("new_sheet"), {})
    assert client.post(reverse("new_sheet"), {}).status_code == 429
    # The club's page is not refused: it has its own count for this client.
    response = client.post(reverse("club_settings", args=[club.token]), {})
    assert response.status_code != 429
    # Its read-only link takes no POST; what it is sent counts with the client's own.
    refused = client.post(reverse("view_club", args=[club.view_token]), {})
    assert refused.status_code == 429
