"""A progress bar for arena runs: rich's, on a terminal only; nothing otherwise."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tarneeb.arena.run import MatchOutcome

__all__ = ["progress_bar"]


@contextmanager
def progress_bar(
    total: int, labels: tuple[str, ...], enabled: bool = True
) -> Iterator[Callable[[MatchOutcome], None] | None]:
    """A callback advancing a bar by one match, with the wins so far.

    Yields ``None`` (no bar) when ``enabled`` is false, when standard error is
    not a terminal, or when rich (the ``arena`` extra) is not installed.
    """
    stream = sys.stderr
    if not enabled or not stream.isatty():
        yield None
        return
    try:
        rich_progress: Any = importlib.import_module("rich.progress")
        rich_console: Any = importlib.import_module("rich.console")
    except ImportError:
        yield None
        return
    wins = dict.fromkeys(labels, 0)

    def describe() -> str:
        return "  ".join(f"{label} {n}" for label, n in wins.items())

    columns = (
        rich_progress.TextColumn("arena"),
        rich_progress.BarColumn(),
        rich_progress.MofNCompleteColumn(),
        rich_progress.TimeRemainingColumn(),
        rich_progress.TextColumn("{task.description}"),
    )
    console = rich_console.Console(file=stream)
    with rich_progress.Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(describe(), total=total)

        def advance(outcome: MatchOutcome) -> None:
            if outcome.winner is not None:
                wins[outcome.winner] += 1
            bar.update(task, advance=1, description=describe())

        yield advance
