"""``tarneeb play``: the command that starts the terminal app.

The main command line hooks it in with :func:`add_play_parser` and
:func:`run_play`. Textual is imported only when a game starts, so the rest of
``tarneeb`` works without it.

A mistake (an unknown preset or bot, a record that cannot be read) raises
:class:`~tarneeb.errors.TarneebError`, which the main command line prints as
one line with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tarneeb.errors import TarneebError
from tarneeb.presets import DEFAULT_PRESET, find_rules, preset_name
from tarneeb.seats import parse_seat
from tarneeb.tui.controller import DEFAULT_DELAY, GameController, default_save_path

__all__ = ["PlayError", "add_play_parser", "build_game", "keep_previous", "main", "run_play"]


class PlayError(TarneebError):
    """``tarneeb play`` cannot start as asked (e.g. Textual is not installed)."""


def add_play_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``play`` command to ``subparsers`` (from ``add_subparsers``); return its parser."""
    play: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help="play a match in the terminal against bots",
        description=(
            "Play a match in the terminal: you and a bot partner against two bots. "
            "The match is saved after every action; --resume continues it."
        ),
    )
    play.add_argument(
        "--rules", default=DEFAULT_PRESET, metavar="NAME", help="the preset (default: classic)"
    )
    play.add_argument("--seed", type=int, help="a seed for reproducible deals and bots")
    play.add_argument(
        "--partner", default="heuristic", metavar="BOT", help="your partner (default: heuristic)"
    )
    play.add_argument(
        "--opponents", default="heuristic", metavar="BOT", help="the opponents (default: heuristic)"
    )
    play.add_argument("--seat", default="S", metavar="SEAT", help="your seat (default: S)")
    play.add_argument("--resume", metavar="FILE", help="continue the match saved in FILE")
    play.add_argument(
        "--save",
        metavar="FILE",
        help=f"save the match there after every action (default: {default_save_path()})",
    )
    play.add_argument(
        "--delay",
        type=float,
        default=DEFAULT_DELAY,
        metavar="SECONDS",
        help=f"the bots' pause before acting (default: {DEFAULT_DELAY})",
    )
    play.add_argument("--instant", action="store_true", help="bots act at once (--delay 0)")
    play.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    return play


def build_game(args: argparse.Namespace) -> tuple[GameController, str | None]:
    """The controller the arguments ask for, and the preset's name.

    :raises TarneebError: on a bad preset, bot, seat, or record.
    """
    delay = 0.0 if args.instant else max(0.0, float(args.delay))
    save = Path(args.save).expanduser() if args.save else None
    if args.resume:
        game = GameController.resume(Path(args.resume).expanduser(), save, delay)
        return game, preset_name(game.rules)
    rules = find_rules(args.rules)
    game = GameController.new(
        rules,
        seed=args.seed,
        partner=args.partner,
        opponents=args.opponents,
        human=parse_seat(args.seat),
        save_path=save if save is not None else default_save_path(),
        bot_delay=delay,
    )
    return game, args.rules.strip().lower()


def keep_previous(path: Path) -> Path | None:
    """Move an unfinished match saved at ``path`` aside before a new match overwrites it.

    Returns where it went (``NAME.previous.json``), or ``None`` when there was
    nothing to keep.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    try:
        over = bool(json.loads(text).get("result", {}).get("over"))
    except (ValueError, AttributeError):
        over = False
    if over:
        return None
    kept = path.with_name(path.stem + ".previous" + path.suffix)
    os.replace(path, kept)
    return kept


def _unicode_ok(ascii_flag: bool) -> bool:
    if ascii_flag:
        return False
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return encoding.startswith("utf")


def _fail(message: str) -> int:
    print(f"tarneeb: error: {' '.join(message.split())}", file=sys.stderr)
    return 2


def run_play(args: argparse.Namespace) -> int:
    """Run ``tarneeb play`` with parsed ``args``; the exit status.

    Bad input (a preset, bot, seat or record that does not exist or cannot be
    read, or no Textual) prints one line ``tarneeb: error: ...`` and returns 2
    before anything is shown.
    """
    try:
        try:
            from tarneeb.tui.app import TarneebApp
        except ImportError:
            raise PlayError("tarneeb play needs Textual: pip install 'tarneeb[play]'") from None
        game, preset = build_game(args)
        kept = None
        if not args.resume and game.save_path is not None:
            kept = keep_previous(game.save_path)
        game.save()
    except TarneebError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot save the match: {exc}")
    if kept is not None:
        print(f"The unfinished match saved before is now in {kept}")
    app = TarneebApp(game, preset, unicode=_unicode_ok(args.ascii))
    result = app.run()
    if game.save_path is not None and not game.match.is_over():
        print(f"Saved: continue with  tarneeb play --resume {game.save_path}")
    return result if isinstance(result, int) else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``tarneeb play`` alone: ``main(["play", "--seed", "1"])`` (``python -m tarneeb.tui``)."""
    parser = argparse.ArgumentParser(prog="tarneeb")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_play_parser(commands)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse has printed
        return exc.code if isinstance(exc.code, int) else 0
    return run_play(args)
