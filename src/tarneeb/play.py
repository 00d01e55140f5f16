"""The card play's rules as pure functions over ints: legal cards, trick winner, card points.

Cards are ints 0..51 (``13 * suit + rank``, rank 0 the two, 12 the ace), a
hand is a 52-bit mask, a suit 0..3 and "no trump" ``-1``. Everything that
plays cards (:class:`~tarneeb.deal.Deal`, :class:`~tarneeb.view.View`, the
solver, the bots' knowledge, the environments) asks this module, so each rule
of the play is written once:

* **following**: a player must follow the suit led when they can, else may
  play any card (:func:`legal_mask`, :func:`legal_cards`);
* **the first lead** under ``first_lead_trump`` must be a trump when the
  leader holds one (the ``must_lead`` argument);
* **the trick**: the highest trump wins it, or, with no trump in it, the
  highest card of the suit led (:func:`strength`, from which
  :func:`beats`, :func:`winning_index`, :func:`trick_winner` and the
  precomputed :func:`strength_table` follow);
* **card points**: A 11, 10 10, K 4, Q 3, J 2 (:data:`POINTS`).

>>> from tarneeb.cards import Card, CardSet
>>> hand = CardSet.parse("AK.Q..5432").mask
>>> [str(Card(c)) for c in legal_cards(hand, lead=2)]  # hearts led: follow
['QH']
>>> len(legal_cards(hand, lead=1))  # diamonds led, none held: any card
7
>>> trick = [Card.parse(c) for c in ("KH", "AH", "2S", "QH")]
>>> winning_index(trick, trump=3), winning_index(trick, trump=-1)
(2, 1)
>>> trick_winner(1, trick, trump=3)  # East led; the third card, North's, wins
3
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tarneeb.cards import FULL_MASK, SUIT_MASKS, Card, CardSet
from tarneeb.errors import InvalidActionError
from tarneeb.seats import SEATS, Seat

__all__ = [
    "POINTS",
    "SHIFTS",
    "STRENGTH_TABLES",
    "SUIT_CARDS",
    "Trick",
    "beats",
    "hand_masks",
    "legal_cards",
    "legal_mask",
    "must_lead_suit",
    "play_out",
    "strength",
    "strength_table",
    "suit_cards",
    "trick_points",
    "trick_winner",
    "winning_index",
]

SHIFTS = (0, 13, 26, 39)
"""The bit offset of each suit in a hand mask."""

POINTS: tuple[int, ...] = tuple(
    (0, 0, 0, 0, 0, 0, 0, 0, 10, 2, 3, 4, 11)[c % 13] for c in range(52)
)
"""The card points of each card (A 11, 10 10, K 4, Q 3, J 2; 120 in the deck)."""

TOTAL_POINTS = sum(POINTS)
"""The card points in the deck, and so in a deal: 120."""

_SUIT_CARDS: list[list[tuple[int, ...]]] = []
SUIT_CARDS = _SUIT_CARDS
"""The table of :func:`suit_cards`, filled in place by its first call (for inlined loops)."""


def suit_cards() -> list[list[tuple[int, ...]]]:
    """For each suit and each 13-bit holding, the card ids it holds (built on first use).

    >>> suit_cards()[3][0b1000000000001]
    (39, 51)
    """
    if not _SUIT_CARDS:
        ranks = [tuple(r for r in range(13) if bits >> r & 1) for bits in range(8192)]
        _SUIT_CARDS.extend([tuple(r + 13 * s for r in rs) for rs in ranks] for s in range(4))
    return _SUIT_CARDS


def must_lead_suit(first_lead_trump: bool, trump: int, cards_played: int) -> int:
    """The suit the next lead must be when the leader holds it (``-1``: any).

    Under ``first_lead_trump`` the first lead of the deal must be a trump.
    """
    return trump if first_lead_trump and trump >= 0 and not cards_played else -1


def legal_mask(hand: int, lead: int = -1, must_lead: int = -1) -> int:
    """The cards of ``hand`` that may be played (a mask).

    :param lead: the suit led to this trick, ``-1`` when this card leads it.
    :param must_lead: when leading, a suit the lead must be when the hand
        holds it (see :func:`must_lead_suit`), else ``-1``.
    """
    if lead >= 0:
        return hand & SUIT_MASKS[lead] or hand
    if must_lead >= 0:
        return hand & SUIT_MASKS[must_lead] or hand
    return hand


def legal_cards(hand: int, lead: int = -1, must_lead: int = -1) -> tuple[int, ...]:
    """The cards of :func:`legal_mask`, as card ids from the lowest up."""
    cards = _SUIT_CARDS or suit_cards()
    suit = lead if lead >= 0 else must_lead
    if suit >= 0:
        follow = cards[suit][hand >> SHIFTS[suit] & 0x1FFF]
        if follow:
            return follow
    return (
        cards[0][hand & 0x1FFF]
        + cards[1][hand >> 13 & 0x1FFF]
        + cards[2][hand >> 26 & 0x1FFF]
        + cards[3][hand >> 39]
    )


def card_ids(mask: int) -> tuple[int, ...]:
    """The card ids of ``mask``, lowest first: :func:`legal_cards` with no suit to follow
    (its tables; the solver's hot path keeps its own lookups inline).

    >>> card_ids(0b101)
    (0, 2)
    """
    return legal_cards(mask)


def strength(card: int, lead: int, trump: int) -> int:
    """How strongly ``card`` bids for a trick led in suit ``lead`` with ``trump``.

    The rule of the trick in one place: a trump is above every other card, a
    card of the suit led above every discard, and within a suit the higher
    rank wins. Discards are 0 and never win; the card that leads is never a
    discard. The trick goes to the card of greatest strength.
    """
    suit = card // 13
    if suit == trump:
        return 28 + card % 13
    if suit == lead:
        return 14 + card % 13
    return 0


_STRENGTH: list[tuple[int, ...]] = [
    tuple(strength(c, lead, trump) for c in range(52))
    for lead in range(4)
    for trump in range(-1, 4)
]


def strength_table(lead: int, trump: int) -> tuple[int, ...]:
    """:func:`strength` of every card for one suit led and trump, precomputed (hot loops).

    >>> table = strength_table(lead=0, trump=-1)
    >>> table[12] > table[11] > table[51] == 0
    True
    """
    return _STRENGTH[lead * 5 + trump + 1]


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card now winning it.

    ``best`` is of the suit led or a trump, so its own suit stands for the lead.
    """
    lead = best // 13
    return strength(card, lead, trump) > strength(best, lead, trump)


def winning_index(cards: Sequence[int], trump: int) -> int:
    """Which of the cards of a trick (the lead first, any number of them) wins it so far."""
    table = _STRENGTH[cards[0] // 13 * 5 + trump + 1]
    best = 0
    top = table[cards[0]]
    for i in range(1, len(cards)):
        s = table[cards[i]]
        if s > top:
            best, top = i, s
    return best


def trick_winner(leader: int, cards: Sequence[int], trump: int) -> int:
    """The seat (0..3) that wins the trick ``leader`` led with ``cards``."""
    return (leader + winning_index(cards, trump)) & 3


def trick_points(cards: Sequence[int]) -> int:
    """The card points of a trick's cards."""
    return sum(POINTS[c] for c in cards)


def play_out(
    hands: list[int],
    played: list[int],
    winners: list[int],
    tricks: list[int],
    trump: int,
    first_lead_trump: bool,
    seat: int,
    leader: int,
    rand: Callable[[], float],
) -> int:
    """Play the rest of a deal with uniformly random legal cards, in one tight loop over ints.

    The bots' fast path (:meth:`tarneeb.deal.Deal.playout`): ``hands`` (by
    seat), ``played`` (every card so far), ``winners`` (each trick's) and
    ``tricks`` (won by seat) are updated in place; ``seat`` is to play to the
    trick ``leader`` led (under way or not). Returns the last trick's winner.
    """
    cards = suit_cards()
    c0, c1, c2, c3 = cards
    by_lead = [_STRENGTH[lead * 5 + trump + 1] for lead in range(4)]  # this trump's tables
    first = first_lead_trump and trump >= 0 and not played
    append = played.append
    n = len(played) & 3
    top = best_seat = shift = 0
    table: tuple[int, ...] = ()
    follow: list[tuple[int, ...]] = c0
    if n:
        # Resume a trick under way: its suit led and the card winning it so far.
        lead = played[-n] // 13
        follow, shift, table = cards[lead], SHIFTS[lead], by_lead[lead]
        i = winning_index(played[-n:], trump)
        top = table[played[-n + i]]
        best_seat = (leader + i) & 3
    for _ in range(52 - len(played)):
        hand = hands[seat]
        if n:
            legal = follow[hand >> shift & 0x1FFF]
            if not legal:
                legal = (
                    c0[hand & 0x1FFF]
                    + c1[hand >> 13 & 0x1FFF]
                    + c2[hand >> 26 & 0x1FFF]
                    + c3[hand >> 39]
                )
            card = legal[int(rand() * len(legal))]
            hands[seat] = hand ^ (1 << card)
            append(card)
            if table[card] > top:
                top = table[card]
                best_seat = seat
            if n == 3:
                winners.append(best_seat)
                tricks[best_seat] += 1
                seat = best_seat
                n = 0
            else:
                seat = (seat + 1) & 3
                n += 1
            continue
        legal = ()
        if first:
            legal = cards[trump][hand >> SHIFTS[trump] & 0x1FFF]
            first = False
        if not legal:
            legal = (
                c0[hand & 0x1FFF]
                + c1[hand >> 13 & 0x1FFF]
                + c2[hand >> 26 & 0x1FFF]
                + c3[hand >> 39]
            )
        card = legal[int(rand() * len(legal))]
        hands[seat] = hand ^ (1 << card)
        append(card)
        lead = card // 13
        follow, shift, table = cards[lead], SHIFTS[lead], by_lead[lead]
        top = table[card]
        best_seat = seat
        seat = (seat + 1) & 3
        n = 1
    return seat


def hand_masks(hands: Sequence[int | CardSet | str]) -> tuple[int, ...]:
    """The four hands of a deal as masks (from masks, card sets or text), checked.

    :raises InvalidActionError: unless they are 13 cards each of one deck.
    """
    masks = tuple(_hand_mask(h) for h in hands)
    if len(masks) != 4:
        raise InvalidActionError(f"a deal needs 4 hands, not {len(masks)}")
    union = 0
    for seat, mask in enumerate(masks):
        if mask.bit_count() != 13 or union & mask:  # named only here: deals are made often
            name = SEATS[seat].name.title()
            if mask.bit_count() != 13:
                raise InvalidActionError(f"{name}'s hand has {mask.bit_count()} cards, not 13")
            raise InvalidActionError(f"{name}'s hand repeats another hand's card")
        union |= mask
    return masks


def _hand_mask(hand: int | CardSet | str) -> int:
    if type(hand) is int and 0 <= hand <= FULL_MASK:
        return hand
    if isinstance(hand, CardSet):
        return hand.mask
    if isinstance(hand, str):
        return CardSet.parse(hand).mask
    if isinstance(hand, int) and 0 <= hand <= FULL_MASK:
        return hand
    raise InvalidActionError(f"{hand!r} is not a hand")


STRENGTH_TABLES: tuple[tuple[int, ...], ...] = tuple(_STRENGTH)
"""All the :func:`strength_table` tables, at ``lead * 5 + trump + 1`` (for inlined loops)."""


@dataclass(frozen=True)
class Trick:
    """A trick, complete or under way."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None = None

    def seat_of(self, index: int) -> Seat:
        """Who played ``cards[index]``."""
        return Seat((self.leader + index) & 3)

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple((self.seat_of(i), c) for i, c in enumerate(self.cards))
