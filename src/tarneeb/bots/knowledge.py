"""What a seat can infer about the hidden cards, from its view alone.

Card counting and void inference, shared by the bots: which cards are still
out, which seat can still hold each, which cards are masters (no higher card
of the suit is out), how many trumps the others may hold.

>>> from tarneeb import Deal, Seat, find_rules
>>> deal = Deal(find_rules("classic"), Seat.WEST, ["AKQJT98765432...", ".AKQJT98765432..",
...     "..AKQJT98765432.", "...AKQJT98765432"])
>>> for action in ["7", "pass", "pass", "pass", "H", "AS", "AH"]:
...     deal.push(action)
>>> know = Knowledge.of(deal.view(Seat.NORTH))
>>> sorted(know.voids[Seat.EAST])
[Suit.SPADES]
>>> Card.parse("KS") in know.possible(Seat.EAST)
False
"""

from __future__ import annotations

from dataclasses import dataclass

from tarneeb.cards import FULL_MASK, SUIT_MASKS, Card, CardSet, Suit
from tarneeb.play import Trick, beats, winning_index
from tarneeb.seats import Seat
from tarneeb.view import View

__all__ = ["Knowledge"]


@dataclass(frozen=True)
class Knowledge:
    """One seat's inferences about the cards it cannot see."""

    seat: Seat
    hand: int
    """This seat's cards, as a mask."""
    played: int
    """Every card played so far."""
    voids: tuple[frozenset[Suit], frozenset[Suit], frozenset[Suit], frozenset[Suit]]
    """The suits each seat has shown out of."""
    trump: Suit | None

    @classmethod
    def of(cls, view: View) -> Knowledge:
        return cls(view.seat, view.hand.mask, view.played.mask, view.shown_voids, view.trump)

    @property
    def unseen(self) -> int:
        """Cards held by the other three seats (mask)."""
        return FULL_MASK & ~self.hand & ~self.played

    def possible(self, seat: Seat | int) -> CardSet:
        """The cards ``seat`` can still hold."""
        if seat == self.seat:
            return CardSet(self.hand)
        mask = self.unseen
        for suit in self.voids[seat]:
            mask &= ~SUIT_MASKS[suit]
        return CardSet(mask)

    def can_hold(self, seat: Seat | int, suit: Suit) -> bool:
        """Whether ``seat`` may still hold a card of ``suit``."""
        return bool(self.possible(seat).mask & SUIT_MASKS[suit])

    def out_in_suit(self, suit: Suit) -> int:
        """The cards of ``suit`` the other seats hold between them (mask)."""
        return self.unseen & SUIT_MASKS[suit]

    def is_master(self, card: int) -> bool:
        """Whether no card of the same suit above ``card`` is still out."""
        suit_top = SUIT_MASKS[card // 13]
        above = suit_top & ~((2 << card) - 1)
        return not self.unseen & above

    def masters(self) -> CardSet:
        """This seat's cards that no outstanding card of their suit beats."""
        return CardSet(sum(1 << c for c in CardSet(self.hand) if self.is_master(c)))

    def trumps_out(self) -> int:
        """How many trumps the other three seats hold between them."""
        if self.trump is None:
            return 0
        return (self.unseen & SUIT_MASKS[self.trump]).bit_count()

    def opponents_may_ruff(self, suit: Suit) -> bool:
        """Whether an opponent has shown out of ``suit`` and may hold a trump."""
        if self.trump is None or suit == self.trump:
            return False
        return any(
            suit in self.voids[opp] and self.can_hold(opp, self.trump)
            for opp in (Seat((self.seat + 1) & 3), Seat((self.seat + 3) & 3))
        )

    def is_sure_winner(self, card: int) -> bool:
        """Whether ``card``, led now, wins the trick for all this seat can tell.

        It is the master of its suit, and no opponent known to be out of the
        suit may still hold a trump to ruff it.
        """
        if not self.is_master(card):
            return False
        suit = Suit(card // 13)
        if self.trump is None or suit == self.trump:
            return True
        return not any(
            not self.can_hold(opp, suit) and self.can_hold(opp, self.trump)
            for opp in (Seat((self.seat + 1) & 3), Seat((self.seat + 3) & 3))
        )

    def holds(self, best: int, trick: Trick) -> bool:
        """Whether ``best``, the card winning ``trick`` now, will hold against the players
        still to play after this seat, for all this seat can tell: an opponent who may
        still hold the suit led is taken to follow it (and to beat ``best`` only with a
        higher card of it), one shown out of it to ruff where it may hold a trump."""
        led = trick.cards[0] // 13
        trump = -1 if self.trump is None else int(self.trump)
        above = ~((2 << best) - 1)
        for i in range(1, 4 - len(trick.cards)):
            opp = Seat((self.seat + i) & 3)
            if opp.team == self.seat.team:
                continue
            possible = self.possible(opp).mask
            if possible & SUIT_MASKS[led]:
                if best // 13 == led and possible & SUIT_MASKS[led] & above:
                    return False
            elif (
                trump >= 0
                and possible & SUIT_MASKS[trump]
                and (best // 13 != trump or possible & SUIT_MASKS[trump] & above)
            ):
                return False
        return True

    def partner_holds(self, trick: Trick) -> Card | None:
        """Partner's card in ``trick``, if it wins the trick now and will hold
        (:meth:`holds`) unless this seat takes it from partner: partner's sure winner,
        which no good partner overtakes or ruffs without a reason.

        >>> from tarneeb import Deal, Seat, find_rules
        >>> deal = Deal(find_rules("classic"), Seat.WEST, ["AKQ2.AK32.AK3.A2",
        ...     "J543.QJ54.QJ4.K3", "T976.T976.T9.QJ4", "8.8.87652.T98765"])
        >>> for action in "7 pass pass pass D AS 3S".split():  # South's ace of spades
        ...     deal.push(action)
        >>> view = deal.view(Seat.NORTH)
        >>> Knowledge.of(view).partner_holds(view.current_trick)
        Card('AS')
        >>> for action in "6S 8S KS 4S 7S 2D 8H AH 4H 6H QS 5S".split():  # West ruffed
        ...     deal.push(action)
        >>> view = deal.view(Seat.NORTH)  # West, to play last, may ruff the queen too
        >>> Knowledge.of(view).partner_holds(view.current_trick) is None
        True
        """
        if len(trick.cards) < 2:
            return None
        partner = len(trick.cards) - 2
        if winning_index(trick.cards, -1 if self.trump is None else int(self.trump)) != partner:
            return None
        best = trick.cards[partner]
        return best if self.holds(best, trick) else None

    def beats(self, card: int, best: int) -> bool:
        """Whether ``card`` beats ``best`` (the card now winning a trick): :func:`tarneeb.play.beats`."""
        return beats(card, best, -1 if self.trump is None else int(self.trump))

    def highest_out_above(self, card: int) -> Card | None:
        """The highest outstanding card of ``card``'s suit above it, if any."""
        above = SUIT_MASKS[card // 13] & ~((2 << card) - 1) & self.unseen
        return Card(above.bit_length() - 1) if above else None
