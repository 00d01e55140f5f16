"""The ASGI app of ``tarneeb serve``: the JSON API, the WebSocket, and the browser client.

>>> from starlette.testclient import TestClient
>>> app = create_app(Settings(db_url="sqlite://", bot_delay=0))
>>> with TestClient(app) as client:
...     client.get("/api/info").json()["protocol"]
1
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
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
from tarneeb.record import format_deal, match_to_record
from tarneeb.seats import SEATS, Seat
from tarneeb.server.edge import (
    MAX_BODY,
    EdgeMiddleware,
    JSONResponse,
    check_depth,
    error_body,
    error_response,
    loads,
    origin_allowed,
    public_error,
)
from tarneeb.server.fairness import commitment
from tarneeb.server.hub import Connection, Hub, Settings
from tarneeb.server.metrics import CONTENT_TYPE_LATEST, BindMetrics, Metrics, readiness
from tarneeb.server.protocol import (
    MAX_FRAME,
    Act,
    Chat,
    Hello,
    Ping,
    contract_json,
    error_frame,
    info_json,
    parse_frame,
    result_json,
    table_json,
)
from tarneeb.server.store import Store, default_db_url
from tarneeb.server.table import (
    MAX_ACTION_ID,
    ErrorCode,
    ServerError,
    Table,
    TableConfig,
    parse_seat_name,
    seat_name,
)

__all__ = ["create_app"]

log = logging.getLogger("tarneeb.server")
CLOSE_POLICY = 1008
CLOSE_ERROR = 1011
RATE_STRIKES = 10
"""Rate-limited frames in a row after which a connection is closed."""


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


def create_app(settings: Settings | None = None, *, metrics_route: bool = True) -> Starlette:
    """The server app; its store opens when the app starts (uvicorn or a test client).

    Its metrics are ``app.state.metrics`` (:class:`Metrics`), served at ``/metrics``
    unless ``metrics_route`` is false.
    """
    settings = settings or Settings()
    state: dict[str, Hub] = {}
    metrics = Metrics(lambda: state.get("hub"))

    def hub() -> Hub:
        return state["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = Store(settings.db_url or default_db_url())
        metrics.watch_store(store)
        state["hub"] = Hub(store, settings)
        _app.state.hub = state["hub"]
        await state["hub"].startup()
        try:
            yield
        finally:
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

    def live_json(table: Table) -> dict[str, Any]:
        return table_json(table, hub().get(table.id).connected())

    @api
    async def info(_request: Request) -> Response:
        from tarneeb.bots.registry import BOTS
        from tarneeb.solver import dds

        solver = dds.available()
        return JSONResponse(info_json(dict(PRESET_SUMMARIES), sorted(BOTS), solver))

    @api
    async def rules(request: Request) -> Response:
        from tarneeb.i18n import RIGHT_TO_LEFT, accept_language, find_language
        from tarneeb.reference import describe_rules
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
            {
                "name": name,
                "lang": lang,
                "dir": "rtl" if lang in RIGHT_TO_LEFT else "ltr",
                "summary": preset_summary(name.strip().lower(), found, lang),
                "options": found.to_dict(),
                "reference": describe_rules(found, name, lang),
            },
            headers={"Content-Language": lang, "Vary": "Accept-Language"},
        )

    @api
    async def list_tables(_request: Request) -> Response:
        return JSONResponse({"tables": [live_json(t) for t in hub().tables()]})

    @api
    async def create(request: Request) -> Response:
        data = await _body(request)
        seat = _seat_arg(data.pop("seat", None)) or Seat.SOUTH
        name = data.pop("name", None)
        config = TableConfig.from_dict(data)
        table, token = hub().create(config, name, seat)
        log.info("table created", extra={"table": table.id, "rules": config.rules_name})
        invites = {
            seat_name(s): f"/t/{table.id}?seat={seat_name(s)}&invite={secret}"
            for s, secret in table.new_invites.items()
            if not table.seats[s].taken
        }
        return JSONResponse(
            {
                "table": table.id,
                "seat": seat_name(seat),
                "token": token,
                "invites": invites,
                "spectate": f"/t/{table.id}",
                "state": live_json(table),
            },
            status_code=201,
        )

    @api
    async def get_table(request: Request) -> Response:
        return JSONResponse(live_json(hub().get(request.path_params["id"]).table))

    @api
    async def join(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "name", "seat", "invite")
        seat = _seat_arg(data.get("seat"))
        invite = data.get("invite")
        token = await hub().change(table_id, lambda t: t.join(data.get("name"), seat, invite))
        table = hub().get(table_id).table
        taken = table.seat_of_token(token)
        return JSONResponse({"seat": seat_name(taken), "token": token})

    @api
    async def start(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "token", "bot")
        table = hub().get(table_id).table
        table.seat_of_token(data.get("token"))
        bot = data.get("bot", "heuristic")
        if not isinstance(bot, str):
            raise ServerError(ErrorCode.MALFORMED, "bot must be a bot spec")
        await hub().change(table_id, lambda t: t.start(bot))
        return JSONResponse(live_json(hub().get(table_id).table))

    @api
    async def leave(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "token")
        seat = hub().get(table_id).table.seat_of_token(data.get("token"))
        await hub().change(table_id, lambda t: t.leave(seat))
        return JSONResponse(live_json(hub().get(table_id).table))

    def finished_deals(table: Table) -> list[int]:
        match = table.match
        if match is None:
            return []
        return [i for i, deal in enumerate(match.deals) if deal.is_over()]

    def deal_summary(table: Table, index: int) -> dict[str, Any]:
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

    @api
    async def deals(request: Request) -> Response:
        table = hub().get(request.path_params["id"]).table
        return JSONResponse({"deals": [deal_summary(table, i) for i in finished_deals(table)]})

    @api
    async def deal_replay(request: Request) -> Response:
        table = hub().get(request.path_params["id"]).table
        try:
            number = int(request.path_params["number"])
        except ValueError:
            raise ServerError(ErrorCode.MALFORMED, "a deal number is a whole number") from None
        if number - 1 not in finished_deals(table):
            raise ServerError(ErrorCode.NOT_FOUND, f"no finished deal {number} at this table")
        assert table.match is not None
        deal = table.match.deals[number - 1]
        from tarneeb.actions import format_action
        from tarneeb.cards import CardSet

        body = deal_summary(table, number - 1)
        body["hands"] = {seat_name(s): [str(c) for c in CardSet(deal.dealt[s])] for s in SEATS}
        body["actions"] = [[seat_name(s), format_action(a)] for s, a in deal.history]
        if request.query_params.get("analysis") in ("1", "true") and deal.tricks:
            metrics.analysis_requests.inc()
            body["analysis"] = _analysis(deal)
        return JSONResponse(body)

    @api
    async def record(request: Request) -> Response:
        table = hub().get(request.path_params["id"]).table
        if table.match is None or not table.match.is_over():
            raise ServerError(ErrorCode.CONFLICT, "the record is ready once the match is over")
        players = {seat_name(s): table.name_of(s) for s in SEATS}
        return JSONResponse(
            match_to_record(table.match, players),
            headers={"Content-Disposition": f'attachment; filename="tarneeb-{table.id}.json"'},
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
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    async def readyz(_request: Request) -> Response:
        ready, body = await readiness(hub().store, hub())
        headers = {"Cache-Control": "no-store"}
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
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{id}", get_table),
        Route("/api/tables/{id}/join", join, methods=["POST"]),
        Route("/api/tables/{id}/start", start, methods=["POST"]),
        Route("/api/tables/{id}/leave", leave, methods=["POST"]),
        Route("/api/tables/{id}/deals", deals),
        Route("/api/tables/{id}/deals/{number}", deal_replay),
        Route("/api/tables/{id}/record", record),
        WebSocketRoute("/ws/{id}", websocket),
        Mount("/static", StaticFiles(directory=_static_dir(), check_dir=False), name="static"),
        *outside,
    ]
    templates = {route.endpoint: route.path for route in routes if isinstance(route, Route)}
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(BindMetrics, metrics=metrics, routes=templates),
            Middleware(EdgeMiddleware, allowed_origins=settings.allowed_origins),
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


def _analysis(deal: Any) -> Any:
    """The double-dummy analysis of a played deal (as ``tarneeb analyze --json``), if it runs."""
    from tarneeb.solver import dds
    from tarneeb.solver.analysis import analyze_deal

    if not dds.available():  # our own solver takes too long on whole deals for a page
        return None
    try:
        return {"backend": "dds", **analyze_deal(deal, backend="dds").to_dict()}
    except TarneebError:
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


class _Bucket:
    """A token bucket: ``rate`` frames a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


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
    await ws.accept()
    conn: Connection | None = None

    def frame_of(exc: BaseException, act_id: str | None = None) -> dict[str, Any]:
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

    bucket = _Bucket(settings.rate_per_s, settings.rate_burst)
    strikes = 0
    try:
        try:
            live = hub.get(table_id)
        except ServerError as exc:
            await refuse(exc, close=True)
            return
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw: str | bytes = message.get("text") or message.get("bytes") or b""
            if not bucket.take():
                strikes += 1
                error = ServerError(ErrorCode.RATE_LIMITED, "too many frames: slow down")
                await refuse(error, _act_id(raw), close=strikes >= RATE_STRIKES)
                if strikes >= RATE_STRIKES:
                    return
                continue
            strikes = 0
            try:
                if len(raw) <= MAX_FRAME:  # a longer one is refused as too_large, unread
                    check_depth(raw)
                frame = parse_frame(raw)
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
                seat: Seat | None = None
                if frame.token is not None:
                    try:
                        seat = live.table.seat_of_token(frame.token)
                    except ServerError as exc:
                        await refuse(exc, close=True)
                        return
                conn = Connection(table_id, seat, ws.send_text, lambda code: ws.close(code=code))
                conn.start()
                await hub.connect(conn, frame.since)
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
        conn.push({"type": "pong"})
        return
    if isinstance(frame, Hello):
        raise ServerError(ErrorCode.MALFORMED, "hello comes once, first")
    if seat is None:
        what = "act" if isinstance(frame, Act) else "chat"
        raise ServerError(ErrorCode.UNAUTHORIZED, f"spectators cannot {what}: join a seat")
    if isinstance(frame, Act):
        await hub.change(
            conn.table_id,
            lambda t: t.act(seat, frame.version, frame.action, frame.ref),
            (conn, lambda version: {"type": "ack", "id": frame.ref, "version": version}),
        )
    elif isinstance(frame, Chat):
        await hub.change(conn.table_id, lambda t: t.chat(seat, frame.text))
