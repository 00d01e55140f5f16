"""Our own exact double-dummy solver, in pure Python.

A zero-window alpha-beta search ("can the side to play take ``need`` more
tricks?") over single cards, with:

* partition search (Ginsberg's, as DDS does it): a transposition table at
  the start of each trick whose entries stand for whole sets of positions.
  Ranks are made relative (who holds the 1st, 2nd, ... highest card still
  out in each suit), and each answer records which cards' ranks its proof
  compared (a trick won by rank over a card of its suit; the top cards a
  quick-trick count relies on). An entry then matches every position with
  the same leader and suit lengths in each hand whose cards agree from the
  top of each suit down to the lowest relevant one; the smaller cards count
  only by number. Entries hold lower and upper bounds on North-South's tricks;
* rank equivalence: of touching cards in one hand (nothing between them still
  out, the current trick's cards counting as out) only one is searched; and
  once a card has failed, the same hand's cards of its suit below the lowest
  card its answer relied on are not searched either (their positions fall in
  the same partition);
* quick tricks: winners the leader can cash at once (its top cards, partner's
  through an entry, in no-trump the leader's and then partner's, a crossing
  to partner's next-best card; failing those, a suit for partner to ruff that
  the opponents cannot overruff), a lower bound for the leader's side that
  often settles a node without search; the top trumps, sure tricks for the
  side holding them (as many as its longer hand has trumps, up to the number
  of top trumps it holds); and at the second hand, a trick its side surely
  wins (plus one more sure winner to cash next) when that is all it needs;
* later tricks: a side that needs every trick fails when the other side
  surely makes a trump (DDS's rules: its guarded second-best trump sits after
  the top one, or it holds the second- and third-best), when no lead of the
  leader's can win the trick, or, with no trumps left, when the suits it
  heads hold too few tricks (DDS's rule too);
* move ordering, mostly as DDS orders moves: leads by its weights (whether
  the lead wins the trick for our side, who holds the suit's three best cards,
  how many cards the opponents can reply with, who can ruff; the lead that last
  settled a trick start with as many tricks left); second hand the
  cheapest card that beats the lead and the third hand, unless partner can,
  else low; third hand the cheapest winner; fourth hand win cheaply or play
  low, ruff low; discards from long suits, low cards first (and, ours, from
  suits the other side heads).

Each legal card's value comes from zero-window searches stepping one trick at a
time from the best value so far (at first a guess), all sharing the table; the
position's value is the best card's.
Everything in the hot loop is ints and bitmasks.

>>> from tarneeb.solver.position import Position
>>> p = Position.parse(["AK...", "QJ...", "T9...", "87..."], trump=None, leader=0)
>>> OwnSolver().solve(p).tricks
2
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from time import perf_counter

from tarneeb.cards import Card
from tarneeb.play import beats, winning_index
from tarneeb.solver._ordering import (
    _CTX,
    _DISCARDS,
    _FLAGS,
    _IS_TRUMP,
    _LEADS,
    _LEFT,
    _SUIT,
    _discards,
    _leads,
    _trump_flags,
)
from tarneeb.solver._suits import (
    _CARDS,
    _F,
    _FACTS,
    _KTH,
    _LATER,
    _LAYOUT,
    _LENS,
    _M,
    _REPS,
    _SHIFTS,
    _SUIT_BIT,
    _TOPS,
    _cards,
    _facts,
    _kth,
    _later,
    _layout,
    _reps,
    _tops,
)
from tarneeb.solver.position import Position, Solution, SolverTimeout

__all__ = ["OwnSolver", "solve", "solve_many"]

# A solver's tables for one trump: the partition table (leader and lengths ->
# entries ``(pattern mask, pattern, low, high, top cards per suit)``, bounds on
# North-South's tricks) and first bounds by exact key.
_Tables = tuple[
    dict[int, list[tuple[int, int, int, int, int]]],
    dict[int, tuple[int, int, int, int]],
]


class OwnSolver:
    """The pure-Python solver; keeps its transposition tables between calls.

    The tables hold facts about positions (with relative ranks), so they stay
    valid from one deal to the next; each trump has its own. They are cleared
    when they pass ``max_entries`` in all. ``nodes`` counts the trick starts
    searched so far, a measure of the work done.
    """

    def __init__(self, max_entries: int = 2_000_000) -> None:
        self.max_entries = max_entries
        self._tables: dict[int, _Tables] = {}
        self.nodes = 0

    def clear(self) -> None:
        self._tables.clear()

    def _table(self, trump: int) -> _Tables:
        size = sum(len(t[0]) + len(t[1]) for t in self._tables.values())
        if size > self.max_entries:
            self._tables.clear()
        # The shared per-suit caches grow with every new deal: a few tens of
        # thousands of entries each; cleared at the same bound.
        caches = (_KTH, _REPS, _LAYOUT, _CARDS, _FACTS, _TOPS, _LATER, _DISCARDS, _LEADS, _FLAGS)
        if sum(len(c) for c in caches) > self.max_entries:
            for cache in caches:
                cache.clear()
        entry = self._tables.get(trump)
        if entry is None:
            entry = self._tables[trump] = ({}, {})
        return entry

    def solve(
        self, position: Position, values: bool = True, deadline: float | None = None
    ) -> Solution:
        """The tricks of the side to play and the value of every legal card
        (with ``values=False``, the tricks alone: about half the work).

        :param deadline: a :func:`time.perf_counter` reading after which the
            search stops (it looks at the clock each time it opens a trick, so it
            stops within a few milliseconds of it).
        :raises SolverTimeout: when the search passes ``deadline``.
        """
        # Nothing the search allocates needs the cyclic collector (its few
        # closures go at the next collection), but its tables hold many small
        # lists that the collector would walk again and again: 10-15% of the time.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._solve(position, values, deadline)
        finally:
            if collecting:
                gc.enable()

    def _solve(self, position: Position, with_values: bool, deadline: float | None) -> Solution:
        trump = -1 if position.trump is None else int(position.trump)
        tt, qt = self._table(trump)
        hands = list(position.hands)
        seat = int(position.to_play)
        ms = seat & 1
        trick = [int(c) for c in position.trick]
        left = position.tricks_left
        count = [0]
        # The same cards suit by suit: each suit's four holdings side by side.
        words = [sum((hands[i] >> (13 * s) & _M) << (13 * i) for i in range(4)) for s in range(4)]
        start, play = _make_search(hands, words, trump, ms, tt, qt, count, deadline)
        legal = position.legal_mask()
        # Group the legal cards into classes of equivalent cards; search one of each.
        tmask = 0
        for c in trick:
            tmask |= 1 << c
        present = hands[0] | hands[1] | hands[2] | hands[3] | tmask
        classes: list[tuple[int, list[int]]] = []
        for s in range(4):
            sh = _SHIFTS[s]
            hs = legal >> sh & _M
            if not hs:
                continue
            reps = _reps((present >> sh & _M) << 13 | hs)
            for i, r in enumerate(reps):
                top = reps[i + 1] if i + 1 < len(reps) else 13
                members = [sh + x for x in range(r, top) if hs >> x & 1]
                classes.append((sh + r, members))
        # High cards first: their proofs (often cashing winners) fill the table
        # for the lower cards' (measured: about 1% fewer nodes).
        classes.sort(key=lambda rep_members: -(rep_members[0] % 13))
        n = len(trick)
        if n:
            lead_suit = trick[0] // 13
            i = winning_index(trick, trump)
            win = trick[i]
            win_seat = (int(position.leader) + i) & 3
            # Bit 2, "won by rank so far": another card of the winning card's suit is in the
            # trick (it was followed, or overtaken by rank), not only won by a first ruff.
            if sum(1 for c in trick if c // 13 == win // 13) > 1:
                win_seat |= 4
        else:
            lead_suit = win = win_seat = -1

        def test(card: int, need: int) -> bool:
            """Can the side to play take ``need`` tricks after playing ``card``?"""
            if need <= 0:
                return True
            if need > left:
                return False
            hands[seat] ^= 1 << card
            words[card // 13] ^= _SUIT_BIT[seat][card]
            try:
                if n == 3:
                    w = seat if beats(card, win, trump) else win_seat
                    need2 = need - 1 if (w & 1) == ms else need
                    return bool(start(w & 3, need2, left - 1) & 1)
                if n == 0:
                    res = play((seat + 1) & 3, 1, card // 13, card, seat, need, left, present)
                    return bool(res & 1)
                w, ws = win, win_seat
                if beats(card, win, trump):
                    w, ws = card, seat
                if card // 13 == win // 13:
                    ws |= 4
                res = play((seat + 1) & 3, n + 1, lead_suit, w, ws, need, left, present)
                return bool(res & 1)
            finally:
                hands[seat] ^= 1 << card
                words[card // 13] ^= _SUIT_BIT[seat][card]

        def whole(need: int) -> bool:
            """Can the side to play take ``need`` tricks, with any legal card?"""
            if need <= 0:
                return True
            if need > left:
                return False
            if n == 0 and not position.lead_trump:
                return bool(start(seat, need, left) & 1)
            if n == 0:
                return any(test(rep, need) for rep, _ in classes)
            res = play(seat, n, lead_suit, win, win_seat, need, left, present)
            return bool(res & 1)

        # Each card's value, stepping one trick at a time from a guess (probes
        # far from the value are wasted work): the best value so far, at first
        # an estimate. The position's value is the best card's. (Finding the
        # position's value first would cost a search proving that no card does
        # better, wasted for each card worth less.) Without values, the
        # position's value alone, stepping the same way.
        guess = min(max(_guess(hands, trump, ms), 0), left)
        values: dict[Card, int] = {}
        try:
            if with_values:
                best_value = -1
                for rep, members in classes:
                    value = guess if best_value < 0 else best_value
                    if test(rep, value):
                        while value < left and test(rep, value + 1):
                            value += 1
                    else:
                        value -= 1
                        while value > 0 and not test(rep, value):
                            value -= 1
                    if value > best_value:
                        best_value = value
                    for c in members:
                        values[Card(c)] = value
            else:
                best_value = guess
                if whole(best_value):
                    while best_value < left and whole(best_value + 1):
                        best_value += 1
                else:
                    best_value -= 1
                    while best_value > 0 and not whole(best_value):
                        best_value -= 1
        finally:
            self.nodes += count[0]
        return Solution(position, best_value, dict(sorted(values.items())))

    def solve_many(self, positions: Sequence[Position], values: bool = True) -> list[Solution]:
        return [self.solve(p, values) for p in positions]


def _guess(hands: list[int], trump: int, side: int) -> int:
    """A rough estimate of ``side``'s tricks: its cards that outrank the other side's."""
    ours = hands[side] | hands[side + 2]
    theirs = hands[side ^ 1] | hands[(side ^ 1) + 2]
    total = 0
    for s in (0, 1, 2, 3):
        sh = _SHIFTS[s]
        a = ours >> sh & _M
        b = theirs >> sh & _M
        if not a:
            continue
        top = b.bit_length()
        winners = (a >> top).bit_count()
        if trump >= 0 and s != trump and winners:
            # Winners in a side suit last as long as the other side follows.
            winners = min(winners, max(b.bit_count(), 1))
        total += winners
    return total


def _skip(res: int, card: int) -> int:
    """The cards of ``card``'s suit that need no search once ``card`` has failed
    with answer ``res``: those below the lowest card that answer relied on in
    the suit (``card`` among them), which lead to positions it covers too.
    Returns a card mask; 0 when ``card`` itself was relied on."""
    sh = card - card % 13
    rb = res >> (sh + 1) & _M
    if not rb:
        return _M << sh
    low = rb & -rb
    if 1 << (card - sh) >= low:
        return 0
    return (low - 1) << sh


def _make_search(
    h: list[int],
    sw: list[int],
    trump: int,
    ms: int,
    tt: dict[int, list[tuple[int, int, int, int, int]]],
    qt: dict[int, tuple[int, int, int, int]],
    count: list[int],
    deadline: float | None = None,
) -> tuple[Callable[[int, int, int], int], Callable[[int, int, int, int, int, int, int, int], int]]:
    """The search over hands ``h`` (changed in place and restored) for side ``ms``:
    ``start`` for a trick to lead, ``play`` within a trick.

    A node answers ``relevant << 1 | result``: ``result`` is 1 when side ``ms``
    takes ``need`` tricks, and ``relevant`` the cards (one bit each) whose ranks
    the proof of that answer compared: per suit, every card from the lowest of
    them up matters, the smaller ones only by how many each hand holds. Past
    ``deadline`` (a ``perf_counter`` reading) the next trick searched raises
    :class:`SolverTimeout`.
    """
    cards_cache = _CARDS
    cards_of = _cards
    layout_cache = _LAYOUT
    layout_of = _layout
    kth_cache = _KTH
    facts_cache = _FACTS
    tops_cache = _TOPS
    later_cache = _LATER
    discards_cache = _DISCARDS
    leads_cache = _LEADS
    # By tricks left: the lead that last settled a trick start (-1: none yet).
    killers = [-1] * 14
    flags_cache = _FLAGS
    shifts = _SHIFTS
    tsh = shifts[trump] if trump >= 0 else 0
    # The suits other than trumps, with each one's shift.
    side_suits = tuple((s, 13 * s) for s in (0, 1, 2, 3) if s != trump)
    nxt4 = (1, 2, 3, 0)
    # Per seat: 1 when it plays for side ``ms``.
    mxs = (1 - ms, ms, 1 - ms, ms)

    def quick_tricks(
        leader: int, crossing: bool = True, drawn: bool = False
    ) -> tuple[int, int, int, bool, int]:
        """Tricks the leader can cash at once (a lower bound for the leader's side),
        the suits (bits) in which it cashes at least one, how many top cards of
        each suit that count relies on (4 bits a suit), whether partner holds
        the top card of a suit the leader can lead, and what the crossing (if
        any) adds to those top cards (the count, without it, is one less).

        Trumps first: the leader's top trumps, all of them once the others are
        out. Then in each other suit, round ``i`` counts while the leader's card
        is the highest out (or the others are void) and each other seat follows
        or has no trump left. Last, at most once, a crossing: after the
        leader's top cards, partner's next card is the suit's best and both
        still hold a card more; that trick ends in partner's hand. With
        ``drawn``, the suits other than trumps alone, as once the opponents'
        trumps are drawn.
        """
        total = suits = flags = ks = crossed = 0
        entry = False
        if trump >= 0 and not drawn:
            fk = sw[trump] << 2 | leader
            f = facts_cache.get(fk)
            if f is None:
                f = _facts(fk)
            _, nb, nc, nd, run, tricks, _, entry = f
            # Which others keep trumps once these are drawn: bit 0 the left-hand
            # opponent, 1 the right-hand one, 2 partner.
            flags = (nc > tricks) | (nd > tricks) << 1 | (nb > tricks) << 2
            if tricks:
                total = tricks
                suits = 1 << trump
                ks = run << (4 * trump)
        for s, _ in side_suits:
            fk = sw[s] << 2 | leader
            f = facts_cache.get(fk)
            if f is None:
                f = _facts(fk)
            nx, nb, nc, nd, run, k, cross, top = f
            if not nx:
                continue
            if top:
                entry = True
            if flags:
                if flags & 1 and nc < k:
                    k = nc
                if flags & 2 and nd < k:
                    k = nd
                if flags & 4 and nb < k:
                    k = nb
            if k:
                total += k
                suits |= 1 << s
                ks |= (k if k < run else run) << (4 * s)
                if (
                    crossing
                    and k == run
                    and cross
                    and not ((nc <= run and flags & 1) or (nd <= run and flags & 2))
                ):
                    # Cross to partner's winner last of all.
                    crossing = False
                    total += 1
                    crossed = 1 << (4 * s)
                    ks += crossed
        return total, suits, ks, entry, crossed

    def first_bounds(seat: int, left: int) -> tuple[int, int, int, int]:
        """North-South's tricks from quick tricks and top trumps: low, high, and
        how many top cards of each suit each bound relies on (as ``relevant`` takes
        them: the key is relative, so the cards themselves differ from one
        position with this key to another)."""
        low, _, rlow, entry, crossed = quick_tricks(seat)
        # The leader's quick tricks without the crossing.
        q1 = low - 1 if crossed else low
        r1 = rlow - crossed
        # Partner's quick tricks count only through an entry: a suit whose top
        # card partner holds and in which the leader has a card to lead.
        if entry:
            q2, suits2, r2, _, _ = quick_tricks(seat ^ 2, False)
            # No-trump, or no trump for the opponents to ruff with: cash the
            # leader's winners, then lead to partner's and let partner cash its
            # own. Partner, discarding (or ruffing), keeps its winners while it
            # has other cards: enough up to ``left`` tricks.
            adds_up = trump < 0 or not (h[(seat + 1) & 3] | h[(seat + 3) & 3]) >> tsh & _M
            if not adds_up:
                if q2 > low:
                    # Lead to partner's winners and let partner cash its own.
                    hs = h[seat]
                    lho = h[(seat + 1) & 3]
                    rho = h[(seat + 3) & 3]
                    for s2 in (0, 1, 2, 3):
                        if suits2 >> s2 & 1 and hs >> shifts[s2] & _M:
                            # The entry is led before trumps are drawn: no ruff allowed.
                            if trump >= 0 and s2 != trump:
                                sh2 = shifts[s2]
                                if not (lho >> sh2 & _M or not lho >> tsh & _M) or not (
                                    rho >> sh2 & _M or not rho >> tsh & _M
                                ):
                                    continue
                            low = q2
                            rlow = r2
                            break
                # The leader's top trumps draw the opponents' (each holds no more
                # than the leader cashes): then cash the leader's winners, lead
                # to partner's and let partner cash those outside trumps, safe
                # from ruffs; up to ``left`` tricks, as in no-trump.
                f = facts_cache.get(sw[trump] << 2 | seat)
                if f is None:
                    f = _facts(sw[trump] << 2 | seat)
                if f[5] and f[2] <= f[5] and f[3] <= f[5]:
                    q2, _, r2, _, _ = quick_tricks(seat ^ 2, False, True)
                    adds_up = True
            if adds_up and q1 + q2 > low:
                low = q1 + q2 if q1 + q2 < left else left
                rlow = r1 | r2  # the two count in different suits
        if not low and trump >= 0:
            # A ruff by partner: a suit the leader holds and partner, holding
            # trumps, does not, in which neither opponent can ruff (each follows
            # or has no trump). It wins by suit, whatever the ranks.
            part = h[seat ^ 2]
            if part >> tsh & _M:
                hs = h[seat]
                lho = h[(seat + 1) & 3]
                rho = h[(seat + 3) & 3]
                lt = lho >> tsh & _M
                rt = rho >> tsh & _M
                for _, sh in side_suits:
                    if (
                        hs >> sh & _M
                        and not part >> sh & _M
                        and (not lt or lho >> sh & _M)
                        and (not rt or rho >> sh & _M)
                    ):
                        low = 1
                        break
        high = left
        rhigh = 0
        side = -1
        if trump >= 0:
            tw = sw[trump]
            tops = tops_cache.get(tw)
            if tops is None:
                tops = _tops(tw)
            side, sure = tops
            # The side without the top trump may still be sure of a trump trick.
            later = later_cache.get(tw << 2 | seat) if side >= 0 else 0
            if later is None:
                later = _later(tw << 2 | seat)
            if side == (seat & 1):
                if sure > low:
                    low = sure
                    rlow = sure << (4 * trump)
                if later:  # the leader's side cannot take every trick
                    high = left - 1
                    rhigh = later << (4 * trump)
            elif side >= 0:
                high = left - sure
                rhigh = sure << (4 * trump)
                if later and not low:  # the leader's side takes one
                    low = 1
                    rlow = later << (4 * trump)
        if side < 0:
            # No trumps left (DDS's "later tricks" rule): to take every trick a
            # side must win each in a suit it heads, at most as many in each as
            # its longer hand holds (both hands follow), or in a suit whose top
            # card the other side had to discard. DDS counts on the discards
            # never making up the difference, and 800,000 dense endings checked
            # against DDS bore that out, whoever was on lead. So a side short
            # of ``left`` tricks in the suits it heads cannot take them all.
            # That relies on who holds the top card of each suit the other
            # side heads where this side has cards (had this side headed it,
            # it would only have more).
            mine = theirs = rmine = rtheirs = 0
            for s, _ in side_suits:
                w = sw[s]
                if not w:
                    continue
                a, b = w >> (13 * seat) & _M, w >> (13 * (seat ^ 2)) & _M
                c, d = w >> (13 * (seat ^ 1)) & _M, w >> (13 * (seat ^ 3)) & _M
                if (a | b).bit_length() > (c | d).bit_length():
                    mine += a.bit_count() if a.bit_count() > b.bit_count() else b.bit_count()
                    if c | d:
                        rtheirs |= 1 << (4 * s)
                else:
                    theirs += c.bit_count() if c.bit_count() > d.bit_count() else d.bit_count()
                    if a | b:
                        rmine |= 1 << (4 * s)
            if mine < left:
                high = left - 1
                rhigh = rmine
            if theirs < left and not low:
                low = 1
                rlow = rtheirs
        if high == left:
            # No safe lead: in each suit the leader holds, the other side's top
            # card takes the trick (partner, holding the suit or no trump,
            # cannot ruff it). That relies on the top card of each such suit.
            hs = h[seat]
            part = h[seat ^ 2]
            ruffs = trump >= 0 and part >> tsh & _M
            rel = 0
            for s in (0, 1, 2, 3):
                sh = shifts[s]
                if not hs >> sh & _M:
                    continue
                w = sw[s]
                ours = (w >> (13 * seat) | w >> (13 * (seat ^ 2))) & _M
                other = (w >> (13 * (seat ^ 1)) | w >> (13 * (seat ^ 3))) & _M
                if ours.bit_length() > other.bit_length():
                    break
                if ruffs and s != trump and not part >> sh & _M:
                    break
                rel |= 1 << (4 * s)
            else:
                high = left - 1
                rhigh = rel
        if seat & 1:
            return left - high, left - low, rhigh, rlow
        return low, high, rlow, rhigh

    def relevant(allh: int, ks: int) -> int:
        """The cards an entry's pattern (``ks``: top cards per suit) stands for here."""
        rel = 0
        for sh in shifts:
            k = ks & 15
            if k:
                p = allh >> sh & _M
                got = kth_cache.get(p << 4 | k)
                rel |= (_kth(p, k) if got is None else got) << sh
            ks >>= 4
            if not ks:
                break
        return rel

    def widen(res: int, hand: int, present: int, suits: tuple[int, ...]) -> int:
        """Make ``res`` sound where all moves were searched: a run of equivalent
        cards searched by its lowest card counts as one move only while the run
        lies wholly above or wholly below the lowest relevant card of its suit."""
        for sh in suits:
            rb = res >> (sh + 1) & _M
            if not rb:
                continue
            x = hand >> sh & _M
            if not x:
                continue
            p = present >> sh & _M
            above = p & ~((rb & -rb) - 1)
            low_t = above & -above
            if not x & low_t:
                continue
            below = p & (low_t - 1)
            while below:
                nb = 1 << (below.bit_length() - 1)
                if not x & nb:
                    break
                res |= nb << (sh + 1)
                below ^= nb
        return res

    def start(seat: int, need: int, left: int) -> int:
        """A trick to lead: ``seat`` leads, side ``ms`` needs ``need`` of ``left`` tricks."""
        count[0] += 1
        if need <= 0:
            return 1
        if need > left:
            return 0
        h0, h1, h2, h3 = h
        if left == 1:
            # The last trick plays itself.
            w = h[seat].bit_length() - 1
            wseat = seat
            by = 0
            for i in (1, 2, 3):
                s2 = (seat + i) & 3
                c = h[s2].bit_length() - 1
                if c // 13 == w // 13:
                    by = 1
                    if c > w:
                        w, wseat = c, s2
                elif c // 13 == trump:
                    w, wseat, by = c, s2, 0
            return (2 << w if by else 0) | ((wseat & 1) == ms)
        raw0, raw1, raw2, raw3 = sw
        lay = layout_cache.get(raw0)
        key = seat << _F | (layout_of(raw0) if lay is None else lay)
        lay = layout_cache.get(raw1)
        key = key << _F | (layout_of(raw1) if lay is None else lay)
        lay = layout_cache.get(raw2)
        key = key << _F | (layout_of(raw2) if lay is None else lay)
        lay = layout_cache.get(raw3)
        key = key << _F | (layout_of(raw3) if lay is None else lay)
        allh = h0 | h1 | h2 | h3
        pk = key & _LENS
        entries = tt.get(pk)
        # The question as North-South's: do they take ``ns`` tricks? Side ``ms``
        # makes when the answer is ``yes`` (1 for North-South, 0 for East-West).
        ns = need if ms == 0 else left - need + 1
        yes = 1 - ms
        if entries is not None:
            for e in entries:
                if key & e[0] == e[1]:
                    if e[2] >= ns:
                        return relevant(allh, e[4]) << 1 | yes
                    if e[3] < ns:
                        return relevant(allh, e[4]) << 1 | ms
        bounds = qt.get(key)
        if bounds is None:
            bounds = qt[key] = first_bounds(seat, left)
        if bounds[0] >= ns:
            return relevant(allh, bounds[2]) << 1 | yes
        if bounds[1] < ns:
            return relevant(allh, bounds[3]) << 1 | ms
        res = lead_moves(seat, need, left, key, allh)
        # Store the answer for every position that agrees on the relevant cards.
        rel = res >> 1
        mask = _LENS
        ks = 0
        for s in (0, 1, 2, 3):
            rb = rel >> (13 * s) & _M
            if rb:
                k = ((allh >> (13 * s) & _M) >> ((rb & -rb).bit_length() - 1)).bit_count()
                off = _F * (3 - s)
                mask |= ((1 << 2 * k) - 1) << (off + 4 + 2 * ((key >> off & 15) - k))
                ks |= k << (4 * s)
        value = key & mask
        lo, hi = (ns, left) if (res & 1) == yes else (0, ns - 1)
        if entries is None:
            tt[pk] = [(mask, value, lo, hi, ks)]
            return res
        for i, e in enumerate(entries):
            if e[0] == mask and e[1] == value:
                # Entries are tuples of ints, which Python's collector soon
                # stops tracking: a long-lived table costs its collections
                # nothing (lists would be walked at every full collection).
                if lo > e[2] or hi < e[3]:
                    entries[i] = (mask, value, max(lo, e[2]), min(hi, e[3]), ks)
                return res
        entries.append((mask, value, lo, hi, ks))
        return res

    def play(
        seat: int, n: int, lead: int, win: int, ws: int, need: int, left: int, present: int
    ) -> int:
        """Seat ``seat`` plays the ``n``-th card (1-3) of a trick led in suit ``lead``;
        ``win`` is the card winning it so far, by ``ws`` (bit 2: won by rank).
        ``present``: the cards out when the trick began."""
        hand = h[seat]
        sb = _SUIT_BIT[seat]
        mx = mxs[seat]
        lsh = lead * 13
        follow = hand >> lsh & _M
        wsuit = win // 13
        # Below, ``not (ws ^ seat) & 1``: partner wins the trick so far.
        if n == 1 and (need <= 2 if mx else need >= left - 1):
            # Second hand's side surely wins this trick when it holds the suit's
            # best card against the lead and the third hand, or can ruff, and the
            # third hand cannot ruff. Enough if its side needs one trick more;
            # a second sure trick for the winner to cash next also counts.
            one = need == 1 if mx else need == left
            third = h[(seat + 1) & 3]
            if trump < 0 or lead == trump or third >> lsh & _M or not third >> tsh & _M:
                ours = (hand | h[seat ^ 2]) >> lsh & _M
                if ours.bit_length() > ((third >> lsh & _M) | 1 << (win - lsh)).bit_length():
                    top = ours.bit_length() - 1
                    if one:
                        return 2 << (lsh + top) | mx
                    hh = hand if hand >> (lsh + top) & 1 else h[seat ^ 2]
                    lho = h[(seat + 3) & 3]
                    opp = lho | third
                    for sh in shifts:
                        y = hh >> sh & _M
                        if sh == lsh:
                            y ^= 1 << top
                        if y and y.bit_length() > (opp >> sh & _M).bit_length():
                            # At a trump, each opponent must follow or hold no
                            # trump (the third hand plays a card of the suit led
                            # to this trick, so needs two of it).
                            if (
                                trump >= 0
                                and sh != tsh
                                and not (
                                    (lho >> sh & _M or not lho >> tsh & _M)
                                    and (
                                        (third >> sh & _M).bit_count() > (sh == lsh)
                                        or not third >> tsh & _M
                                    )
                                )
                            ):
                                continue
                            return 2 << (lsh + top) | 2 << (sh + y.bit_length() - 1) | mx
                elif one and trump >= 0 and lead != trump:
                    part = h[seat ^ 2]
                    if (not follow and hand >> tsh & _M) or (
                        not part >> lsh & _M and part >> tsh & _M
                    ):
                        return mx
        acc = skip = 0
        order: list[int] | tuple[int, ...]
        if follow:
            k = lead << 26 | (present >> lsh & _M) << 13 | follow
            cards = cards_cache.get(k)
            if cards is None:
                cards = cards_of(k)
            if len(cards) == 1 or wsuit != lead or (n == 3 and not (ws ^ seat) & 1):
                order = cards
            else:
                wr = win
                if n == 2:
                    # Third hand, as DDS plays it: low when partner surely
                    # wins or when no card of ours can matter; else the
                    # cheapest card that beats the fourth hand's cards, or
                    # failing that one that forces out its top card (beats
                    # its next), or at least the card winning so far.
                    f = h[nxt4[seat]] >> lsh & _M
                    m4 = lsh + f.bit_length() - 1 if f else -1
                    sure = not (ws ^ seat) & 1 and win > m4 and (f or trump < 0 or lead == trump)
                    if (
                        sure
                        or cards[-1] < win
                        or (f and cards[-1] < lsh + (f & -f).bit_length() - 1)
                    ):
                        wr = 99
                    elif cards[-1] > m4:
                        if m4 > wr:
                            wr = m4
                    elif f & (f - 1):
                        g = lsh + (f ^ 1 << (f.bit_length() - 1)).bit_length() - 1
                        if cards[-1] > g > wr:
                            wr = g
                elif n == 1:
                    # Second hand: the cheapest card that beats the lead and
                    # every card the third hand holds, as DDS plays it, unless
                    # partner can beat them; else low.
                    third = h[nxt4[seat]]
                    f = third >> lsh & _M
                    if not f and trump >= 0 and lead != trump and third >> tsh & _M:
                        wr = 99
                    else:
                        if f and lsh + f.bit_length() - 1 > wr:
                            wr = lsh + f.bit_length() - 1
                        f = h[seat ^ 2] >> lsh & _M
                        if f and lsh + f.bit_length() - 1 > wr:
                            wr = 99
                order = cards
                for i, c in enumerate(cards):
                    if c > wr:
                        if i:
                            order = (c, *cards[:i], *cards[i + 1 :])
                        break
            if n == 3:
                for c in order:
                    if skip >> c & 1:
                        continue
                    if wsuit == lead:
                        # Same suit: the trick goes by rank.
                        if c > win:
                            w = seat
                            tr = 2 << c
                        else:
                            w = ws
                            tr = 2 << win
                    else:
                        w = ws
                        tr = 2 << win if ws & 4 else 0
                    need2 = need - 1 if (w & 1) == ms else need
                    if need2 <= 0:
                        res = tr | 1
                    elif need2 >= left:
                        res = tr
                    else:
                        h[seat] = hand ^ (1 << c)
                        sw[lead] ^= sb[c]
                        res = start(w & 3, need2, left - 1) | tr
                        h[seat] = hand
                        sw[lead] ^= sb[c]
                    if (res & 1) == mx:
                        return res
                    acc |= res
                    low = res >> (lsh + 1) & _M
                    low &= -low
                    if not low:
                        break  # every other card of the suit fares the same
                    elif 1 << (c - lsh) < low:
                        skip |= (low - 1) << lsh
                return widen(acc, hand, present, (lsh,)) if acc >> (lsh + 1) & _M else acc
            nxt = (seat + 1) & 3
            for c in order:
                if skip >> c & 1:
                    continue
                h[seat] = hand ^ (1 << c)
                sw[lead] ^= sb[c]
                if wsuit == lead:
                    if c > win:
                        res = play(nxt, n + 1, lead, c, seat | 4, need, left, present)
                    else:
                        res = play(nxt, n + 1, lead, win, ws | 4, need, left, present)
                else:
                    res = play(nxt, n + 1, lead, win, ws, need, left, present)
                h[seat] = hand
                sw[lead] ^= sb[c]
                if (res & 1) == mx:
                    return res
                acc |= res
                low = res >> (lsh + 1) & _M
                low &= -low
                if not low:
                    break  # every other card of the suit fares the same
                elif 1 << (c - lsh) < low:
                    skip |= (low - 1) << lsh
            return widen(acc, hand, present, (lsh,)) if acc >> (lsh + 1) & _M else acc
        first: list[int] = []
        ruffs: tuple[int, ...] = ()
        if trump >= 0:
            tr = hand >> tsh & _M
            if tr:
                k = trump << 26 | (present >> tsh & _M) << 13 | tr
                cards = cards_cache.get(k)
                if cards is None:
                    cards = cards_of(k)
                # No ruff first when partner surely wins: fourth hand, when
                # partner wins so far; third hand, when the fourth can neither
                # beat partner's card nor ruff; second hand, when partner (the
                # fourth) beats the lead and the third hand's cards, and the
                # third hand cannot ruff.
                if n == 3:
                    sure = not (ws ^ seat) & 1
                else:
                    nh = h[nxt4[seat]]
                    nf = nh >> lsh & _M
                    safe = nf or not nh >> tsh & _M  # the next hand cannot ruff
                    if n == 2:
                        sure = not (ws ^ seat) & 1 and lsh + nf.bit_length() - 1 < win and safe
                    else:
                        pf = h[seat ^ 2] >> lsh & _M
                        sure = safe and lsh + pf.bit_length() - 1 > max(
                            win, lsh + nf.bit_length() - 1
                        )
                if sure:
                    ruffs = cards
                elif wsuit == trump:
                    ruffs = cards
                    for i, c in enumerate(cards):
                        if c > win:
                            first.append(c)
                            ruffs = (*cards[:i], *cards[i + 1 :])
                            break
                else:
                    first.append(cards[0])
                    ruffs = cards[1:]
        # Discards, best first (see ``_discards``), as weights with the card
        # in the low 6 bits.
        ours = hand | h[seat ^ 2]
        weights: list[int] = []
        for s, sh in side_suits:
            x = hand >> sh & _M
            if x:
                p = present >> sh & _M
                k = s << 26 | p << 13 | x
                if not ours >> sh & 1 << (p.bit_length() - 1):
                    k |= 1 << 28
                got = discards_cache.get(k)
                weights += _discards(k) if got is None else got
        weights.sort(reverse=True)
        # (Cards are below 64: ``c & 63`` is the card, weighed or not.)
        order = [*first, *weights, *ruffs]
        if n == 3:
            for c in order:
                c &= 63
                if skip >> c & 1:
                    continue
                if c // 13 == trump:
                    if wsuit != trump:
                        w = seat
                        tr = 0  # the only trump: it wins by suit
                    elif c > win:
                        w = seat
                        tr = 2 << c
                    else:
                        w = ws
                        tr = 2 << win
                else:
                    w = ws
                    tr = 2 << win if ws & 4 else 0
                need2 = need - 1 if (w & 1) == ms else need
                if need2 <= 0:
                    res = tr | 1
                elif need2 >= left:
                    res = tr
                else:
                    h[seat] = hand ^ (1 << c)
                    sw[c // 13] ^= sb[c]
                    res = start(w & 3, need2, left - 1) | tr
                    h[seat] = hand
                    sw[c // 13] ^= sb[c]
                if (res & 1) == mx:
                    return res
                acc |= res
                skip |= _skip(res, c)
            return widen(acc, hand, present, shifts)
        nxt = (seat + 1) & 3
        for c in order:
            c &= 63
            if skip >> c & 1:
                continue
            h[seat] = hand ^ (1 << c)
            sw[c // 13] ^= sb[c]
            if c // 13 == trump:
                if wsuit != trump:
                    res = play(nxt, n + 1, lead, c, seat, need, left, present)
                elif c > win:
                    res = play(nxt, n + 1, lead, c, seat | 4, need, left, present)
                else:
                    res = play(nxt, n + 1, lead, win, ws | 4, need, left, present)
            else:
                res = play(nxt, n + 1, lead, win, ws, need, left, present)
            h[seat] = hand
            sw[c // 13] ^= sb[c]
            if (res & 1) == mx:
                return res
            acc |= res
            skip |= _skip(res, c)
        return widen(acc, hand, present, shifts)

    def lead_moves(seat: int, need: int, left: int, key: int, present: int) -> int:
        if deadline is not None and perf_counter() > deadline:
            raise SolverTimeout("the search passed its deadline")
        hand = h[seat]
        sb = _SUIT_BIT[seat]
        mx = mxs[seat]
        # Leads in order of promise, as DDS weighs them (see ``_leads``).
        ctx = seat
        if trump >= 0 and sw[trump]:
            fk = sw[trump] << 2 | seat
            flags = flags_cache.get(fk)
            ctx |= (_trump_flags(fk) if flags is None else flags) << _CTX
        void_left = left << (_CTX + _LEFT)
        weights: list[int] = []
        for s in (0, 1, 2, 3):
            w = sw[s]
            if not w >> (13 * seat) & _M:
                continue
            k = ctx | w << 2 | s << (_CTX + _SUIT)
            if s == trump:
                k |= _IS_TRUMP << _CTX
            if not w >> (13 * ((seat + 1) & 3)) & _M or not w >> (13 * ((seat + 3) & 3)) & _M:
                k |= void_left
            leads = leads_cache.get(k)
            weights += _leads(k) if leads is None else leads
        # The lead that last settled a trick start with as many tricks left,
        # weighed up (DDS's "best move"; measured: 4% fewer nodes).
        last = killers[left]
        if last >= 0 and hand >> last & 1:
            for i, w in enumerate(weights):
                if w & 63 == last:
                    weights[i] = w + (25 << 6)
                    break
        weights.sort(reverse=True)
        nxt = (seat + 1) & 3
        acc = skip = 0
        for c in weights:
            c &= 63
            if skip >> c & 1:
                continue
            h[seat] = hand ^ (1 << c)
            sw[c // 13] ^= sb[c]
            res = play(nxt, 1, c // 13, c, seat, need, left, present)
            h[seat] = hand
            sw[c // 13] ^= sb[c]
            if (res & 1) == mx:
                killers[left] = c
                return res
            acc |= res
            skip |= _skip(res, c)
        return widen(acc, hand, present, shifts)

    return start, play


_DEFAULT: OwnSolver | None = None


def _default() -> OwnSolver:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = OwnSolver()
    return _DEFAULT


def solve(position: Position, values: bool = True, deadline: float | None = None) -> Solution:
    """Solve ``position`` with the shared default :class:`OwnSolver` (see :meth:`OwnSolver.solve`).

    :raises SolverTimeout: when the search passes ``deadline``.
    """
    return _default().solve(position, values, deadline)


def solve_many(positions: Sequence[Position], values: bool = True) -> list[Solution]:
    return _default().solve_many(positions, values)
