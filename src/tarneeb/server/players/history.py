"""A player's profile: their ratings, the matches they played, and the rating after each.

A match is read from what the server serves of its table (the stored result
of a finished table, :meth:`Hub.result`), so a profile shows what the table's
own pages show: each match links to the table's record download and replay.
For the player's seat it tells the contracts they bid and made, and the
points their side (or they, where every player scores alone) took each deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from tarneeb.server.players import ratings
from tarneeb.server.players.accounts import Player
from tarneeb.server.table import ErrorCode, ServerError, parse_seat_name, seat_name
from tarneeb.server.wire import (
    ContractsJson,
    MatchDealJson,
    PlayerMatchJson,
    ProfileBody,
    RatedState,
    TableStatus,
)

if TYPE_CHECKING:
    from tarneeb.server.players.service import Players

__all__ = ["MATCHES_SHOWN", "match_summary", "profile"]

MATCHES_SHOWN = 30
"""The latest matches a profile lists."""


def match_summary(
    table_id: str, seat_text: str, result: Mapping[str, Any], rated: str | None, claimed: str
) -> PlayerMatchJson:
    """One finished match from the player's seat (``result``: a table's stored result;
    ``rated``: the rated table's state, or ``None``; ``claimed``: when the seat became the
    player's)."""
    seat = parse_seat_name(seat_text)
    side = int(seat) % 2
    table = result["table"]
    record = result.get("record") or {}
    outcome = record.get("result") or {}
    deals: list[MatchDealJson] = []
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
            MatchDealJson(
                number=int(number),
                contract=contract,
                declarer=mine,
                made=scored.get("made"),
                points=points,
            )
        )
    winner = outcome.get("winner")
    names = [s.get("name") for s in table.get("seats", [])]
    partner = names[(int(seat) + 2) % 4] if len(names) == 4 else None
    return PlayerMatchJson(
        table=table_id,
        status=TableStatus.FINISHED,
        rules=table.get("rules"),
        created=table.get("created"),
        seat=seat_name(seat),
        replay=f"/t/{table_id}#replay",
        rated=_rated_state(rated),
        claimed=claimed,
        partner=partner,
        players=names,
        won=None if winner is None else winner == ("NS" if side == 0 else "EW"),
        scores=table.get("scores"),
        contracts=ContractsJson(bid=bid, made=made),
        deals=deals,
        record=f"/api/tables/{table_id}/record",
    )


def _rated_state(state: str | None) -> RatedState | None:
    if state not in (None, "open", "settled", "void"):
        raise ValueError(f"a rated table's state is open, settled or void, not {state!r}")
    return cast("RatedState | None", state)


async def profile(players: Players, name: str) -> ProfileBody:
    """The profile of the player called ``name`` (any spelling of it).

    :raises ServerError: ``not_found`` for no such player.
    """
    found = await players.accounts.find(name)
    if found is None:
        raise ServerError(ErrorCode.NOT_FOUND, "no player of that name")
    return await profile_of(players, found)


async def profile_of(players: Players, player: Player) -> ProfileBody:
    store = players.store
    engine = store.engine
    rated = await store.run(ratings.rating_of, engine, player.id)
    points = await store.run(ratings.history, engine, player.id)
    seats = await store.run(players.accounts.seats_of_player, player.id, MATCHES_SHOWN)
    states = await store.run(players.rated_state, [table for table, _seat, _at in seats])
    matches: list[PlayerMatchJson] = []
    for table_id, seat_text, claimed in seats:
        try:
            result = await players.hub.result(table_id)
            if result is None:
                live = await players.hub.table_json(table_id)
                entry = PlayerMatchJson(
                    table=table_id,
                    status=TableStatus(live["status"]),
                    rules=live["rules"],
                    created=live["created"],
                    seat=seat_name(parse_seat_name(seat_text)),
                    replay=f"/t/{table_id}",
                    rated=_rated_state(states.get(table_id)),
                    claimed=claimed,
                )
            else:
                entry = match_summary(table_id, seat_text, result, states.get(table_id), claimed)
        except ServerError:  # a table that expired unplayed
            continue
        matches.append(entry)
    totals = [m["contracts"] for m in matches if "contracts" in m]
    return ProfileBody(
        name=player.name,
        ratings={family.value: r.to_json() for family, r in rated.items()},
        rating_history=points,
        matches=matches,
        contracts=ContractsJson(
            bid=sum(c["bid"] for c in totals), made=sum(c["made"] for c in totals)
        ),
    )
