"""Sampling the hidden cards: exactly uniform over the layouts a seat cannot tell apart.

The layouts are checked against a brute-force enumeration written here
independently of :mod:`tarneeb.layouts` (every hand for each hidden seat in
turn, kept when it fits the sizes and the shown voids), and the draws against
the uniform distribution with a chi-square test that the sampler used before
(``bench/sampling.py``'s ``legacy_sample_hands``) fails.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support import ROOT, run_python
from tarneeb import PRESETS, Deal, Phase, Seat, find_rules
from tarneeb.cards import SUIT_MASKS, Suit
from tarneeb.layouts import Layout, Layouts, NoLayoutError
from tarneeb.view import View


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_sampling", ROOT / "bench" / "sampling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def brute_layouts(view: View) -> set[Layout]:
    """Every layout consistent with ``view``, by trying every hand for each hidden seat."""
    others = [s for s in Seat if s != view.seat]
    unseen = list(view.unseen())
    out: set[Layout] = set()

    def fill(i: int, left: list[int], hands: list[int]) -> None:
        if i == len(others):
            if not left:
                out.add((hands[0], hands[1], hands[2], hands[3]))
            return
        seat = others[i]
        for chosen in itertools.combinations(left, view.hand_sizes[seat]):
            mask = sum(1 << c for c in chosen)
            if any(mask & SUIT_MASKS[suit] for suit in view.voids(seat)):
                continue
            hands[seat] = mask
            fill(i + 1, [c for c in left if c not in chosen], hands)
        hands[seat] = 0

    start = [0, 0, 0, 0]
    start[view.seat] = view.hand.mask
    fill(0, [int(c) for c in unseen], start)
    return out


def chi_square_limit(dof: int, z: float = 3.719) -> float:
    """The chi-square quantile for ``dof`` degrees of freedom at upper tail 1e-4 (Wilson-Hilferty)."""
    k = 2 / (9 * dof)
    return float(dof * (1 - k + z * math.sqrt(k)) ** 3)


def chi_square(view: View, sampler: Callable[[View, random.Random], Layout], per: int) -> float:
    rng = random.Random(2026)
    layouts = brute_layouts(view)
    counts = Counter(sampler(view, rng) for _ in range(per * len(layouts)))
    assert set(counts) <= layouts, "a layout the view rules out was drawn"
    return sum((counts.get(layout, 0) - per) ** 2 / per for layout in layouts)


def late_views() -> Iterator[View]:
    """Views late in the bench deal, with voids shown, small enough to enumerate."""
    for actions in (38, 39, 40, 41, 42):
        yield BENCH.position(actions)


def test_the_issue_position_has_voids_and_the_count_brute_force_finds() -> None:
    view = BENCH.position(BENCH.LATE)
    assert view.voids(Seat.EAST) == {Suit.DIAMONDS, Suit.HEARTS}
    assert view.voids(Seat.NORTH) == {Suit.SPADES}
    assert view.layouts.count == len(brute_layouts(view)) == 325


@pytest.mark.parametrize(
    "view", list(late_views()), ids=lambda v: f"{v.seat.name}-{len(v.history)}"
)
def test_the_layouts_listed_and_counted_are_exactly_the_consistent_ones(view: View) -> None:
    expected = brute_layouts(view)
    listed = list(view.layouts)
    assert len(listed) == len(set(listed)) == view.layouts.count == len(expected)
    assert set(listed) == expected


def test_draws_are_uniform_where_the_old_sampler_was_not() -> None:
    """Issue 21: 'chi-square 2,356 on 215 degrees of freedom in one late position'."""
    view = BENCH.position(BENCH.LATE)
    limit = chi_square_limit(len(brute_layouts(view)) - 1)
    assert chi_square(view, BENCH.legacy_sample_hands, 40) > 3 * limit  # the test has power
    assert chi_square(view, lambda v, rng: v.sample_hands(rng), 40) < limit


def test_a_second_late_position_is_uniform_too() -> None:
    view = BENCH.position(40)
    count = len(brute_layouts(view))
    assert 10 <= count <= 2000
    assert chi_square(view, lambda v, rng: v.sample_hands(rng), 60) < chi_square_limit(count - 1)


def test_the_same_seed_draws_the_same_layouts_from_equal_views() -> None:
    one = BENCH.position(BENCH.MIDDLE)
    two = BENCH.position(BENCH.MIDDLE)
    assert one is not two
    first = [one.sample_hands(random.Random(7)) for _ in range(3)]
    assert first == [two.sample_hands(random.Random(7)) for _ in range(3)]
    rng = random.Random(7)
    assert len({one.sample_hands(rng) for _ in range(20)}) > 15  # and they vary


def test_sample_layouts_weighs_each_uniform_draw() -> None:
    view = BENCH.position(BENCH.LATE)
    north = Seat.NORTH

    def has_ace_of_clubs(layout: Layout) -> float:
        return float(layout[north] >> 12 & 1)  # card 12 is AC

    drawn = view.sample_layouts(random.Random(3), 400, weight=has_ace_of_clubs)
    assert len(drawn) == 400
    assert {w for _, w in drawn} <= {0.0, 1.0}
    assert all(w == has_ace_of_clubs(layout) for layout, w in drawn)
    plain = view.sample_layouts(random.Random(3), 5)
    assert [w for _, w in plain] == [1.0] * 5
    assert [layout for layout, _ in plain] == [layout for layout, _ in drawn[:5]]


def test_dealt_adds_the_cards_each_seat_played() -> None:
    deal = Deal(find_rules("classic"), Seat.SOUTH, list(BENCH.HANDS))
    for action in BENCH.ACTIONS[: BENCH.LATE]:
        deal.push(action)
    view = deal.view(Seat.WEST)
    real: Layout = tuple(deal.hand(s).mask for s in Seat)  # type: ignore[assignment]
    assert view.dealt(real) == deal.dealt
    assert view.dealt(view.sample_hands(random.Random(1)))[Seat.WEST] == deal.dealt[Seat.WEST]


def test_a_view_no_layout_fits_raises_a_typed_error() -> None:
    view = BENCH.position(BENCH.LATE)
    sizes = list(view.hand_sizes)
    sizes[Seat.EAST] += 1  # one card more than there are unseen
    broken = dataclasses.replace(view, hand_sizes=tuple(sizes))
    assert broken.layouts.count == 0 and list(broken.layouts) == []
    with pytest.raises(NoLayoutError, match="no layout"):
        broken.sample_hands(random.Random(1))
    every_suit = frozenset(Suit)
    nowhere = Layouts(view.unseen().mask, view.hand_sizes, (every_suit,) * 4)
    assert nowhere.count == 0
    with pytest.raises(ValueError):  # NoLayoutError is a ValueError, as the old error was
        nowhere.sample(random.Random(1))


def test_layouts_count_small_cases_by_hand() -> None:
    # Six cards, two to each of three seats, no voids: 6! / (2! 2! 2!) = 90.
    six = sum(1 << c for c in (0, 1, 13, 14, 26, 27))
    assert Layouts(six, (0, 2, 2, 2), ((), (), (), ())).count == 90
    # East holds no clubs, so the two clubs go to North and West: both to North
    # (then East and West share the four others, C(4,2) = 6 ways), both to West
    # (6 again), or one each (2 ways, then 4! / (2! 1! 1!) = 12 for the others).
    voids = ((), (Suit.CLUBS,), (), ())
    assert Layouts(six, (0, 2, 2, 2), voids).count == 6 + 6 + 2 * 12
    assert Layouts(0, (0, 0, 0, 0), ((), (), (), ())).count == 1


@st.composite
def played_views(draw: st.DrawFn) -> View:
    name = draw(st.sampled_from(sorted(PRESETS)))
    seed = draw(st.integers(0, 2**32 - 1))
    deal = Deal.from_seed(find_rules(name), dealer=draw(st.sampled_from(list(Seat))), seed=seed)
    rng = random.Random(seed)
    stop = draw(st.integers(0, 52))
    while not deal.is_over() and (deal.phase is not Phase.PLAY or len(deal.played) < stop):
        deal.push(rng.choice(deal.legal_action_ids()))
    return deal.view(draw(st.sampled_from(list(Seat))))


@given(played_views(), st.integers(0, 2**16))
def test_no_draw_is_a_layout_the_view_rules_out(view: View, seed: int) -> None:
    """Each draw, dealt back and replayed, gives the seat exactly the view it had."""
    rng = random.Random(seed)
    for layout, _ in view.sample_layouts(rng, 5):
        assert layout[view.seat] == view.hand.mask
        assert layout[0] | layout[1] | layout[2] | layout[3] == view.hand.mask | view.unseen().mask
        for seat in Seat:
            assert layout[seat].bit_count() == view.hand_sizes[seat]
            assert not any(layout[seat] & SUIT_MASKS[suit] for suit in view.voids(seat))
        replay = Deal(view.rules, view.dealer, list(view.dealt(layout)), view.scores)
        for _, action in view.history:
            replay.push(action)  # every card legal for the hands drawn
        assert replay.view(view.seat) == view


def test_the_bench_prints_old_and_exact_figures_last_as_json() -> None:
    done = run_python("bench/sampling.py", "--seconds", "0.02", "--chi-samples", "2")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["bench"] == "sampling"
    assert figures["late_layouts"] == 325 and figures["chi_square_dof"] == 324
    for name in ("first_lead", "middle", "late"):
        assert figures[f"{name}_old_per_s"] > 0 and figures[f"{name}_exact_per_s"] > 0
    assert figures["chi_square_old"] > figures["chi_square_exact"] > 0
