"""The HTTP API of players: ``/api/players/...`` (docs/server.md lists it).

Every answer is JSON; every refusal the server's error body
(``{"error": {"code", "message", "reference"}}``). State-changing requests are
``POST`` with a JSON body, which the edge (:class:`~tarneeb.server.edge.EdgeMiddleware`)
refuses from any other site's page (``Origin``, ``Sec-Fetch-Site``), so a
foreign page cannot use a signed-in player's cookie; the cookie itself is
``HttpOnly`` and ``SameSite=Lax`` (and ``Secure`` over https).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tarneeb.errors import TarneebError
from tarneeb.server.edge import JSONResponse, error_response, loads
from tarneeb.server.limits import Buckets
from tarneeb.server.players import history, ratings
from tarneeb.server.players.accounts import Player
from tarneeb.server.players.names import name_key
from tarneeb.server.players.service import COOKIE, SESSION_DAYS, Players
from tarneeb.server.table import ErrorCode, ServerError, parse_seat_name, seat_name
from tarneeb.server.wire import (
    MAX_BODY,
    MAX_CLAIMS,
    MAX_TOKEN,
    ClaimedBody,
    ClaimRequest,
    EmptyRequest,
    Family,
    LeaderboardBody,
    MeBody,
    PlayerJson,
    QueueBotsRequest,
    QueueIdleBody,
    QueueJoinRequest,
    RatedCreatedBody,
    RatedJoinedBody,
    RatedJoinRequest,
    RatedTableRequest,
    RatedTablesBody,
    RecoveredBody,
    RecoverRequest,
    SignedInBody,
    SignedOutBody,
    SignedUpBody,
    SignInRequest,
    SignUpRequest,
)

__all__ = ["player_routes"]

Handler = Callable[[Request], Awaitable[Response]]


def _players(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


def _client(request: Request) -> str:
    return "-" if request.client is None else request.client.host


def _api(handler: Handler) -> Handler:
    async def wrapped(request: Request) -> Response:
        where = f"{request.method} {request.url.path}"
        try:
            return await handler(request)
        except ServerError as exc:
            return error_response(exc, where)
        except TarneebError as exc:
            return error_response(ServerError(ErrorCode.MALFORMED, str(exc)), where)
        except Exception as exc:  # logged under a reference; the client hears only that
            return error_response(exc, where)

    return wrapped


async def _body(request: Request, shape: type[Mapping[str, Any]]) -> dict[str, Any]:
    """The JSON object of a request, with no field but those of ``shape`` (a request
    TypedDict of the wire schema); their values are each route's to check."""
    raw = await request.body()  # the edge has bounded it to MAX_BODY bytes
    if len(raw) > MAX_BODY:
        raise ServerError(ErrorCode.TOO_LARGE, f"a request body is at most {MAX_BODY} bytes")
    data = loads(raw) if raw.strip() else {}
    if not isinstance(data, dict):
        raise ServerError(ErrorCode.MALFORMED, "the body must be a JSON object")
    keys: frozenset[str] = shape.__required_keys__ | shape.__optional_keys__  # type: ignore[attr-defined]
    unknown = sorted(set(data) - keys)
    if unknown:
        raise ServerError(ErrorCode.MALFORMED, f"unknown field {unknown[0]!r}")
    return data


def _player_json(player: Player) -> PlayerJson:
    return PlayerJson(name=player.name)


def _signed_in(
    request: Request,
    body: SignedUpBody | SignedInBody | RecoveredBody,
    token: str,
    status: int = 200,
) -> Response:
    """An answer that sets the session cookie."""
    response = JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
    settings = _players(request).hub.settings
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure or request.url.scheme == "https",
    )
    return response


def _limit(players: Players, request: Request, name: object) -> None:
    """The sign-in limits: per name (any spelling) and per client address.

    :raises ServerError: ``rate_limited`` past either.
    """
    key = name_key(name)[:64] if isinstance(name, str) else ""
    if not players.logins_by_client.take(_client(request)) or not players.logins_by_name.take(key):
        raise ServerError(
            ErrorCode.RATE_LIMITED, "too many attempts to sign in: wait a minute and try again"
        )


def _throttle(buckets: Buckets[str], key: str, what: str) -> None:
    """:raises ServerError: ``rate_limited`` once ``key`` (a client address, an account) took
    its share of ``buckets``; ``what`` names the requests in the message."""
    if not buckets.take(key):
        raise ServerError(ErrorCode.RATE_LIMITED, f"too many {what}: wait a minute and try again")


async def _acting(request: Request, claims: bool = False) -> Player:
    """The signed-in player of a request that changes something, within the limits of such
    requests per client address (first: a guest's requests count too), then per account;
    ``claims``: the tighter limits of claims, which try seat tokens (as sign-in tries
    passwords).

    :raises ServerError: ``rate_limited`` past either; ``unauthorized`` for a guest.
    """
    players = _players(request)
    if claims:
        by_client, by_player = players.claims_by_client, players.claims_by_player
        what = "claims of seats"
    else:
        by_client, by_player = players.actions_by_client, players.actions_by_player
        what = "requests"
    _throttle(by_client, _client(request), what)
    player = await players.require(request)
    _throttle(by_player, player.id, what)
    return player


async def _claim(players: Players, player: Player, seats: object) -> int:
    """Make the seats that ``seats`` (``[{"table", "token"}]``, a browser's guest seats) prove
    the player's; how many became theirs."""
    if seats is None:
        return 0
    if not isinstance(seats, list) or len(seats) > MAX_CLAIMS:
        raise ServerError(
            ErrorCode.MALFORMED, f"seats are a list of at most {MAX_CLAIMS} {{table, token}}"
        )
    proved: list[tuple[str, str]] = []
    for item in seats:
        if not isinstance(item, dict) or not isinstance(item.get("table"), str):
            raise ServerError(ErrorCode.MALFORMED, "a seat is {table, token}")
        token = item.get("token")
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
            continue
        try:
            table = (await players.hub.open(item["table"])).table
            proved.append((table.id, seat_name(table.seat_of_token(token))))
        except ServerError:
            continue  # no such table any more, or a token of no seat: nothing to claim
    return await players.accounts.own_seats(player, proved)


@_api
async def sign_up(request: Request) -> Response:
    players = _players(request)
    data = await _body(request, SignUpRequest)
    if not players.signups_by_client.take(_client(request)):
        raise ServerError(ErrorCode.RATE_LIMITED, "too many new accounts from here: try later")
    player, code = await players.accounts.sign_up(data.get("name"), data.get("password"))
    claimed = await _claim(players, player, data.get("seats"))
    token = await players.accounts.open_session(player)
    body = SignedUpBody(player=_player_json(player), recovery_code=code, claimed=claimed)
    return _signed_in(request, body, token, 201)


@_api
async def sign_in(request: Request) -> Response:
    players = _players(request)
    data = await _body(request, SignInRequest)
    _limit(players, request, data.get("name"))
    player = await players.accounts.check(data.get("name"), data.get("password"))
    claimed = await _claim(players, player, data.get("seats"))
    token = await players.accounts.open_session(player)
    return _signed_in(request, SignedInBody(player=_player_json(player), claimed=claimed), token)


@_api
async def sign_out(request: Request) -> Response:
    players = _players(request)
    await _body(request, EmptyRequest)
    _throttle(players.actions_by_client, _client(request), "requests")
    token = request.cookies.get(COOKIE)
    if not token or not await players.accounts.close_session(token):
        raise ServerError(ErrorCode.UNAUTHORIZED, "this session is signed out already")
    response = JSONResponse(SignedOutBody(signed_out=True), headers={"Cache-Control": "no-store"})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


@_api
async def recover(request: Request) -> Response:
    players = _players(request)
    data = await _body(request, RecoverRequest)
    _limit(players, request, data.get("name"))
    player, code = await players.accounts.recover(
        data.get("name"), data.get("code"), data.get("password")
    )
    token = await players.accounts.open_session(player)
    return _signed_in(
        request, RecoveredBody(player=_player_json(player), recovery_code=code), token
    )


@_api
async def me(request: Request) -> Response:
    players = _players(request)
    player, revoked = await players.session_of(request)
    if revoked:
        raise ServerError(ErrorCode.UNAUTHORIZED, "this session is signed out: sign in again")
    body = MeBody(player=None if player is None else _player_json(player))
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@_api
async def claim(request: Request) -> Response:
    players = _players(request)
    data = await _body(request, ClaimRequest)
    player = await _acting(request, claims=True)
    return JSONResponse(ClaimedBody(claimed=await _claim(players, player, data.get("seats"))))


@_api
async def profile(request: Request) -> Response:
    body = await history.profile(_players(request), request.path_params["name"])
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@_api
async def leaderboard(request: Request) -> Response:
    players = _players(request)
    family = ratings.parse_family(request.query_params.get("family", "partnership"))
    rows = await players.store.run(ratings.leaderboard, players.store.engine, family)
    body = LeaderboardBody(family=family, families=list(Family), players=rows)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@_api
async def rated_tables(request: Request) -> Response:
    return JSONResponse(RatedTablesBody(tables=await _players(request).open_rated()))


@_api
async def create_rated(request: Request) -> Response:
    players = _players(request)
    data = await _body(request, RatedTableRequest)
    player = await _acting(request)
    table, token = await players.create_rated(player, data, request.client and request.client.host)
    body = RatedCreatedBody(table=table.id, seat="south", token=token, rated=True)
    return JSONResponse(body, status_code=201)


@_api
async def join_rated(request: Request) -> Response:
    players = _players(request)
    data = await _body(request, RatedJoinRequest)
    player = await _acting(request)
    seat = None if data.get("seat") is None else parse_seat_name(data["seat"])
    taken, token = await players.join_rated(player, request.path_params["id"], seat)
    return JSONResponse(RatedJoinedBody(seat=seat_name(taken), token=token))


@_api
async def queue_status(request: Request) -> Response:
    players = _players(request)
    player = await players.require(request)
    return JSONResponse(await players.queue_status(player), headers={"Cache-Control": "no-store"})


@_api
async def queue_join(request: Request) -> Response:
    players = _players(request)
    data = await _body(request, QueueJoinRequest)
    player = await _acting(request)
    await players.join_queue(player, data.get("rules", "classic"))
    return JSONResponse(await players.queue_status(player))


@_api
async def queue_leave(request: Request) -> Response:
    players = _players(request)
    await _body(request, EmptyRequest)
    player = await _acting(request)
    players.leave_queue(player)
    return JSONResponse(QueueIdleBody(state="idle"))


@_api
async def queue_bots(request: Request) -> Response:
    players = _players(request)
    data = await _body(request, QueueBotsRequest)
    player = await _acting(request)
    bot = data.get("bot", players.hub.settings.timer_bot)
    if not isinstance(bot, str):
        raise ServerError(ErrorCode.MALFORMED, "bot must be a bot spec")
    await players.accept_bots(player, bot)
    return JSONResponse(await players.queue_status(player))


def player_routes() -> list[Route]:
    """The routes of the players' API, to mount in the app."""
    return [
        Route("/api/players/signup", sign_up, methods=["POST"]),
        Route("/api/players/login", sign_in, methods=["POST"]),
        Route("/api/players/logout", sign_out, methods=["POST"]),
        Route("/api/players/recover", recover, methods=["POST"]),
        Route("/api/players/me", me, methods=["GET"]),
        Route("/api/players/claim", claim, methods=["POST"]),
        Route("/api/players/profile/{name}", profile, methods=["GET"]),
        Route("/api/players/leaderboard", leaderboard, methods=["GET"]),
        Route("/api/players/tables", rated_tables, methods=["GET"]),
        Route("/api/players/tables", create_rated, methods=["POST"]),
        Route("/api/players/tables/{id}/join", join_rated, methods=["POST"]),
        Route("/api/players/queue", queue_status, methods=["GET"]),
        Route("/api/players/queue/join", queue_join, methods=["POST"]),
        Route("/api/players/queue/leave", queue_leave, methods=["POST"]),
        Route("/api/players/queue/bots", queue_bots, methods=["POST"]),
    ]
