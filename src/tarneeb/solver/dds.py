"""The DDS backend: Bo Haglund's double-dummy solver, through the ``endplay`` package.

Tarneeb card play is bridge card play without a dummy, so DDS solves it as
it is. Only the names differ, and they are mapped by play order, not by name:

* seats: DDS plays North -> East -> South -> West, numbered 0..3; ours play
  South -> East -> North -> West, numbered 0..3. Seat ``i`` here is DDS hand
  ``i`` (our South sits where DDS's North does);
* suits: DDS numbers spades 0, hearts 1, diamonds 2, clubs 3, no-trump 4;
  ours clubs 0 .. spades 3, so DDS suit = ``3 - suit``;
* ranks: DDS holdings set bit ``rank + 2`` (deuce = 4 .. ace = 0x4000).

The low-level ctypes bindings (``endplay._dds``) are used directly: they
check DDS's return codes and cost far less than endplay's ``Deal`` objects.
``GetDDSInfo`` is never called (endplay's struct for it is too small and the
call corrupts memory). endplay is imported on first use; without it every
call raises :class:`SolverError` saying how to install it.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from tarneeb.actions import Strain
from tarneeb.cards import Card
from tarneeb.solver.position import DDTable, Position, Solution, SolverError

__all__ = ["available", "dd_tables", "search_nodes", "solve", "solve_many"]

_MAX_BOARDS = 200  # DDS's MAXNOOFBOARDS
_MAX_TABLES = 40  # DDS's MAXNOOFTABLES (tables of 5 strains)
_lib: ModuleType | None = None
_lock = threading.Lock()
INSTALL_HINT = "the DDS backend needs endplay: pip install 'tarneeb[solver]' (or endplay)"


def _dds() -> ModuleType:
    global _lib
    if _lib is None:
        try:
            _lib = importlib.import_module("endplay._dds")
        except ImportError as exc:
            raise SolverError(f"{INSTALL_HINT} ({exc})") from None
        except RuntimeError as exc:  # endplay could not load its libdds
            raise SolverError(f"endplay cannot load DDS here: {exc}") from None
    return _lib


def available() -> bool:
    """Whether endplay and its DDS library load on this machine."""
    try:
        _dds()
    except SolverError:
        return False
    return True


def dds_strain(trump: int | None) -> int:
    """DDS's strain number for our trump suit (``None``: no-trump)."""
    return 4 if trump is None else 3 - int(trump)


def _fill_deal(dl: Any, position: Position) -> None:
    dl.trump = dds_strain(position.trump)
    dl.first = int(position.leader)
    for i in range(3):
        if i < len(position.trick):
            card = position.trick[i]
            dl.currentTrickSuit[i] = 3 - card // 13
            dl.currentTrickRank[i] = card % 13 + 2
        else:
            dl.currentTrickSuit[i] = 0
            dl.currentTrickRank[i] = 0
    for seat, mask in enumerate(position.hands):
        row = dl.remainCards[seat]
        for suit in range(4):
            row[3 - suit] = (mask >> (13 * suit) & 0x1FFF) << 2


def _solution(position: Position, fut: Any) -> Solution:
    values: dict[Card, int] = {}
    for i in range(fut.cards):
        score = fut.score[i]
        suit = 3 - fut.suit[i]
        holding = (1 << fut.rank[i]) | fut.equals[i]
        for rank in range(13):
            if holding >> (rank + 2) & 1:
                values[Card(suit * 13 + rank)] = score
    legal = position.legal_mask()
    values = {c: v for c, v in values.items() if legal >> c & 1}
    if len(values) != legal.bit_count():
        raise SolverError(f"DDS returned values for {len(values)} of {legal.bit_count()} cards")
    return Solution(position, max(values.values()), dict(sorted(values.items())))


def _solve_board(position: Position) -> Any:
    """DDS's ``SolveBoard`` for every card's value of ``position``: its ``futureTricks``."""
    lib = _dds()
    dl = lib.deal()
    _fill_deal(dl, position)
    fut = lib.futureTricks()
    with _lock:
        try:
            lib.SolveBoard(dl, -1, 3, 1, fut, 0)
        except lib.DDSError as exc:
            raise SolverError(f"DDS: {exc} ({position!r})") from None
    return fut


def solve(position: Position) -> Solution:
    """Solve one position with DDS's ``SolveBoard`` (every card's value).

    :raises SolverError: without endplay, or when DDS reports an error.
    """
    return _solution(position, _solve_board(position))


def search_nodes(position: Position) -> int:
    """The trick starts DDS searches to find every card's value of ``position``
    (its ``futureTricks.nodes``), counted as ``OwnSolver.nodes`` counts ours: a
    measure of work that does not depend on the machine. DDS keeps its table
    when the cards are those it solved last, or nearly (a later point of the
    same deal), so a count from an empty table needs an unrelated deal solved
    just before.

    :raises SolverError: as :func:`solve`.
    """
    return int(_solve_board(position).nodes)


def solve_many(positions: Sequence[Position], values: bool = True) -> list[Solution]:
    """Solve many positions with DDS's threaded ``SolveAllBoardsBin``, 200 at a time.

    With ``values=False`` only the tricks are found, not every card's value
    (much faster at the start of a deal); the solutions' ``values`` are empty.
    """
    lib = _dds()
    out: list[Solution] = []
    for start in range(0, len(positions), _MAX_BOARDS):
        chunk = positions[start : start + _MAX_BOARDS]
        bop = lib.boards()
        bop.noOfBoards = len(chunk)
        for i, position in enumerate(chunk):
            _fill_deal(bop.deals[i], position)
            bop.target[i] = -1
            # Under the first-lead rule DDS's best card may be an illegal one:
            # such a position is always solved card by card.
            bop.solutions[i] = 3 if values or position.lead_trump else 1
            bop.mode[i] = 1
        solved = lib.solvedBoards()
        with _lock:
            try:
                lib.SolveAllBoardsBin(bop, solved)
            except lib.DDSError as exc:
                raise SolverError(f"DDS: {exc}") from None
        for i, p in enumerate(chunk):
            if values or p.lead_trump:
                solution = _solution(p, solved.solvedBoard[i])
                out.append(solution if values else Solution(p, solution.tricks))
            else:
                out.append(Solution(p, solved.solvedBoard[i].score[0]))
    return out


def dd_tables(deals: Sequence[Sequence[int]]) -> list[DDTable]:
    """Double-dummy tables of full deals (13 cards a seat) with ``CalcAllTables``.

    Every strain is solved; entry ``[strain][seat]`` counts the tricks of
    ``seat``'s side when ``seat`` leads. DDS's table has the seat *before*
    the leader (bridge's declarer) as its declarer, so ours is 13 minus its.
    """
    lib = _dds()
    out: list[DDTable] = []
    for start in range(0, len(deals), _MAX_TABLES):
        chunk = deals[start : start + _MAX_TABLES]
        dealsp = lib.ddTableDeals()
        dealsp.noOfTables = len(chunk)
        for i, hands in enumerate(chunk):
            cards = dealsp.ddTableDeal[i].cards
            for seat, mask in enumerate(hands):
                for suit in range(4):
                    cards[seat][3 - suit] = (mask >> (13 * suit) & 0x1FFF) << 2
        res = lib.ddTablesRes()
        par = lib.allParResults()
        with _lock:
            try:
                lib.CalcAllTables(dealsp, -1, [0, 0, 0, 0, 0], res, par)
            except lib.DDSError as exc:
                raise SolverError(f"DDS: {exc}") from None
        for i in range(len(chunk)):
            table = res.results[i].resTable
            rows: dict[Strain, list[int]] = {}
            for strain in Strain:
                d = dds_strain(None if strain == Strain.NO_TRUMP else int(strain))
                rows[strain] = [13 - table[d][(seat + 3) & 3] for seat in range(4)]
            out.append(DDTable(rows))
    return out
