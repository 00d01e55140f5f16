"""A player's profile: their ratings, the matches they played, and the rating after each.

A match is read from what the server serves of its table (the stored result
of a finished table, :meth:`Hub.result`), so a profile shows what the table's
own pages show: each match links to the table's record download and replay.
For the player's seat it tells the contracts they bid and made, and the
points their side (or they, where every player scores alone) took each deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tarneeb.server.players import ratings
from tarneeb.server.players.accounts import Player
from tarneeb.server.table import ErrorCode, ServerError, parse_seat_name

if TYPE_CHECKING:
    from tarneeb.server.players.service import Players

__all__ = ["MATCHES_SHOWN", "match_summary", "profile"]

MATCHES_SHOWN = 30
"""The latest matches a profile lists."""


def match_summary(table_id: str, seat_text: str, result: Mapping[str, Any]) -> dict[str, Any]:
    """One finished match from the player's seat (``result``: a table's stored result)."""
    seat = parse_seat_name(seat_text)
    side = int(seat) % 2
    table = result["table"]
    record = result.get("record") or {}
    outcome = record.get("result") or {}
    deals = []
    bid = made = 0
    for number in sorted(result.get("deals", {}), key=int):
        deal = result["deals"][number]
        contract = deal.get("contract")
        scored = deal.get("result") or {}
        points: int | None = None
        if "points" in scored:
            by_seat = scored.get("seat_points")
            points = int(by_seat[seat] if by_seat else scored["points"][side])
        mine = contract is not None and contract.get("seat") == seat_text
        if mine:
            bid += 1
            made += 1 if scored.get("made") else 0
        deals.append(
            {
                "number": int(number),
                "contract": contract,
                "declarer": mine,
                "made": scored.get("made"),
                "points": points,
            }
        )
    winner = outcome.get("winner")
    names = [s.get("name") for s in table.get("seats", [])]
    partner = names[(int(seat) + 2) % 4] if len(names) == 4 else None
    return {
        "table": table_id,
        "status": "finished",
        "rules": table.get("rules"),
        "created": table.get("created"),
        "seat": seat_text,
        "partner": partner,
        "players": names,
        "won": None if winner is None else winner == ("NS" if side == 0 else "EW"),
        "scores": table.get("scores"),
        "contracts": {"bid": bid, "made": made},
        "deals": deals,
        "record": f"/api/tables/{table_id}/record",
        "replay": f"/t/{table_id}#replay",
    }


async def profile(players: Players, name: str) -> dict[str, Any]:
    """The profile of the player called ``name`` (any spelling of it).

    :raises ServerError: ``not_found`` for no such player.
    """
    found = await players.accounts.find(name)
    if found is None:
        raise ServerError(ErrorCode.NOT_FOUND, "no player of that name")
    return await profile_of(players, found)


async def profile_of(players: Players, player: Player) -> dict[str, Any]:
    store = players.store
    engine = store.engine
    rated = await store.run(ratings.rating_of, engine, player.id)
    points = await store.run(ratings.history, engine, player.id)
    seats = await store.run(players.accounts.seats_of_player, player.id, MATCHES_SHOWN)
    states = await store.run(players.rated_state, [table for table, _seat, _at in seats])
    matches = []
    for table_id, seat_text, claimed in seats:
        try:
            result = await players.hub.result(table_id)
            if result is None:
                live = await players.hub.table_json(table_id)
                entry: dict[str, Any] = {
                    "table": table_id,
                    "status": str(live["status"]),
                    "rules": live["rules"],
                    "created": live["created"],
                    "seat": seat_text,
                    "replay": f"/t/{table_id}",
                }
            else:
                entry = match_summary(table_id, seat_text, result)
        except ServerError:  # a table that expired unplayed
            continue
        entry["rated"] = states.get(table_id)
        entry["claimed"] = claimed
        matches.append(entry)
    totals = [m["contracts"] for m in matches if "contracts" in m]
    return {
        "name": player.name,
        "ratings": {family.value: r.to_json() for family, r in rated.items()},
        "rating_history": points,
        "matches": matches,
        "contracts": {
            "bid": sum(c["bid"] for c in totals),
            "made": sum(c["made"] for c in totals),
        },
    }
