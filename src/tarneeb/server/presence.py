"""Who is at a table now, as its owner publishes it for the other workers (``tarneeb_presence``).

Presence is what a table's frames show besides its log: the seats connected,
the away countdowns (when a bot takes each absent player's seat), the turn
deadline, and the quick reactions said lately. Only the owner knows it; it
writes it as one JSON row a table (:meth:`.cluster.Cluster.publish_presence`),
and the other workers read it into their copies of the table, whose
spectators then get the same ``update`` and ``reaction`` frames as the
owner's (:mod:`.hub`). The row is no frame and never reaches a client.

>>> from tarneeb.seats import Seat
>>> said = [Said(Seat.EAST, "clap", 100.0, seq=7), Said(Seat.NORTH, "oops", 101.0)]
>>> text = presence_json(
...     presence_body({Seat.SOUTH, Seat.EAST}, {Seat.WEST: 1700000000.5}, None, 12), said, 9
... )
>>> text
'{"connected":["south","east"],"away":{"west":1700000000.5},"turn_deadline":null,"version":12,"reactions":[[7,"east","clap"],[9,"north","oops"]]}'
>>> remote = read_presence(text)
>>> sorted(remote.connected), remote.away, remote.turn, remote.reactions
([Seat.SOUTH, Seat.EAST], {Seat.WEST: 1700000000.5}, (12, None), [(7, Seat.EAST, 'clap'), (9, Seat.NORTH, 'oops')])
>>> read_presence('{"connected": 5}') is None
True
"""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tarneeb.seats import SEATS, Seat
from tarneeb.server.wire import REACTIONS, seat_name

__all__ = ["REACTIONS_KEPT", "Remote", "Said", "presence_body", "presence_json", "read_presence"]

_log = logging.getLogger(__name__)

REACTIONS_KEPT = 10.0
"""Seconds a reaction stays in a table's presence row (a worker that read the row late
still tells it; one that reads it later does not)."""
_MOST_REACTIONS = 16
"""Reactions in one row at most (the newest)."""


@dataclass(eq=False)
class Said:
    """A reaction said at a table this worker plays: by whom, what, when (Unix time), and
    the ``seq`` of the presence row that first carried it (``None``: not written yet)."""

    seat: Seat
    reaction: str
    at: float
    seq: int | None = None


@dataclass(frozen=True)
class Remote:
    """A presence row as read: the seats connected, each away seat's deadline, the turn
    deadline with the version it is of, and the reactions with the row ``seq`` of each."""

    connected: frozenset[Seat]
    away: dict[Seat, float]
    turn: tuple[int, float | None]
    reactions: list[tuple[int, Seat, str]]


NOBODY = Remote(frozenset(), {}, (-1, None), [])
"""The presence of a table whose row is gone: nobody is known to be there."""


def presence_body(
    connected: Collection[Seat],
    away: Mapping[Seat, float],
    turn_deadline: float | None,
    version: int,
) -> dict[str, Any]:
    """What changes a row: its seats, countdowns and turn deadline (reactions aside)."""
    return {
        "connected": [seat_name(s) for s in SEATS if s in connected],
        "away": {seat_name(s): away[s] for s in SEATS if s in away},
        "turn_deadline": turn_deadline,
        "version": version,
    }


def presence_json(body: Mapping[str, Any], said: Sequence[Said], seq: int) -> str:
    """The row's JSON: ``body`` and the reactions (those not written yet numbered ``seq``)."""
    reactions = [
        [seq if s.seq is None else s.seq, seat_name(s.seat), s.reaction]
        for s in said[-_MOST_REACTIONS:]
    ]
    return json.dumps({**body, "reactions": reactions}, separators=(",", ":"))


def read_presence(text: str) -> Remote | None:
    """A row's JSON as a :class:`Remote`; ``None`` (and a warning) for one malformed."""
    try:
        data = json.loads(text)
        names = {seat_name(s): s for s in SEATS}
        connected = frozenset(names[n] for n in data["connected"])
        away = {names[n]: float(at) for n, at in data["away"].items()}
        deadline = data["turn_deadline"]
        turn = (int(data["version"]), None if deadline is None else float(deadline))
        reactions = [
            (int(seq), names[n], str(r)) for seq, n, r in data["reactions"] if str(r) in REACTIONS
        ]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        _log.warning("a presence row that does not read: %s", exc)
        return None
    return Remote(connected, away, turn, reactions)
