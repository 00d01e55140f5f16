"""Search bot speed: time per decision, cards and bids apart, against a reference.

Run as ``python bench/search.py [--deals N] [--rules NAME] [--bot SPEC] [--reference SPEC]``.
Two bots of ``--bot`` (North-South, ``search`` by default) play seeded deals
against two heuristic bots; every decision of theirs is timed, and the
reference bot (``--reference``, ``search:plain`` by default: plain Monte Carlo
search, the search bot before inference) is timed on the very same views in
the same run, so the ratio of the two holds on a busy machine too. The
targets (DESIGN.md) are for card play on one core: median <= 150 ms, p95 <=
600 ms. DDS (the ``solver`` extra) is what makes them reachable; the script
says which backend it used. The first decision of a run also builds the
rules' match-equity table (:mod:`tarneeb.bots.equity`, about half a second);
it is built before the clock starts.

With ``--accuracy N`` it measures card play instead: N positions of deals
the heuristic bots bid and play (every decision with a choice of unlike
cards, a seat of the deal taken in turn), where the bot and the reference each
choose a card on the same view; each card is scored double dummy on the real
layout (the tricks its side keeps from there against the best card's), and
the script prints the tricks each gave away per 100 decisions, the paired
difference with its 95% interval, both bots' times on those views, and the
tricks given away by the card's place in its trick (leads, second, third,
fourth hand) and by side (declarers, defenders): where the losses are.
Against heuristic opponents and partner the play is evidence a model of the
heuristic reads well: the setting most favourable to inference.

With ``--trump N`` it measures the trump choice instead: N deals the heuristic
bots bid, where the declarer names trump by the hand's own count (what every
bot does) and by the simulation the search bot once used (the suit with the
most double-dummy tricks on average over the auction's layouts, with 8 and
with 32 layouts); each choice is scored double dummy on the real layout, the
declaring side on lead (the tricks it gives away against the best suit).

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb import Card, Deal, Phase, Rules, Seat, find_rules
from tarneeb.arena.stats import mean_ci
from tarneeb.bots import Bot, make_bot
from tarneeb.bots.equity import match_equity
from tarneeb.solver import backend_name


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _timed(
    bot: Bot, view: object, clock: Callable[[], float] = time.perf_counter
) -> tuple[object, float]:
    begin = clock()
    action = bot.act(view)  # type: ignore[arg-type]
    return action, (clock() - begin) * 1000


def _line(label: str, values: list[float]) -> str:
    median, p95 = statistics.median(values), _percentile(values, 0.95)
    return f"  {label:<22s} {len(values):4d}  median {median:8.1f} ms   p95 {p95:8.1f} ms"


PLACES = ("lead", "second", "third", "fourth")
"""The places of a card in its trick, for the figures by place."""


def accuracy(bot: Bot, reference: Bot, rules: Rules, positions: int) -> dict[str, object]:
    """Tricks given away against double-dummy play of the real layout, paired by position;
    also by the card's place in its trick and by side (declarers, defenders)."""
    from tarneeb.bots.search import _equivalent_cards
    from tarneeb.solver import Position, solve_many

    players = [make_bot("heuristic", seed=10 + s) for s in range(4)]
    lost: list[tuple[int, int]] = []
    times: list[tuple[float, float]] = []
    kinds: list[tuple[int, bool]] = []  # each decision's place in its trick, and side
    seed = 3000
    while len(lost) < positions:
        deal = Deal.from_seed(rules, Seat(seed % 4), seed)
        watched = Seat(seed % 4)  # one seat a deal, each in turn
        seed += 1
        while not deal.is_over() and len(lost) < positions:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if deal.phase is Phase.PLAY and seat == watched:
                legal = [a for a in view.legal_actions if isinstance(a, Card)]
                if len(_equivalent_cards(view, legal)) > 1:
                    trick = view.current_trick
                    assert trick is not None
                    in_trick = sum(1 << c for c in trick.cards)
                    real = Position(
                        [h.mask & ~in_trick for h in deal.hands],
                        view.trump,
                        trick.leader,
                        trick.cards,
                        lead_trump=rules.first_lead_trump and not len(view.played),
                    )
                    values = solve_many([real], "auto", True)[0].values
                    top = max(values[c] for c in legal)
                    # Processor time: on a busy machine the wall clock says more about the others.
                    mine, spent = _timed(bot, view, time.process_time)
                    ref, ref_spent = _timed(reference, view, time.process_time)
                    lost.append((top - values[mine], top - values[ref]))  # type: ignore[index]
                    times.append((spent, ref_spent))
                    assert deal.contract is not None
                    kinds.append((len(trick.cards), deal.contract.team == seat.team))
            deal.push(players[seat].act(view))
    n = len(lost)
    mean, ci = mean_ci([a - b for a, b in lost])

    def where(keep: Callable[[tuple[int, bool]], bool]) -> dict[str, object]:
        picked = [pair for pair, kind in zip(lost, kinds, strict=True) if keep(kind)]
        return {
            "decisions": len(picked),
            "lost_per_100": round(100 * statistics.fmean(a for a, _ in picked), 2)
            if picked
            else None,
            "reference_lost_per_100": round(100 * statistics.fmean(b for _, b in picked), 2)
            if picked
            else None,
        }

    return {
        "by_place": {
            name: where(lambda kind, place=place: kind[0] == place)
            for place, name in enumerate(PLACES)
        },
        "by_side": {
            "declarers": where(lambda kind: kind[1]),
            "defenders": where(lambda kind: not kind[1]),
        },
        "positions": n,
        "lost_per_100": round(100 * statistics.fmean(a for a, _ in lost), 2),
        "reference_lost_per_100": round(100 * statistics.fmean(b for _, b in lost), 2),
        "difference_per_100": round(100 * mean, 2),
        "difference_95": None if ci is None else [round(100 * x, 2) for x in ci],
        "median_ms": round(statistics.median(t for t, _ in times), 1),
        "reference_median_ms": round(statistics.median(t for _, t in times), 1),
        "p95_ms": round(_percentile([t for t, _ in times], 0.95), 1),
        "reference_p95_ms": round(_percentile([t for _, t in times], 0.95), 1),
    }


TRUMP_LAYOUTS = (8, 32)
"""The simulation's layouts in ``--trump``: the search bot's auction budget, and four times it."""


def trump_choice(rules: Rules, deals: int) -> dict[str, object]:
    """Tricks the declarer's trump gives away against the best suit, double dummy on the
    real layout: the hand's own count against the simulation's most tricks on average."""
    import random

    from tarneeb.bots.search import Limit, SearchBot
    from tarneeb.cards import Suit
    from tarneeb.solver import Position, solve_many

    players = [make_bot("heuristic", seed=10 + s) for s in range(4)]
    counter = make_bot("heuristic", seed=99)
    most = max(TRUMP_LAYOUTS)
    simulation = SearchBot(random.Random(7), ["steady"], Limit(auction_samples=most))
    lost: dict[str, list[int]] = {"count": [], **{f"layouts_{k}": [] for k in TRUMP_LAYOUTS}}
    seed = 7000
    while len(lost["count"]) < deals:
        deal = Deal.from_seed(rules, Seat(seed % 4), seed)
        seed += 1
        while deal.phase in (Phase.AUCTION, Phase.RAISE):
            seat = deal.to_act
            deal.push(players[seat].act(deal.view(seat)))
        if deal.phase is not Phase.TRUMP or deal.to_act is None:
            continue  # thrown in, or the trump came with the bid
        declarer = deal.to_act
        view = deal.view(declarer)
        real = solve_many(
            [
                Position(
                    [h.mask for h in deal.hands], suit, declarer, lead_trump=rules.first_lead_trump
                )
                for suit in Suit
            ],
            "auto",
            False,
        )
        tricks = [r.tricks for r in real]
        top = max(tricks)
        lost["count"].append(top - tricks[counter.act(view).suit])  # type: ignore[attr-defined]
        rows = simulation._layout_tricks(view)
        for k in TRUMP_LAYOUTS:
            some = rows[:k]
            weight = sum(w for w, _t in some) or 1.0
            means = {
                s.suit: sum(w * t[s] for w, t in some) / weight
                for s in some[0][1]
                if s.suit is not None
            }
            best = max(means, key=lambda suit: means[suit])
            lost[f"layouts_{k}"].append(top - tricks[best])
    n = len(lost["count"])
    figures: dict[str, object] = {"deals": n}
    for name, values in lost.items():
        figures[f"{name}_lost"] = round(statistics.fmean(values), 3)
        if name != "count":
            mean, ci = mean_ci([a - b for a, b in zip(values, lost["count"], strict=True)])
            figures[f"{name}_minus_count"] = round(mean, 3)
            figures[f"{name}_minus_count_95"] = None if ci is None else [round(x, 3) for x in ci]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=8, help="deals to play (default 8)")
    parser.add_argument("--rules", default="classic", help="preset (default classic)")
    parser.add_argument("--backend", default="auto", help="solver backend: auto, dds or own")
    parser.add_argument("--bot", default="search", help="the bot timed (default search)")
    parser.add_argument(
        "--reference", default="search:plain", help="the reference bot (default search:plain)"
    )
    parser.add_argument(
        "--accuracy",
        type=int,
        metavar="N",
        help="score N card decisions double dummy against the reference's (see above)",
    )
    parser.add_argument(
        "--trump",
        type=int,
        metavar="N",
        help="score the trump choice of N declarers, the hand's count against the simulation",
    )
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(
            0, {sorted(os.sched_getaffinity(0))[0]}
        )  # one core, as the target says
    rules = find_rules(args.rules)
    backend = backend_name(args.backend)
    own = ":own" if backend == "own" else ""
    match_equity(rules)
    bots = [
        make_bot(args.bot + own, seed=1),
        make_bot("heuristic", seed=2),
        make_bot(args.bot + own, seed=3),
        make_bot("heuristic", seed=4),
    ]
    reference = make_bot(args.reference + own, seed=5)
    if args.trump:
        figures = trump_choice(rules, args.trump)
        print(
            f"trump choice: {figures['deals']} declarers of heuristic auctions, preset "
            f"{args.rules}, backend {backend}; tricks given away a deal against the best suit"
        )
        print(f"  the hand's own count: {figures['count_lost']}")
        for k in TRUMP_LAYOUTS:
            low, high = figures[f"layouts_{k}_minus_count_95"]  # type: ignore[misc]
            print(
                f"  the simulation, {k} layouts: {figures[f'layouts_{k}_lost']} "
                f"(difference {figures[f'layouts_{k}_minus_count']}, 95%: {low} to {high})"
            )
        print(json.dumps({"bench": "trump-choice", **figures}))
        return
    if args.accuracy:
        figures = accuracy(bots[0], reference, rules, args.accuracy)
        print(
            f"search accuracy: {figures['positions']} card decisions of heuristic deals, "
            f"preset {args.rules}, backend {backend}, one core"
        )
        print(
            f"  {args.bot}: {figures['lost_per_100']} tricks given away per 100 decisions, "
            f"median {figures['median_ms']} ms, p95 {figures['p95_ms']} ms of processor time"
        )
        print(
            f"  {args.reference}: {figures['reference_lost_per_100']} per 100, "
            f"median {figures['reference_median_ms']} ms, p95 {figures['reference_p95_ms']} ms"
        )
        low, high = figures["difference_95"]  # type: ignore[misc]
        print(f"  difference {figures['difference_per_100']} per 100 (95%: {low} to {high})")
        print(f"  per 100 decisions by place in the trick and by side ({args.bot} / reference):")
        groups = {**figures["by_place"], **figures["by_side"]}  # type: ignore[dict-item]
        for name, group in groups.items():
            print(
                f"    {name:<10s} {group['decisions']:4d} decisions   "
                f"{group['lost_per_100']} / {group['reference_lost_per_100']}"
            )
        print(json.dumps({"bench": "search-accuracy", "bot": args.bot, **figures}))
        return
    times: dict[str, list[float]] = {"cards": [], "bids": [], "ref_cards": [], "ref_bids": []}
    start = time.perf_counter()
    for i in range(args.deals):
        deal = Deal.from_seed(rules, Seat(i % 4), 1000 + i)
        while not deal.is_over():
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            action, spent = _timed(bots[seat], view)
            if seat in (Seat.SOUTH, Seat.NORTH) and len(view.legal_actions) > 1:
                kind = "cards" if deal.phase is Phase.PLAY else "bids"
                times[kind].append(spent)
                times["ref_" + kind].append(_timed(reference, view)[1])
            deal.push(action)  # type: ignore[arg-type]
    total = time.perf_counter() - start
    print(
        f"search bench: {args.deals} deals, preset {args.rules}, backend {backend}, "
        f"bot {args.bot} against reference {args.reference}, one core, "
        f"Python {platform.python_version()}"
    )
    figures: dict[str, object] = {
        "bench": "search",
        "backend": backend,
        "deals": args.deals,
        "bot": args.bot,
        "reference": args.reference,
    }
    for kind, label in (("cards", "card decisions"), ("bids", "bid and trump")):
        mine, ref = times[kind], times["ref_" + kind]
        if not mine:
            continue
        print(_line(f"{label}", mine) + ("   (targets 150 / 600 ms)" if kind == "cards" else ""))
        print(_line(f"  reference {label}", ref))
        median, p95 = statistics.median(mine), _percentile(mine, 0.95)
        ref_median, ref_p95 = statistics.median(ref), _percentile(ref, 0.95)
        ratio = median / ref_median if ref_median else float("inf")
        print(f"  {'':<22s}       ratio to the reference: median {ratio:.2f}x")
        prefix = "" if kind == "cards" else "auction_"
        figures |= {
            f"{prefix}median_ms": round(median, 1),
            f"{prefix}p95_ms": round(p95, 1),
            f"{prefix}reference_median_ms": round(ref_median, 1),
            f"{prefix}reference_p95_ms": round(ref_p95, 1),
            f"{prefix}median_ratio": round(ratio, 2),
            f"{prefix}decisions": len(mine),
        }
    print(f"  {total:.1f} s in all")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
