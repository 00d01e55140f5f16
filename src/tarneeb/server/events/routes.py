"""The HTTP API and the WebSocket of hosted events, mounted by :func:`tarneeb.server.app.create_app`.

* ``GET /api/events``: the events (newest first); ``POST /api/events``: a new
  one (``kind``, ``rules``, ``target``, ``pairs``, ``sets``, ``streak``,
  ``bot``, ``turn_seconds``, ``title``, ``rated``), answered with the host's token;
* ``GET /api/events/{id}``: the event, its standings and the table of each set;
* ``POST /api/events/{id}/pairs``: a pair registers, ``{"name", "players":
  [{"name": ...}, {"name": ...} or {"bot": true}]}``, or the host adds a bot
  pair, ``{"bots": true, "token": HOST}``; each player gets a token that holds
  their seat at every table of the event. A signed-in player registers as
  themselves with ``{"me": true}`` (their account is the member, by its name),
  and their partner with ``{"partner": TICKET}``, the ticket the partner, signed
  in, had from ``POST /api/events/{id}/partner``; a *rated* event takes these
  two only (its results feed the ratings), never a guest or a bot;
* ``POST /api/events/{id}/start``: the host starts it, ``{"token", "fill"}``
  (``fill``: bot pairs take the free places);
* ``/ws/events/{id}``: the event (an ``event`` frame) now and after every change;
* the pages ``/events`` and ``/e/{id}`` (the browser client's).
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tarneeb.presets import PRESETS
from tarneeb.server.connection import Connection
from tarneeb.server.edge import JSONResponse, deny_socket, origin_allowed, public_error
from tarneeb.server.events.bodies import event_json, summary_json
from tarneeb.server.events.host import EventHost
from tarneeb.server.events.model import (
    EventConfig,
    HostedEvent,
    Member,
    account_identity,
    bot_member,
)
from tarneeb.server.players import Player, current_player
from tarneeb.server.protocol import error_frame
from tarneeb.server.seating import token_hash
from tarneeb.server.table import ErrorCode, ServerError
from tarneeb.server.text import clean_text
from tarneeb.server.wire import (
    MAX_NAME,
    EventCreatedBody,
    EventPartnerBody,
    EventRegisteredBody,
    EventsBody,
    loads,
)

__all__ = ["event_routes"]

CLOSE_POLICY = 1008
LISTED = 100
"""Events ``GET /api/events`` lists at most (the newest)."""
Handler = Callable[[Request], Any]


def _is_partner(data: object) -> bool:
    return isinstance(data, dict) and set(data) == {"partner"}


def _member(data: object, bot: str, player: Player | None) -> Member:
    """A member of a registering pair: a player by name, or a bot (the event's ``bot``),
    or the signed-in ``player`` (``{"me": true}``); a partner's ticket is read apart
    (:meth:`EventHost.find_partner`)."""
    if isinstance(data, dict) and set(data) == {"me"} and data["me"] is True:
        if player is None:
            raise ServerError(ErrorCode.UNAUTHORIZED, "sign in to register as yourself")
        return Member(player.name, identity=account_identity(player.id))
    if not isinstance(data, dict) or not set(data) <= {"name", "bot"}:
        raise ServerError(
            ErrorCode.MALFORMED,
            'a member is {"name": ...}, {"bot": true}, {"me": true} or {"partner": TICKET}',
        )
    if data.get("bot") is True:
        return bot_member(bot)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ServerError(ErrorCode.MALFORMED, "a player needs a name")
    return Member(clean_text(name, "a name", MAX_NAME))


def _only(data: dict[str, Any], *keys: str) -> None:
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise ServerError(ErrorCode.MALFORMED, f"unknown field {unknown[0]!r}")


def event_routes(
    host: Callable[[], EventHost],
    api: Callable[[Handler], Handler],
    body: Callable[[Request], Any],
    page: Handler,
    allowed_origins: tuple[str, ...],
) -> list[BaseRoute]:
    """The events' routes; ``api`` wraps a handler as the app's own (its error answers),
    ``body`` reads a request's JSON object, ``page`` serves the browser client."""

    def client(request: Request | WebSocket) -> str | None:
        return None if request.client is None else request.client.host

    @api
    async def list_events(_request: Request) -> Response:
        newest = host().events()[:LISTED]
        found: EventsBody = {
            "events": [summary_json(e) for e in newest],
            "presets": [name for name, rules in PRESETS.items() if not rules.is_individual],
        }
        return JSONResponse(found)

    @api
    async def create(request: Request) -> Response:
        data = await body(request)
        config = EventConfig.from_dict(data)
        event = HostedEvent.new(_new_id(), config)
        token = await host().create(event, client(request))
        made: EventCreatedBody = {"event": event_json(event), "host_token": token}
        return JSONResponse(made, status_code=201)

    @api
    async def get_event(request: Request) -> Response:
        return JSONResponse(event_json(host().get(request.path_params["id"]).event))

    @api
    async def register(request: Request) -> Response:
        event_id = request.path_params["id"]
        data = await body(request)
        running = host()
        live = running.get(event_id)
        if data.get("bots") is True:
            _only(data, "bots", "token")
            (pair,) = await running.add_bots(event_id, data.get("token"))
            tokens: list[str | None] = [None, None]
        else:
            _only(data, "name", "players")
            players = data.get("players")
            if not isinstance(players, list) or len(players) != 2:
                raise ServerError(ErrorCode.MALFORMED, "players are the pair's two members")
            player = await current_player(request)
            members = [
                None if _is_partner(p) else _member(p, live.event.config.bot, player)
                for p in players
            ]
            if all(m is not None and m.bot is not None for m in members):
                raise ServerError(ErrorCode.MALFORMED, "a pair of bots is added by the host")
            partners: list[str] = []
            for i, p in enumerate(players):
                if members[i] is None:  # the ticket stays until the pair is stored
                    members[i], digest = await running.find_partner(event_id, p["partner"])
                    partners.append(digest)
            pair, tokens = await running.register(
                event_id,
                data.get("name"),
                [m for m in members if m is not None],
                tuple(partners),
            )
        made: EventRegisteredBody = {
            "pair": pair,
            "tokens": tokens,
            "event": event_json(live.event),
        }
        return JSONResponse(made, status_code=201)

    @api
    async def partner(request: Request) -> Response:
        event_id = request.path_params["id"]
        player = await request.app.state.players.require(request)
        # The giver's own seat token, given now (the registration that uses the ticket
        # happens on the partner's page): the giver plays the pair's second seats by it.
        token = secrets.token_urlsafe(24)
        member = Member(
            player.name, identity=account_identity(player.id), token_hash=token_hash(token)
        )
        ticket = await host().partner_ticket(event_id, member)
        made: EventPartnerBody = {"partner": ticket, "token": token}
        return JSONResponse(made, status_code=201)

    @api
    async def start(request: Request) -> Response:
        event_id = request.path_params["id"]
        data = await body(request)
        _only(data, "token", "fill")
        fill = data.get("fill", False)
        if not isinstance(fill, bool):
            raise ServerError(ErrorCode.MALFORMED, "fill must be true or false")
        await host().start(event_id, data.get("token"), fill)
        return JSONResponse(event_json(host().get(event_id).event))

    async def socket(ws: WebSocket) -> None:
        event_id = ws.path_params["id"]
        where = f"WS /ws/events/{event_id[:40]}"
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), allowed_origins):
            await ws.close(code=CLOSE_POLICY)
            return
        running = host()
        try:
            running.hub.admit_connection(client(ws))
        except ServerError as exc:  # a reconnect loop: refused at the handshake, unread
            await deny_socket(ws, exc, where)
            return
        await ws.accept()
        try:
            live = running.get(event_id)
            conn = Connection(
                event_id, None, ws.send_text, lambda code: ws.close(code=code), client(ws)
            )
            running.watch(live, conn)
        except ServerError as exc:
            await ws.send_text(json.dumps(error_frame(public_error(exc, where), None)))
            await ws.close(code=CLOSE_POLICY)
            return
        conn.start()
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                # a client says nothing here but pings; anything else is read and dropped
                with contextlib.suppress(ServerError):
                    frame = loads(message.get("text") or message.get("bytes") or b"{}")
                    if isinstance(frame, dict) and frame.get("type") == "ping":
                        conn.push({"type": "pong"})
        except WebSocketDisconnect:
            return
        finally:
            running.unwatch(live, conn)
            await conn.close()

    return [
        Route("/events", page),
        Route("/e/{id}", page),
        Route("/api/events", list_events, methods=["GET"]),
        Route("/api/events", create, methods=["POST"]),
        Route("/api/events/{id}", get_event),
        Route("/api/events/{id}/pairs", register, methods=["POST"]),
        Route("/api/events/{id}/partner", partner, methods=["POST"]),
        Route("/api/events/{id}/start", start, methods=["POST"]),
        WebSocketRoute("/ws/events/{id}", socket),
    ]


def _new_id() -> str:
    import secrets

    return secrets.token_urlsafe(9)
