"""The players' API in the wire schema (issue 24): every body read back by its type; limits.

* each route of ``/api/players/...`` is driven, and each answer (refusals too)
  is checked against its TypedDict of :mod:`tarneeb.server.wire` with the
  schema's checker, which refuses a missing, extra or ill-typed field: a field
  renamed on one side fails here (the client reads the same names, from
  ``wire.d.ts``);
* each route takes the fields of its request TypedDict and refuses any other;
* the state-changing routes are rate-limited: a claim (which tries seat tokens)
  as a sign-in is, per client address and per account; the others (rated
  tables, the queue, signing out) per client and per account too.
"""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest

from players_support import PASSWORD, App, app_on, guest_match, play_to_the_end, sign_up
from tarneeb.server import wire
from tarneeb.server.limits import Buckets
from tarneeb.server.players import player_routes
from tarneeb.server.wiretypes import SchemaError, check
from ws_support import TestClient

# Each route and the wire type of its answer (with the request type it takes, if any).
ANSWERS: dict[tuple[str, str], tuple[Any, Any]] = {
    ("POST", "/api/players/signup"): (wire.SignUpRequest, wire.SignedUpBody),
    ("POST", "/api/players/login"): (wire.SignInRequest, wire.SignedInBody),
    ("POST", "/api/players/logout"): (wire.EmptyRequest, wire.SignedOutBody),
    ("POST", "/api/players/recover"): (wire.RecoverRequest, wire.RecoveredBody),
    ("GET", "/api/players/me"): (None, wire.MeBody),
    ("POST", "/api/players/claim"): (wire.ClaimRequest, wire.ClaimedBody),
    ("GET", "/api/players/profile/{name}"): (None, wire.ProfileBody),
    ("GET", "/api/players/leaderboard"): (None, wire.LeaderboardBody),
    ("GET", "/api/players/tables"): (None, wire.RatedTablesBody),
    ("POST", "/api/players/tables"): (wire.RatedTableRequest, wire.RatedCreatedBody),
    ("POST", "/api/players/tables/{id}/join"): (wire.RatedJoinRequest, wire.RatedJoinedBody),
    ("GET", "/api/players/queue"): (None, wire.QueueBody),
    ("POST", "/api/players/queue/join"): (wire.QueueJoinRequest, wire.QueueBody),
    ("POST", "/api/players/queue/leave"): (wire.EmptyRequest, wire.QueueBody),
    ("POST", "/api/players/queue/bots"): (wire.QueueBotsRequest, wire.QueueBody),
}


@pytest.fixture
def app(tmp_path: Path) -> Any:
    with app_on(f"sqlite:///{tmp_path / 'server.db'}", ranked_bot_wait=0.0) as running:
        yield running


class Checked:
    """A client whose every answer of the players' API is checked against its wire type."""

    def __init__(self, client: TestClient, seen: set[tuple[str, str]]) -> None:
        self.client = client
        self.seen = seen

    def call(
        self, method: str, route: str, body: Any = None, status: int = 200, **params: str
    ) -> Any:
        path = route.format(**params)
        answer = self.client.request(method, path, json=body)
        assert answer.status_code == status, answer.text
        data = answer.json()
        if status < 400:
            self.seen.add((method, route.split("?")[0]))
            check(data, ANSWERS[method, route.split("?")[0]][1])
        else:
            check(data, wire.ErrorBody)
        return data


def test_every_route_of_the_players_api_is_in_the_schema() -> None:
    routes = {(m, r.path) for r in player_routes() for m in r.methods or () if m != "HEAD"}
    assert routes == set(ANSWERS)


def test_the_protocol_names_each_route_by_its_wire_types() -> None:
    text = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text()
    section = text.split("## Players: `/api/players/...`")[1].split("\n## ")[0]
    for (method, route), types in ANSWERS.items():
        path = route.replace("{name}", "NAME").replace("{id}", "ID")
        head = f"| `{method} {path}"
        [row] = [line for line in section.splitlines() if line.startswith((head + "`", head + "?"))]
        for tp in types:
            if tp is not None and tp is not wire.EmptyRequest:
                assert f"`{tp.__name__ if isinstance(tp, type) else 'QueueBody'}`" in row, row


def test_every_answer_of_the_players_api_fits_the_wire_schema(app: App) -> None:
    seen: set[tuple[str, str]] = set()
    guest = Checked(app.client, seen)
    table, token = guest_match(app.client)
    assert guest.call("GET", "/api/players/me") == {"player": None}
    seats = [{"table": table, "token": token}]
    made = guest.call(
        "POST",
        "/api/players/signup",
        {"name": "Layla", "password": PASSWORD, "seats": seats},
        201,
    )
    assert made["claimed"] == 1 and made["player"] == {"name": "Layla"}
    assert guest.call("GET", "/api/players/me") == {"player": {"name": "Layla"}}
    other, other_token = guest_match(app.client)
    body = {"seats": [{"table": other, "token": other_token}]}
    assert guest.call("POST", "/api/players/claim", body) == {"claimed": 1}
    assert guest.call("POST", "/api/players/logout", {}) == {"signed_out": True}
    login = {"name": "layla", "password": PASSWORD, "seats": []}
    assert guest.call("POST", "/api/players/login", login)["claimed"] == 0
    new = "another horse battery"
    recover = {"name": "Layla", "code": made["recovery_code"], "password": new}
    assert guest.call("POST", "/api/players/recover", recover)["recovery_code"]

    # A rated table: made, listed while it waits, joined by three, played and rated.
    short = {"rules": "classic", "options": {"target": 11}}
    created = guest.call("POST", "/api/players/tables", short, 201)
    rated = created["table"]
    [listed] = guest.call("GET", "/api/players/tables")["tables"]
    assert listed["id"] == rated and listed["seats"][0] == {"seat": "south", "name": "Layla"}
    for name, seat in (("Nour", "east"), ("Omar", "north"), ("Sami", None)):
        player = Checked(app.player(name), seen)
        joined = player.call("POST", "/api/players/tables/{id}/join", {"seat": seat}, id=rated)
        assert joined["seat"] == (seat or "west")
    play_to_the_end(app, rated, seed=1)
    app.settled()
    profile = guest.call("GET", "/api/players/profile/{name}", name="LAYLA")
    statuses = {m["table"]: (m["status"], m["rated"]) for m in profile["matches"]}
    assert statuses[rated] == ("finished", "settled") and statuses[table][1] is None
    assert [p["source"] for p in profile["rating_history"]] == [f"table:{rated}"]
    finished = next(m for m in profile["matches"] if m["table"] == rated)
    assert finished["deals"] and finished["players"][0] == "Layla"
    for family in ("partnership", "egyptian", "solo"):
        board = guest.call("GET", f"/api/players/leaderboard?family={family}")
        assert board["family"] == family
        assert len(board["players"]) == (4 if family == "partnership" else 0)

    # The ranked queue: idle, waiting (bots offered at once here), seated with bots, idle.
    assert guest.call("GET", "/api/players/queue") == {"state": "idle"}
    waiting = guest.call("POST", "/api/players/queue/join", {"rules": "classic"})
    assert waiting["state"] == "waiting" and waiting["bots_offered"]
    assert guest.call("POST", "/api/players/queue/leave", {}) == {"state": "idle"}
    guest.call("POST", "/api/players/queue/join", {})
    seated = guest.call("POST", "/api/players/queue/bots", {"bot": "random"})
    assert seated["state"] == "seated" and seated["rated"] is False
    assert guest.call("GET", "/api/players/queue") == seated
    assert seen == set(ANSWERS)


def test_every_refusal_of_the_players_api_is_an_error_body(app: App) -> None:
    guest = Checked(app.client, set())
    guest.call("GET", "/api/players/profile/{name}", status=404, name="nobody")
    guest.call("GET", "/api/players/leaderboard?family=chess", status=400)
    for method, route in ANSWERS:
        if method == "POST":
            path = route.format(id="t1")
            # A field of no request type, a body that is no object, a guest: clean refusals.
            assert "unknown field" in guest.call(method, path, {"x": 1}, 400)["error"]["message"]
            guest.call(method, path, [1], 400)
    for path in ("/api/players/claim", "/api/players/queue/join", "/api/players/tables"):
        guest.call("POST", path, {}, 403)
    sign_up(app.client, "Layla")
    guest.call("POST", "/api/players/claim", {"seats": "all of them"}, 400)
    guest.call("POST", "/api/players/queue/join", {"rules": 7}, 400)
    guest.call("POST", "/api/players/tables/{id}/join", {"seat": "up"}, 400, id="t1")
    guest.call("POST", "/api/players/queue/bots", {}, 409)
    # A rated table's seats are read as any table's: a seat name, and only "human".
    for seats in ([1], "x", {"east": 5}, {"up": "human"}, {"east": "bot:random"}, {"west": "x"}):
        refused = guest.call("POST", "/api/players/tables", {"seats": seats}, 400)
        assert refused["error"]["code"] == "malformed"
    assert app.service.rated == {}


def test_each_route_takes_the_fields_of_its_request_type_and_no_other(app: App) -> None:
    fields = {
        key
        for request, _answer in ANSWERS.values()
        if request is not None
        for key in request.__required_keys__ | request.__optional_keys__
    }
    for (method, route), (request, _answer) in ANSWERS.items():
        if method == "GET":
            continue
        path = route.format(id="t1")
        own = request.__required_keys__ | request.__optional_keys__
        for key in sorted(fields):
            answer = app.client.post(path, json={key: None})
            check(answer.json(), wire.ErrorBody if answer.status_code >= 400 else _answer)
            refused = "unknown field" in answer.text
            assert refused == (key not in own), (route, key, answer.text)


def test_a_renamed_field_fails_the_check() -> None:
    good = {"state": "seated", "table": "t", "seat": "south", "token": "x", "rated": True}
    check(good, wire.QueueBody)
    renamed = {**good, "is_rated": good.pop("rated")}
    with pytest.raises(SchemaError):
        check(renamed, wire.QueueBody)
    # A literal true is true only (not 1), and 1 is never a literal true.
    check({"signed_out": True}, wire.SignedOutBody)
    for bad in (1, False, "true"):
        with pytest.raises(SchemaError):
            check({"signed_out": bad}, wire.SignedOutBody)
    with pytest.raises(SchemaError):
        check(True, typing.Literal[1])


# -- rate limits ------------------------------------------------------------------------------


def _frozen(app: App, *names: str) -> None:
    """The service's buckets ``names`` without refill while the test runs."""
    for name in names:
        bucket = getattr(app.service, name)
        setattr(app.service, name, Buckets(bucket.rate, bucket.burst, clock=lambda: 0.0))


def _limited(answer: Any) -> str:
    assert answer.status_code == 429, answer.text
    data = answer.json()
    check(data, wire.ErrorBody)
    assert data["error"]["code"] == "rate_limited"
    message = str(data["error"]["message"])
    assert "Traceback" not in message and "Bucket" not in message
    return message


def test_claims_are_limited_per_account_and_per_client_as_sign_in_is(app: App) -> None:
    _frozen(app, "claims_by_player", "claims_by_client")
    app.service.signups_by_client = Buckets(1.0, 100.0)  # 13 accounts from one address
    layla = app.player("Layla")
    guesses = {"seats": [{"table": "t1", "token": f"guess{i}"} for i in range(50)]}
    statuses = [layla.post("/api/players/claim", json=guesses).status_code for _ in range(8)]
    assert statuses == [200] * 5 + [429] * 3  # settings.logins_per_minute a player
    assert "wait a minute" in _limited(layla.post("/api/players/claim", json=guesses))
    # Other accounts from the same address: the address's own limit (four times) runs out.
    more = [
        app.player(f"Guess{n}").post("/api/players/claim", json=guesses).status_code
        for n in range(12)
    ]
    assert more == [200] * 11 + [429]  # 20 a client: 9 for Layla, then 11
    # A guest's claims count against the address too, before the session is looked at.
    _limited(app.browser().post("/api/players/claim", json=guesses))


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/players/queue/join", {"rules": "classic"}),
        ("/api/players/queue/leave", {}),
        ("/api/players/tables/t1/join", {}),
    ],
)
def test_the_other_changes_are_limited_per_account_and_per_client(
    app: App, path: str, body: dict[str, Any]
) -> None:
    _frozen(app, "actions_by_player", "actions_by_client")
    ana = app.player("Ana")
    statuses = [ana.post(path, json=body).status_code for _ in range(32)]
    first = statuses[0]
    assert first in (200, 404) and statuses == [first] * 30 + [429] * 2
    _limited(ana.post(path, json=body))
    for name in ("Ben", "Cem"):  # each has his own share ...
        other = app.player(name)
        assert [other.post(path, json=body).status_code for _ in range(30)] == [first] * 30
    dan = app.player("Dan")
    rest = [dan.post(path, json=body).status_code for _ in range(30)]
    assert rest == [first] * 27 + [429] * 3  # ... until the address's (120) runs out
    _limited(app.client.post("/api/players/logout", json={}))
