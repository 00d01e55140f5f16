"""Players, sessions and ratings last (issue 24): SQLite and PostgreSQL, a restart, ``kill -9``.

Every in-process test runs on SQLite (a temporary file) and PostgreSQL (a
schema of its own on ``TARNEEB_TEST_POSTGRES_URL``; skipped without it, failed
under ``TARNEEB_REQUIRE_EXTRAS=1``), with the fixture of
:mod:`test_server_persistence`.

* accounts, sessions, seats, ratings and the leaderboard are as they were after
  the app is started again on the same database;
* a rated table decided while no rating was made of it (the server died between
  the two) is rated at the next start, once;
* a real ``tarneeb serve`` killed with ``SIGKILL`` keeps a signed-up player, their
  session, and a revoked session revoked.
"""

# ruff: noqa: F811 - the fixture imported from test_server_persistence is a parameter here

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from players_support import PASSWORD, app_on, sign_up
from tarneeb.server.players.ratings import Family, record_result
from test_server_persistence import Server, db_url  # noqa: F401 - its fixture


def test_accounts_sessions_and_ratings_survive_a_restart(db_url: str) -> None:
    with app_on(db_url) as app:
        guest = app.client
        made = guest.post(
            "/api/tables",
            json={"name": "G", "seats": {s: "bot:random" for s in ("east", "north", "west")}},
        ).json()
        code = sign_up(guest, "Layla", seats=[{"table": made["table"], "token": made["token"]}])[
            "recovery_code"
        ]
        cookie = guest.cookies.get("tarneeb_session")
        gone = app.player("Nour")
        gone_cookie = gone.cookies.get("tarneeb_session")
        assert gone.post("/api/players/logout", json={}).status_code == 200
        for name in ("Omar", "Sami"):
            app.player(name)
        ids = [app.call(app.service.accounts.find, n).id for n in ("Layla", "Nour", "Omar", "Sami")]
        app.call(record_result, app.hub.store, Family.PARTNERSHIP, [ids[:2], ids[2:]], 0, "r1")
        board = app.client.get("/api/players/leaderboard").json()
        profile = app.client.get("/api/players/profile/Layla").json()
    with app_on(db_url) as app:
        again = app.browser()
        again.cookies.set("tarneeb_session", cookie)
        assert again.get("/api/players/me").json() == {"player": {"name": "Layla"}}
        revoked = app.browser()
        revoked.cookies.set("tarneeb_session", gone_cookie)
        assert revoked.get("/api/players/me").status_code == 403
        assert app.client.get("/api/players/leaderboard").json() == board
        assert app.client.get("/api/players/profile/Layla").json() == profile
        assert [m["table"] for m in profile["matches"]] == [made["table"]]
        taken = app.client.post("/api/players/signup", json={"name": "layla", "password": PASSWORD})
        assert taken.status_code == 409
        # The recovery code of before still works, once.
        reset = app.client.post(
            "/api/players/recover", json={"name": "Layla", "code": code, "password": "a new one!"}
        )
        assert reset.status_code == 200, reset.text


def test_a_rated_table_decided_before_a_crash_is_rated_at_the_next_start(db_url: str) -> None:
    names = ["Layla", "Nour", "Omar", "Sami"]
    with app_on(db_url) as app:
        host = app.player(names[0])
        made = host.post("/api/players/tables", json={"rules": "classic"}).json()
        table = made["table"]
        tokens = {"south": made["token"]}
        for name, seat in zip(names[1:], ("east", "north", "west"), strict=True):
            joined = app.player(name).post(f"/api/players/tables/{table}/join", json={"seat": seat})
            tokens[seat] = joined.json()["token"]
        # The server "dies" after the takeover is stored and before it is rated: nobody
        # watches the hub any more.
        app.hub.watchers.clear()
        left = app.players["Omar"].post(
            f"/api/tables/{table}/leave", json={"token": tokens["north"]}
        )
        assert left.status_code == 200
        assert app.client.get("/api/players/profile/Layla").json()["ratings"] == {}
    for _restart in range(2):  # rated at the first start after, and only then
        with app_on(db_url) as app:
            app.settled()
            layla = app.client.get("/api/players/profile/Layla").json()
            assert layla["ratings"]["partnership"]["played"] == 1
            assert layla["ratings"]["partnership"]["won"] == 0  # North (her partner) left
            nour = app.client.get("/api/players/profile/Nour").json()["ratings"]["partnership"]
            assert nour["won"] == 1 and nour["played"] == 1
            assert table not in app.service.rated


def test_results_of_one_player_at_once_are_rated_in_turn(db_url: str) -> None:
    """Two results of the same players told at once (PostgreSQL: in two threads of the
    store, the rows locked) both count, and a result told twice at once counts once."""
    import asyncio

    with app_on(db_url) as app:
        names = ["Ana", "Ben", "Cem", "Dan", "Eli", "Fay"]
        for name in names:
            app.player(name)
        a, b, c, d, e, f = (app.call(app.service.accounts.find, n).id for n in names)
        store = app.hub.store

        async def at_once() -> list[Any]:
            return await asyncio.gather(
                record_result(store, Family.PARTNERSHIP, [[a, b], [c, d]], 0, "x1"),
                record_result(store, Family.PARTNERSHIP, [[a, e], [f, d]], 0, "x2"),
                record_result(store, Family.PARTNERSHIP, [[a, e], [f, d]], 0, "x2"),
            )

        told = app.call(at_once)
        assert sum(result is None for result in told) == 1
        ana = app.client.get("/api/players/profile/Ana").json()
        assert ana["ratings"]["partnership"]["played"] == 2
        assert [p["source"] for p in ana["rating_history"]] in (["x1", "x2"], ["x2", "x1"])


# -- kill -9 ------------------------------------------------------------------------------------


class Browser:
    """A urllib client with a cookie jar, as a browser of the real server."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if body is not None else {}
        request = urllib.request.Request(
            f"{self.base}{path}", data=data, method=method, headers=headers
        )
        try:
            with self.opener.open(request, timeout=20) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)


def test_players_survive_kill_9(db_url: str, tmp_path: Path) -> None:
    server = Server(db_url, tmp_path / "serve.log")
    server.start()
    try:
        layla = Browser(server.base)
        status, body = layla.call(
            "POST", "/api/players/signup", {"name": "Layla", "password": PASSWORD}
        )
        assert status == 201, body
        code = body["recovery_code"]
        nour = Browser(server.base)
        assert (
            nour.call("POST", "/api/players/signup", {"name": "Nour", "password": PASSWORD})[0]
            == 201
        )
        stolen = Browser(server.base)
        for cookie in nour.jar:  # a copy of Nour's cookie, kept by a thief
            stolen.jar.set_cookie(cookie)
        assert nour.call("POST", "/api/players/logout", {})[0] == 200
        server.kill()
        server.start()
        assert layla.call("GET", "/api/players/me") == (200, {"player": {"name": "Layla"}})
        status, body = stolen.call("GET", "/api/players/me")
        assert status == 403 and "signed out" in body["error"]["message"]
        status, body = nour.call(
            "POST", "/api/players/login", {"name": "nour", "password": PASSWORD}
        )
        assert status == 200, body
        # The password is hashed with argon2's defaults in the real server: recovery works.
        status, body = layla.call(
            "POST",
            "/api/players/recover",
            {"name": "Layla", "code": code, "password": "new secret!"},
        )
        assert status == 200, body
    finally:
        server.stop()
