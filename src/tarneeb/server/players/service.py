"""The players of one server: who a request is, rated tables, their results, the ranked queue.

:class:`Players` lives beside the :class:`~tarneeb.server.hub.Hub` (as
``app.state.players``). It watches the hub's committed events: when a rated
table's match ends, or a player of it is taken over by a bot (they left and
did not come back within the table's ``takeover_seconds``), the match is
decided and rated at once (:func:`.ratings.record_result`): a leaver's side
loses it. A decision is stored with the rating in one transaction keyed by
the table, so a server killed before it rates finds the table undecided at
its next start and rates it then, once.

A **rated table** is private and keeps every free seat for an invite whose
secret nobody is given: its seats are taken only through
``/api/players/tables/{id}/join`` by a signed-in player (each seat then the
account's), and it never starts with bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from starlette.requests import HTTPConnection

from tarneeb.seats import SEATS, Seat, Team
from tarneeb.server.limits import Buckets
from tarneeb.server.players import ratings, schema
from tarneeb.server.players.accounts import SESSION_DAYS, Accounts, Player, now
from tarneeb.server.players.queue import RankedQueue, Waiting, partnerships
from tarneeb.server.players.ratings import Family, family_of
from tarneeb.server.table import (
    ErrorCode,
    Event,
    ServerError,
    Table,
    TableConfig,
    parse_seat_name,
    seat_name,
)
from tarneeb.server.wire import (
    EventKind,
    QueueBody,
    QueueIdleBody,
    QueueSeatedBody,
    QueueWaitingBody,
    RatedSeatJson,
    RatedTableJson,
    SeatKind,
)

if TYPE_CHECKING:
    from tarneeb.server.hub import Hub

__all__ = ["COOKIE", "SESSION_DAYS", "Players", "Seated"]

log = logging.getLogger("tarneeb.server.players")

COOKIE = "tarneeb_session"
ACTIONS_PER_MINUTE = 30.0
"""The other changes a signed-in player may ask for a minute (joining a rated table, the
queue, its bots, signing out); four times as many from one client address."""
RATED_SETTINGS = ("rules", "options", "turn_seconds")
"""What the host of a rated table chooses; the rest is the rated table's own."""


@dataclass(frozen=True)
class Seated:
    """Where the ranked queue seated a player (told by the queue's status until they leave)."""

    table: str
    seat: Seat
    token: str
    rated: bool


def decision(table: Table) -> tuple[int, str, Seat | None] | None:
    """How a rated table's match is decided, once it is: the winning team's index, why
    (``match`` or ``left``) and the leaver's seat; ``None`` while it is not."""
    for event in table.events:
        if event.kind is EventKind.TAKEOVER:
            leaver = parse_seat_name(event.data["seat"])
            return int(Team(leaver % 2).other), "left", leaver
    match = table.match
    if match is not None and match.is_over() and match.winner is not None:
        return int(match.winner), "match", None
    return None


class Players:
    """Accounts, sessions, rated tables and the ranked queue of a running server."""

    def __init__(self, hub: Hub, clock: Callable[[], float] = time.monotonic) -> None:
        settings = hub.settings
        self.hub = hub
        self.store = hub.store
        self.accounts = Accounts(hub.store)
        self.queue = RankedQueue(settings.ranked_bot_wait, clock=clock)
        self.seated: dict[str, Seated] = {}
        self.rated: dict[str, Family] = {}
        """The open rated tables (their matches not decided yet), by id."""
        per_name = max(0.0, settings.logins_per_minute)
        self.logins_by_name: Buckets[str] = Buckets(per_name / 60, max(1.0, per_name), clock)
        self.logins_by_client: Buckets[str] = Buckets(
            4 * per_name / 60, max(1.0, 4 * per_name), clock
        )
        self.signups_by_client: Buckets[str] = Buckets(10 / 3600, 10.0, clock)
        # A claim tries seat tokens: limited as sign-in is, per player and per client.
        self.claims_by_player: Buckets[str] = Buckets(per_name / 60, max(1.0, per_name), clock)
        self.claims_by_client: Buckets[str] = Buckets(
            4 * per_name / 60, max(1.0, 4 * per_name), clock
        )
        per_action = ACTIONS_PER_MINUTE
        self.actions_by_player: Buckets[str] = Buckets(per_action / 60, per_action, clock)
        self.actions_by_client: Buckets[str] = Buckets(4 * per_action / 60, 4 * per_action, clock)
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- life -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Create the tables the database lacks, watch the hub, and rate what a killed
        server left undecided."""
        await self.store.run(schema.create_schema, self.store.engine)
        for table_id, family in await self.store.run(self._open_rated):
            self.rated[table_id] = Family(family)
        self.hub.watchers.append(self._watch)
        for table_id in list(self.rated):
            with contextlib.suppress(ServerError):
                await self.settle(table_id)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        async def logged() -> None:
            try:
                await work
            except Exception as exc:  # the table stays open: the next start rates it
                log.error("rating a table failed: %r", exc, exc_info=exc)

        task = asyncio.get_running_loop().create_task(logged())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _open_rated(self) -> list[tuple[str, str]]:
        table = schema.rated_tables
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(table.c.table_id, table.c.family).where(table.c.state == "open")
            ).all()
        return [(row.table_id, row.family) for row in rows]

    async def rated_family(self, table_id: str) -> Family | None:
        """The ladder of ``table_id`` if it is a rated table still to be rated. A worker of
        many learns here of a rated table another worker made and this one adopted."""
        if table_id in self.rated:
            return self.rated[table_id]
        table = schema.rated_tables

        def read() -> str | None:
            with self.store.engine.connect() as conn:
                found: str | None = conn.execute(
                    sa.select(table.c.family).where(
                        table.c.table_id == table_id, table.c.state == "open"
                    )
                ).scalar()
            return found

        family = await self.store.run(read)
        if family is None:
            return None
        self.rated[table_id] = Family(family)
        return self.rated[table_id]

    # -- who is asking ----------------------------------------------------------------------

    async def session_of(self, conn: HTTPConnection) -> tuple[Player | None, bool]:
        """The player a request's (or WebSocket's) session cookie signs in, and whether the
        cookie is of a session signed out."""
        token = conn.cookies.get(COOKIE)
        if not token:
            return None, False
        return await self.accounts.session(token)

    async def player_of(self, conn: HTTPConnection) -> Player | None:
        """The signed-in player of a request or WebSocket, ``None`` for a guest."""
        return (await self.session_of(conn))[0]

    async def require(self, conn: HTTPConnection) -> Player:
        """:raises ServerError: ``unauthorized`` for a guest or a signed-out session."""
        player, revoked = await self.session_of(conn)
        if player is None:
            raise ServerError(
                ErrorCode.UNAUTHORIZED,
                "this session is signed out: sign in again"
                if revoked
                else "sign in first: this needs an account",
            )
        return player

    # -- rated tables -------------------------------------------------------------------------

    async def check_start(self, table_id: str) -> None:
        """Refuse to fill a rated table with bots, or to make invites of its seats (its
        seats are taken by signed-in players only, through :meth:`join_rated`).

        :raises ServerError: ``conflict`` for a rated table.
        """
        if await self.rated_family(table_id) is not None:
            raise ServerError(
                ErrorCode.CONFLICT,
                "a rated table is played by four signed-in players: no bots, no invites",
            )

    async def create_rated(
        self, player: Player, data: dict[str, Any], client: str | None
    ) -> tuple[Table, str]:
        """A rated table with ``player`` in South, the host's choice of rules in ``data``.

        :raises ServerError: ``malformed`` for a bad set-up or any bot seat.
        """
        no_bots = ServerError(
            ErrorCode.MALFORMED, "a rated table seats four signed-in players: no bots"
        )
        seats = data.get("seats") or {}
        if isinstance(seats, Mapping) and any(str(k).startswith("bot") for k in seats.values()):
            raise no_bots
        unknown = sorted(set(data) - {*RATED_SETTINGS, "seats"})
        if unknown:
            raise ServerError(ErrorCode.MALFORMED, f"unknown rated table setting {unknown[0]!r}")
        # The seats are read as any table's are (seat names, kinds): "human" is all they say.
        config = TableConfig.from_dict(
            {k: v for k, v in data.items() if k in (*RATED_SETTINGS, "seats")}
            | {"public": False, "hints": False}
        )
        if any(kind != "human" for kind in config.seats):
            raise no_bots
        others = [[s] for s in SEATS if s is not Seat.SOUTH]
        table, token = await self.hub.create(config, player.name, Seat.SOUTH, client, others)
        assert token is not None
        await self._mark_rated(table.id, family_of(config.rules))
        await self.accounts.own_seats(player, [(table.id, "south")])
        return table, token

    async def _mark_rated(self, table_id: str, family: Family) -> None:
        def insert() -> None:
            with self.store.engine.begin() as conn:
                conn.execute(
                    schema.rated_tables.insert().values(
                        table_id=table_id, family=family.value, created=now(), state="open"
                    )
                )

        await self.store.run(insert)
        self.rated[table_id] = family

    async def join_rated(
        self, player: Player, table_id: str, seat: Seat | None
    ) -> tuple[Seat, str]:
        """Seat ``player`` at a rated table (``seat`` or the first free one).

        :raises ServerError: ``not_found`` for no open rated table; ``conflict`` for a
            seat taken, a table started, or a player who sits there already.
        """
        if table_id not in self.rated:
            raise ServerError(ErrorCode.NOT_FOUND, f"no rated table {table_id!r} to join")
        async with self._lock:
            table = (await self.hub.open(table_id)).table
            owners = await self.store.run(self.accounts.seats_of_table, table_id)
            # A seat left before the start is free again, and nobody's.
            left = [s for s in owners if not table.seats[parse_seat_name(s)].taken]
            await self.store.run(self.accounts.release, table_id, left)
            owners = {s: a for s, a in owners.items() if s not in left}
            if player.id in owners.values():
                raise ServerError(ErrorCode.CONFLICT, "you sit at this table already")
            taken, token = await self.hub.change(table_id, lambda t: _invite_join(t, player, seat))
            await self.accounts.own_seats(player, [(table_id, seat_name(taken))])
            self._expect_players(table_id)
        return taken, token

    async def open_rated(self) -> list[RatedTableJson]:
        """The rated tables that wait for players."""
        found: list[RatedTableJson] = []
        for table_id in list(self.rated):
            live = self.hub.live.get(table_id)
            if live is None or live.table.match is not None:
                continue
            table = live.table
            found.append(
                RatedTableJson(
                    id=table.id,
                    rules=table.config.rules_name,
                    target=table.rules.target,
                    family=self.rated[table_id],
                    seats=[
                        RatedSeatJson(seat=seat_name(s), name=st.name if st.taken else None)
                        for s, st in zip(SEATS, table.seats, strict=True)
                    ],
                )
            )
        return found

    def _watch(self, table: Table, new: Sequence[Event]) -> None:
        """Called by the hub after each commit: rate a rated table once it is decided."""
        if any(e.kind in (EventKind.TAKEOVER, EventKind.MATCH_END) for e in new):
            self._spawn(self._settle_if_rated(table.id))

    async def _settle_if_rated(self, table_id: str) -> None:
        if await self.rated_family(table_id) is not None:
            await self.settle(table_id)

    async def settle(self, table_id: str) -> None:
        """Rate a rated table whose match is decided (a table not decided waits)."""
        family = self.rated.get(table_id)
        if family is None:
            return
        try:
            table = (await self.hub.open(table_id)).table
        except ServerError as exc:
            if exc.code is not ErrorCode.NOT_FOUND:
                raise
            # It expired waiting for its players: nothing to rate, ever.
            await self.store.run(self._close_rated, table_id, "void")
            self.rated.pop(table_id, None)
            return
        decided = decision(table)
        if decided is None:
            return
        winner, reason, leaver = decided
        owners = await self.store.run(self.accounts.seats_of_table, table_id)
        ids = [owners.get(seat_name(s), "") for s in SEATS]
        humans = all(st.kind is SeatKind.HUMAN for st in table.seats)
        if not humans or "" in ids or len(set(ids)) != 4:
            await self.store.run(self._close_rated, table_id, "void")
            self.rated.pop(table_id, None)
            log.warning("rated table %s is void: not every seat is a player's", table_id)
            return
        teams = [[ids[Seat.SOUTH], ids[Seat.NORTH]], [ids[Seat.EAST], ids[Seat.WEST]]]
        detail: dict[str, Any] = {
            "reason": reason,
            "leaver": None if leaver is None else seat_name(leaver),
        }
        await ratings.record_result(self.store, family, teams, winner, f"table:{table_id}", detail)
        await self.store.run(self._close_rated, table_id, "settled")
        self.rated.pop(table_id, None)

    def _close_rated(self, table_id: str, state: str) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                schema.rated_tables.update()
                .where(schema.rated_tables.c.table_id == table_id)
                .values(state=state)
            )

    def rated_state(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The state of each of ``table_ids`` that is a rated table (``open``, ``settled``, ``void``)."""
        if not table_ids:
            return {}
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(schema.rated_tables.c.table_id, schema.rated_tables.c.state).where(
                    schema.rated_tables.c.table_id.in_(list(table_ids))
                )
            ).all()
        return {row.table_id: row.state for row in rows}

    # -- the ranked queue ---------------------------------------------------------------------

    async def join_queue(self, player: Player, rules: object) -> None:
        """Put ``player`` in the ranked queue of the preset ``rules``.

        :raises ServerError: ``malformed`` for no such preset.
        """
        if not isinstance(rules, str):
            raise ServerError(ErrorCode.MALFORMED, "rules must be a preset name")
        config = TableConfig.from_dict({"rules": rules})
        family = family_of(config.rules)
        ordinal = (await self.store.run(ratings.ordinals, self.store.engine, family, [player.id]))[
            player.id
        ]
        self.seated.pop(player.id, None)
        self.queue.join(player.id, player.name, config.rules_name, ordinal)
        await self.seat_waiting()

    def leave_queue(self, player: Player) -> bool:
        self.seated.pop(player.id, None)
        return self.queue.leave(player.id)

    async def seat_waiting(self) -> None:
        """Seat every group of four the queue can seat now."""
        for rules, group in self.queue.match():
            try:
                await self._seat(rules, group)
            except ServerError as exc:  # the server is full, or the database down: wait again
                log.warning("the ranked queue could not seat a table: %s", exc.message)
                for player in group:
                    self.queue.join(player.id, player.name, player.rules, player.ordinal)

    async def _seat(self, rules: str, group: list[Waiting]) -> None:
        settings = self.hub.settings
        config = TableConfig.from_dict(
            {
                "rules": rules,
                "public": False,
                "hints": False,
                "turn_seconds": settings.ranked_turn_seconds,
            }
        )
        seats = partnerships(group)
        south = seats[Seat.SOUTH]
        others = [[s] for s in SEATS if s is not Seat.SOUTH]
        table, token = await self.hub.create(config, south.name, Seat.SOUTH, None, others)
        assert token is not None
        await self._mark_rated(table.id, family_of(config.rules))
        await self.accounts.own_seats(Player(south.id, south.name), [(table.id, "south")])
        placed = {south.id: Seated(table.id, Seat.SOUTH, token, True)}
        for seat in (Seat.EAST, Seat.NORTH, Seat.WEST):
            waiting = seats[seat]
            who = Player(waiting.id, waiting.name)
            taken, joined = await self.hub.change(table.id, functools.partial(_join_as, who, seat))
            await self.accounts.own_seats(who, [(table.id, seat_name(taken))])
            placed[waiting.id] = Seated(table.id, taken, joined, True)
        self.seated.update(placed)
        self._expect_players(table.id)

    def _expect_players(self, table_id: str) -> None:
        """Start the away clock of every seat nobody is connected to yet, as a restart does:
        a player seated who does not come within the table's ``takeover_seconds`` has a
        bot take the seat, and loses the rated match."""
        live = self.hub.live.get(table_id)
        if live is not None:
            for seat in SEATS:
                if seat not in live.connected():
                    self.hub._seat_left(live, seat)

    async def accept_bots(self, player: Player, bot: str) -> Seated:
        """Seat a player who waited long enough with bots, at a table that is not rated.

        :raises ServerError: ``conflict`` for a player not in the queue, or not offered bots yet.
        """
        waiting = self.queue.waiting(player.id)
        if waiting is None:
            raise ServerError(ErrorCode.CONFLICT, "join the ranked queue first")
        if not waiting.offered:
            raise ServerError(
                ErrorCode.CONFLICT,
                f"bots are offered after {self.queue.bot_wait:g} s in the queue: wait a little",
            )
        config = TableConfig.from_dict(
            {
                "rules": waiting.rules,
                "public": False,
                "seats": {seat_name(s): f"bot:{bot}" for s in SEATS if s is not Seat.SOUTH},
            }
        )
        table, token = await self.hub.create(config, player.name, Seat.SOUTH, None, [])
        assert token is not None
        self.queue.leave(player.id)
        await self.accounts.own_seats(player, [(table.id, "south")])
        seated = Seated(table.id, Seat.SOUTH, token, False)
        self.seated[player.id] = seated
        return seated

    async def queue_status(self, player: Player) -> QueueBody:
        """Where ``player`` is: seated (the table, seat and token), waiting, or not queued."""
        self.queue.seen(player.id)
        await self.seat_waiting()
        seated = self.seated.get(player.id)
        if seated is not None:
            return QueueSeatedBody(
                state="seated",
                table=seated.table,
                seat=seat_name(seated.seat),
                token=seated.token,
                rated=seated.rated,
            )
        waiting = self.queue.waiting(player.id)
        if waiting is None:
            return QueueIdleBody(state="idle")
        now_ = self.queue.clock()
        return QueueWaitingBody(
            state="waiting",
            rules=waiting.rules,
            waited=round(waiting.waited(now_), 1),
            window=round(waiting.window(now_), 2),
            ordinal=round(waiting.ordinal, 4),
            others=self.queue.count(waiting.rules) - 1,
            bots_offered=waiting.offered,
            bot_wait=self.queue.bot_wait,
        )


def _join_as(player: Player, seat: Seat | None, table: Table) -> tuple[Seat, str]:
    return _invite_join(table, player, seat)


def _invite_join(table: Table, player: Player, seat: Seat | None) -> tuple[Seat, str]:
    """Take ``seat`` (or the first free one) at a table whose seats its invites keep: an
    invite made for it and used at once, in one change of the table."""
    if table.match is not None:
        raise ServerError(ErrorCode.CONFLICT, "the table has started: no seat is free")
    free = [s for s in SEATS if not table.seats[s].taken]
    chosen = seat if seat is not None else free[0] if free else None
    if chosen is None or table.seats[chosen].taken:
        raise ServerError(ErrorCode.CONFLICT, "that seat is taken")
    secret = table.invite([[chosen]])[chosen]
    return chosen, table.join(player.name, chosen, secret)
