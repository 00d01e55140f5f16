"""Accounts of ``tarneeb serve`` (issue 24, item 1): sign-up, sign-in, sessions, the claim.

* a guest signs up with a name and a password and gets a recovery code, once;
  the session is an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` when asked);
* a wrong password and an unknown name are refused alike; sign-in attempts are
  limited per name (whatever its spelling) and per client address;
* names are unique after normalisation (case, spaces, width, look-alike letters);
* the seats a guest played become the account's (the claim), and only theirs;
* session theft: a request from another site's page is refused even with the
  cookie; a logout cannot be replayed, nor a signed-out cookie used again;
* the recovery code resets the password once, and signs every session out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from players_support import PASSWORD, App, app_on, guest_match, sign_up
from tarneeb.server.limits import Buckets
from ws_support import TestClient

EVIL = "https://evil.example"


@pytest.fixture
def app(tmp_path: Path) -> Any:
    with app_on(f"sqlite:///{tmp_path / 'server.db'}") as running:
        yield running


def _error(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and error["reference"], error
    return str(error["message"])


def _cookie(client: TestClient) -> str:
    value = client.cookies.get("tarneeb_session")
    assert value
    return str(value)


# -- sign-up and sign-in ----------------------------------------------------------------------


def test_sign_up_sets_a_safe_session_cookie_and_shows_the_recovery_code_once(app: App) -> None:
    client = app.client
    answer = client.post("/api/players/signup", json={"name": "  Layla  ", "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["player"] == {"name": "Layla"}
    code = body["recovery_code"]
    assert len(code.replace("-", "")) == 20
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http here; see the next test
    assert client.get("/api/players/me").json() == {"player": {"name": "Layla"}}
    # The code is never told again: not by /me, not by a sign-in, not by the profile.
    signed_in = client.post("/api/players/login", json={"name": "layla", "password": PASSWORD})
    for text in (client.get("/api/players/me").text, signed_in.text):
        assert code not in text
    assert code not in client.get("/api/players/profile/Layla").text


def test_the_cookie_is_secure_when_the_server_says_so(tmp_path: Path) -> None:
    with app_on(f"sqlite:///{tmp_path / 's.db'}", cookie_secure=True) as app:
        answer = app.client.post("/api/players/signup", json={"name": "Nour", "password": PASSWORD})
        assert "Secure" in answer.headers["set-cookie"]
    with app_on(f"sqlite:///{tmp_path / 't.db'}") as app:
        https = app.browser("https://testserver")
        answer = https.post("/api/players/signup", json={"name": "Omar", "password": PASSWORD})
        assert "Secure" in answer.headers["set-cookie"]


def test_sign_in_and_a_wrong_password(app: App) -> None:
    sign_up(app.client, "Layla")
    other = app.browser()
    wrong = other.post("/api/players/login", json={"name": "Layla", "password": "not it at all"})
    message = _error(wrong, 403, "unauthorized")
    unknown = other.post("/api/players/login", json={"name": "Nobody", "password": PASSWORD})
    assert _error(unknown, 403, "unauthorized") == message  # which of the two is not told
    assert "not it at all" not in wrong.text
    assert other.get("/api/players/me").json() == {"player": None}
    right = other.post("/api/players/login", json={"name": "LAYLA", "password": PASSWORD})
    assert right.status_code == 200 and right.json()["player"] == {"name": "Layla"}
    assert other.get("/api/players/me").json() == {"player": {"name": "Layla"}}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Nour", "password": "short"}, "password"),
        ({"name": "Nour", "password": 12345678}, "password"),
        ({"name": "No", "password": PASSWORD}, "name"),
        ({"name": "N" * 25, "password": PASSWORD}, "name"),
        ({"name": "Nour\u0007", "password": PASSWORD}, "name"),
        ({"name": "Nour\u202e", "password": PASSWORD}, "name"),
        ({"name": "<script>", "password": PASSWORD}, "name"),
        ({"name": "Nour", "password": PASSWORD, "admin": True}, "admin"),
    ],
)
def test_bad_sign_ups_are_refused_saying_why(app: App, body: dict[str, Any], field: str) -> None:
    message = _error(app.client.post("/api/players/signup", json=body), 400, "malformed")
    assert field in message
    assert "Set-Cookie" not in app.client.post("/api/players/signup", json=body).headers


def test_sign_in_attempts_are_limited_per_name_and_per_client(app: App) -> None:
    service = app.service
    for name in ("logins_by_name", "logins_by_client"):  # no refill while the test runs
        bucket = getattr(service, name)
        setattr(service, name, Buckets(bucket.rate, bucket.burst, clock=lambda: 0.0))
    sign_up(app.client, "Layla")
    sign_up(app.client, "Nour")
    for _ in range(5):  # settings.logins_per_minute
        wrong = app.client.post("/api/players/login", json={"name": "layla", "password": "x" * 9})
        assert wrong.status_code == 403
    # Any spelling of the name is the same name; the right password waits too.
    for name in ("Layla", "LAYLA", " La yla"):
        limited = app.client.post("/api/players/login", json={"name": name, "password": PASSWORD})
        assert "minute" in _error(limited, 429, "rate_limited")
    # Another name from the same client is not held up by Layla's ...
    nour = app.client.post("/api/players/login", json={"name": "Nour", "password": PASSWORD})
    assert nour.status_code == 200
    # ... until the client's own limit (four times a name's) runs out.
    statuses = [
        app.client.post(
            "/api/players/login", json={"name": f"guess{i}", "password": PASSWORD}
        ).status_code
        for i in range(20)
    ]
    # 20 a client: 5 + 3 for Layla, 1 for Nour, then 11 guesses
    assert statuses == [403] * 11 + [429] * 9


@pytest.mark.parametrize(
    "twin",
    [
        "LAYLA",
        "layla",
        " Layla ",
        "La yla",
        "La.yla",
        "L\u0430yla",
        "\uff2c\uff41\uff59\uff4c\uff41",
    ],
)
def test_names_are_unique_after_normalisation(app: App, twin: str) -> None:
    sign_up(app.client, "Layla")
    taken = app.client.post("/api/players/signup", json={"name": twin, "password": PASSWORD})
    assert "taken" in _error(taken, 409, "conflict")


def test_names_that_only_look_alike_to_a_computer_are_kept_apart(app: App) -> None:
    sign_up(app.client, "Layla")
    for name in ("Laylaa", "نور", "Лейла"):
        other = app.browser()
        assert sign_up(other, name)["player"]["name"] == name


# -- the guest's matches become the account's -------------------------------------------------


def test_a_guest_signing_up_keeps_the_seats_they_played(app: App) -> None:
    guest = app.client
    table, token = guest_match(guest)
    other, other_token = guest_match(guest)
    body = sign_up(
        guest,
        "Layla",
        seats=[
            {"table": table, "token": token},
            {"table": other, "token": other_token},
            {"table": other, "token": "not-a-token-of-any-seat"},
            {"table": "no-such-table", "token": token},
        ],
    )
    assert body["claimed"] == 2
    profile = guest.get("/api/players/profile/layla").json()
    assert sorted(m["table"] for m in profile["matches"]) == sorted([table, other])
    assert {m["seat"] for m in profile["matches"]} == {"south"}
    # A seat is one account's: another account with the same token gets nothing.
    thief = app.browser()
    assert sign_up(thief, "Nour", seats=[{"table": table, "token": token}])["claimed"] == 0
    assert thief.get("/api/players/profile/nour").json()["matches"] == []
    # A later claim (a guest seat of before, found when signing in) adds to the same profile.
    third, third_token = guest_match(guest)
    claimed = guest.post(
        "/api/players/claim", json={"seats": [{"table": third, "token": third_token}]}
    )
    assert claimed.json() == {"claimed": 1}
    assert len(guest.get("/api/players/profile/layla").json()["matches"]) == 3


def test_a_claim_needs_a_session(app: App) -> None:
    table, token = guest_match(app.client)
    answer = app.client.post(
        "/api/players/claim", json={"seats": [{"table": table, "token": token}]}
    )
    _error(answer, 403, "unauthorized")


# -- session theft ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": EVIL},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_request_from_another_site_is_refused_with_the_cookie(
    app: App, headers: dict[str, str]
) -> None:
    sign_up(app.client, "Layla")
    table, token = guest_match(app.client)
    for path, body in [
        ("/api/players/logout", {}),
        ("/api/players/claim", {"seats": [{"table": table, "token": token}]}),
        ("/api/players/queue/join", {"rules": "classic"}),
        ("/api/players/tables", {"rules": "classic"}),
    ]:
        answer = app.client.post(path, json=body, headers=headers)
        assert "other sites" in _error(answer, 403, "unauthorized")
    # Nothing happened: still signed in, nothing claimed, not queued.
    assert app.client.get("/api/players/me").json() == {"player": {"name": "Layla"}}
    assert app.client.get("/api/players/profile/layla").json()["matches"] == []
    assert app.client.get("/api/players/queue").json() == {"state": "idle"}
    same = app.client.post(
        "/api/players/claim", json={"seats": []}, headers={"Origin": "http://testserver"}
    )
    assert same.status_code == 200


def test_a_logout_cannot_be_replayed_nor_its_cookie_used_again(app: App) -> None:
    sign_up(app.client, "Layla")
    stolen = _cookie(app.client)
    out = app.client.post("/api/players/logout", json={})
    assert out.status_code == 200 and "tarneeb_session" in out.headers["set-cookie"]
    thief = app.browser()
    thief.cookies.set("tarneeb_session", stolen)
    _error(thief.post("/api/players/logout", json={}), 403, "unauthorized")
    assert "signed out" in _error(thief.get("/api/players/me"), 403, "unauthorized")
    assert "signed out" in _error(thief.get("/api/players/queue"), 403, "unauthorized")
    table, token = guest_match(thief)
    answer = thief.post("/api/players/claim", json={"seats": [{"table": table, "token": token}]})
    _error(answer, 403, "unauthorized")
    # A made-up cookie is no session either (and no error tells a thing of the database).
    thief.cookies.set("tarneeb_session", "x" * 43)
    assert thief.get("/api/players/me").json() == {"player": None}
    assert "sign in" in _error(thief.get("/api/players/queue"), 403, "unauthorized")


def test_a_signed_in_session_survives_another_session_signing_out(app: App) -> None:
    sign_up(app.client, "Layla")
    phone = app.browser()
    assert (
        phone.post("/api/players/login", json={"name": "Layla", "password": PASSWORD}).status_code
        == 200
    )
    assert app.client.post("/api/players/logout", json={}).status_code == 200
    assert phone.get("/api/players/me").json() == {"player": {"name": "Layla"}}


# -- the recovery code ------------------------------------------------------------------------


def test_the_recovery_code_resets_the_password_once(app: App) -> None:
    app.service.logins_by_name = Buckets(1.0, 100.0)  # this test tries more than 5 a minute
    code = sign_up(app.client, "Layla")["recovery_code"]
    old_session = _cookie(app.client)
    stranger = app.browser()
    wrong = stranger.post(
        "/api/players/recover",
        json={"name": "Layla", "code": "AAAAA-BBBBB-CCCCC-DDDDD", "password": "new password 1"},
    )
    _error(wrong, 403, "unauthorized")
    reset = stranger.post(
        "/api/players/recover",
        json={
            "name": "layla",
            "code": code.lower().replace("-", " "),
            "password": "new password 1",
        },
    )
    assert reset.status_code == 200, reset.text
    fresh = reset.json()["recovery_code"]
    assert fresh != code
    assert stranger.get("/api/players/me").json() == {"player": {"name": "Layla"}}
    # The old password, the old code and the sessions of before work no more.
    old = stranger.post("/api/players/login", json={"name": "Layla", "password": PASSWORD})
    _error(old, 403, "unauthorized")
    again = stranger.post(
        "/api/players/recover", json={"name": "Layla", "code": code, "password": "new password 2"}
    )
    _error(again, 403, "unauthorized")
    before = app.browser()
    before.cookies.set("tarneeb_session", old_session)
    _error(before.get("/api/players/me"), 403, "unauthorized")
    # The new code works (once) in its turn.
    assert (
        stranger.post(
            "/api/players/recover",
            json={"name": "Layla", "code": fresh, "password": "new password 3"},
        ).status_code
        == 200
    )
    assert (
        stranger.post(
            "/api/players/login", json={"name": "Layla", "password": "new password 3"}
        ).status_code
        == 200
    )


def test_current_player_tells_who_a_request_or_a_websocket_is(app: App) -> None:
    from starlette.requests import Request
    from starlette.websockets import WebSocket

    from tarneeb.server.players import current_player

    sign_up(app.client, "Layla")
    cookie = f"tarneeb_session={_cookie(app.client)}".encode()

    async def nothing() -> Any:
        return {"type": "websocket.disconnect"}

    async def ignore(_message: Any) -> None:
        return None

    def scope(kind: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
        return {"type": kind, "headers": headers, "app": app.client.app, "path": "/"}

    request = Request(scope("http", [(b"cookie", cookie)]))
    socket = WebSocket(scope("websocket", [(b"cookie", cookie)]), nothing, ignore)
    guest = Request(scope("http", []))
    assert app.call(current_player, request).name == "Layla"
    assert app.call(current_player, socket).name == "Layla"
    assert app.call(current_player, guest) is None
    app.client.post("/api/players/logout", json={})
    assert app.call(current_player, request) is None
