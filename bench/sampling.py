"""Layout sampling: the exact sampler against the earlier one, speed and uniformity.

Run as ``python bench/sampling.py [--seconds S] [--chi-samples N]``.
For a few positions (the first lead, the middle of the play, a late one
with shown voids) it times :meth:`View.sample_hands` (exact: every layout
consistent with the view equally likely) and the sampler it replaced
(:func:`legacy_sample_hands`: card by card, the most constrained first, with
retries), in the same run; on the late position it also draws
``N x layouts`` of each and prints the chi-square statistic of the counts
against the uniform distribution (its degrees of freedom: layouts - 1).

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb import Deal, Seat, find_rules
from tarneeb.layouts import Layout
from tarneeb.seats import SEATS
from tarneeb.view import View

# A deal of the classic rules (dealer South) played by heuristic bots; stopping
# after LATE actions, West is to lead with 325 layouts left, East and North void.
HANDS = ("AT5.QJT9.QT85.52", "KJ98762.A.K.JT76", ".K854.AJ732.AQ83", "Q43.7632.964.K94")
_PLAYED = """7 8 pass pass pass D AD 4D 5D KD 2D 6D QD 2S AS 6S 3C 3S 9H AH 4H 2H 7S 3D
4S 5S JD 9D 8D 6C KH 3H TH 7C AC 4C 2C TC 8C KC 5C JC"""
ACTIONS = tuple(_PLAYED.split())
FIRST_LEAD = 6
MIDDLE = 22
LATE = 42


def position(actions: int) -> View:
    """The view of the seat to act after the first ``actions`` actions of the bench deal."""
    deal = Deal(find_rules("classic"), Seat.SOUTH, list(HANDS))
    for action in ACTIONS[:actions]:
        deal.push(action)
    seat = deal.to_act
    assert seat is not None
    return deal.view(seat)


def legacy_sample_hands(view: View, rng: random.Random, tries: int = 1000) -> Layout:
    """The sampler ``View.sample_hands`` was before the exact one (not uniform with voids)."""
    me = view.seat
    others = [s for s in SEATS if s != me]
    voids = view.shown_voids
    unseen = list(view.unseen())
    allowed = {c: [s for s in others if c.suit not in voids[s]] for c in unseen}
    for _ in range(tries):
        rng.shuffle(unseen)
        unseen.sort(key=lambda c: len(allowed[c]))  # the most constrained cards first
        left = {s: view.hand_sizes[s] for s in others}
        hands = [0, 0, 0, 0]
        hands[me] = view.hand.mask
        for card in unseen:
            seats = [s for s in allowed[card] if left[s]]
            if not seats:
                break
            seat = rng.choices(seats, weights=[left[s] for s in seats])[0]
            hands[seat] |= 1 << card
            left[seat] -= 1
        else:
            return hands[0], hands[1], hands[2], hands[3]
    raise ValueError("no layout found")


Sampler = Callable[[View, random.Random], Layout]


def exact(view: View, rng: random.Random) -> Layout:
    return view.sample_hands(rng)


def chi_square(view: View, sampler: Sampler, per_layout: int, seed: int = 0) -> float:
    """The chi-square statistic of ``per_layout x layouts`` draws against the uniform counts."""
    rng = random.Random(seed)
    total = view.layouts.count * per_layout
    counts = Counter(sampler(view, rng) for _ in range(total))
    expected = float(per_layout)
    return sum((counts.get(layout, 0) - expected) ** 2 / expected for layout in view.layouts)


def rate(make_view: Callable[[], View], sampler: Sampler, seconds: float) -> float:
    """Samples a second, a fresh view every 100 samples (so the exact one's table counts too)."""
    rng = random.Random(1)
    done = 0
    start = time.perf_counter()
    while True:
        view = make_view()
        for _ in range(100):
            sampler(view, rng)
        done += 100
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measure (default 1)")
    parser.add_argument(
        "--chi-samples", type=int, default=60, help="draws per layout for chi-square (default 60)"
    )
    args = parser.parse_args()
    figures: dict[str, object] = {"bench": "sampling"}
    print("samples/s, old sampler vs exact (a fresh view every 100 samples)")
    for name, actions in (("first_lead", FIRST_LEAD), ("middle", MIDDLE), ("late", LATE)):
        view = position(actions)
        old = rate(functools.partial(position, actions), legacy_sample_hands, args.seconds)
        new = rate(functools.partial(position, actions), exact, args.seconds)
        layouts = view.layouts.count
        print(f"  {name:<10} {layouts:>22,} layouts  old {old:9.0f}/s  exact {new:9.0f}/s")
        figures[f"{name}_layouts"] = layouts
        figures[f"{name}_old_per_s"] = round(old)
        figures[f"{name}_exact_per_s"] = round(new)
    late = position(LATE)
    dof = late.layouts.count - 1
    print(f"chi-square on the late position, {args.chi_samples} draws a layout, {dof} dof")
    for key, sampler in (("old", legacy_sample_hands), ("exact", exact)):
        chi = chi_square(late, sampler, args.chi_samples)
        print(f"  {key:<6} {chi:9.1f}")
        figures[f"chi_square_{key}"] = round(chi, 1)
    figures["chi_square_dof"] = dof
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
