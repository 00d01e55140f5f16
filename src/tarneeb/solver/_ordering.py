"""Move weights for our own solver (``own``): leads and discards, as DDS weighs
them (its ``MoveGen0`` and discard weights), cached per suit.
"""

from __future__ import annotations

from tarneeb.solver._suits import _LAYOUT, _M, _cards, _layout, _reps, _seen_from

# For a hand's cards of one suit, ``theirs << 28 | suit << 26 | present << 13 |
# holding`` (``theirs``: the other side holds the suit's top card): each card
# that heads no equivalent lower one, as a discard's weight << 6 | the card.
# As DDS weighs discards: from long suits, low cards first, and not from a
# doubleton holding the second-best card or a singleton top card; we add a
# preference for suits the other side heads.
_DISCARDS: dict[int, tuple[int, ...]] = {}


def _discards(key: int) -> tuple[int, ...]:
    present = key >> 13 & _M
    x = key & _M
    n = x.bit_count()
    weight = 16 + n * 8 // 3 + 5 * (key >> 28)
    top = 1 << (present.bit_length() - 1)
    if (n == 2 and x & 1 << ((present ^ top).bit_length() - 1)) or (n == 1 and x & top):
        weight -= 4
    out = _DISCARDS[key] = tuple((weight - c % 13) << 6 | c for c in _cards(key & 0xFFFFFFF))
    return out


# A leader's leads in one suit, weighed as DDS weighs them (its ``MoveGen0``),
# keyed by ``context << _CTX | word << 2 | leader``: the word is the suit's four
# holdings side by side (13 bits each); the context holds ``_TRUMPED`` (trumps
# are left), ``_IS_TRUMP`` (this suit is trumps), the trump facts of
# ``_trump_flags``, at bit ``_LEFT`` the tricks left when an opponent is void in
# the suit (a void counts as that many cards) and at bit ``_SUIT`` the suit. Each lead (a
# card heading no equivalent lower one) as ``weight << 6 | card``, the weight
# offset to stay positive.
_LEADS: dict[int, tuple[int, ...]] = {}
_CTX = 54
# Where the context holds the tricks left and the suit.
_LEFT, _SUIT = 9, 13
_TRUMPED, _IS_TRUMP = 1, 2
# Trump facts, seen from the leader: who holds trumps, and whether partner's
# top trump beats the left-hand opponent's, the right-hand one's, or both.
_LH_T, _RH_T, _P_T, _L_T, _P_OVER_LH, _P_OVER_RH, _P_OVER_BOTH = (4 << i for i in range(7))
_FLAGS: dict[int, int] = {}


def _trump_flags(key: int) -> int:
    """``_FLAGS`` for the trump word ``key >> 2`` and the leader ``key & 3``."""
    lt, pt, lh, rh = _seen_from(key >> 2, key & 3)
    out = _TRUMPED
    for present, flag in (
        (lh, _LH_T),
        (rh, _RH_T),
        (pt, _P_T),
        (lt, _L_T),
        (pt > lh, _P_OVER_LH),
        (pt > rh, _P_OVER_RH),
        (pt > lh | rh, _P_OVER_BOTH),
    ):
        if present:
            out |= flag
    _FLAGS[key] = out
    return out


def _leads(key: int) -> tuple[int, ...]:
    ctx = key >> _CTX
    word = key >> 2 & ((1 << 52) - 1)
    leader = key & 3
    x, pt, lh, rh = _seen_from(word, leader)
    present = x | pt | lh | rh
    # The holders of the best, second- and third-best cards, from the suit's
    # layout (its owners, highest card first): L(eader), H (the left-hand
    # opponent), P(artner), R (the right-hand one); " " when there is none.
    layout = _LAYOUT.get(word)
    if layout is None:
        layout = _layout(word)
    count = layout & 15
    owners = layout >> 4
    best = "LHPR"[((owners >> 2 * (count - 1) & 3) - leader) & 3]
    second = "LHPR"[((owners >> 2 * (count - 2) & 3) - leader) & 3] if count > 1 else " "
    third = "LHPR"[((owners >> 2 * (count - 3) & 3) - leader) & 3] if count > 2 else " "
    top = present.bit_length() - 1  # the best card's rank; the second-best's:
    next_top = (present ^ 1 << top).bit_length() - 1
    n_p, n_lh, n_rh = pt.bit_count(), lh.bit_count(), rh.bit_count()
    left = ctx >> _LEFT & 15
    voids = ((n_lh or left) + (n_rh or left)) << 7
    suit = 13 * ((ctx >> _SUIT) & 3)
    trumped = ctx & _TRUMPED
    side = not ctx & _IS_TRUMP  # a suit other than trumps
    # A suit an opponent can ruff, and one partner can.
    lh_ruffs = side and not lh and ctx & _LH_T
    rh_ruffs = side and not rh and ctx & _RH_T
    p_ruffs = side and not pt and ctx & _P_T
    out: list[int] = []
    # Who wins the trick when it is not the lead itself: partner, with the
    # suit's best card or, when void, ruffing above any opponent's ruff.
    if pt > lh | rh:
        others_win = not lh_ruffs and not rh_ruffs
    elif p_ruffs:
        if lh_ruffs and rh_ruffs:
            others_win = bool(ctx & _P_OVER_BOTH)
        elif lh_ruffs:
            others_win = bool(ctx & _P_OVER_LH)
        else:
            others_win = not rh_ruffs or bool(ctx & _P_OVER_RH)
    else:
        others_win = False
    # An opponent's singleton best card falls to the lead.
    stiff = (n_lh == 1 and best == "H") or (n_rh == 1 and best == "R")
    # Our side holds the second- and third-best cards.
    next_two = 0
    if second == "P" and third == "P":
        next_two = 2
    elif n_p > 1 and ((second == "L" and third == "P") or (second == "P" and third == "L")):
        next_two = 1
    if not trumped:
        base = -(voids // 19) - (9 if not pt else 0)
        win = base  # a lead that wins the trick, for us or partner
        if second == "R":
            if n_rh != 1:
                win -= 1
        elif second == "H":
            win += 22 if n_lh != 1 else 16
        if (second != "H" or n_lh == 1) and (second != "R" or n_rh == 1):
            win += 45
        else:
            win += 18
        lose = base
        if best == "R" or second == "R":
            if n_rh != 1:
                lose -= 10
        elif best == "H" and second == "P" and n_p != 1:
            lose += 31
        lose += (0, 25, 35)[next_two]
    else:
        base = -(voids // 13)
        if lh_ruffs or rh_ruffs:
            base -= 12
        if p_ruffs and n_rh:
            base += 17
        if best == "R" or second == "R":
            if n_rh != 1:
                base -= 12
        elif best == "H" and second == "P" and n_p != 1:
            base += 27
        if side and x.bit_count() == 1 and ctx & _L_T and n_p > 1 and best == "P":
            base += 19  # partner wins and gives us a ruff
        lose = base + (0, 13, 20)[next_two]
        # Does the best card win (for our side)?
        if not side:
            best_wins = True
        elif pt or not ctx & _P_T:
            best_wins = not lh_ruffs and not rh_ruffs
        else:
            best_wins = bool(lh or ctx & _P_OVER_LH) and bool(rh or ctx & _P_OVER_RH)
    for r in _reps(present << 13 | x):
        # The run of equivalent cards this lead stands for: from ``r`` up to
        # ``high``; DDS names a run by its top card.
        gap = present & ~x & -(2 << r)  # the others' cards above ``r``
        high = (x & ((gap & -gap) - 1 if gap else _M)).bit_length() - 1
        run = high != r
        is_best = high == top
        is_second = high == next_top
        rel = (present >> high).bit_count()  # 1 for the best card out
        if not trumped:
            if is_best or others_win:
                weight = win + rel
            elif stiff:
                weight = lose + 28 + rel
            elif best == "L":
                weight = lose - 17 + rel
            elif not run:
                weight = lose + 12 + rel
            elif is_second:
                weight = lose + 48
            else:
                weight = lose + 29 - rel
        elif best_wins if is_best else others_win:
            if stiff:
                weight = base + 35 + rel
            elif best == "L":
                weight = base + (48 + rel if second == "P" else 31 if is_best else -3 + rel)
            elif best == "P":
                weight = base + (42 + rel if second == "L" else 28 + rel)
            elif run and is_second:
                weight = base + 40
            else:
                weight = base + (22 + rel if run else 11 + rel)
        elif stiff:
            weight = lose + 2 + rel
        elif best == "L":
            weight = lose + (33 + rel if second == "P" else 38 if is_best else -14 + rel)
        elif best == "P":
            weight = lose + 34 + rel
        elif run and is_second:
            weight = lose + 35
        else:
            weight = lose + 15 - high  # DDS's 17 - rank, the rank 2-14
        out.append((weight + 512) << 6 | suit + r)
    result = _LEADS[key] = tuple(out)
    return result
