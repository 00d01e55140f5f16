"""Each preset's characteristic rule, played out through a Deal or a Match; the registry."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from support import PRESET_NAMES as NAMES
from support import duel, play_randomly
from tarneeb import (
    PRESETS,
    SEATS,
    AllPass,
    Bid,
    Bidding,
    Card,
    CardSet,
    Contract,
    Count,
    Deal,
    Defenders,
    Doubling,
    IllegalActionError,
    Match,
    Phase,
    Rules,
    RulesError,
    Seat,
    Strain,
    Suit,
    Team,
    ThirteenWins,
    ThrowIn,
    find_rules,
    is_weak_hand,
    preset_name,
)
from tarneeb.actions import PASS, REDEAL
from tarneeb.cards import FULL_MASK, SUIT_MASKS
from tarneeb.i18n import translator
from tarneeb.match import SetResult
from tarneeb.presets import PRESET_SUMMARIES
from tarneeb.record import match_to_record, read_record
from tarneeb.reference import describe_rules
from tarneeb.rules import KabshSide
from tarneeb.summaries import fact_text, preset_summary
from tarneeb.summary import SummaryFact, summary_facts

S, E, N, W = Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST
PASSES = ["pass", "pass", "pass"]


def one_suit_each(south: Suit, east: Suit, north: Suit, west: Suit) -> tuple[int, int, int, int]:
    return SUIT_MASKS[south], SUIT_MASKS[east], SUIT_MASKS[north], SUIT_MASKS[west]


def around(south: str) -> tuple[int, int, int, int]:
    """South's hand as given, the other 39 cards dealt out high to low to East, North, West."""
    mask = CardSet.parse(south).mask
    rest = [c for c in range(51, -1, -1) if not mask >> c & 1]
    hands = [mask, 0, 0, 0]
    for i, card in enumerate(rest):
        hands[1 + i % 3] |= 1 << card
    return hands[0], hands[1], hands[2], hands[3]


def bids_of(deal: Deal) -> list[str]:
    """The legal bids of the seat to act, as text."""
    return [str(Bid.from_id(a)) for a in deal.legal_action_ids() if a >= 64]


def play_match_deal(
    match: Match,
    decide: Callable[[Deal], str],
    seed: int = 0,
) -> Deal:
    """Play the current deal of a match: ``decide`` answers every non-card decision."""
    deal = match.deal
    rng = random.Random(seed)
    while match.deal is deal and not match.is_over():
        if deal.phase is Phase.PLAY:
            match.push(rng.choice(deal.legal_action_ids()))
        else:
            match.push(decide(deal))
    return deal


def south_bids(bid: str, trump: str = "S") -> Callable[[Deal], str]:
    """South bids ``bid`` when first to speak, everyone else passes, South names ``trump``."""

    def decide(deal: Deal) -> str:
        if deal.phase is Phase.TRUMP:
            return trump
        if deal.phase is Phase.RAISE:
            return "stand"
        if (
            deal.to_act is S
            and deal.contract is None
            and not any(seat is S for seat, _ in deal.history)
        ):
            return bid
        return "pass"

    return decide


# -- the registry -------------------------------------------------------------------------


def test_the_presets_are_the_ten_of_rules_md() -> None:
    assert list(PRESETS) == NAMES
    assert list(PRESET_SUMMARIES) == NAMES
    assert all(len(PRESET_SUMMARIES[name]) > 20 for name in NAMES)


def test_presets_are_distinct_and_valid() -> None:
    values = list(PRESETS.values())
    for i, a in enumerate(values):
        for b in values[i + 1 :]:
            assert a != b
    for name, rules in PRESETS.items():
        assert isinstance(rules, Rules)
        assert Rules.from_dict(rules.to_dict()) == rules
        assert preset_name(rules) == name
        # Every preset deals and plays a whole deal.
        deal = Deal.from_seed(rules, W, name)
        deal.playout(random.Random(7))
        assert deal.is_over()


def test_the_summaries_are_made_from_the_options() -> None:
    assert PRESET_SUMMARIES["classic"] == (
        "The Levant classic: to 41, defenders always score their tricks, 13 bid and made scores 16."
    )
    assert PRESET_SUMMARIES["levant-sets"] == (
        "The Levant game in sets: to 41, a match of 13 sets, defenders score only when the "
        "contract fails, 13 bid and made scores 13, 13 tricks win the set."
    )
    assert (
        "all 13 taken without bidding 13 scores 16, for either side" in (PRESET_SUMMARIES["saudi"])
    )
    for name in NAMES:
        summary = PRESET_SUMMARIES[name]
        assert summary == preset_summary(name) == preset_summary(name.upper(), PRESETS[name])
        assert summary.startswith(translator()(f"preset.{name}.tradition") + ": to ")
        assert "seed" not in summary.lower()
        assert f"to {PRESETS[name].target}," in summary


def test_a_summary_follows_the_options_set() -> None:
    changed = find_rules("classic").replace(target=31)
    assert preset_summary("classic", changed).startswith("The Levant classic: to 31,")
    egyptian = find_rules("egyptian")
    assert "raise to double stakes" in preset_summary("egyptian")
    assert "raise to quadruple stakes" in preset_summary(
        "egyptian", egyptian.replace(double_factor=4)
    )
    assert "13 bid and made scores 20" in preset_summary(
        "levant-sets", find_rules("levant-sets").replace(bid13_made=20)
    )
    with pytest.raises(RulesError):
        preset_summary("bridge")


def test_summary_facts_are_keys_and_values() -> None:
    facts = summary_facts(find_rules("egyptian"))
    assert facts[0] == SummaryFact("target", {"target": 41})
    assert (
        SummaryFact("strains", {"order": ("clubs", "diamonds", "hearts", "spades", "no-trump")})
        in facts
    )
    assert SummaryFact("raise", {"stakes": 2}) in facts
    assert fact_text(SummaryFact("double", {"stakes": 3})).endswith("for triple stakes")
    # Every fact of every preset, with any option changed, renders.
    for rules in PRESETS.values():
        for fact in summary_facts(rules):
            assert "{" not in fact_text(fact)


def test_find_rules_ignores_case_and_spaces() -> None:
    assert find_rules("classic") is PRESETS["classic"]
    assert find_rules("CLASSIC") is PRESETS["classic"]
    assert find_rules(" Egyptian ") is PRESETS["egyptian"]
    assert find_rules("Levant-Sets") is PRESETS["levant-sets"]
    assert find_rules("SYRIAN400") is PRESETS["syrian400"]


@pytest.mark.parametrize("name", ["bridge", "", "classic41", "levant sets"])
def test_find_rules_unknown_lists_the_presets(name: str) -> None:
    with pytest.raises(RulesError) as info:
        find_rules(name)
    message = str(info.value)
    assert repr(name) in message
    for preset in NAMES:
        assert preset in message


def test_preset_name_of_other_rules() -> None:
    assert preset_name(Rules()) == "classic"
    assert preset_name(Rules(target=42)) is None
    assert preset_name(find_rules("classic").replace(target=31, bid_once=True)) == "lebanese31"


def test_the_presets_options() -> None:
    p = PRESETS
    assert p["classic"] == Rules()
    assert p["classic"].target == 41
    assert (p["lebanese31"].target, p["lebanese31"].bid_once) == (31, True)
    assert p["tarneeb61"].target == 61
    assert p["levant-sets"].sets == 13
    assert p["levant-sets"].thirteen_wins is ThirteenWins.ANY
    assert p["levant-sets"].defenders is Defenders.TRICKS_IF_SET
    assert p["original"].target == 31
    assert p["egyptian"].target == 41
    assert p["egyptian"].bidding is Bidding.STRAINS
    assert p["egyptian"].doubling is Doubling.RAISE
    assert p["egyptian"].strain_order == (
        Strain.CLUBS,
        Strain.DIAMONDS,
        Strain.HEARTS,
        Strain.SPADES,
    )
    assert p["saudi"].kabsh == 16
    assert p["saudi"].kabsh_side is KabshSide.EITHER
    assert p["levant-sets"].bid13_made is None
    assert p["sol"].no_trump is True
    assert p["tarneeb400"].count is Count.CARD_POINTS
    assert p["tarneeb400"].target == 400
    assert p["syrian400"].bidding is Bidding.INDIVIDUAL
    assert p["syrian400"].fixed_trump is Suit.HEARTS
    assert p["syrian400"].target == 41
    for name in NAMES:
        assert p[name].all_pass is AllPass.THROW_IN
        assert p[name].first_lead_trump is False
        assert p[name].weak_redeal is False


# -- one test per preset ------------------------------------------------------------------


def _deals_to_win(name: str, deals: int) -> None:
    """South bids 13 and takes 13 every deal (16 points): the set ends after ``deals`` deals."""
    rules = find_rules(name)
    match = Match(rules, seed=1, first_dealer=W, hands=[duel(S, E, 13)] * 10)
    for n in range(1, deals + 1):
        assert not match.is_over()
        deal = play_match_deal(match, south_bids("13"), seed=n)
        assert deal.result is not None
        assert deal.result.team_points == (16, 0)
        assert match.team_scores == (16 * n, 0)
    assert match.is_over()
    assert match.winner is Team.NS
    assert match.sets == [SetResult(1, Team.NS, (16 * deals, 0), (16 * deals, 0) * 2, deals)]
    assert [d.dealer for d in match.deals] == [Seat((3 + i) % 4) for i in range(deals)]


def test_classic_plays_to_41() -> None:
    _deals_to_win("classic", 3)


def test_classic_all_pass_throws_the_deal_in_to_the_next_dealer() -> None:
    match = Match(find_rules("classic"), seed=3, first_dealer=W)
    for _ in range(4):
        match.push("pass")
    first = match.deals[0]
    assert first.phase is Phase.THROWN_IN
    assert first.thrown_in == ThrowIn.ALL_PASS
    assert first.result is None
    assert match.team_scores == (0, 0)
    assert match.dealer is S
    assert match.to_act is E


def test_classic_defenders_always_score() -> None:
    match = Match(find_rules("classic"), seed=1, first_dealer=W, hands=[duel(S, E, 9)])
    play_match_deal(match, south_bids("8"))
    assert match.team_scores == (9, 4)


def test_lebanese31_bids_once_and_plays_to_31() -> None:
    rules = find_rules("lebanese31")
    deal = Deal(rules, W, duel(S, E, 9))
    for action in ["7", "8", "pass", "pass"]:
        deal.push(action)
    assert deal.to_act is S
    assert deal.legal_action_ids() == (PASS,)
    before = deal.copy()
    with pytest.raises(IllegalActionError) as info:
        deal.push("9")
    assert "bid_once" in str(info.value)
    assert "South" in str(info.value)
    assert deal == before
    deal.push("pass")
    assert deal.contract == Contract(E, 8)
    # The classic game lets South bid again.
    classic = Deal(find_rules("classic"), W, duel(S, E, 9))
    for action in ["7", "8", "pass", "pass", "9", "pass"]:
        classic.push(action)
    assert classic.phase is Phase.TRUMP
    assert classic.contract == Contract(S, 9)
    _deals_to_win("lebanese31", 2)


def test_tarneeb61_plays_to_61() -> None:
    assert find_rules("tarneeb61").target == 61
    _deals_to_win("tarneeb61", 4)


def test_levant_sets_thirteen_tricks_win_the_set_and_13_sets_make_the_match() -> None:
    rules = find_rules("levant-sets")
    hands = [duel(S, E, 9), duel(S, E, 8), duel(S, E, 13), duel(S, E, 0)] + [duel(S, E, 13)] * 11
    match = Match(rules, seed=2, first_dealer=W, hands=hands)
    play_match_deal(match, south_bids("8"))
    assert match.team_scores == (9, 0)  # made: the defenders score nothing
    play_match_deal(match, south_bids("9"))
    assert match.team_scores == (0, 5)  # failed: -9, the defenders their 5 tricks
    play_match_deal(match, south_bids("7"))  # 13 tricks: the set, whatever the score
    assert match.sets == [SetResult(1, Team.NS, (13, 5), (13, 5, 13, 5), 3)]
    assert match.team_scores == (0, 0)
    assert match.set_number == 2
    play_match_deal(match, south_bids("7"))  # the defenders take all 13
    assert match.sets[1] == SetResult(2, Team.EW, (-7, 13), (-7, 13, -7, 13), 1)
    for n in range(11):
        assert not match.is_over()
        assert match.winner is None
        play_match_deal(match, south_bids("7"), seed=n)
    assert match.is_over()
    assert len(match.sets) == 13
    assert match.match_points == (13 - 7 + 11 * 13, 5 + 13)
    assert match.winner is Team.NS
    with pytest.raises(IllegalActionError):
        match.push("pass")


def test_levant_sets_thirteen_bid_and_made_scores_thirteen() -> None:
    """002: «Als de partij die opgeeft minstens het aantal geboden slagen wint, scoort zij het
    aantal slagen dat zij heeft»; «Een team kan het spel ook winnen door een set van 13 slagen
    te maken»: 13 bid and made scores the 13 tricks (no bonus of 16) and wins the set."""
    match = Match(find_rules("levant-sets"), seed=2, first_dealer=W, hands=[duel(S, E, 13)])
    play_match_deal(match, south_bids("13"))
    assert match.sets == [SetResult(1, Team.NS, (13, 0), (13, 0, 13, 0), 1)]
    assert find_rules("levant-sets").bid13_made is None


def test_original_difference_scoring_to_31() -> None:
    rules = find_rules("original")
    hands = [duel(S, E, 7), duel(S, E, 13), duel(S, E, 13)]
    match = Match(rules, seed=4, first_dealer=W, hands=hands)
    play_match_deal(match, south_bids("10"))
    assert match.team_scores == (0, 3)
    play_match_deal(match, south_bids("13"))
    assert match.team_scores == (26, 3)
    assert not match.is_over()
    play_match_deal(match, south_bids("8"))
    assert match.team_scores == (42, 3)
    assert match.winner is Team.NS


def test_egyptian_strain_ladder_and_raise() -> None:
    """003: «каждая последующая ставка помимо смены масти, должна быть в количественном
    отношении выше, чем предыдущая»: a higher strain and a higher number."""
    rules = find_rules("egyptian")
    deal = Deal(rules, W, duel(S, E, 10))
    assert bids_of(deal)[:7] == ["7C", "7D", "7H", "7S", "7NT", "8C", "8D"]
    assert len(bids_of(deal)) == 7 * 5
    with pytest.raises(IllegalActionError):
        deal.push("8")  # a bid names its strain here
    deal.push("7H")
    assert bids_of(deal)[:4] == ["8S", "8NT", "9S", "9NT"]
    for lower in ("7C", "7D", "7H", "7S", "8C", "8H", "13D"):
        with pytest.raises(IllegalActionError, match="outrank"):
            deal.push(lower)
    deal.push("8S")  # East
    assert bids_of(deal) == [f"{n}NT" for n in range(9, 14)]
    deal.push("pass")
    deal.push("pass")
    deal.push("9NT")  # South again
    deal.push("pass")
    assert deal.phase is Phase.PLAY  # two bidders: no raise
    assert deal.contract == Contract(S, 9, Strain.NO_TRUMP)
    # The only bidder may raise; the contract then counts double.
    deal = Deal(rules, W, duel(S, E, 10))
    for action in ["8S", *PASSES]:
        deal.push(action)
    assert deal.phase is Phase.RAISE
    assert deal.to_act is S
    with pytest.raises(IllegalActionError):
        deal.push("pass")
    deal.push("raise")
    assert deal.contract == Contract(S, 8, Strain.SPADES, 2, None, True)
    play_randomly(deal)
    assert deal.result is not None
    assert deal.result.team_points == (20, 0)


def test_egyptian_strain_order_option() -> None:
    rules = find_rules("egyptian").replace(strain_order="C S H D")
    deal = Deal(rules, W, duel(S, E, 10))
    assert bids_of(deal)[:6] == ["7C", "7S", "7H", "7D", "7NT", "8C"]
    deal.push("7H")
    with pytest.raises(IllegalActionError):
        deal.push("8S")  # spades rank below hearts here
    with pytest.raises(IllegalActionError):
        deal.push("7D")  # the same number
    deal.push("8D")


def test_saudi_kabsh() -> None:
    for name, points in (("saudi", 16), ("classic", 13)):
        deal = Deal(find_rules(name), W, duel(S, E, 13))
        for action in ["7", *PASSES, "S"]:
            deal.push(action)
        play_randomly(deal)
        assert deal.result is not None
        assert deal.result.team_points == (points, 0)
        assert deal.result.all_thirteen is Team.NS


@pytest.mark.parametrize(("name", "defenders"), [("saudi", 16), ("classic", 13), ("original", 9)])
def test_saudi_kabsh_is_for_either_side(name: str, defenders: int) -> None:
    """000: «Tarneeb saudí: Permite un bono de "kabsh" (capot) cuando una pareja gana las 13
    bazas sin haberlo reclamado de antemano»: una pareja, either side: here the defenders,
    who bid nothing, take all 13. (The original game's bonus is the declarers' only.)"""
    match = Match(find_rules(name), seed=1, first_dealer=W, hands=[duel(S, E, 0)])
    play_match_deal(match, south_bids("9"))
    declarers = 0 if name == "original" else -9
    assert match.team_scores == (declarers, defenders)
    assert find_rules("saudi").kabsh_side is KabshSide.EITHER
    assert find_rules("original").kabsh_side is KabshSide.DECLARERS


def test_sol_no_trump_outranks_and_has_no_trump() -> None:
    rules = find_rules("sol")
    deal = Deal(rules, W, one_suit_each(Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS))
    assert bids_of(deal)[:4] == ["7", "7NT", "8", "8NT"]
    deal.push("8")
    assert bids_of(deal)[:2] == ["8NT", "9"]
    deal.push("8NT")  # East outbids South's 8 at the same number
    assert bids_of(deal)[0] == "9"
    with pytest.raises(IllegalActionError):
        deal.push("8")
    deal.push("pass")  # North
    deal.push("pass")  # West
    deal.push("pass")  # South
    assert deal.phase is Phase.PLAY  # no trump to name
    assert deal.contract == Contract(E, 8, Strain.NO_TRUMP)
    assert deal.trump is None
    assert deal.to_act is E

    # South holds every heart, East every spade: in no-trump East cannot ruff.
    hands = one_suit_each(Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
    for seed in range(4):
        nt = Deal(rules, W, hands)
        for action in ["8NT", *PASSES]:
            nt.push(action)
        play_randomly(nt, seed)
        assert nt.tricks_taken == (13, 0, 0, 0)
        assert all(t.winner is S and t.cards[0].suit is Suit.HEARTS for t in nt.tricks)
        assert nt.result is not None
        assert nt.result.team_points == (13, 0)
        # The same hands with spades trump: East ruffs the first heart and wins everything.
        trumped = Deal(rules, W, hands)
        for action in ["8", *PASSES, "S"]:
            trumped.push(action)
        play_randomly(trumped, seed)
        assert trumped.tricks_taken == (0, 13, 0, 0)
        assert trumped.result is not None
        assert trumped.result.team_points == (-8, 13)


def test_tarneeb400_card_points_to_400() -> None:
    rules = find_rules("tarneeb400")
    deal = Deal(rules, W, duel(S, E, 13))
    assert bids_of(deal) == ["60", "70", "80", "90", "100", "110", "120"]
    match = Match(rules, seed=5, first_dealer=W, hands=[duel(S, E, 13)] * 4)
    for n in range(1, 5):
        assert not match.is_over()
        deal = play_match_deal(match, south_bids("120"), seed=n)
        assert deal.card_points_taken == (120, 0, 0, 0)
        assert match.team_scores == (120 * n, 0)
    assert match.is_over()
    assert match.winner is Team.NS
    # Failed: the declarers lose the bid, the defenders score their card points.
    match = Match(rules, seed=5, first_dealer=W, hands=[duel(S, E, 0)])
    play_match_deal(match, south_bids("90"))
    assert match.team_scores == (-90, 120)


# -- Syrian 400 ----------------------------------------------------------------------------


def test_syrian400_each_player_bids_once_hearts_trump_first_hand_leads() -> None:
    rules = find_rules("syrian400")
    deal = Deal(rules, N, duel(W, E, 5, Suit.HEARTS, Suit.CLUBS))
    assert deal.to_act is W
    assert PASS not in deal.legal_action_ids()
    assert bids_of(deal) == [str(b) for b in range(2, 14)]
    with pytest.raises(IllegalActionError):
        deal.push("pass")
    with pytest.raises(IllegalActionError, match="from 2 to 13"):
        deal.push("1")
    for bid in ("5", "2", "8", "2"):  # West, South, East, North
        deal.push(bid)
    assert deal.bids == (2, 8, 2, 5)
    assert deal.phase is Phase.PLAY
    assert deal.trump is Suit.HEARTS
    assert deal.contract is None
    assert deal.to_act is W  # the first hand leads
    play_randomly(deal)
    assert deal.tricks_taken == (0, 8, 0, 5)
    assert deal.result is not None
    assert deal.result.seat_points == (-2, 16, -2, 10)


@pytest.mark.parametrize(
    ("scores", "lowest"),
    [
        ((0, 0, 0, 0), (2, 2, 2, 2)),
        ((29, -5, 30, 39), (2, 2, 3, 3)),
        ((40, 49, 50, 120), (4, 4, 5, 5)),
    ],
)
def test_syrian400_minimum_bid_rises_with_own_score(
    scores: tuple[int, int, int, int], lowest: tuple[int, int, int, int]
) -> None:
    rules = find_rules("syrian400")
    deal = Deal(rules, W, duel(S, E, 5, Suit.HEARTS, Suit.CLUBS), scores)
    for seat in SEATS:
        assert deal.to_act is seat
        low = lowest[seat]
        assert bids_of(deal) == [str(b) for b in range(low, 14)]
        if low > 2:
            with pytest.raises(IllegalActionError, match=f"from {low} to 13"):
                deal.push(str(low - 1))
        deal.push("13" if seat is W else str(low))


@pytest.mark.parametrize(
    ("scores", "total"),
    [
        ((0, 0, 0, 0), 11),
        ((29, 0, 0, 0), 11),
        ((-10, 30, 0, 0), 12),
        ((0, 0, 39, 0), 12),
        ((40, 0, 0, 0), 13),
        ((0, 0, 0, 49), 13),
        ((0, 50, 0, 0), 14),
        ((0, 0, 0, 120), 14),
    ],
)
def test_syrian400_total_minimum_by_the_highest_score(
    scores: tuple[int, int, int, int], total: int
) -> None:
    rules = find_rules("syrian400")
    hands = duel(S, E, 5, Suit.HEARTS, Suit.CLUBS)
    lows = [rules.individual_minimum(s) for s in scores]
    for extra, thrown in ((-1, True), (0, False)):
        deal = Deal(rules, W, hands, scores)
        bids = [*lows[:3], total + extra - sum(lows[:3])]
        assert bids[3] >= lows[3]
        for bid in bids:
            deal.push(str(bid))
        if thrown:
            assert deal.phase is Phase.THROWN_IN
            assert deal.thrown_in == ThrowIn.LOW_TOTAL
            assert deal.result is None
            assert deal.is_over()
        else:
            assert deal.phase is Phase.PLAY
            assert deal.thrown_in is None


def test_syrian400_match_low_total_redeals_and_a_partner_must_be_positive() -> None:
    rules = find_rules("syrian400")
    hands = [
        duel(S, E, 5, Suit.HEARTS, Suit.CLUBS),  # thrown in: bids add up to 10
        duel(S, N, 11, Suit.HEARTS, Suit.CLUBS),  # South 11 tricks, North 2
        duel(E, S, 9, Suit.HEARTS, Suit.CLUBS),  # East 9, South 4
        duel(N, S, 2, Suit.HEARTS, Suit.CLUBS),  # North 2, South 11
    ]
    bids = iter(["2", "2", "2", "4", "11", "2", "2", "2", "5", "2", "2", "4", "2", "2", "7", "2"])

    def decide(deal: Deal) -> str:
        return next(bids)

    match = Match(rules, seed=6, first_dealer=W, hands=hands)
    play_match_deal(match, decide)
    assert match.deals[0].thrown_in == ThrowIn.LOW_TOTAL
    assert match.dealer is W  # the same dealer deals again
    assert match.seat_scores == (0, 0, 0, 0)
    play_match_deal(match, decide)  # S 11 (40), E 2, N 2, W 2
    assert match.seat_scores == (40, -2, 2, -2)
    assert match.team_scores == (42, -4)
    assert match.dealer is S
    second = play_match_deal(match, decide)  # E 5 (10), N 2, W 2, S 4 (face value from 30)
    assert second.tricks_taken == (4, 9, 0, 0)
    assert match.seat_scores == (44, 8, 0, -4)
    # South is over 41 but North is at 0, not positive: the set goes on.
    assert not match.is_over()
    assert match.sets == []
    play_match_deal(match, decide)  # N 2, W 2, S 7 (14), E 2: the total must reach 13
    assert match.seat_scores == (58, 6, 2, -6)
    assert match.is_over()
    assert match.winner is Team.NS
    assert match.sets == [SetResult(1, Team.NS, (60, 0), (58, 6, 2, -6), 4)]


def test_syrian400_partner_zero_ok() -> None:
    rules = find_rules("syrian400").replace(partner_zero_ok=True)
    hands = [duel(S, N, 11, Suit.HEARTS, Suit.CLUBS), duel(E, S, 9, Suit.HEARTS, Suit.CLUBS)]
    bids = iter(["11", "2", "2", "2", "5", "2", "2", "4"])
    match = Match(rules, seed=6, first_dealer=W, hands=hands)
    play_match_deal(match, lambda deal: next(bids))
    play_match_deal(match, lambda deal: next(bids))
    assert match.seat_scores == (44, 8, 0, -4)
    assert match.is_over()
    assert match.winner is Team.NS


# -- options played on top of presets ----------------------------------------------------


def test_first_lead_trump() -> None:
    rules = find_rules("classic").replace(first_lead_trump=True)
    hands = duel(S, E, 5)  # South: the top five spades and eight low clubs
    deal = Deal(rules, W, hands)
    for action in ["8", *PASSES, "S"]:
        deal.push(action)
    spades = CardSet(hands[S] & SUIT_MASKS[Suit.SPADES])
    assert CardSet(deal.legal_action_ids()) == spades
    assert len(deal.legal_actions) == 5
    low_club = Card.parse("2C")
    assert low_club in deal.hand(S)
    with pytest.raises(IllegalActionError, match="first lead must be a trump"):
        deal.push(int(low_club))
    with pytest.raises(IllegalActionError, match="first lead must be a trump"):
        deal.push("2C")
    fast = deal.copy()
    fast.playout(random.Random(3))
    assert fast.tricks[0].cards[0].suit is Suit.SPADES
    deal.push("AS")
    play_randomly(deal)
    assert deal.tricks[0].cards[0] == Card.parse("AS")
    # Void of trumps (hearts, all West's): any card may lead.
    void = Deal(rules, W, hands)
    for action in ["8", *PASSES, "H"]:
        void.push(action)
    assert CardSet(void.legal_action_ids()) == CardSet(hands[S])
    void.push("2C")
    # Without the option any card may lead.
    free = Deal(find_rules("classic"), W, hands)
    for action in ["8", *PASSES, "S"]:
        free.push(action)
    assert CardSet(free.legal_action_ids()) == CardSet(hands[S])
    # No-trump: nothing to lead.
    sol = Deal(find_rules("sol").replace(first_lead_trump=True), W, hands)
    for action in ["8NT", *PASSES]:
        sol.push(action)
    assert CardSet(sol.legal_action_ids()) == CardSet(hands[S])


def test_first_lead_trump_only_the_first_trick() -> None:
    rules = find_rules("classic").replace(first_lead_trump=True)
    hands = duel(S, E, 5)
    deal = Deal(rules, W, hands)
    for action in ["8", *PASSES, "S"]:
        deal.push(action)
    for card in ("AS", "2S", "9D", "9H"):  # South's ace wins; South leads again
        deal.push(card)
    assert deal.to_act is S
    assert CardSet(deal.legal_action_ids()) == deal.hand(S)
    deal.push("2C")


@pytest.mark.parametrize(
    ("name", "forced"),
    [
        ("classic", ["7"]),
        ("sol", ["7", "7NT"]),
        ("egyptian", ["7C", "7D", "7H", "7S", "7NT"]),
        ("tarneeb400", ["60"]),
    ],
)
def test_all_pass_dealer_bids(name: str, forced: list[str]) -> None:
    rules = find_rules(name).replace(all_pass="dealer-bids")
    deal = Deal(rules, W, duel(W, E, 9))
    for _ in range(3):
        deal.push("pass")
    assert deal.to_act is W
    assert PASS not in deal.legal_action_ids()
    assert bids_of(deal) == forced
    before = deal.copy()
    with pytest.raises(IllegalActionError, match="dealer must bid"):
        deal.push("pass")
    higher = "8" if name != "tarneeb400" else "70"
    with pytest.raises(IllegalActionError):
        deal.push(higher if name != "egyptian" else "8S")
    assert deal == before
    deal.push(forced[-1])
    assert deal.declarer is W
    assert deal.phase in (Phase.TRUMP, Phase.RAISE, Phase.PLAY)


def test_dealer_bids_with_weak_redeal_does_not_always_play_the_deal() -> None:
    """003: «когда трое игроков пасуют, то сдатчик должен обязательно объявить 7 взяток» and
    «назначают пересдачу карт, если у одного из игроков: нет Туза ...»: the forced dealer with a
    weak hand may still claim the redeal, so the two options together do not make every deal
    played; the reference says so."""
    rules = find_rules("classic").replace(all_pass="dealer-bids", weak_redeal=True)
    match = Match(rules, seed=9, first_dealer=S, hands=[around(WEAK), duel(S, E, 9)])
    for _ in range(3):
        match.push("pass")
    assert match.to_act is S
    assert PASS not in match.deal.legal_action_ids()
    assert REDEAL in match.deal.legal_action_ids()
    match.push("redeal")
    assert match.deals[0].thrown_in == ThrowIn.WEAK_HAND
    assert match.dealer is S and len(match.deals) == 2
    text = " ".join(describe_rules(rules).split())
    assert "a deal can still end without play when a weak hand is redealt" in text
    assert "so every deal is played" not in text
    only_forced = " ".join(describe_rules(rules.replace(weak_redeal=False)).split())
    assert "so every deal is played" in only_forced


def test_all_pass_dealer_bids_only_when_everyone_passed() -> None:
    rules = find_rules("classic").replace(all_pass="dealer-bids")
    deal = Deal(rules, W, duel(S, E, 9))
    for action in ["pass", "8", "pass"]:
        deal.push(action)
    assert deal.to_act is W
    assert PASS in deal.legal_action_ids()
    deal.push("pass")
    assert deal.contract == Contract(E, 8)
    # Without the option, four passes throw the deal in.
    deal = Deal(find_rules("classic"), W, duel(S, E, 9))
    for _ in range(4):
        deal.push("pass")
    assert deal.thrown_in == ThrowIn.ALL_PASS


def test_all_pass_dealer_bids_in_a_match() -> None:
    rules = find_rules("classic").replace(all_pass="dealer-bids")
    match = Match(rules, seed=8, first_dealer=W, hands=[duel(W, E, 9)])
    for _ in range(3):
        match.push("pass")
    match.push("7")
    match.push("S")
    assert len(match.deals) == 1
    assert match.deal.contract == Contract(W, 7, Strain.SPADES)


WEAK = "K.Q3.J32.T987654"


@pytest.mark.parametrize(
    ("hand", "weak"),
    [
        (WEAK, True),
        ("-.Q3.J32.T9876542", True),
        ("A.Q3.J32.T987654", False),  # an ace
        ("K2.Q3.J3.T987654", False),  # a guarded king
        ("K.Q32.J3.T987654", False),  # a queen in three
        ("K.Q3.J432.T98765", False),  # a jack in four
        ("K.Q3.J32.T987654", True),
    ],
)
def test_weak_hand_reading(hand: str, weak: bool) -> None:
    assert len(CardSet.parse(hand)) == 13
    assert is_weak_hand(CardSet.parse(hand).mask) is weak


def test_weak_redeal() -> None:
    rules = find_rules("original").replace(weak_redeal=True)
    hands = around(WEAK)
    deal = Deal(rules, W, hands)
    assert REDEAL in deal.legal_action_ids()
    deal.push("redeal")
    assert deal.phase is Phase.THROWN_IN
    assert deal.thrown_in == ThrowIn.WEAK_HAND
    assert deal.result is None
    # Only on the player's first turn.
    deal = Deal(rules, W, hands)
    assert not is_weak_hand(hands[E])
    for action in ["7", "8", "pass", "pass"]:
        deal.push(action)
    assert deal.to_act is S
    assert REDEAL not in deal.legal_action_ids()
    with pytest.raises(IllegalActionError):
        deal.push("redeal")
    # A strong hand cannot ask.
    strong = around("A.Q3.J32.T987654")
    deal = Deal(rules, W, strong)
    assert REDEAL not in deal.legal_action_ids()
    with pytest.raises(IllegalActionError):
        deal.push("redeal")
    # Nor anyone without the option.
    deal = Deal(find_rules("original"), W, hands)
    assert REDEAL not in deal.legal_action_ids()
    with pytest.raises(IllegalActionError):
        deal.push("redeal")


def test_weak_redeal_on_a_later_seat_first_turn() -> None:
    rules = find_rules("classic").replace(weak_redeal=True)
    south, east, north, west = around(WEAK)
    hands = (east, south, north, west)  # East holds the weak hand
    deal = Deal(rules, W, hands)
    assert REDEAL not in deal.legal_action_ids()  # South is strong
    deal.push("7")
    assert REDEAL in deal.legal_action_ids()
    deal.push("redeal")
    assert deal.thrown_in == ThrowIn.WEAK_HAND


def test_weak_redeal_in_a_match_same_dealer() -> None:
    rules = find_rules("classic").replace(weak_redeal=True)
    match = Match(rules, seed=9, first_dealer=W, hands=[around(WEAK), duel(S, E, 9)])
    match.push("redeal")
    assert len(match.deals) == 2
    assert match.deals[0].thrown_in == ThrowIn.WEAK_HAND
    assert match.dealer is W
    assert match.team_scores == (0, 0)
    play_match_deal(match, south_bids("8"))
    assert match.team_scores == (9, 4)


def test_weak_redeal_with_individual_bidding() -> None:
    rules = find_rules("syrian400").replace(weak_redeal=True)
    deal = Deal(rules, W, around(WEAK))
    assert REDEAL in deal.legal_action_ids()
    deal.push("redeal")
    assert deal.thrown_in == ThrowIn.WEAK_HAND


def test_duel_and_around_helpers_deal_the_whole_deck() -> None:
    for hands in (duel(S, E, 4), duel(N, W, 9, Suit.HEARTS, Suit.DIAMONDS), around(WEAK)):
        union = 0
        for hand in hands:
            assert hand.bit_count() == 13
            union |= hand
        assert union == FULL_MASK


@pytest.mark.parametrize(
    ("name", "old", "bid", "taken", "points"),
    [
        # The saudi preset before kabsh_side: the defenders' 13 tricks scored 13.
        ("saudi", {"kabsh": 16}, "8", 0, (-8, 13)),
        # levant-sets before the fix: 13 bid and made scored 16.
        ("levant-sets", {"bid13_made": 16}, "13", 13, (16, 0)),
    ],
)
def test_records_of_changed_presets_replay_under_their_old_rules(
    name: str, old: dict[str, object], bid: str, taken: int, points: tuple[int, int]
) -> None:
    """A record stores every option of its day; the options added since take defaults that
    play as the preset then did, so the record replays to the same scores."""
    then = find_rules(name).replace(kabsh_side="declarers", **old)
    match = Match(then, first_dealer=W, hands=[duel(S, E, taken)])
    play_match_deal(match, south_bids(bid))
    assert match.deals[0].result is not None
    assert match.deals[0].result.team_points == points
    record = match_to_record(match)
    del record["rules"]["kabsh_side"]  # an earlier version knew no such option
    record["rules"]["no_win_below_zero"] = False  # and wrote this one as a boolean
    replayed = read_record(record)
    assert replayed.rules == then
    assert replayed.deals[0].result == match.deals[0].result
    assert replayed == match


@pytest.mark.parametrize("name", [12, None, ["classic"]])
def test_a_preset_asked_by_something_not_text_is_a_rules_error(name: object) -> None:
    """find_rules(12) used to end in AttributeError ('int' object has no attribute 'strip')."""
    with pytest.raises(RulesError, match="named by text"):
        find_rules(name)  # type: ignore[arg-type]
