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

__all__ = ["add_analyze_parser", "add_export_parser", "main", "run_analyze", "run_export"]

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
    parser.add_argument(
        "--deal",
        type=int,
        default=None,
        metavar="N",
        help="only the Nth deal of the record (1 for the first)",
    )
    parser.add_argument("--unicode", action="store_true", help="suit symbols in the output")
    return parser


def add_export_parser(subparsers: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """Add the ``export`` command to ``subparsers`` (of the main ``tarneeb`` parser)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "export",
        help="write a record's deals as PBN, the bridge world's hand records",
        description=(
            "Write the deals of a match record, an arena's JSON file or deal lines as PBN "
            "(Portable Bridge Notation), which bridge tools open: the hands, the trump as "
            "the strain, the declarer, the result and the play; our auction, rules and "
            "points in Tarneeb... tags. Seats are mapped by play order: our South is "
            "PBN's North."
        ),
    )
    parser.add_argument("source", metavar="RECORD_OR_DEAL", help="a record file or a deal line")
    parser.add_argument(
        "--deal", type=int, default=None, metavar="N", help="only the Nth deal of the record"
    )
    parser.add_argument(
        "-o", "--output", default=None, metavar="FILE", help="write to FILE, not to stdout"
    )
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
        looks_like_file = source.endswith((".json", ".txt", ".pbn")) or "/" in source
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


def _pick(found: list[Deal], number: int | None) -> list[Deal]:
    """The ``--deal N`` of ``found``, or all of them."""
    if number is None:
        return found
    if not 1 <= number <= len(found):
        many = "one deal" if len(found) == 1 else f"{len(found)} deals"
        raise TarneebError(f"--deal {number}: the source has {many} (1 to {len(found)})")
    return [found[number - 1]]


def run_export(args: argparse.Namespace) -> int:
    """Run ``tarneeb export`` with parsed ``args``; the exit status."""
    from tarneeb.pbn import write_pbn

    try:
        found = read_deals(_read_source(args.source))
        if isinstance(found, tuple):
            raise TarneebError("export writes played deals: give a record or a deal line")
        text = write_pbn(_pick(found, args.deal))
        if args.output is None:
            sys.stdout.write(text)
        else:
            try:
                Path(args.output).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise TarneebError(f"cannot write {args.output}: {exc.strerror}") from None
    except TarneebError as exc:
        return _fail(str(exc))
    return 0


def run_analyze(args: argparse.Namespace) -> int:
    """Run ``tarneeb analyze`` with parsed ``args``; the exit status."""
    try:
        name = backend_name(args.backend)
        found = read_deals(_read_source(args.source))
        if isinstance(found, tuple) and args.deal is not None:
            raise TarneebError("--deal picks a deal of a record; four hands are one deal")
        if not isinstance(found, tuple):
            found = _pick(found, args.deal)
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
    first = 1 if args.deal is None else args.deal
    if args.json:
        sys.stdout.write(analyses_to_json(analyses, name, first) + "\n")
    else:
        sys.stdout.write(format_analysis(analyses, unicode=args.unicode, first=first))
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
