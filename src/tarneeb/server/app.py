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
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tarneeb.errors import TarneebError
from tarneeb.presets import PRESET_SUMMARIES, find_rules
from tarneeb.seats import SEATS, Seat
from tarneeb.server.analysis_pool import analyse_deal_text
from tarneeb.server.hub import Connection, Hub, Settings
from tarneeb.server.limits import TokenBucket
from tarneeb.server.protocol import (
    Act,
    Chat,
    Hello,
    Ping,
    error_frame,
    info_json,
    parse_frame,
    table_json,
)
from tarneeb.server.results import deal_replay as deal_replay_json
from tarneeb.server.results import finished_deals
from tarneeb.server.store import Store, default_db_url
from tarneeb.server.table import (
    ErrorCode,
    ServerError,
    Table,
    TableConfig,
    parse_seat_name,
    seat_name,
)

__all__ = ["create_app"]

_STATUS = {
    ErrorCode.MALFORMED: 400,
    ErrorCode.UNAUTHORIZED: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.CONFLICT: 409,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.INTERNAL: 500,
}
MAX_BODY = 16384
CLOSE_POLICY = 1008
RATE_STRIKES = 10
"""Rate-limited frames in a row after which a connection is closed."""


def _static_dir() -> Path:
    return Path(str(resources.files("tarneeb.server") / "static"))


def _error(exc: ServerError) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": exc.code.value, "message": exc.message}},
        status_code=_STATUS.get(exc.code, 400),
    )


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ServerError(ErrorCode.MALFORMED, f"a request body is at most {MAX_BODY} bytes")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        raise ServerError(ErrorCode.MALFORMED, "the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise ServerError(ErrorCode.MALFORMED, "the body must be a JSON object")
    return data


def _seat_arg(value: object) -> Seat | None:
    return None if value is None else parse_seat_name(value)


def _only(data: dict[str, Any], *keys: str) -> None:
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise ServerError(ErrorCode.MALFORMED, f"unknown field {unknown[0]!r}")


def create_app(settings: Settings | None = None) -> Starlette:
    """The server app; its store opens when the app starts (uvicorn or a test client)."""
    settings = settings or Settings()
    state: dict[str, Hub] = {}

    def hub() -> Hub:
        return state["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = Store(settings.db_url or default_db_url(), settings.db_threads)
        state["hub"] = Hub(store, settings)
        await state["hub"].startup()
        try:
            yield
        finally:
            await state["hub"].shutdown()
            store.close()

    def api(handler: Any) -> Any:
        async def wrapped(request: Request) -> Response:
            try:
                return await handler(request)  # type: ignore[no-any-return]
            except ServerError as exc:
                return _error(exc)
            except TarneebError as exc:
                return _error(ServerError(ErrorCode.MALFORMED, str(exc)))

        return wrapped

    def live_json(table: Table) -> dict[str, Any]:
        live = hub().live.get(table.id)
        return table_json(table, () if live is None else live.connected())

    async def healthz(_request: Request) -> Response:
        health = hub().health()
        return JSONResponse(health, status_code=200 if health["status"] == "ok" else 503)

    @api
    async def info(_request: Request) -> Response:
        from tarneeb.bots.registry import BOTS

        # Loading DDS takes seconds: done once, in a thread, never on the event loop.
        solver = await hub().analyses.solver_available()
        return JSONResponse(info_json(dict(PRESET_SUMMARIES), sorted(BOTS), solver))

    @api
    async def rules(request: Request) -> Response:
        from tarneeb.reference import describe_rules

        name = request.path_params["name"]
        try:
            found = find_rules(name)
        except TarneebError:
            raise ServerError(ErrorCode.NOT_FOUND, f"no preset {name!r}") from None
        return JSONResponse(
            {
                "name": name,
                "summary": PRESET_SUMMARIES.get(name, ""),
                "options": found.to_dict(),
                "reference": describe_rules(found, name),
            }
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
        table, token = await hub().create(config, name, seat, _client(request))
        invites = {
            seat_name(s): f"/t/{table.id}?seat={seat_name(s)}"
            for s in SEATS
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
        table_id = request.path_params["id"]
        result = await hub().result(table_id)
        if result is not None:
            return JSONResponse(result["table"])
        return JSONResponse(await hub().table_json(table_id))

    @api
    async def join(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "name", "seat")
        seat = _seat_arg(data.get("seat"))
        token = await hub().change(table_id, lambda t: t.join(data.get("name"), seat))
        table = (await hub().open(table_id)).table
        taken = table.seat_of_token(token)
        return JSONResponse({"seat": seat_name(taken), "token": token})

    @api
    async def start(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "token", "bot")
        table = (await hub().open(table_id)).table
        table.seat_of_token(data.get("token"))
        bot = data.get("bot", "heuristic")
        if not isinstance(bot, str):
            raise ServerError(ErrorCode.MALFORMED, "bot must be a bot spec")
        await hub().change(table_id, lambda t: t.start(bot))
        return JSONResponse(live_json((await hub().open(table_id)).table))

    @api
    async def leave(request: Request) -> Response:
        table_id = request.path_params["id"]
        data = await _body(request)
        _only(data, "token")
        seat = (await hub().open(table_id)).table.seat_of_token(data.get("token"))
        await hub().change(table_id, lambda t: t.leave(seat))
        return JSONResponse(live_json((await hub().open(table_id)).table))

    async def finished(table_id: str) -> dict[str, Any]:
        """The deals (and record) the API serves of a table: a finished table's stored
        result, or built from the live table (only its finished deals)."""
        result = await hub().result(table_id)
        if result is not None:
            return result
        table = (await hub().open(table_id)).table
        done = finished_deals(table)
        return {
            "deals": {str(i + 1): deal_replay_json(table, i) for i in done},
            "played": [i + 1 for i in done if table.match and table.match.deals[i].tricks],
            "record": None,
        }

    @api
    async def deals(request: Request) -> Response:
        result = await finished(request.path_params["id"])
        summaries = [
            {k: v for k, v in body.items() if k not in ("hands", "actions")}
            for body in result["deals"].values()
        ]
        return JSONResponse({"deals": summaries})

    @api
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
        body = dict(body)
        if request.query_params.get("analysis") in ("1", "true") and number in result["played"]:
            body["analysis"] = await hub().analyses.run(
                (table_id, number), _client(request), analyse_deal_text, body["text"]
            )
        return JSONResponse(body)

    @api
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
        response.headers.update(_page_headers(request.headers.get("host", "")))
        return response

    async def websocket(ws: WebSocket) -> None:
        await _serve_socket(ws, hub(), settings)

    routes = [
        Route("/", page),
        Route("/t/{id}", page),
        Route("/api/info", info),
        Route("/healthz", healthz),
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
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _page_headers(host: str) -> dict[str, str]:
    """Headers that keep the page to itself: its own scripts, and sockets to this server only."""
    sockets = f" ws://{host} wss://{host}" if host and all(c not in host for c in " ;,'") else ""
    return {
        "Content-Security-Policy": (
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
            f"connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; "
            "frame-ancestors 'none'"
        ),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


def _client(request: Request | WebSocket) -> str | None:
    """The address of the client (the peer of the connection) that limits count by."""
    return None if request.client is None else request.client.host


def _origin_ok(ws: WebSocket, settings: Settings) -> bool:
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    if origin in settings.allowed_origins:
        return True
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc == host


async def _serve_socket(ws: WebSocket, hub: Hub, settings: Settings) -> None:
    table_id = ws.path_params["id"]
    if not _origin_ok(ws, settings):
        await ws.close(code=CLOSE_POLICY)
        return
    await ws.accept()

    async def refuse(exc: ServerError, ref: str | None = None, close: bool = False) -> None:
        await ws.send_text(json.dumps(error_frame(exc, ref)))
        if close:
            await ws.close(code=CLOSE_POLICY)

    try:
        live = await hub.open(table_id)
    except ServerError as exc:
        await refuse(exc, close=True)
        return
    bucket = TokenBucket(settings.rate_per_s, settings.rate_burst)
    conn: Connection | None = None
    strikes = 0
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw: str | bytes = message.get("text") or message.get("bytes") or b""
            if not bucket.take():
                strikes += 1
                error = ServerError(ErrorCode.RATE_LIMITED, "too many frames: slow down")
                if conn is None:
                    await refuse(error, close=strikes >= RATE_STRIKES)
                else:
                    conn.push(error_frame(error))
                    if strikes >= RATE_STRIKES:
                        await conn.close()
                        await ws.close(code=CLOSE_POLICY)
                if strikes >= RATE_STRIKES:
                    return
                continue
            strikes = 0
            try:
                frame = parse_frame(raw)
            except ServerError as exc:
                fatal = exc.code is ErrorCode.TOO_LARGE or conn is None
                if conn is None:
                    await refuse(exc, close=fatal)
                else:
                    conn.push(error_frame(exc))
                    if fatal:
                        await conn.close()
                        await ws.close(code=CLOSE_POLICY)
                if fatal:
                    return
                continue
            if conn is None:
                if not isinstance(frame, Hello):
                    await refuse(
                        ServerError(ErrorCode.MALFORMED, "the first frame must be hello"),
                        close=True,
                    )
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
            await _dispatch(hub, conn, frame)
    except WebSocketDisconnect:
        return
    finally:
        if conn is not None:
            await hub.disconnect(conn)


async def _dispatch(hub: Hub, conn: Connection, frame: object) -> None:
    seat = conn.seat
    if isinstance(frame, Ping):
        conn.push({"type": "pong"})
        return
    if isinstance(frame, Hello):
        conn.push(error_frame(ServerError(ErrorCode.MALFORMED, "hello comes once, first")))
        return
    if seat is None:
        what = "act" if isinstance(frame, Act) else "chat"
        conn.push(
            error_frame(
                ServerError(ErrorCode.UNAUTHORIZED, f"spectators cannot {what}: join a seat"),
                frame.ref if isinstance(frame, Act) else None,
            )
        )
        return
    try:
        if isinstance(frame, Act):
            await hub.change(
                conn.table_id,
                lambda t: t.act(seat, frame.version, frame.action, frame.ref),
                (conn, lambda version: {"type": "ack", "id": frame.ref, "version": version}),
            )
        elif isinstance(frame, Chat):
            await hub.chat(conn.table_id, seat, frame.text)
    except ServerError as exc:
        conn.push(error_frame(exc, frame.ref if isinstance(frame, Act) else None))
