"""Bids judged by playing the rest of the auction out: what each call leads to.

The search bot's auction (:meth:`SearchBot._auction
<tarneeb.bots.search.SearchBot._auction>`) checks the bid the heuristic
valuation proposes against the double-dummy tricks of a few layouts. It does
not ask what the others will do next: that a bid of 7 draws the opponents to
8 and down, that passing lets partner play it, that their 8 over ours is
coming anyway. Here each call the bot could make is followed, on each layout
of the hidden hands that fits the auction so far, by the rest of the auction
as a model of the other players bids it (the heuristic bot, every seat
bidding from its own view of that layout, this seat's later calls
included): the contract it ends in, who declares, the trump the declarer
names. That contract is then scored by the declaring side's double-dummy
tricks on the layout, with the declarer on lead, and the score turned into
the chance of winning the set (:mod:`tarneeb.bots.equity`); a thrown-in deal
is worth the chance the score already gives. The call with the best average
chance wins, as Ben's bidding search does with its neural bidders.

Only the endings the calls reach are solved (one position for each layout,
trump and leader they reach, shared between calls), so a call that leads
where another already led costs nothing more.

Each call's :class:`Outlook` also says how often a contract of ours it leads
to makes, so that the search bot can refuse the bids whose chance only a few
lucky layouts gave (:meth:`SearchBot._by_rollout
<tarneeb.bots.search.SearchBot._by_rollout>`).

``expert`` bids this way (:class:`~tarneeb.bots.levels.ExpertBot`), and the
search bot with its ``rollout`` option (``search:rollout``). Against ``hard``,
whose bids are the model's own, it is expert's step up: 243 of 400
matches head to head (60.8%, 95% interval 55.9 to 65.4), where
the checked auction had won 207 of 400. Against the heuristic bot it is no
better than the checked auction, which stays the search bot's default: on
the same 400 duplicate matches it won 288, the checked auction 291
(:mod:`tarneeb.bots.search` has the figures).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tarneeb.actions import Action, Bid, Phase
from tarneeb.bots.base import Bot
from tarneeb.bots.bidding import REACH, kind_after, tricks_wanted
from tarneeb.bots.equity import MatchEquity
from tarneeb.deal import Deal
from tarneeb.layouts import Layout
from tarneeb.seats import Seat
from tarneeb.view import View

__all__ = ["Ending", "Outlook", "call_equities", "candidate_calls", "play_out_auction"]


@dataclass(frozen=True)
class Ending:
    """How an auction ended on one layout: a contract, or a throw-in (``declarer`` None)."""

    declarer: Seat | None
    level: int = 0
    trump: int | None = None
    multiplier: int = 1
    leader: Seat | None = None


@dataclass(frozen=True)
class Outlook:
    """What one call leads to over the layouts judged."""

    chance: float
    """The chance of winning the set, averaged over the layouts."""
    ours: float = 0.0
    """The share of the layouts in which our side ends up declaring."""
    makes: float = 1.0
    """Of those, the share in which the declarers' double-dummy tricks, less half a
    trick, reach the contract (as :meth:`SearchBot._auction
    <tarneeb.bots.search.SearchBot._auction>` asks of a bid); 1 when we never declare."""


def candidate_calls(view: View, proposal: Action) -> list[Action]:
    """The calls worth following: every call that is not a bid, the bids up to
    :data:`~tarneeb.bots.bidding.REACH` levels above the lowest legal one, and the
    valuation's ``proposal``."""
    legal = list(view.legal_actions)
    bids = [a for a in legal if isinstance(a, Bid)]
    out: list[Action] = [a for a in legal if not isinstance(a, Bid)]
    if bids:
        top = min(b.level for b in bids) + REACH * view.rules.bid_step
        out.extend(b for b in bids if b.level <= top)
    if proposal in legal and proposal not in out:
        out.append(proposal)
    return out


def play_out_auction(
    view: View, hands: Layout, call: Action, model: Callable[[View], Action], cap: int = 40
) -> Ending:
    """The auction from ``view`` on the dealt ``hands``: ``call``, then ``model``'s
    calls for every seat until the play starts or the deal is thrown in."""
    deal = Deal(view.rules, view.dealer, hands, view.scores)
    for _seat, action in view.history:
        deal.push(action)
    deal.push(call)
    for _ in range(cap):
        if deal.phase not in (Phase.AUCTION, Phase.RAISE, Phase.TRUMP):
            break
        seat = deal.to_act
        assert seat is not None
        action = model(deal.view(seat))
        if not deal.is_legal(action):  # a slip of the model stops no search: the first legal call
            action = next(iter(deal.legal_actions))
        deal.push(action)
    if deal.phase is not Phase.PLAY:
        return Ending(None)
    contract = deal.contract
    assert contract is not None
    return Ending(
        deal.declarer,
        contract.level,
        deal.trump,
        contract.multiplier,
        deal.to_act,
    )


def call_equities(
    view: View,
    layouts: Sequence[tuple[Layout, float]],
    calls: Sequence[Action],
    equity: MatchEquity,
    model: Bot,
    solve: Callable[[list[tuple[Layout, int | None, Seat]]], list[int]],
    deadline: float | None = None,
) -> tuple[dict[Action, Outlook], int]:
    """What each call leads to, averaged over ``layouts`` (:class:`Outlook`), and how
    many layouts were judged before ``deadline`` (``time.perf_counter`` seconds; a
    layout is not begun that, taking as long as the last, would end past it).

    ``solve`` takes (hands, trump, leader) triples and gives the leader's side's
    double-dummy tricks for each. A layout is judged whole or not at all.
    """
    me = view.seat
    before = equity.value(view.scores[me], view.scores[(me + 1) & 3])
    totals = dict.fromkeys(calls, 0.0)
    ours = dict.fromkeys(calls, 0.0)
    made = dict.fromkeys(calls, 0.0)
    weight_sum = 0.0
    judged = 0

    def decide(v: View) -> Action:
        return model.decide(v).action

    last = 0.0  # how long the last layout took: one is not begun that would end past the deadline
    for hands_now, weight in layouts:
        begun = time.perf_counter()
        if deadline is not None and judged and begun + last > deadline:
            break
        hands = view.dealt(hands_now)
        endings = {call: play_out_auction(view, hands, call, decide) for call in calls}
        wanted: list[tuple[Layout, int | None, Seat]] = []
        for ending in endings.values():
            if ending.declarer is not None:
                assert ending.leader is not None
                key = (hands, ending.trump, ending.leader)
                if key not in wanted:
                    wanted.append(key)
        tricks = dict(zip(wanted, solve(wanted), strict=True))
        for call, ending in endings.items():
            if ending.declarer is None:
                value = before
            else:
                assert ending.leader is not None
                leaders = tricks[(hands, ending.trump, ending.leader)]
                same = ending.leader.team == ending.declarer.team
                declarers = leaders if same else 13 - leaders
                declaring = ending.declarer.team == me.team
                value = kind_after(
                    equity, view, ending.level, declarers, declaring, ending.multiplier
                )
                if declaring:
                    ours[call] += weight
                    made[call] += (
                        weight
                        if declarers - 0.5 >= tricks_wanted(view.rules, ending.level)
                        else 0.0
                    )
            totals[call] += weight * value
        weight_sum += weight
        judged += 1
        last = time.perf_counter() - begun
    if not weight_sum:
        return {call: Outlook(before) for call in calls}, judged
    return {
        call: Outlook(
            totals[call] / weight_sum,
            ours[call] / weight_sum,
            made[call] / ours[call] if ours[call] else 1.0,
        )
        for call in calls
    }, judged
