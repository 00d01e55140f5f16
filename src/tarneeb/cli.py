"""The ``tarneeb`` command line.

These forms are promised to users (and checked by the tests):

* ``tarneeb --version``: ``tarneeb X.Y.Z``;
* ``tarneeb rules --list``: the preset names, one a line, nothing else;
* ``tarneeb rules NAME``: the rules reference for people of that preset;
* ``tarneeb rules NAME --lang ar``: the same in Arabic (or ``es``, ``nl``, ``ru``);
* ``tarneeb rules NAME --json``: its options as one JSON object;
* ``tarneeb rules NAME -o OPTION=VALUE ...``: options changed on top of the preset;
* ``tarneeb rules --markdown``: the whole reference, ``docs/rules.md``.

A mistake (an unknown preset, a bad option, a bad flag) prints one line
``tarneeb: error: ...`` on standard error and exits with status 2.

>>> main(["rules", "--list"])  # doctest: +ELLIPSIS
classic
lebanese31
...
0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from tarneeb._version import __version__
from tarneeb.arena.cli import add_arena_parser, run_arena
from tarneeb.cliargs import add_option_flag
from tarneeb.dataset import add_dataset_parser, run_dataset
from tarneeb.errors import TarneebError
from tarneeb.i18n import DEFAULT_LANGUAGE, LANGUAGES, find_language
from tarneeb.presets import DEFAULT_PRESET, PRESETS, find_rules
from tarneeb.reference import describe_rules, reference_markdown
from tarneeb.rules import parse_rule_changes
from tarneeb.server.cli import add_serve_parser, run_serve
from tarneeb.solver.cli import add_analyze_parser, add_export_parser, run_analyze, run_export
from tarneeb.tui.cli import add_play_parser, run_play

__all__ = ["main"]

PROG = "tarneeb"
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
"""The shell's status for a command stopped by Ctrl-C (128 + SIGINT)."""


class UsageError(Exception):
    """A command line that cannot be run as written."""


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose mistakes become one-line errors instead of usage dumps."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _build_parser() -> _Parser:
    parser = _Parser(
        prog=PROG,
        description="Tarneeb, the partnership trick-taking game of the Levant.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    rules = commands.add_parser(
        "rules",
        help="the rules reference: presets, options, the game in plain words",
        description=(
            "Print the rules of a preset for people, or its options as JSON; list the presets; "
            "or print the whole reference (docs/rules.md)."
        ),
    )
    rules.add_argument(
        "name",
        nargs="?",
        metavar="NAME",
        help=f"a preset (default: {DEFAULT_PRESET}); see --list",
    )
    rules.add_argument("--list", action="store_true", help="print the preset names, one a line")
    rules.add_argument("--json", action="store_true", help="print the options as a JSON object")
    rules.add_argument(
        "--markdown", action="store_true", help="print the whole reference (docs/rules.md)"
    )
    add_option_flag(rules)
    rules.add_argument(
        "--lang",
        metavar="LANG",
        help=f"the language to print the rules in: {', '.join(LANGUAGES)} (default: en)",
    )
    add_arena_parser(commands)
    add_play_parser(commands)
    add_analyze_parser(commands)
    add_export_parser(commands)
    add_serve_parser(commands)
    add_dataset_parser(commands)
    return parser


def _run_rules(args: argparse.Namespace) -> int:
    lang = DEFAULT_LANGUAGE if args.lang is None else find_language(args.lang)
    if args.json and args.lang is not None:
        raise UsageError("--json cannot go with --lang (the options have no language)")
    if args.list or args.markdown:
        flag = "--list" if args.list else "--markdown"
        extras = [
            what
            for what, given in (
                ("a preset name", args.name is not None),
                ("--json", args.json),
                ("-o", bool(args.options)),
                ("--markdown", args.list and args.markdown),
                ("--lang", args.list and args.lang is not None),
            )
            if given
        ]
        if extras:
            raise UsageError(f"{flag} cannot go with {', '.join(extras)}")
        if args.list:
            sys.stdout.write("".join(f"{name}\n" for name in PRESETS))
        else:
            _write_text(reference_markdown(lang))
        return 0
    name = DEFAULT_PRESET if args.name is None else args.name
    rules = find_rules(name)
    if args.options:
        rules = rules.replace(**parse_rule_changes(args.options, flag="-o"))
    if args.json:
        sys.stdout.write(json.dumps(rules.to_dict(), indent=2) + "\n")
    else:
        _write_text(describe_rules(rules, name.strip().lower(), lang))
    return 0


def _write_text(text: str) -> None:
    """Write to stdout, in UTF-8 where its own encoding cannot hold the text.

    (Arabic or Russian rules redirected to a file under a cp1252 locale.)
    """
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        reconfigure = getattr(sys.stdout, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8")
    sys.stdout.write(text)


def _fail(message: str) -> int:
    text = " ".join(message.split())
    print(f"{PROG}: error: {text}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        return _fail(str(exc))
    except SystemExit as exc:  # --help: argparse has printed it and wants to exit
        return exc.code if isinstance(exc.code, int) else 0
    try:
        if args.version:
            print(f"{PROG} {__version__}")
            return 0
        if args.command == "rules":
            return _run_rules(args)
        if args.command == "arena":
            return run_arena(args)
        if args.command == "play":
            return run_play(args)
        if args.command == "analyze":
            return run_analyze(args)
        if args.command == "export":
            return run_export(args)
        if args.command == "serve":
            return run_serve(args)
        if args.command == "dataset":
            return run_dataset(args)
        parser.print_help()
        return 0
    except (TarneebError, UsageError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        # Ctrl-C (a long analysis, an arena): stop with a line, not a traceback.
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``tarneeb rules --markdown | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
