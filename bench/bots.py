"""Bot speed: decisions per second for each bot, and arena deals per second.

Run as ``python bench/bots.py [--seconds S] [--matches N] [--rules NAME]``:

* ``decisions``: four copies of each registered bot (random, heuristic, ...)
  play whole deals; only the time inside :meth:`Bot.decide` is counted;
* ``arena``: ``tarneeb arena --bots heuristic,random --matches N`` with one
  worker (in this process) and with two worker processes, deals per second
  of wall time (process start-up included);
* ``suite``: each bot's score on the partnership suite (tests/data/partnership,
  :mod:`tarneeb.bots.suite`): the share of its positions answered with an
  accepted action, per principle too; the level names (``tarneeb.bots.LEVELS``,
  where they exist) as well. ``--suite-only`` prints only this.

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb import Deal, Rules, find_rules
from tarneeb.arena import ArenaConfig, play_arena
from tarneeb.bots import make_bot
from tarneeb.bots.policy import playable_specs
from tarneeb.bots.suite import load_suite, score_bot


def decisions_per_s(spec: str, rules: Rules, seconds: float) -> tuple[float, int]:
    """Decisions a second of ``spec`` playing all four seats for ``seconds``, and the deals."""
    rng = random.Random(1)
    bots = [make_bot(spec, rng=random.Random(seat)) for seat in range(4)]
    clock = time.perf_counter
    spent = 0.0
    count = 0
    deals = 0
    # The views and the engine take most of the wall time: bound that, count only decide().
    deadline = clock() + seconds
    while clock() < deadline:
        deal = Deal.from_rng(rules, rng.randrange(4), rng)
        while not deal.is_over():
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            start = clock()
            action = bots[seat].decide(view).action
            spent += clock() - start
            count += 1
            deal.push(action)
        deals += 1
    return count / spent, deals


def arena_deals_per_s(bots: tuple[str, ...], rules: Rules, matches: int, workers: int) -> float:
    config = ArenaConfig(bots, matches=matches, rules=rules, seed=1, keep_records=False)
    result = play_arena(config, workers=workers)
    return result.deals / result.elapsed


def suite_scores(specs: list[str]) -> dict[str, dict[str, object]]:
    """Each bot's score on the partnership suite, printed as it comes."""
    suite = load_suite()
    print(f"  partnership suite: {len(suite)} positions")
    out: dict[str, dict[str, object]] = {}
    for spec in specs:
        start = time.perf_counter()
        result = score_bot(spec, suite)
        spent = time.perf_counter() - start
        worst = sorted(result.by_principle.items(), key=lambda kv: kv[1][0] / kv[1][1])[:3]
        weak = ", ".join(f"{p} {r}/{n}" for p, (r, n) in worst)
        print(
            f"  suite {spec:<12} {result.score:6.1%}  ({len(result.passed)}/{result.total}, "
            f"{spent / result.total * 1e3:.0f} ms a position; weakest: {weak})"
        )
        out[spec] = {
            "score": round(result.score, 4),
            "by_principle": {p: list(v) for p, v in result.by_principle.items()},
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time per bot")
    parser.add_argument("--matches", type=int, default=100, help="arena matches (even)")
    parser.add_argument("--rules", default="classic", help="preset")
    parser.add_argument("--bots", default="heuristic,random", help="the arena's two bots")
    parser.add_argument("--suite-only", action="store_true", help="only the suite's scores")
    args = parser.parse_args()
    rules = find_rules(args.rules)
    print(
        f"bots bench: {platform.python_implementation()} {platform.python_version()}, "
        f"rules {args.rules}, {args.seconds:g} s of deals per bot"
    )

    suite = suite_scores(playable_specs())  # the levels (easy ... expert) among them
    if args.suite_only:
        print(json.dumps({"bench": "bots", "suite": suite}))
        return

    decisions: dict[str, int] = {}
    for name in playable_specs():
        rate, deals = decisions_per_s(name, rules, args.seconds)
        decisions[name] = round(rate)
        print(
            f"  {name:<12} {rate:>12,.0f} decisions/s  ({1e6 / rate:8.1f} µs each, {deals} deals)"
        )

    bots = tuple(args.bots.split(","))
    arena: dict[str, int] = {}
    for workers in (1, 2):
        rate = arena_deals_per_s(bots, rules, args.matches, workers)
        arena[str(workers)] = round(rate)
        print(
            f"  arena {' vs '.join(bots)}, {args.matches} matches, {workers} worker"
            f"{'s' if workers > 1 else ''}: {rate:,.0f} deals/s"
        )
    figures = {"decisions_per_s": decisions, "arena_deals_per_s": arena, "suite": suite}
    print(json.dumps({"bench": "bots", **figures}))


if __name__ == "__main__":
    main()
