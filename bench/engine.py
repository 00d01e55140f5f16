"""Engine speed: full random deals per second, against OpenSpiel's spades.

Run as ``python bench/engine.py [--seconds S] [--rules NAME]``. Three loops,
each for the same CPU time of this process and repeated in turn, with the
cyclic garbage collector off while timing (as :mod:`timeit` does) for all
three:

* ``deal``: the real :class:`tarneeb.Deal` as a program drives it: shuffle and
  deal, then ``legal_action_ids()`` and the checked ``push()`` for every
  action (auction, trump, 52 cards) until it is scored;
* ``fast``: the bots' fast path, :meth:`tarneeb.Deal.playout` after dealing;
* ``openspiel``: OpenSpiel ``spades`` from Python, one hand from the chance
  deal to the end: ``legal_actions()``/``chance_outcomes()`` and
  ``apply_action()`` (the ``bench`` extra installs it).

The rates count the process's CPU time (:func:`time.process_time`), not the
wall clock: on a shared machine a wall-clock round also bills the time this
process waited for a core, which differs from loop to loop (runs with eight
sessions on two cores gave ratios from 1.37x to 1.63x for the same code), and
the best of each loop's rounds could then come from different conditions.
Each ratio is the median, over the rounds, of that round's two rates (taken
one after the other); the best rates are printed too.

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb import Deal, Rules, find_rules


def _rate(run_one: Callable[[random.Random], None], seconds: float, rounds: int) -> float:
    """Best rate of ``rounds`` timed rounds; the cyclic garbage collector is off while
    timing (as :mod:`timeit` does), for every loop alike."""
    best = 0.0
    for r in range(rounds):
        gc.collect()
        gc.disable()
        try:
            best = max(best, _round(run_one, seconds, r))
        finally:
            gc.enable()
    return best


def _round(run_one: Callable[[random.Random], None], seconds: float, r: int) -> float:
    rng = random.Random(r)
    count = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        for _ in range(20):
            run_one(rng)
        count += 20
        now = clock()
        if now >= deadline:
            return count / (now - start)


def real_deal(rules: Rules) -> Callable[[random.Random], None]:
    def run(rng: random.Random) -> None:
        deal = Deal.from_rng(rules, rng.randrange(4), rng)
        choice = rng.choice
        while not deal.is_over():
            deal.push(choice(deal.legal_action_ids()))

    return run


def fast_deal(rules: Rules) -> Callable[[random.Random], None]:
    def run(rng: random.Random) -> None:
        Deal.from_rng(rules, rng.randrange(4), rng).playout(rng)

    return run


def openspiel_spades() -> Callable[[random.Random], None] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")

    def run(rng: random.Random) -> None:
        state = game.new_initial_state()
        choice = rng.choice
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per round of each loop")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each loop (best kept)")
    parser.add_argument("--rules", default="classic", help="preset to deal under")
    args = parser.parse_args()
    rules = find_rules(args.rules)

    print(
        f"engine bench: preset {args.rules}, {args.rounds} x {args.seconds:.1f} s of CPU per loop, "
        f"Python {platform.python_version()} on {platform.machine()}"
    )
    figures: dict[str, object] = {"bench": "engine", "rules": args.rules}
    reference = openspiel_spades()
    os_rate = None
    if reference is None:
        print("OpenSpiel is missing: pip install 'tarneeb[bench]' to measure the reference")
    # Interleave the loops so that a busy machine slows them alike.
    rates: dict[str, list[float]] = {"deal": [], "fast": [], "openspiel": []}
    for _ in range(args.rounds):
        rates["deal"].append(_rate(real_deal(rules), args.seconds, 1))
        rates["fast"].append(_rate(fast_deal(rules), args.seconds, 1))
        if reference is not None:
            rates["openspiel"].append(_rate(reference, args.seconds, 1))
    deal_rate = max(rates["deal"])
    fast_rate = max(rates["fast"])
    print(f"  Deal, checked push:     {deal_rate:10.0f} deals/s")
    print(f"  Deal.playout fast path: {fast_rate:10.0f} deals/s")
    figures["deals_per_s"] = round(deal_rate)
    figures["fast_deals_per_s"] = round(fast_rate)
    if reference is not None:
        os_rate = max(rates["openspiel"])
        print(f"  OpenSpiel spades:       {os_rate:10.0f} games/s")
        deal_ratio = statistics.median(
            d / o for d, o in zip(rates["deal"], rates["openspiel"], strict=True)
        )
        fast_ratio = statistics.median(
            f / o for f, o in zip(rates["fast"], rates["openspiel"], strict=True)
        )
        print(f"  ratio Deal / OpenSpiel: {deal_ratio:10.2f}x (target >= 1.5x; median of rounds)")
        print(f"  ratio fast / OpenSpiel: {fast_ratio:10.2f}x (target >= 2.5x; median of rounds)")
        figures["openspiel_spades_per_s"] = round(os_rate)
        figures["vs_openspiel_spades"] = round(deal_ratio, 2)
        figures["fast_vs_openspiel_spades"] = round(fast_ratio, 2)
        figures["vs_openspiel_spades_best"] = round(deal_rate / os_rate, 2)
        figures["fast_vs_openspiel_spades_best"] = round(fast_rate / os_rate, 2)
    else:
        figures["vs_openspiel_spades"] = None
        figures["fast_vs_openspiel_spades"] = None
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
