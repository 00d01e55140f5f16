"""The terminal app (``tarneeb play``): the controller alone, then the app driven headless.

The app tests drive Textual's pilot at 80x24 with instant bots and fixed seeds,
so every screen and every result is the same on every run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

import tarneeb.tui.cli as play_cli
from tarneeb import Card, Phase, Seat, find_rules, read_record
from tarneeb.actions import Bid, action_id
from tarneeb.bots import Bot, Decision, make_bot
from tarneeb.errors import IllegalActionError, RecordError, TarneebError
from tarneeb.tui.app import Chip, Picker, TarneebApp, screen_text
from tarneeb.tui.cli import add_play_parser, build_game, run_play
from tarneeb.tui.controller import GameController, double_dummy_line
from tarneeb.tui.render import action_label, hand_order
from tarneeb.view import View

DATA = Path(__file__).parent / "data"
SIZE = (80, 24)
SUIT_SYMBOLS = set("♠♥♦♣")
OPENING = ("8", "enter", "h", "enter", "enter", "enter", "enter")
"""Seed 7: bid 8, name hearts (typed, then Enter), then three cards by Enter: West has led
to trick 4."""


@pytest.fixture(autouse=True)
def _sandbox(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Saves go to a temporary data directory; the terminal check passes under pytest."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(play_cli, "check_terminal", lambda: None)


def new_game(preset: str = "classic", seed: int = 7, save: Path | None = None) -> GameController:
    game = GameController.new(find_rules(preset), seed=seed, save_path=save, bot_delay=0)
    game.analyse = False  # the deal summary's solver runs only where a test asks for it
    return game


def run_app(
    game: GameController,
    script: Callable[[TarneebApp, Pilot[int]], Awaitable[None]],
    preset: str = "classic",
    unicode: bool = True,
) -> TarneebApp:
    """Run ``script(app, pilot)`` on a headless app at 80x24."""
    app = TarneebApp(game, preset, unicode=unicode)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())
    return app


def legal_labels(app: TarneebApp, picker_id: str) -> list[str]:
    picker = app.screen.query_one(picker_id, Picker)
    return [item.label.plain for item in picker.items if item.legal]


# -- the controller, without Textual --------------------------------------------------


def test_controller_bots_act_through_their_own_views_until_the_human_is_to_act() -> None:
    game = new_game()
    assert game.match.first_dealer == Seat.NORTH
    assert game.bot_to_act == Seat.WEST
    assert game.run_bots() == []
    assert game.human_to_act
    assert [(s, str(a)) for s, a in game.view().history] == [(Seat.WEST, "pass")]
    view = game.view()
    assert view.seat == Seat.SOUTH
    assert len(view.hand) == 13


def test_controller_refuses_out_of_turn_and_illegal_actions_and_changes_nothing() -> None:
    game = new_game()
    with pytest.raises(IllegalActionError, match="not your turn"):
        game.play("pass")
    with pytest.raises(IllegalActionError, match="North's bot is not to act now"):
        game.push_bot(Seat.NORTH, Decision(Bid(7)))  # West is to act
    assert not game.match.deal.history
    with pytest.raises(IllegalActionError):
        game.hint()
    game.run_bots()
    before = game.match.deal.copy()
    with pytest.raises(IllegalActionError):
        game.play(Bid(6))
    with pytest.raises(TarneebError):
        game.play("banana")
    assert game.match.deal == before


def test_controller_saves_after_every_action_and_resumes_the_identical_match(
    tmp_path: Path,
) -> None:
    path = tmp_path / "m.json"
    game = new_game(save=path)
    game.run_bots()
    game.play("8")
    game.run_bots()
    game.play("H")
    game.run_bots()
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["players"] == {"S": "you", "E": "heuristic", "N": "heuristic", "W": "heuristic"}
    assert read_record(path.read_text(encoding="utf-8")) == game.match
    again = GameController.resume(path, bot_delay=0)
    assert again.match == game.match
    assert again.human == Seat.SOUTH
    assert again.save_path == path
    assert again.view() == game.view()


def test_controller_deal_lines_and_score_sheet_after_a_deal() -> None:
    game = new_game()
    game.run_bots()
    game.play("8")
    game.run_bots()
    game.play("C")
    ended = []
    while not ended:
        if game.human_to_act:
            end = game.play(game.view().legal_actions[0])
            ended = [end] if end is not None else []
        else:
            ended = game.run_bots()
    deal = ended[0].deal
    assert ended[0].number == 1
    assert len(deal.tricks) == 13
    assert game.deal_lines(deal, dd=False) == [
        "Contract 8 ♣ by South (you): made.",
        "Tricks: N–S 8, E–W 5.",
        "Points: N–S +8, E–W +5.",
    ]
    assert game.deal_lines(deal, unicode=False)[0] == "Contract 8 C by South (you): made."
    assert game.score_rows() == [("1", "N", "8C S made", "+8", "+5")]
    assert game.match.team_scores == (8, 5)


def test_resume_rejects_files_that_are_no_record(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    with pytest.raises(RecordError, match="cannot read"):
        GameController.resume(missing)
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="not UTF-8"):
        GameController.resume(junk)
    empty = tmp_path / "empty.json"
    empty.write_text("{}", encoding="utf-8")
    with pytest.raises(RecordError):
        GameController.resume(empty)


# -- the command line -------------------------------------------------------------------


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tarneeb")
    add_play_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["play", *argv])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--rules", "nope"), "tarneeb: error: no preset named 'nope'"),
        (("--partner", "oracle"), "tarneeb: error: no bot named 'oracle'"),
        (("--opponents", "heuristic:wild"), "tarneeb: error: bot 'heuristic' has no option"),
        (("--seat", "Q"), "tarneeb: error: 'Q' is not a seat"),
        (("--resume", "/nonexistent/match.json"), "tarneeb: error: cannot read"),
    ],
)
def test_bad_input_is_one_line_and_exit_2_and_saves_nothing(
    argv: tuple[str, ...],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    save = tmp_path / "save.json"
    assert run_play(parse(*argv, "--save", str(save))) == 2
    err = capsys.readouterr().err
    assert err.startswith(message)
    assert err.count("\n") == 1
    assert not save.exists()


def test_build_game_resume_and_options(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    game, preset = build_game(parse("--rules", "Egyptian", "--seed", "3", "--save", str(save)))
    assert preset == "egyptian"
    assert game.bot_delay == 0.7
    assert game.save_path == save
    game.save()
    again, name = build_game(parse("--resume", str(save), "--instant"))
    assert name == "egyptian"
    assert again.bot_delay == 0
    assert again.match == game.match


# -- the app, headless ------------------------------------------------------------------


async def _finish_deal_by_keyboard(app: TarneebApp, pilot: Pilot[int]) -> list[str]:
    """Bid 8, take clubs, then play every card from the keyboard: typed and with Enter."""
    game = app.game
    typed: list[str] = []
    await pilot.press("8", "enter")
    assert game.match.deal.phase is Phase.TRUMP
    await pilot.press("enter")  # the cursor starts on clubs
    turn = 0
    while app.screen.name == "table":
        view = game.view()
        assert view.is_my_turn and view.phase is Phase.PLAY
        if turn % 2:
            await pilot.press("right", "left", "enter")
        else:
            card = view.legal_actions[-1]
            assert isinstance(card, Card)
            text = format(card).lower()
            typed.append(text)
            await pilot.press(*text)
        turn += 1
    assert turn == 13
    return typed


def test_a_whole_deal_played_through_the_keyboard() -> None:
    game = new_game()
    game.analyse = True
    seen: dict[str, object] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        seen["typed"] = await _finish_deal_by_keyboard(app, pilot)
        assert app.screen.name == "deal-end"
        await app.workers.wait_for_complete()
        await pilot.pause()
        seen["summary"] = screen_text(app)
        await pilot.press("enter")
        assert app.screen.name == "table"
        await pilot.press("s")
        seen["scores"] = screen_text(app)

    run_app(game, script)
    first = game.match.deals[0]
    assert len(first.tricks) == 13
    assert first.contract is not None and str(first.contract) == "8 C by South"
    assert first.result is not None
    assert first.result.team_points == (-8, 7)
    assert game.match.team_scores == (-8, 7)
    assert len(seen["typed"]) == 7  # type: ignore[arg-type]
    summary = str(seen["summary"])
    assert "Deal 1 is over" in summary
    assert "Contract 8 ♣ by South (you): went down." in summary
    assert "Points: N–S -8, E–W +7." in summary
    try:
        import tarneeb.solver  # noqa: F401
    except ImportError:
        assert "Double dummy" not in summary
    else:
        assert "Double dummy: N–S could take 10 tricks in ♣ (took 6)." in summary
    assert "1  N       8♣ S down  -8   +7" in str(seen["scores"])


class GatedBot(Bot):
    """A slow bot (as the search bot is) that decides as the heuristic bot once its gate opens."""

    name = "gated"
    slow = True

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.threads: list[str] = []
        self.inner = make_bot("heuristic", seed=0)

    def decide(self, view: View) -> Decision:
        self.threads.append(threading.current_thread().name)
        if not self.gate.wait(10):
            raise TimeoutError("the test never opened the gate")
        return self.inner.decide(view)


def status_line(app: TarneebApp) -> str:
    return screen_text(app).splitlines()[22].strip()


async def open_gate(app: TarneebApp, pilot: Pilot[int], gated: GatedBot) -> str:
    """Let ``gated`` decide, wait for its worker to hand the decision back; the status line."""
    gated.gate.set()
    await app.workers.wait_for_complete()
    await pilot.pause()
    return status_line(app)


def test_a_slow_bot_thinks_in_a_worker_thread_while_the_screen_answers_keys() -> None:
    game = new_game()
    gated = GatedBot()
    game.bots[Seat.WEST] = gated  # West acts first
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        assert game.match.to_act is Seat.WEST and not game.match.deal.history
        seen["thinking"] = status_line(app)
        await pilot.press("s")  # the score sheet opens while West thinks
        seen["screen"] = str(app.screen.name)
        await pilot.press("escape")
        await pilot.press("8", "enter")  # not South's turn: refused, nothing changes
        assert not game.match.deal.history
        seen["after"] = await open_gate(app, pilot, gated)

    run_app(game, script)
    assert seen["thinking"] == "West is thinking…"
    assert seen["screen"] == "scores"
    assert gated.threads and "MainThread" not in gated.threads
    assert [seat for seat, _ in game.match.deal.history] == [Seat.WEST]
    assert game.match.to_act is Seat.SOUTH
    assert seen["after"].startswith("West: ") and "Your turn" in seen["after"]


def test_a_slow_hint_bot_thinks_in_a_worker_thread_and_a_late_hint_is_dropped() -> None:
    game = new_game()
    gated = GatedBot()
    game.hint_bot = gated
    expected = make_bot("heuristic", seed=0)
    seen: dict[str, str] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        assert game.human_to_act
        hint = expected.decide(game.view())
        await pilot.press("h")
        seen["thinking"] = status_line(app)
        seen["hint"] = await open_gate(app, pilot, gated)
        assert seen["hint"] == (
            f"Hint: {action_label(hint.action)}: {hint.reason}  Your turn: your call."
        )
        # Asked, then answered by the human's own action first: the hint is dropped.
        gated.gate.clear()
        await pilot.press("h")
        before = len(game.match.deal.history)
        await pilot.press("enter")  # the bidding box's cursor sits on the hint: take it
        assert len(game.match.deal.history) > before
        seen["late"] = await open_gate(app, pilot, gated)

    run_app(game, script)
    assert seen["thinking"] == "Hint: thinking…  Your turn: your call."
    assert "MainThread" not in gated.threads and len(gated.threads) == 2
    assert not seen["late"].startswith("Hint")


def test_the_bidding_box_offers_only_legal_bids_and_refuses_typed_illegal_ones() -> None:
    game = new_game("egyptian", seed=3)

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        view = game.view()
        assert [str(a) for _, a in view.history] == ["7D", "8S"]
        labels = legal_labels(app, "#bidbox")
        assert labels == [action_label(a) for a in view.legal_actions]
        # The seed's ladder: over 8S only a higher number in a higher strain (no-trump).
        assert labels[:4] == ["pass", "9NT", "10NT", "11NT"]
        assert "9♠" not in labels and "8NT" not in labels
        before = game.match.deal.copy()
        await pilot.press("7", "h", "enter")
        assert game.match.deal == before
        refusal = "You cannot call 7♥ now; you may: pass, 9NT, 10NT, 11NT, 12NT, 13NT."
        assert refusal in screen_text(app)
        await pilot.press("7", "enter")  # no strain named
        assert game.match.deal == before
        await pilot.press("9", "n", "t", "enter")
        assert game.match.deal.history[2] == (Seat.SOUTH, Bid.from_id(action_id(Bid(9, 4))))

    run_app(game, script, "egyptian")


def test_clicking_a_bid_makes_it() -> None:
    game = new_game()

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.click("#bidbox Chip")  # the first: pass

    run_app(game, script)
    first = game.match.deals[0]
    assert [(s, str(a)) for s, a in first.history] == [
        (Seat.WEST, "pass"),
        (Seat.SOUTH, "pass"),
        (Seat.EAST, "pass"),
        (Seat.NORTH, "pass"),
    ]
    assert first.thrown_in == "all-pass"


def test_the_hint_says_what_the_bot_would_do_and_why_and_acts_for_nobody() -> None:
    game = new_game()
    expected = new_game()
    expected.run_bots()
    decision = expected.hint()
    assert decision.reason  # the heuristic bot explains its bids

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        before = game.match.deal.copy()
        await pilot.press("h")
        assert game.match.deal == before
        status = status_line(app)
        assert status == (
            f"Hint: {action_label(decision.action)}: {decision.reason}  Your turn: your call."
        )
        box = app.screen.query_one("#bidbox", Picker)
        assert box.current() == action_id(decision.action)

    run_app(game, script)


def test_last_trick_review() -> None:
    game = new_game()

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("l")
        assert app.screen.name == "table"
        assert "No trick has been played yet in this deal." in screen_text(app)
        await pilot.press("8", "enter", "enter")
        while not game.view().tricks:
            await pilot.press("enter")
        await pilot.press("l")
        assert app.screen.name == "last-trick"
        text = screen_text(app)
        trick = game.view().tricks[0]
        assert "Trick 1" in text
        for seat, card in trick.plays:
            assert f"{game.describe(seat):<18}{card.format(True)}" in text
        await pilot.press("escape")
        assert app.screen.name == "table"

    run_app(game, script)


def test_save_and_resume_give_the_identical_state_and_screen(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    game = new_game(save=path)
    screens: list[str] = []

    async def first(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("8", "enter", "right", "right", "enter")
        await pilot.press("enter", "enter", "enter")
        screens.append(screen_text(app))

    run_app(game, first)
    assert game.match.deal.trump is not None and game.match.deal.trump.letter == "H"
    resumed = GameController.resume(path, bot_delay=0)
    assert resumed.match == game.match

    async def second(app: TarneebApp, pilot: Pilot[int]) -> None:
        screens.append(screen_text(app))

    run_app(resumed, second)
    assert screens[0] == screens[1]


def test_quitting_mid_match_asks_first() -> None:
    game = new_game()

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("escape")
        assert app.screen.name == "quit"
        assert "NOT saved" in screen_text(app)
        await pilot.press("enter", "q")  # only y quits
        assert app.screen.name == "quit"
        await pilot.press("n")
        assert app.screen.name == "table"
        await pilot.press("ctrl+q")
        assert app.screen.name == "quit"
        await pilot.press("y")

    app = run_app(game, script)
    assert app.return_code == 0


def test_match_end_offers_a_rematch() -> None:
    rules = find_rules("classic").replace(target=1)
    game = GameController.new(rules, seed=7, save_path=None, bot_delay=0)

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await _finish_deal_by_keyboard(app, pilot)
        await pilot.press("enter")
        assert app.screen.name == "match-end"
        text = screen_text(app)
        assert "E–W win the match: you lose." in text
        await pilot.press("r")
        assert app.screen.name == "table"

    run_app(game, script)
    assert not game.match.is_over()
    assert game.match.seed == 8
    assert len(game.match.deals) == 1


def test_rules_and_help_screens() -> None:
    game = new_game()

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("r")
        assert app.screen.name == "rules"
        assert "Tarneeb rules: classic" in screen_text(app)
        await pilot.press("escape", "question_mark")
        assert app.screen.name == "help"
        help_page = screen_text(app).lower()  # its prose wraps where the dialog ends
        assert "play goes to" in help_page and "counter-clockwise" in help_page
        await pilot.press("escape", "b")
        assert game.bot_delay == 0.7

    run_app(game, script)


def test_the_table_mid_deal_at_80x24_matches_the_stored_screen() -> None:
    game = new_game()
    shots: list[str] = []

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press(*OPENING)
        shots.append(screen_text(app))

    run_app(game, script)
    text = shots[0]
    lines = text.splitlines()
    assert len(lines) == 24
    assert all(len(line) <= 80 for line in lines)
    assert text == (DATA / "tui_table_80x24.txt").read_text(encoding="utf-8")


def test_ascii_fallback_shows_no_suit_symbols() -> None:
    game = new_game()
    shots: list[str] = []

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("8", "enter", "enter", "enter")
        shots.append(screen_text(app))

    run_app(game, script, unicode=False)
    assert not SUIT_SYMBOLS & set(shots[0])
    hand = " ".join(c.format(False) for c in hand_order(list(game.view().hand)))
    assert hand.replace(" ", "") in shots[0].replace(" ", "")


def test_egyptian_raise_decision_in_the_bidding_box() -> None:
    game = new_game("egyptian", seed=4)

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("7", "c", "enter")
        assert game.match.deal.phase is Phase.RAISE
        assert legal_labels(app, "#bidbox") == ["raise", "stand"]
        assert "stand, or raise to double the stakes?" in screen_text(app)
        await pilot.press("enter")  # a reflex Enter takes the safe choice: stand

    run_app(game, script, "egyptian")
    contract = game.match.deals[0].contract
    assert contract is not None
    assert (contract.level, contract.multiplier, contract.raised) == (7, 1, False)

    game = new_game("egyptian", seed=4)

    async def raise_it(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press("7", "c", "enter", "left", "enter")  # raise is chosen on purpose

    run_app(game, raise_it, "egyptian")
    contract = game.match.deals[0].contract
    assert contract is not None
    assert (contract.level, contract.multiplier, contract.raised) == (7, 2, True)


def test_syrian400_individual_bid_typed() -> None:
    game = new_game("syrian400", seed=3)

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        assert legal_labels(app, "#bidbox") == [str(n) for n in range(2, 14)]
        await pilot.press("3", "enter")

    run_app(game, script, "syrian400")
    assert game.match.deals[0].bids[Seat.SOUTH] == 3


def test_double_dummy_line_from_the_solver() -> None:
    pytest.importorskip("tarneeb.solver")
    game = new_game()
    game.run_bots()
    game.play("8")
    game.run_bots()
    game.play("C")
    while not game.match.deals[0].is_over():
        if game.human_to_act:
            game.play(game.view().legal_actions[0])
        else:
            game.run_bots()
    deal = game.match.deals[0]
    line = "Double dummy: N-S could take 10 tricks in C (took 8)."
    assert double_dummy_line(deal) == line
    assert game.deal_lines(deal, unicode=False)[-1] == line
    assert game.deal_lines(deal)[-1] == line.replace(" C ", " ♣ ").replace("N-S", "N–S")
    assert double_dummy_line(game.match.deal) is None  # not played yet


def test_the_hand_is_sorted_by_suit_and_only_legal_cards_are_bright() -> None:
    game = new_game()
    found: dict[str, object] = {}

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press(*OPENING)
        view = game.view()
        assert view.current_trick is not None and len(view.current_trick.cards) == 1
        hand = app.screen.query_one("#hand", Picker)
        found["labels"] = [item.label.plain for item in hand.items]
        found["bright"] = [item.label.plain for item in hand.items if item.legal]
        found["dimmed"] = [
            chip.item.label.plain
            for chip in hand.query(Chip)
            if chip.item is not None and chip.has_class("-illegal")
        ]

    run_app(game, script)
    assert found["labels"] == ["T♠", "7♠", "A♥", "K♥", "Q♥", "T♥", "Q♣", "2♣", "7♦", "2♦"]
    assert found["bright"] == ["T♠", "7♠"]  # West led a spade
    assert found["dimmed"] == ["A♥", "K♥", "Q♥", "T♥", "Q♣", "2♣", "7♦", "2♦"]


def test_clicking_plays_a_legal_card_and_ignores_a_dimmed_one() -> None:
    game = new_game()

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        await pilot.press(*OPENING)
        assert "West: 8♠. Your turn: play a card." in screen_text(app)
        before = game.match.deal.copy()
        await pilot.click("#hand", offset=(5 * 2 + 1, 0))  # A♥: spades were led
        assert game.match.deal == before
        await pilot.click("#hand", offset=(2, 0))  # T♠
        assert game.match.deals[0].tricks[3].plays[1] == (Seat.SOUTH, Card.parse("TS"))

    run_app(game, script)


def test_resuming_a_finished_match_opens_on_its_end(tmp_path: Path) -> None:
    path = tmp_path / "over.json"
    rules = find_rules("classic").replace(target=1)
    game = GameController.new(rules, seed=7, save_path=path, bot_delay=0)
    while not game.match.is_over():
        if game.human_to_act:
            game.play(game.view().legal_actions[-1])
        else:
            game.run_bots()
    resumed = GameController.resume(path, bot_delay=0)
    assert resumed.match == game.match
    names: list[str | None] = []

    async def script(app: TarneebApp, pilot: Pilot[int]) -> None:
        names.append(app.screen.name)
        await pilot.press("q")

    app = run_app(resumed, script)
    assert names == ["match-end"]
    assert app.return_code == 0
