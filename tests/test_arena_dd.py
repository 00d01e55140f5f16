"""``tarneeb arena --double-dummy``: card-play accuracy by bot, role and strain (issue 21, item 2),
and how often a bot takes a trick from its partner's winning card ("a bot partner that
sabotages: overtrumps partner's winner", issue 21).

The figures are checked twice: the adding up on three deals whose figures are
written out by hand, and the whole path (arena, analysis, summary) against a
recomputation here from the match records with the solver's public API.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import astuple

import pytest

from tarneeb import Card, Deal, Phase, find_rules, read_record
from tarneeb.arena import ArenaConfig, format_report, play_arena, result_to_json, summarize
from tarneeb.arena.accuracy import GROUPS, Accuracy, DealPlay, deal_plays
from tarneeb.play import Trick, trick_winner
from tarneeb.solver import Position, solve

SMALL = find_rules("sol").replace(target=11)  # no-trump contracts can happen too

# Three deals, by hand: (North-South, East-West) pairs.
HAND_MADE = (
    # NS declared a suit; South led a best card. NS had 6 chances to stay under
    # partner's winning card, took 2 of those tricks from partner, 1 for a trick lost.
    DealPlay(0, False, (20, 18), (2, 3), (1, 2), 0, True, (6, 4), (2, 0), (1, 0)),
    # EW declared no-trump; East's lead gave a trick away.
    DealPlay(1, True, (19, 21), (0, 4), (0, 3), leader=1, lead_best=False),
    # Players bid alone (no partnership contract); South's lead was forced.
    DealPlay(None, False, (10, 10), (1, 1), (2, 0), leader=0, lead_best=None),
)


def test_the_figures_add_up_as_by_hand() -> None:
    ns = Accuracy()
    ns.add(HAND_MADE, 0)
    got = ns.to_dict()
    assert set(got) == set(GROUPS)
    everything = got["all"]
    assert (everything["deals"], everything["decisions"], everything["errors"]) == (3, 49, 3)
    assert everything["error_rate"] == pytest.approx(3 / 49)
    assert everything["tricks_lost"] == 3
    assert everything["tricks_lost_per_deal"] == pytest.approx(1.0)
    # Lost 1, 0, 2: standard deviation 1, t(2) = 4.303, half width 4.303 / sqrt(3).
    half = 4.303 / math.sqrt(3)
    assert everything["tricks_lost_per_deal_ci95"] == pytest.approx([1 - half, 1 + half])
    assert (everything["leads"], everything["best_leads"], everything["lead_accuracy"]) == (
        1,
        1,
        1.0,
    )
    assert got["declarers"]["deals"] == got["defenders"]["deals"] == 1
    assert (got["declarers"]["decisions"], got["declarers"]["errors"]) == (20, 2)
    assert got["declarers"]["tricks_lost_per_deal_ci95"] is None  # one deal: no interval
    assert got["defenders"]["error_rate"] == 0.0
    assert got["defenders"]["lead_accuracy"] is None and got["defenders"]["leads"] == 0
    assert (got["trump"]["deals"], got["trump"]["decisions"], got["trump"]["tricks_lost"]) == (
        2,
        30,
        3,
    )
    assert got["no_trump"]["deals"] == 1
    assert (everything["partner_winning"], everything["over_partner"]) == (6, 2)
    assert everything["over_partner_rate"] == pytest.approx(2 / 6)
    assert everything["over_partner_costly_rate"] == pytest.approx(1 / 6)
    assert got["defenders"]["over_partner_rate"] is None  # no chance: no share

    ew = Accuracy()
    ew.add(HAND_MADE, 1)
    other = ew.to_dict()
    assert (other["all"]["errors"], other["all"]["tricks_lost"]) == (8, 5)
    assert other["all"]["error_rate"] == pytest.approx(8 / 49)
    assert (other["declarers"]["leads"], other["declarers"]["lead_accuracy"]) == (1, 0.0)
    assert other["declarers"]["error_rate"] == pytest.approx(4 / 21)
    assert other["all"]["lead_accuracy_ci95"][0] == 0.0  # 0 of 1, Wilson
    assert other["defenders"]["tricks_lost"] == 2
    assert (other["all"]["partner_winning"], other["all"]["over_partner_rate"]) == (4, 0.0)


def recompute(deal: Deal) -> DealPlay:
    """One deal's figures straight from the solver, card by card."""
    replay = Deal(deal.rules, deal.dealer, deal.dealt, deal.scores)
    decisions, errors, lost = [0, 0], [0, 0], [0, 0]
    chances, over, costly = [0, 0], [0, 0], [0, 0]
    seen: set[int] = set()  # the cards played so far
    voids: list[set[int]] = [set() for _ in range(4)]  # the suits each seat showed out of
    first: tuple[int, bool | None] | None = None
    for action in deal.action_ids:
        if replay.phase is Phase.PLAY and action < 52:
            solution = solve(Position.from_deal(replay))
            seat = replay.to_act
            side = seat & 1
            cost = solution.tricks - solution.values[Card(action)]
            legal = len(solution.values)
            decisions[side] += legal > 1
            errors[side] += cost > 0
            lost[side] += cost
            if first is None:
                first = (side, None if legal < 2 else cost == 0)
            trick = replay.current_trick
            assert trick is not None
            trump = -1 if replay.trump is None else int(replay.trump)

            def wins(card: int, trick: Trick = trick, trump: int = trump) -> int:
                # who would win the trick so far with ``card`` added
                return trick_winner(trick.leader, (*trick.cards, card), trump)

            partner = seat ^ 2
            if len(trick.cards) >= 2 and any(wins(c) == partner for c in solution.values):
                best = trick.cards[-2]
                # Sure for all the player can tell: the last opponent (in third seat) is
                # taken to follow where it may hold the suit led, to ruff where it
                # showed out of it and may hold a trump.
                mine = replay.hand(seat).mask
                last = (seat + 1) & 3
                possible = [
                    c
                    for c in range(52)
                    if not mine >> c & 1 and c not in seen and c // 13 not in voids[last]
                ]
                led = trick.cards[0] // 13
                if any(c // 13 == led for c in possible):
                    threat = best // 13 == led and any(
                        c // 13 == led and c > best for c in possible
                    )
                else:
                    trumps = [c for c in possible if c // 13 == trump] if trump >= 0 else []
                    threat = bool(trumps) and (best // 13 != trump or max(trumps) > best)
                if len(trick.cards) == 3 or not threat:
                    chances[side] += 1
                    over[side] += wins(action) == seat
                    costly[side] += wins(action) == seat and cost > 0
            if trick.cards and action // 13 != trick.cards[0] // 13:
                voids[seat].add(trick.cards[0] // 13)
            seen.add(action)
        replay.push_unchecked(action)
    assert first is not None
    contract = deal.contract
    return DealPlay(
        None if contract is None else int(contract.team),
        deal.trump is None,
        (decisions[0], decisions[1]),
        (errors[0], errors[1]),
        (lost[0], lost[1]),
        *first,
        (chances[0], chances[1]),
        (over[0], over[1]),
        (costly[0], costly[1]),
    )


def test_an_arena_run_reports_what_the_solver_says_card_by_card() -> None:
    config = ArenaConfig(("heuristic", "random"), matches=2, rules=SMALL, seed=8, double_dummy=True)
    result = play_arena(config)
    expected = {label: Accuracy() for label in config.labels}
    for outcome in result.outcomes:
        assert outcome.record is not None
        played = [d for d in read_record(outcome.record).deals if d.played]
        plays = tuple(recompute(deal) for deal in played)
        # By value: the module's doctest may import a second copy of DealPlay's class.
        assert list(map(astuple, outcome.dd_play)) == list(map(astuple, plays))
        assert outcome.dd_deals == len(plays)
        assert outcome.dd_lost == (sum(p.lost[0] for p in plays), sum(p.lost[1] for p in plays))
        for side, label in enumerate((outcome.ns_label, outcome.ew_label)):
            expected[label].add(plays, side)
    summary = summarize(result)
    for label in config.labels:
        assert summary["dd_play"][label] == expected[label].to_dict()
        rows = summary["dd_play"][label]
        assert rows["declarers"]["deals"] + rows["defenders"]["deals"] == rows["all"]["deals"]
        assert rows["trump"]["deals"] + rows["no_trump"]["deals"] == rows["all"]["deals"]
        assert rows["all"]["tricks_lost_per_deal"] == pytest.approx(
            summary["dd_tricks_lost_per_deal"][label]
        )
    # Random cards throw more tricks away than the heuristic's.
    assert (
        summary["dd_play"]["random"]["all"]["error_rate"]
        > summary["dd_play"]["heuristic"]["all"]["error_rate"]
    )


def test_the_json_summary_and_the_report_carry_the_figures() -> None:
    config = ArenaConfig(("heuristic", "random"), matches=2, rules=SMALL, seed=3, double_dummy=True)
    result = play_arena(config)
    data = json.loads(json.dumps(result_to_json(result)))
    figures = data["summary"]["dd_play"]
    assert set(figures) == {"heuristic", "random"}
    keys = {
        "deals",
        "decisions",
        "errors",
        "error_rate",
        "error_rate_ci95",
        "tricks_lost",
        "tricks_lost_per_deal",
        "tricks_lost_per_deal_ci95",
        "leads",
        "best_leads",
        "lead_accuracy",
        "lead_accuracy_ci95",
        "partner_winning",
        "over_partner",
        "over_partner_rate",
        "over_partner_rate_ci95",
        "over_partner_costly",
        "over_partner_costly_rate",
        "over_partner_costly_rate_ci95",
    }
    for rows in figures.values():
        assert set(rows) == set(GROUPS)
        assert all(set(row) == keys for row in rows.values())
        lo, hi = rows["all"]["error_rate_ci95"]
        assert lo <= rows["all"]["error_rate"] <= hi
    report = format_report(result)
    assert "card play against double-dummy play" in report
    table = report[report.index("card play against double-dummy play") :].splitlines()
    for label in ("heuristic", "random"):
        line = next(x for x in table if x.split()[:2] == [label, "all"])
        row = figures[label]["all"]
        assert f"{100 * row['error_rate']:.1f}%" in line
        assert f"{row['tricks_lost_per_deal']:.2f}" in line
    partner = report[report.index("over partner's sure winner") :].splitlines()
    for label in ("heuristic", "random"):
        line = next(x for x in partner if x.split()[:1] == [label])
        assert line.split()[1] == str(figures[label]["all"]["partner_winning"])
    without = play_arena(ArenaConfig(("heuristic", "random"), matches=2, rules=SMALL, seed=3))
    assert "dd_play" not in summarize(without)
    assert "double-dummy" not in format_report(without)


def test_deals_without_a_partnership_contract_have_no_role() -> None:
    rules = find_rules("syrian400")
    deal = Deal.from_seed(rules, dealer=0, seed=11)
    rng = random.Random(11)
    while deal.phase is not Phase.PLAY and not deal.is_over():
        deal.push(rng.choice(deal.legal_action_ids()))
    if deal.is_over():
        pytest.skip("the bids added up too low and the deal was thrown in")
    for _ in range(8):
        deal.push(rng.choice(deal.legal_action_ids()))
    (play,) = deal_plays([deal])
    assert play.declarers is None and play.role(0) is None and not play.no_trump
    assert astuple(play) == astuple(recompute(deal))
    acc = Accuracy()
    acc.add([play], 0)
    rows = acc.to_dict()
    assert rows["all"]["deals"] == rows["trump"]["deals"] == 1
    assert rows["declarers"]["deals"] == rows["defenders"]["deals"] == 0
    assert deal_plays([Deal.from_seed(rules, dealer=0, seed=11)]) == ()  # nothing played
