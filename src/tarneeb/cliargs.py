"""Command-line flags that several ``tarneeb`` commands share (``rules``, ``play``, ``arena``)."""

from __future__ import annotations

import argparse

__all__ = ["add_option_flag"]


def add_option_flag(parser: argparse.ArgumentParser, example: str = "target=31") -> None:
    """``-o/--option KEY=VALUE``, repeatable, into ``args.options``; read it with
    :func:`tarneeb.rules.parse_rule_changes`."""
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        dest="options",
        metavar="OPTION=VALUE",
        help=f"change one rule option on top of the preset (repeatable), e.g. -o {example}",
    )
