"""Hosted events on the server (issue 24, item 4): king of the table, a match of 13 sets, a knock-out.

Each runs to its end with bot pairs on an in-process server, every set at a
table of its own (the hub's, as any table), watched over ``/ws/events/{id}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from events_support import make_event, standing_order, watch
from tarneeb.server import wire
from tarneeb.server.wiretypes import check
from ws_support import Settings, TestClient, connect, create_app, server


def _check(event: dict[str, Any]) -> None:
    check(event, wire.HostedEventJson)


def test_king_of_the_table_of_six_bot_pairs_runs_to_its_end(tmp_path: Path) -> None:
    """Seed 002: «In een toernooi wordt aan het eind van een set het verliezende team
    vervangen voor de volgende set.» The loser of each set goes to the back of the
    queue, the pair at its front takes the loser's seats, the winner keeps its own."""
    with server(tmp_path) as client:
        event_id, host = make_event(client, kind="king-of-the-table", pairs=6, sets=10)
        started = client.post(f"/api/events/{event_id}/start", json={"token": host, "fill": True})
        assert started.status_code == 200, started.json()
        seen = watch(client, event_id)
        final = seen[-1]
        for event in seen:
            _check(event)
        assert len(final["pairs"]) == 6 and all(
            m["bot"] == "random" for p in final["pairs"] for m in p["members"]
        )
        games = final["games"]
        assert [g["number"] for g in games] == list(range(1, 11))
        assert all(g["status"] == "finished" and g["table"] for g in games)
        assert len({g["table"] for g in games}) == 10  # a table a set
        # the rotation, followed by hand from the first seats and the queue
        ns, ew = "p1", "p2"
        queue = ["p3", "p4", "p5", "p6"]
        for game in games:
            assert (game["ns"], game["ew"]) == (ns, ew), game
            if game is games[-1]:
                break  # the last set moves nobody
            loser = ew if game["winner"] == ns else ns
            queue.append(loser)
            incoming = queue.pop(0)
            if loser == ns:
                ns = incoming
            else:
                ew = incoming
        assert final["queue"] == queue
        # standings: sets won, then sets lost, then points, then the queue's order
        won = {p["id"]: 0 for p in final["pairs"]}
        lost = dict(won)
        points = dict(won)
        for game in games:
            loser = game["ew"] if game["winner"] == game["ns"] else game["ns"]
            won[game["winner"]] += 1
            lost[loser] += 1
            points[game["ns"]] += game["scores"][0]
            points[game["ew"]] += game["scores"][1]
        expected = sorted(won, key=lambda p: (-won[p], lost[p], -points[p], int(p[1:])))
        assert standing_order(final) == expected
        for line in final["standings"]:
            pair = line["pair"]
            assert (line["won"], line["lost"], line["points_for"]) == (
                won[pair],
                lost[pair],
                points[pair],
            )
        assert final["winner"] == expected[0]
        # the standings were pushed as the sets ended, not only at the end
        played = [sum(line["played"] for line in e["standings"]) for e in seen]
        assert played == sorted(played) and len(set(played)) > 2
        # each set's table is a table of the server, finished, with the pairs' bots in it
        table = client.get(f"/api/tables/{games[0]['table']}").json()
        assert table["status"] == "finished" and table["options"]["target"] == 1


def test_the_last_set_moves_nobody_and_the_queue_is_told(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        event_id, host = make_event(client, kind="king-of-the-table", pairs=3, sets=2)
        for name in ("Cedars", "Olives", "Pines"):
            made = client.post(
                f"/api/events/{event_id}/pairs", json={"bots": True, "token": host}
            ).json()
            assert made["tokens"] == [None, None], name
        begun = client.post(f"/api/events/{event_id}/start", json={"token": host}).json()
        assert begun["queue"] == ["p3"] and begun["status"] == "running"
        (first,) = begun["games"]
        assert (first["ns"], first["ew"], first["status"]) == ("p1", "p2", "playing")
        final = watch(client, event_id)[-1]
        one, two = final["games"]
        loser = one["ew"] if one["winner"] == one["ns"] else one["ns"]
        assert loser not in (two["ns"], two["ew"]) and "p3" in (two["ns"], two["ew"])
        assert final["queue"] == [loser]


def test_a_match_of_13_sets_is_played_to_the_last_and_most_points_win(tmp_path: Path) -> None:
    """Seed 002: «Het team met de meeste punten uit 13 sets wint de wedstrijd.»"""
    with server(tmp_path) as client:
        event_id, host = make_event(client, kind="sets-match")
        assert client.get(f"/api/events/{event_id}").json()["sets"] == 13
        final_start = client.post(
            f"/api/events/{event_id}/start", json={"token": host, "fill": True}
        ).json()
        assert final_start["capacity"] == 2 and len(final_start["pairs"]) == 2
        final = watch(client, event_id)[-1]
        _check(final)
        games = final["games"]
        assert len(games) == 13
        assert {(g["ns"], g["ew"]) for g in games} == {("p1", "p2")}  # nobody is replaced
        totals = {
            "p1": sum(g["scores"][0] for g in games),
            "p2": sum(g["scores"][1] for g in games),
        }
        wins = {p: sum(1 for g in games if g["winner"] == p) for p in totals}
        lines = {line["pair"]: line for line in final["standings"]}
        assert {p: lines[p]["points_for"] for p in totals} == totals
        assert {p: lines[p]["won"] for p in totals} == wins
        ahead = max(totals, key=lambda p: (totals[p], wins[p]))
        if (totals["p1"], wins["p1"]) != (totals["p2"], wins["p2"]):
            assert final["winner"] == ahead
        else:
            assert final["winner"] is None


def test_an_eight_pair_knockout_plays_seven_ties_to_a_winner(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        event_id, host = make_event(client, kind="knockout", pairs=8)
        begun = client.post(f"/api/events/{event_id}/start", json={"token": host, "fill": True})
        bracket = begun.json()
        assert bracket["rounds"] == 3
        first = [(g["ns"], g["ew"]) for g in bracket["games"] if g["round"] == 1]
        assert first == [("p1", "p8"), ("p4", "p5"), ("p2", "p7"), ("p3", "p6")]
        assert all(g["status"] == "playing" for g in bracket["games"] if g["round"] == 1)
        final = watch(client, event_id)[-1]
        _check(final)
        games = final["games"]
        assert [g["round"] for g in games] == [1, 1, 1, 1, 2, 2, 3]
        assert all(g["status"] == "finished" for g in games)
        # each later tie is the winners of the two before it
        for later, (a, b) in zip(games[4:], [(0, 1), (2, 3), (4, 5)], strict=True):
            assert (later["ns"], later["ew"]) == (games[a]["winner"], games[b]["winner"])
        champion = games[-1]["winner"]
        assert final["winner"] == champion == final["standings"][0]["pair"]
        runner_up = games[-1]["ns"] if champion == games[-1]["ew"] else games[-1]["ew"]
        assert final["standings"][1]["pair"] == runner_up
        assert {line["pair"] for line in final["standings"][4:]} == {
            g["ns"] if g["winner"] == g["ew"] else g["ew"] for g in games[:4]
        }


def test_a_six_pair_knockout_gives_the_best_seeds_byes(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        event_id, host = make_event(client, kind="knockout", pairs=6)
        bracket = client.post(
            f"/api/events/{event_id}/start", json={"token": host, "fill": True}
        ).json()
        byes = [g for g in bracket["games"] if g["number"] == 0]
        assert [(g["ns"], g["winner"], g["table"]) for g in byes] == [
            ("p1", "p1", None),
            ("p2", "p2", None),
        ]
        final = watch(client, event_id)[-1]
        assert len([g for g in final["games"] if g["table"]]) == 5


def test_a_player_with_a_bot_partner_holds_the_seat_with_the_event_token(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        event_id, host = make_event(client, kind="sets-match", sets=1, turn_seconds=600)
        mine = client.post(
            f"/api/events/{event_id}/pairs",
            json={"name": "Cedars", "players": [{"name": "Layla"}, {"bot": True}]},
        )
        assert mine.status_code == 201
        body = mine.json()
        assert body["pair"] == "p1" and body["tokens"][1] is None
        token = body["tokens"][0]
        pair = body["event"]["pairs"][0]
        assert pair["members"] == [{"name": "Layla", "bot": None}, {"name": "Bot", "bot": "random"}]
        begun = client.post(
            f"/api/events/{event_id}/start", json={"token": host, "fill": True}
        ).json()
        table = begun["games"][0]["table"]
        seats = client.get(f"/api/tables/{table}").json()["seats"]
        assert [(s["name"], s["kind"]) for s in seats] == [
            ("Layla", "human"),
            ("Bot (random)", "bot"),
            ("Bot (random)", "bot"),
            ("Bot (random)", "bot"),
        ]
        with connect(client, table, "layla") as layla:
            assert layla.hello(token)["seat"] == "south"
        with connect(client, table, "thief") as thief:
            thief.send({"type": "hello", "protocol": 3, "token": host})
            assert thief.next()["code"] == "unauthorized"  # the host's token holds no seat


def test_two_players_register_a_pair_each_with_a_token(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        event_id, _host = make_event(client, kind="king-of-the-table", pairs=2)
        made = client.post(
            f"/api/events/{event_id}/pairs",
            json={"name": "Cedars", "players": [{"name": "Layla"}, {"name": "Nour"}]},
        ).json()
        check(made, wire.EventRegisteredBody)
        first, second = made["tokens"]
        assert first and second and first != second
        listed = client.get("/api/events").json()["events"]
        assert [(e["id"], e["registered"], e["status"]) for e in listed] == [
            (event_id, 1, "registering")
        ]
        lobby = client.get("/api/events").json()
        check(lobby, wire.EventsBody)
        assert "classic" in lobby["presets"] and "syrian400" not in lobby["presets"]  # played alone


def _error(answer: Any) -> tuple[int, str]:
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "reference"}
    assert "Traceback" not in body["error"]["message"]
    return answer.status_code, body["error"]["code"]


def test_bad_input_is_told_in_the_api_error_shape(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        assert _error(client.get("/api/events/nope")) == (404, "not_found")
        assert _error(client.post("/api/events/nope/pairs", json={})) == (404, "not_found")
        assert _error(client.post("/api/events", json={"kind": "league"})) == (400, "malformed")
        for bad in (
            {"kind": "knockout", "sets": 3},
            {"kind": "sets-match", "pairs": 4},
            {"kind": "knockout", "pairs": 1},
            {"kind": "knockout", "pairs": 99},
            {"kind": "knockout", "rules": "bridge"},
            {"kind": "knockout", "rules": "syrian400"},
            {"kind": "knockout", "target": 0},
            {"kind": "knockout", "bot": "nobody"},
            {"kind": "knockout", "colour": "red"},
            {"kind": "knockout", "rated": "yes"},
        ):
            assert _error(client.post("/api/events", json=bad)) == (400, "malformed"), bad
        as_json = {"Content-Type": "application/json"}
        assert _error(client.post("/api/events", content=b"[1]", headers=as_json)) == (
            400,
            "malformed",
        )
        event_id, host = make_event(client, kind="knockout", pairs=2)
        pairs = f"/api/events/{event_id}/pairs"
        start = f"/api/events/{event_id}/start"
        assert _error(client.post(start, json={"token": host})) == (409, "conflict")  # no pairs
        assert _error(client.post(pairs, json={"bots": True, "token": "x"})) == (
            403,
            "unauthorized",
        )
        bots_by_anyone = {"players": [{"bot": True}, {"bot": True}]}
        assert _error(client.post(pairs, json=bots_by_anyone)) == (400, "malformed")
        assert _error(client.post(pairs, json={"players": [{"name": "A"}]})) == (400, "malformed")
        assert _error(client.post(pairs, json={"players": [{"name": " "}, {"bot": True}]})) == (
            400,
            "malformed",
        )
        one = {"name": "Cedars", "players": [{"name": "A"}, {"bot": True}]}
        assert client.post(pairs, json=one).status_code == 201
        assert _error(client.post(pairs, json={**one, "name": "cedars"})) == (409, "conflict")
        assert client.post(pairs, json={"bots": True, "token": host}).status_code == 201
        assert _error(client.post(pairs, json={"bots": True, "token": host})) == (409, "conflict")
        assert _error(client.post(start, json={"token": "not the host"})) == (403, "unauthorized")
        assert _error(client.post(start, json={"token": host, "fill": "yes"})) == (
            400,
            "malformed",
        )
        assert client.post(start, json={"token": host}).status_code == 200
        assert _error(client.post(start, json={"token": host})) == (409, "conflict")
        assert _error(client.post(pairs, json={**one, "name": "Late"})) == (409, "conflict")
        with connect(client, "events/nope", "lost") as lost:
            assert lost.next()["code"] == "not_found"


def test_event_sockets_are_limited_per_client(tmp_path: Path) -> None:
    with server(tmp_path, connections_per_client=2) as client:
        event_id, _host = make_event(client, kind="knockout", pairs=2)
        with (
            connect(client, f"events/{event_id}", "one") as one,
            connect(client, f"events/{event_id}", "two") as two,
        ):
            assert one.next()["type"] == two.next()["type"] == "event"
            with connect(client, f"events/{event_id}", "three") as three:
                assert three.next()["code"] == "rate_limited"
        with connect(client, f"events/{event_id}", "again") as again:  # the two closed
            assert again.next()["type"] == "event"


def test_a_clients_table_and_event_sockets_share_one_limit(tmp_path: Path) -> None:
    """``--connections-per-client`` counts a client's sockets, tables' and events' alike
    (each kept a count of its own, so a client could hold twice the limit)."""
    with server(tmp_path, connections_per_client=2) as client:
        event_id, _host = make_event(client, kind="knockout", pairs=2)
        made = client.post("/api/tables", json={"name": "Layla"})
        assert made.status_code == 201, made.text
        with connect(client, made.json()["table"], "table") as table:
            assert table.hello()["type"] == "welcome"
            with connect(client, f"events/{event_id}", "one") as one:
                assert one.next()["type"] == "event"
                with connect(client, f"events/{event_id}", "two") as two:
                    assert two.next()["code"] == "rate_limited"


def test_a_result_the_database_refuses_is_stored_once_it_takes_it(tmp_path: Path) -> None:
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'server.db'}",
        bot_delay=0,
        rate_per_s=1e6,
        rate_burst=1e6,
        commit_retry_first=0.01,
        commit_retry_max=0.05,
    )
    app = create_app(settings)
    with TestClient(app) as client:
        records = app.state.events.records
        store = records.append
        refused: list[int] = []

        def flaky(event_id: str, facts: Any, status: Any) -> None:
            if any(f.kind == "result" for f in facts) and len(refused) < 2:
                refused.append(facts[0].seq)
                raise OSError("the disk is full")
            store(event_id, facts, status)

        records.append = flaky
        event_id, host = make_event(client, kind="sets-match", sets=3)
        client.post(f"/api/events/{event_id}/start", json={"token": host, "fill": True})
        final = watch(client, event_id)[-1]
        assert len(refused) == 2
    assert [g["number"] for g in final["games"]] == [1, 2, 3]
    assert all(g["status"] == "finished" for g in final["games"])
    with TestClient(create_app(settings)) as client:  # and the database has it all
        assert client.get(f"/api/events/{event_id}").json() == final
