"""The levels people choose: easy, medium, hard, expert."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tarneeb import Deal, Match, Phase, Seat, find_rules
from tarneeb.arena.report import summarize
from tarneeb.arena.run import ArenaConfig, play_arena
from tarneeb.bots import LEVELS, BotError, HeuristicBot, Knowledge, make_bot, play_match
from tarneeb.bots.levels import (
    EASY_BID_SLIP,
    EASY_CARD_SLIP,
    EXPERT_LIMIT,
    HARD_LIMIT,
    EasyBot,
    _every_trick_counts,
    plausible_slips,
)
from tarneeb.bots.search import Limit, SearchBot
from tarneeb.cards import Card
from tarneeb.presets import PRESETS
from tarneeb.view import View


def test_the_levels_are_bots_by_name() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert")
    bots = [make_bot(level, seed=1) for level in LEVELS]
    assert [b.spec for b in bots] == list(LEVELS)
    assert [b.slow for b in bots] == [False, False, True, True]


def test_expert_thinks_longer_than_hard() -> None:
    hard, expert = make_bot("hard"), make_bot("expert")
    assert isinstance(hard.limit, Limit) and isinstance(expert.limit, Limit)  # type: ignore[attr-defined]
    assert hard.limit == HARD_LIMIT and expert.limit == EXPERT_LIMIT  # type: ignore[attr-defined]
    assert expert.limit.samples >= 2 * hard.limit.samples  # type: ignore[attr-defined]
    assert expert.limit.time > hard.limit.time  # type: ignore[attr-defined]


def test_expert_is_the_search_bot_at_its_full_budget() -> None:
    """Expert solves as many layouts as the search bot, for a card and for a bid (more
    buy nothing measurable); hard half as many for a card (its bids are medium's)."""
    search = make_bot("search")
    assert EXPERT_LIMIT.samples == search.limit.samples  # type: ignore[attr-defined]
    assert EXPERT_LIMIT.auction_samples == search.limit.auction_samples  # type: ignore[attr-defined]
    assert HARD_LIMIT.samples * 2 == search.limit.samples  # type: ignore[attr-defined]


def _turns(deals: int, first_seed: int) -> Iterator[tuple[int, Deal, View]]:
    """Each turn of ``deals`` classic deals from ``first_seed`` on: the deal's number, the
    deal and the view of the seat to act (the caller pushes the action)."""
    rules = find_rules("classic")
    for n in range(deals):
        deal = Deal.from_seed(rules, Seat(n % 4), first_seed + n)
        while not deal.is_over():
            seat = deal.to_act
            assert seat is not None
            yield n, deal, deal.view(seat)


def test_hard_bids_as_medium_and_plays_cards_by_search() -> None:
    """Each level up adds one thing: hard's auction and trump are medium's, its cards
    the search bot's with HARD_LIMIT; expert also bids by simulation."""
    bids = cards = 0
    simulated = False
    for n, deal, view in _turns(4, 900):
        medium = make_bot("medium", seed=n).decide(view)
        if deal.phase is not Phase.PLAY:
            hard = make_bot("hard:steady", seed=n).decide(view)
            assert (hard.action, hard.reason) == (medium.action, medium.reason)
            bids += 1
            if not simulated and len(view.legal_actions) > 1 and deal.phase is Phase.AUCTION:
                expert = make_bot("expert:steady:checked", seed=n).decide(view)
                simulated |= "layouts" in str(expert.reason)
        elif len(view.legal_actions) > 1 and len(view.played) % 3 == 0:
            hard = make_bot("hard:steady", seed=n).decide(view)
            search = SearchBot(random.Random(n), ["steady"], limit=HARD_LIMIT)
            assert hard.action == search.decide(view).action
            cards += 1
        deal.push(medium.action)
    assert bids > 12 and cards > 12
    assert simulated  # expert's bids are checked by the simulation, hard's are not


def test_expert_bids_by_rollout_and_checked_as_the_search_bot() -> None:
    """Expert's one step up from hard that a 400-match arena shows is its auction by
    rollout (each call followed to its contract, :mod:`tarneeb.bots.rollout`): head to
    head with ``hard`` it won clearly where the search bot's checked auction had not
    (:data:`EXPERT_LIMIT`). ``expert:checked`` bids as the search bot does."""
    assert make_bot("expert").rollout and not make_bot("expert:checked").rollout  # type: ignore[attr-defined]
    with pytest.raises(BotError, match="takes 'rollout' or 'checked', not both"):
        make_bot("expert:rollout:checked")
    for n, deal, view in _turns(1, 905):
        if deal.phase is Phase.AUCTION and len(view.legal_actions) > 1:
            expert = make_bot("expert:steady", seed=n).decide(view)
            rollout = SearchBot(random.Random(n), ["steady", "rollout"], limit=EXPERT_LIMIT)
            assert expert == rollout.decide(view)
            return
        deal.push(make_bot("medium", seed=n).decide(view).action)
    raise AssertionError("no auction decision in the deal")


def _winning(view_trick_cards: list[Card], know: Knowledge) -> tuple[Card, int]:
    best, index = view_trick_cards[0], 0
    for i, card in enumerate(view_trick_cards[1:], 1):
        if know.beats(card, best):
            best, index = card, i
    return best, index


def test_easy_slips_at_its_rate_and_never_absurdly() -> None:
    """Over whole deals, easy departs from the heuristic's card in about
    EASY_CARD_SLIP of the decisions that allow a slip, and no slip overtakes
    partner, throws a master away or comes when every trick counts."""
    easy = EasyBot(random.Random(7))
    plain = HeuristicBot(random.Random(8))
    chances = slips = bids = bid_slips = 0
    for _n, deal, view in _turns(40, 500):
        seat = view.seat
        action = easy.act(view)
        expected = plain.act(view)
        assert action in view.legal_actions
        if view.phase is Phase.AUCTION and len(view.legal_actions) > 1:
            bids += 1
            bid_slips += action != expected
        if view.phase is Phase.PLAY and isinstance(expected, Card):
            allowed = plausible_slips(view, expected)
            if allowed:
                chances += 1
            if action != expected:
                slips += 1
                assert action in [c for c, _why in allowed]
                assert not _every_trick_counts(view)
                know = Knowledge.of(view)
                trick = view.current_trick
                assert trick is not None
                if trick.cards:
                    best, index = _winning(list(trick.cards), know)
                    wins = know.beats(action, best)
                    if trick.seat_of(index) == seat.partner:
                        assert not wins, "overtook partner's winning card"
                    assert wins or not know.is_master(action), "threw a master away"
        deal.push(action)
    assert chances > 300
    rate = slips / chances
    assert abs(rate - EASY_CARD_SLIP) < 0.07, rate
    # A bid slip happens only when the cautious or bold bot would bid otherwise.
    assert 0 < bid_slips / bids < EASY_BID_SLIP


def test_hints_never_advise_a_slip() -> None:
    """With ``easy`` as partner the terminal's hints were easy's decisions, slips
    included ("plays high, though it does not need to"), and ``random``'s were random
    cards. A bot that errs on purpose gives no hints: the heuristic bot does."""
    from tarneeb.bots import BOTS, make_adviser

    erring = {name for name, cls in BOTS.items() if cls.errs_on_purpose}
    assert erring == {"easy", "random"}
    for name in erring:
        assert isinstance(make_adviser(name, random.Random(1)), HeuristicBot)
    assert make_adviser("expert:steady").spec == "expert:steady"
    adviser = make_adviser("easy", random.Random(7))
    plain = HeuristicBot(random.Random(8))
    differ = 0
    for _n, deal, view in _turns(10, 300):
        action = plain.act(view)
        assert adviser.act(view) == action
        differ += EasyBot(random.Random(_n)).act(view) != action
        deal.push(action)
    assert differ > 10  # easy itself slips here: the hints would have too


def test_medium_beats_easy_in_the_arena() -> None:
    """Easy's slips cost: over 80 duplicate matches medium wins most, its 95% interval
    above a half (seeded, so this is the same run every time)."""
    config = ArenaConfig(("easy", "medium"), matches=80, seed=11, rules=find_rules("classic"))
    summary = summarize(play_arena(config, workers=1))
    assert summary["win_rate_ci95"]["medium"][0] > 0.5, summary["win_rate"]


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_level_plays_a_match(level: str) -> None:
    match = play_match(Match(find_rules("classic"), seed=3), [make_bot(level, seed=1)] * 2)
    assert match.is_over()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_easy_plays_every_preset_to_the_end(name: str) -> None:
    match = play_match(Match(PRESETS[name], seed=1), [make_bot("easy", seed=1)] * 2)
    assert match.is_over()
