"""Search bot speed: time per decision, cards and bids apart.

Run as ``python bench/search.py [--deals N] [--rules NAME] [--backend auto|dds|own]``.
Two search bots (North-South) play seeded deals against two heuristic bots;
every decision of a search bot is timed. The targets (DESIGN.md) are for card
play on one core: median <= 150 ms, p95 <= 600 ms. DDS (the ``solver`` extra)
is what makes them reachable; the script says which backend it used.

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb import Deal, Phase, Seat, find_rules
from tarneeb.bots import Limit, SearchBot, make_bot
from tarneeb.solver import backend_name


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=8, help="deals to play (default 8)")
    parser.add_argument("--rules", default="classic", help="preset (default classic)")
    parser.add_argument("--backend", default="auto", help="solver backend: auto, dds or own")
    parser.add_argument("--samples", type=int, default=Limit().samples, help="layouts per card")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(
            0, {sorted(os.sched_getaffinity(0))[0]}
        )  # one core, as the target says
    rules = find_rules(args.rules)
    backend = backend_name(args.backend)
    options = ["own"] if backend == "own" else []
    limit = Limit(samples=args.samples)
    bots = [
        SearchBot(random.Random(1), options, limit),
        make_bot("heuristic", seed=2),
        SearchBot(random.Random(3), options, limit),
        make_bot("heuristic", seed=4),
    ]
    cards: list[float] = []
    bids: list[float] = []
    start = time.perf_counter()
    for i in range(args.deals):
        deal = Deal.from_seed(rules, Seat(i % 4), 1000 + i)
        while not deal.is_over():
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            begin = time.perf_counter()
            action = bots[seat].act(view)
            spent = time.perf_counter() - begin
            if seat in (Seat.SOUTH, Seat.NORTH) and len(view.legal_actions) > 1:
                (cards if deal.phase is Phase.PLAY else bids).append(spent * 1000)
            deal.push(action)
    total = time.perf_counter() - start
    print(
        f"search bench: {args.deals} deals, preset {args.rules}, backend {backend}, "
        f"{limit.samples} layouts a card, one core, Python {platform.python_version()}"
    )
    figures: dict[str, object] = {"bench": "search", "backend": backend, "deals": args.deals}
    if cards:
        median, p95 = statistics.median(cards), _percentile(cards, 0.95)
        print(
            f"  card decisions: {len(cards):4d}  median {median:8.1f} ms   p95 {p95:8.1f} ms"
            "   (targets 150 / 600 ms)"
        )
        figures |= {"median_ms": round(median, 1), "p95_ms": round(p95, 1), "cards": len(cards)}
    if bids:
        median, p95 = statistics.median(bids), _percentile(bids, 0.95)
        print(f"  bid and trump:  {len(bids):4d}  median {median:8.1f} ms   p95 {p95:8.1f} ms")
        figures |= {"auction_median_ms": round(median, 1), "auction_p95_ms": round(p95, 1)}
    print(f"  {total:.1f} s in all")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
