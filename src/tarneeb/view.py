"""What one seat may know of a deal.

Everything that decides for a seat (a bot, a client, an environment) gets a
:class:`View`: that seat's own cards and the public record of the deal. Every
action in Tarneeb is public (bids, the trump, each card as it is played), so a
view holds the whole action history and only one hand.

>>> from tarneeb.deal import Deal
>>> from tarneeb.presets import find_rules
>>> deal = Deal.from_seed(find_rules("classic"), dealer=0, seed=1)
>>> view = deal.view(Seat.EAST)
>>> view.seat, view.to_act, len(view.hand), view.legal_actions[0]
(Seat.EAST, Seat.EAST, 13, Pass())
>>> deal.view(Seat.NORTH).legal_actions
()
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from tarneeb.actions import Action, Phase
from tarneeb.auction import Contract, ThrowIn
from tarneeb.cards import SUIT_MASKS, CardSet, Suit
from tarneeb.play import Trick, must_lead_suit
from tarneeb.rules import Rules
from tarneeb.scoring import DealResult
from tarneeb.seats import SEATS, Seat

__all__ = ["Observable", "View"]


class Observable(Protocol):
    """What a view is taken from: a :class:`~tarneeb.deal.Deal`'s public state and hands.

    (A protocol, so that this module needs nothing of :mod:`tarneeb.deal`.)
    """

    @property
    def rules(self) -> Rules: ...
    @property
    def dealer(self) -> Seat: ...
    @property
    def scores(self) -> tuple[int, int, int, int]: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> Seat | None: ...
    @property
    def hands(self) -> tuple[CardSet, CardSet, CardSet, CardSet]: ...
    @property
    def history(self) -> tuple[tuple[Seat, Action], ...]: ...
    @property
    def contract(self) -> Contract | None: ...
    @property
    def trump(self) -> Suit | None: ...
    @property
    def tricks(self) -> tuple[Trick, ...]: ...
    @property
    def current_trick(self) -> Trick | None: ...
    @property
    def tricks_taken(self) -> tuple[int, int, int, int]: ...
    @property
    def bids(self) -> tuple[int | None, int | None, int | None, int | None]: ...
    @property
    def played(self) -> CardSet: ...
    @property
    def legal_actions(self) -> Iterable[Action]: ...
    @property
    def result(self) -> DealResult | None: ...
    @property
    def thrown_in(self) -> ThrowIn | None: ...

    def hand(self, seat: Seat | int) -> CardSet: ...


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a deal, frozen at the moment it was taken."""

    seat: Seat
    rules: Rules
    dealer: Seat
    scores: tuple[int, int, int, int]
    """Each seat's score before this deal (its side's score in partnership play)."""
    phase: Phase
    to_act: Seat | None
    hand: CardSet
    """The cards this seat still holds."""
    history: tuple[tuple[Seat, Action], ...]
    """Every action of the deal so far, with who took it."""
    contract: Contract | None
    trump: Suit | None
    tricks: tuple[Trick, ...]
    current_trick: Trick | None
    tricks_taken: tuple[int, int, int, int]
    bids: tuple[int | None, int | None, int | None, int | None]
    played: CardSet
    hand_sizes: tuple[int, int, int, int]
    legal_actions: tuple[Action, ...]
    """The seat's legal actions, empty when it is not this seat's turn."""
    result: DealResult | None
    thrown_in: ThrowIn | None

    @classmethod
    def of(cls, deal: Observable, seat: Seat) -> View:
        """The view of ``seat`` on ``deal`` (use :meth:`Deal.view`)."""
        to_act = deal.to_act
        sizes = tuple(len(h) for h in deal.hands)
        return cls(
            seat=seat,
            rules=deal.rules,
            dealer=deal.dealer,
            scores=deal.scores,
            phase=deal.phase,
            to_act=to_act,
            hand=deal.hand(seat),
            history=deal.history,
            contract=deal.contract,
            trump=deal.trump,
            tricks=deal.tricks,
            current_trick=deal.current_trick,
            tricks_taken=deal.tricks_taken,
            bids=deal.bids,
            played=deal.played,
            hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
            legal_actions=tuple(deal.legal_actions) if to_act == seat else (),
            result=deal.result,
            thrown_in=deal.thrown_in,
        )

    @property
    def is_my_turn(self) -> bool:
        return self.to_act == self.seat

    @functools.cached_property
    def shown_voids(
        self,
    ) -> tuple[frozenset[Suit], frozenset[Suit], frozenset[Suit], frozenset[Suit]]:
        """For each seat, the suits it has shown it does not hold.

        A seat that failed to follow has none of the suit led; under
        ``first_lead_trump``, a first lead that is not a trump shows that the
        leader holds no trump.
        """
        out: list[set[Suit]] = [set(), set(), set(), set()]
        current = (self.current_trick,) if self.current_trick else ()
        tricks = (*self.tricks, *current)
        for trick in tricks:
            if not trick.cards:
                continue
            led = trick.cards[0].suit
            for i, card in enumerate(trick.cards):
                if card.suit != led:
                    out[trick.seat_of(i)].add(led)
        first = tricks[0].cards if tricks else ()
        trump = -1 if self.trump is None else int(self.trump)
        must = must_lead_suit(self.rules.first_lead_trump, trump, 0)  # the first lead's rule
        if must >= 0 and first and first[0].suit != must:
            out[tricks[0].leader].add(Suit(must))
        return frozenset(out[0]), frozenset(out[1]), frozenset(out[2]), frozenset(out[3])

    def voids(self, seat: Seat | int) -> frozenset[Suit]:
        """The suits ``seat`` has shown out of, by failing to follow."""
        return self.shown_voids[seat]

    def sample_hands(self, rng: random.Random, tries: int = 1000) -> tuple[int, int, int, int]:
        """A layout of the cards still held that this seat cannot tell from the real one.

        This seat's own hand as it is; the cards it has not seen dealt anew to
        the others, as many as each holds, none of a suit a seat has shown it
        does not hold. For search over hidden cards and tests of hidden
        information.

        :raises ValueError: when no such layout was found in ``tries`` attempts.
        """
        me = self.seat
        others = [s for s in SEATS if s != me]
        voids = self.shown_voids
        unseen = list(self.unseen())
        allowed = {c: [s for s in others if c.suit not in voids[s]] for c in unseen}
        for _ in range(tries):
            rng.shuffle(unseen)
            unseen.sort(key=lambda c: len(allowed[c]))  # the most constrained cards first
            left = {s: self.hand_sizes[s] for s in others}
            hands = [0, 0, 0, 0]
            hands[me] = self.hand.mask
            for card in unseen:
                seats = [s for s in allowed[card] if left[s]]
                if not seats:
                    break
                seat = rng.choices(seats, weights=[left[s] for s in seats])[0]
                hands[seat] |= 1 << card
                left[seat] -= 1
            else:
                return hands[0], hands[1], hands[2], hands[3]
        raise ValueError(f"no layout of the unseen cards fits what {me.name.title()} has seen")

    def unseen(self) -> CardSet:
        """The cards this seat has not seen: in the other three hands."""
        return CardSet(((1 << 52) - 1) & ~self.hand.mask & ~self.played.mask)

    def possible_holdings(self, seat: Seat | int) -> CardSet:
        """The cards ``seat`` may still hold, from what this seat has seen."""
        if seat == self.seat:
            return self.hand
        mask = self.unseen().mask
        for suit in self.voids(seat):
            mask &= ~SUIT_MASKS[suit]
        return CardSet(mask)
