"""Accounts, their secrets, and the sessions that sign a browser in.

* A password and the one-time **recovery code** are kept as argon2 hashes
  (``argon2-cffi``); hashing runs in a worker thread, never on the event loop.
* A **session** is a random token in a cookie; the server keeps its SHA-256
  only, and a session signed out (``revoked``) never signs in again: the same
  cookie sent after its logout, or a logout sent twice, is refused.
* A **seat** of a game table becomes an account's once (``tarneeb_account_seats``):
  at sign-up and sign-in the browser hands in the seat tokens it holds as a
  guest, and every seat they prove is the account's from then on.

Everything here reads and writes through the store's engine, in the store's
threads (:meth:`Store.run`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import NamedTuple

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.engine import Engine

from tarneeb.server.players import schema
from tarneeb.server.players.names import check_password, clean_name, name_key
from tarneeb.server.store import Store
from tarneeb.server.wire import ErrorCode, ServerError

__all__ = ["SESSION_DAYS", "Accounts", "Player", "new_recovery_code", "now"]

SESSION_DAYS = 30
"""Days a session lasts (its cookie as long)."""

_RECOVERY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits of a recovery code, without the ones read for each other (0 O 1 I)."""


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_recovery_code() -> str:
    """A recovery code: four groups of five, about 100 bits (``K7QX2-...``)."""
    chars = [secrets.choice(_RECOVERY_ALPHABET) for _ in range(20)]
    return "-".join("".join(chars[i : i + 5]) for i in range(0, 20, 5))


def _code_form(code: str) -> str:
    """A recovery code as it is hashed: its letters and digits, in capitals."""
    return "".join(c for c in code.upper() if c.isalnum())


def _age_days(stamp: str) -> float:
    then = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    return (datetime.now(timezone.utc) - then).total_seconds() / 86400


def _session_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class _Account(NamedTuple):
    id: str
    name: str
    password_hash: str
    recovery_hash: str | None


@dataclass(frozen=True)
class Player:
    """A signed-in player: the account's id and shown name."""

    id: str
    name: str


_hasher = PasswordHasher()
_DUMMY = _hasher.hash("not a password of anyone")
"""Checked against when a name is unknown, so an unknown name costs as long as a wrong password."""


def _verify(hashed: str | None, secret: str) -> bool:
    try:
        return _hasher.verify(hashed or _DUMMY, secret) and hashed is not None
    except (VerificationError, InvalidHashError):
        return False


class Accounts:
    """The accounts and sessions of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine: Engine = store.engine

    # -- accounts -------------------------------------------------------------------------

    async def sign_up(self, name: object, password: object) -> tuple[Player, str]:
        """A new account; returns it and its recovery code (shown this once).

        :raises ServerError: ``malformed`` for a bad name or password, ``conflict``
            for a name taken (after normalisation).
        """
        shown = clean_name(name)
        key = name_key(shown)
        check_password(password)
        assert isinstance(password, str)
        code = new_recovery_code()
        password_hash, code_hash = await asyncio.to_thread(
            lambda: (_hasher.hash(password), _hasher.hash(_code_form(code)))
        )
        player = Player(secrets.token_hex(12), shown)
        await self.store.run(self._insert, player, key, password_hash, code_hash)
        return player, code

    def _insert(self, player: Player, key: str, password_hash: str, code_hash: str) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    schema.accounts.insert().values(
                        id=player.id,
                        name=player.name,
                        name_key=key,
                        password_hash=password_hash,
                        recovery_hash=code_hash,
                        created=now(),
                    )
                )
        except sa.exc.IntegrityError:
            raise ServerError(
                ErrorCode.CONFLICT, f"the name {player.name!r} is taken (or one too like it)"
            ) from None

    def _by_key(self, key: str) -> _Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(
                    schema.accounts.c.id,
                    schema.accounts.c.name,
                    schema.accounts.c.password_hash,
                    schema.accounts.c.recovery_hash,
                ).where(schema.accounts.c.name_key == key)
            ).first()
        return None if row is None else _Account(*row)

    async def find(self, name: str) -> Player | None:
        """The account of ``name`` (any of its spellings), if there is one."""
        row = await self.store.run(self._by_key, name_key(name))
        return None if row is None else Player(row.id, row.name)

    async def check(self, name: object, password: object) -> Player:
        """The account ``name`` and ``password`` sign in to.

        :raises ServerError: ``unauthorized`` for a wrong name or password (the
            answer does not say which).
        """
        if not isinstance(name, str) or not isinstance(password, str):
            raise ServerError(ErrorCode.MALFORMED, "sign in with a name and a password")
        row = await self.store.run(self._by_key, name_key(name)) if len(name) <= 200 else None
        ok = await asyncio.to_thread(
            _verify, None if row is None else row.password_hash, password[:1024]
        )
        if row is None or not ok:
            raise ServerError(ErrorCode.UNAUTHORIZED, "wrong name or password")
        return Player(row.id, row.name)

    async def recover(self, name: object, code: object, password: object) -> tuple[Player, str]:
        """A new password by the recovery code, which then works no more; returns the account
        and its new recovery code. Every session of the account is signed out.

        :raises ServerError: ``unauthorized`` for a wrong name or code; ``malformed``
            for a bad new password.
        """
        check_password(password)
        assert isinstance(password, str)
        if not isinstance(name, str) or not isinstance(code, str) or len(code) > 64:
            raise ServerError(ErrorCode.UNAUTHORIZED, "wrong name or recovery code")
        row = await self.store.run(self._by_key, name_key(name)) if len(name) <= 200 else None
        hashed = None if row is None else row.recovery_hash
        ok = await asyncio.to_thread(_verify, hashed, _code_form(code))
        if row is None or hashed is None or not ok:
            raise ServerError(ErrorCode.UNAUTHORIZED, "wrong name or recovery code")
        fresh = new_recovery_code()
        password_hash, code_hash = await asyncio.to_thread(
            lambda: (_hasher.hash(password), _hasher.hash(_code_form(fresh)))
        )
        used = await self.store.run(self._reset, row.id, hashed, password_hash, code_hash)
        if not used:  # another reset with the same code won the race
            raise ServerError(ErrorCode.UNAUTHORIZED, "wrong name or recovery code")
        return Player(row.id, row.name), fresh

    def _reset(self, account: str, old_code: str, password_hash: str, code_hash: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                schema.accounts.update()
                .where(schema.accounts.c.id == account, schema.accounts.c.recovery_hash == old_code)
                .values(password_hash=password_hash, recovery_hash=code_hash)
            )
            if not done.rowcount:
                return False
            conn.execute(
                schema.sessions.update()
                .where(schema.sessions.c.account_id == account, schema.sessions.c.revoked.is_(None))
                .values(revoked=now())
            )
            return True

    # -- sessions -------------------------------------------------------------------------

    async def open_session(self, player: Player) -> str:
        """A new session of ``player``: the token for its cookie."""
        token = secrets.token_urlsafe(32)
        await self.store.run(self._open, player.id, _session_hash(token))
        return token

    def _open(self, account: str, hashed: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                schema.sessions.insert().values(
                    token_hash=hashed, account_id=account, created=now(), revoked=None
                )
            )

    async def session(self, token: str) -> tuple[Player | None, bool]:
        """The player a session token signs in, and whether it is a signed-out session."""
        if not 20 <= len(token) <= 100:
            return None, False
        return await self.store.run(self._session, _session_hash(token))

    def _session(self, hashed: str) -> tuple[Player | None, bool]:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(
                    schema.sessions.c.token_hash,
                    schema.sessions.c.revoked,
                    schema.sessions.c.created,
                    schema.accounts.c.id,
                    schema.accounts.c.name,
                )
                .join(schema.accounts, schema.accounts.c.id == schema.sessions.c.account_id)
                .where(schema.sessions.c.token_hash == hashed)
            ).first()
        if row is None or not hmac.compare_digest(row.token_hash, hashed):
            return None, False
        if row.revoked is not None:
            return None, True
        if _age_days(row.created) > SESSION_DAYS:
            return None, False
        return Player(row.id, row.name), False

    async def close_session(self, token: str) -> bool:
        """Sign a session out for good; whether it was signed in."""
        return await self.store.run(self._close, _session_hash(token))

    def _close(self, hashed: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                schema.sessions.update()
                .where(schema.sessions.c.token_hash == hashed, schema.sessions.c.revoked.is_(None))
                .values(revoked=now())
            )
            return bool(done.rowcount)

    # -- seats ----------------------------------------------------------------------------

    async def own_seats(self, player: Player, seats: Iterable[tuple[str, str]]) -> int:
        """Make each ``(table, seat)`` the player's unless it is someone's; how many became."""
        return await self.store.run(self._own, player.id, list(seats))

    def _own(self, account: str, seats: list[tuple[str, str]]) -> int:
        made = 0
        for table_id, seat in seats:
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        schema.account_seats.insert().values(
                            table_id=table_id, seat=seat, account_id=account, claimed=now()
                        )
                    )
                made += 1
            except sa.exc.IntegrityError:
                continue  # the seat is an account's already (this one's or another's)
        return made

    def release(self, table_id: str, seats: Iterable[str]) -> None:
        """Forget whose ``seats`` of ``table_id`` were (seats left before the match began)."""
        wanted = list(seats)
        if wanted:
            with self.engine.begin() as conn:
                conn.execute(
                    schema.account_seats.delete().where(
                        schema.account_seats.c.table_id == table_id,
                        schema.account_seats.c.seat.in_(wanted),
                    )
                )

    def seats_of_table(self, table_id: str) -> dict[str, str]:
        """Seat name -> account id, of the seats of ``table_id`` that are an account's."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(schema.account_seats.c.seat, schema.account_seats.c.account_id).where(
                    schema.account_seats.c.table_id == table_id
                )
            ).all()
        return {row.seat: row.account_id for row in rows}

    def seats_of_player(self, account: str, limit: int) -> list[tuple[str, str, str]]:
        """The player's latest seats: ``(table, seat, claimed)``, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(
                    schema.account_seats.c.table_id,
                    schema.account_seats.c.seat,
                    schema.account_seats.c.claimed,
                )
                .where(schema.account_seats.c.account_id == account)
                .order_by(schema.account_seats.c.claimed.desc(), schema.account_seats.c.table_id)
                .limit(limit)
            ).all()
        return [(row.table_id, row.seat, row.claimed) for row in rows]

    def names(self, ids: Iterable[str]) -> dict[str, str]:
        """Account id -> shown name."""
        wanted = list(set(ids))
        if not wanted:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(schema.accounts.c.id, schema.accounts.c.name).where(
                    schema.accounts.c.id.in_(wanted)
                )
            ).all()
        return {row.id: row.name for row in rows}
