"""Who may sit where: seat tokens, invites that reserve seats, and seat links between devices.

:class:`Seating` is the part of :class:`~tarneeb.server.table.Table` that
hands out and checks secrets. The server keeps only their SHA-256 hashes
(in the ``secret`` part of the log's events, never sent), and compares
them in constant time.

* A **seat token** proves a seat (``joined``; ``moved`` replaces it).
* An **invite** is for one free seat or a set of them (``invited``): while
  such a seat is free, only the holder of its invite may take it, at a public
  table as at a private one. At a private table a free seat without an
  invite is nobody's until one is made for it.
* A **seat link** (``seat_link``) moves a seat to another device once: its
  claim gives a fresh seat token and voids the old one (``moved``); a new
  link voids the last one.

>>> from tarneeb.server.table import Table, TableConfig
>>> table = Table.new("t1", TableConfig(public=True))
>>> _ = table.join("Layla", Seat.SOUTH)
>>> north = table.invite([[Seat.NORTH]])[Seat.NORTH]
>>> table.join("Eve", Seat.NORTH)
Traceback (most recent call last):
...
tarneeb.server.wire.names.ServerError: north is kept for its invite: join with the invite link
>>> seat_name(table.seat_of_token(table.join("Nour", invite=north)))
'north'
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tarneeb.seats import SEATS, Seat
from tarneeb.server.wire import (
    MAX_TOKEN,
    ErrorCode,
    EventKind,
    SeatKind,
    ServerError,
    parse_seat_name,
    seat_name,
)

if TYPE_CHECKING:
    from tarneeb.match import Match
    from tarneeb.server.config import TableConfig
    from tarneeb.server.table import Event, SeatState

__all__ = ["Seating", "invite_groups", "token_hash"]


def token_hash(token: str) -> str:
    """The hash of a secret as the log keeps it."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _matching(secret: object, known: Mapping[Seat, str], what: str) -> list[Seat]:
    """The seats whose hash is ``secret``'s, compared in constant time (every one is compared).

    :raises ServerError: ``unauthorized`` for a secret that is not a string of a sane length.
    """
    if not isinstance(secret, str) or not 0 < len(secret) <= MAX_TOKEN:
        raise ServerError(ErrorCode.UNAUTHORIZED, f"{what} is a secret string")
    digest = token_hash(secret)
    return [seat for seat, hashed in known.items() if hmac.compare_digest(digest, hashed)]


class Seating:
    """Seat tokens, invites and seat links of a table (mixed into :class:`Table`)."""

    config: TableConfig
    seats: list[SeatState]
    match: Match | None
    invites: dict[Seat, str]
    """The hash of each free seat's invite (seats of one invite share it)."""
    keeping: set[Seat]
    new_invites: dict[Seat, str]
    seat_links: dict[Seat, str]
    """The hash of each seat's seat link, until it is claimed or replaced."""

    def _record(
        self, kind: EventKind, data: Mapping[str, Any], secret: Mapping[str, Any] | None = None
    ) -> Event:
        raise NotImplementedError  # pragma: no cover - Table's

    # -- tokens -------------------------------------------------------------------------

    def seat_of_token(self, token: object) -> Seat:
        """The seat ``token`` proves.

        :raises ServerError: ``unauthorized`` when it proves none.
        """
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
            raise ServerError(ErrorCode.UNAUTHORIZED, "a seat token is required")
        hashes = {
            s: st.token_hash for s, st in zip(SEATS, self.seats, strict=True) if st.token_hash
        }
        found = _matching(token, hashes, "a seat token")
        if not found:
            raise ServerError(ErrorCode.UNAUTHORIZED, "this token holds no seat at this table")
        return found[0]

    # -- invites ------------------------------------------------------------------------

    @property
    def open_seats(self) -> bool:
        """Whether a free seat without an invite is anyone's.

        So at a public table (listed among the open tables), and at a private
        one made before seats had invites.
        """
        return self.config.public or not self.invites

    def reserved(self, seat: Seat) -> bool:
        """Whether ``seat`` is free and kept for the holder of its invite.

        At a private table every invite keeps its seat; at an open one the
        invites made since they reserve (an open table made before keeps its
        seats open to anyone, as they were).
        """
        if seat not in self.invites or self.seats[seat].taken:
            return False
        return seat in self.keeping or not self.config.public

    def invite(self, groups: Iterable[Iterable[Seat]] | None = None) -> dict[Seat, str]:
        """Make invites before the start: one secret for each group of free human seats
        (``None``: each free human seat its own); returns each seat's secret.

        Every seat of a group takes the same secret: its holder (or holders,
        one a seat) take those seats and nobody else can. A seat invited again
        is its new invite's only.

        :raises ServerError: ``conflict`` once the table has started or for a seat
            that is taken; ``malformed`` for a seat in two groups, or an empty group.
        """
        if self.match is not None:
            raise ServerError(ErrorCode.CONFLICT, "the table has started: no seat is free")
        if groups is None:
            groups = [[s] for s in SEATS if not self.seats[s].taken]
        made: dict[Seat, str] = {}
        for group in groups:
            seats = list(dict.fromkeys(group))
            if not seats:
                raise ServerError(ErrorCode.MALFORMED, "an invite is for one seat or more")
            secret = secrets.token_urlsafe(18)
            for seat in seats:
                if seat in made:
                    raise ServerError(ErrorCode.MALFORMED, f"{seat_name(seat)} is in two invites")
                if self.seats[seat].taken:
                    raise ServerError(ErrorCode.CONFLICT, f"{seat_name(seat)} is taken")
                made[seat] = secret
        if made:
            self._record(
                EventKind.INVITED,
                {"seats": [seat_name(s) for s in made], "reserved": True},
                {"invites": {seat_name(s): token_hash(secret) for s, secret in made.items()}},
            )
        self.new_invites = made
        return made

    def seats_of_invite(self, invite: object) -> list[Seat]:
        """The seats ``invite`` (an invite's secret) is for.

        :raises ServerError: ``unauthorized`` when it is for none.
        """
        found = _matching(invite, self.invites, "an invite")
        if not found:
            raise ServerError(ErrorCode.UNAUTHORIZED, "this invite is for no seat at this table")
        return found

    def seat_of_invite(self, invite: object) -> Seat:
        """The first seat ``invite`` is for (see :meth:`seats_of_invite`)."""
        return self.seats_of_invite(invite)[0]

    def _seat_to_join(self, seat: Seat | None, invite: object) -> Seat:
        """The seat a join takes (see :meth:`Table.join`)."""
        if invite is not None:
            invited = self.seats_of_invite(invite)
            if seat is not None and seat not in invited:
                names = " or ".join(seat_name(s) for s in invited)
                raise ServerError(
                    ErrorCode.UNAUTHORIZED, f"this invite is for {names}, not {seat_name(seat)}"
                )
            free = [s for s in invited if not self.seats[s].taken]
            chosen = seat if seat is not None else free[0] if free else invited[0]
            if self.seats[chosen].taken:
                raise ServerError(ErrorCode.CONFLICT, f"{seat_name(chosen)} is taken")
            return chosen
        if seat is None:
            free = [s for s in SEATS if not self.seats[s].taken]
            if not free:
                raise ServerError(ErrorCode.CONFLICT, "every seat is taken")
            open_ = [s for s in free if not self.reserved(s)]
            seat = open_[0] if open_ else free[0]
        if self.seats[seat].taken:
            raise ServerError(ErrorCode.CONFLICT, f"{seat_name(seat)} is taken")
        if self.reserved(seat):
            raise ServerError(
                ErrorCode.UNAUTHORIZED,
                f"{seat_name(seat)} is kept for its invite: join with the invite link",
            )
        if not self.open_seats:
            raise ServerError(
                ErrorCode.UNAUTHORIZED,
                "a seat at a private table is taken with its invite link; this link only watches",
            )
        return seat

    # -- seat links ---------------------------------------------------------------------

    def seat_link(self, seat: Seat) -> str:
        """A new seat link's secret for ``seat`` (its player's); the seat's last one is void.

        :raises ServerError: ``conflict`` for a seat no person holds.
        """
        state = self.seats[seat]
        if state.kind is not SeatKind.HUMAN or state.token_hash is None:
            raise ServerError(ErrorCode.CONFLICT, f"nobody sits at {seat_name(seat)}")
        secret = secrets.token_urlsafe(24)
        self._record(
            EventKind.SEAT_LINK, {"seat": seat_name(seat)}, {"link_hash": token_hash(secret)}
        )
        return secret

    def claim(self, link: object) -> tuple[Seat, str]:
        """Move a seat to this device by its link's secret: the seat and its new token.

        The link works once; the seat's old token holds it no more.

        :raises ServerError: ``unauthorized`` for a link that is for no seat (any more).
        """
        found = _matching(link, self.seat_links, "a seat link")
        if not found:
            raise ServerError(
                ErrorCode.UNAUTHORIZED, "this seat link is used or replaced: ask for a new one"
            )
        seat = found[0]
        token = secrets.token_urlsafe(24)
        self._record(EventKind.MOVED, {"seat": seat_name(seat)}, {"token_hash": token_hash(token)})
        return seat, token

    def _apply_seating(self, kind: EventKind, seat: Seat, secret: Mapping[str, Any]) -> None:
        """Apply a ``seat_link`` or ``moved`` event (called by ``Table._apply``)."""
        from dataclasses import replace

        if kind is EventKind.SEAT_LINK:
            self.seat_links[seat] = str(secret["link_hash"])
        else:
            self.seat_links.pop(seat, None)
            self.seats[seat] = replace(self.seats[seat], token_hash=str(secret["token_hash"]))


def invite_groups(value: object) -> Sequence[Sequence[Seat]]:
    """Read ``reserve`` or ``seats`` of a request: a list of seat names, or of lists of them
    (each inner list one invite for that set of seats).

    >>> invite_groups(["north", ["east", "west"]])
    [[Seat.NORTH], [Seat.EAST, Seat.WEST]]

    :raises ServerError: ``malformed`` for anything else.
    """
    if not isinstance(value, list) or len(value) > 4:
        raise ServerError(ErrorCode.MALFORMED, "seats to invite are a list of seat names")
    groups: list[list[Seat]] = []
    for item in value:
        names = item if isinstance(item, list) else [item]
        if not names or len(names) > 4:
            raise ServerError(ErrorCode.MALFORMED, "an invite is for one to four seats")
        groups.append([parse_seat_name(name) for name in names])
    return groups
