"""The wire protocol (docs/protocol.md): reading client frames, writing state and events.

Every state a seat receives is built here from that seat's :class:`View`:
its own hand, and the legal actions only on its turn. A spectator's state
holds no hand at all. Nothing here ever reads another seat's cards.

>>> frame = parse_frame('{"type": "act", "id": "a1", "version": 3, "action": "AS"}')
>>> frame
Act(ref='a1', version=3, action='AS')
>>> parse_frame('{"type": "act", "id": "a1", "version": "3", "action": "AS"}')
Traceback (most recent call last):
...
tarneeb.server.table.ServerError: act: version must be an integer
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from tarneeb._version import __version__
from tarneeb.actions import Strain, format_action
from tarneeb.deal import Contract, Deal, Trick
from tarneeb.seats import SEATS, Seat
from tarneeb.server.fairness import commitment
from tarneeb.server.metrics import count_error
from tarneeb.server.table import MAX_ACTION_ID, ErrorCode, ServerError, Table, seat_name

__all__ = [
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "Act",
    "Chat",
    "Hello",
    "Ping",
    "contract_json",
    "error_frame",
    "parse_frame",
    "result_json",
    "state_json",
    "states_json",
    "table_json",
    "trick_json",
]

PROTOCOL_VERSION = 1
MAX_FRAME = 4096
"""The largest frame a client may send, in bytes."""


@dataclass(frozen=True)
class Hello:
    token: str | None
    since: int | None


@dataclass(frozen=True)
class Act:
    ref: str
    version: int
    action: str


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Ping:
    pass


Frame = Hello | Act | Chat | Ping

_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "hello": {"protocol": (int,), "token": (str, type(None)), "since": (int, type(None))},
    "act": {"id": (str,), "version": (int,), "action": (str,)},
    "chat": {"text": (str,)},
    "ping": {},
}
_REQUIRED = {"hello": (), "act": ("id", "version", "action"), "chat": ("text",), "ping": ()}


def _malformed(message: str) -> ServerError:
    return ServerError(ErrorCode.MALFORMED, message)


def parse_frame(text: str | bytes) -> Frame:
    """Read one client frame.

    :raises ServerError: ``too_large`` over :data:`MAX_FRAME` bytes;
        ``malformed`` for anything but one of the protocol's frames, exactly.
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(raw) > MAX_FRAME:
        raise ServerError(ErrorCode.TOO_LARGE, f"a frame is at most {MAX_FRAME} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise _malformed("a frame must be one JSON object") from None
    if not isinstance(data, dict):
        raise _malformed("a frame must be one JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _malformed(f"unknown frame type {kind!r}")
    fields = _FIELDS[kind]
    for key, value in data.items():
        if key == "type":
            continue
        if key not in fields:
            raise _malformed(f"{kind}: unknown field {key!r}")
        if isinstance(value, bool) or not isinstance(value, fields[key]):
            what = "an integer" if fields[key][0] is int else "a string"
            raise _malformed(f"{kind}: {key} must be {what}")
    for key in _REQUIRED[kind]:
        if key not in data:
            raise _malformed(f"{kind}: {key} is missing")
    if kind == "hello":
        if data.get("protocol", PROTOCOL_VERSION) != PROTOCOL_VERSION:
            raise _malformed(f"this server speaks protocol {PROTOCOL_VERSION}")
        since = data.get("since")
        if since is not None and since < 0:
            raise _malformed("hello: since must be 0 or more")
        return Hello(data.get("token"), since)
    if kind == "act":
        ref = data["id"]
        if not 0 < len(ref) <= MAX_ACTION_ID:
            raise _malformed(f"act: id must be 1 to {MAX_ACTION_ID} characters")
        return Act(ref, data["version"], data["action"])
    if kind == "chat":
        return Chat(data["text"])
    return Ping()


def error_frame(error: ServerError, ref: str | None = None) -> dict[str, Any]:
    count_error(error.code.value)
    frame: dict[str, Any] = {"type": "error", "code": error.code.value, "message": error.message}
    if ref is not None:
        frame["id"] = ref
    frame.update(error.extra)
    return frame


# -- the game as JSON -------------------------------------------------------------------------


def _strain(strain: Strain | None) -> str | None:
    return None if strain is None else strain.letter


def contract_json(contract: Contract | None) -> dict[str, Any] | None:
    if contract is None:
        return None
    return {
        "seat": seat_name(contract.declarer),
        "level": contract.level,
        "strain": _strain(contract.strain),
        "multiplier": contract.multiplier,
    }


def trick_json(trick: Trick) -> dict[str, Any]:
    return {
        "leader": seat_name(trick.leader),
        "cards": [[seat_name(seat), str(card)] for seat, card in trick.plays],
        "winner": None if trick.winner is None else seat_name(trick.winner),
    }


def result_json(deal: Deal) -> dict[str, Any] | None:
    """A finished deal's outcome, or ``None`` while it is played."""
    if deal.thrown_in is not None:
        return {"thrown_in": deal.thrown_in}
    result = deal.result
    if result is None:
        return None
    return {
        "points": list(result.team_points),
        "seat_points": None if result.seat_points is None else list(result.seat_points),
        "made": result.made,
        "all_thirteen": None if result.all_thirteen is None else result.all_thirteen.name,
    }


def _seats_json(table: Table, connected: Collection[Seat]) -> list[dict[str, Any]]:
    seats = []
    for seat in SEATS:
        state = table.seats[seat]
        seats.append(
            {
                "seat": seat_name(seat),
                "name": table.name_of(seat) if state.taken else None,
                "kind": state.kind,
                "bot": state.controller,
                "taken": state.taken,
                "connected": state.kind == "bot" or seat in connected,
                "held_by_bot": state.held_by is not None,
            }
        )
    return seats


def table_json(table: Table, connected: Collection[Seat] = ()) -> dict[str, Any]:
    """The public facts of a table (``TABLE`` in the protocol)."""
    match = table.match
    return {
        "id": table.id,
        "status": table.status,
        "rules": table.config.rules_name,
        "options": table.rules.to_dict(),
        "public": table.config.public,
        "turn_seconds": table.config.turn_seconds,
        "seats": _seats_json(table, connected),
        "scores": [0, 0] if match is None else list(match.team_scores),
        "created": table.created,
    }


def state_json(table: Table, seat: Seat | None, connected: Collection[Seat] = ()) -> dict[str, Any]:
    """The table as ``seat`` may see it (``None``: a spectator)."""
    return states_json(table, (seat,), connected)[seat]


def states_json(
    table: Table, seats: Iterable[Seat | None], connected: Collection[Seat] = ()
) -> dict[Seat | None, dict[str, Any]]:
    """The state of each of ``seats`` (``None``: a spectator), as :func:`state_json` builds it.

    What every seat is shown alike is built once; each seat's own cards and
    legal actions come from that seat's :class:`View`, a spectator gets none.
    The states share their public parts: write them out, do not change them.
    """
    seats = list(dict.fromkeys(seats))
    public: dict[str, Any] = {
        "status": table.status,
        "seats": _seats_json(table, connected),
        "version": table.version,
        "turn_deadline": table.turn_deadline,
        "match": None,
    }
    match = table.match
    if match is None:
        return {seat: dict(public) for seat in seats}
    deal = match.deal
    index = len(match.deals) - 1
    common: dict[str, Any] | None = None
    states: dict[Seat | None, dict[str, Any]] = {}
    for seat in seats:
        view = deal.view(SEATS[0] if seat is None else seat)
        if common is None:
            last = view.tricks[-1] if view.tricks else None
            common = {
                "deal_number": index + 1,
                "dealer": seat_name(view.dealer),
                "phase": view.phase.value,
                "to_act": None if match.to_act is None else seat_name(match.to_act),
                "hand": [],
                "hand_sizes": list(view.hand_sizes),
                "history": [[seat_name(s), format_action(a)] for s, a in view.history],
                "bids": list(view.bids),
                "contract": contract_json(view.contract),
                "trump": None if view.trump is None else view.trump.letter,
                "trick": []
                if view.current_trick is None
                else [[seat_name(s), str(c)] for s, c in view.current_trick.plays],
                "last_trick": None if last is None else trick_json(last),
                "tricks_taken": list(view.tricks_taken),
                "legal": [],
                "scores": list(match.team_scores),
                "seat_scores": list(match.seat_scores),
                "target": table.rules.target,
                "sets": [
                    {"winner": s.winner.name, "scores": list(s.team_scores)} for s in match.sets
                ],
                "commitment": commitment(table.seeds[index]),
                "over": match.is_over(),
                "winner": None if match.winner is None else match.winner.name,
                "individual": table.rules.is_individual,
            }
        own = dict(common)
        if seat is not None:
            own["hand"] = [str(card) for card in view.hand]
            own["legal"] = [format_action(a) for a in view.legal_actions]
        states[seat] = {**public, "match": own}
    return states


def info_json(presets: dict[str, str], bots: list[str], solver: bool) -> dict[str, Any]:
    return {
        "protocol": PROTOCOL_VERSION,
        "version": __version__,
        "presets": [{"name": n, "summary": s} for n, s in presets.items()],
        "bots": bots,
        "solver": solver,
    }
