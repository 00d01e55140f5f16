"""Durability of ``tarneeb serve``: the store, a restarted app, a failed commit, ``kill -9``.

Every test runs twice: on SQLite (a temporary file) and on PostgreSQL (the
server named by ``TARNEEB_TEST_POSTGRES_URL``, each test in a schema of its
own, dropped afterwards). Without that variable the PostgreSQL cases skip,
unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI), where they fail.

* the :class:`Store` round-trips tables and event logs, and the database
  itself refuses a second event with the same ``(table, seq)``;
* an app started again on the same database brings back every unfinished
  table exactly (each seat's welcome, the match, the log) and play goes on
  to the end of the match;
* a commit that fails answers ``internal`` and leaves the table as stored;
* the crash test: ``python -m tarneeb serve`` in a subprocess, clients on
  real WebSockets, ``SIGKILL`` in the middle of a deal, a restart on the
  same database: every client reconnects with its token and ``since`` and
  finds its table at the identical state, nothing it was told (acked) lost,
  and the deal is played to its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sa = pytest.importorskip("sqlalchemy")
pytest.importorskip("starlette")
websockets = pytest.importorskip("websockets")

from starlette.testclient import TestClient  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from support import serve_command, start_listening  # noqa: E402
from tarneeb.actions import format_action  # noqa: E402
from tarneeb.seats import Seat  # noqa: E402
from tarneeb.server import app as app_module  # noqa: E402
from tarneeb.server.app import create_app  # noqa: E402
from tarneeb.server.hub import Hub, Settings  # noqa: E402
from tarneeb.server.store import Store  # noqa: E402
from tarneeb.server.table import Table, TableConfig  # noqa: E402
from tarneeb.server.wire import PROTOCOL_VERSION  # noqa: E402

POSTGRES_ENV = "TARNEEB_TEST_POSTGRES_URL"
NAMES = ("south", "east", "north", "west")
ALL_HUMAN = {"seats": dict.fromkeys(NAMES, "human"), "takeover_seconds": 3600}
ONE_HUMAN = {
    "seats": {
        "south": "human",
        "east": "bot:random",
        "north": "bot:heuristic",
        "west": "bot:random",
    },
    "takeover_seconds": 3600,
}
QUICK = {"target": 11}
"""A match that ends after a few deals of the scripted play (a deal scores at most 16)."""
FAST = {"bot_delay": 0.0, "rate_per_s": 1e6, "rate_burst": 1e6}
"""In-process apps: bots at once, and no rate limit (the tests play at machine speed)."""
RECV_TIMEOUT = 20.0
"""Seconds a WebSocket client of the crash test waits for a frame before the test fails."""


# -- the two databases ------------------------------------------------------------------------


@contextlib.contextmanager
def postgres_schema(prefix: str) -> Iterator[str]:
    """A URL of the test PostgreSQL whose tables live in a new schema no other test sees
    (dropped at the end)."""
    base = _postgres_base()
    schema = f"{prefix}_{secrets.token_hex(6)}"
    admin = sa.create_engine(base)
    try:
        with admin.begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        # Every connection of this URL (the server's too) finds its tables in the schema.
        url = sa.engine.make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text("SET LOCAL lock_timeout = '10s'"))
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


def _postgres_base() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if url:
        return url
    reason = (
        f"PostgreSQL tests need {POSTGRES_ENV}, e.g. "
        "postgresql+psycopg://tarneeb:tarneeb@127.0.0.1:5432/tarneeb_test"
    )
    if os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1":
        pytest.fail(f"{reason} (TARNEEB_REQUIRE_EXTRAS=1: not skipped)")
    pytest.skip(reason)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database no other test sees: a new SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tarneeb.db'}"
        return
    with postgres_schema("tarneeb_test") as url:
        yield url


# -- tables without a server ------------------------------------------------------------------


def _random_act(table: Table, rng: random.Random, ref: str) -> None:
    """One random legal action for whoever is to act (a pure table checks no controller)."""
    assert table.match is not None
    seat = table.to_act()
    assert seat is not None
    action = rng.choice(list(table.match.deal.legal_actions))
    table.act(seat, table.version, format_action(action), ref)


def _same_table(a: Table, b: Table) -> None:
    """``a`` and ``b`` hold the identical table: log, seats, match, seeds and applied actions."""
    assert (a.id, a.config, a.created) == (b.id, b.config, b.created)
    assert a.events == b.events
    assert a.seats == b.seats
    assert a.version == b.version
    assert a.seeds == b.seeds
    assert a.acted == b.acted
    assert a.status == b.status
    assert a.match == b.match


def test_store_round_trips_tables_and_events(db_url: str) -> None:
    rng = random.Random(61)
    config = TableConfig.from_dict(
        {
            "rules": "classic",
            "options": {"target": 31},
            "seats": {"east": "bot:random", "west": "bot:heuristic"},
            "public": False,
            "turn_seconds": 45,
            "takeover_seconds": 5,
        }
    )
    table = Table.new("roundtrip1", config)
    south = table.join("Layla  Haddad", Seat.SOUTH)
    north = table.join("عمر", Seat.NORTH)
    assert table.status == "playing"
    # A finished match too: three bots and a target of 1 end it after the first deal scored.
    done = Table.new(
        "finished1",
        TableConfig.from_dict(
            {"options": {"target": 1}, "seats": {s: "bot:random" for s in NAMES[1:]}}
        ),
    )
    done.join("Sami", Seat.SOUTH)
    waiting = Table.new("waiting1", TableConfig())
    waiting.join("Nour", Seat.WEST)

    store = Store(db_url)
    try:
        store.create(table)
        store.create(waiting)
        store.create(done)
        # Append as the hub does: each change's new events in one transaction.
        for i in range(40):
            start = table.seq
            _random_act(table, rng, f"a{i}")
            store.append(table.id, table.events[start:], table.status)
        start = table.seq
        table.chat(Seat.NORTH, 'quotes " and \\ and \u2603 and مرحبا')
        store.append(table.id, table.events[start:], table.status)
        start = done.seq
        i = 0
        while done.status != "finished":
            _random_act(done, rng, f"d{i}")
            i += 1
        store.append(done.id, done.events[start:], done.status)
    finally:
        store.close()

    again = Store(db_url)  # a new engine, as after a restart
    try:
        stored = again.load(table.id)
        assert stored is not None
        assert (stored.id, stored.created, stored.config) == (table.id, table.created, config)
        assert stored.status == "playing"
        assert stored.events == tuple(table.events)
        back = stored.restore()
        _same_table(back, table)
        assert back.seat_of_token(south) == Seat.SOUTH
        assert back.seat_of_token(north) == Seat.NORTH
        assert back.events[-1].data["text"] == 'quotes " and \\ and \u2603 and مرحبا'

        assert sorted(t.id for t in again.load_unfinished()) == sorted([table.id, waiting.id])
        stored_waiting = again.load(waiting.id)
        assert stored_waiting is not None and stored_waiting.status == "waiting"
        _same_table(stored_waiting.restore(), waiting)
        stored_done = again.load(done.id)
        assert stored_done is not None and stored_done.status == "finished"
        _same_table(stored_done.restore(), done)
        assert again.load("no-such-table") is None
    finally:
        again.close()


OLD_SCHEMA = (
    "CREATE TABLE tarneeb_tables (id VARCHAR(32) NOT NULL, created VARCHAR(32) NOT NULL, "
    "config TEXT NOT NULL, status VARCHAR(16) NOT NULL, PRIMARY KEY (id))",
    "CREATE INDEX ix_tarneeb_tables_status ON tarneeb_tables (status)",
    "CREATE TABLE tarneeb_events (table_id VARCHAR(32) NOT NULL, seq INTEGER NOT NULL, "
    "kind VARCHAR(16) NOT NULL, data TEXT NOT NULL, secret TEXT, PRIMARY KEY (table_id, seq), "
    "FOREIGN KEY(table_id) REFERENCES tarneeb_tables (id))",
)
"""The schema of the first version of the store, as it created it (no results table)."""


def test_a_database_of_the_first_schema_opens_and_its_tables_load(db_url: str) -> None:
    """Tables written by the first version (no ``tarneeb_results``) load; the new table is added."""
    playing = Table.new("old1", TableConfig(seats=("human", "bot:random", "bot:random", "human")))
    playing.join("Layla", Seat.SOUTH)
    playing.join("Omar", Seat.WEST)
    waiting = Table.new("old2", TableConfig())
    waiting.join("Nour", Seat.NORTH)
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            for statement in OLD_SCHEMA:
                conn.execute(sa.text(statement))
            for table in (playing, waiting):
                conn.execute(
                    sa.text("INSERT INTO tarneeb_tables VALUES (:id, :created, :config, :status)"),
                    {
                        "id": table.id,
                        "created": table.created,
                        "config": json.dumps(table.config.to_dict()),
                        "status": table.status,
                    },
                )
                for e in table.events:
                    conn.execute(
                        sa.text(
                            "INSERT INTO tarneeb_events VALUES (:t, :seq, :kind, :data, :secret)"
                        ),
                        {
                            "t": table.id,
                            "seq": e.seq,
                            "kind": e.kind,
                            "data": json.dumps(dict(e.data)),
                            "secret": None if e.secret is None else json.dumps(dict(e.secret)),
                        },
                    )
    finally:
        engine.dispose()
    store = Store(db_url)
    try:
        assert sorted(t.id for t in store.load_unfinished()) == ["old1", "old2"]
        loaded = store.load("old1")
        assert loaded is not None
        _same_table(loaded.restore(), playing)
        assert store.load_result("old1") is None
        assert sa.inspect(store.engine).has_table("tarneeb_results")
        # An expired waiting table stays stored, and is no longer brought back.
        assert store.expire("old2") is True
        assert store.expire("old1") is False  # it is playing: it does not expire
        assert [t.id for t in store.load_unfinished()] == ["old1"]
        assert store.status("old2") == "expired"
        store.save_result("old1", {"version": 1, "n": 1})
        store.save_result("old1", {"version": 1, "n": 2})  # the first one stays
        assert store.load_result("old1") == {"version": 1, "n": 1}
        store.save_result("old1", {"version": 2})  # one built by a later server replaces it
        assert store.load_result("old1") == {"version": 2}
    finally:
        store.close()


def test_commits_waiting_together_are_grouped_and_one_tables_fault_stays_its_own(
    db_url: str,
) -> None:
    """Commits that wait at once go in one transaction; refused for one table's data
    (an event written twice), the others are stored all the same."""
    tables = [Table.new(f"group{n}", TableConfig()) for n in range(3)]
    store = Store(db_url)
    try:
        for table in tables:
            store.create(table)
        starts = [t.seq for t in tables]
        for n, table in enumerate(tables):
            table.join(f"Player {n}", Seat.SOUTH)
        groups: list[int] = []
        append_many = store.append_many

        def counted(changes: Any) -> None:
            if not groups:  # the first commit waits until the others wait behind it
                for _ in range(500):
                    if len(store._queue) >= 3:
                        break
                    time.sleep(0.01)
            groups.append(len(changes))
            append_many(changes)

        store.append_many = counted  # type: ignore[method-assign]

        async def commit_all() -> list[BaseException | None]:
            commits = [
                store.commit(t.id, t.events[start:], t.status)
                for t, start in zip(tables, starts, strict=True)
            ]
            twice = store.commit(tables[1].id, tables[1].events[:1], "waiting")  # seq 1 again
            outcomes = await asyncio.gather(*commits, twice, return_exceptions=True)
            return [o if isinstance(o, BaseException) else None for o in outcomes]

        outcomes = asyncio.run(commit_all())
        assert outcomes[:3] == [None, None, None]
        assert isinstance(outcomes[3], sa.exc.IntegrityError)
        assert groups[:2] == [1, 3]  # the three waiting went together (then each alone)
        for table in tables:
            loaded = store.load(table.id)
            assert loaded is not None and loaded.events == tuple(table.events)
    finally:
        store.close()


def test_the_database_refuses_a_second_event_with_the_same_seq(db_url: str) -> None:
    table = Table.new("dupes1", TableConfig())
    table.join("Layla", Seat.SOUTH)
    table.join("Omar", Seat.EAST)
    store = Store(db_url)
    try:
        store.create(table)
        # The same event again.
        with pytest.raises(sa.exc.IntegrityError):
            store.append(table.id, [table.events[-1]], "finished")
        # A batch of a new event and a written one: refused whole, status included.
        start = table.seq
        table.join("Nour", Seat.NORTH)
        with pytest.raises(sa.exc.IntegrityError):
            store.append(table.id, [*table.events[start:], table.events[0]], "finished")
        # Not the store's own check: a plain INSERT is refused by the primary key as well.
        with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO tarneeb_events (table_id, seq, kind, data) "
                    "VALUES (:t, 1, 'chat', '{}')"
                ),
                {"t": table.id},
            )
        stored = store.load(table.id)
        assert stored is not None
        assert stored.status == "waiting"
        assert stored.events == tuple(table.events[:start])
        # The refused batch can still be written once, as it was.
        store.append(table.id, table.events[start:], table.status)
        again = store.load(table.id)
        assert again is not None and again.events == tuple(table.events)
    finally:
        store.close()


# -- the app in-process (Starlette's test client) ---------------------------------------------


@pytest.fixture
def hubs(monkeypatch: pytest.MonkeyPatch) -> list[Hub]:
    """Every :class:`Hub` the apps of this test start, to compare their tables."""
    made: list[Hub] = []

    class RecordedHub(Hub):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(app_module, "Hub", RecordedHub)
    return made


def _create(
    client: TestClient, body: dict[str, Any], fill: bool = True
) -> tuple[str, dict[str, str]]:
    """A new table as ``body`` says, its human seats joined if ``fill``; the id and the tokens."""
    answer = client.post("/api/tables", json={**body, "name": "Player south"})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    tokens = {created["seat"]: created["token"]}
    seats = body.get("seats", {})
    for name in NAMES[1:]:
        if fill and seats.get(name, "human") == "human":
            joined = client.post(
                f"/api/tables/{created['table']}/join",
                json={"name": f"Player {name}", "seat": name},
            )
            assert joined.status_code == 200, joined.text
            tokens[name] = joined.json()["token"]
    return created["table"], tokens


class Seated:
    """A seat's (or a spectator's) WebSocket of the in-process app, and what it last heard."""

    def __init__(self, ws: Any, token: str | None, since: int | None = None) -> None:
        self.ws = ws
        hello: dict[str, Any] = {"type": "hello", "protocol": 2}
        if token is not None:
            hello["token"] = token
        if since is not None:
            hello["since"] = since
        ws.send_text(json.dumps(hello))
        self.welcome = ws.receive_json()
        assert self.welcome["type"] == "welcome", self.welcome
        self.seat: str | None = self.welcome["seat"]
        self.state: dict[str, Any] = self.welcome["state"]
        self.version: int = self.welcome["version"]

    def next(self) -> dict[str, Any]:
        frame: dict[str, Any] = self.ws.receive_json()
        assert frame["type"] in ("update", "ack"), frame
        if frame["type"] == "update":
            self.state = frame["state"]
            self.version = frame["version"]
            assert self.state["version"] == frame["version"]
        return frame

    def until(self, version: int) -> None:
        """Read up to the update that makes ``version``."""
        while self.version < version:
            self.next()
        assert self.version == version


def _choose(match: dict[str, Any], rng: random.Random) -> str:
    """A scripted player: the first to speak bids the lowest bid, the others pass; cards at random."""
    legal = [a["text"] for a in match["legal"]]
    if match["phase"] == "auction":
        calls = match["auction"]["calls"]
        if "pass" in legal and any(c["action"]["kind"] != "pass" for c in calls):
            return "pass"
        bids = [a["text"] for a in match["legal"] if a["kind"] == "bid"]
        if bids:
            return bids[0]
    return rng.choice(legal)


def _step(players: dict[str, Seated], rng: random.Random) -> None:
    """One action at a table whose seated players all heard the same version.

    A player to act sends a random legal action and gets it acked; for a bot,
    its update is awaited. Then every player reads up to the new version.
    """
    first = next(iter(players.values()))
    version = first.version
    to_act = first.state["match"]["to_act"]
    actor = players.get(to_act)
    if actor is not None:
        actor.ws.send_text(
            json.dumps(
                {
                    "type": "act",
                    "id": f"{to_act}-{version}",
                    "version": version,
                    "action": _choose(actor.state["match"], rng),
                }
            )
        )
        ack = actor.next()
        while ack["type"] == "update" and ack["version"] == version:  # presence
            ack = actor.next()
        assert ack == {"type": "ack", "id": f"{to_act}-{version}", "version": version + 1}
        target = version + 1
    else:
        while first.version == version:
            first.next()
        target = first.version
    for player in players.values():
        player.until(target)


def _play(
    players: dict[str, Seated], rng: random.Random, stop: Callable[[dict[str, Any]], bool]
) -> None:
    """Play on until ``stop(match)`` holds on a human's turn, or the match is over."""
    first = next(iter(players.values()))
    for _ in range(5000):
        match = first.state["match"]
        if match["over"] or (match["to_act"] in players and stop(match)):
            return
        _step(players, rng)
    raise AssertionError("the match did not end in 5000 actions")


def _actions(match: dict[str, Any]) -> list[list[str]]:
    """Every action of the deal of ``match`` (a seat's state): [seat, text], in order."""
    calls = [[c["seat"], c["action"]["text"]] for c in match["auction"]["calls"]]
    tricks = [*match["tricks"], *([match["trick"]] if match["trick"] else [])]
    return calls + [list(card) for trick in tricks for card in trick["cards"]]


def _cards_played(match: dict[str, Any]) -> int:
    return 4 * sum(match["tricks_taken"]) + (len(match["trick"]["cards"]) if match["trick"] else 0)


def _in_play(cards: int) -> Callable[[dict[str, Any]], bool]:
    return lambda match: match["phase"] == "play" and _cards_played(match) >= cards


def _timeless(value: Any) -> Any:
    """``value`` without the clock: the server's time left out, a deadline only said to be."""
    if isinstance(value, dict):
        return {
            key: (item is not None) if key == "away_deadline" else _timeless(item)
            for key, item in value.items()
            if key != "server_time"
        }
    if isinstance(value, list):
        return [_timeless(item) for item in value]
    return value


def _welcomes(client: TestClient, table_id: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Each seat's welcome (alone at the table) and a spectator's: what they are shown
    (the clock aside, see :func:`_timeless`)."""
    found: dict[str, Any] = {}
    for name, token in [*tokens.items(), ("spectator", None)]:
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            found[name] = _timeless(Seated(ws, token).welcome)
    return found


def _seated(stack: contextlib.ExitStack, client: TestClient, table_id: str, tokens: dict[str, str]):  # type: ignore[no-untyped-def]
    return {
        name: Seated(stack.enter_context(client.websocket_connect(f"/ws/{table_id}")), token)
        for name, token in tokens.items()
    }


def test_a_restarted_app_brings_back_every_unfinished_table(db_url: str, hubs: list[Hub]) -> None:
    rng = random.Random(6)
    settings = Settings(db_url=db_url, **FAST)
    with TestClient(create_app(settings)) as client:
        # Target 31: no deal scores more than 16, so the match goes past the second deal.
        humans, human_tokens = _create(client, {**ALL_HUMAN, "options": {"target": 31}})
        bots, bot_tokens = _create(client, {**ONE_HUMAN, "options": QUICK})
        waiting, waiting_tokens = _create(client, ALL_HUMAN, fill=False)
        finished, finished_tokens = _create(
            client, {**ONE_HUMAN, "options": {"target": 1}, "public": True}
        )
        with contextlib.ExitStack() as stack:
            # Four players into the second deal (or further), then a few cards of play.
            players = _seated(stack, client, humans, human_tokens)
            _play(players, rng, lambda m: m["deal_number"] >= 2 and _in_play(6)(m))
            players = _seated(stack, client, bots, bot_tokens)
            _play(players, rng, _in_play(9))
            players = _seated(stack, client, finished, finished_tokens)
            _play(players, rng, lambda m: False)
            assert players["south"].state["match"]["over"] is True
        # A finished table that nobody watches any more is let go (the store keeps it).
        assert finished not in hubs[0].live
        live = {t: hubs[0].get(t).table for t in (humans, bots, waiting, finished)}
        assert [live[t].status for t in (humans, bots, waiting, finished)] == [
            "playing",
            "playing",
            "waiting",
            "finished",
        ]
        tables = {
            humans: human_tokens,
            bots: bot_tokens,
            waiting: waiting_tokens,
            finished: finished_tokens,
        }
        before = {t: _welcomes(client, t, tokens) for t, tokens in tables.items()}

    with TestClient(create_app(settings)) as client:
        hub = hubs[1]
        # Startup brings back the unfinished tables; a finished one stays in the database.
        assert set(hub.live) == {humans, bots, waiting}
        for table_id in (humans, bots, waiting):
            _same_table(hub.live[table_id].table, live[table_id])
        after = {t: _welcomes(client, t, tokens) for t, tokens in tables.items()}
        assert after == before
        _same_table(hub.get(finished).table, live[finished])
        assert client.get(f"/api/tables/{finished}").json()["status"] == "finished"
        assert client.get(f"/api/tables/{finished}/record").status_code == 200
        listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert listed == {humans, bots, waiting}

        # Play goes on to the end of the match at both playing tables.
        for table_id, tokens in ((humans, human_tokens), (bots, bot_tokens)):
            with contextlib.ExitStack() as stack:
                players = _seated(stack, client, table_id, tokens)
                _play(players, rng, lambda m: False)
                first = next(iter(players.values()))
                assert first.state["match"]["over"] is True
                assert first.state["status"] == "finished"
        # The waiting table fills and starts.
        for name in NAMES[1:]:
            joined = client.post(f"/api/tables/{waiting}/join", json={"name": name, "seat": name})
            assert joined.status_code == 200, joined.text
        assert client.get(f"/api/tables/{waiting}").json()["status"] == "playing"
        assert waiting_tokens.keys() == {"south"}

    # And what the second app stored is what it played.
    store = Store(db_url)
    try:
        for table_id in (humans, bots, waiting):
            stored = store.load(table_id)
            assert stored is not None
            _same_table(stored.restore(), hubs[1].get(table_id).table)
        assert [t.id for t in store.load_unfinished()] == [waiting]
        # The two matches played to the end were let go once their players left.
        assert set(hubs[1].live) == {waiting}
    finally:
        store.close()


class _Failing:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *_args: Any, **_kwargs: Any) -> None:
        self.calls += 1
        raise sa.exc.OperationalError("INSERT", {}, Exception("disk I/O error"))


@pytest.mark.parametrize("database_down", [False, True], ids=["commit-fails", "database-down"])
def test_a_failed_commit_answers_internal_and_keeps_the_stored_table(
    db_url: str, hubs: list[Hub], monkeypatch: pytest.MonkeyPatch, database_down: bool
) -> None:
    """The commit of an action fails (and with ``database_down`` reading the table back fails too).

    The sender hears ``internal`` for its ``act``, no one hears an update, the
    table stays exactly as stored, and the same action is accepted once the
    database works again.
    """
    rng = random.Random(7)
    with TestClient(create_app(Settings(db_url=db_url, **FAST))) as client:
        table_id, tokens = _create(client, ALL_HUMAN)
        with contextlib.ExitStack() as stack:
            players = _seated(stack, client, table_id, tokens)
            _play(players, rng, _in_play(3))
            hub = hubs[0]
            before = Table.restore(
                table_id,
                hub.live[table_id].table.config,
                hub.live[table_id].table.created,
                list(hub.live[table_id].table.events),
            )
            match = players["south"].state["match"]
            to_act = players[match["to_act"]]
            version = to_act.version
            act = {
                "type": "act",
                "id": "fails-once",
                "version": version,
                "action": to_act.state["match"]["legal"][0],
            }
            failing = _Failing()
            with monkeypatch.context() as patch:
                patch.setattr(Store, "append_many", failing)
                if database_down:
                    patch.setattr(Store, "load", failing)
                to_act.ws.send_text(json.dumps(act))
                error = to_act.ws.receive_json()
            assert failing.calls >= 1
            assert error["type"] == "error", error
            assert (error["code"], error["id"]) == ("internal", "fails-once")
            # No one heard of it: each connection's next frame is the answer to its ping.
            for player in players.values():
                player.ws.send_text('{"type": "ping"}')
                assert player.ws.receive_json() == {"type": "pong"}
            # The table in memory is the stored one, and as it was.
            stored = Store(db_url)
            try:
                loaded = stored.load(table_id)
                assert loaded is not None
                _same_table(loaded.restore(), before)
            finally:
                stored.close()
            _same_table(hub.live[table_id].table, before)
            # The same action again is new to the table: acked once, heard by all.
            to_act.ws.send_text(json.dumps(act))
            assert to_act.next() == {"type": "ack", "id": "fails-once", "version": version + 1}
            for player in players.values():
                player.until(version + 1)
            now = hub.live[table_id].table
            assert [e.data["version"] for e in now.events if e.kind == "action"] == list(
                range(1, version + 2)
            )
            assert now.acted[(Seat[match["to_act"].upper()], "fails-once")] == version + 1


# -- the crash test: a real server process, killed -------------------------------------------


def _http(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}{path}", data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


class Server:
    """``python -m tarneeb serve`` on a port and a database, started and killed at will."""

    def __init__(self, db: str, log: Path) -> None:
        self.db = db
        self.port = 0
        """The port, free when first started; a restart keeps it (the clients know it)."""
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process, self.port = start_listening(
                lambda port: serve_command(self.db, port),
                port=self.port or None,
                log=lambda: self.log.read_text()[-3000:],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        # It listens: poll until it answers, at most 600 times (0.05 s between tries).
        for _ in range(600):
            try:
                if _http(self.base, "GET", "/api/info")["protocol"] == PROTOCOL_VERSION:
                    return
            except (OSError, urllib.error.URLError, ValueError):
                pass
            try:
                code = self.process.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                continue
            raise AssertionError(f"tarneeb serve exited ({code}): {self.log.read_text()[-3000:]}")
        raise AssertionError(f"tarneeb serve did not answer: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        assert self.process.wait(timeout=10) == -signal.SIGKILL

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
                self.process.kill()
                self.process.wait()


class Client:
    """A scripted player on a real WebSocket: what it heard, and the last version acked to it."""

    def __init__(self, server: Server, table: str, seat: str | None, token: str | None) -> None:
        self.server = server
        self.table = table
        self.seat = seat
        self.token = token
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self.seq = 0
        self.version = 0
        self.acked = 0
        self.acks: set[str] = set()
        self.events: list[dict[str, Any]] = []
        """Every event heard, in order, without gaps (welcome replays and updates)."""
        self.last_act: dict[str, Any] | None = None

    async def connect(self, since: int | None = None) -> dict[str, Any]:
        self.ws = await connect(f"ws://127.0.0.1:{self.server.port}/ws/{self.table}")
        hello: dict[str, Any] = {"type": "hello", "protocol": 2}
        if self.token is not None:
            hello["token"] = self.token
        if since is not None:
            hello["since"] = since
        await self.ws.send(json.dumps(hello))
        welcome = await self.recv()
        assert welcome["type"] == "welcome", welcome
        return welcome

    async def recv(self) -> dict[str, Any]:
        assert self.ws is not None
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), RECV_TIMEOUT))
        kind = frame["type"]
        if kind in ("welcome", "update"):
            if frame["events"] is not None:
                for event in frame["events"]:
                    assert event["seq"] == len(self.events) + 1, (event, len(self.events))
                    self.events.append(event)
            self.state = frame["state"]
            self.seq = frame["seq"]
            self.version = frame["version"]
        elif kind == "ack":
            self.acked = max(self.acked, frame["version"])
            self.acks.add(frame["id"])
        return frame

    async def until(self, version: int) -> None:
        while self.version < version:
            frame = await self.recv()
            assert frame["type"] in ("update", "ack"), frame
        assert self.version == version

    async def act(self, ref: str, version: int, action: str) -> None:
        assert self.ws is not None
        self.last_act = {"ref": ref, "version": version, "action": action}
        await self.ws.send(
            json.dumps({"type": "act", "id": ref, "version": version, "action": action})
        )

    async def drain(self) -> None:
        """Read what arrived before the connection went down."""
        with contextlib.suppress(ConnectionClosed, asyncio.TimeoutError):
            while True:
                await self.recv()


async def _step_async(players: dict[str, Client], rng: random.Random) -> None:
    first = next(iter(players.values()))
    version = first.version
    actor = players.get(first.state["match"]["to_act"])
    if actor is not None:
        ref = f"{actor.seat}-{version}"
        await actor.act(ref, version, _choose(actor.state["match"], rng))
        frame = await actor.recv()
        while frame["type"] == "update" and frame["version"] == version:  # presence
            frame = await actor.recv()
        assert frame == {"type": "ack", "id": ref, "version": version + 1}, frame
        target = version + 1
    else:
        while first.version == version:
            frame = await first.recv()
            assert frame["type"] == "update", frame
        target = first.version
    for player in players.values():
        await player.until(target)


async def _play_async(
    players: dict[str, Client], rng: random.Random, stop: Callable[[dict[str, Any]], bool]
) -> None:
    first = next(iter(players.values()))
    for _ in range(5000):
        match = first.state["match"]
        if match["over"] or (match["to_act"] in players and stop(match)):
            return
        await _step_async(players, rng)
    raise AssertionError("the match did not end in 5000 actions")


def _new_table(server: Server, body: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """A table with every human seat taken: seat name -> (table id, token)."""
    created = _http(server.base, "POST", "/api/tables", {**body, "name": "south"})
    table = created["table"]
    seats = {"south": (table, created["token"])}
    for name in NAMES[1:]:
        if body["seats"][name] == "human":
            joined = _http(server.base, "POST", f"/api/tables/{table}/join", {"name": name})
            seats[joined["seat"]] = (table, joined["token"])
    return seats


def _without_presence(state: dict[str, Any]) -> dict[str, Any]:
    """A state without who is connected or away (presence, not the table's state), nor
    the server's clock."""
    return {
        **{k: v for k, v in state.items() if k != "server_time"},
        "seats": [
            {k: v for k, v in seat.items() if k not in ("connected", "away_deadline")}
            for seat in state["seats"]
        ],
    }


async def _crash_and_restart(server: Server) -> None:
    rng = random.Random(9)
    quiet = {  # tables at rest when the server dies: a human is to act
        "humans": _new_table(server, ALL_HUMAN),
        "bots": _new_table(server, ONE_HUMAN),
    }
    busy = _new_table(server, ALL_HUMAN)  # an action in flight when the server dies
    tables = {**quiet, "busy": busy}
    clients = {
        name: {seat: Client(server, table, seat, token) for seat, (table, token) in seats.items()}
        for name, seats in tables.items()
    }
    for players in clients.values():
        for client in players.values():
            await client.connect()
    for name, players in clients.items():
        await _play_async(players, rng, _in_play(5 if name != "bots" else 9))

    # The busy table: its player to act sends an action, and the server dies at once.
    busy_players = clients["busy"]
    first = busy_players["south"]
    version = first.version
    mover = busy_players[first.state["match"]["to_act"]]
    in_flight = {
        "ref": "in-flight",
        "version": version,
        "action": _choose(mover.state["match"], rng),
    }
    history = _actions(first.state["match"])
    await mover.act(**in_flight)
    server.kill()
    for players in clients.values():
        for client in players.values():
            await client.drain()
            assert client.ws is not None
            await client.ws.close()
    before = {
        name: {
            seat: (c.seq, c.version, c.acked, _without_presence(c.state), list(c.events))
            for seat, c in players.items()
        }
        for name, players in clients.items()
    }

    server.start()
    for name, players in clients.items():
        spectator = Client(server, next(iter(players.values())).table, None, None)
        log = (await spectator.connect(since=0))["events"]
        await spectator.ws.close()  # type: ignore[union-attr]
        for seat, client in players.items():
            seq, version_seen, acked, state, events = before[name][seat]
            welcome = await client.connect(since=client.seq)
            # Nothing acked, nothing heard is lost: what this client heard is the start of the log.
            assert welcome["version"] >= max(acked, version_seen)
            assert log[: len(events)] == events
            assert client.events == log[: welcome["seq"]]
            if name in quiet:
                # The identical table: same version, log, hands, history, everything.
                assert (welcome["seq"], welcome["version"]) == (seq, version_seen)
                assert welcome["events"] == []
                assert _without_presence(welcome["state"]) == state
    # An action acked before the crash, sent again, is known: applied once, not twice.
    for name in quiet:
        for client in clients[name].values():
            if client.last_act is None:
                continue
            await client.act(**client.last_act)
            frame = await client.recv()
            while frame["type"] == "update" and frame["version"] == client.version:  # presence
                frame = await client.recv()
            assert frame["type"] == "error", frame
            assert (frame["code"], frame["id"], frame["version"]) == (
                "duplicate",
                client.last_act["ref"],
                client.last_act["version"] + 1,
            )
    # The busy table holds the action in flight at most once; sent again, it is applied once.
    for client in busy_players.values():
        if client.version > version:
            assert client.version == version + 1
            assert _actions(client.state["match"])[: len(history)] == history
    acked_before_kill = "in-flight" in mover.acks
    await mover.act(**in_flight)
    at = mover.version
    frame = await mover.recv()
    while frame["type"] == "update" and frame["version"] == at:  # presence of the others
        frame = await mover.recv()
    if at == version:  # it was lost before its commit: now it is taken
        assert frame == {"type": "ack", "id": "in-flight", "version": version + 1}
        assert not acked_before_kill
    else:  # it was committed: resent, it is refused as a duplicate
        assert frame["type"] == "error", frame
        assert (frame["code"], frame["version"]) == ("duplicate", version + 1)
    for client in busy_players.values():
        await client.until(version + 1)

    # Every table plays its deal to the end.
    for players in clients.values():
        deal = next(iter(players.values())).state["match"]["deal_number"]
        await _play_async(players, rng, lambda m, deal=deal: m["deal_number"] > deal)
        for client in players.values():
            match = client.state["match"]
            assert match["deal_number"] > deal or match["over"]
            assert client.events == (await _log(server, client.table))[: len(client.events)]
            assert client.ws is not None
            await client.ws.close()


async def _log(server: Server, table: str) -> list[dict[str, Any]]:
    spectator = Client(server, table, None, None)
    welcome = await spectator.connect(since=0)
    assert spectator.ws is not None
    await spectator.ws.close()
    events: list[dict[str, Any]] = welcome["events"]
    return events


def test_kill_9_mid_deal_and_restart_resumes_every_table(db_url: str, tmp_path: Path) -> None:
    server = Server(db_url, tmp_path / "server.log")
    try:
        server.start()
        asyncio.run(_crash_and_restart(server))
    finally:
        server.stop()
