"""Seats and partnerships.

Seats are numbered in play order, which in Tarneeb is counter-clockwise (to
the right): ``SOUTH -> EAST -> NORTH -> WEST``. So the next seat to act is
always ``(seat + 1) % 4``, partners are two apart, and a seat's team is
``seat % 2``.

>>> Seat.SOUTH.next
Seat.EAST
>>> Seat.EAST.partner
Seat.WEST
>>> Seat.NORTH.team
Team.NS
"""

from __future__ import annotations

import enum

from tarneeb.errors import InvalidActionError

__all__ = ["SEATS", "Seat", "Team", "parse_seat"]


class Team(enum.IntEnum):
    """A partnership: North-South (seats 0 and 2) or East-West (1 and 3)."""

    NS = 0
    EW = 1

    @property
    def other(self) -> Team:
        return Team(self ^ 1)

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat(self.value), Seat(self.value + 2))

    def __repr__(self) -> str:
        return f"Team.{self.name}"

    def __str__(self) -> str:
        return self.name


class Seat(enum.IntEnum):
    """A place at the table, numbered in (counter-clockwise) play order."""

    SOUTH = 0
    EAST = 1
    NORTH = 2
    WEST = 3

    @property
    def next(self) -> Seat:
        """The seat to the right, who plays after this one."""
        return Seat((self + 1) & 3)

    @property
    def previous(self) -> Seat:
        return Seat((self + 3) & 3)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) & 3)

    @property
    def team(self) -> Team:
        return Team(self & 1)

    @property
    def letter(self) -> str:
        return self.name[0]

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    def __str__(self) -> str:
        return self.letter


SEATS: tuple[Seat, ...] = tuple(Seat)

_SEAT_NAMES = {s.letter: s for s in Seat} | {s.name: s for s in Seat}


def parse_seat(text: str | int) -> Seat:
    """Read a seat from ``"S"``, ``"south"``, ``"EAST"`` or ``0..3``.

    :raises InvalidActionError: when it names no seat.

    >>> parse_seat("w")
    Seat.WEST
    """
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text < 4:
            return Seat(text)
        raise InvalidActionError(f"seat {text!r} is not 0..3")
    if isinstance(text, str):
        seat = _SEAT_NAMES.get(text.strip().upper())
        if seat is not None:
            return seat
    raise InvalidActionError(f"{text!r} is not a seat (S, E, N, W)")
