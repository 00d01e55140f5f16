"""After the match: a rematch with the same seats and rules, once every player agrees.

Issue 23, item 7: "The match end stacks two dialogs ... and no rematch."
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tarneeb.server import wire
from tarneeb.server.wiretypes import check
from ws_support import Peer, TestClient, connect, play_until, server

SEATS = {"east": "bot:random", "north": "human", "west": "bot:random"}
QUICK = {"target": 1}


def _table(client: TestClient) -> tuple[str, str, str]:
    body = {"name": "Layla", "seats": SEATS, "public": True, "options": QUICK}
    made = client.post("/api/tables", json=body).json()
    table = made["table"]
    north = client.post(f"/api/tables/{table}/join", json={"name": "Nour"}).json()["token"]
    return table, made["token"], north


def _play_out(south: Peer, north: Peer) -> None:
    rng = random.Random(4)
    while not south.over():
        for peer in (south, north):
            peer.sync()
            if peer.my_turn():
                play_until(peer, rng, lambda p: not p.my_turn() or p.over())
    north.sync()


def _error(peer: Peer, frame: dict[str, Any]) -> str:
    peer.send(frame)
    return str(peer.until(lambda f: f["type"] == "error")["code"])


def test_every_player_agrees_and_the_rematch_is_a_new_table_with_the_same_seats(
    tmp_path: Path,
) -> None:
    with server(tmp_path) as client:
        table, south_token, north_token = _table(client)
        with (
            connect(client, table, "south") as south,
            connect(client, table, "north") as north,
            connect(client, table, "spec") as spec,
        ):
            south.hello(south_token)
            north.hello(north_token)
            spec.hello()
            assert south.state is not None and south.state["rematch"] is None
            assert _error(south, {"type": "rematch", "vote": True}) == "conflict"  # not over
            _play_out(south, north)
            state = south.state
            assert state is not None
            check(state, wire.StateJson)
            assert state["rematch"] == {"votes": [None, True, None, True], "table": None}
            assert _error(spec, {"type": "rematch", "vote": True}) == "unauthorized"
            south.send({"type": "rematch", "vote": True})
            voted = south.until(lambda f: f["type"] == "update" and f["events"])
            assert [e["kind"] for e in voted["events"]] == ["rematch_vote"]
            assert voted["state"]["rematch"]["votes"] == [True, True, None, True]
            seq = south.seq
            south.send({"type": "rematch", "vote": True})  # the same word again: stored once
            south.sync()
            assert south.seq == seq
            north.send({"type": "rematch", "vote": False})
            north.until(lambda f: f["type"] == "update" and f["events"])
            north.send({"type": "rematch", "vote": True})
            made = spec.until(
                lambda f: f["type"] == "update" and any(e["kind"] == "rematch" for e in f["events"])
            )
            new = made["state"]["rematch"]["table"]
            assert isinstance(new, str) and new != table
            assert next(e for e in made["events"] if e["kind"] == "rematch")["table"] == new
            assert _error(north, {"type": "rematch", "vote": False}) == "conflict"
        old = client.get(f"/api/tables/{table}").json()
        again = client.get(f"/api/tables/{new}").json()
        assert again["status"] == "playing" and again["rules"] == old["rules"]
        assert again["options"] == old["options"]
        assert [(s["name"], s["kind"], s["bot"]) for s in again["seats"]] == [
            (s["name"], s["kind"], s["bot"]) for s in old["seats"]
        ]
        # each player's token holds the same seat at the rematch
        with connect(client, new, "south") as south, connect(client, new, "north") as north:
            assert south.hello(south_token)["seat"] == "south"
            assert north.hello(north_token)["seat"] == "north"
            assert south.match["deal_number"] == 1


def test_the_rematch_waits_for_every_player(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        table, south_token, north_token = _table(client)
        with connect(client, table, "south") as south, connect(client, table, "north") as north:
            south.hello(south_token)
            north.hello(north_token)
            _play_out(south, north)
            south.send({"type": "rematch", "vote": True})
            south.until(lambda f: f["type"] == "update" and f["events"])
            north.sync()
            assert north.state is not None and north.state["rematch"]["table"] is None


def test_votes_are_limited_per_seat(tmp_path: Path) -> None:
    with server(tmp_path, chat_burst=2, chat_per_minute=1) as client:
        table, south_token, north_token = _table(client)
        with connect(client, table, "south") as south, connect(client, table, "north") as north:
            south.hello(south_token)
            north.hello(north_token)
            _play_out(south, north)
            for vote in (True, False):
                south.send({"type": "rematch", "vote": vote})
                south.until(lambda f: f["type"] == "update" and f["events"])
            assert _error(south, {"type": "rematch", "vote": True}) == "rate_limited"
