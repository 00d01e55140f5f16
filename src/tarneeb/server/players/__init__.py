"""Players of the server: accounts, sessions, ratings, history and the ranked queue.

The API other parts of the server use:

* :func:`current_player` — which signed-in player (if any) a request or a
  WebSocket is (by its session cookie);
* :func:`tarneeb.server.players.ratings.record_result` — rate a result
  (two teams of account ids, the winner, a source named once);
* :func:`tarneeb.server.players.ratings.family_of` — the ladder of a match's rules;
* ``app.state.players`` (:class:`Players`): ``accounts.own_seats(player, [(table, seat)])``
  makes seats a player's (their profile lists those tables), and
  ``accounts.seats_of_table(table)`` (in a store thread) tells whose each seat is.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from tarneeb.server.players.accounts import Player
from tarneeb.server.players.ratings import Family, family_of, record_result
from tarneeb.server.players.routes import player_routes
from tarneeb.server.players.service import Players

__all__ = [
    "Family",
    "Player",
    "Players",
    "current_player",
    "family_of",
    "player_routes",
    "record_result",
]


async def current_player(conn: HTTPConnection) -> Player | None:
    """The signed-in player of a request or WebSocket of the app, ``None`` for a guest
    (or a session signed out)."""
    players: Players = conn.app.state.players
    return await players.player_of(conn)
