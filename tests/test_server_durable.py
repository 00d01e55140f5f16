"""``tarneeb serve`` keeps every table going: ids a player picks, failed commits, a busy loop.

* a player's action ids live apart from the server's own (a bot's, the turn
  timer's): no id a player sends can make the server's action a duplicate;
* a commit that fails for a bot or the turn timer is logged, retried with
  backoff, and the table goes on by itself once the database is back, while
  :meth:`Hub.health` says the server is degraded; a player's action that
  cannot be committed gets an error, never an ack, and nothing acked is lost
  (on SQLite: a locked file, a read-only file, a full database; on PostgreSQL:
  a killed backend);
* nothing slow runs on the event loop: a slow commit of one table does not
  hold up the others.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ws_support  # noqa: F401 - skips without the server's dependencies
from tarneeb.actions import format_action
from tarneeb.seats import Seat
from tarneeb.server.table import ErrorCode, ServerError, Table, TableConfig
from ws_support import SEAT_NAMES, Peer, connect, server

# -- action ids: the player's and the server's never meet -------------------------------------


def _all_human(client: Any, **config: Any) -> tuple[str, dict[str, str]]:
    body = {"seats": dict.fromkeys(SEAT_NAMES, "human"), "takeover_seconds": 3600, **config}
    created = client.post("/api/tables", json={**body, "name": "Player south"})
    assert created.status_code == 201, created.text
    table = created.json()["table"]
    tokens = {"south": created.json()["token"]}
    for name in SEAT_NAMES[1:]:
        joined = client.post(f"/api/tables/{table}/join", json={"name": name, "seat": name})
        assert joined.status_code == 200, joined.text
        tokens[name] = joined.json()["token"]
    return table, tokens


def _bids(match: dict[str, Any]) -> list[str]:
    return [a for a in match["legal"] if a not in ("pass", "double", "redeal")]


def test_a_player_cannot_take_the_turn_timers_action_id(tmp_path: Path) -> None:
    """The timer names its action ``timer-V``; a player who used that id before does not stop it.

    The first to speak bids naming its action as the timer will name its next
    turn (``timer-`` and the version four actions on), the next outbids it,
    the other two pass: the first speaker is to act again, says nothing, and
    its turn timer acts for it.
    """
    with server(tmp_path) as client:
        table, tokens = _all_human(client, turn_seconds=0.5)
        peers: dict[str, Peer] = {}
        with (
            connect(client, table, "south") as south,
            connect(client, table, "east") as east,
            connect(client, table, "north") as north,
            connect(client, table, "west") as west,
        ):
            for name, peer in zip(SEAT_NAMES, (south, east, north, west), strict=True):
                peer.hello(tokens[name])
                peers[name] = peer
            for peer in peers.values():
                peer.sync()
            start = south.version
            first = south.match["to_act"]
            order = [SEAT_NAMES[(SEAT_NAMES.index(first) + i) % 4] for i in range(4)]
            trap = f"timer-{start + 4}"
            for step, name in enumerate(order):
                peer = peers[name]
                peer.until_version(start + step)
                action = _bids(peer.match)[0] if step < 2 else "pass"
                ref = trap if step == 0 else f"{name}-{step}"
                peer.act(action, start + step, ref)
                peer.until(lambda f, ref=ref: f["type"] == "ack" and f["id"] == ref)
            # The first speaker is to act again and waits: its timer acts, as the timer.
            mover = peers[first]
            mover.until_version(start + 4)
            assert mover.match["to_act"] == first
            update = mover.until(lambda f: f["type"] == "update" and f["version"] == start + 5)
            action = [e for e in update["events"] if e["kind"] == "action"]
            assert [(e["seat"], e["by"]) for e in action] == [(first, "timer")]
            # The player's own id is still its own: sent again, it is a duplicate of its bid.
            mover.act("pass", mover.version, trap)
            error = mover.until(lambda f: f["type"] == "error")
            assert (error["code"], error["id"], error["version"]) == ("duplicate", trap, start + 1)


def _lowest_bid(table: Table, seat: Seat) -> str:
    assert table.match is not None
    legal = [format_action(a) for a in table.match.view(seat).legal_actions]
    return next(a for a in legal if a not in ("pass", "double", "redeal"))


@pytest.mark.parametrize("by", ["bot", "timer"])
def test_server_made_actions_are_not_looked_up_among_the_players_ids(by: str) -> None:
    """At the table itself: a player's action named ``bot-V``, then the bot's own at ``V``."""
    table = Table.new("ids1", TableConfig())
    for seat in Seat:
        table.join(seat.name.title(), seat)
    start = table.version
    first = table.to_act()
    assert first is not None
    trap = f"{by}-{start + 4}"
    table.act(first, start, _lowest_bid(table, first), trap)
    table.act(first.next, start + 1, _lowest_bid(table, first.next), "e1")
    table.act(first.next.next, start + 2, "pass", "n1")
    table.act(first.next.next.next, start + 3, "pass", "w1")
    assert table.to_act() == first
    assert table.act(first, start + 4, "pass", trap, by) == start + 5
    # The player's id is still its own; restored, the table knows the same ids.
    with pytest.raises(ServerError) as refused:
        table.act(first, table.version, "pass", trap)
    assert refused.value.code is ErrorCode.DUPLICATE
    assert refused.value.extra == {"version": start + 1}
    restored = Table.restore(table.id, table.config, table.created, table.events)
    assert (
        restored.acted
        == table.acted
        == {
            (first, trap): start + 1,
            (first.next, "e1"): start + 2,
            (first.next.next, "n1"): start + 3,
            (first.next.next.next, "w1"): start + 4,
        }
    )
