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
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tarneeb.bots import BOTS, LEVELS
from tarneeb.cliargs import add_option_flag
from tarneeb.errors import TarneebError
from tarneeb.i18n import DEFAULT_LANGUAGE, LANGUAGES, find_language, translator
from tarneeb.presets import DEFAULT_PRESET, find_rules, preset_name
from tarneeb.rules import parse_rule_changes
from tarneeb.seats import parse_seat
from tarneeb.tui import names
from tarneeb.tui.controller import DEFAULT_DELAY, GameController
from tarneeb.tui.saves import (
    SavedMatch,
    latest_unfinished,
    list_lines,
    list_saved,
    new_save_path,
    saves_dir,
)

__all__ = [
    "PlayError",
    "add_play_parser",
    "build_game",
    "check_terminal",
    "main",
    "run_play",
    "saved_match",
]

ASK: Callable[[str], str] = input
"""How the resume question is asked before the app starts (tests replace it)."""

_MATCH_OPTIONS = ("rules", "options", "seed", "partner", "opponents", "seat")
"""What makes a new match; none of it goes with --resume or --review."""


class PlayError(TarneebError):
    """``tarneeb play`` cannot start as asked (e.g. Textual is not installed)."""


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 60 seconds")
    return value


def add_play_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``play`` command to ``subparsers`` (from ``add_subparsers``); return its parser."""
    play: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help="play a match in the terminal against bots",
        description=(
            "Play a match in the terminal: you and a bot partner against two bots. "
            f"Every match is saved in its own file under {saves_dir()} after every "
            "action; tarneeb play offers to resume the last unfinished one, "
            "--list shows them all, --resume continues one, --review replays a "
            "finished deal with double-dummy costs."
        ),
    )
    play.add_argument("--rules", metavar="NAME", help=f"the preset (default: {DEFAULT_PRESET})")
    add_option_flag(play)
    play.add_argument("--seed", type=int, help="a seed for reproducible deals and bots")
    levels, others = ", ".join(LEVELS), ", ".join(n for n in BOTS if n not in LEVELS)
    play.add_argument(
        "--partner",
        metavar="BOT",
        help=f"your partner: a level ({levels}) or a bot ({others}), with options as "
        "hard:steady (default: heuristic, as medium); the hints are its moves (the "
        "heuristic's, for easy and random, which err on purpose)",
    )
    play.add_argument(
        "--opponents",
        metavar="BOT",
        help=f"the opponents: a level ({levels}) or a bot ({others}) (default: heuristic)",
    )
    play.add_argument("--seat", metavar="SEAT", help="your seat (default: S)")
    play.add_argument(
        "--resume", metavar="FILE|N", help="continue a saved match (a file, or a number of --list)"
    )
    play.add_argument("--new", action="store_true", help="start a new match without asking")
    play.add_argument("--list", action="store_true", help="list the saved matches and stop")
    play.add_argument(
        "--review",
        metavar="FILE|N",
        help="review the finished deals of a saved match (a file, or a number of --list)",
    )
    play.add_argument(
        "--save", metavar="FILE", help="save the match in FILE (default: a new file per match)"
    )
    play.add_argument(
        "--delay",
        type=_delay,
        default=DEFAULT_DELAY,
        metavar="SECONDS",
        help=f"the bots' pause before acting, 0 to 60 (default: {DEFAULT_DELAY})",
    )
    play.add_argument("--instant", action="store_true", help="bots act at once (--delay 0)")
    play.add_argument("--ascii", action="store_true", help="letters and ASCII only, no symbols")
    play.add_argument(
        "--lang",
        default=DEFAULT_LANGUAGE,
        metavar="LANG",
        help=f"the language of the screens: {', '.join(LANGUAGES)} (default: {DEFAULT_LANGUAGE})",
    )
    return play


def saved_match(text: str) -> Path:
    """The file ``text`` names: a path, or the number of a match in ``--list`` (1 = newest).

    :raises PlayError: for a number that is not on the list.
    """
    if text.isdigit():
        saved = list_saved()
        number = int(text)
        if not 1 <= number <= len(saved):
            raise PlayError(
                f"no saved match number {number} (tarneeb play --list shows {len(saved)})"
            )
        return saved[number - 1].path
    return Path(text).expanduser()


def _check_alone(args: argparse.Namespace, flag: str) -> None:
    given = [
        f"--{name}" if name != "options" else "-o"
        for name in _MATCH_OPTIONS
        if getattr(args, name, None) not in (None, [], False)
    ]
    if given:
        raise PlayError(
            f"{flag} continues a saved match with its own rules, bots and seats: "
            f"{', '.join(given)} cannot go with it"
        )


def build_game(args: argparse.Namespace) -> tuple[GameController, str | None]:
    """The controller the arguments ask for, and the preset's name.

    :raises TarneebError: on a bad preset, option, bot, seat, or record, or
        options that do not go together.
    """
    delay = 0.0 if args.instant else float(args.delay)
    save = Path(args.save).expanduser() if args.save else None
    if args.resume:
        _check_alone(args, "--resume")
        game = GameController.resume(saved_match(args.resume), save, delay)
        return game, preset_name(game.rules)
    name = args.rules if args.rules is not None else DEFAULT_PRESET
    rules = find_rules(name)
    if args.options:
        rules = rules.replace(**parse_rule_changes(args.options, flag="-o"))
    preset = name.strip().lower() if not args.options else preset_name(rules)
    game = GameController.new(
        rules,
        seed=args.seed,
        partner=args.partner or "heuristic",
        opponents=args.opponents or "heuristic",
        human=parse_seat(args.seat or "S"),
        save_path=save if save is not None else new_save_path(preset or "custom"),
        bot_delay=delay,
    )
    return game, preset


def check_terminal() -> None:
    """Refuse to start the app where it cannot draw: no terminal, or ``TERM=dumb``.

    :raises PlayError: with what to do instead.
    """
    if os.environ.get("TERM", "") == "dumb":
        raise PlayError(
            "tarneeb play needs a terminal that can move the cursor (TERM=dumb cannot); "
            "run it in a terminal emulator, or use tarneeb arena / tarneeb analyze"
        )
    streams = ((sys.stdin, "input"), (sys.stdout, "output"), (sys.stderr, "error output"))
    for stream, what in streams:
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        if not tty:
            raise PlayError(
                f"tarneeb play needs a terminal, but its {what} is not one "
                "(a pipe or a file); run it in a terminal"
            )


def _unicode_ok(ascii_flag: bool) -> bool:
    if ascii_flag:
        return False
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return encoding.startswith("utf")


def _fail(message: str) -> int:
    print(f"tarneeb: error: {' '.join(message.split())}", file=sys.stderr)
    return 2


def _print_list(lang: str = DEFAULT_LANGUAGE, unicode: bool = True) -> int:
    tr = translator(lang)
    saved = list_saved()
    if not saved:
        print(tr("tui.list.none", folder=saves_dir()))
        return 0
    print(tr("tui.list.head", folder=saves_dir()))
    for line in list_lines(saved, lang, unicode):
        print(line)
    print(tr("tui.list.foot"))
    return 0


def _offer_resume(args: argparse.Namespace) -> SavedMatch | None:
    """The unfinished match to resume, when the player says so (only for a plain
    ``tarneeb play``: no --new, --resume, --save, nor options making a new match)."""
    if args.new or args.save or args.resume or args.review:
        return None
    if any(getattr(args, name) not in (None, []) for name in ("rules", "options", "seed")):
        return None
    last = latest_unfinished()
    if last is None:
        return None
    tr = translator(args.lang)
    unicode = _unicode_ok(args.ascii)
    score = names.score_text(last.scores, args.lang, unicode)
    rules = names.preset_label(last.rules, args.lang)
    print(tr("tui.resume.found", rules=rules, deal=last.deals, score=score))
    print(f"  {last.path}")
    try:
        answer = ASK(tr("tui.resume.ask") + " ").strip().lower()
    except EOFError:
        answer = "n"
    yes = {"", "y", "yes", *tr("tui.resume.yes").lower().split()}
    return last if answer in yes else None


def run_play(args: argparse.Namespace) -> int:
    """Run ``tarneeb play`` with parsed ``args``; the exit status.

    Bad input (a preset, option, bot, seat or record that does not exist or
    cannot be read, options that do not go together, no Textual, no terminal)
    prints one line ``tarneeb: error: ...`` and returns 2 before anything is shown.
    """
    try:
        args.lang = find_language(args.lang)
    except TarneebError as exc:
        return _fail(str(exc))
    if args.list:
        return _print_list(args.lang, _unicode_ok(args.ascii))
    try:
        try:
            from tarneeb.tui.app import TarneebApp
        except ImportError:
            raise PlayError("tarneeb play needs Textual: pip install 'tarneeb[play]'") from None
        if args.review:
            _check_alone(args, "--review")
            game = GameController.resume(saved_match(args.review), None, 0.0)
            preset = preset_name(game.rules)
        else:
            if args.resume:
                _check_alone(args, "--resume")
            check_terminal()
            resume = _offer_resume(args)
            if resume is not None:
                args.resume = str(resume.path)
            game, preset = build_game(args)
            game.save()
            if game.save_error is not None:  # before any move: nothing is lost yet
                return _fail(f"cannot save the match in {game.save_path}: {game.save_error}")
        if args.review:
            check_terminal()
    except TarneebError as exc:
        return _fail(str(exc))
    app = TarneebApp(
        game, preset, unicode=_unicode_ok(args.ascii), review=bool(args.review), lang=args.lang
    )
    result = app.run()
    game.save()  # a last try, where a write failed during the match
    if game.save_failure is not None:
        why = names.os_reason(game.save_failure, args.lang)
        print(translator(args.lang)("tui.unsaved", why=why, path=game.save_path), file=sys.stderr)
        return 1
    if game.save_path is not None and not game.match.is_over():
        print(translator(args.lang)("tui.saved", path=game.save_path))
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
