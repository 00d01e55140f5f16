"""Many ``tarneeb serve`` workers over one PostgreSQL: who plays each table, and how a client reaches it.

PostgreSQL holds the truth and the coordination; nginx (or any proxy that
routes by path) carries the sockets. Nothing here is a protocol of our own
between workers beyond plain HTTP and WebSocket forwarding.

**Ownership.** Each table is played by one worker at a time, the holder of
its row in ``tarneeb_leases``: the owner (the worker's id and a token of
this run of it), its internal address, the last event it wrote, and when
the lease lapses. A worker renews the leases of the tables it holds in
memory every third of the lease time (:meth:`Cluster.renew`, one
``UPDATE``); a worker that dies stops renewing, and once its leases lapse
any worker takes a table over on first contact (:meth:`Cluster.acquire`,
``SELECT ... FOR UPDATE`` of the row, then the owner, address and event
number are set from the log) and replays its log (:meth:`Table.restore`).

**Nothing twice, nothing lost.** Every write of events checks the lease in
its own transaction (:meth:`Cluster.appended`): ``UPDATE tarneeb_leases SET
seq = new WHERE owner = me AND seq = expected``, a compare-and-set on the
table's event number. A worker that lost a table (it stalled past its
lease, another took over) finds no row to update, its transaction is
rolled back (:class:`~tarneeb.server.store.StaleWrite`) and it lets the
table go, closing its sockets with 1012 so their clients reconnect (to the
new owner). The takeover waits on the row lock for a write under way, so
it replays every event that was committed and no other; and the events'
key ``(table, seq)`` refuses a second write of any event besides.

**Routing: the table's home in its id, the owner by its lease.** A worker
of many makes table ids that start with its own id (``w2-3kT...``), and the
proxy sends ``/ws/{id}``, ``/t/{id}`` and ``/api/tables/{id}/...`` to the
worker the id names, the other workers its ``backup`` servers
(``deploy/nginx/tarneeb.conf``); new tables (``POST /api/tables``) and the
lobby go to any worker in turn, so the tables spread evenly and, while
every worker lives, each request reaches the owner in one hop. The lease,
not the proxy, says who plays a table: a worker that receives a request for
a table another worker holds forwards it to the holder's address (HTTP, or
the WebSocket frame by frame: :func:`forward_http`, :func:`forward_socket`).
That happens only after a failover: the proxy finds the home worker down,
sends its clients to a backup, and the backup, finding the lease not yet
lapsed and its holder not answering, waits the lease out and adopts the
table. When the home worker comes back it forwards its old tables to
their new owner until they end.

Why not ``hash $table_id consistent``: a new table is made by whichever
worker the ``POST`` reached, and no worker can know where nginx's hash of
an id not yet made will point, so most sockets would take two hops; and the
hash moves when a worker is added or removed, while a lease does not.

**Fan-out.** The transaction of every write also says ``NOTIFY
tarneeb_tables, 'ID SEQ'`` (only the table and its event number). Each
worker listens (:meth:`Cluster.listen`, psycopg's ``notifies()``) and
brings its copies of other workers' public tables up to date by reading
the events after their number from the log (:meth:`Store.events_since`),
so every worker's lobby shows every table, and a spectator watches any
table from any worker. After a lost listening connection, the copies are
read again whole.

**Presence.** Who is connected, who is away and when a bot takes the seat,
the turn deadline and the quick reactions are no events (said, not played),
and only the owner knows them. It publishes them for the others in
``tarneeb_presence``, a row a table (:meth:`Cluster.publish_presence`): the
JSON of what its own frames show (:data:`Presence`), numbered from the
sequence ``tarneeb_presence_seq``, and ``NOTIFY tarneeb_presence, 'ID SEQ'``.
A change is written at once, and the owner's changes that follow it
together, ``Settings.presence_delay`` later; only what changed. The
others listen on the same connection, read the rows they were told of
(:meth:`Cluster.read_presence`), and show their copies' spectators the same
``update`` frames the owner's spectators get, and each reaction once. A
finished or expired table's row is deleted; so is the row of a table whose
lease lapsed long ago (its owner died and nobody took it:
:meth:`Cluster.sweep_presence`).

SQLite stays one process, which plays every table and needs none of this.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from tarneeb.server.store import Change, StaleWrite, Store
from tarneeb.server.table import ErrorCode, ServerError, Table

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.websockets import WebSocket

__all__ = [
    "CHANNEL",
    "CLOSE_LET_GO",
    "FORWARDED",
    "PRESENCE_CHANNEL",
    "SERVICES",
    "Cluster",
    "Elsewhere",
    "Unreachable",
    "check_worker_id",
    "forward_http",
    "forward_socket",
]

_log = logging.getLogger("tarneeb.server.cluster")

CHANNEL = "tarneeb_tables"
"""The ``LISTEN``/``NOTIFY`` channel of table changes; a payload is ``"TABLE_ID SEQ"``."""
PRESENCE_CHANNEL = "tarneeb_presence"
"""The channel of presence changes; a payload is ``"TABLE_ID SEQ"`` (the row's ``seq``)."""
PRESENCE_KEPT_LAPSED = 30.0
"""Seconds after its lease lapsed that a table's presence row is swept away."""
FORWARDED = "x-tarneeb-forwarded"
"""The header of a request one worker forwards to another (it is never forwarded again)."""
CLOSE_LET_GO = 1012
"""The close code of the sockets of a table this worker no longer plays (reconnect)."""
SERVICES = "~services"
"""The lease of the services that are one for the whole site: the ranked queue, the
rated tables' list and the hosted events (never a table's id: those start with a
worker's id)."""
_WORKER_ID = re.compile(r"[a-z0-9]{1,12}")

_LEASES = "tarneeb_leases"
_EVENTS = "tarneeb_events"
_TABLES = "tarneeb_tables"
_PRESENCE = "tarneeb_presence"
_PRESENCE_SEQ = "tarneeb_presence_seq"


def check_worker_id(worker_id: str) -> str:
    """A worker id as table ids carry it: 1 to 12 lowercase letters and digits.

    >>> check_worker_id("w2")
    'w2'
    >>> check_worker_id("W-2")
    Traceback (most recent call last):
    ...
    ValueError: a worker id is 1 to 12 lowercase letters and digits, not 'W-2'
    """
    if not _WORKER_ID.fullmatch(worker_id):
        raise ValueError(f"a worker id is 1 to 12 lowercase letters and digits, not {worker_id!r}")
    return worker_id


class Elsewhere(ServerError):
    """Another worker holds the table's lease: its address, and in how many seconds the
    lease lapses unless renewed. Told to a client only if it was not forwarded."""

    def __init__(self, table_id: str, address: str, lapses_in: float) -> None:
        super().__init__(
            ErrorCode.CONFLICT, f"table {table_id!r} is played by another worker: try again"
        )
        self.table_id = table_id
        self.address = address
        self.lapses_in = lapses_in


class Unreachable(Exception):
    """The worker a request was forwarded to did not answer; ``refused``: it refused the
    connection (so nothing reached it, and the request may be sent again)."""

    def __init__(self, message: str, refused: bool) -> None:
        super().__init__(message)
        self.refused = refused


@dataclass(frozen=True)
class _Lease:
    owner: str
    address: str
    lapsed: bool
    lapses_in: float


class Cluster:
    """One worker's part of many: its leases, the guard of its writes, the notices it hears.

    ``address`` is where the other workers reach this one (``HOST:PORT``).
    Its methods that talk to the database block: the hub runs them in the
    store's threads (:meth:`Store.run`).
    """

    def __init__(
        self, store: Store, worker_id: str, address: str, lease_seconds: float = 3.0
    ) -> None:
        if store.engine.dialect.name != "postgresql":
            raise ValueError("many workers need PostgreSQL (SQLite is one process)")
        self.store = store
        self.worker_id = check_worker_id(worker_id)
        self.owner = f"{worker_id}:{secrets.token_hex(6)}"
        """This run of the worker: a restarted worker holds none of its old leases."""
        self.address = address
        self.lease_seconds = lease_seconds
        store.guard = self

    def new_id(self) -> str:
        """A new table id, naming this worker its home (what the proxy routes by)."""
        return f"{self.worker_id}-{secrets.token_urlsafe(9)}"

    # -- the guard of every write (in the store's transaction) -------------------------------

    def created(self, conn: sa.Connection, table: Table) -> None:
        conn.execute(
            sa.text(
                f"INSERT INTO {_LEASES} (table_id, owner, address, seq, expires) "
                "VALUES (:id, :owner, :address, :seq, now() + make_interval(secs => :ttl))"
            ),
            {
                "id": table.id,
                "owner": self.owner,
                "address": self.address,
                "seq": table.seq,
                "ttl": self.lease_seconds,
            },
        )
        conn.execute(sa.text("SELECT pg_notify(:channel, :payload)"), _notice(table.id, table.seq))

    def appended(self, cursor: Any, marker: str, changes: Sequence[Change]) -> None:
        """Move each table's lease from the event number its change follows to its last,
        where this run of the worker holds it; tell the listeners.

        :raises StaleWrite: naming the tables another worker holds now (the caller
            rolls the whole transaction back).
        """
        moves = [
            (table_id, events[0].seq - 1 if events else -1, events[-1].seq if events else -1)
            for table_id, events, _status, _result in changes
            if events
        ]
        if not moves:
            return
        rows = ", ".join(f"({marker}, {marker}::integer, {marker}::integer)" for _ in moves)
        # One statement: the compare-and-set of every lease, and the notices (sent at the
        # commit, so never for a write rolled back).
        cursor.execute(
            f"UPDATE {_LEASES} AS l SET seq = v.new "
            f"FROM (VALUES {rows}) AS v(id, old, new) "
            f"WHERE l.table_id = v.id AND l.seq = v.old AND l.owner = {marker} "
            f"RETURNING l.table_id, pg_notify('{CHANNEL}', l.table_id || ' ' || v.new)",
            [value for move in moves for value in move] + [self.owner],
        )
        moved = {row[0] for row in cursor.fetchall()}
        lost = [table_id for table_id, _old, _new in moves if table_id not in moved]
        if lost:
            raise StaleWrite(lost)

    # -- leases ----------------------------------------------------------------------------

    def acquire(self, table_id: str) -> bool:
        """Hold the table's lease: renew it if this worker holds it, take it if it lapsed
        (its event number set from the log, which is then as far as any write went).

        Returns whether the table exists.

        :raises Elsewhere: when another worker holds it.
        """
        params = {
            "id": table_id,
            "owner": self.owner,
            "address": self.address,
            "ttl": self.lease_seconds,
        }
        with self.store.engine.begin() as conn:
            # A table stored before it had leases (or by a single process) gets one, lapsed.
            conn.execute(
                sa.text(
                    f"INSERT INTO {_LEASES} (table_id, owner, address, seq, expires) "
                    f"SELECT id, '', '', 0, now() - interval '1 second' FROM {_TABLES} "
                    "WHERE id = :id ON CONFLICT (table_id) DO NOTHING"
                ),
                params,
            )
            # The row lock waits for a write under way; the log is read after it.
            row = conn.execute(
                sa.text(
                    f"SELECT owner, address, expires < now() AS lapsed, "
                    f"extract(epoch FROM expires - now()) AS lapses_in FROM {_LEASES} "
                    "WHERE table_id = :id FOR UPDATE"
                ),
                params,
            ).first()
            if row is None:
                return False
            lease = _Lease(row.owner, row.address, bool(row.lapsed), float(row.lapses_in))
            if lease.owner != self.owner and not lease.lapsed:
                raise Elsewhere(table_id, lease.address, max(0.0, lease.lapses_in))
            conn.execute(
                sa.text(
                    f"UPDATE {_LEASES} SET owner = :owner, address = :address, "
                    "expires = now() + make_interval(secs => :ttl), "
                    f"seq = (SELECT coalesce(max(seq), 0) FROM {_EVENTS} WHERE table_id = :id) "
                    "WHERE table_id = :id"
                ),
                params,
            )
            if lease.owner != self.owner and lease.owner:
                _log.warning("table %s: adopted from %s, whose lease lapsed", table_id, lease.owner)
            return True

    def hold(self, role: str = SERVICES) -> str | None:
        """Hold ``role``'s lease, as a table's is held: renew it when this worker holds it,
        take it when it lapsed. Returns ``None`` when this worker holds it now, else the
        address of the worker that does."""
        params = {"id": role, "owner": self.owner, "address": self.address}
        with self.store.engine.begin() as conn:
            conn.execute(
                sa.text(
                    f"INSERT INTO {_LEASES} (table_id, owner, address, seq, expires) "
                    "VALUES (:id, '', '', 0, now() - interval '1 second') "
                    "ON CONFLICT (table_id) DO NOTHING"
                ),
                params,
            )
            row = conn.execute(
                sa.text(
                    f"SELECT owner, address, expires < now() AS lapsed FROM {_LEASES} "
                    "WHERE table_id = :id FOR UPDATE"
                ),
                params,
            ).one()
            if row.owner != self.owner and not row.lapsed:
                return str(row.address)
            conn.execute(
                sa.text(
                    f"UPDATE {_LEASES} SET owner = :owner, address = :address, "
                    "expires = now() + make_interval(secs => :ttl) WHERE table_id = :id"
                ),
                params | {"ttl": self.lease_seconds},
            )
            if row.owner != self.owner:
                _log.warning("%s: taken over (from %r)", role, row.owner or "nobody")
        return None

    def renew(self, table_ids: Sequence[str]) -> set[str]:
        """Renew the leases of ``table_ids``; the ones this worker still holds."""
        if not table_ids:
            return set()
        with self.store.engine.begin() as conn:
            rows = conn.execute(
                sa.text(
                    f"UPDATE {_LEASES} SET expires = now() + make_interval(secs => :ttl) "
                    "WHERE owner = :owner AND table_id = ANY(:ids) RETURNING table_id"
                ),
                {"ttl": self.lease_seconds, "owner": self.owner, "ids": list(table_ids)},
            ).all()
        return {row[0] for row in rows}

    def release(self, table_ids: Sequence[str] | None = None) -> None:
        """Let ``table_ids`` (all of this worker's, by default) go at once, for another
        worker to take on first contact (a worker that stops lets its tables go)."""
        where = "owner = :owner" + ("" if table_ids is None else " AND table_id = ANY(:ids)")
        with self.store.engine.begin() as conn:
            conn.execute(
                sa.text(
                    f"UPDATE {_LEASES} SET expires = now() - interval '1 second' WHERE {where}"
                ),
                {"owner": self.owner, "ids": list(table_ids or ())},
            )

    # -- presence ----------------------------------------------------------------------------

    def publish_presence(
        self, rows: Mapping[str, Callable[[int], str]], gone: Sequence[str] = ()
    ) -> dict[str, int]:
        """Write the presence of the tables of ``rows`` (table id -> its JSON, made from the
        row's new ``seq``) where this run of the worker holds the lease, and delete the rows
        of ``gone`` (tables that ended); tell the listeners of each, in one transaction.

        Returns the ``seq`` written of each table whose row was written.
        """
        written: dict[str, int] = {}
        if not rows and not gone:
            return written
        ids = list(rows)
        with self.store.engine.begin() as conn:
            held = {
                row[0]
                for row in conn.execute(
                    sa.text(
                        f"SELECT table_id FROM {_LEASES} WHERE owner = :owner "
                        "AND table_id = ANY(:ids)"
                    ),
                    {"owner": self.owner, "ids": ids},
                )
            }
            mine = [table_id for table_id in ids if table_id in held]
            seqs = self._next_presence(conn, len(mine) + len(gone))
            for table_id, seq in zip(mine, seqs, strict=False):
                conn.execute(
                    sa.text(
                        f"INSERT INTO {_PRESENCE} (table_id, seq, data, updated) "
                        "VALUES (:id, :seq, :data, now()) ON CONFLICT (table_id) DO UPDATE "
                        "SET seq = excluded.seq, data = excluded.data, updated = now()"
                    ),
                    {"id": table_id, "seq": seq, "data": rows[table_id](seq)},
                )
                written[table_id] = seq
            if gone:
                conn.execute(
                    sa.text(f"DELETE FROM {_PRESENCE} WHERE table_id = ANY(:ids)"),
                    {"ids": list(gone)},
                )
            notices = [*written.items(), *zip(gone, seqs[len(mine) :], strict=True)]
            for table_id, seq in notices:
                conn.execute(
                    sa.text("SELECT pg_notify(:channel, :payload)"),
                    _notice(table_id, seq, PRESENCE_CHANNEL),
                )
        return written

    @staticmethod
    def _next_presence(conn: sa.Connection, count: int) -> list[int]:
        if count <= 0:
            return []
        return [
            int(row[0])
            for row in conn.execute(
                sa.text(f"SELECT nextval('{_PRESENCE_SEQ}') FROM generate_series(1, :n)"),
                {"n": count},
            )
        ]

    def read_presence(self, table_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """The presence rows of ``table_ids``: table id -> (seq, JSON); none for a table
        whose row is gone (it ended, or nobody plays it)."""
        if not table_ids:
            return {}
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.text(f"SELECT table_id, seq, data FROM {_PRESENCE} WHERE table_id = ANY(:ids)"),
                {"ids": list(table_ids)},
            ).all()
        return {row[0]: (int(row[1]), str(row[2])) for row in rows}

    def sweep_presence(self, lapsed_for: float = PRESENCE_KEPT_LAPSED) -> list[str]:
        """Delete the presence rows of tables that ended, and of tables whose lease lapsed
        ``lapsed_for`` seconds ago or more (nobody plays them: what the row says is
        stale); tell the listeners. Returns the table ids swept."""
        with self.store.engine.begin() as conn:
            swept = [
                row[0]
                for row in conn.execute(
                    sa.text(
                        f"DELETE FROM {_PRESENCE} AS p WHERE NOT EXISTS (SELECT 1 FROM "
                        f"{_LEASES} AS l WHERE l.table_id = p.table_id AND l.expires > "
                        "now() - make_interval(secs => :gap)) OR EXISTS (SELECT 1 FROM "
                        f"{_TABLES} AS t WHERE t.id = p.table_id "
                        "AND t.status IN ('finished', 'expired')) RETURNING p.table_id"
                    ),
                    {"gap": lapsed_for},
                )
            ]
            for table_id, seq in zip(swept, self._next_presence(conn, len(swept)), strict=True):
                conn.execute(
                    sa.text("SELECT pg_notify(:channel, :payload)"),
                    _notice(table_id, seq, PRESENCE_CHANNEL),
                )
        return swept

    # -- notices -----------------------------------------------------------------------------

    async def listen(
        self,
        changed: Callable[[str, int], None],
        connected: Callable[[], Awaitable[None]],
        retry: float = 1.0,
        presence: Callable[[str, int], None] | None = None,
    ) -> None:
        """Call ``changed(table_id, seq)`` for every notice of a change, for ever (and
        ``presence(table_id, seq)`` for every notice of a presence row, if given).

        ``connected`` runs each time the listening connection is (again) open,
        after ``LISTEN``: what changed while none was open is read there.
        """
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True, connect_timeout=10
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if presence is not None:
                        await conn.execute(f"LISTEN {PRESENCE_CHANNEL}")
                    await connected()
                    async for notice in conn.notifies():
                        table_id, _, seq = notice.payload.partition(" ")
                        if not seq.isdigit():
                            continue
                        if notice.channel == CHANNEL:
                            changed(table_id, int(seq))
                        elif presence is not None:
                            presence(table_id, int(seq))
            except (psycopg.Error, OSError) as exc:
                _log.warning("listening for table changes failed, again in %.1f s: %s", retry, exc)
            await asyncio.sleep(retry)


def _notice(table_id: str, seq: int, channel: str = CHANNEL) -> dict[str, str]:
    return {"channel": channel, "payload": f"{table_id} {seq}"}


def _split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host.strip("[]"), int(port)


_PASSED_ON = (
    "content-type",
    "accept-language",
    "origin",
    "if-none-match",
    "user-agent",
    "cookie",  # a signed-in player's session, for the site's services (.services)
)
_PASSED_BACK = (
    "content-type",
    "content-disposition",
    "content-language",
    "cache-control",
    "etag",
    "vary",
    "set-cookie",
)


def _client(connection: Request | WebSocket) -> str:
    return "" if connection.client is None else connection.client.host


async def forward_http(request: Request, address: str, worker_id: str) -> Response:
    """``request`` as the worker at ``address`` answers it (its host and client kept).

    :raises Unreachable: when that worker does not answer.
    """
    from starlette.responses import Response

    body = await request.body()
    headers = {name: request.headers[name] for name in _PASSED_ON if name in request.headers}
    headers["Host"] = request.headers.get("host", address)
    headers["X-Forwarded-For"] = _client(request)
    headers[FORWARDED] = worker_id
    url = f"http://{address}{request.url.path}"
    if request.url.query:
        url += f"?{request.url.query}"
    forwarded = urllib.request.Request(
        url, data=body or None, method=request.method, headers=headers
    )

    def send() -> tuple[int, list[tuple[str, str]], bytes]:
        try:
            with _OPENER.open(forwarded, timeout=30) as answer:
                return answer.status, list(answer.headers.items()), answer.read()
        except urllib.error.HTTPError as refused:
            return refused.code, list(refused.headers.items()), refused.read()
        except (OSError, urllib.error.URLError) as exc:
            reason = getattr(exc, "reason", exc)
            raise Unreachable(
                f"{address}: {exc}", isinstance(reason, ConnectionRefusedError)
            ) from None

    status, answer_headers, content = await asyncio.to_thread(send)
    answer = Response(content, status_code=status)
    answer.raw_headers += [
        (k.lower().encode("latin-1"), v.encode("latin-1"))
        for k, v in answer_headers
        if k.lower() in _PASSED_BACK  # every one of a name (two cookies are two headers)
    ]
    return answer


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Straight to the worker: no proxy from the environment between workers."""


async def forward_socket(
    ws: WebSocket, address: str, worker_id: str, first: str | bytes | None, max_size: int
) -> None:
    """Carry the accepted ``ws`` to the worker at ``address``: ``first`` (the frame read
    already, a table's ``hello``; none for a socket whose client speaks second), then
    every frame both ways, until either side closes; the client's socket is closed with
    the other worker's code.

    :raises Unreachable: when that worker does not answer (``ws`` stays open then).
    """
    from starlette.websockets import WebSocketDisconnect
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

    host, port = _split(address)
    public_host = ws.headers.get("host", address)
    origin = ws.headers.get("origin")
    try:
        upstream = await connect(
            f"ws://{public_host}{ws.url.path}",
            host=host,
            port=port,
            origin=origin,  # type: ignore[arg-type]
            additional_headers={
                FORWARDED: worker_id,
                "X-Forwarded-For": _client(ws),
                **({"Cookie": ws.headers["cookie"]} if "cookie" in ws.headers else {}),
            },
            compression=None,
            proxy=None,
            open_timeout=5,
            max_size=max_size,
            user_agent_header=None,
        )
    except InvalidStatus as exc:  # it answered, and refused (a bad origin, say)
        await ws.close(code=1008 if exc.response.status_code == 403 else 1011)
        return
    except (OSError, InvalidHandshake, asyncio.TimeoutError) as exc:
        raise Unreachable(f"{address}: {exc}", True) from None  # nothing was sent yet

    async def down() -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in upstream:
                if isinstance(message, str):
                    await ws.send_text(message)
                else:
                    await ws.send_bytes(bytes(message))

    async def up() -> None:
        with contextlib.suppress(ConnectionClosed, WebSocketDisconnect):
            if first is not None:
                await upstream.send(first)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                await upstream.send(text if text is not None else message.get("bytes") or b"")

    tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        code = upstream.close_code
        await upstream.close()
        with contextlib.suppress(Exception):
            # the owner's code; 1012 when it died or let the table go: reconnect
            await ws.close(code=code if code not in (None, 1005, 1006) else CLOSE_LET_GO)
