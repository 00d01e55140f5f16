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

import dataclasses
import functools
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from tarneeb.actions import Action, Phase
from tarneeb.auction import Contract, ThrowIn
from tarneeb.cards import SUIT_MASKS, CardSet, Suit
from tarneeb.layouts import Layout, Layouts, LayoutWeight, NoLayoutError
from tarneeb.play import Trick, must_lead_suit
from tarneeb.rules import Rules
from tarneeb.scoring import DealResult
from tarneeb.seats import SEATS, Seat

__all__ = ["Layout", "LayoutWeight", "Layouts", "NoLayoutError", "Observable", "View"]


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

    def holding(self, hand: int, legal: int) -> View:
        """This view as it would be had this seat held ``hand``, with ``legal`` its legal
        cards (both masks).

        The public facts stay as they are, with what was already worked out of
        them (:attr:`shown_voids`, :attr:`played_by`); what depends on the hand
        (:attr:`layouts`) is worked out again when asked for. For a model of another
        seat's play, asked for many hands at one point of a deal
        (:mod:`tarneeb.bots.inference`): far cheaper than
        :func:`dataclasses.replace`, which checks and copies every field.

        >>> from tarneeb.deal import Deal
        >>> from tarneeb.presets import find_rules
        >>> view = Deal.from_seed(find_rules("classic"), dealer=0, seed=1).view(Seat.EAST)
        >>> other = view.holding(0b111, 0b11)
        >>> len(other.hand), [str(c) for c in other.legal_actions], other.history == view.history
        (3, ['2C', '3C'], True)
        """
        # The fields, and the public facts worked out once here for every copy; nothing
        # else worked out of this view is carried (it may depend on the hand).
        kept = self.__dict__
        other = object.__new__(View)
        facts = other.__dict__
        facts.update({name: kept[name] for name in _FIELDS})
        facts["shown_voids"] = self.shown_voids
        facts["played_by"] = self.played_by
        facts["hand"] = CardSet(hand)
        facts["legal_actions"] = tuple(reversed(CardSet(legal)))  # lowest first, as dealt
        return other

    def voids(self, seat: Seat | int) -> frozenset[Suit]:
        """The suits ``seat`` has shown out of, by failing to follow."""
        return self.shown_voids[seat]

    def sample_hands(self, rng: random.Random, tries: int = 1000) -> Layout:
        """A layout of the cards still held that this seat cannot tell from the real one.

        This seat's own hand as it is; the cards it has not seen dealt anew to
        the others, as many as each holds, none of a suit a seat has shown it
        does not hold. Every such layout is equally likely (:class:`Layouts`
        counts them and draws one exactly, without retries). For search over
        hidden cards and tests of hidden information.

        :param tries: unused (kept for callers of the earlier, retrying sampler).
        :raises NoLayoutError: when no layout fits what this seat has seen
            (only a view made by hand can be so).
        """
        del tries
        return self.layouts.sample(rng)

    def sample_layouts(
        self, rng: random.Random, count: int, weight: LayoutWeight | None = None
    ) -> list[tuple[Layout, float]]:
        """``count`` layouts drawn uniformly (:meth:`sample_hands`), each with its weight.

        ``weight(layout)`` says how likely the public actions are with those
        hands: the bids and passes of the auction, the cards played, or their
        product (use :meth:`dealt` for the hands as they were dealt). A
        weighted average over these layouts then estimates the average over
        layouts drawn in proportion to that likelihood (importance sampling).
        Without ``weight`` every weight is 1.0.

        >>> from tarneeb.deal import Deal
        >>> from tarneeb.presets import find_rules
        >>> view = Deal.from_seed(find_rules("classic"), dealer=0, seed=1).view(Seat.EAST)
        >>> drawn = view.sample_layouts(random.Random(1), 3, weight=lambda layout: 0.5)
        >>> [w for _, w in drawn], all(l[Seat.EAST] == view.hand.mask for l, _ in drawn)
        ([0.5, 0.5, 0.5], True)
        """
        out: list[tuple[Layout, float]] = []
        for _ in range(count):
            layout = self.layouts.sample(rng)
            out.append((layout, 1.0 if weight is None else float(weight(layout))))
        return out

    @functools.cached_property
    def layouts(self) -> Layouts:
        """Every layout of the hidden cards this seat cannot tell from the real one."""
        sizes = list(self.hand_sizes)
        sizes[self.seat] = 0
        return Layouts(
            self.unseen().mask,
            (sizes[0], sizes[1], sizes[2], sizes[3]),
            self.shown_voids,
            known=tuple(self.hand.mask if s == self.seat else 0 for s in SEATS),
        )

    @functools.cached_property
    def played_by(self) -> tuple[int, int, int, int]:
        """The cards each seat has played so far, as masks by seat."""
        out = [0, 0, 0, 0]
        current = (self.current_trick,) if self.current_trick else ()
        for trick in (*self.tricks, *current):
            for i, card in enumerate(trick.cards):
                out[trick.seat_of(i)] |= 1 << card
        return out[0], out[1], out[2], out[3]

    def dealt(self, layout: Layout) -> Layout:
        """The hands of ``layout`` as they were dealt: with the cards each seat has played."""
        p = self.played_by
        return layout[0] | p[0], layout[1] | p[1], layout[2] | p[2], layout[3] | p[3]

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


_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(View))
"""The names of a view's fields (what :meth:`View.holding` copies)."""
