"""One interface to both solvers: :func:`solve`, :func:`solve_many`, :func:`dd_table`.

``backend`` is ``"dds"`` (DDS through endplay), ``"own"`` (our pure-Python
solver) or ``"auto"`` (DDS when endplay loads here, else our own).

>>> from tarneeb.cards import Card
>>> from tarneeb.solver.position import Position
>>> p = Position.parse(["AK...", "QJ...", "T9...", "87..."], trump=None, leader=0)
>>> solution = solve(p, backend="own")
>>> solution.tricks, solution.values[Card.parse("AS")]
(2, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tarneeb.actions import Strain
from tarneeb.cards import CardSet
from tarneeb.seats import Seat
from tarneeb.solver import dds, own
from tarneeb.solver.position import DDTable, Position, PositionError, Solution, SolverError

__all__ = ["BACKENDS", "backend_name", "dd_table", "dd_tables", "solve", "solve_many"]

BACKENDS = ("auto", "dds", "own")


def backend_name(backend: str = "auto") -> str:
    """The backend ``backend`` stands for here: ``"dds"`` or ``"own"``.

    :raises SolverError: for an unknown name, or ``"dds"`` without endplay.
    """
    if backend == "auto":
        return "dds" if dds.available() else "own"
    if backend == "dds":
        if not dds.available():
            raise SolverError(dds.INSTALL_HINT)
        return "dds"
    if backend == "own":
        return "own"
    raise SolverError(f"unknown solver backend {backend!r} (choose from {', '.join(BACKENDS)})")


def solve(position: Position, backend: str = "auto") -> Solution:
    """The tricks the side to play takes from ``position`` with best play by all,
    and the value (tricks kept) of every legal card.

    :raises SolverError: for an unknown or missing backend.
    """
    _check(position)
    if backend_name(backend) == "dds":
        return dds.solve(position)
    return own.solve(position)


def _check(position: object) -> None:
    if not isinstance(position, Position):
        raise PositionError(f"{position!r} is not a Position")
    if not position.tricks_left:
        raise PositionError("no cards are left to play: nothing to solve")


def solve_many(
    positions: Iterable[Position], backend: str = "auto", values: bool = True
) -> list[Solution]:
    """:func:`solve` for many positions at once (DDS solves them on all cores).

    With ``values=False`` the solutions leave ``values`` empty: only the
    tricks are asked for, which both backends find much faster.
    """
    todo = list(positions)
    for position in todo:
        _check(position)
    if backend_name(backend) == "dds":
        return dds.solve_many(todo, values)
    return own.solve_many(todo, values)


def _table_strains(strains: Iterable[Strain | int | None] | None) -> tuple[Strain, ...]:
    if strains is None:
        return tuple(Strain)
    out: list[Strain] = []
    for s in strains:
        strain = Strain.NO_TRUMP if s is None else Strain(int(s))
        if strain not in out:
            out.append(strain)
    return tuple(out)


def dd_tables(
    deals: Sequence[Sequence[int | CardSet]],
    strains: Iterable[Strain | int | None] | None = None,
    lead_trump: bool = False,
    backend: str = "auto",
) -> list[DDTable]:
    """:func:`dd_table` for many deals at once."""
    chosen = _table_strains(strains)
    hands_list = [tuple(h.mask if isinstance(h, CardSet) else int(h) for h in d) for d in deals]
    for hands in hands_list:
        Position(hands, None, Seat.SOUTH)  # checks the cards
        if any(m.bit_count() != 13 for m in hands):
            raise PositionError("a double-dummy table needs 13 cards in each hand")
    name = backend_name(backend)
    rows: list[dict[Strain, list[int]]] = [{} for _ in hands_list]
    plain = [s for s in chosen if not (lead_trump and s != Strain.NO_TRUMP)]
    ruled = [s for s in chosen if s not in plain]
    if plain and name == "dds":
        for row, table in zip(rows, dds.dd_tables(hands_list), strict=True):
            for s in plain:
                row[s] = list(table[s])
        todo = ruled
    else:
        todo = list(chosen)
    positions = [
        Position(hands, None if s == Strain.NO_TRUMP else int(s), seat, lead_trump=lead_trump)
        for hands in hands_list
        for s in todo
        for seat in Seat
    ]
    solutions = solve_many(positions, name, values=False)
    i = 0
    for row in rows:
        for s in todo:
            row[s] = [solutions[i + k].tricks for k in range(4)]
            i += 4
    return [DDTable({s: row[s] for s in chosen}) for row in rows]


def dd_table(
    hands: Sequence[int | CardSet],
    strains: Iterable[Strain | int | None] | None = None,
    lead_trump: bool = False,
    backend: str = "auto",
) -> DDTable:
    """The double-dummy table of a full deal: tricks for each strain with each seat as declarer.

    In Tarneeb the declarer leads, so ``table[strain][seat]`` counts the
    tricks ``seat``'s side takes when ``seat`` leads the first trick.

    :param strains: the strains to solve (suits, ``Strain.NO_TRUMP`` or ``None``
        for no-trump); default all five.
    :param lead_trump: the first lead must be a trump when the leader holds one
        (``Rules.first_lead_trump``).
    :raises PositionError: unless each hand holds 13 different cards.
    """
    return dd_tables([hands], strains, lead_trump, backend)[0]
