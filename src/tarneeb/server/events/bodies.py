"""The JSON of hosted events, as the API and the event WebSocket send it (:mod:`tarneeb.server.wire.events`)."""

from __future__ import annotations

from typing import cast

from tarneeb.competitions import Knockout
from tarneeb.server.events.model import HostedEvent
from tarneeb.server.wire import (
    EventFrame,
    EventPairJson,
    EventSetJson,
    EventStandingJson,
    EventSummaryJson,
    HostedEventJson,
    SetStatus,
)
from tarneeb.tournament import KingOfTheTable, Pairing, SetPlayed

__all__ = ["event_frame", "event_json", "summary_json"]


def _set(
    event: HostedEvent, number: int, ns: str | None, ew: str | None, rnd: int | None
) -> EventSetJson:
    tournament = event.tournament
    played: SetPlayed | None = None
    if tournament is not None and number:
        played = next((s for s in tournament.played if s.number == number), None)
    table = event.tables.get(number) if number else None
    status: SetStatus = "finished" if played is not None else "playing" if table else "waiting"
    return {
        "number": number,
        "round": rnd,
        "ns": ns,
        "ew": ew,
        "table": table,
        "status": status,
        "winner": None if played is None else played.winner,
        "scores": None if played is None else list(played.scores),
    }


def _games(event: HostedEvent) -> list[EventSetJson]:
    tournament = event.tournament
    if tournament is None:
        return []
    if isinstance(tournament, Knockout):
        out = []
        for tie in tournament.ties():
            game = _set(event, tie.number, tie.ns, tie.ew, tie.round)
            if tie.bye:
                game["winner"] = tie.winner
                game["status"] = "finished"
            out.append(game)
        return out
    games: list[Pairing | SetPlayed] = [*tournament.played, *tournament.pending()]
    return [_set(event, g.number, g.ns, g.ew, None) for g in games]


def event_json(event: HostedEvent) -> HostedEventJson:
    """Everything public of ``event``: set-up, pairs, standings, sets and their tables."""
    config = event.config
    tournament = event.tournament
    pairs: list[EventPairJson] = [
        {
            "id": pair.id,
            "name": pair.name,
            "members": [{"name": m.name, "bot": m.bot} for m in pair.members],
            "seed": pair.seed,
        }
        for pair in event.pairs.values()
    ]
    standings: list[EventStandingJson] = (
        []
        if tournament is None
        else [cast(EventStandingJson, line.to_dict()) for line in tournament.standings()]
    )
    return {
        "id": event.id,
        "title": config.title,
        "kind": config.kind,
        "status": event.status,
        "rules": config.rules,
        "target": config.set_target,
        "sets": config.sets,
        "streak": config.streak,
        "capacity": config.capacity,
        "rated": config.rated,
        "created": event.created,
        "pairs": pairs,
        "standings": standings,
        "games": _games(event),
        "queue": list(tournament.queue) if isinstance(tournament, KingOfTheTable) else [],
        "rounds": tournament.rounds if isinstance(tournament, Knockout) else None,
        "winner": None if tournament is None else tournament.winner,
    }


def summary_json(event: HostedEvent) -> EventSummaryJson:
    config = event.config
    return {
        "id": event.id,
        "title": config.title,
        "kind": config.kind,
        "status": event.status,
        "rules": config.rules,
        "registered": len(event.pairs),
        "capacity": config.capacity,
        "rated": config.rated,
        "created": event.created,
        "winner": None if event.tournament is None else event.tournament.winner,
    }


def event_frame(event: HostedEvent) -> EventFrame:
    return {"type": "event", "event": event_json(event)}
