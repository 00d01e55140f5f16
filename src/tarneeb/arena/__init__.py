"""The arena: duplicate matches between bots, with confidence intervals.

Each duplicate pair is two matches dealt the same cards, the bots' sides
swapped; matches run in worker processes or on Ray, and the same seed gives
the same results whatever the number of workers.

>>> from tarneeb.presets import find_rules
>>> config = ArenaConfig(("heuristic", "random"), matches=4, seed=3,
...                      rules=find_rules("classic").replace(target=11))
>>> summary = summarize(play_arena(config))
>>> summary["win_rate"]
{'heuristic': 1.0, 'random': 0.0}
>>> [round(x, 3) for x in summary["win_rate_ci95"]["heuristic"]]
[0.51, 1.0]
"""

from __future__ import annotations

from tarneeb.arena.cli import add_arena_parser, run_arena
from tarneeb.arena.report import format_report, result_to_json, save_plot, summarize, write_json
from tarneeb.arena.run import (
    FORMATS,
    ArenaConfig,
    ArenaError,
    ArenaResult,
    MatchOutcome,
    MatchTask,
    bot_labels,
    bot_rng,
    deal_seed,
    play_arena,
    play_task,
)
from tarneeb.arena.stats import mean_ci, wilson_interval

__all__ = [
    "FORMATS",
    "ArenaConfig",
    "ArenaError",
    "ArenaResult",
    "MatchOutcome",
    "MatchTask",
    "add_arena_parser",
    "bot_labels",
    "bot_rng",
    "deal_seed",
    "format_report",
    "mean_ci",
    "play_arena",
    "play_task",
    "result_to_json",
    "run_arena",
    "save_plot",
    "summarize",
    "wilson_interval",
    "write_json",
]
