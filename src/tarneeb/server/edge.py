"""The HTTP edge of ``tarneeb serve``: limits, headers and errors, before any handler runs.

:class:`EdgeMiddleware` wraps the whole app. For every HTTP request it

* refuses a ``POST`` from another site (``Origin`` or ``Sec-Fetch-Site``)
  with 403, and one whose body is not declared JSON with 415, so a form or a
  ``text/plain`` request of a foreign page cannot create or join tables;
* refuses a body over :data:`MAX_BODY` bytes with 413: at once when
  ``Content-Length`` says so, else as soon as the bytes read pass it (the
  body is never held whole before it is counted);
* refuses a client's requests of the API (``/api/...``) past its rate with 429
  and ``Retry-After`` (a burst, then so many a second: one address asking for
  the lobby in a loop took the server's whole core);
* gives every response the page's security headers (:data:`PAGE_HEADERS`);
* turns anything a handler raises into a 500 with a reference id, the
  details logged under that id (never sent).

Every error a client sees has one shape, built by :func:`.protocol.error_body`
(:func:`.protocol.error_frame` on the WebSocket):
``{"error": {"code": CODE, "message": TEXT, "reference": REF}}``; the same
``reference`` is in the log line of the error. The limits (:data:`MAX_BODY`,
:data:`MAX_DEPTH`) and the reading of a client's JSON (:func:`loads`) are the
wire schema's (:mod:`tarneeb.server.wire`), re-exported here.

>>> status_of(ServerError(ErrorCode.TOO_LARGE, "too big"))
413
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette import responses
from starlette.websockets import WebSocket

from tarneeb.server.limits import Buckets
from tarneeb.server.protocol import error_body, new_reference
from tarneeb.server.wire import MAX_BODY, MAX_DEPTH, ErrorCode, ServerError, check_depth, loads

__all__ = [
    "MAX_BODY",
    "MAX_DEPTH",
    "PAGE_HEADERS",
    "EdgeMiddleware",
    "JSONResponse",
    "check_depth",
    "deny_socket",
    "error_body",
    "loads",
    "public_error",
    "status_of",
]

log = logging.getLogger("tarneeb.server")

PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
"""Headers of every response: the page runs its own scripts only, and talks to this server
only (``connect-src 'self'`` covers its WebSocket, in the page's own scheme, host and port)."""

_STATUS = {
    ErrorCode.MALFORMED: 400,
    ErrorCode.UNAUTHORIZED: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.CONFLICT: 409,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.INTERNAL: 500,
}
INTERNAL_MESSAGE = "the server failed; nothing changed (quote the reference when you report it)"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class JSONResponse(responses.JSONResponse):
    """Starlette's JSON response, which cannot fail to encode: text that is not valid
    Unicode (a lone surrogate) is written as a JSON escape instead of failing."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")


# -- errors out ------------------------------------------------------------------------------


def public_error(exc: BaseException, where: str) -> ServerError:
    """What a client may hear of ``exc`` (raised while serving ``where``): a code, a
    message and a reference id. An ``internal`` error or any exception that is not a
    :class:`ServerError` is logged with its details under that id, and told as
    :data:`INTERNAL_MESSAGE` only."""
    reference = new_reference()
    if isinstance(exc, ServerError) and exc.code is not ErrorCode.INTERNAL:
        log.debug("refused %s [%s]: %s %s", where, reference, exc.code.value, exc.message)
        extra = {k: v for k, v in exc.extra.items() if k != "reference"}
        return ServerError(exc.code, exc.message, **extra, reference=reference)
    detail = exc.message if isinstance(exc, ServerError) else repr(exc)
    log.error(
        "internal error [%s] in %s: %s",
        reference,
        where,
        detail,
        exc_info=None if isinstance(exc, ServerError) else exc,
    )
    return ServerError(ErrorCode.INTERNAL, INTERNAL_MESSAGE, reference=reference)


def status_of(error: ServerError) -> int:
    return _STATUS.get(error.code, 400)


def error_response(exc: BaseException, where: str, status: int | None = None) -> JSONResponse:
    """The HTTP answer to ``exc``, as :func:`public_error` tells it."""
    error = public_error(exc, where)
    return JSONResponse(error_body(error), status_code=status or status_of(error))


HOLD_REFUSED = 1.0
"""Seconds a request or socket refused for its client's rate waits for its answer (its
``Retry-After``): a client asking in a loop asks no faster than that on each connection,
where answering at once let it spin, the server's whole core spent refusing it."""


async def deny_socket(ws: WebSocket, exc: BaseException, where: str) -> None:
    """Refuse a WebSocket at its handshake, before it is accepted or anything is read for
    it: ``exc`` as an HTTP answer (429 for ``rate_limited``, after :data:`HOLD_REFUSED`)
    where the server can send one, else a bare refusal (403)."""
    if isinstance(exc, ServerError) and exc.code is ErrorCode.RATE_LIMITED:
        await asyncio.sleep(HOLD_REFUSED)
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        await ws.send_denial_response(error_response(exc, where))
    else:
        public_error(exc, where)  # logged all the same
        await ws.close()


# -- the middleware --------------------------------------------------------------------------


class BodyTooLarge(ServerError):
    """The request body went past :data:`MAX_BODY` while it was read."""

    def __init__(self, limit: int) -> None:
        super().__init__(ErrorCode.TOO_LARGE, f"a request body is at most {limit} bytes")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a request from page ``origin`` may change things on the server at ``host``.

    >>> origin_allowed("http://localhost:8000", "localhost:8000", ())
    True
    >>> origin_allowed("https://evil.example", "localhost:8000", ())
    False
    >>> origin_allowed(None, "localhost:8000", ())  # not a browser, or a same-origin GET
    True
    """
    if origin is None:
        return True
    if origin in allowed:
        return True
    return host is not None and urlsplit(origin).netloc == host


class EdgeMiddleware:
    """The checks and headers of every HTTP request (see the module docs)."""

    def __init__(
        self,
        app: ASGIApp,
        allowed_origins: tuple[str, ...] = (),
        max_body: int = MAX_BODY,
        api_rate: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        """``api_rate``: the requests of the API one client may make a second, and at
        once (a rate of 0: no limit)."""
        self.app = app
        self.allowed_origins = tuple(allowed_origins)
        self.max_body = max_body
        per_second, burst = api_rate
        self.api_requests: Buckets[str] | None = (
            Buckets(per_second, max(1.0, burst)) if per_second > 0 else None
        )

    def refusal(self, scope: Scope) -> tuple[ServerError, int] | None:
        """Why a request is refused before it reaches its handler, with the HTTP status."""
        method = scope.get("method", "GET")
        client = scope.get("client")
        if (
            self.api_requests is not None
            and client
            and str(scope.get("path", "")).startswith("/api/")
            and not self.api_requests.take(str(client[0]))
        ):
            return ServerError(
                ErrorCode.RATE_LIMITED,
                "too many requests from one client: wait a moment and try again",
            ), 429
        if method not in ("GET", "HEAD", "OPTIONS"):
            origin = _header(scope, b"origin")
            fetch_site = _header(scope, b"sec-fetch-site")
            foreign = fetch_site in ("cross-site", "same-site") and origin not in (
                self.allowed_origins
            )
            if foreign or not origin_allowed(origin, _header(scope, b"host"), self.allowed_origins):
                return ServerError(
                    ErrorCode.UNAUTHORIZED,
                    "requests from other sites are refused: use this server's own page",
                ), 403
            kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if method in ("POST", "PUT", "PATCH") and kind != "application/json":
                return ServerError(
                    ErrorCode.MALFORMED,
                    "a request body is JSON: send it with Content-Type: application/json",
                ), 415
        length = _header(scope, b"content-length")
        if length is not None and length.strip().isdigit() and int(length) > self.max_body:
            return BodyTooLarge(self.max_body), 413
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        where = f"{scope.get('method', '')} {scope.get('path', '')}"
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                present = {bytes(k).lower() for k, _ in headers}
                for key, value in PAGE_HEADERS.items():
                    name = key.lower().encode("latin-1")
                    if name not in present:
                        headers.append((name, value.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        refused = self.refusal(scope)
        if refused is not None:
            error, status = refused
            answer = error_response(error, where, status)
            if status == 429:  # held as long as it is told to wait: a loop asks no faster
                answer.headers["Retry-After"] = f"{HOLD_REFUSED:g}"
                await asyncio.sleep(HOLD_REFUSED)
            await answer(scope, receive, send_with_headers)
            return
        read = 0

        async def counted_receive() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.max_body:
                    raise BodyTooLarge(self.max_body)
            return message

        try:
            await self.app(scope, counted_receive, send_with_headers)
        except Exception as exc:
            if started:
                log.error("error in %s after the answer began", where, exc_info=exc)
                return
            await error_response(exc, where)(scope, receive, send_with_headers)
