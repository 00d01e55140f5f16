"""The ASGI app of ``tarneeb serve``: the JSON API, the WebSocket, and the browser client.

>>> from starlette.testclient import TestClient
>>> app = create_app(Settings(db_url="sqlite://", bot_delay=0))
>>> with TestClient(app) as client:
...     client.get("/api/info").json()["protocol"]
3
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tarneeb.errors import TarneebError
from tarneeb.presets import PRESET_SUMMARIES, find_rules
from tarneeb.seats import Seat
from tarneeb.server.analysis_pool import analyse_deal_text
from tarneeb.server.cluster import (
    FORWARDED,
    Cluster,
    Elsewhere,
    Unreachable,
    forward_http,
    forward_socket,
)
from tarneeb.server.edge import (
    EdgeMiddleware,
    JSONResponse,
    deny_socket,
    error_response,
    origin_allowed,
    public_error,
)
from tarneeb.server.events.host import EventHost, SetResultHook
from tarneeb.server.events.ratings import rate_sets
from tarneeb.server.events.routes import event_routes
from tarneeb.server.hub import Connection, Hub, Settings, _Live
from tarneeb.server.limits import FrameGate
from tarneeb.server.metrics import CONTENT_TYPE_LATEST, BindMetrics, Metrics, readiness
from tarneeb.server.players import Players, player_routes
from tarneeb.server.protocol import (
    ack_frame,
    analysed,
    created_body,
    deals_body,
    error_body,
    error_frame,
    health_body,
    info_body,
    invite_body,
    joined_body,
    my_seats_body,
    pong_frame,
    ready_body,
    rules_body,
    seat_link_body,
    table_json,
    tables_body,
)
from tarneeb.server.results import deals_result
from tarneeb.server.seating import invite_groups
from tarneeb.server.services import Services, ServicesMiddleware
from tarneeb.server.store import Store, default_db_url
from tarneeb.server.table import (
    MAX_ACTION_ID,
    ErrorCode,
    ServerError,
    Table,
    TableConfig,
    parse_seat_name,
)
from tarneeb.server.wire import (
    LEVELS,
    MAX_BODY,
    MAX_FRAME,
    Act,
    Chat,
    ErrorFrame,
    Hello,
    Hint,
    Ping,
    React,
    Rematch,
    TableJson,
    loads,
    parse_frame,
)

__all__ = ["create_app"]

log = logging.getLogger("tarneeb.server")
CLOSE_POLICY = 1008
CLOSE_ERROR = 1011
RATE_STRIKES = 10
"""Rate-limited frames after which a connection is closed, less one for each frame
accepted between them (:class:`~tarneeb.server.limits.FrameGate`)."""


@functools.cache
def _browser_messages(lang: str) -> tuple[bytes, str]:
    """The browser's catalogue of ``lang`` (a catalogue language) as JSON, and its ETag."""
    from tarneeb.i18n import browser_catalogue

    body = json.dumps(dict(browser_catalogue(lang)), ensure_ascii=False).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:20]}"'


def _static_dir() -> Path:
    return Path(str(resources.files("tarneeb.server") / "static"))


async def _body(request: Request) -> dict[str, Any]:
    """The JSON object of a request's body, read with a running count (see :mod:`.edge`)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ServerError(ErrorCode.TOO_LARGE, f"a request body is at most {MAX_BODY} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    data = loads(raw)
    if not isinstance(data, dict):
        raise ServerError(ErrorCode.MALFORMED, "the body must be a JSON object")
    return data


def _seat_arg(value: object) -> Seat | None:
    return None if value is None else parse_seat_name(value)


def _only(data: dict[str, Any], *keys: str) -> None:
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise ServerError(ErrorCode.MALFORMED, f"unknown field {unknown[0]!r}")


def create_app(
    settings: Settings | None = None,
    *,
    metrics_route: bool = True,
    on_set_result: SetResultHook | None = None,
) -> Starlette:
    """The server app; its store opens when the app starts (uvicorn or a test client).

    ``on_set_result`` hears each set result of a rated hosted event; by default the
    ratings do (:func:`tarneeb.server.events.ratings.rate_sets`).

    Its metrics are ``app.state.metrics`` (:class:`Metrics`), served at ``/metrics``
    unless ``metrics_route`` is false.
    """
    settings = settings or Settings()
    state: dict[str, Hub] = {}
    hosted: dict[str, EventHost] = {}  # the hosted events (tarneeb.server.events)
    services: dict[str, Services] = {}  # a worker of many: who holds the site's services
    metrics = Metrics(lambda: state.get("hub"))

    def hub() -> Hub:
        return state["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = Store(settings.db_url or default_db_url(), settings.db_threads)
        metrics.watch_store(store)
        cluster = None
        if settings.worker_id is not None:
            address = settings.worker_address or "127.0.0.1:8000"
            cluster = Cluster(store, settings.worker_id, address, settings.lease_seconds)
        state["hub"] = Hub(store, settings, cluster=cluster)
        _app.state.hub = state["hub"]
        await state["hub"].startup()
        _app.state.players = Players(state["hub"])
        await _app.state.players.start()

        def new_host() -> EventHost:
            hosted["events"] = _app.state.events = EventHost(
                state["hub"], on_set_result or rate_sets(store)
            )
            return hosted["events"]

        async def lost() -> None:  # another worker plays them now: this one forgets its own
            await hosted["events"].shutdown()
            new_host()

        new_host()
        if cluster is None:
            await hosted["events"].startup()  # after the hub's: its tables are back
        else:  # the events run where the site's services are (see .services)
            services["services"] = Services(
                cluster, store, lambda: hosted["events"].startup(), lost
            )
            await services["services"].start()
        try:
            yield
        finally:
            if "services" in services:
                await services["services"].stop()
            await hosted["events"].shutdown()
            await _app.state.players.stop()
            await state["hub"].shutdown()
            store.close()

    def api(handler: Any) -> Any:
        async def wrapped(request: Request) -> Response:
            where = f"{request.method} {request.url.path}"
            try:
                return await handler(request)  # type: ignore[no-any-return]
            except ServerError as exc:
                return error_response(exc, where)
            except TarneebError as exc:
                return error_response(ServerError(ErrorCode.MALFORMED, str(exc)), where)
            except Exception as exc:  # logged with a reference; the client hears only that
                return error_response(exc, where)

        return wrapped

    def routed(handler: Any) -> Any:
        """A table's route: answered here by the table's owner, else forwarded to it
        (a worker of many, see :mod:`.cluster`)."""

        async def wrapped(request: Request) -> Response:
            table_id = request.path_params["id"]
            where = f"{request.method} {request.url.path}"
            try:
                for _ in range(3):
                    away = await _reach(hub(), table_id, request.headers.get(FORWARDED))
                    if away is None:
                        return await handler(request)  # type: ignore[no-any-return]
                    cluster = hub().cluster
                    assert cluster is not None
                    try:
                        return await forward_http(request, away.address, cluster.worker_id)
                    except Unreachable as exc:
                        if not exc.refused:  # it may have been done there: not again
                            break
                    # Its owner is gone: once its lease lapses, the table is played here.
                    await asyncio.sleep(away.lapses_in + 0.1)
                return error_response(_moved(table_id), where)
            except ServerError as exc:
                return error_response(exc, where)

        return api(wrapped)

    def live_json(table: Table) -> TableJson:
        live = hub().live.get(table.id) or hub().copies.get(table.id)  # of many: copies
        return table_json(table, () if live is None else live.connected())

    @api
    async def info(_request: Request) -> Response:
        from tarneeb.bots.policy import playable_specs

        # Loading DDS takes seconds: done once, in a thread, never on the event loop.
        solver = await hub().analyses.solver_available()
        return JSONResponse(info_body(PRESET_SUMMARIES, playable_specs(), solver))

    @api
    async def rules(request: Request) -> Response:
        from tarneeb.i18n import accept_language, find_language
        from tarneeb.reference import describe_game, describe_rules
        from tarneeb.summaries import preset_summary

        name = request.path_params["name"]
        try:
            found = find_rules(name)
        except TarneebError:
            raise ServerError(ErrorCode.NOT_FOUND, f"no preset {name!r}") from None
        asked = request.query_params.get("lang")
        # ?lang= (the page's language) first, then the browser's, then English.
        browser = accept_language(request.headers.get("accept-language"))
        lang = find_language(asked) if asked else browser or "en"
        return JSONResponse(
            rules_body(
                name,
                lang,
                preset_summary(name.strip().lower(), found, lang),
                found.to_dict(),
                describe_rules(found, name, lang),
                describe_game(found, name, lang),
            ),
            headers={"Content-Language": lang, "Vary": "Accept-Language"},
        )

    @api
    async def messages(request: Request) -> Response:
        from tarneeb.i18n import find_language

        body, etag = _browser_messages(find_language(request.path_params["lang"]))
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @api
    async def list_tables(_request: Request) -> Response:
        return JSONResponse(tables_body([live_json(t) for t in hub().tables()]))

    @api
    async def create(request: Request) -> Response:
        data = await _body(request)
        seat = _seat_arg(data.pop("seat", None)) or Seat.SOUTH
        name = data.pop("name", None)
        reserve = data.pop("reserve", None)
        groups = None if reserve is None else invite_groups(reserve)
        config = TableConfig.from_dict(data)
        table, token = await hub().create(config, name, seat, _client(request), groups)
        log.info("table created", extra={"table": table.id, "rules": config.rules_name})
        return JSONResponse(created_body(table, seat, token, live_json(table)), status_code=201)

    @routed
    async def get_table(request: Request) -> Response:
        table_id = request.path_params["id"]
        result = await hub().result(table_id)
        if result is not None:
            return JSONResponse(result["table"])
        return JSONResponse(await hub().table_json(table_id))

    @routed
    async def join(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "name", "seat", "invite")
        seat = _seat_arg(data.get("seat"))
        invite = data.get("invite")
        token = await hub().change(table_id, lambda t: t.join(data.get("name"), seat, invite))
        table = (await hub().open(table_id)).table
        taken = table.seat_of_token(token)
        return JSONResponse(joined_body(taken, token))

    @routed
    async def start(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "token", "bot", "level")
        table = (await hub().open(table_id)).table
        table.seat_of_token(data.get("token"))
        bot = data.get("bot", "heuristic")
        if not isinstance(bot, str):
            raise ServerError(ErrorCode.MALFORMED, "bot must be a bot spec")
        if "level" in data:
            bot = _level(data["level"], "bot" in data)
        await request.app.state.players.check_start(table_id)
        await hub().change(table_id, lambda t: t.start(bot))
        return JSONResponse(live_json((await hub().open(table_id)).table))

    @routed
    async def leave(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "token")
        seat = (await hub().open(table_id)).table.seat_of_token(data.get("token"))
        await hub().change(table_id, lambda t: t.leave(seat))
        return JSONResponse(live_json((await hub().open(table_id)).table))

    @routed
    async def invite(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "token", "seats")
        await request.app.state.players.check_start(table_id)
        groups = invite_groups([data.get("seats")])
        made = await hub().invite(table_id, data.get("token"), groups)
        return JSONResponse(invite_body((await hub().open(table_id)).table, made))

    @routed
    async def seat_link(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "token")
        seat, secret = await hub().seat_link(table_id, data.get("token"))
        return JSONResponse(seat_link_body((await hub().open(table_id)).table, seat, secret))

    @routed
    async def claim(request: Request) -> Response:
        data = await _body(request)
        _only(data, "claim")
        seat, token = await hub().claim(request.path_params["id"], data.get("claim"))
        return JSONResponse(joined_body(seat, token))

    @api
    async def my_seats(request: Request) -> Response:
        data = await _body(request)
        _only(data, "seats")
        return JSONResponse(my_seats_body(hub().my_seats(data.get("seats"))))

    async def finished(table_id: str) -> dict[str, Any]:
        """The deals (and record) the API serves of a table: a finished table's stored
        result (:mod:`.results`), or built from the live table (only its finished deals)."""
        result = await hub().result(table_id)
        if result is not None:
            return result
        table = (await hub().open(table_id)).table
        return {**deals_result(table), "record": None}

    @routed
    async def deals(request: Request) -> Response:
        result = await finished(request.path_params["id"])
        return JSONResponse(deals_body(result["deals"].values()))

    @routed
    async def deal_replay(request: Request) -> Response:
        table_id = request.path_params["id"]
        try:
            number = int(request.path_params["number"])
        except ValueError:
            raise ServerError(ErrorCode.MALFORMED, "a deal number is a whole number") from None
        result = await finished(table_id)
        body = result["deals"].get(str(number))
        if body is None:
            raise ServerError(ErrorCode.NOT_FOUND, f"no finished deal {number} at this table")
        if request.query_params.get("analysis") in ("1", "true") and number in result["played"]:
            metrics.analysis_requests.inc()
            analysis = await hub().analyses.run(
                (table_id, number), _client(request), analyse_deal_text, body["text"]
            )
            body = analysed(body, analysis)
        return JSONResponse(body)

    @routed
    async def record(request: Request) -> Response:
        table_id = request.path_params["id"]
        result = await finished(table_id)
        if result["record"] is None:
            raise ServerError(ErrorCode.CONFLICT, "the record is ready once the match is over")
        return JSONResponse(
            result["record"],
            headers={"Content-Disposition": f'attachment; filename="tarneeb-{table_id}.json"'},
        )

    async def page(request: Request) -> Response:
        index = _static_dir() / "index.html"
        response: Response
        if index.is_file():
            response = FileResponse(index, media_type="text/html")
        else:
            response = HTMLResponse("<!doctype html><title>tarneeb</title><p>tarneeb server</p>")
        return response  # the page's headers come from EdgeMiddleware, as every answer's

    async def websocket(ws: WebSocket) -> None:
        await _serve_socket(ws, hub(), settings)

    # -- seen from outside: liveness, readiness, metrics (tarneeb.server.metrics) -----------

    async def healthz(_request: Request) -> Response:
        return JSONResponse(health_body(), headers={"Cache-Control": "no-store"})

    async def readyz(_request: Request) -> Response:
        ready, checks = await readiness(hub().store, hub())
        headers = {"Cache-Control": "no-store"}
        body = ready_body(ready, checks)
        return JSONResponse(body, status_code=200 if ready else 503, headers=headers)

    async def metrics_page(_request: Request) -> Response:
        headers = {"Cache-Control": "no-store"}
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST, headers=headers)

    outside = [Route("/healthz", healthz), Route("/readyz", readyz)]
    if metrics_route:
        outside.append(Route("/metrics", metrics_page))

    routes = [
        Route("/", page),
        Route("/t/{id}", page),
        Route("/api/info", info),
        Route("/api/rules/{name}", rules),
        Route("/i18n/{lang}.json", messages),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{id}", get_table),
        Route("/api/tables/{id}/join", join, methods=["POST"]),
        Route("/api/tables/{id}/start", start, methods=["POST"]),
        Route("/api/tables/{id}/leave", leave, methods=["POST"]),
        Route("/api/tables/{id}/invite", invite, methods=["POST"]),
        Route("/api/tables/{id}/seat-link", seat_link, methods=["POST"]),
        Route("/api/tables/{id}/claim", claim, methods=["POST"]),
        Route("/api/seats", my_seats, methods=["POST"]),
        Route("/api/tables/{id}/deals", deals),
        Route("/api/tables/{id}/deals/{number}", deal_replay),
        Route("/api/tables/{id}/record", record),
        *player_routes(),
        WebSocketRoute("/ws/{id}", websocket),
        *event_routes(lambda: hosted["events"], api, _body, page, settings.allowed_origins),
        Mount("/static", StaticFiles(directory=_static_dir(), check_dir=False), name="static"),
        *outside,
    ]
    templates = {route.endpoint: route.path for route in routes if isinstance(route, Route)}
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(BindMetrics, metrics=metrics, routes=templates),
            Middleware(
                EdgeMiddleware,
                allowed_origins=settings.allowed_origins,
                api_rate=(settings.api_per_second, settings.api_burst),
            ),
            Middleware(ServicesMiddleware, services=lambda: services.get("services")),
        ],
        exception_handlers={HTTPException: _http_error},
    )
    app.state.metrics = metrics
    return app


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such path, a wrong method) in the API's error shape."""
    assert isinstance(exc, HTTPException)
    code = ErrorCode.NOT_FOUND if exc.status_code == 404 else ErrorCode.MALFORMED
    error = public_error(ServerError(code, str(exc.detail).lower()), request.url.path)
    return JSONResponse(error_body(error), status_code=exc.status_code, headers=exc.headers)


def _client(request: Request | WebSocket) -> str | None:
    """The address of the client (the peer of the connection) that limits count by."""
    return None if request.client is None else request.client.host


FORWARD_MAX = 1 << 20
"""The largest frame a worker carries to another (uvicorn's own limit, ``cli.WS_MAX_SIZE``)."""


def _moved(table_id: str) -> ServerError:
    return ServerError(
        ErrorCode.CONFLICT, f"table {table_id!r} moved to another worker just now: try again"
    )


async def _reach(hub: Hub, table_id: str, forwarded: str | None) -> Elsewhere | None:
    """``None`` when this worker plays the table (taken now, if its lease lapsed); else
    where it is played. A forwarded request is never forwarded again.

    :raises ServerError: ``conflict`` for a forwarded request of a table played elsewhere.
    """
    try:
        await hub.locate(table_id)
    except Elsewhere as away:
        if forwarded is not None:
            raise _moved(table_id) from None
        return away
    return None


def _origin_ok(ws: WebSocket, settings: Settings) -> bool:
    return origin_allowed(
        ws.headers.get("origin"), ws.headers.get("host"), settings.allowed_origins
    )


def _act_id(raw: str | bytes) -> str | None:
    """The ``id`` of ``raw`` if it is an ``act`` frame (for the error that refuses it unread)."""
    if len(raw) > MAX_FRAME:
        return None
    try:
        data = loads(raw)
    except ServerError:
        return None
    ref = data.get("id") if isinstance(data, dict) and data.get("type") == "act" else None
    return ref if isinstance(ref, str) and 0 < len(ref) <= MAX_ACTION_ID else None


async def _serve_socket(ws: WebSocket, hub: Hub, settings: Settings) -> None:
    """One table's WebSocket: the edge checks of every frame, then :func:`_dispatch`.

    Every error frame carries a reference id (see :func:`.edge.public_error`);
    an unexpected failure is logged under it and told as ``internal``.
    """
    table_id = ws.path_params["id"]
    where = f"WS /ws/{table_id}"
    if not _origin_ok(ws, settings):
        await ws.close(code=CLOSE_POLICY)
        return
    try:
        hub.admit_connection(_client(ws))
    except ServerError as exc:  # a reconnect loop: refused at the handshake, unread
        await deny_socket(ws, exc, where)
        return
    await ws.accept()
    conn: Connection | None = None

    def frame_of(exc: BaseException, act_id: str | None = None) -> ErrorFrame:
        return error_frame(public_error(exc, where), act_id)

    async def refuse(exc: BaseException, act_id: str | None = None, close: bool = False) -> None:
        """Tell the client ``exc`` (on its queue once it has one); close after it if asked."""
        if conn is None:
            await ws.send_text(json.dumps(frame_of(exc, act_id)))
        else:
            conn.push(frame_of(exc, act_id))
            if close:
                await conn.close()
        if close:
            await ws.close(code=CLOSE_POLICY)

    async def carry(raw: str | bytes, away: Elsewhere) -> _Live | None:
        """Carry the socket to the table's owner, until it closes (``None``); or, when the
        owner is gone, wait its lease out and play the table here (the table)."""
        assert hub.cluster is not None
        for _ in range(3):
            try:
                await forward_socket(ws, away.address, hub.cluster.worker_id, raw, FORWARD_MAX)
                return None
            except Unreachable:
                await asyncio.sleep(away.lapses_in + 0.1)
            try:
                return await hub.open(table_id)
            except Elsewhere as again:
                away = again
        await refuse(_moved(table_id), close=True)
        return None

    gate = FrameGate(settings.rate_per_s, settings.rate_burst, RATE_STRIKES)
    try:
        # A worker of many opens the table at the hello: a spectator watches another
        # worker's table from its copy here, and only a player takes a table over.
        live: _Live | None = hub.live.get(table_id)
        if live is None and (hub.cluster is None or ws.headers.get(FORWARDED) is not None):
            try:
                live = await hub.open(table_id)
            except Elsewhere:  # forwarded once: never again
                await refuse(_moved(table_id), close=True)
                return
            except ServerError as exc:
                await refuse(exc, close=True)
                return
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw: str | bytes = message.get("text") or message.get("bytes") or b""
            if not gate.take():
                error = ServerError(ErrorCode.RATE_LIMITED, "too many frames: slow down")
                await refuse(error, _act_id(raw), close=gate.spent)
                if gate.spent:
                    return
                continue
            try:
                frame = parse_frame(raw)  # one over MAX_FRAME is refused as too_large, unread
            except ServerError as exc:
                fatal = exc.code is ErrorCode.TOO_LARGE or conn is None
                await refuse(exc, None if exc.code is ErrorCode.TOO_LARGE else _act_id(raw), fatal)
                if fatal:
                    return
                continue
            if conn is None:
                if not isinstance(frame, Hello):
                    error = ServerError(ErrorCode.MALFORMED, "the first frame must be hello")
                    await refuse(error, close=True)
                    return
                if live is None and frame.token is None:
                    live = hub.live.get(table_id) or await hub.copy_of(table_id)
                if live is None:
                    try:
                        live = await hub.open(table_id)
                    except Elsewhere as away:  # another worker plays the table
                        live = await carry(raw, away)
                        if live is None:
                            return
                    except ServerError as exc:
                        await refuse(exc, close=True)
                        return
                seat: Seat | None = None
                if frame.token is not None:
                    try:
                        seat = live.table.seat_of_token(frame.token)
                    except ServerError as exc:
                        await refuse(exc, close=True)
                        return
                joining = Connection(
                    table_id, seat, ws.send_text, lambda code: ws.close(code=code), _client(ws)
                )
                try:
                    await hub.connect(joining, frame.since)
                except ServerError as exc:
                    await refuse(exc, close=True)
                    return
                conn = joining
                conn.start()
                continue
            act_id = frame.ref if isinstance(frame, Act) else None
            try:
                await _dispatch(hub, conn, frame)
            except ServerError as exc:
                conn.push(frame_of(exc, act_id))
            except Exception as exc:  # the table is as before (Hub.change); the socket stays
                conn.push(frame_of(exc, act_id))
    except WebSocketDisconnect:
        return
    except Exception as exc:  # outside any one frame: tell, log, and close the socket
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(frame_of(exc)))
            await ws.close(code=CLOSE_ERROR)
    finally:
        if conn is not None:
            await hub.disconnect(conn)


async def _dispatch(hub: Hub, conn: Connection, frame: object) -> None:
    """Do what a frame after ``hello`` asks.

    :raises ServerError: to be told to the sender (with the ``id`` of an ``act``).
    """
    seat = conn.seat
    if isinstance(frame, Ping):
        conn.push(pong_frame())
        return
    if isinstance(frame, Hello):
        raise ServerError(ErrorCode.MALFORMED, "hello comes once, first")
    if seat is None:
        what = _WHAT.get(type(frame), "do that")
        raise ServerError(ErrorCode.UNAUTHORIZED, f"spectators cannot {what}: join a seat")
    if isinstance(frame, Act):
        await hub.change(
            conn.table_id,
            lambda t: t.act(seat, frame.version, frame.action, frame.ref),
            (conn, lambda version: ack_frame(frame.ref, version)),
        )
    elif isinstance(frame, Chat):
        await hub.chat(conn.table_id, seat, frame.text)
    elif isinstance(frame, Hint):
        conn.push(await hub.hint(conn.table_id, seat))
    elif isinstance(frame, React):
        await hub.react(conn.table_id, seat, frame.reaction)
    elif isinstance(frame, Rematch):
        await hub.vote_rematch(conn.table_id, seat, frame.vote)


_WHAT: dict[type, str] = {
    Act: "act",
    Chat: "chat",
    Hint: "ask for hints",
    React: "react",
    Rematch: "vote a rematch",
}


def _level(level: object, with_bot: bool) -> str:
    """The bot spec of a ``level`` of ``start`` (one of :data:`LEVELS` the server has).

    :raises ServerError: ``malformed`` for another value, or with ``bot`` too.
    """
    from tarneeb.bots.registry import BOTS

    if with_bot:
        raise ServerError(ErrorCode.MALFORMED, "give a bot or a level, not both")
    if not isinstance(level, str) or level not in LEVELS or level not in BOTS:
        known = ", ".join(name for name in LEVELS if name in BOTS) or "none on this server"
        raise ServerError(ErrorCode.MALFORMED, f"a level is one of: {known}")
    return level
