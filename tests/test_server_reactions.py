"""Quick reactions: a fixed set, told to the whole table, limited per seat, never free text.

Issue 23: "Quick reactions: a fixed set of emoji and phrases (table talk
about the hand is against the rules, so no free-form "hand signals")."
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

from tarneeb.server import wire
from tarneeb.server.wiretypes import check
from ws_support import TestClient, connect, server

SEATS = {"east": "bot:random", "north": "human", "west": "bot:random"}


def _table(client: TestClient) -> tuple[str, str, str]:
    made = client.post("/api/tables", json={"name": "Layla", "seats": SEATS, "public": True})
    table = made.json()["table"]
    north = client.post(f"/api/tables/{table}/join", json={"name": "Nour"}).json()["token"]
    return table, made.json()["token"], north


def test_the_reactions_are_one_fixed_list() -> None:
    assert get_args(wire.Reaction) == wire.REACTIONS
    assert len(set(wire.REACTIONS)) == len(wire.REACTIONS)
    assert all(r.replace("-", "").isalpha() and r.islower() for r in wire.REACTIONS)


def test_a_reaction_reaches_every_connection_and_is_not_stored(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        table, south_token, north_token = _table(client)
        info = client.get("/api/info").json()
        assert info["reactions"] == list(wire.REACTIONS)
        with (
            connect(client, table, "south") as south,
            connect(client, table, "north") as north,
            connect(client, table, "spec") as spec,
        ):
            south.hello(south_token)
            north.hello(north_token)
            spec.hello()
            south.sync()
            seq = south.seq
            south.send({"type": "react", "reaction": "well-played"})
            for peer in (south, north, spec):
                frame = peer.until(lambda f: f["type"] == "reaction")
                check(frame, wire.ReactionFrame)
                assert frame == {"type": "reaction", "seat": "south", "reaction": "well-played"}
            south.sync()
            assert south.seq == seq  # said, not played: not in the log
        with connect(client, table, "later") as later:
            assert "well-played" not in json.dumps(later.hello()["events"])


def test_spectators_free_text_and_unknown_reactions_are_refused(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        table, south_token, _north = _table(client)
        with connect(client, table, "south") as south, connect(client, table, "spec") as spec:
            spec.hello()
            south.hello(south_token)
            spec.send({"type": "react", "reaction": "clap"})
            assert spec.until(lambda f: f["type"] == "error")["code"] == "unauthorized"
            for bad in (
                {"type": "react", "reaction": "I hold the ace of spades"},
                {"type": "react", "reaction": "CLAP"},
                {"type": "react", "reaction": ""},
                {"type": "react", "reaction": 1},
                {"type": "react", "reaction": ["clap"]},
                {"type": "react"},
                {"type": "react", "reaction": "clap", "text": "psst"},
            ):
                south.send(bad)
                error = south.until(lambda f: f["type"] in ("error", "reaction"))
                assert error["type"] == "error" and error["code"] == "malformed", bad
            spec.sync()
            assert not [f for _, f in spec.frames if f["type"] == "reaction"]


def test_reactions_are_limited_per_seat_over_all_its_sockets(tmp_path: Path) -> None:
    with server(tmp_path, reaction_burst=2, reactions_per_minute=1) as client:
        table, south_token, north_token = _table(client)
        with (
            connect(client, table, "south") as south,
            connect(client, table, "south2") as south2,
            connect(client, table, "north") as north,
        ):
            south.hello(south_token)
            south2.hello(south_token)
            north.hello(north_token)
            south.send({"type": "react", "reaction": "clap"})
            south.until(lambda f: f["type"] == "reaction")
            south2.send({"type": "react", "reaction": "clap"})
            south2.until(lambda f: f["type"] == "reaction")
            south.until(lambda f: f["type"] == "reaction")
            south.send({"type": "react", "reaction": "clap"})
            assert south.until(lambda f: f["type"] == "error")["code"] == "rate_limited"
            north.send({"type": "react", "reaction": "thanks"})  # another seat: its own limit
            heard = north.until(lambda f: f["type"] == "reaction" and f["seat"] == "north")
            assert heard["reaction"] == "thanks"
            north.sync()
            from_south = [
                f for _, f in north.frames if f["type"] == "reaction" and f["seat"] == "south"
            ]
            assert len(from_south) == 2
