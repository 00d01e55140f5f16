"""The ratings of rated hosted events: each set result rates its four players (issue 24).

:func:`rate_sets` is the :data:`~tarneeb.server.events.host.SetResultHook` the app
uses unless it is given another: a set of a rated event is a result of two teams
of account ids for :func:`tarneeb.server.players.ratings.record_result`, on the
ladder of the event's rules, named ``event:ID:set:N`` (so a set told again is
not rated again). A rated event seats signed-in players only; a set where a
member is not an account (a guest, a bot) is never rated.
"""

from __future__ import annotations

import logging

from tarneeb.presets import find_rules
from tarneeb.server.events.host import SetOutcome, SetResultHook
from tarneeb.server.events.model import ACCOUNT
from tarneeb.server.players.ratings import family_of, record_result
from tarneeb.server.store import Store

__all__ = ["rate_sets", "set_source"]

_log = logging.getLogger("tarneeb.server.events")


def set_source(event_id: str, number: int) -> str:
    """The name a set's result is rated under (once)."""
    return f"event:{event_id}:set:{number}"


def rate_sets(store: Store) -> SetResultHook:
    """The hook that rates each set of a rated event in ``store``'s ratings."""

    async def rate(outcome: SetOutcome) -> None:
        result = outcome.result
        teams: list[list[str]] = []
        for pair in (result.ns, result.ew):
            members = outcome.players[pair]
            if not all(m is not None and m.startswith(ACCOUNT) for m in members):
                _log.warning(
                    "set %d of event %s is not rated: a member is not signed in",
                    result.number,
                    outcome.event,
                )
                return
            teams.append([m.removeprefix(ACCOUNT) for m in members if m is not None])
        family = family_of(find_rules(outcome.rules))
        winner = 0 if result.winner == result.ns else 1
        await record_result(
            store,
            family,
            teams,
            winner,
            set_source(outcome.event, result.number),
            {"event": outcome.event, "table": outcome.table, "scores": list(result.scores)},
        )

    return rate
