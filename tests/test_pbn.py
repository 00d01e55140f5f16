"""PBN hand records: ours open in endplay's parser with the same hands and play,
endplay's analyse with us, and every preset's deals come back exactly."""

from __future__ import annotations

import io
import json
import random
import re
import shlex
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from support import need
from tarneeb import Deal, Match, Seat, find_rules
from tarneeb.cards import Card, CardSet
from tarneeb.cli import main
from tarneeb.pbn import PBN_LETTERS, PbnError, read_pbn, write_pbn, write_pbn_match
from tarneeb.presets import PRESETS

need("endplay", "solver")
from endplay.parsers import pbn  # noqa: E402
from endplay.types import Board, Contract, Player  # noqa: E402
from endplay.types import Card as BridgeCard  # noqa: E402
from endplay.types import Deal as BridgeDeal  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _played(name: str, seed: int) -> Deal:
    deal = Deal.from_seed(find_rules(name), Seat(seed % 4), seed)
    deal.playout(random.Random(seed))
    return deal


def _plays(deal: Deal) -> list[tuple[Seat, Card]]:
    return [play for trick in deal.tricks for play in trick.plays]


def _endplay_card(card: object) -> Card:
    suit = "SHDC"[int(card.suit)]  # type: ignore[attr-defined]
    return Card.parse(f"{card.rank.abbr}{suit}")  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_our_pbn_opens_in_endplay_with_the_same_hands_and_play(name: str) -> None:
    for seed in range(3):
        deal = _played(name, seed)
        if deal.thrown_in is not None:
            continue
        board = pbn.loads(write_pbn([deal]))[0]
        for seat in Seat:
            hand = board.deal[Player.find(PBN_LETTERS[seat])].to_pbn()
            assert CardSet.parse(hand).mask == deal.dealt[seat]
        # endplay's play, in the order it was played, is ours card for card
        assert [_endplay_card(c) for c in board.play] == [c for _, c in _plays(deal)]
        strain = deal.trump
        denom = int(board.contract.denom)
        assert denom == (4 if strain is None else "SHDC".index(strain.letter))
        if deal.contract is not None and deal.rules.count.value == "tricks":
            assert PBN_LETTERS.index(board.contract.declarer.abbr) == deal.contract.declarer
            assert int(board.contract.level) == deal.contract.level - 6


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_our_pbn_reads_back_to_the_same_deal(name: str) -> None:
    deals = [_played(name, seed) for seed in range(3)]
    assert read_pbn(write_pbn(deals)) == deals


def test_a_bridge_board_written_by_endplay_analyses_with_us() -> None:
    """A bridge deal from endplay: hands, trump, the lead from declarer's left, the play."""
    hands = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    board = Board(BridgeDeal(hands), contract=Contract("2SN"))
    board.contract.result = 0
    board.dealer = Player.north
    board.board_num = 7
    # East (declarer North's left) leads; three tricks in bridge order
    play = ["CA", "C8", "C5", "C2", "CK", "C9", "C6", "C3", "CQ", "CT", "C7", "C4"]
    board.play = [BridgeCard(c) for c in play]
    text = pbn.dumps([board])
    (deal,) = read_pbn(text)
    # East is our East; it led, so it "won the auction" here, in spades
    assert deal.tricks[0].leader is Seat.EAST
    assert deal.trump is not None and deal.trump.letter == "S"
    assert [str(c) for _, c in _plays(deal)] == [f"{c[1]}{c[0]}" for c in play]
    assert [s for s, _ in _plays(deal)][:4] == [Seat.EAST, Seat.NORTH, Seat.WEST, Seat.SOUTH]
    # PBN's North is our South
    assert CardSet(deal.dealt[Seat.SOUTH]).format() == "AKQJ.T98.765.432"
    status, out, err = _run(["analyze", text, "--json"])
    assert status == 0, err
    assert len(json.loads(out)["deals"][0]["play"]) == len(play)


def test_a_match_as_pbn_carries_the_running_score() -> None:
    match = Match(find_rules("classic"), seed=3, first_dealer=Seat.SOUTH)
    rng = random.Random(3)
    while not match.is_over() and len(match.deals) < 5:
        match.push(rng.choice(match.legal_actions))
    text = write_pbn_match(match)
    scores = re.findall(r'\[TarneebScore "NS=(-?\d+) EW=(-?\d+)"\]', text)
    assert len(scores) == len(match.deals) == len(re.findall(r"\[Board ", text))
    finished = [d.result.team_points for d in match.deals if d.result is not None]
    assert tuple(int(x) for x in scores[-1]) == tuple(map(sum, zip(*finished, strict=True)))


def test_unreadable_pbn_is_one_clear_error() -> None:
    with pytest.raises(PbnError, match=r"no boards|not readable"):
        read_pbn("% PBN 2.1\n")
    text = write_pbn([_played("classic", 1)])
    broken = re.sub(r'(\[TarneebDeal "[^"]*?S=)[^ ]+', r"\1AKQ...", text)
    with pytest.raises(PbnError, match="board 1"):
        read_pbn(broken)


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def test_export_then_analyze_one_deal(tmp_path: Path) -> None:
    record = ROOT / "tests" / "data" / "record_v1_classic.json"
    target = tmp_path / "c.pbn"
    status, _, err = _run(["export", str(record), "-o", str(target)])
    assert status == 0, err
    status, out, err = _run(["analyze", str(target), "--deal", "2"])
    assert status == 0, err
    assert out.startswith("Deal 2, dealer")
    assert "Auction: " in out and "Points: North-South" in out
    status, _, err = _run(["analyze", str(record), "--deal", "19"])
    assert status == 2 and err.strip() == (
        "tarneeb: error: --deal 19: the source has 18 deals (1 to 18)"
    )


def test_analyze_reads_the_records_of_an_arena_file(tmp_path: Path) -> None:
    arena = tmp_path / "arena.json"
    argv = "arena --bots random,random --matches 2 --seed 4 --max-deals 2 --json"
    status, _, err = _run([*argv.split(), str(arena)])
    assert status == 0, err
    data = json.loads(arena.read_text())
    deals = sum(len(g["record"]["deals"]) for g in data["games"])
    status, out, err = _run(["analyze", str(arena), "--json"])
    assert status == 0, err
    assert len(json.loads(out)["deals"]) == deals


def test_the_readme_analysis_commands_run_as_pasted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Deal analysis") :]
    block = section[section.index("```") + 3 :]
    block = block[: block.index("```")]
    commands = [line for line in block.splitlines() if line.startswith("tarneeb ")]
    assert len(commands) >= 3
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    monkeypatch.chdir(tmp_path)
    for command in commands:
        status, _, err = _run(shlex.split(command)[1:])
        assert status == 0, f"{command}: {err}"
