"""Double-dummy solving: DDS through endplay, and our own exact pure-Python solver.

>>> from tarneeb.solver import Position, solve
>>> p = Position.parse(["AK...", "QJ...", "T9...", "87..."], trump=None, leader=0)
>>> solve(p, backend="own").tricks
2
"""

from __future__ import annotations

from tarneeb.solver.own import OwnSolver
from tarneeb.solver.position import (
    DDTable,
    Position,
    PositionError,
    Solution,
    SolverError,
    SolverTimeout,
    trick_winner,
)
from tarneeb.solver.solve import BACKENDS, backend_name, dd_table, dd_tables, solve, solve_many

__all__ = [
    "BACKENDS",
    "DDTable",
    "OwnSolver",
    "Position",
    "PositionError",
    "Solution",
    "SolverError",
    "SolverTimeout",
    "backend_name",
    "dd_table",
    "dd_tables",
    "solve",
    "solve_many",
    "trick_winner",
]
