"""The values the solvers share: a card-play position, its solution, a double-dummy table.

A :class:`Position` is everything double-dummy play needs: the cards each seat
still holds (bitmasks, the current trick's cards taken out), the trump suit or
``None`` for no-trump, the seat that led the current trick and the cards
already in it. Tricks are counted from the position on, the current trick
included, for the side of the seat to play.

>>> from tarneeb.cards import CardSet
>>> hands = [CardSet.parse(t).mask for t in ("A...", "K...", "Q...", "J...")]
>>> position = Position(hands, trump=None, leader=Seat.SOUTH)
>>> position.to_play, position.tricks_left
(Seat.SOUTH, 1)
>>> position.play(Card.parse("AS")).to_play
Seat.EAST
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tarneeb import play
from tarneeb.actions import Strain
from tarneeb.cards import FULL_MASK, Card, CardSet, Suit
from tarneeb.errors import TarneebError
from tarneeb.play import legal_mask
from tarneeb.seats import Seat

if TYPE_CHECKING:
    from tarneeb.deal import Deal

__all__ = ["DDTable", "Position", "PositionError", "Solution", "SolverError", "SolverTimeout"]

_SEAT_NAMES = ("South", "East", "North", "West")


class SolverError(TarneebError):
    """A solver cannot run (its backend is missing) or failed."""


class PositionError(SolverError):
    """The cards given are not a position of card play."""


class SolverTimeout(SolverError):
    """A search ran past the deadline it was given, and stopped without an answer.

    The solver that raised it stays usable: what its tables hold is sound.
    """


def _mask_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True, init=False)
class Position:
    """A position of double-dummy card play.

    :param hands: the cards each seat still holds, by seat (masks or card sets);
        cards already in the current trick are not in them.
    :param trump: the trump suit, or ``None`` for no-trump.
    :param leader: the seat that led the current trick (or is to lead it).
    :param trick: the cards already played to the current trick, in order (0 to 3).
    :param lead_trump: the lead must be a trump when the leader holds one (the
        first lead under ``Rules.first_lead_trump``); only with an empty trick.
    :raises PositionError: when the hands and the trick are not a position:
        a card twice, hands of the wrong sizes, a trick of four cards.
    """

    hands: tuple[int, int, int, int]
    trump: Suit | None
    leader: Seat
    trick: tuple[Card, ...] = ()
    lead_trump: bool = False

    def __init__(
        self,
        hands: Sequence[int | CardSet],
        trump: Suit | int | None,
        leader: Seat | int,
        trick: Sequence[int] = (),
        lead_trump: bool = False,
    ) -> None:
        masks = tuple(h.mask if isinstance(h, CardSet) else int(h) for h in hands)
        if len(masks) != 4:
            raise PositionError(f"a position needs 4 hands, not {len(masks)}")
        if not 0 <= int(leader) < 4:
            raise PositionError(f"leader {leader!r} is not a seat (0..3)")
        if trump is not None and not 0 <= int(trump) < 4:
            raise PositionError(f"trump {trump!r} is not a suit (0..3) or None")
        cards = tuple(Card(int(c)) for c in trick)
        if len(cards) > 3:
            raise PositionError(f"a trick under way has 0 to 3 cards, not {len(cards)}")
        seen = 0
        for seat, mask in enumerate(masks):
            if not 0 <= mask <= FULL_MASK:
                raise PositionError(f"{_SEAT_NAMES[seat]}'s hand {mask!r} is not a card mask")
            if seen & mask:
                card = Card((seen & mask).bit_length() - 1)
                raise PositionError(f"{card} is in two hands")
            seen |= mask
        for card in cards:
            if seen >> card & 1:
                raise PositionError(f"{card} is both in the trick and in a hand")
            seen |= 1 << card
        lead = int(leader)
        size = masks[lead].bit_count()
        for i in range(1, 4):
            seat = (lead + i) & 3
            got = masks[seat].bit_count()
            want = size if i < len(cards) or not cards else size + 1
            if got != want:
                raise PositionError(
                    f"{_SEAT_NAMES[seat]} holds {got} cards where {want} are expected "
                    f"(the leader {_SEAT_NAMES[lead]} holds {size}, {len(cards)} in the trick)"
                )
        object.__setattr__(self, "hands", masks)
        object.__setattr__(self, "trump", None if trump is None else Suit(int(trump)))
        object.__setattr__(self, "leader", Seat(lead))
        object.__setattr__(self, "trick", cards)
        object.__setattr__(self, "lead_trump", bool(lead_trump) and not cards)

    @classmethod
    def from_deal(cls, deal: Deal) -> Position:
        """The position of ``deal`` in its play phase, as it stands.

        :raises PositionError: when the deal is not in the play phase.
        """
        trick = deal.current_trick
        if trick is None or deal.is_over():
            raise PositionError(f"the deal is not in the play phase ({deal.phase})")
        first = deal.rules.first_lead_trump and not len(deal.played)
        hands = tuple(h.mask for h in deal.hands)
        return cls(hands, deal.trump, trick.leader, trick.cards, lead_trump=first)

    @property
    def to_play(self) -> Seat:
        """The seat whose card it is."""
        return Seat((self.leader + len(self.trick)) & 3)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, the current one included."""
        return self.hands[self.leader].bit_count() + (1 if self.trick else 0)

    @property
    def strain(self) -> Strain:
        return Strain.NO_TRUMP if self.trump is None else Strain(self.trump)

    def legal_mask(self) -> int:
        """The cards the seat to play may play, as a mask."""
        lead = self.trick[0] // 13 if self.trick else -1
        must = int(self.trump) if self.lead_trump and self.trump is not None else -1
        return legal_mask(self.hands[self.to_play], lead, must)

    def legal_cards(self) -> tuple[Card, ...]:
        return tuple(Card(c) for c in _mask_cards(self.legal_mask()))

    def play(self, card: int) -> Position:
        """The position after the seat to play plays ``card`` (a completed trick is cleared).

        :raises PositionError: when ``card`` is not legal here.
        """
        if not self.legal_mask() >> card & 1:
            raise PositionError(f"{_SEAT_NAMES[self.to_play]} cannot play {Card(card)} here")
        hands = list(self.hands)
        hands[self.to_play] ^= 1 << card
        trick = (*self.trick, Card(card))
        if len(trick) < 4:
            return Position(hands, self.trump, self.leader, trick)
        return Position(hands, self.trump, trick_winner(self.leader, trick, self.trump))

    def __repr__(self) -> str:
        hands = ", ".join(f"{CardSet(h).format()!r}" for h in self.hands)
        extra = f", trick={tuple(str(c) for c in self.trick)!r}" if self.trick else ""
        if self.lead_trump:
            extra += ", lead_trump=True"
        return f"Position.parse([{hands}], trump={self.trump!r}, leader={self.leader!r}{extra})"

    @classmethod
    def parse(
        cls,
        hands: Sequence[str],
        trump: Suit | int | None,
        leader: Seat | int,
        trick: Sequence[str] = (),
        lead_trump: bool = False,
    ) -> Position:
        """A position from hands and trick cards as text (``"AKQ.JT9.8.765"``, ``"AS"``)."""
        return cls(
            [CardSet.parse(h).mask for h in hands],
            trump,
            leader,
            [Card.parse(c) for c in trick],
            lead_trump,
        )


def trick_winner(leader: int, cards: Sequence[int], trump: int | None) -> Seat:
    """The seat that wins a complete trick led by ``leader`` (:func:`tarneeb.play.trick_winner`)."""
    return Seat(play.trick_winner(leader, cards, -1 if trump is None else int(trump)))


@dataclass(frozen=True)
class Solution:
    """What best play gives from a position, for the side of the seat to play.

    ``tricks`` counts the tricks that side takes from here, the current trick
    included; ``values`` gives, for every legal card, the tricks it keeps when
    played (best play after it by all).
    """

    position: Position
    tricks: int
    values: Mapping[Card, int] = field(default_factory=dict)

    @property
    def seat(self) -> Seat:
        return self.position.to_play

    @property
    def best_cards(self) -> tuple[Card, ...]:
        """The legal cards that keep every trick (lowest first)."""
        return tuple(sorted(c for c, v in self.values.items() if v == self.tricks))

    def cost(self, card: int) -> int:
        """Tricks that playing ``card`` gives away against best play (0 for a best card)."""
        return self.tricks - self.values[Card(card)]


class DDTable:
    """Double-dummy tricks for each strain with each seat as declarer.

    In Tarneeb the declarer leads, so ``table[strain][seat]`` counts the tricks
    of ``seat``'s side out of 13 when ``seat`` leads the first trick.
    """

    __slots__ = ("strains", "tricks")

    def __init__(self, tricks: Mapping[Strain, Sequence[int]]) -> None:
        self.tricks: dict[Strain, tuple[int, int, int, int]] = {}
        for strain, row in tricks.items():
            a, b, c, d = (int(x) for x in row)
            self.tricks[Strain(strain)] = (a, b, c, d)
        self.strains: tuple[Strain, ...] = tuple(self.tricks)

    def __getitem__(self, strain: Strain | int) -> tuple[int, int, int, int]:
        return self.tricks[Strain(strain)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DDTable):
            return NotImplemented
        return self.tricks == other.tricks

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{strain letter: {seat letter: tricks}}``, JSON-ready."""
        return {
            s.letter: {seat.letter: self.tricks[s][seat] for seat in Seat} for s in self.strains
        }

    def __repr__(self) -> str:
        rows = ", ".join(f"Strain.{s.name}: {self.tricks[s]}" for s in self.strains)
        return f"DDTable({{{rows}}})"
