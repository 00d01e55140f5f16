"""``tarneeb analyze``: double-dummy analysis of a record, a deal line or four hands.

The main ``tarneeb`` command hooks this in with::

    from tarneeb.solver.cli import add_analyze_parser, run_analyze
    add_analyze_parser(commands)          # commands = parser.add_subparsers(...)
    ...
    if args.command == "analyze":
        return run_analyze(args)

:func:`run_analyze` prints its own one-line errors (``tarneeb: error: ...``)
and returns 2 on bad input. :func:`main` runs the command alone.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tarneeb.deal import Deal
from tarneeb.errors import TarneebError
from tarneeb.presets import find_rules
from tarneeb.solver.analysis import (
    DealAnalysis,
    analyses_to_json,
    analyze_deals,
    analyze_hands,
    format_analysis,
    read_deals,
)
from tarneeb.solver.solve import BACKENDS, backend_name

__all__ = ["add_analyze_parser", "main", "run_analyze"]

PROG = "tarneeb"
EXIT_USAGE = 2

DESCRIPTION = """\
Double-dummy analysis. RECORD_OR_DEAL is a match record file (JSON), a file
or argument holding a deal line (tarneeb-deal/1 ...), or four hands:
'S=AKQ.JT9.8.765 E=... N=... W=...' (or four hands by suit, in the order
S E N W). Prints each deal's double-dummy table (tricks of the declarer's side
for each strain, the declarer leading) and, for a played deal, North-South's
double-dummy tricks after every card, marking each card that cost its side a
trick."""


def add_analyze_parser(subparsers: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """Add the ``analyze`` command to ``subparsers`` (of the main ``tarneeb`` parser)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "analyze",
        help="double-dummy analysis of a record, a deal or four hands",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "source", metavar="RECORD_OR_DEAL", help="a record file, a deal line or four hands"
    )
    parser.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    parser.add_argument(
        "--backend",
        default="auto",
        choices=BACKENDS,
        help=(
            "the solver: dds (endplay), own (pure Python: 3-45 s a deal, DDS's 0.3 s) "
            "or auto (dds when installed, the default)"
        ),
    )
    parser.add_argument(
        "--rules",
        default=None,
        metavar="NAME",
        help="for four hands: the preset whose strains to solve (default: all five)",
    )
    parser.add_argument("--unicode", action="store_true", help="suit symbols in the output")
    return parser


def _fail(message: str) -> int:
    text = " ".join(message.split())
    print(f"{PROG}: error: {text}", file=sys.stderr)
    return EXIT_USAGE


def _read_source(source: str) -> str:
    path = Path(source)
    if "\n" not in source and len(source) < 4096:
        try:
            if path.is_file():
                return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise TarneebError(f"cannot read {source}: {exc}") from None
        looks_like_file = source.endswith((".json", ".txt")) or "/" in source
        if looks_like_file and not any(c in source for c in "= "):
            if path.is_dir():
                raise TarneebError(f"{source}: a directory, not a record or deal file")
            if path.exists():
                raise TarneebError(f"{source}: not a regular file")
            raise TarneebError(f"{source}: no such file")
    return source


def _with_progress(deals: Sequence[Deal], backend: str) -> list[DealAnalysis]:
    """The deals one at a time, saying on the terminal which one is being solved
    (our own solver can take minutes over a record); the line is wiped at the end."""
    out: list[DealAnalysis] = []
    try:
        for i, deal in enumerate(deals, 1):
            print(f"\r{PROG}: solving deal {i} of {len(deals)}...", end="", file=sys.stderr)
            sys.stderr.flush()
            out.extend(analyze_deals([deal], backend))
    finally:
        print("\r\033[K", end="", file=sys.stderr)
    return out


def run_analyze(args: argparse.Namespace) -> int:
    """Run ``tarneeb analyze`` with parsed ``args``; the exit status."""
    try:
        name = backend_name(args.backend)
        found = read_deals(_read_source(args.source))
        if name == "own" and args.backend == "auto":
            print(
                "tarneeb: note: DDS is not installed, so our own solver runs; it takes "
                "3-45 s a deal (pip install 'tarneeb[solver]' for DDS)",
                file=sys.stderr,
            )
        if isinstance(found, tuple):
            rules = find_rules(args.rules) if args.rules is not None else None
            analyses = [analyze_hands(found, rules, name)]
        elif len(found) > 1 and sys.stderr.isatty():
            analyses = _with_progress(found, name)
        else:
            analyses = analyze_deals(found, name)
    except TarneebError as exc:
        return _fail(str(exc))
    if args.json:
        sys.stdout.write(analyses_to_json(analyses, name) + "\n")
    else:
        sys.stdout.write(format_analysis(analyses, unicode=args.unicode))
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        raise SystemExit(_fail(message))


def main(argv: Sequence[str] | None = None) -> int:
    """``tarneeb analyze ARGV`` on its own (``python -m tarneeb.solver.cli``)."""
    parser = _Parser(prog=PROG)
    commands = parser.add_subparsers(dest="command")
    add_analyze_parser(commands)
    try:
        args = parser.parse_args(["analyze", *(sys.argv[1:] if argv is None else argv)])
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0
    return run_analyze(args)


if __name__ == "__main__":
    raise SystemExit(main())
