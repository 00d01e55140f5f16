"""Hints on casual tables: the bot's suggestion for your own seat, with its reason.

Issue 23: "Hints on casual tables (the bot's suggestion with its reason, as
the terminal app has), off where the host says so."
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tarneeb.bots.base import Bot, Decision
from tarneeb.bots.reasons import Reason
from tarneeb.bots.registry import BOTS
from tarneeb.seats import Seat
from tarneeb.server import wire
from tarneeb.server.protocol import reason_json
from tarneeb.server.wiretypes import check
from tarneeb.view import View
from ws_support import Peer, TestClient, connect, play_until, server

SOLO = {"east": "bot:random", "north": "bot:random", "west": "bot:random"}


class SpyBot(Bot):
    """A hint bot that notes every view it is shown and answers the first legal action."""

    name: ClassVar[str] = "spy-hint"
    views: ClassVar[list[View]] = []

    def decide(self, view: View) -> Decision:
        SpyBot.views.append(view)
        action = next(iter(view.legal_actions))
        return Decision(action, Reason.plain("the first legal action"))


def _table(client: TestClient, **body: Any) -> tuple[str, str]:
    body.setdefault("seats", SOLO)
    made = client.post("/api/tables", json={"name": "Layla", **body}).json()
    return made["table"], made["token"]


def _my_turn(peer: Peer) -> None:
    play_until(peer, random.Random(1), lambda p: p.my_turn())
    peer.sync()


def test_a_hint_is_the_bots_choice_for_your_own_view_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BOTS, "spy-hint", SpyBot)
    SpyBot.views.clear()
    with server(tmp_path, hint_bot="spy-hint") as client:
        table, token = _table(client)
        with connect(client, table, "south") as south, connect(client, table, "spec") as spec:
            south.hello(token)
            spec.hello()
            _my_turn(south)
            seq, version = south.seq, south.version
            south.send({"type": "hint"})
            answer = south.next()
            check(answer, wire.HintAnswerFrame)
            assert answer["version"] == version
            assert answer["action"] in south.match["legal"]
            assert answer["reason"] == {"key": None, "args": {}, "text": "the first legal action"}
            # the bot saw South's view, and only that
            assert [view.seat for view in SpyBot.views] == [Seat.SOUTH]
            # nothing changed and nobody else heard of it
            south.sync()
            assert (south.seq, south.version) == (seq, version)
            spec.sync()
            assert [f["type"] for _, f in spec.frames].count("hint") == 0


def test_the_heuristic_hint_sends_a_catalogue_key_and_structured_args(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        table, token = _table(client)
        with connect(client, table, "south") as south:
            south.hello(token)
            _my_turn(south)
            south.send({"type": "hint"})
            answer = south.next()
            check(answer, wire.HintAnswerFrame)
            reason = answer["reason"]
            assert reason is not None and reason["key"].startswith("reason.")
            assert reason["text"]  # and its English words, for a client without the key


def test_reason_args_travel_as_cards_suits_and_nested_reasons() -> None:
    from tarneeb.cards import Card, Suit

    inner = Reason("partner-wins", card=Card.parse("KH"))
    told = reason_json(inner)
    assert told is not None
    assert (told["key"], told["args"]) == ("reason.partner-wins", {"card": {"card": "KH"}})
    assert told["text"] == str(inner)
    assert reason_json(Reason.plain("x")) == {"key": None, "args": {}, "text": "x"}
    from tarneeb.server.protocol import _reason_arg

    assert _reason_arg(Suit.HEARTS) == {"suit": "H"}
    assert _reason_arg(inner) == told


def test_no_hint_off_turn_before_the_start_for_spectators_or_where_the_host_said_no(
    tmp_path: Path,
) -> None:
    with server(tmp_path) as client:
        waiting, token = _table(client, seats={})
        with connect(client, waiting, "south") as south:
            south.hello(token)
            south.send({"type": "hint"})
            assert south.until(lambda f: f["type"] == "error")["code"] == "not_started"
        seats = {"east": "bot:random", "north": "human", "west": "bot:random"}
        table, token = _table(client, seats=seats, public=True)
        north_token = client.post(f"/api/tables/{table}/join", json={"name": "N"}).json()["token"]
        with (
            connect(client, table, "south") as south,
            connect(client, table, "north") as north,
            connect(client, table, "spec") as spec,
        ):
            spec.hello()
            spec.send({"type": "hint"})
            assert spec.until(lambda f: f["type"] == "error")["code"] == "unauthorized"
            north.hello(north_token)
            south.hello(token)
            # North waits to act (nobody acts for North): South's hint is refused
            play_until(south, random.Random(2), lambda p: p.match["to_act"] == "north")
            south.send({"type": "hint"})
            assert south.until(lambda f: f["type"] == "error")["code"] == "not_your_turn"
        off, token = _table(client, hints=False)
        assert client.get(f"/api/tables/{off}").json()["hints"] is False
        with connect(client, off, "south") as south:
            assert south.hello(token)["table"]["hints"] is False
            _my_turn(south)
            south.send({"type": "hint"})
            error = south.until(lambda f: f["type"] == "error")
            assert error["code"] == "forbidden" and "hints" in error["message"]
        refused = client.post("/api/tables", json={"hints": "yes"})
        assert refused.status_code == 400


def test_hints_are_rate_limited_per_seat(tmp_path: Path) -> None:
    with server(tmp_path, hint_burst=2, hints_per_minute=1) as client:
        table, token = _table(client)
        with connect(client, table, "south") as south, connect(client, table, "again") as again:
            south.hello(token)
            again.hello(token)
            _my_turn(south)
            again.sync()
            south.send({"type": "hint"})
            assert south.next()["type"] == "hint"
            again.send({"type": "hint"})  # the same seat from another socket: the same limit
            assert again.until(lambda f: f["type"] in ("hint", "error"))["type"] == "hint"
            south.send({"type": "hint"})
            refused = south.until(lambda f: f["type"] == "error")
            assert refused["code"] == "rate_limited"
            # the burst is what refused it: the message said only "at most 1 hints a
            # minute", and a player refused at the third of a quick run took it for wrong
            assert "at most 2 hints at once and 1 a minute" in refused["message"]


def test_a_player_who_asks_at_every_turn_is_not_refused_by_the_default_limits() -> None:
    """A learner asked a hint at each of their turns against instant bots (a browser play
    test, in Spanish): the fifth hint, fifteen seconds in, was refused ("Slow down a
    little"; the limit was 10 a minute, 3 at once). With the default limits a hint at
    every turn, one turn every 2 seconds for ten minutes, is never refused; one every
    half second (a script, not a player) still is."""
    from tarneeb.server.limits import Buckets
    from tarneeb.server.settings import Settings

    settings = Settings()

    def refused(every: float, turns: int) -> int:
        now = [0.0]
        rate = settings.hints_per_minute / 60.0
        hints = Buckets(rate, max(1.0, settings.hint_burst), lambda: now[0])
        count = 0
        for turn in range(turns):
            now[0] = turn * every
            count += not hints.take(Seat.SOUTH)
        return count

    assert refused(every=3.0, turns=40) == 0
    assert refused(every=2.0, turns=300) == 0
    assert refused(every=0.5, turns=60) > 20
