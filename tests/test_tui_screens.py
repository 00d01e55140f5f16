"""``tarneeb play`` on every screen (issue 20): calls under their seats, saves, sizes, colour,
keys by phase, the rules page, individual and card-point scoring, the review of a deal.

Each test names the bug it guards against; each fails on the app as it was before.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

import tarneeb.tui.cli as play_cli
from tarneeb import Match, Phase, Seat, find_rules
from tarneeb.actions import Card, ChooseTrump, Stand
from tarneeb.bots import Decision, HeuristicBot, make_bot
from tarneeb.i18n import LANGUAGES, translator
from tarneeb.presets import PRESETS
from tarneeb.record import read_record
from tarneeb.tui import review
from tarneeb.tui.app import TarneebApp, screen_text
from tarneeb.tui.cli import add_play_parser, run_play
from tarneeb.tui.controller import DealEnd, GameController
from tarneeb.tui.render import HELP_WIDTH, Look, auction_text, help_text, status_line
from tarneeb.tui.review import review_text
from tarneeb.tui.saves import list_saved, saves_dir
from tarneeb.tui.screens import rules_markdown
from tarneeb.view import View

COLUMNS = {seat: 7 * int(seat) for seat in Seat}
"""Where each seat's column of the auction grid starts (S E N W, six wide, one apart)."""


@pytest.fixture(autouse=True)
def _data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("NO_COLOR", raising=False)


def new_game(preset: str = "classic", seed: int = 45, **options: object) -> GameController:
    rules = find_rules(preset).replace(**options) if options else find_rules(preset)
    game = GameController.new(rules, seed=seed, save_path=None, bot_delay=0)
    game.analyse = False
    return game


def finish_deal(game: GameController) -> None:
    """Play the current deal to its end: the human as the hint bot says."""
    count = len(game.match.deals)
    while len(game.match.deals) == count and not game.match.is_over():
        if game.human_to_act:
            game.play(game.hint().action)
        else:
            game.run_bots()


def play_to_the_end(game: GameController, scores: tuple[int, ...]) -> None:
    """A match from ``scores`` played out by four heuristic bots, in place of ``game``'s."""
    game.match = Match(game.rules, seed=3, scores=scores)
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    while not game.match.is_over():
        seat = game.match.to_act
        assert seat is not None
        game.match.push(bots[seat].act(game.match.view(seat)))


def run_app(
    game: GameController,
    script: Callable[[TarneebApp, Pilot[int]], Awaitable[None]],
    size: tuple[int, int] = (80, 24),
    preset: str = "classic",
    unicode: bool = True,
    lang: str = "en",
) -> TarneebApp:
    app = TarneebApp(game, preset, unicode=unicode, lang=lang)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())
    return app


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tarneeb")
    add_play_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


# -- 1. the auction grid: every call under its seat ------------------------------------


def grid_cells(text: str) -> list[dict[Seat, str]]:
    rows = []
    for line in text.splitlines()[1:]:
        if "chose trump" in line or "no bids" in line:
            continue
        rows.append(
            {
                seat: line[col : col + 6].strip()
                for seat, col in COLUMNS.items()
                if line[col : col + 6].strip()
            }
        )
    return rows


def test_seed_45_east_pass_is_east_s_not_south_s() -> None:
    game = new_game()
    game.run_bots()
    game.play("pass")
    game.run_bots()
    rows = grid_cells(auction_text(game.view()).plain)
    # West 7, South pass, East 8, North pass, West 9, East pass (South is out: blank).
    assert rows == [
        {Seat.WEST: "7"},
        {Seat.SOUTH: "pass", Seat.EAST: "8", Seat.NORTH: "pass", Seat.WEST: "9"},
        {Seat.EAST: "pass"},
    ]


def test_an_egyptian_stand_or_raise_is_under_the_bidder_not_the_next_seat() -> None:
    game = new_game("egyptian")
    game.run_bots()
    game.play("pass")
    game.run_bots()
    history = [(s, a) for s, a in game.view().history if not isinstance(a, Card)]
    assert history[-1] == (Seat.NORTH, Stand())
    rows = grid_cells(auction_text(game.view()).plain)
    assert rows[-1] == {Seat.NORTH: "stand"}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_call_of_every_preset_sits_in_its_seat_s_column(preset: str) -> None:
    for seed in (1, 2, 45):
        game = new_game(preset, seed)
        finish_deal(game)
        deal = game.match.deals[0]
        calls = [(s, a) for s, a in deal.history if not isinstance(a, (Card, ChooseTrump))]
        text = auction_text(deal.view(Seat.SOUTH), unicode=False).plain
        cells = [(seat, cell) for row in grid_cells(text) for seat, cell in row.items()]
        said = [(s, Look(False).call(a)) for s, a in calls]
        assert cells == said, (preset, seed, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_calls_said_in_words_are_in_the_player_s_language(lang: str) -> None:
    """Pass, raise and stand were English in every language (the auction, the bidding
    box, the status); each is the catalogue's now, and its short form fits its cell."""
    tr = translator(lang)
    look = Look(lang=lang)
    for word in ("pass", "double", "raise", "stand", "redeal"):
        short = tr(f"call.short.{word}")
        assert Text(short).cell_len <= 6, (lang, word, short)
        assert short != f"call.short.{word}" and tr(f"call.{word}") != f"call.{word}"
    game = new_game("egyptian")
    game.run_bots()
    game.play("pass")
    game.run_bots()
    rows = grid_cells(auction_text(game.view(), look=look).plain)
    cells = [cell for row in rows for cell in row.values()]
    assert tr("call.short.pass") in cells and tr("call.short.stand") in cells, (lang, rows)
    if lang != "en":
        assert "pass" not in cells and "stand" not in cells, (lang, rows)


# -- 2. without colour, on a terminal that cannot draw ------------------------------------


def test_no_color_draws_red_suits_like_black_ones_and_brackets_what_may_not_be_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    game = new_game(seed=7)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        assert app.no_color and app.look.suit(Card.parse("AH").suit) == "bold"
        await pilot.press("8", "enter", "h", "enter", "enter", "enter", "enter")
        seen["screen"] = screen_text(app)

    run_app(game, script)
    hand = seen["screen"].splitlines()[21]
    assert hand.split() == [
        "T♠",
        "7♠",
        "(A♥)",
        "(K♥)",
        "(Q♥)",
        "(T♥)",
        "(Q♣)",
        "(2♣)",
        "(7♦)",
        "(2♦)",
    ]


def test_term_dumb_and_no_terminal_get_one_line_and_no_app(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(TarneebApp, "run", lambda self: pytest.fail("the app started"))
    monkeypatch.setenv("TERM", "dumb")
    assert run_play(parse("--seed", "1")) == 2
    err = capsys.readouterr().err
    assert err.startswith("tarneeb: error: tarneeb play needs a terminal") and err.count("\n") == 1
    monkeypatch.setenv("TERM", "xterm")  # pytest's streams are no terminal
    assert run_play(parse("--seed", "1")) == 2
    assert "is not one" in capsys.readouterr().err
    assert not list_saved()


# -- 3. the terminal's size ------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "small"), [((60, 20), True), ((80, 24), False), ((120, 40), False)]
)
def test_below_80x24_the_app_asks_to_enlarge_above_it_the_table_grows(
    size: tuple[int, int], small: bool
) -> None:
    game = new_game(seed=7)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        seen["screen"] = screen_text(app)

    run_app(game, script, size)
    text = seen["screen"]
    assert ("Enlarge the terminal to 80x24 (it is 60x20 now)" in text) == small
    if small:
        assert "Your hand" not in text and "Auction" not in text
        return
    assert "Auction" in text and "h hint" in text and "(D) dealer" in text
    north = next(line for line in text.splitlines() if "North (partner)" in line)
    if size[0] == 120:
        assert north.index("North") > 20  # centred on a wider table (at 80 columns: 13)
        assert any(len(line.rstrip()) > 100 for line in text.splitlines())


# -- 4. saves ------------------------------------------------------------------------


def test_every_match_has_its_own_file_and_a_rematch_does_not_overwrite_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(play_cli, "check_terminal", lambda: None)
    games: list[GameController] = []
    monkeypatch.setattr(TarneebApp, "run", lambda self: games.append(self.game) or 0)
    assert run_play(parse("--seed", "7")) == 0
    assert run_play(parse("--seed", "8", "--rules", "egyptian")) == 0
    first, second = (g.save_path for g in games)
    assert first is not None and second is not None and first != second
    assert first.parent == second.parent == saves_dir()
    texts = {first: first.read_text(encoding="utf-8")}
    old = games[0]
    old.rematch()
    assert old.save_path not in (first, second) and old.save_path is not None
    assert first.read_text(encoding="utf-8") == texts[first]
    assert json.loads(old.save_path.read_text(encoding="utf-8"))["seed"] == 8
    assert run_play(parse("--list")) == 0
    listed = capsys.readouterr().out
    assert listed.count("unfinished") == 3 and str(saves_dir()) in listed
    assert not list(saves_dir().glob("*.tmp")) and not list(saves_dir().glob(".*"))


def test_tarneeb_play_offers_to_resume_the_last_unfinished_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(play_cli, "check_terminal", lambda: None)
    games: list[GameController] = []
    monkeypatch.setattr(TarneebApp, "run", lambda self: games.append(self.game) or 0)
    answers = iter(["", "n"])
    monkeypatch.setattr(play_cli, "ASK", lambda prompt: next(answers))
    assert run_play(parse("--seed", "7", "--rules", "egyptian")) == 0  # options: no offer
    games[0].run_bots()
    games[0].play("pass")
    assert run_play(parse()) == 0  # "" = yes: the same file, the same match
    assert games[1].save_path == games[0].save_path and games[1].match == games[0].match
    assert run_play(parse()) == 0  # "n": a new match in a new file
    assert games[2].save_path != games[0].save_path
    assert len(list_saved()) == 2


def test_the_saved_list_and_the_resume_offer_name_the_preset_and_the_score_as_the_table_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tarneeb play --list`` wrote "classic ... NS 0 EW 0" in every language, and for a
    Syrian 400 match the sides' sums, which decide nothing there; the offer to resume
    said "An unfinished syrian400 match (deal 2, N–S -5 E–W 0)". Both now name the
    preset and the score as the table's header does."""
    monkeypatch.setattr(play_cli, "check_terminal", lambda: None)
    games: list[GameController] = []
    monkeypatch.setattr(TarneebApp, "run", lambda self: games.append(self.game) or 0)
    assert run_play(parse("--seed", "5", "--rules", "syrian400")) == 0
    finish_deal(games[0])
    games[0].save()
    s, e, n, w = games[0].match.seat_scores
    assert run_play(parse("--list", "--lang", "ru")) == 0
    listed = capsys.readouterr().out
    assert f"Сирийский 400  сдача 2  Ю {s}  В {e}  С {n}  З {w}  не окончена" in listed, listed
    assert "NS" not in listed and "С–Ю" not in listed, listed
    monkeypatch.setattr(play_cli, "ASK", lambda prompt: "n")
    assert run_play(parse("--lang", "nl")) == 0
    offer = capsys.readouterr().out
    assert f"(spel 2, Z {s}  O {e}  N {n}  W {w})" in offer and "Syrisch 400" in offer, offer


def saved_game(folder: Path) -> GameController:
    """A classic match saved in ``folder``, bots instant, no analysis."""
    game = GameController.new(
        find_rules("classic"), seed=45, save_path=folder / "m.json", bot_delay=0
    )
    game.analyse = False
    game.save()
    return game


def lose_the_folder(folder: Path) -> None:
    """The saves' folder replaced by a file: every save fails until it is removed."""
    shutil.rmtree(folder)
    folder.write_text("a file where the folder was")


def test_a_failed_save_stops_no_match_and_the_next_save_keeps_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The saves' folder replaced by a file mid-match (a full disk acts alike): the next
    move crashed the app with a traceback (``FileExistsError`` from ``write_atomic``)
    and the moves since the last save were lost. "No single ... failed disk write can
    stop a table; an acknowledged action is never lost." Now play goes on, the status
    says the match is not saved, and the next save writes every move."""
    folder = tmp_path / "matches"
    game = saved_game(folder)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        lose_the_folder(folder)
        for key in ["p", "enter"] * 3:
            await pilot.press(key)
            await pilot.pause()
        seen["failing"] = screen_text(app)
        folder.unlink()  # room again: the next move saves them all
        await pilot.press("p", "enter")
        await pilot.pause()
        seen["saved"] = screen_text(app)

    run_app(game, script)
    # the reason in the player's words, not the system's "Not a directory"
    reason = "Not saved (the saves' folder is missing or not a folder): play goes on"
    assert reason in " ".join(seen["failing"].split()), seen["failing"]
    assert "Not saved" not in seen["saved"] and game.save_error is None
    assert read_record((folder / "m.json").read_text(encoding="utf-8")) == game.match
    assert len(game.match.deal.history) > 4


def test_the_quit_question_says_when_the_last_moves_are_not_saved(tmp_path: Path) -> None:
    """With the saves' folder gone, Esc asked "Quit? The match is saved in PATH", and
    quitting lost the moves since. It now says they are not saved and why; once the
    folder is back, asking saves them, and it says so."""
    folder = tmp_path / "matches"
    game = saved_game(folder)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        lose_the_folder(folder)
        await pilot.press("p", "enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        seen["failing"] = screen_text(app)
        await pilot.press("n")
        folder.unlink()
        await pilot.press("escape")
        await pilot.pause()
        seen["back"] = screen_text(app)
        await pilot.press("n")

    run_app(game, script, size=(100, 30))
    failing = " ".join(seen["failing"].split())
    assert "The last moves are NOT saved (the saves' folder is missing" in failing, failing
    assert "The match is saved in" not in failing
    assert "The match is saved in" in " ".join(seen["back"].split()), seen["back"]
    assert read_record((folder / "m.json").read_text(encoding="utf-8")) == game.match


def test_a_match_left_unsaved_says_so_on_leaving_and_a_folder_never_written_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(play_cli, "check_terminal", lambda: None)

    def leave_with_the_folder_gone(self: TarneebApp) -> int:
        assert self.game.save_path is not None
        shutil.rmtree(self.game.save_path.parent)
        self.game.save_path.parent.write_text("no folder")
        self.game.run_bots()
        return 0

    monkeypatch.setattr(TarneebApp, "run", leave_with_the_folder_gone)
    assert run_play(parse("--seed", "7", "--lang", "es")) == 1
    err = capsys.readouterr().err
    reason = "(la carpeta de partidas falta o no es una carpeta)"
    assert err.startswith(f"tarneeb: no se pudo guardar la partida {reason}"), err
    assert err.count("\n") == 1, err
    assert run_play(parse("--new")) == 2  # the folder is a file: nothing to play into
    err = capsys.readouterr().err
    assert err.startswith("tarneeb: error: cannot save the match in ") and err.count("\n") == 1


class _Broken(HeuristicBot):
    """A bot that raises on each of its turns (a solver gone away, a bug)."""

    slow = True

    def decide(self, view: View) -> Decision:
        raise RuntimeError("the solver went away")


@pytest.mark.parametrize("slow", [True, False])
def test_a_failing_bot_stops_no_match_in_the_terminal(
    slow: bool, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot that raised ended the app with a traceback (the worker thread's error, for a
    slow bot), and resuming met the same bot at the same turn. Now the heuristic bot
    decides in its place and the failure goes to the log."""
    monkeypatch.setattr(_Broken, "slow", slow)
    game = new_game()
    for seat in (Seat.EAST, Seat.WEST):
        game.bots[seat] = _Broken()
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        for _ in range(40):
            await pilot.pause(0.05)
            if game.view().tricks:
                break
            if game.human_to_act:
                game.play(game.hint().action)
                app.screen.refresh_all()  # type: ignore[attr-defined]
                app.screen.after_action(None)  # type: ignore[attr-defined]
        seen["screen"] = screen_text(app)

    app = run_app(game, script)
    assert app.return_code in (None, 0)
    assert game.view().tricks, seen["screen"]
    failed = [r.getMessage() for r in caplog.records if r.name == "tarneeb.bots"]
    assert any("failed in" in m for m in failed), failed


def test_the_review_of_an_individual_deal_gives_each_player_s_bid_and_tricks() -> None:
    """The review (v) of a Syrian 400 deal ended "North-South took 5 tricks, East-West
    8.": each player bids and scores alone there, and the sides' tricks decide nothing.
    It ends as the deal's end does, player by player."""
    game = new_game("syrian400", seed=5)
    finish_deal(game)
    deal = game.match.deals[0]
    text = review_text(deal, 1, game.describe, Look(True)).plain
    assert "North-South took" not in text, text
    assert "\n".join(game.player_lines(deal)) in text, text
    assert f"bid {deal.bids[Seat.WEST]:>2}, took {deal.tricks_taken[Seat.WEST]:>2}" in text


def test_resume_with_new_match_options_and_a_negative_delay_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.json"
    game = GameController.new(find_rules("classic"), seed=1, save_path=path, bot_delay=0)
    game.save()
    assert run_play(parse("--resume", str(path), "--rules", "egyptian")) == 2
    err = capsys.readouterr().err
    assert "--rules cannot go with it" in err and err.count("\n") == 1
    with pytest.raises(SystemExit) as exc:
        parse("--delay", "-1")
    assert exc.value.code == 2
    assert "not between 0 and 60" in capsys.readouterr().err


def test_minus_o_changes_a_rule_as_tarneeb_rules_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_cli, "check_terminal", lambda: None)
    games: list[GameController] = []
    monkeypatch.setattr(TarneebApp, "run", lambda self: games.append(self.game) or 0)
    assert run_play(parse("--seed", "1", "-o", "target=31", "-o", "doubling=double")) == 0
    assert games[0].rules.target == 31
    assert run_play(parse("-o", "targett=31")) == 2


# -- 6, 7. status, keys by phase, help that follows the rules ---------------------------


def test_a_status_message_gives_way_once_the_bots_move() -> None:
    game = new_game(seed=7)
    seen: list[str] = []

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        game.bot_delay = 0.5
        app.table.act("8")  # the bots now pause, one after the other
        assert game.bot_to_act is not None
        app.table.show_hint()
        seen.append(app.table.message)
        deadline = time.monotonic() + 5
        while not game.human_to_act and time.monotonic() < deadline:
            await pilot.pause(0.05)
        await pilot.pause(0.1)
        seen.append(screen_text(app).splitlines()[22])

    run_app(game, script)
    assert "no hint: it is not your turn" in seen[0]
    assert "not your turn" not in seen[1] and "Your turn" in seen[1]


def test_an_individual_match_ends_with_each_players_score_not_the_sides_sums() -> None:
    """A syrian400 match played in tmux ended "NS win the match: you win. Final score: NS
    49, EW 71": North had reached 41 (EW's 71 was 38 and 33), but the sides' sums said
    the other side was ahead. The end names each player's score."""
    game = new_game("syrian400", seed=3)
    play_to_the_end(game, (36, 38, 30, 33))
    s, e, n, w = game.match.seat_scores
    lines = game.match_over_lines()
    assert f"Final score: S {s}, N {n}; E {e}, W {w} (target 41" in lines[-1]
    assert "NS " not in lines[-1] and "N–S" not in lines[-1]
    winner = game.match.winner
    assert winner is not None
    best = max((s, n) if winner.name == "NS" else (e, w))
    assert best >= 41, (lines, game.match.seat_scores)


def test_an_individual_score_sheet_has_each_player_s_points_not_the_sides_sums() -> None:
    """The same bug as the match's end, on the score sheet (s) of a Syrian 400 match:
    its columns were N–S and E–W (-5, +0 for S-3 E-12 N-2 W+12) and it said "Running
    score: N–S 8, E–W -12; target 41", though no side counts to 41 there: "each player
    scores alone ... a team wins when one partner reaches 41 while the other's score is
    positive" (RULES.md, the 400 that apps play). The score box's last line had the sums
    too ("last: #1 S-3 E-12 N-2 W+12 -5/+0"), and a deal's end "Score now: N–S 0, E–W
    25 (target 41)". A redealt deal's "thrown in" widened the South column."""
    game = new_game("syrian400", seed=5)
    for _ in range(3):
        finish_deal(game)
    deals = game.match.deals[:3]
    assert [d.thrown_in is not None for d in deals] == [False, False, True]
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        seen["box"] = screen_text(app)
        await pilot.press("s")
        seen["sheet"] = screen_text(app)
        await pilot.press("escape")
        app.screen.show_deal_end(DealEnd(deals[2], 3, False))  # type: ignore[attr-defined]
        await pilot.pause()
        seen["end"] = screen_text(app)

    run_app(game, script, preset="syrian400")
    sheet = [line.strip("│ ") for line in seen["sheet"].splitlines() if "│" in line]
    head = next(line for line in sheet if line.startswith("#"))
    assert head.split() == ["#", "dealer", "S", "E", "N", "W"], sheet
    for number, deal in enumerate(deals[:2], 1):
        assert deal.result is not None and deal.result.seat_points is not None
        row = next(line for line in sheet if line.startswith(f"{number} "))
        assert row.split()[2:] == [f"{p:+d}" for p in deal.result.seat_points], row
        assert row.index(row.split()[3]) == head.index(" E ") + 1, (head, row)  # E's column
    assert next(line for line in sheet if line.startswith("3 ")).endswith("thrown in"), sheet
    s, e, n, w = game.match.seat_scores
    assert f"Running score: S {s}, N {n}; E {e}, W {w}; target 41." in sheet, sheet
    assert f"Score now: S {s}, N {n}; E {e}, W {w} (target 41)." in seen["end"], seen["end"]
    for text in (seen["sheet"], seen["end"]):
        assert "N–S" not in text and "E–W" not in text, text
    last = next(line.split("▏")[1] for line in seen["box"].splitlines() if "last: #" in line)
    assert "/" not in last, last  # no sides' sums after each player's points


def test_an_individual_match_where_partner_may_be_at_zero_says_so_at_its_end() -> None:
    """The end's line said "(target 41, with partner above zero)" whatever the option:
    with ``partner_zero_ok`` a side wins with partner at zero ("some tables accept zero:
    make it an option", RULES.md)."""
    zero = new_game("syrian400", partner_zero_ok=True)
    plain = new_game("syrian400")
    for game in (zero, plain):
        play_to_the_end(game, (40, 38, 30, 33))
    assert "with partner at zero or more)" in zero.match_over_lines()[-1]
    assert "with partner above zero)" in plain.match_over_lines()[-1]


@pytest.mark.parametrize("preset", ["classic", "syrian400"])
def test_the_score_sheet_s_columns_line_up_on_screen_in_arabic(preset: str) -> None:
    """The sheet padded its columns by characters: Arabic's "الموزّع" (dealer) has a mark
    above a letter that takes no cell, so every column after it in the head stood one
    cell left of the rows'."""
    game = new_game(preset)
    finish_deal(game)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("s")
        seen["sheet"] = screen_text(app)

    run_app(game, script, preset=preset, lang="ar")
    lines = [line for line in seen["sheet"].splitlines() if "│" in line]
    head = next(i for i, line in enumerate(lines) if line.strip("│ ").startswith("#"))
    starts = [
        [Text(line[: m.start()]).cell_len for m in re.finditer(r"(?<=  )\S", line)]
        for line in lines[head : head + 2]
    ]
    assert starts[0][:3] == starts[1][:3], lines[head : head + 2]


def test_a_long_hint_takes_a_second_line_at_80x24_and_nothing_is_cut() -> None:
    """A search bot's hint in Russian ran past 80 columns and its end was cut ("(не хуже
    любой другой карты на 20" and no more): the status line takes a second row when it
    needs one, the table gives it up, and every other row is still there."""
    game = new_game(seed=7)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        app.table.say("Hint: 7♦: " + "a reason of many words " * 4 + "to its very end")
        await pilot.pause()
        seen["screen"] = screen_text(app)

    run_app(game, script)
    lines = seen["screen"].splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    assert "to its very end" in " ".join(lines[-3:-1])
    assert lines[-1].split()[:2] == ["h", "hint"]
    assert any("Your bid" in line for line in lines)  # the bidding box kept its title
    assert "Score" in seen["screen"] and "Tarneeb" in lines[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_turn_prompt_stays_whole_on_screen_after_the_longest_hint(lang: str) -> None:
    """At 80x24 a hint ran on into the turn prompt, which wrapped mid-phrase ("... (9 tricks
    to come)  Your" / "turn: play a card."), and after a Spanish hint of 131 characters it
    fell off the status rows altogether. The prompt now starts a row of its own when it
    does not fit after the hint, and the status takes a third row when it needs one."""
    game = new_game(seed=7)
    game.run_bots()
    seen: dict[str, str] = {}
    hint = "Hint: 7♦: " + "a reason of many words " * 5 + "to its very end"
    prompt = translator(lang)("tui.status.your-call")

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        for message in (hint, hint[:70], hint[:30]):
            app.table.say(message)
            await pilot.pause()
            seen[message] = screen_text(app)

    run_app(game, script, lang=lang)
    for message, screen in seen.items():
        lines = screen.splitlines()
        assert len(lines) == 24 and all(Text(line).cell_len <= 80 for line in lines)
        assert lines[-1].split()[:2] == translator(lang)("tui.keys").split()[:2]  # keys line last
        assert any(line.strip().endswith(prompt) for line in lines[-4:-1]), (lang, lines[-5:])
        assert "to its very end" in " ".join(lines[-5:-1]) or message != hint
        assert translator(lang)("web.app.name") in lines[0]  # the header still on screen
    short = seen[hint[:30]].splitlines()
    assert short[-2].strip().startswith(hint[:30].strip()) and short[-2].strip().endswith(prompt)


def test_trump_is_typed_with_its_letter_even_s_and_h_and_named_with_enter() -> None:
    game = new_game(seed=7)

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        keys = screen_text(app).splitlines()[-1]
        assert "s scores" in keys
        await pilot.press("8", "enter")
        assert game.match.deal.phase is Phase.TRUMP
        # the keys line offers only keys that do what it says: s types spades here (the
        # line said "s scores" at the trump choice, a play test found)
        keys = screen_text(app).splitlines()[-1]
        assert keys.split()[:2] == ["h", "hint"] and "s scores" not in keys
        await pilot.press("s")
        assert app.screen.name == "table"  # not the score sheet
        assert game.match.deal.trump is None and app.table.typed == "s"
        await pilot.press("enter")
        await pilot.pause()
        assert "s scores" in screen_text(app).splitlines()[-1]  # the play: the sheet again

    run_app(game, script)
    assert game.match.deals[0].trump is not None and game.match.deals[0].trump.letter == "S"


def test_h_at_the_trump_choice_hints_and_names_nothing_until_enter() -> None:
    """Playing a match in tmux, "h" pressed for a hint at the trump choice named hearts
    for good (a two-heart hand: the contract went down by four). One key never names trump
    now: h hints and types hearts, Esc takes it back, Enter names what is typed."""
    game = new_game(seed=7)

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("8", "enter")
        assert game.match.deal.phase is Phase.TRUMP
        await pilot.press("h")
        assert game.match.deal.trump is None
        assert "Hint: " in app.table.message
        assert "typed: h" in screen_text(app)
        await pilot.press("escape")  # takes the letter back; does not ask to quit
        assert app.screen.name == "table" and app.table.typed == ""
        await pilot.press("enter")  # nothing typed: the box's cursor names its suit
        assert game.match.deal.trump is not None

    run_app(game, script)
    assert game.match.deals[0].trump is not None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_keys_line_up_in_every_language(lang: str) -> None:
    """The keys' descriptions start in one column (Arabic's arrows and the trump line of
    four languages were one column out)."""
    rules = find_rules("classic").replace(doubling="raise")
    look = Look(lang=lang)
    lines = help_text(rules, look).splitlines()
    keyed = [
        line
        for key in ("move", "trump", "raise", "mouse")
        for line in translator(lang)(f"tui.help.keys.{key}").split("\n")
    ]
    columns = {}
    for line in keyed:
        gap = re.match(r"  (\S.*?\S) {2,}(?=\S)", line)
        assert gap, line
        columns[line] = gap.end()
        assert any(shown.startswith(line[:30]) for shown in lines), line
    assert set(columns.values()) == {24}, columns


def test_help_offers_x_only_where_the_rules_double() -> None:
    assert "x doubles" not in help_text(find_rules("classic"))
    assert "x doubles" in help_text(find_rules("classic").replace(doubling="double"))
    assert "trump: c d h s" not in help_text(find_rules("syrian400"))
    assert "p passes" not in help_text(find_rules("syrian400"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_fits_the_dialog_at_80_columns_without_breaking_a_sentence_early(lang: str) -> None:
    """The help dialog shows HELP_WIDTH columns at 80x24: a longer line used to be wrapped
    by the dialog mid-sentence ("... the      |" then "cards" alone on the next line)."""
    for preset in PRESETS:
        for look in (Look(lang=lang), Look(unicode=False, colour=False, lang=lang)):
            lines = help_text(find_rules(preset), look).splitlines()
            assert max(map(len, lines)) <= HELP_WIDTH, (preset, max(lines, key=len))
            intro = " ".join(translator(lang)("tui.help.intro").split())
            text = " ".join(" ".join(lines).split())
            assert intro in text, (preset, lang)  # its words whole, and in order


def test_refusals_speak_to_the_player() -> None:
    game = new_game(seed=7)
    game.run_bots()
    with pytest.raises(Exception, match=r"^You cannot call 6 now; you may: pass, 7, 8"):
        game.play("6")
    game.play("8")
    game.run_bots()
    game.play("H")
    game.run_bots()
    view = game.view()
    missing = next(c for c in (Card(i) for i in range(52)) if c not in view.hand)
    with pytest.raises(Exception, match=f"^You have no {missing.format(True)}."):
        game.play(missing)


# -- 8. the rules page -----------------------------------------------------------------


def test_the_rules_page_is_markdown_without_the_option_table_and_space_scrolls() -> None:
    text = rules_markdown(find_rules("classic"), "classic")
    assert "| option" not in text and "Python" not in text and "## How the game goes" in text
    game = new_game(seed=7)
    names: list[str | None] = []

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("r")
        await pilot.pause(0.2)
        names.append(app.screen.name)
        shown = screen_text(app)
        assert "How the game goes" in shown and "• Players" in shown and "##" not in shown
        await pilot.press("space")
        await pilot.pause()
        names.append(app.screen.name)
        assert app.screen.query_one("#dialog-body").scroll_y > 0
        await pilot.press("escape")
        names.append(app.screen.name)

    run_app(game, script)
    assert names == ["rules", "rules", "table"]


# -- 9. individual and card-point scoring ----------------------------------------------


def test_syrian400_shows_each_player_s_bid_tricks_and_score_and_the_bids_total() -> None:
    """Seed 003: «каждый игрок играет сам за себя» (each plays for their own bid)."""
    game = new_game("syrian400", seed=3)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("3", "enter")
        seen["screen"] = screen_text(app)

    run_app(game, script, preset="syrian400")
    text = seen["screen"]
    assert "bid took score" in text and "at least 11" in text
    assert "tricks NS" not in text  # no side's total where each plays alone
    finish_deal(game)
    lines = game.deal_lines(game.match.deals[0], dd=False)
    assert any(line.strip().startswith("South (you)") and "bid  3" in line for line in lines)
    assert any(line.startswith("Bids total") and "at least 11" in line for line in lines)


def test_tarneeb400_shows_card_points_and_says_the_solver_counts_tricks() -> None:
    game = new_game("tarneeb400", seed=2)
    while game.phase is not Phase.PLAY or len(game.view().tricks) < 2:
        if game.human_to_act:
            game.play(game.hint().action)
        else:
            game.step_bot()
    line = status_line(game.view()).plain
    assert "points N–S" in line
    finish_deal(game)
    deal = game.match.deals[0]
    lines = game.deal_lines(deal, dd=False)
    assert any(line.startswith("Card points:") and "of 120" in line for line in lines)


# -- 10. ascii, one suit style, the legend, the match's end ------------------------------


def test_ascii_draws_no_box_or_arrow_glyphs() -> None:
    game = new_game(seed=7)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("8", "enter")
        seen["screen"] = screen_text(app)

    run_app(game, script, unicode=False)
    assert not set(seen["screen"]) & set("▏▶→·…♠♥♦♣")
    assert "->" in seen["screen"] and "|" in seen["screen"]


def test_the_score_sheet_uses_the_table_s_suit_symbols() -> None:
    game = new_game(seed=7)
    finish_deal(game)
    rows = game.score_rows(unicode=True)
    assert rows and not any(c in rows[0][2] for c in "CDHS" if rows[0][2][:2].isdigit())


def test_the_match_end_answers_s_with_the_score_sheet_and_v_with_the_review() -> None:
    rules = find_rules("classic").replace(target=1)
    game = GameController.new(rules, seed=7, save_path=None, bot_delay=0)
    game.analyse = False
    finish_deal(game)
    names: list[str | None] = []

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        names.append(app.screen.name)
        await pilot.press("s")
        names.append(app.screen.name)
        await pilot.press("escape")
        await pilot.press("v")
        names.append(app.screen.name)
        await pilot.press("escape")
        names.append(app.screen.name)

    run_app(game, script)
    assert names == ["match-end", "scores", "review", "match-end"]


# -- 11. the review of a finished deal -------------------------------------------------


def test_the_review_shows_every_trick_with_double_dummy_costs() -> None:
    pytest.importorskip("tarneeb.solver")
    game = new_game(seed=7)
    finish_deal(game)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("enter")  # the deal's summary is not open: straight to the table
        await pilot.press("v")
        assert app.screen.name == "review"
        await app.workers.wait_for_complete()
        await pilot.pause()
        seen["screen"] = screen_text(app)

    run_app(game, script)
    text = seen["screen"]
    assert "Review: deal 1" in text
    assert "double-dummy tricks after each card" in text
    assert " 1. " in text


def test_the_review_without_analysis_shows_the_play_and_says_why() -> None:
    game = new_game(seed=7)
    finish_deal(game)
    deal = game.match.deals[0]
    text = review_text(deal, 1, game.describe, Look(), None, "No solver here.").plain
    assert "No solver here." in text and "The play:" in text
    assert text.count(" won by ") == 13


def test_review_from_the_saved_matches_list(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(play_cli, "check_terminal", lambda: None)
    game = GameController.new(
        find_rules("classic"), seed=7, save_path=saves_dir() / "a.json", bot_delay=0
    )
    finish_deal(game)
    game.save()
    apps: list[TarneebApp] = []
    monkeypatch.setattr(TarneebApp, "run", lambda self: apps.append(self) or 0)
    assert run_play(parse("--review", "1")) == 0
    assert apps[0].review and apps[0].game.match == game.match
    assert run_play(parse("--review", "9")) == 2
    assert "no saved match number 9" in capsys.readouterr().err


def test_the_review_without_any_solver_says_so_and_shows_the_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(review, "solver_backend", lambda: None)
    game = new_game(seed=7)
    finish_deal(game)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("enter", "v")
        seen["screen"] = screen_text(app)

    run_app(game, script)
    assert "No double-dummy solver here" in seen["screen"] and "The play:" in seen["screen"]


def test_our_own_solver_reviews_in_a_worker_thread_and_shows_how_long_it_has_been_at_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = threading.Event()
    threads: list[str] = []
    real = review.analyse
    fast = review.solver_backend() or "own"  # DDS where it is here: the test need not wait

    def slow(deal: object, backend: str) -> object:
        threads.append(threading.current_thread().name)
        assert backend == "own"
        gate.wait(10)
        return real(deal, fast)  # type: ignore[arg-type]

    monkeypatch.setattr(review, "solver_backend", lambda: "own")
    monkeypatch.setattr(review, "analyse", slow)
    game = new_game(seed=7)
    finish_deal(game)
    seen: list[str] = []

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("enter", "v")
        for _ in range(100):  # the clock ticks each second; a loaded machine draws it late
            await pilot.pause(0.1)
            if " 1 s" in screen_text(app):
                break
        seen.append(screen_text(app))
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        seen.append(screen_text(app))

    run_app(game, script)
    assert "Solving with our own solver" in seen[0] and " 1 s" in seen[0]
    assert "MainThread" not in threads
    assert "double-dummy tricks after each card" in seen[1]


def test_individual_bids_head_the_screen_with_each_players_score() -> None:
    """The header of a Syrian 400 match read "NS 0  EW 0": the sides' sums, which decide
    nothing where each plays for their own (the browser's info bar said the same). It
    gives each player's score, as the side panel's table does."""
    game = new_game("syrian400", seed=3)
    for _ in range(3):
        finish_deal(game)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        seen["screen"] = screen_text(app)

    run_app(game, script, preset="syrian400")
    header = seen["screen"].splitlines()[0]
    s, e, n, w = game.match.seat_scores
    assert f"S {s}  E {e}  N {n}  W {w}" in header, header
    assert "NS " not in header and "N–S" not in header and len(header) <= 80
    assert "NS " not in seen["screen"] and "EW " not in seen["screen"]  # the score box too


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_header_names_the_preset_as_the_browser_does_in_the_player_s_language(
    lang: str,
) -> None:
    """A play test at 80x24 (stop 35): the header read "Tarneeb  egyptian · target 41",
    the preset's command-line id, in every language, where the browser says "Egyptian"
    ("المصرية" in Arabic)."""
    tr = translator(lang)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        seen["screen"] = screen_text(app)

    run_app(new_game("egyptian"), script, preset="egyptian", lang=lang)
    header = seen["screen"].splitlines()[0]
    assert tr("web.preset.egyptian") in header, header
    if lang != "en":
        assert "egyptian" not in header.lower(), header
    # The game's name too, as the browser's title writes it ("Тарниб" in Russian).
    assert header.split()[0] == tr("web.app.name"), header


@pytest.mark.parametrize("lang", LANGUAGES)
def test_seats_and_sides_are_named_in_the_player_s_language_on_every_screen(lang: str) -> None:
    """A play test in Russian at 80x24 (stop 38): the auction's columns read "S E N W",
    the play "S → E → N → W", the header and the score "NS 0  EW 0", and the legend
    "3в взяток", where the browser says Ю В С З and С–Ю; a Dutch player read S for
    Zuid. Every seat letter and side name now is the catalogue's (``web.seat.*.short``,
    ``web.side.*``), and the header still fits 80 columns (the bots' speed gives way)."""
    tr = translator(lang)
    letters = [tr(f"web.seat.{seat.name.lower()}.short") for seat in Seat]
    ns, ew = tr("web.side.NS"), tr("web.side.EW")
    game = new_game()
    while game.phase is not Phase.PLAY or not game.view().tricks:
        if game.human_to_act:
            game.play(game.hint().action)
        else:
            game.run_bots()
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        seen["screen"] = screen_text(app)

    run_app(game, script, lang=lang)
    lines = seen["screen"].splitlines()
    assert all(Text(line).cell_len <= 80 for line in lines), seen["screen"]
    header = lines[0]
    assert f"{ns} 0  {ew} 0" in header, header
    auction = next(line.split("▏")[1] for line in lines if "▏" in line and letters[3] in line)
    assert auction.split() == letters, auction
    arrow = " → ".join(letters)  # the human is South: South, East, North, West
    assert any(arrow in line for line in lines), seen["screen"]
    at = next(i for i, line in enumerate(lines) if tr("tui.status.contract") in line)
    status = " ".join(line.split("▏")[0] for line in lines[at : at + 2])  # Arabic's: two lines
    assert ns in status and ew in status, status
    if lang == "ru":
        assert "3вз" in seen["screen"] and "3в " not in seen["screen"]
    finish_deal(game)
    deal = game.match.deals[0]
    summary = "\n".join(game.deal_lines(deal, dd=False))
    assert ns in summary and ew in summary, summary
    rows = game.score_rows(unicode=True)
    assert rows[0][1] == letters[int(deal.dealer)], rows  # the dealer's column
    if lang != "en":
        words = set(re.findall(r"\w+", seen["screen"] + summary))
        assert not words & {"NS", "EW"}, words & {"NS", "EW"}
        assert "S      E      N      W" not in seen["screen"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_score_sheet_names_the_winner_of_each_set_in_the_player_s_language(lang: str) -> None:
    """The sheet's set lines were given the side itself (``Team.NS``): "Set 1: NS won"
    in every language, beside the Russian sheet's С–Ю columns."""
    tr = translator(lang)
    game = new_game("levant-sets", target=11)
    while not game.match.sets:
        finish_deal(game)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("s")
        seen["sheet"] = screen_text(app)

    run_app(game, script, preset="levant-sets", lang=lang)
    winner = game.match.sets[0].winner
    side = tr(f"web.side.{winner.name}")
    assert tr("tui.sheet.set", number=1, winner=side, score="")[:-1] in seen["sheet"], seen
    assert tr("tui.sheet.set", number=1, winner=winner.name, score="")[:-1] not in seen["sheet"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_players_score_box_lines_up_whatever_the_seats_names(lang: str) -> None:
    """Syrian 400 in Arabic: the score box's rows began with جنوب, شرق, شمال, غرب, and
    the bids, tricks and scores after them stood in ragged columns."""
    tr = translator(lang)
    letters = [tr(f"web.seat.{seat.name.lower()}.short") for seat in Seat]
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        seen["screen"] = screen_text(app)

    run_app(new_game("syrian400"), script, preset="syrian400", lang=lang)
    box = [line.split("▏")[1] for line in seen["screen"].splitlines() if "▏" in line]
    scores = [r for r in box if len(r.split()) == 4 and r.split()[-1].lstrip("-").isdigit()]
    rows = [next(r for r in scores if r.split()[0] == letter) for letter in letters]
    ends = {tuple(m.end() for m in re.finditer(r"\S+", row))[1:] for row in rows}
    assert len(ends) == 1, rows  # the bid, tricks and score columns end in the same place


def _panes_overflowing(app: TarneebApp) -> list[str]:
    """The lines of the table, the auction, the score box and the header wider than the
    pane that shows them: each would be broken at whatever space the pane finds."""
    wide = []
    for pane in ("#header", "#table", "#auction", "#scorebox"):
        widget = app.screen.query_one(pane, Static)
        content = widget.content
        text = Text(content) if isinstance(content, str) else content
        assert isinstance(text, Text), pane
        width = widget.content_size.width
        wide += [
            f"{pane} {width}: {line.plain!r}" for line in text.split() if line.cell_len > width
        ]
    return wide


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_line_of_the_table_or_the_score_is_broken_by_its_pane_at_80x24(lang: str) -> None:
    """Arabic at 80x24 (stop 38 left it noted): "اللعب يدور جنوب → شرق → شمال → غرب
    (إلى" above "اليمين)" on the 46-cell table; the contract line parted "شرق–غرب" from
    its "0"; the score box's "شمال–جنوب 0 شرق–غرب 0 إلى 41" broke too, and in every
    language but English the last deal's line ("последняя: #1 11♥ В сыгран +2/+11",
    "última: #1 60♦ O cumplido +54/+66") ran past the box's 29 cells. Now a line that
    cannot fit gives up its words (the way round the table) or goes on below, whole."""
    tricky = ["classic", "egyptian", "lebanese31", "tarneeb400", "syrian400"]
    wide = []
    for preset in tricky:
        game = new_game(preset)
        while game.phase is not Phase.PLAY or len(game.view().tricks) < 2:
            if game.human_to_act:
                game.play(game.hint().action)
            else:
                game.run_bots()
        for when in ("playing", "after a deal"):

            async def script(
                app: TarneebApp, pilot: Pilot[int], where: str = f"{preset}, {when}"
            ) -> None:
                wide.extend(f"{where}: {line}" for line in _panes_overflowing(app))

            run_app(game, script, preset=preset, lang=lang)
            finish_deal(game)
    assert not wide, "\n".join(wide)
