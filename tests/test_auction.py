"""The auction procedures (tarneeb.auction), the Egyptian ladder option, old records' ladder."""

from __future__ import annotations

import enum
import itertools
import json
import random
from pathlib import Path

import pytest

from support import duel, play_randomly
from tarneeb import (
    Bid,
    Contract,
    Deal,
    IllegalActionError,
    Phase,
    RecordError,
    Rules,
    RulesError,
    Seat,
    Strain,
    ThrowIn,
    find_rules,
    format_action,
    parse_deal,
    read_record,
)
from tarneeb.actions import BID_BASE
from tarneeb.auction import (
    PROCEDURES,
    IndividualAuction,
    PartnershipAuction,
    ladder,
    ladder_over,
    max_auction_actions,
)
from tarneeb.rules import Bidding, Ladder

S, E, N, W = Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST
EGYPTIAN = find_rules("egyptian")
BRIDGE = EGYPTIAN.replace(ladder="number-or-strain")
DATA = Path(__file__).parent / "data"


def bids(deal: Deal) -> list[str]:
    return [format_action(a) for a in deal.legal_action_ids() if a >= BID_BASE]


def test_every_bidding_has_a_procedure() -> None:
    assert set(PROCEDURES) == set(Bidding)
    assert type(Deal.from_seed(EGYPTIAN, 0, 1)._auction) is PartnershipAuction
    assert type(Deal.from_seed(find_rules("syrian400"), 0, 1)._auction) is IndividualAuction


def test_egyptian_preset_follows_the_seed_ladder() -> None:
    assert EGYPTIAN.ladder is Ladder.STRAIN_AND_NUMBER
    assert Rules().ladder is Ladder.NUMBER_OR_STRAIN


def test_seed_ladder_walks_the_strains_up_with_the_number() -> None:
    # 003: «первый игрок делает объявление в трефовой масти, следующий игрок должен делать
    # объявление уже в бубновой масти ... затем в пиковой и наконец в бескозырной. ...
    # каждая последующая ставка помимо смены масти, должна быть в количественном отношении
    # выше, чем предыдущая»
    deal = Deal(EGYPTIAN, W, duel(S, E, 10))
    deal.push("7C")  # South
    assert bids(deal)[:4] == ["8D", "8H", "8S", "8NT"]
    for same_number in ("7D", "7H", "7S", "7NT"):
        with pytest.raises(IllegalActionError, match="a higher number and a higher strain"):
            deal.push(same_number)
    with pytest.raises(IllegalActionError, match="outrank 7C"):
        deal.push("8C")  # the same strain
    deal.push("8D")  # East
    deal.push("9H")  # North
    deal.push("10S")  # West
    assert bids(deal) == ["11NT", "12NT", "13NT"]
    deal.push("11NT")  # South: «и наконец в бескозырной»
    assert bids(deal) == []  # no strain above no-trump: nothing can overbid
    for seat_pass in range(3):
        assert deal.legal_action_ids() == (52,), seat_pass
        deal.push("pass")
    assert deal.phase is Phase.PLAY
    assert deal.contract == Contract(S, 11, Strain.NO_TRUMP)
    play_randomly(deal)
    assert deal.result is not None


def test_seed_ladder_a_higher_number_in_a_lower_strain_is_refused() -> None:
    """The bridge ladder's 8C over 7NT is what the seed rules out (issue 18)."""
    deal = Deal(EGYPTIAN, W, duel(S, E, 10))
    deal.push("7NT")
    for over in ("8C", "8D", "8H", "8S", "8NT", "13C"):
        with pytest.raises(IllegalActionError):
            deal.push(over)
    bridge = Deal(BRIDGE, W, duel(S, E, 10))
    bridge.push("7NT")
    bridge.push("8C")
    assert bridge.contract is None and bridge.to_act is N


def test_seed_ladder_a_whole_deal_scored() -> None:
    """A contested seed-ladder auction, then the play and the score (003: difference scoring)."""
    deal = Deal(EGYPTIAN, W, duel(S, E, 10))
    for action in ["7C", "8H", "pass", "pass", "9S", "pass"]:
        deal.push(action)
    assert deal.phase is Phase.PLAY  # two bidders: no raise
    assert deal.contract == Contract(S, 9, Strain.SPADES)
    play_randomly(deal)
    assert deal.result is not None
    assert deal.result.team_points == (10, 0)


def test_bridge_ladder_same_number_higher_strain() -> None:
    deal = Deal(BRIDGE, W, duel(S, E, 10))
    deal.push("7H")
    assert bids(deal)[:4] == ["7S", "7NT", "8C", "8D"]
    deal.push("7S")
    deal.push("pass")
    deal.push("pass")
    deal.push("pass")
    assert deal.contract == Contract(E, 7, Strain.SPADES)


@pytest.mark.parametrize("rules", [EGYPTIAN, BRIDGE, EGYPTIAN.replace(strain_order="C S H D")])
def test_ladder_over_is_a_strict_order(rules: Rules) -> None:
    """Outranking is irreflexive and transitive: every auction ends."""
    all_bids = ladder(rules)
    over = {b: set(ladder_over(rules, b)) for b in all_bids}
    for a in all_bids:
        assert a not in over[a]
        for b in over[a]:
            assert over[b] <= over[a]
            assert a not in over[b]
    assert set(ladder_over(rules, -1)) == set(all_bids)


def test_seed_ladder_strain_order_option() -> None:
    rules = EGYPTIAN.replace(strain_order="C S H D")  # spades second, diamonds highest
    assert [format_action(b) for b in ladder_over(rules, Bid(12, Strain.SPADES).id)] == [
        "13H",
        "13D",
        "13NT",
    ]


def test_ladder_option_needs_strain_bidding() -> None:
    with pytest.raises(RulesError, match="ladder='strain-and-number' needs bidding='strains'"):
        Rules(ladder=Ladder.STRAIN_AND_NUMBER)
    with pytest.raises(RulesError, match="needs bidding='strains'"):
        find_rules("classic").replace(ladder="strain-and-number")
    assert Rules.from_dict({**EGYPTIAN.to_dict(), "ladder": "number-or-strain"}) == BRIDGE


def test_a_rules_dict_without_ladder_is_the_bridge_ladder() -> None:
    """Rules written before the option had the bridge ladder: a missing key reads as it."""
    data = EGYPTIAN.to_dict()
    del data["ladder"]
    assert Rules.from_dict(data).ladder is Ladder.NUMBER_OR_STRAIN


def test_old_egyptian_record_keeps_its_ladder_and_replays() -> None:
    """tests/data/record_v1_egyptian.json was played under the bridge ladder (7C then 7D ...)."""
    text = (DATA / "record_v1_egyptian.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert "ladder" not in data["rules"]
    match = read_record(text)
    assert match.rules.ladder is Ladder.NUMBER_OR_STRAIN
    assert list(match.team_scores) == data["result"]["team_scores"]
    # Some deal of it bids the same number in a higher strain, which the seed ladder refuses.
    same_number = False
    for deal in match.deals:
        levels = [a.level for _, a in deal.history if isinstance(a, Bid)]
        same_number |= any(x >= y for x, y in itertools.pairwise(levels))
    assert same_number


@pytest.mark.parametrize(
    "name", ["classic", "sol", "egyptian", "tarneeb400", "syrian400", "levant-sets"]
)
def test_max_auction_actions_bounds_random_auctions(name: str) -> None:
    rules = find_rules(name)
    bound = max_auction_actions(rules)
    for seed in range(40):
        deal = Deal.from_seed(rules, seed % 4, seed)
        deal.playout(random.Random(seed))
        assert len([a for a in deal.action_ids if a >= 52]) <= bound


def test_throw_in_is_an_enum_with_the_old_text() -> None:
    """Records and the wire keep the text: str(), f-strings and JSON give the old values."""
    assert isinstance(ThrowIn.ALL_PASS, enum.Enum)
    assert [t.value for t in ThrowIn] == ["all-pass", "weak-hand", "low-total"]
    assert str(ThrowIn.WEAK_HAND) == f"{ThrowIn.WEAK_HAND}" == "weak-hand"
    assert json.dumps({"thrown_in": ThrowIn.LOW_TOTAL}) == '{"thrown_in": "low-total"}'
    assert ThrowIn("all-pass") is ThrowIn.ALL_PASS and ThrowIn.ALL_PASS == "all-pass"
    deal = Deal.from_seed(find_rules("classic"), W, 1)
    for _ in range(4):
        deal.push("pass")
    assert deal.thrown_in is ThrowIn.ALL_PASS


def test_an_old_egyptian_deal_line_replays_under_the_bridge_ladder() -> None:
    """A tarneeb-deal/1 line written before the ladder option says rules=egyptian and bids the
    bridge ladder (7C, then 7D); it still reads, and a line that is wrong either way still fails."""
    hands = " ".join(
        f"{seat.letter}={text}"
        for seat, text in zip(
            Seat,
            ("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"),
            strict=True,
        )
    )
    old = parse_deal(f"tarneeb-deal/1 rules=egyptian dealer=W {hands} actions=7C,7D,pass")
    assert old.rules == BRIDGE
    assert [str(a) for _, a in old.history] == ["7C", "7D", "pass"]
    new = parse_deal(f"tarneeb-deal/1 rules=egyptian dealer=W {hands} actions=7C,8D,pass")
    assert new.rules == EGYPTIAN
    with pytest.raises(RecordError, match="action 2"):
        parse_deal(f"tarneeb-deal/1 rules=egyptian dealer=W {hands} actions=7C,7C")
    assert parse_deal(repr(new)[12:-2]) == new
