"""Per-suit facts for our own solver (``own``), each computed once and cached.

A suit is seen as a word of four 13-bit holdings side by side (seat 0 lowest);
the facts are what the search asks of it again and again: the cards worth
searching, its relative layout (for partition keys), the top cards, the quick
tricks it gives a leader, and the sure trump tricks of DDS's "later tricks"
rules. The caches are plain dicts, cleared by the solver when they grow large.
"""

from __future__ import annotations

_M = 0x1FFF
_SHIFTS = (0, 13, 26, 39)

# For a suit: (cards still out << 13 | one hand's holding) -> that hand's cards
# that head no equivalent lower card, as ranks ascending (filled on first use).
_REPS: dict[int, tuple[int, ...]] = {}
# For a suit: the four holdings side by side (13 bits each) -> the relative
# layout (the owner of each card still out, highest first, and their number).
_LAYOUT: dict[int, int] = {}
# ``_reps`` as card numbers, keyed with the suit: ``suit << 26 | present << 13 | holding``.
_CARDS: dict[int, tuple[int, ...]] = {}


def _reps(key: int) -> tuple[int, ...]:
    out = _REPS.get(key)
    if out is None:
        present = key >> 13
        hand = key & _M
        reps: list[int] = []
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            # A run starts where the next card below still out is not the hand's.
            below = present & (low - 1)
            if not below or not hand >> (below.bit_length() - 1) & 1:
                reps.append(low.bit_length() - 1)
        out = _REPS[key] = tuple(reps)
    return out


def _cards(key: int) -> tuple[int, ...]:
    """``_reps`` as card numbers, for ``suit << 26 | present << 13 | holding``."""
    out = _CARDS.get(key)
    if out is None:
        base = 13 * (key >> 26)
        out = _CARDS[key] = tuple(base + r for r in _reps(key & 0x3FFFFFF))
    return out


# For a seat and a card: the card's bit in its suit's word of four holdings.
_SUIT_BIT = tuple(tuple(1 << (13 * seat + c % 13) for c in range(52)) for seat in range(4))
# A position's key: the seat on lead, then a field of ``_F`` bits for each suit,
# spades highest: each hand's length in the suit (4 bits each) << 30 | the layout.
_F = 46
# The part of a key every position of one partition shares: leader and lengths.
_LENS = 3 << (4 * _F) | sum(0xFFFF << (30 + _F * s) for s in range(4))
# ``holding << 4 | k`` -> the k-th highest card of the holding (a bit; 0 for k 0).
_KTH: dict[int, int] = {}


def _kth(p: int, k: int) -> int:
    bit = 0
    rest = p
    for _ in range(k):
        bit = 1 << (rest.bit_length() - 1)
        rest ^= bit
    _KTH[p << 4 | k] = bit
    return bit


def _layout(key: int) -> int:
    """A suit's field of a key from its four holdings side by side (13 bits each)."""
    out = _LAYOUT.get(key)
    if out is None:
        h0, h1, h2, h3 = key & _M, key >> 13 & _M, key >> 26 & _M, key >> 39
        rest = h0 | h1 | h2 | h3
        code = count = 0
        while rest:
            top = 1 << (rest.bit_length() - 1)
            code = code << 2 | (0 if h0 & top else 1 if h1 & top else 2 if h2 & top else 3)
            count += 1
            rest ^= top
        lengths = h0.bit_count() | h1.bit_count() << 4 | h2.bit_count() << 8 | h3.bit_count() << 12
        out = _LAYOUT[key] = lengths << 30 | code << 4 | count
    return out


# For one suit, ``word << 2 | leader`` (the word: the four holdings side by side,
# 13 bits each) -> what quick tricks need to know of it, seen from the leader:
# the leader's length, partner's, the left-hand and the right-hand opponent's;
# the leader's top cards above all the others'; the tricks it cashes while every
# seat follows; whether it can cross to partner's next card after those; and
# whether partner holds the top card of a suit the leader has.
_FACTS: dict[int, tuple[int, int, int, int, int, int, bool, bool]] = {}


def _seen_from(word: int, leader: int) -> tuple[int, int, int, int]:
    """A suit's word as the leader's holding, partner's, the left-hand and the
    right-hand opponent's."""
    return (
        word >> (13 * leader) & _M,
        word >> (13 * (leader ^ 2)) & _M,
        word >> (13 * ((leader + 1) & 3)) & _M,
        word >> (13 * ((leader + 3) & 3)) & _M,
    )


def _facts(key: int) -> tuple[int, int, int, int, int, int, bool, bool]:
    x, p, c, d = _seen_from(key >> 2, key & 3)
    nx, nb, nc, nd = x.bit_count(), p.bit_count(), c.bit_count(), d.bit_count()
    run = (x >> (p | c | d).bit_length()).bit_count()
    cash = run if run < nb or run < nc or run < nd else nx
    cross = nx > run and nb > run and p.bit_length() > (c | d).bit_length()
    top = nx > 0 and p.bit_length() > (x | c | d).bit_length()
    out = _FACTS[key] = (nx, nb, nc, nd, run, cash, cross, top)
    return out


# For the trump suit's word: the side holding the top trump (-1: no trumps
# left) and the tricks it is sure of with its top trumps: each wins when
# played, one at a time, so at least as many as the longer of its two hands has
# trumps, up to the number of those top trumps. (That count relies on the side
# holding that many of the top trumps, whatever holds the next.)
_TOPS: dict[int, tuple[int, int]] = {}


def _tops(word: int) -> tuple[int, int]:
    t0, t1, t2, t3 = word & _M, word >> 13 & _M, word >> 26 & _M, word >> 39
    alltr = t0 | t1 | t2 | t3
    if not alltr:
        out = _TOPS[word] = (-1, 0)
        return out
    top = 1 << (alltr.bit_length() - 1)
    side = 0 if (t0 | t2) & top else 1
    a, b = (t0, t2) if side == 0 else (t1, t3)
    run = ((a | b) >> (alltr & ~(a | b)).bit_length()).bit_count()
    out = _TOPS[word] = (side, min(run, max(a.bit_count(), b.bit_count())))
    return out


# For the trump suit, ``word << 2 | leader``: how many top trumps prove that
# the side without the top trump takes a trick (0: no proof), DDS's "later
# tricks" rules. That side holds the second-best trump and another, and
# (2) sits just after the top trump: then, whenever the other side leads, it
#     plays after the top trump, keeps a small trump for the top trump's
#     trick and wins whenever it plays the second-best; or
# (3) holds the third-best trump as well: the top trump can take only one of
#     the two unless both fall in its trick, which the holder of the
#     second-best, with a trump to spare, need not allow.
# When that side is on lead, the holder of the second-best must not be the
# leader (it might have only trumps to lead).
_LATER: dict[int, int] = {}


def _later(key: int) -> int:
    word = key >> 2
    hs = (word & _M, word >> 13 & _M, word >> 26 & _M, word >> 39)
    order: list[int] = []
    rest = hs[0] | hs[1] | hs[2] | hs[3]
    while rest and len(order) < 3:
        top = 1 << (rest.bit_length() - 1)
        rest ^= top
        order.append(0 if hs[0] & top else 1 if hs[1] & top else 2 if hs[2] & top else 3)
    out = 0
    if len(order) > 1 and (order[0] ^ order[1]) & 1 and order[1] != key & 3:
        second = order[1]
        if hs[second].bit_count() > 1:
            if order[0] == (second + 3) & 3:
                out = 2
            elif len(order) > 2 and (order[2] ^ second) & 1 == 0:
                out = 3
    _LATER[key] = out
    return out
