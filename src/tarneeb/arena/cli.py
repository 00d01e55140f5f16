"""``tarneeb arena``: duplicate matches between bots, from the command line.

The main ``tarneeb`` command hooks this in with::

    from tarneeb.arena.cli import add_arena_parser, run_arena
    add_arena_parser(commands)            # commands = parser.add_subparsers(...)
    ...
    if args.command == "arena":
        return run_arena(args)

:func:`run_arena` prints its own one-line errors (``tarneeb: error: ...``) and
returns 2 on bad input, so it needs nothing from the caller. :func:`main`
runs the same command alone (``python -m tarneeb.arena``).
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from tarneeb.arena.journal import Journal, journal_seed
from tarneeb.arena.progress import progress_bar
from tarneeb.arena.report import format_report, plot_path, save_plot, summarize, write_json
from tarneeb.arena.run import FORMATS, ArenaConfig, ArenaError, play_arena
from tarneeb.bots import BOTS, make_bot
from tarneeb.cliargs import add_option_flag
from tarneeb.errors import TarneebError
from tarneeb.presets import DEFAULT_PRESET, find_rules
from tarneeb.rules import parse_rule_changes
from tarneeb.tournament import DEFAULT_SETS

__all__ = ["add_arena_parser", "arena_config", "main", "run_arena"]

PROG = "tarneeb"
EXIT_USAGE = 2
SETS_FORMAT_SETS = 13
"""Sets in a match of ``--format sets`` unless the rules or ``-o sets=N`` say otherwise."""
DEALS_PER_SET = 200
"""The default deal cap of a match, per set: two weak bots may never reach the target."""
MATCHES = 100
"""Matches of ``--format match`` and ``sets`` unless ``--matches`` says otherwise."""

DESCRIPTION = f"""\
Duplicate matches between two bots (or king of the table between several,
see the formats): each pair of matches is dealt the same cards with the
bots' sides swapped, so the luck of the cards cancels.
--matches N counts matches played (N/2 duplicate pairs; N must be even).
Prints match wins with a 95% Wilson interval, points per deal difference with
its interval, contracts bid and made by level, and time per decision.
Formats: match (to the target), sets (a match of {SETS_FORMAT_SETS} sets, most
points wins), king (king of the table, the Levant's tournament: each bot is a
pair, the pairs queue, each set is one match to the target, not duplicate,
and its loser goes to the back of the queue while the next pair takes its
seats; --matches N sets, {DEFAULT_SETS} by default, --streak K ends it early
when a pair wins K sets in a row). Bots: {", ".join(BOTS)} (with options as
heuristic:aggressive). The same seed gives the same results with any
--workers."""


def add_arena_parser(subparsers: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """Add the ``arena`` command to ``subparsers`` (of the main ``tarneeb`` parser)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "arena",
        help="duplicate matches between bots, with confidence intervals",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--bots",
        required=True,
        metavar="A,B",
        help="bots separated by commas: two, or two or more for --format king",
    )
    parser.add_argument(
        "--matches",
        type=int,
        default=None,
        metavar="N",
        help=f"matches to play, even: N/2 duplicate pairs (default {MATCHES}); "
        f"for king, the sets (default {DEFAULT_SETS})",
    )
    parser.add_argument(
        "--streak",
        type=int,
        default=None,
        metavar="K",
        help="king only: end the tournament when a pair wins K sets in a row",
    )
    parser.add_argument(
        "--rules",
        default=DEFAULT_PRESET,
        metavar="NAME",
        help=f"a preset (default {DEFAULT_PRESET})",
    )
    add_option_flag(parser, "target=11")
    parser.add_argument(
        "--seed", type=int, default=None, metavar="N", help="seed of the run (default: random)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="K",
        help="worker processes (default: one a CPU; 1 plays in this process)",
    )
    parser.add_argument(
        "--format", choices=FORMATS, default="match", help="match (default), sets or king"
    )
    parser.add_argument(
        "--max-deals",
        type=int,
        default=None,
        metavar="D",
        help=f"stop a match after D deals, drawn (default {DEALS_PER_SET} a set)",
    )
    parser.add_argument(
        "--json", default=None, metavar="FILE", help="write the results and every game record"
    )
    parser.add_argument(
        "--plot",
        default=None,
        metavar="FILE.png",
        help="plot the score distribution (needs the plot extra: matplotlib)",
    )
    parser.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="run on the Ray cluster at ADDRESS, or 'local' (needs the ray extra)",
    )
    parser.add_argument(
        "--double-dummy",
        action="store_true",
        help="analyze every played deal double dummy and report the tricks each bot lost "
        "against perfect play, and how often it took a trick from partner's sure winner "
        "(uses DDS where the solver extra is installed)",
    )
    parser.add_argument(
        "--journal",
        default=None,
        metavar="FILE",
        help="write each match to FILE as it ends; the same command again goes on where "
        "it stopped (the seed, when not given, is the journal's; --matches may grow)",
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar even on a terminal"
    )
    parser.set_defaults(command="arena")
    return parser


def arena_config(args: argparse.Namespace) -> ArenaConfig:
    """The run the parsed command line asks for.

    :raises TarneebError: (bot, rules or arena error) naming the valid choices.
    """
    specs = [spec.strip() for spec in str(args.bots).split(",")]
    if not all(specs):
        raise ArenaError(f"--bots expects names separated by commas, not {args.bots!r}")
    for spec in specs:
        make_bot(spec)
    rules = find_rules(args.rules)
    changes = parse_rule_changes(args.options, flag="--option")
    if args.format == "sets" and rules.sets == 1 and "sets" not in changes:
        changes["sets"] = SETS_FORMAT_SETS
    if changes:
        rules = rules.replace(**changes)
    king = args.format == "king"
    # A set of king of the table is one set of the rules, whatever their sets.
    per_match = 1 if king else rules.sets
    max_deals = args.max_deals if args.max_deals is not None else DEALS_PER_SET * per_match
    seed = args.seed
    if seed is None and getattr(args, "journal", None) is not None:
        seed = journal_seed(args.journal)  # going on with a journaled run
    if seed is None:
        seed = secrets.randbelow(2**32)
    matches = args.matches
    if matches is None:
        matches = DEFAULT_SETS if king else MATCHES
    if args.streak is not None and not king:
        raise ArenaError("--streak ends king of the table only (--format king)")
    return ArenaConfig(
        bots=tuple(specs),
        matches=matches,
        rules=rules,
        seed=seed,
        max_deals=max_deals,
        format=args.format,
        keep_records=args.json is not None,
        preset=args.rules.strip().lower(),
        double_dummy=args.double_dummy,
        streak=args.streak,
    )


def _check_output(path: str | None, flag: str) -> None:
    """Refuse, before hours of play, a file the run could not write at its end (no folder,
    a folder in its place, a read-only or virtual file system): it is opened for
    appending, and removed again when it was not there before."""
    if path is None:
        return
    target = Path(path)
    parent = target.parent
    if not parent.is_dir():
        raise ArenaError(f"{flag} {path}: no folder {str(parent)!r}")
    existed = target.exists()
    try:
        with target.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise ArenaError(f"{flag} {path}: cannot write it ({exc.strerror or exc})") from None
    if not existed:
        target.unlink(missing_ok=True)


def _fail(message: str) -> int:
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_USAGE


def run_arena(args: argparse.Namespace) -> int:
    """Run ``tarneeb arena`` with parsed ``args``; the exit status.

    Bad input prints one line ``tarneeb: error: ...`` naming the valid
    choices, and returns 2 before anything is played.
    """
    try:
        config = arena_config(args)
        workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
        if workers < 1:
            raise ArenaError(f"--workers {workers}: give at least 1")
        _check_output(args.json, "--json")
        _check_output(args.journal, "--journal")
        journal = None if args.journal is None else Journal.open(args.journal, config)
        _check_output(args.plot, "--plot")
        plot = None if args.plot is None else plot_path(args.plot)
        with progress_bar(config.matches, config.labels, not args.no_progress) as done:
            result = play_arena(
                config, workers=workers, ray_address=args.ray, done=done, journal=journal
            )
    except TarneebError as exc:
        return _fail(str(exc))
    summary = summarize(result)
    sys.stdout.write(format_report(result, summary))
    try:
        if args.json is not None:
            write_json(result, args.json)
            print(f"results and {len(result.outcomes)} game records written to {args.json}")
        if plot is not None:
            save_plot(result, plot)
            print(f"plot written to {plot}")
    except OSError as exc:  # checked before the run; the disk may have filled since
        where = exc.filename or args.json or args.plot
        print(f"{PROG}: error: cannot write {where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def main(argv: Sequence[str] | None = None) -> int:
    """``tarneeb arena`` alone: ``main(["arena", "--bots", "heuristic,random", ...])``."""
    parser = _Parser(prog=PROG)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_arena_parser(commands)
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        return _fail(str(exc))
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    return run_arena(args)
