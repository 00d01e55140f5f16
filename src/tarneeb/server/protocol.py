"""Every body the server sends, built in one place, in the shapes of :mod:`tarneeb.server.wire`.

WebSocket frames (``welcome``, ``update``, ``ack``, ``error``, ``pong``), the
events, the table states and the JSON API's bodies all come from here.

Every state a seat receives is built from that seat's :class:`View`: its own
hand, and the legal actions only on its turn. A spectator's state holds no
hand at all. Nothing here ever reads another seat's cards.

>>> from tarneeb.server.table import Table, TableConfig
>>> table = Table.new("t1", TableConfig(seats=("human", "bot:random", "bot:random", "bot:random")))
>>> _ = table.join("Layla", Seat.SOUTH)
>>> state = state_json(table, Seat.SOUTH)
>>> str(state["status"]), len(state["match"]["hand"]), state["match"]["auction"]["calls"]
('playing', 13, [])
>>> ack_frame("a1", 3)
{'type': 'ack', 'id': 'a1', 'version': 3}
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, cast

from tarneeb._version import __version__
from tarneeb.actions import Strain
from tarneeb.bots.base import Decision
from tarneeb.cards import Card, CardSet, Suit
from tarneeb.seats import SEATS, Seat
from tarneeb.server.fairness import commitment
from tarneeb.server.metrics import count_error
from tarneeb.server.sheet import deal_end_data, sheet_rows
from tarneeb.server.states import state_json, states_json, table_json
from tarneeb.server.table import Event, Table
from tarneeb.server.wire import (
    LEVELS,
    MAX_FRAME,
    PROTOCOL_VERSION,
    REACTIONS,
    AckFrame,
    Act,
    Chat,
    CreatedBody,
    DealsBody,
    DealSummaryJson,
    ErrorBody,
    ErrorFrame,
    EventJson,
    EventKind,
    HealthBody,
    Hello,
    HintAnswerFrame,
    InfoBody,
    InnerReasonJson,
    InviteBody,
    JoinedBody,
    MySeatJson,
    MySeatsBody,
    Ping,
    PongFrame,
    Reaction,
    ReactionFrame,
    ReadyBody,
    ReasonArg,
    ReasonJson,
    ReplayBody,
    RulesBody,
    SeatLinkBody,
    ServerError,
    StateJson,
    StrainLetter,
    SuitLetter,
    TableJson,
    TablesBody,
    UpdateFrame,
    WelcomeFrame,
    action_json,
    call_json,
    contract_json,
    counts_card_points,
    level_of,
    parse_frame,
    result_json,
    seat_name,
    suit_letter,
    trick_json,
)

__all__ = [
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "Act",
    "Chat",
    "Hello",
    "Ping",
    "ack_frame",
    "analysed",
    "created_body",
    "deal_summary_json",
    "deals_body",
    "error_body",
    "error_frame",
    "event_json",
    "events_json",
    "health_body",
    "hint_frame",
    "info_body",
    "info_json",
    "invite_body",
    "invite_path",
    "joined_body",
    "my_seat_json",
    "my_seats_body",
    "new_reference",
    "parse_frame",
    "pong_frame",
    "reaction_frame",
    "ready_body",
    "reason_json",
    "replay_body",
    "rules_body",
    "seat_link_body",
    "state_json",
    "states_json",
    "summary_of",
    "table_json",
    "tables_body",
    "update_frame",
    "welcome_frame",
]


# -- frames -----------------------------------------------------------------------------------


def new_reference() -> str:
    """A fresh reference id for one error (what its log line and the client are told)."""
    return secrets.token_hex(6)


def _reference(error: ServerError) -> str:
    reference = error.extra.get("reference")
    return reference if isinstance(reference, str) and reference else new_reference()


def error_frame(error: ServerError, ref: str | None = None) -> ErrorFrame:
    """The ``error`` frame of a refusal, counted in the metrics of the app sending it.

    ``ref`` is the ``id`` of the ``act`` it answers; ``error``'s extra fields
    (``version`` of a ``duplicate``, the ``reference`` that
    :func:`.edge.public_error` gave it) go into the frame as they are, and an
    error without a reference gets a fresh one.
    """
    count_error(error.code.value)
    frame: dict[str, Any] = {"type": "error", "code": error.code, "message": error.message}
    if ref is not None:
        frame["id"] = ref
    frame.update(error.extra)
    frame["reference"] = _reference(error)
    return frame  # type: ignore[return-value]


def ack_frame(ref: str, version: int) -> AckFrame:
    return {"type": "ack", "id": ref, "version": version}


def pong_frame() -> PongFrame:
    return {"type": "pong"}


def welcome_frame(
    table: Table, seat: Seat | None, connected: Collection[Seat], since: int | None, max_replay: int
) -> WelcomeFrame:
    """The answer to ``hello``: the table, this seat's state, and the events after ``since``.

    The events are null when ``since`` is ahead of the log or more than
    ``max_replay`` events behind it: the state alone is the truth then.
    """
    since = since or 0
    replay = since <= table.seq and table.seq - since <= max_replay
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "seat": None if seat is None else seat_name(seat),
        "seq": table.seq,
        "version": table.version,
        "table": table_json(table, connected),
        "state": state_json(table, seat, connected),
        "events": events_json(table, table.events[since:]) if replay else None,
        "sheet": sheet_rows(table),
    }


def update_frame(table: Table, events: list[EventJson], state: StateJson) -> UpdateFrame:
    """The ``update`` after a change (``events``: none for a change of presence only)."""
    return {
        "type": "update",
        "seq": table.seq,
        "version": table.version,
        "events": events,
        "state": state,
    }


def event_json(table: Table, event: Event) -> EventJson:
    """An event of ``table``'s log as the wire sends it.

    An action carries its action object; a ``deal_end`` is built anew from
    the deal, so events stored by earlier versions read as today's.
    """
    body: dict[str, Any] = {"seq": event.seq, "kind": event.kind, **event.data}
    if event.kind is EventKind.ACTION and event.secret is not None:
        body["action"] = action_json(int(event.secret["id"]))
    elif event.kind in (EventKind.JOINED, EventKind.TAKEOVER):
        body["level"] = level_of(body.get("bot"))
    elif event.kind is EventKind.INVITED:
        body["reserved"] = bool(body.get("reserved"))
    elif event.kind is EventKind.DEAL_END and table.match is not None:
        index = int(event.data["number"]) - 1
        if index < len(table.match.deals):
            body.update(deal_end_data(table, index))
    return body  # type: ignore[return-value]


def events_json(table: Table, events: Sequence[Event]) -> list[EventJson]:
    return [event_json(table, e) for e in events]


# -- the JSON API's bodies -----------------------------------------------------------------------


def error_body(error: ServerError) -> ErrorBody:
    """The JSON body of an HTTP error (``error`` as :func:`.edge.public_error` tells it),
    counted in the metrics of the app serving it."""
    count_error(error.code.value, "http")
    return {"error": {"code": error.code, "message": error.message, "reference": _reference(error)}}


def health_body() -> HealthBody:
    return {"status": "ok"}


def ready_body(ready: bool, checks: Mapping[str, str]) -> ReadyBody:
    """The answer of ``/readyz`` (``checks`` from :func:`.metrics.readiness`)."""
    return {"status": "ready" if ready else "not ready", "checks": dict(checks)}


def info_body(presets: Mapping[str, str], bots: list[str], solver: bool) -> InfoBody:
    return {
        "protocol": PROTOCOL_VERSION,
        "version": __version__,
        "presets": [{"name": n, "summary": s} for n, s in presets.items()],
        "bots": bots,
        "solver": solver,
        "levels": [level for level in LEVELS if level in bots],  # type: ignore[misc]
        "reactions": list(REACTIONS),  # type: ignore[arg-type]
    }


info_json = info_body
"""The old name of :func:`info_body`."""


def rules_body(
    name: str, lang: str, summary: str, options: dict[str, Any], reference: str, howto: str
) -> RulesBody:
    """A preset's rules (``summary``, ``reference`` and ``howto`` written in ``lang``)."""
    from tarneeb.i18n import RIGHT_TO_LEFT

    return {
        "name": name,
        "lang": lang,
        "dir": "rtl" if lang in RIGHT_TO_LEFT else "ltr",
        "summary": summary,
        "options": options,
        "reference": reference,
        "howto": howto,
    }


def tables_body(tables: list[TableJson]) -> TablesBody:
    return {"tables": tables}


def created_body(table: Table, seat: Seat, token: str | None, state: TableJson) -> CreatedBody:
    """The answer to ``POST /api/tables``: the creator's seat and token, and an invite link
    (with its secret, :meth:`Table.invite`) for each free seat."""
    return {
        "table": table.id,
        "seat": seat_name(seat),
        "token": token,
        "invites": {
            seat_name(s): invite_path(table, [s], secret)
            for s, secret in table.new_invites.items()
            if not table.seats[s].taken
        },
        "spectate": f"/t/{table.id}",
        "state": state,
    }


def joined_body(seat: Seat, token: str) -> JoinedBody:
    return {"seat": seat_name(seat), "token": token}


def deal_summary_json(table: Table, index: int) -> DealSummaryJson:
    """A finished deal in brief (``DEAL_SUMMARY``)."""
    from tarneeb.record import format_deal

    assert table.match is not None
    deal = table.match.deals[index]
    seed = table.seeds[index]
    return {
        "number": index + 1,
        "dealer": seat_name(deal.dealer),
        "text": format_deal(deal),
        "contract": contract_json(deal.contract),
        "result": result_json(deal),
        "seed": seed,
        "commitment": commitment(seed),
    }


_SUMMARY_KEYS = tuple(DealSummaryJson.__annotations__)


def summary_of(replay: DealSummaryJson) -> DealSummaryJson:
    """The ``DEAL_SUMMARY`` a ``REPLAY`` begins with (a stored replay, listed in brief)."""
    return cast(DealSummaryJson, {key: replay[key] for key in _SUMMARY_KEYS})  # type: ignore[literal-required]


def deals_body(replays: Iterable[DealSummaryJson]) -> DealsBody:
    """``GET .../deals``: the finished deals in brief, from their replays (or summaries)."""
    return {"deals": [summary_of(replay) for replay in replays]}


def replay_body(table: Table, index: int) -> ReplayBody:
    """A finished deal to replay (``REPLAY``): hands as dealt, the auction and every trick
    (:func:`analysed` adds the analysis)."""
    assert table.match is not None
    deal = table.match.deals[index]
    points = counts_card_points(table.rules)
    calls = [call_json(s, a) for s, a in deal.history if not isinstance(a, Card)]
    body: ReplayBody = {
        **deal_summary_json(table, index),  # type: ignore[typeddict-item]
        "hands": {seat_name(s): [str(c) for c in CardSet(deal.dealt[s])] for s in SEATS},
        "auction": calls,
        "tricks": [trick_json(t, points) for t in deal.tricks],
        "trump": suit_letter(deal.trump),
    }
    return body


def analysed(replay: ReplayBody, analysis: Any) -> ReplayBody:
    """A ``REPLAY`` asked for with ``?analysis=1``: the double-dummy analysis, or null
    when it cannot run."""
    return {**replay, "analysis": analysis}


# -- hints, reactions, seats of a browser ----------------------------------------------------------


def reason_json(reason: object) -> ReasonJson | None:
    """A bot's reason as the catalogue message it names and that message's arguments.

    A structured reason (:class:`tarneeb.bots.reasons.Reason`) travels as its
    key and arguments, each card, suit and strain as such so that the client
    says them in its own words, with its English text besides; a reason that
    is only text has a null key; no reason is null.

    >>> from tarneeb.bots.reasons import Reason
    >>> reason_json(Reason("draw-trumps", count=2))["args"]
    {'count': 2}
    >>> reason_json("hold the ace")
    {'key': None, 'args': {}, 'text': 'hold the ace'}
    >>> reason_json("") is None
    True
    """
    if not reason:
        return None
    name = getattr(reason, "name", "")
    params = getattr(reason, "params", None)
    if not name or not isinstance(params, Mapping):
        return {"key": None, "args": {}, "text": str(reason)}
    args = {str(key): _reason_arg(value) for key, value in params.items()}
    return {"key": f"reason.{name}", "args": args, "text": str(reason)}


def _reason_arg(value: object) -> ReasonArg:
    if isinstance(value, Card):
        return {"card": str(value)}
    if isinstance(value, Suit):
        return {"suit": cast(SuitLetter, value.letter)}
    if isinstance(value, Strain):
        return {"strain": cast(StrainLetter, value.letter)}
    if isinstance(value, str) and hasattr(value, "params"):
        inner = reason_json(value) or {"key": None, "args": {}, "text": ""}
        return cast(InnerReasonJson, inner)
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return value
    return str(value)


def hint_frame(version: int, decision: Decision) -> HintAnswerFrame:
    """The answer to ``hint``: the bot's action for the state ``version``, and why."""
    return {
        "type": "hint",
        "version": version,
        "action": action_json(decision.action),
        "reason": reason_json(decision.reason),
    }


def reaction_frame(seat: Seat, reaction: str) -> ReactionFrame:
    return {"type": "reaction", "seat": seat_name(seat), "reaction": cast(Reaction, reaction)}


def my_seat_json(table: Table, seat: Seat, connected: Collection[Seat]) -> MySeatJson:
    """A running table where a browser's token holds ``seat`` (``POST /api/seats``)."""
    return {
        "seat": seat_name(seat),
        "table": table_json(table, connected),
        "to_act": table.to_act() == seat,
    }


def my_seats_body(seats: list[MySeatJson]) -> MySeatsBody:
    return {"seats": seats}


def invite_path(table: Table, seats: Sequence[Seat], secret: str) -> str:
    """The link of an invite (for the first of its seats, where its holder is shown first)."""
    return f"/t/{table.id}?seat={seat_name(seats[0])}&invite={secret}"


def invite_body(table: Table, made: Mapping[Seat, str]) -> InviteBody:
    """``POST .../invite``: the one invite made for these seats."""
    seats = list(made)
    return {
        "seats": [seat_name(s) for s in seats],
        "link": invite_path(table, seats, made[seats[0]]),
    }


def seat_link_body(table: Table, seat: Seat, secret: str) -> SeatLinkBody:
    """``POST .../seat-link``: the link, its secret in the fragment (no server logs it)."""
    return {"seat": seat_name(seat), "link": f"/t/{table.id}#claim={secret}"}
