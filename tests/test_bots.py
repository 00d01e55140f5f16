"""The bots (tarneeb.bots): the heuristic's decisions in hand-made positions,
the registry, legal play under every preset, views only, seeds, and strength.

Positions are built from whole hands (spades.hearts.diamonds.clubs), a
scripted auction and the earlier cards, then one seat's view is handed to the
bot. Play goes S -> E -> N -> W; the first hand to bid is the dealer's next
seat. Each position test asserts the card a good player would choose.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from support import fill
from tarneeb import (
    PRESETS,
    Bid,
    Card,
    ChooseTrump,
    Deal,
    Match,
    Pass,
    Phase,
    Raise,
    Redeal,
    Rules,
    Seat,
    Stand,
    Strain,
    Suit,
    Team,
    find_rules,
)
from tarneeb.actions import Action
from tarneeb.bots import (
    BOTS,
    Bot,
    BotError,
    Decision,
    HeuristicBot,
    Knowledge,
    RandomBot,
    find_bot,
    make_bot,
    play_deal,
    play_match,
)
from tarneeb.view import View

S, E, N, W = Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST
CLASSIC = find_rules("classic")
EGYPTIAN = find_rules("egyptian")
SYRIAN = find_rules("syrian400")
SPECS = ("random", "heuristic", "heuristic:aggressive", "heuristic:cautious")

# The seat that bids first (and so the declarer after "7", pass, pass, pass) for each dealer.
DEALER_OF_FIRST_BIDDER = {S: W, E: S, N: E, W: N}
# The first bidder bids 7, the others pass, and the first bidder names spades.
SEVEN_SPADES = ("7", "pass", "pass", "pass", "S")


def position(
    hands: Sequence[str | int],
    first_bidder: Seat,
    actions: Sequence[str] = (),
    rules: Rules = CLASSIC,
    scores: Sequence[int] = (0, 0, 0, 0),
) -> Deal:
    """A deal from the four hands (S, E, N, W), with ``actions`` pushed (checked)."""
    deal = Deal(rules, DEALER_OF_FIRST_BIDDER[first_bidder], list(hands), scores)
    for action in actions:
        deal.push(action)
    return deal


def decide(deal: Deal, spec: str = "heuristic", seat: Seat | None = None) -> Decision:
    """The bot's decision for the seat to act; it must be legal and give a reason."""
    assert deal.to_act is not None
    if seat is not None:
        assert deal.to_act == seat
    decision = make_bot(spec, seed=0).decide(deal.view(deal.to_act))
    assert isinstance(decision, Decision)
    assert decision.action in deal.legal_actions
    assert decision.reason.strip()
    return decision


def card(deal: Deal, seat: Seat | None = None) -> Card:
    action = decide(deal, seat=seat).action
    assert isinstance(action, Card)
    return action


def auction(
    hand: str,
    seat: Seat,
    first_bidder: Seat,
    actions: Sequence[str] = (),
    rules: Rules = CLASSIC,
    scores: Sequence[int] = (0, 0, 0, 0),
    spec: str = "heuristic",
) -> Action:
    """What the bot in ``seat`` holding ``hand`` says after ``actions``."""
    deal = position(fill({seat: hand}), first_bidder, actions, rules, scores)
    return decide(deal, spec, seat).action


# -- play: the declarer -----------------------------------------------------------------

# South declares 7 spades and leads; the opponents hold no spade (unknown to South).
DRAW = ("AK652.A32.K32.32", "-.KQJT.AQJT.AKQJT", "QJT98743.54.54.4", "-.9876.9876.98765")


def test_declarer_draws_trumps_with_the_master_trump() -> None:
    deal = position(DRAW, S, SEVEN_SPADES)
    assert card(deal, S) == Card("AS")


def test_declarer_stops_drawing_trumps_when_the_opponents_have_none() -> None:
    # Both opponents show out of spades: South cashes a side ace instead of a trump.
    deal = position(DRAW, S, [*SEVEN_SPADES, "AS", "TC", "3S", "5C"])
    know = Knowledge.of(deal.view(S))
    assert know.voids[E] == {Suit.SPADES} and know.voids[W] == {Suit.SPADES}
    assert not know.can_hold(E, Suit.SPADES) and not know.can_hold(W, Suit.SPADES)
    assert card(deal, S) == Card("AH")


# South declares 7 spades and wins the first six tricks with the minor-suit honours.
CASH = ("432.A432.AKQ.AKQ", "AKQJ.KQJ.JT9.JT9", "T987.T98.876.876", "65.765.5432.5432")
SIX_TRICKS = (
    *("AC", "JC", "8C", "2C"),
    *("KC", "TC", "7C", "3C"),
    *("QC", "9C", "6C", "4C"),
    *("AD", "JD", "8D", "2D"),
    *("KD", "TD", "7D", "3D"),
    *("QD", "9D", "6D", "4D"),
)


def test_declarer_cashes_the_sure_winner_that_makes_the_contract() -> None:
    # One trick to go and the ace of hearts is master: take it before it can be ruffed
    # (leading a low trump would let the opponents' higher trumps in).
    deal = position(CASH, S, [*SEVEN_SPADES, *SIX_TRICKS])
    assert deal.tricks_taken == (6, 0, 0, 0)
    assert card(deal, S) == Card("AH")


# -- play: following ---------------------------------------------------------------------

# East declares 7 spades and leads; South follows last. South and West hold no diamond.
LAST = ("K93.AQ5.-.8765432", "AQJT.3.T9876543.-", "654.K4.AKQJ2.AKQ", "872.JT98762.-.JT9")


def test_fourth_hand_does_not_overtake_the_partner() -> None:
    deal = position(LAST, E, [*SEVEN_SPADES, "3H", "KH", "2H"])
    assert card(deal, S) == Card("5H")


def test_fourth_hand_wins_as_cheaply_as_possible() -> None:
    deal = position(LAST, E, [*SEVEN_SPADES, "3H", "4H", "TH"])
    assert card(deal, S) == Card("QH")


def test_void_fourth_hand_ruffs_an_opponent_with_the_lowest_trump() -> None:
    deal = position(LAST, E, [*SEVEN_SPADES, "7D", "2D", "9C"])
    assert card(deal, S) == Card("3S")


def test_void_fourth_hand_overruffs_with_the_lowest_trump_that_wins() -> None:
    deal = position(LAST, E, [*SEVEN_SPADES, "7D", "2D", "8S"])
    assert card(deal, S) == Card("9S")


def test_void_hand_discards_low_when_the_partner_wins() -> None:
    # North's ace of diamonds wins: no ruff, throw the lowest useless card.
    deal = position(LAST, E, [*SEVEN_SPADES, "7D", "AD", "9C"])
    assert card(deal, S) == Card("2C")


# North declares 7 spades and leads; West plays second, South third, East last.
# East holds the ace of hearts and no club.
THIRD = ("762.K92.A83.Q953", "543.AT873.JT976.-", "AKQJ.QJ4.KQ42.A4", "T98.65.5.KJT8762")


def test_third_hand_high() -> None:
    deal = position(THIRD, N, [*SEVEN_SPADES, "4H", "6H"])
    assert card(deal, S) == Card("KH")


def test_third_hand_does_not_overtake_a_partner_card_that_holds() -> None:
    # South holds the ace: North's king of diamonds wins unless East ruffs.
    deal = position(THIRD, N, [*SEVEN_SPADES, "KD", "5D"])
    assert card(deal, S) == Card("3D")


def test_third_hand_does_not_overtake_the_partners_queen_with_a_king_under_the_ace() -> None:
    # The ace of hearts is still out, behind South. With the 2 North's queen wins
    # whenever West has the ace, and South's king is kept to win later; the king
    # over the queen only crashes two honours when East has the ace.
    deal = position(THIRD, N, [*SEVEN_SPADES, "QH", "5H"])
    assert card(deal, S) == Card("2H")


def test_second_hand_low() -> None:
    # West declares and leads a low heart; the ace is out behind South.
    deal = position(THIRD, W, [*SEVEN_SPADES, "5H"])
    assert card(deal, S) == Card("2H")


def test_third_hand_plays_low_when_the_last_player_has_shown_out_and_will_ruff() -> None:
    # East showed out of clubs on the first trick (and may hold trumps).
    after_void = [*SEVEN_SPADES, "AC", "2C", "5C", "6D", "4C", "6C"]
    deal = position(THIRD, N, after_void)
    know = Knowledge.of(deal.view(S))
    assert know.voids[E] == {Suit.CLUBS}
    assert not know.possible(E).suit(Suit.CLUBS)
    assert know.can_hold(E, Suit.SPADES)
    assert card(deal, S) == Card("3C")
    # The same clubs without the void: third hand high.
    deal = position(THIRD, N, [*SEVEN_SPADES, "4C", "6C"])
    assert card(deal, S) == Card("QC")


# -- play: defence -----------------------------------------------------------------------

# East declares 7 spades and leads; North holds no heart; South holds the ace of trumps.
DEFENCE = ("A.8765.A987.Q987", "KQJT98.AKQJ2.K2.-", "7654.-.QJT3.AKJT6", "32.T943.654.5432")


def test_defender_keeps_the_master_trump() -> None:
    deal = position(DEFENCE, E, [*SEVEN_SPADES, "2D", "3D", "4D", "AD"])
    view = deal.view(S)
    assert Knowledge.of(view).is_master(Card("AS"))
    played = card(deal, S)
    assert played != Card("AS")
    assert played == Card("7C")


def test_defender_leads_the_suit_partner_is_void_in_for_a_ruff() -> None:
    # North showed out of hearts on the first trick and may hold trumps.
    deal = position(DEFENCE, E, [*SEVEN_SPADES, "2H", "6C", "3H", "8H"])
    know = Knowledge.of(deal.view(S))
    assert know.voids[N] == {Suit.HEARTS} and know.can_hold(N, Suit.SPADES)
    assert card(deal, S) == Card("5H")


# -- auction -----------------------------------------------------------------------------


def _level(action: Action) -> int:
    return action.level if isinstance(action, Bid) else 0


STRONG = "AKQJ5.AK3.K32.32"
MEDIUM = "AQ985.A32.K32.32"
WEAK = "9853.J62.9743.T2"


def test_a_strong_hand_bids_and_a_weak_hand_passes() -> None:
    # The auction may come back: bid just enough.
    assert auction(STRONG, S, S) == Bid(7)
    assert auction(WEAK, S, S) == Pass()
    # Over an opponent's 7, with partner passed, a weak hand stays out.
    assert auction(WEAK, S, E, ["7", "pass", "pass"]) == Pass()


def test_bid_once_bids_what_the_hand_is_worth() -> None:
    lebanese = find_rules("lebanese31")
    strong = _level(auction(STRONG, S, S, rules=lebanese))
    medium = _level(auction(MEDIUM, S, S, rules=lebanese))
    assert strong >= 8
    assert strong > medium
    assert auction(WEAK, S, S, rules=lebanese) == Pass()


def test_weak_hand_claims_a_redeal() -> None:
    rules = CLASSIC.replace(weak_redeal=True)
    assert auction(WEAK, S, S, rules=rules) == Redeal()
    assert auction(STRONG, S, S, rules=rules) == Bid(7)


def test_dealer_forced_to_bid_bids_the_minimum() -> None:
    # With sol there are two minimum bids (7 and 7NT), so the bot really chooses.
    rules = CLASSIC.replace(all_pass="dealer-bids", no_trump=True)
    weak = "9853.J6.97432.T2"
    assert auction(weak, W, S, ["pass", "pass", "pass"], rules=rules) == Bid(7)
    # In the Egyptian auction the minimum is named in the hand's longest suit.
    rules = EGYPTIAN.replace(all_pass="dealer-bids")
    assert auction(weak, W, S, ["pass", "pass", "pass"], rules=rules) == Bid(7, Strain.DIAMONDS)


@pytest.mark.parametrize(
    ("hand", "suit"),
    [
        ("A2.KQJ987.A32.32", Suit.HEARTS),  # the longest suit
        ("A2.AKQ32.98765.2", Suit.HEARTS),  # two five-card suits: the strongest
        ("AKJ987.A2.K32.32", Suit.SPADES),
        ("2.A32.K32.AQT982", Suit.CLUBS),
    ],
)
def test_trump_choice_takes_the_longest_strongest_suit(hand: str, suit: Suit) -> None:
    deal = position(fill({S: hand}), S, ["7", "pass", "pass", "pass"])
    assert deal.phase is Phase.TRUMP
    assert decide(deal, seat=S).action == ChooseTrump(suit)


def test_egyptian_bids_name_the_best_strain_and_outrank() -> None:
    spades = "AKJ987.A2.K32.32"
    hearts = "A2.AKQJ87.A32.32"
    assert auction(spades, S, S, rules=EGYPTIAN) == Bid(7, Strain.SPADES)
    assert auction(hearts, S, S, rules=EGYPTIAN) == Bid(7, Strain.HEARTS)
    # East opens first. The seed's ladder: a higher strain and a higher number.
    over = ["pass", "pass"]
    assert auction(spades, S, E, ["7H", *over], rules=EGYPTIAN) == Bid(8, Strain.SPADES)
    # No heart bid outranks 7S: only no-trump is left above spades.
    assert auction(hearts, S, E, ["7S", *over], rules=EGYPTIAN) == Bid(8, Strain.NO_TRUMP)
    assert auction(spades, S, E, ["7NT", *over], rules=EGYPTIAN) == Pass()  # nothing outranks NT
    assert auction(WEAK, S, E, ["7C", *over], rules=EGYPTIAN) == Pass()
    # The platforms' bridge ladder: spades outrank hearts at the same level.
    bridge = EGYPTIAN.replace(ladder="number-or-strain")
    assert auction(spades, S, E, ["7H", *over], rules=bridge) == Bid(7, Strain.SPADES)
    assert auction(hearts, S, E, ["7S", *over], rules=bridge) == Bid(8, Strain.HEARTS)
    assert auction(spades, S, E, ["7NT", *over], rules=bridge) == Bid(8, Strain.SPADES)


def test_raise_only_with_a_strong_hand() -> None:
    alone = ["7S", "pass", "pass", "pass"]
    assert auction(STRONG, S, S, alone, rules=EGYPTIAN) == Raise()
    assert auction(MEDIUM, S, S, alone, rules=EGYPTIAN) == Stand()


def test_syrian400_bids_near_the_hands_own_tricks() -> None:
    # Hearts are trump: six to the AKQJ and two side aces, about eight and a half tricks.
    strong = auction("A2.AKQJ87.A32.32", S, S, rules=SYRIAN)
    assert isinstance(strong, Bid) and 8 <= strong.level <= 9
    # A hand with no trick bids the lowest bid its score allows.
    assert auction(WEAK, S, S, rules=SYRIAN) == Bid(2)
    assert auction(WEAK, S, S, rules=SYRIAN, scores=(30, 0, 0, 0)) == Bid(3)
    assert auction(WEAK, S, S, rules=SYRIAN, scores=(50, 0, 0, 0)) == Bid(5)


def test_syrian400_does_not_count_a_trump_twice() -> None:
    # Eight trumps to the AQ, a side ace, a void and a singleton: about eight tricks.
    # Counting every trump past the third as a long winner and again as a ruff
    # makes it 10.75, and a bid of 11 that fails by three (it takes 8).
    bid = auction("T.AQT76432.AJ52.-", S, S, rules=SYRIAN)
    assert isinstance(bid, Bid) and bid.level <= 9


def test_aggressive_bids_more_and_cautious_less_on_the_same_hand() -> None:
    lebanese = find_rules("lebanese31")
    levels = {
        spec: _level(auction(STRONG, S, S, rules=lebanese, spec=spec))
        for spec in ("heuristic:cautious", "heuristic", "heuristic:aggressive")
    }
    assert 7 <= levels["heuristic:cautious"] < levels["heuristic"] < levels["heuristic:aggressive"]
    # Competing over East's 8 in the classic auction (North passed): about eight
    # tricks for the side, so only the aggressive bot goes on.
    over_eight = ["8", "pass", "pass"]
    good = "AKQ32.A2.A32.432"
    assert auction(good, S, E, over_eight) == Pass()
    assert auction(good, S, E, over_eight, spec="heuristic:aggressive") == Bid(9)
    assert auction(good, S, E, over_eight, spec="heuristic:cautious") == Pass()
    # Syrian 400: never below the cautious bot, never above the aggressive one.
    syrian = {
        spec: _level(auction("A2.AKQJ87.A32.32", S, S, rules=SYRIAN, spec=spec))
        for spec in ("heuristic:cautious", "heuristic", "heuristic:aggressive")
    }
    assert syrian["heuristic:cautious"] < syrian["heuristic:aggressive"]
    assert syrian["heuristic:cautious"] <= syrian["heuristic"] <= syrian["heuristic:aggressive"]


def test_the_only_legal_action_is_taken_with_a_reason() -> None:
    # The dealer forced to bid in the classic auction has one bid: the minimum.
    rules = CLASSIC.replace(all_pass="dealer-bids")
    deal = position(fill({W: WEAK}), S, ["pass", "pass", "pass"], rules)
    assert list(deal.legal_actions) == [Bid(7)]
    assert decide(deal, seat=W).action == Bid(7)


def test_a_bot_refuses_to_decide_out_of_turn() -> None:
    deal = Deal.from_seed(CLASSIC, W, 3)
    for spec in SPECS:
        with pytest.raises(ValueError, match="North"):
            make_bot(spec, seed=1).decide(deal.view(N))


# -- the registry ------------------------------------------------------------------------


def test_the_registry_finds_bots_by_name_with_options() -> None:
    assert set(BOTS) == {
        "random",
        "heuristic",
        "search",
        "easy",
        "medium",
        "hard",
        "expert",
        "policy",
    }
    assert find_bot("Heuristic") is HeuristicBot
    assert find_bot(" random ") is RandomBot
    for spec in SPECS:
        bot = make_bot(spec, seed=1)
        assert isinstance(bot, Bot)
        assert bot.spec == spec
        assert repr(bot) == f"<{type(bot).__name__} {spec}>"
    assert make_bot("heuristic:aggressive:cautious").options == ("aggressive", "cautious")


def test_an_unknown_bot_name_lists_the_bots() -> None:
    with pytest.raises(
        BotError,
        match=r"no bot named 'oracle' \(the bots: random, heuristic, search, easy, medium, hard, expert, policy\)",
    ):
        make_bot("oracle")
    with pytest.raises(ValueError, match="random, heuristic"):
        find_bot("")


def test_an_unknown_option_lists_the_options() -> None:
    with pytest.raises(BotError, match=r"'reckless' \(its options: aggressive, cautious\)"):
        make_bot("heuristic:reckless")
    with pytest.raises(BotError, match=r"bot 'random' has no option 'aggressive'.*none"):
        make_bot("random:aggressive")


def test_play_deal_takes_four_bots_or_two_sides() -> None:
    with pytest.raises(BotError, match="four bots"):
        play_deal(Deal.from_seed(CLASSIC, S, 1), [make_bot("random", seed=1)] * 3)
    plain, cautious = make_bot("heuristic"), make_bot("heuristic:cautious")
    two = play_deal(Deal.from_seed(CLASSIC, S, 1), [plain, cautious])
    four = play_deal(Deal.from_seed(CLASSIC, S, 1), [plain, cautious, plain, cautious])
    by_seat = play_deal(
        Deal.from_seed(CLASSIC, S, 1), {S: plain, E: cautious, N: plain, W: cautious}
    )
    assert two.is_over()
    assert two.history == four.history == by_seat.history


# -- random playouts under every preset -----------------------------------------------


class Watched(Bot):
    """Delegates to ``inner`` after checking that the bot is shown only its seat's view."""

    name = "watched"

    def __init__(self, inner: Bot, source: Deal | Match) -> None:
        super().__init__(random.Random(0))
        self.inner = inner
        self.source = source
        self.calls = 0

    def decide(self, view: View) -> Decision:
        deal = self.source.deal if isinstance(self.source, Match) else self.source
        assert type(view) is View
        assert view.seat == deal.to_act
        assert view.hand == deal.hand(view.seat)
        assert view.legal_actions == tuple(deal.legal_actions)
        self.calls += 1
        decision = self.inner.decide(view)
        assert decision.reason.strip()
        return decision


def test_a_view_holds_no_other_hand() -> None:
    fields = {f.name for f in dataclasses.fields(View)}
    assert "hand" in fields
    assert not fields & {"hands", "dealt", "deal"}


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_bots_play_only_legal_actions_and_see_only_their_view(preset: str, spec: str) -> None:
    rules = PRESETS[preset]
    for seed in range(3):
        deal = Deal.from_seed(rules, seed % 4, f"{preset}-{seed}")
        bots = [Watched(make_bot(spec, seed=seed * 4 + i), deal) for i in range(4)]
        play_deal(deal, bots)  # Deal.push raises on any illegal action
        assert deal.is_over()
        assert (deal.result is None) == (deal.thrown_in is not None)
        assert sum(b.calls for b in bots) == len(deal.history)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_bots_finish_short_matches(preset: str, spec: str) -> None:
    """Four copies of a heuristic bot finish a match to 11 points.

    Random players, who mostly fail the contracts they bid, drift below zero
    and may never reach a positive target: the random bot plays North-South
    against the heuristic instead.
    """
    rules = PRESETS[preset].replace(target=11)
    match = Match(rules, seed=f"{preset}-{spec}")
    specs = [spec, "heuristic"] if spec == "random" else [spec, spec]
    bots = [Watched(make_bot(specs[i % 2], seed=i), match) for i in range(4)]
    limit = 100
    play_match(match, bots, max_deals=limit)
    assert match.is_over(), f"{spec} did not finish a {preset} match in {limit} deals"
    assert match.winner is not None or rules.sets > 1
    assert len(match.sets) == rules.sets
    assert all(bot.calls for bot in bots)


@pytest.mark.parametrize("seed", range(5))
def test_heuristic_bots_finish_a_syrian400_match(seed: int) -> None:
    # In the 400 a failed bid costs its value: bidding more than the hand takes
    # drives both sides below zero, and a side needs one partner at 41 and the
    # other above zero to win.
    match = Match(SYRIAN, seed=seed)
    play_match(match, [make_bot("heuristic", seed=seed)] * 2, max_deals=60)
    assert match.is_over(), f"no winner after 60 deals: seat scores {match.seat_scores}"


@pytest.mark.parametrize("spec", SPECS)
def test_a_seeded_bot_repeats_its_decisions(spec: str) -> None:
    for preset in ("classic", "egyptian", "syrian400"):
        runs = []
        for _ in range(2):
            deal = Deal.from_seed(PRESETS[preset], E, 11)
            play_deal(deal, [make_bot(spec, seed=5), make_bot(spec, seed=6)])
            runs.append(deal.action_ids)
        assert runs[0] == runs[1]


def test_the_random_bot_follows_its_seed() -> None:
    def run(seed: int) -> tuple[int, ...]:
        deal = Deal.from_seed(CLASSIC, E, 11)
        play_deal(deal, [make_bot("random", seed=seed), make_bot("random", seed=seed + 1)])
        return deal.action_ids

    assert run(1) == run(1)
    assert len({run(seed) for seed in range(5)}) > 1


# -- strength ----------------------------------------------------------------------------

SHORT = {
    name: rules.replace(target=11)
    for name, rules in PRESETS.items()
    if name not in ("tarneeb400", "levant-sets")
}
SHORT["tarneeb400"] = PRESETS["tarneeb400"].replace(target=150)
SHORT["levant-sets"] = PRESETS["levant-sets"].replace(target=11, sets=1)


@pytest.mark.parametrize("preset", list(SHORT))
def test_heuristic_beats_random(preset: str) -> None:
    wins = 0
    for seed in range(20):
        match = Match(SHORT[preset], seed=seed)
        heuristic, rand = make_bot("heuristic", seed=seed), make_bot("random", seed=seed)
        side = Team(seed % 2)
        play_match(match, [heuristic, rand] if side is Team.NS else [rand, heuristic], 200)
        wins += match.winner == side
    assert wins >= 19, f"heuristic won {wins} of 20 {preset} matches against random"


# -- partnership and the score (issue 21) ------------------------------------------------

LEBANESE = find_rules("lebanese31")


def test_a_small_contract_that_wins_the_set_is_bid_low() -> None:
    # One chance to speak: at 0-0 the hand bids what it is worth; at 24 of 31, 7 made wins.
    hand = "AKQJ98.A2.K32.32"
    assert auction(hand, S, S, rules=LEBANESE) == Bid(9)
    deal = position(fill({S: hand}), S, rules=LEBANESE, scores=(24, 10, 24, 10))
    decision = decide(deal, seat=S)
    assert decision.action == Bid(7)
    assert decision.reason.name == "stay-low" and decision.reason.params["level"] == 7


# East bids 7 at 34 of 41: made, it wins them the set. North holds nothing.
THREAT = (
    "tarneeb-deal/1 rules=classic dealer=S {scores}S=42.JT74.QT8.AQJT E=AK65.Q95.AK3.863 "
    "N=87.A632.764.9742 W=QJT93.K8.J952.K5 actions=7"
)


def test_when_their_contract_wins_them_the_set_the_partnership_outbids_them() -> None:
    from tarneeb.record import parse_deal

    calm = parse_deal(THREAT.format(scores=""))
    assert decide(calm, seat=N).action == Pass()
    pressed = parse_deal(THREAT.format(scores="scores=33,34,33,34 "))
    decision = decide(pressed, seat=N)
    assert decision.action == Bid(8)  # 8 made: 41 for us, 39 for them
    assert decision.reason == "bid to the score: only 8 wins the set"


# A match played in the terminal at 80x24 (stop 35: egyptian, seed 35, deal 9). West bid 7H
# at 35 of 41: made, it wins them the set. The hint told South "bid to the score: only 13
# wins the set" and South bid 13S on six spades to the queen: down, -16 and +16 to them,
# the set lost at once. 8S, made (the hand's estimate), keeps the set going at 36-35.
JUMP = (
    "tarneeb-deal/1 rules=egyptian dealer=N scores=28,35,28,35 S=QT8543.93.A.AQ82 "
    "E=K.KJ4.KQJ954.JT3 N=762.762.T872.976 W=AJ9.AQT85.63.K54 actions=7H"
)


def test_against_their_winning_contract_the_lowest_bid_that_keeps_the_set_going() -> None:
    """ "bid higher when only that can win" (issue 21): not a 13 the hand cannot make
    where a made 8 stops them too. Over 20,000 duplicate matches of heuristic bots
    against the bot that jumped (seed 13), pairs won both ways: egyptian 284 to 69,
    classic 185 to 121."""
    from tarneeb.record import parse_deal

    decision = decide(parse_deal(JUMP), seat=S)
    assert decision.action == Bid(8, Strain.SPADES), decision
    assert decision.reason == "the opponents are close to the target: compete"


# A match played in the terminal (seed 77, deal 7): East 7, North 8, West 9, South 10
# (South's own five tricks and the five North's 8 showed), East 11. North took South's 10
# for seven tricks of South's own and bid 12; the partnership had eight (double dummy).
ESCALATION = (
    "tarneeb-deal/1 rules=classic dealer=S scores=19,26,19,26 S=KQ7.T843.AKJ43.9 "
    "E=T98.KJ.QT98762.5 N=652.Q97..QJT8764 W=AJ43.A652.5.AK32 actions=7,8,9,10,11"
)


def test_partner_raising_our_bid_is_not_counted_as_the_whole_of_it() -> None:
    from tarneeb.record import parse_deal

    deal = parse_deal(ESCALATION)
    assert decide(deal, seat=N).action == Pass()
    # South's 10 still stands: South had not bid when North's 8 showed five tricks.
    before = parse_deal(ESCALATION.replace("actions=7,8,9,10,11", "actions=7,8,9"))
    assert decide(before, seat=S).action == Bid(10)


# West led the 4H at trick four; East, on lead now, goes back to hearts (double-dummy
# the 8H keeps two tricks, each diamond one; the old rule led a diamond).
RETURN_HEARTS = (
    "tarneeb-deal/1 rules=classic dealer=N S=KQ.K2.Q532.AKT32 E=65.8764.AKJ98.75 "
    "N=JT9432.AT3..9864 W=A87.QJ95.T764.QJ actions=pass,7,pass,pass,C,AC,5C,4C,JC,KC,"
    "7C,6C,QC,TC,4H,8C,4D,2D,8D,9C,6D,AH,5H,2H,6H,2S,AS,QS,5S,9H,KH,7H,3H,KS,6S,3S,7S,"
    "3D,KD,4S,7D"
)
# North-South have their 7 in clubs; South's 8S is the last spade, and neither
# opponent has a trump left: it wins a trick (the old rule cashed only suits the
# opponents could follow, and led the 9D into East-West's diamonds).
LAST_SPADE = (
    "tarneeb-deal/1 rules=classic dealer=S S=87532.A.953.KT73 E=J6.KQ762.QT72.95 "
    "N=Q94.J943.6.AQ642 W=AKT.T85.AKJ84.J8 actions=pass,7,pass,pass,C,AC,8C,3C,5C,2C,"
    "JC,KC,9C,AH,2H,3H,5H,2S,6S,QS,KS,AS,3S,JS,4S,TS,5S,2D,9S,AD,3D,7D,6D,KD,5D,TD,4C,"
    "QC,4D,7C,6H,4H,8H,TC,7H,7S,QD,9H,8D"
)


@pytest.mark.parametrize(
    ("line", "seat", "expected", "why"),
    [(RETURN_HEARTS, E, "8H", "return-partner"), (LAST_SPADE, S, "8S", "cash-out-made")],
)
def test_partnership_card_play(line: str, seat: Seat, expected: str, why: str) -> None:
    from tarneeb.record import parse_deal

    decision = decide(parse_deal(line), seat=seat)
    assert decision.action == Card(expected)
    assert decision.reason.name == why


def test_the_declarer_draws_trumps_from_the_top_of_a_sequence() -> None:
    # South holds KQJ of trumps without the ace: the king drives it out, a low one may not.
    deal = position(
        ("KQJ32.A32.A32.32", "A54.KQJ4.KQJ4.54", "T98.T98.T98.T987", "76.765.765.AKQJ6"),
        S,
        SEVEN_SPADES,
    )
    assert card(deal, S) == Card("KS")


def test_in_card_points_the_heuristic_counts_the_contract_in_points() -> None:
    """Seed 000 on Tarneeb 400: "el objetivo del contrato pasa a ser 400 puntos de cartas
    en lugar de contar bazas". The heuristic counted a contract of 60 as 7 tricks, made
    with 7 tricks of any cards: it cashed out short of the points, or held back winners
    for a contract already in. Its goal is in points now: none needed once the side has
    the contract's points (the defenders: one more than it leaves them), some while it
    has not, whatever the tricks."""
    from tarneeb.bots.heuristic import tricks_needed
    from tarneeb.play import POINTS

    rules = find_rules("tarneeb400")
    apart = 0  # views where the trick count and the points disagree on the goal
    for seed in range(6):
        match = Match(rules, seed=seed)
        bots = [HeuristicBot(random.Random(seed * 4 + i)) for i in range(4)]
        deals = 0
        while not match.is_over() and deals < 4:
            deal = match.deal
            seat = match.to_act
            assert seat is not None
            view = match.view(seat)
            if view.phase is Phase.PLAY and view.contract is not None:
                ours = sum(
                    POINTS[card]
                    for trick in view.tricks
                    if trick.winner is not None and trick.winner.team == seat.team
                    for card in trick.cards
                )
                declaring = view.contract.team == seat.team
                goal = view.contract.level if declaring else 121 - view.contract.level
                needed, left = tricks_needed(view)
                assert (needed == 0) == (ours >= goal), (ours, goal, needed)
                assert 0 <= needed <= left + 1
                side = view.tricks_taken[seat] + view.tricks_taken[seat.partner]
                in_tricks = round(view.contract.level * 13 / 120)
                in_tricks = in_tricks if declaring else 14 - in_tricks
                apart += (side >= in_tricks) != (ours >= goal)
            match.push(bots[seat].act(view))
            deals += match.deal is not deal
    assert apart >= 20, apart
