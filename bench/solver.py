"""Double-dummy solver speed: our pure-Python solver against DDS (through endplay).

Run as ``python bench/solver.py [--seed N] [--start K] [--after4 K] [--after8 K]``.
The positions come from seeded random deals, each with a random strain (the
four suits and no-trump in turn): at the start of play, after 4 tricks and
after 8 tricks of random legal play. Each backend solves the same positions
one at a time (every legal card's value, as ``tarneeb.solver.solve`` gives),
after a warm-up of each (one unrelated position); our solver starts each
position with empty tables. Each position's time is kept, and the answers
compared.

Each backend solves a stage's positions in a pass of its own, after a full
collection of Python's garbage. Solving them in turn, position by position,
billed DDS for our solver's work: the objects our search leaves behind are
walked by Python's collector at the next allocations, and those fell in DDS's
calls, which then took two to three times as long as alone.

Prints the median and mean time of each backend per stage and the ratio of
the medians (own / DDS); the target is own within 30x of DDS after 4 tricks.
Then the work behind those times: the trick starts each searched (our
``OwnSolver.nodes``, DDS's ``futureTricks.nodes``, counted alike, DDS's in an
untimed pass from an empty table) and the time per trick start, so a change
shows whether it searched less or searched faster.
The last line is one JSON object with the figures, ``own_vs_dds_start``,
``own_vs_dds_after4``, ``own_vs_dds_after8``, ``agree`` and ``positions``
among them. DDS comes with endplay (``pip install 'tarneeb[solver]'``); without
it the script says so and reports our solver's times alone.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb.solver import OwnSolver, Position, dds, trick_winner

STAGES = (("start", 0), ("after4", 4), ("after8", 8))


def make_position(rng: random.Random, tricks_played: int, strain: int) -> Position:
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[i::4]) for i in range(4)]
    trump = None if strain == 4 else strain
    position = Position(hands, trump, rng.randrange(4))
    for _ in range(tricks_played):
        cards = []
        leader = position.leader
        for _ in range(4):
            card = rng.choice(position.legal_cards())
            cards.append(card)
            position = position.play(card)
        assert position.leader == trick_winner(leader, cards, trump)
    return position


def solve_fresh(position: Position) -> tuple[object, int]:
    """Our solver's answer and its count of trick starts searched."""
    solver = OwnSolver()
    return solver.solve(position), solver.nodes


def timed(solve: object, position: Position) -> tuple[float, object]:
    assert callable(solve)
    start = time.perf_counter()
    answer = solve(position)
    return time.perf_counter() - start, answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--start", type=int, default=3, help="positions at the start of play")
    parser.add_argument("--after4", type=int, default=20, help="positions after 4 tricks")
    parser.add_argument("--after8", type=int, default=40, help="positions after 8 tricks")
    args = parser.parse_args()
    counts = {"start": args.start, "after4": args.after4, "after8": args.after8}
    has_dds = dds.available()
    print(f"python {platform.python_version()} on {platform.machine()}, seed {args.seed}")
    if not has_dds:
        print("DDS is missing (pip install endplay): timing our solver alone")
    else:
        dds.solve(make_position(random.Random(0), 0, 4))  # DDS allocates on its first call
    OwnSolver().solve(make_position(random.Random(0), 6, 4))  # and so does Python
    unrelated = make_position(random.Random(1), 8, 4)  # to empty DDS's table
    rng = random.Random(args.seed)
    figures: dict[str, object] = {"bench": "solver"}
    for name, _ in STAGES:
        figures[f"own_vs_dds_{name}"] = None
    agree = 0
    total = 0
    for name, played in STAGES:
        positions = [make_position(rng, played, i % 5) for i in range(counts[name])]
        own_times: list[float] = []
        own_answers = []
        own_nodes = 0
        gc.collect()
        for position in positions:
            # A fresh table, no help from earlier positions; freeing it is timed too.
            t_own, (answer, nodes) = timed(solve_fresh, position)
            own_times.append(t_own)
            own_answers.append(answer)
            own_nodes += nodes
        dds_times: list[float] = []
        dds_nodes = 0
        if has_dds:
            gc.collect()
            for position, own_answer in zip(positions, own_answers, strict=True):
                t_dds, dds_answer = timed(dds.solve, position)
                dds_times.append(t_dds)
                total += 1
                agree += own_answer == dds_answer
            # The work each did, untimed: DDS from an empty table each time.
            for position in positions:
                dds.search_nodes(unrelated)
                dds_nodes += dds.search_nodes(position)
        if not own_times:
            continue
        own_med = statistics.median(own_times)
        line = (
            f"{name:>7}: {len(own_times):3d} positions  own median {own_med * 1e3:9.2f} ms"
            f"  mean {statistics.fmean(own_times) * 1e3:9.2f} ms"
        )
        figures[f"own_{name}_median_ms"] = round(own_med * 1e3, 3)
        figures[f"own_{name}_mean_ms"] = round(statistics.fmean(own_times) * 1e3, 3)
        if dds_times:
            dds_med = statistics.median(dds_times)
            ratio = own_med / dds_med
            line += (
                f"  | dds median {dds_med * 1e3:8.3f} ms  mean "
                f"{statistics.fmean(dds_times) * 1e3:8.3f} ms  | own/dds {ratio:7.1f}x"
            )
            figures[f"dds_{name}_median_ms"] = round(dds_med * 1e3, 3)
            figures[f"dds_{name}_mean_ms"] = round(statistics.fmean(dds_times) * 1e3, 3)
            figures[f"own_vs_dds_{name}"] = round(ratio, 2)
            figures[f"own_vs_dds_{name}_mean"] = round(
                statistics.fmean(own_times) / statistics.fmean(dds_times), 2
            )
        print(line, flush=True)
        figures[f"own_{name}_nodes"] = own_nodes
        # Time per trick start (a position with one legal card searches none).
        own_each = sum(own_times) / max(own_nodes, 1)
        work = f"{'':>9}work: own {own_nodes:,} trick starts, {own_each * 1e6:.2f} us each"
        if dds_times:
            figures[f"dds_{name}_nodes"] = dds_nodes
            dds_each = sum(dds_times) / max(dds_nodes, 1)
            work += (
                f"  | dds {dds_nodes:,}, {dds_each * 1e6:.2f} us each"
                f"  | own/dds {own_nodes / max(dds_nodes, 1):.2f}x the trick starts,"
                f" {own_each / dds_each:.0f}x the time each"
            )
        print(work, flush=True)
    if has_dds:
        print(f"agreement: {agree} of {total} positions (every card's value)")
        target = figures.get("own_vs_dds_after4")
        if isinstance(target, float):
            verdict = "met" if target <= 30 else "NOT met"
            print(f"target own within 30x of DDS after 4 tricks: {verdict} ({target}x)")
    else:
        print("agreement: not checked (no DDS)")
    figures["agree"] = agree
    figures["positions"] = total
    figures["dds"] = has_dds
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
