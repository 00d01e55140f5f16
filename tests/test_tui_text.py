"""The terminal app speaks from the message catalogue (issue 18), in every language.

Every ``tui.*`` key the app's code names is in the English catalogue (the
other languages are held to the English keys by test_i18n.py); no module of
the app draws an English sentence of its own; ``tarneeb play --lang LANG``
draws the first screen in that language at 80x24, nothing cut.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import re
from pathlib import Path

import pytest

from support import ROOT
from tarneeb.i18n import LANGUAGES, core_catalogue

TUI = ROOT / "src" / "tarneeb" / "tui"
KEY = re.compile(r"""["'](tui\.[\w.-]*)""")


def used_keys() -> dict[str, set[str]]:
    """The ``tui.*`` keys named in the app's code, by file; an f-string's key up to its
    first ``{`` (a prefix that some key must have)."""
    found: dict[str, set[str]] = {}
    for path in sorted(TUI.glob("*.py")):
        for match in KEY.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(match.group(1), set()).add(path.name)
    return found


def test_the_app_names_its_texts_by_key() -> None:
    assert len(used_keys()) > 100  # the scan finds the keys (it cannot pass on nothing)


def test_every_tui_key_the_code_uses_is_in_the_english_catalogue() -> None:
    english = core_catalogue("en")
    missing = {
        key: files
        for key, files in used_keys().items()
        if key not in english
        and not (key.endswith(".") and any(k.startswith(key) for k in english))
    }
    assert missing == {}


def test_every_tui_key_of_the_catalogue_is_used() -> None:
    used = used_keys()
    unused = [
        key
        for key in core_catalogue("en")
        if key.startswith("tui.")
        and key not in used
        and not any(u.endswith(".") and key.startswith(u) for u in used)
    ]
    assert unused == []


# Text the app may still hold as literals: notation, styles, widget ids, glyphs.
_SENTENCE = re.compile(r"[A-Za-z]{3,} [A-Za-z]{2,} [A-Za-z]{2,}")
_WORD = re.compile(r"[A-Za-z]{3,}")
_DRAWING = {"say", "append", "Text", "print", "update", "ASK"}
"""Calls that put their text on the screen: no word of theirs may be a literal."""
_BRAND = {" Tarneeb ", "tarneeb: error: "}
"""The app's name, and the prefix of the CLI's error lines (in English, as all of tarneeb's)."""


def _drawn_literals(path: Path) -> list[str]:
    """String literals of ``path`` that read like English sentences, outside docstrings,
    argparse help, exceptions a programmer reads, and error lines of the CLI."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skip.add(id(body[0].value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))  # attribute docstrings
        if isinstance(node, ast.keyword) and node.arg in ("help", "description"):
            skip.update(id(n) for n in ast.walk(node.value))
        if isinstance(node, ast.Raise) and node.exc is not None:
            skip.update(id(n) for n in ast.walk(node.exc))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_fail":
            skip.update(id(n) for n in ast.walk(node))
    drawn: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            if name in _DRAWING and node.args:
                first = node.args[0]
                parts = first.values if isinstance(first, ast.JoinedStr) else [first]
                drawn.update(id(p) for p in parts if isinstance(p, ast.Constant))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and node.value not in _BRAND
        and (
            _SENTENCE.search(node.value)
            or (id(node) in drawn and _WORD.search(node.value) is not None)
        )
    ]


@pytest.mark.parametrize("name", sorted(p.name for p in TUI.glob("*.py")))
def test_no_module_of_the_app_draws_an_english_sentence_of_its_own(name: str) -> None:
    assert _drawn_literals(TUI / name) == []


def test_the_scan_for_english_sentences_finds_one() -> None:
    """The scan is not blind: a drawn sentence in a module is found."""
    sample = TUI.parent.parent.parent / "build" / "sample.py"
    sample.parent.mkdir(exist_ok=True)
    sample.write_text(
        'def f(say, text):\n    say("No trick has been played yet.")\n    text.append(f"{1} bid")\n'
    )
    try:
        assert _drawn_literals(sample) == ["No trick has been played yet.", " bid"]
    finally:
        sample.unlink()


# -- tarneeb play --lang -----------------------------------------------------------------


def _parse(*argv: str) -> argparse.Namespace:
    from tarneeb.tui.cli import add_play_parser

    parser = argparse.ArgumentParser(prog="tarneeb")
    add_play_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


def test_an_unknown_language_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from tarneeb.tui.cli import run_play

    assert run_play(_parse("--lang", "xx", "--list")) == 2
    err = capsys.readouterr().err
    assert err == "tarneeb: error: no language 'xx'; the languages are: en, ar, es, nl, ru\n"


def test_the_saved_matches_list_speaks_the_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from tarneeb.tui.cli import run_play

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert run_play(_parse("--lang", "ru", "--list")) == 0
    assert capsys.readouterr().out.startswith("В ")
    assert run_play(_parse("--lang", "es", "--list")) == 0
    assert capsys.readouterr().out.startswith("No hay partidas guardadas en ")


def test_with_an_easy_partner_the_hints_are_the_heuristic_bot_s_never_a_slip(
    tmp_path: Path,
) -> None:
    """The terminal's hints came from the partner's bot: with ``--partner easy`` a
    quarter of the card hints were easy's slips, their reasons in English."""
    import random

    from tarneeb import find_rules
    from tarneeb.bots import HeuristicBot
    from tarneeb.tui.controller import GameController

    path = tmp_path / "m.json"
    game = GameController.new(
        find_rules("classic"), seed=4, partner="easy", opponents="easy", save_path=path
    )
    plain = HeuristicBot(random.Random(0))
    hints = 0
    while len(game.match.deals) < 3 and not game.match.is_over():
        if game.human_to_act:
            hint = game.hint()
            assert hint.action == plain.decide(game.view()).action
            assert not hint.reason.name.startswith("slip-"), hint.reason
            hints += 1
            game.play(hint.action)
        else:
            game.run_bots()
    assert hints > 20
    game.save()
    assert isinstance(GameController.resume(path).hint_bot, HeuristicBot)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_why_a_save_failed_is_said_in_the_player_s_language(lang: str) -> None:
    """ "Not saved (Not a directory)" was the system's English in every language; the
    reasons a player can act on (a full disk, no permission, the folder gone) are now
    the catalogue's, and any other keeps the system's words."""
    import errno

    from tarneeb.tui.names import OS_REASONS, os_reason

    tr = core_catalogue(lang)
    for number, key in OS_REASONS.items():
        exc = OSError(number, "the system's words")
        assert os_reason(exc, lang) == tr[f"tui.oserror.{key}"] != "the system's words"
    assert os_reason(OSError(errno.EIO, "Input/output error"), lang) == "Input/output error"
    assert os_reason(OSError("no number"), lang) == "OSError"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_saved_matches_list_lines_up_its_columns_in_every_language(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``tarneeb play --list`` padded the preset's name to 11 characters, so in Russian
    ("Сирийский 400") and Arabic the deal, the score and the state stood at a
    different place on each row. Every column now starts at the same cell."""
    from tarneeb import find_rules
    from tarneeb.tui.cli import run_play
    from tarneeb.tui.controller import GameController
    from tarneeb.tui.saves import saves_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    for number, preset in enumerate(("classic", "syrian400", "egyptian")):
        path = saves_dir() / f"2026-12-0{number + 1}-000000-{preset}.json"
        game = GameController.new(find_rules(preset), seed=3, save_path=path, bot_delay=0)
        game.save()
    assert run_play(_parse("--lang", lang, "--list", "--ascii")) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if re.match(r" *\d+\. ", line)]
    assert len(rows) == 3, rows
    tr = core_catalogue(lang)
    for word in (tr["tui.list.deal"].split("{")[0].strip(), tr["tui.list.unfinished"]):
        assert len({row.index(word) for row in rows}) == 1, (word, rows)
    assert len({row.index(str(saves_dir())) for row in rows}) == 1, rows


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_screen_speaks_the_language_at_80x24_and_nothing_is_cut(
    lang: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("textual")
    from tarneeb import find_rules
    from tarneeb.tui.app import TarneebApp, screen_text
    from tarneeb.tui.controller import GameController

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game = GameController.new(find_rules("classic"), seed=7, save_path=None, bot_delay=0)
    game.analyse = False
    app = TarneebApp(game, "classic", lang=lang)
    seen: dict[str, str] = {}

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            seen["screen"] = screen_text(app)

    asyncio.run(main())
    from rich.cells import cell_len

    tr = core_catalogue(lang)
    lines = seen["screen"].splitlines()
    assert len(lines) <= 24 and all(cell_len(line) <= 80 for line in lines)
    keys_line = next(line for line in lines if "h " in line and "Esc" in line)
    assert keys_line.strip() == tr["tui.keys"]  # the whole key line: not cut
    assert tr["tui.auction.title"] in seen["screen"]
    assert tr["tui.seat.north"] in seen["screen"]
    assert tr["tui.legend.plain"] in seen["screen"]  # classic: no stakes multiplied, no x2
    status = tr["tui.status.your-call"]
    assert status in seen["screen"] or tr["tui.status.to-act"].split("{")[0] in seen["screen"]


def test_the_resume_question_is_asked_and_answered_in_the_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("textual")
    import tarneeb.tui.cli as play_cli
    from tarneeb.tui.app import TarneebApp
    from tarneeb.tui.controller import GameController

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(play_cli, "check_terminal", lambda: None)
    games: list[GameController] = []
    langs: list[str] = []

    def run(self: TarneebApp) -> int:
        games.append(self.game)
        langs.append(self.look.lang)
        return 0

    monkeypatch.setattr(TarneebApp, "run", run)
    prompts: list[str] = []
    answers = iter(["да"])
    monkeypatch.setattr(play_cli, "ASK", lambda prompt: prompts.append(prompt) or next(answers))
    assert play_cli.run_play(_parse("--seed", "7", "--rules", "classic")) == 0
    games[0].run_bots()
    games[0].play("pass")
    capsys.readouterr()
    assert play_cli.run_play(_parse("--lang", "RU")) == 0  # "да" = yes: the same match
    assert prompts == ["Продолжить её? [Y/n] "]
    assert capsys.readouterr().out.startswith(
        "Неоконченная партия Классика (сдача 1, С–Ю 0  В–З 0)"
    )
    assert games[1].save_path == games[0].save_path and langs == ["en", "ru"]


def test_play_s_help_offers_the_levels_and_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: "levels people choose: easy, medium, hard, expert as bot names the terminal
    app and the browser offer"; ``tarneeb play --help`` said only "--opponents BOT
    the opponents (default: heuristic)", and no screen named a level."""
    from tarneeb.bots import BOTS, LEVELS

    with pytest.raises(SystemExit):
        _parse("--help")
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--partner BOT your partner:", "--opponents BOT the opponents:"):
        assert option in text, text
    assert f"a level ({', '.join(LEVELS)})" in text, text
    assert all(name in text for name in BOTS), text
