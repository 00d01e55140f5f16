"""Other worlds: the unseen cards dealt again, consistent with what a seat has seen.

Search over hidden cards (OpenSpiel's ISMCTS through
``resample_from_infostate``) and the tests of hidden information both need
deals that one seat cannot tell from the real one.

>>> from tarneeb import Deal, find_rules
>>> deal = Deal.from_seed(find_rules("classic"), dealer=0, seed=1)
>>> hands = resample_hands(deal.view(2), random.Random(0))
>>> hands[2] == deal.hand(2).mask, [bin(h).count("1") for h in hands]
(True, [13, 13, 13, 13])
"""

from __future__ import annotations

import random

from tarneeb.view import View

__all__ = ["known_voids", "resample_hands"]


def known_voids(view: View, seat: int) -> set[int]:
    """Suits ``seat`` cannot hold, from what ``view``'s seat has seen."""
    voids = {int(s) for s in view.voids(seat)}
    rules = view.rules
    if rules.first_lead_trump and view.trump is not None:
        first = view.tricks[0] if view.tricks else view.current_trick
        if (
            first is not None
            and first.cards
            and first.leader == seat
            and first.cards[0].suit != view.trump
        ):
            voids.add(int(view.trump))
    return voids


def resample_hands(view: View, rng: random.Random, tries: int = 1000) -> list[int]:
    """The current hands, the viewer's own and the others' dealt anew from the unseen cards.

    Each other seat gets as many cards as it holds, none of a suit it has
    shown out of.

    :raises ValueError: when no such deal was found in ``tries`` attempts.
    """
    me = int(view.seat)
    others = [s for s in range(4) if s != me]
    unseen = list(view.unseen())
    voids = {s: known_voids(view, s) for s in others}
    allowed = {c: [s for s in others if c // 13 not in voids[s]] for c in unseen}
    for _ in range(tries):
        rng.shuffle(unseen)
        unseen.sort(key=lambda c: len(allowed[c]))
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
            return hands
    raise ValueError(f"no deal of the unseen cards fits what {view.seat.name.title()} has seen")
