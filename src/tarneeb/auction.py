"""The auction of a deal: one procedure for each kind of bidding, chosen once by the rules.

``Rules.bidding`` names the procedure (:data:`PROCEDURES`):

* ``tricks`` and ``strains``: a partnership auction (:class:`PartnershipAuction`).
  Players bid in turn until all but the highest bidder have passed; each bid
  must outrank the last. The two differ only in their ladder of bids: trick
  bids (``8``, or ``8NT`` with Sol) climb by number; Egyptian strain bids
  (``8S``) climb as ``Rules.ladder`` says (:func:`ladder_over`).
* ``individual``: Syrian 400 (:class:`IndividualAuction`): each player bids
  once for their own tricks, at least their minimum; a low total redeals.

An :class:`Auction` holds the state of one deal's auction; the deal pushes
actions into it and reads the contract back when it is over.

>>> from tarneeb.presets import find_rules
>>> egyptian = find_rules("egyptian")
>>> [format_action(a) for a in ladder_over(egyptian, Bid(12, Strain.HEARTS).id)]
['13S', '13NT']
>>> ladder_over(egyptian, Bid(7, Strain.NO_TRUMP).id)
()
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from tarneeb.actions import BID_BASE, DOUBLE, NO_STRAIN, PASS, REDEAL, Bid, Strain, format_action
from tarneeb.rules import AllPass, Bidding, Count, Doubling, Ladder, Rules
from tarneeb.scoring import DealResult, score_contract, score_individual
from tarneeb.seats import Seat, Team

__all__ = [
    "PROCEDURES",
    "Auction",
    "Contract",
    "IndividualAuction",
    "PartnershipAuction",
    "ThrowIn",
    "auction_for",
    "is_weak_hand",
    "ladder",
    "ladder_over",
    "level_of",
    "max_auction_actions",
    "possible_bids",
]


class ThrowIn(str, enum.Enum):
    """Why a deal was thrown in without being played (the value is the text in records)."""

    ALL_PASS = "all-pass"
    """Nobody bid; the cards are dealt again (by the next dealer, as in 000)."""
    WEAK_HAND = "weak-hand"
    """A player claimed a redeal of a weak hand; the same dealer deals again."""
    LOW_TOTAL = "low-total"
    """Individual bids added up to less than the table minimum; the same dealer deals again."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)

    def __repr__(self) -> str:
        return f"ThrowIn.{self.name}"


@dataclass(frozen=True)
class Contract:
    """The contract a partnership auction ended in."""

    declarer: Seat
    level: int
    strain: Strain | None = None
    """The trump suit or no-trump; ``None`` while the declarer has yet to name trump."""
    multiplier: int = 1
    doubled_by: Seat | None = None
    raised: bool = False

    @property
    def team(self) -> Team:
        return self.declarer.team

    def __repr__(self) -> str:
        extra = ""
        if self.multiplier != 1:
            extra = f", multiplier={self.multiplier}"
        if self.doubled_by is not None:
            extra += f", doubled_by={self.doubled_by!r}"
        if self.raised:
            extra += ", raised=True"
        return f"Contract({self.declarer!r}, {self.level}, {self.strain!r}{extra})"

    def __str__(self) -> str:
        strain = "" if self.strain is None else f" {self.strain.letter}"
        factor = f" x{self.multiplier}" if self.multiplier != 1 else ""
        return f"{self.level}{strain}{factor} by {self.declarer.name.title()}"


def is_weak_hand(mask: int) -> bool:
    """Whether a hand may claim a redeal (seed 003's reading, used by ``weak_redeal``).

    Weak: no ace, no king in a suit of two or more cards, no queen in a suit of
    three or more, and no jack in a suit of four or more.

    >>> from tarneeb.cards import CardSet
    >>> is_weak_hand(CardSet.parse("K.Q2.J32.T98765432").mask)
    True
    >>> is_weak_hand(CardSet.parse("K2.Q.J32.T9876543").mask)
    False
    """
    for shift in (0, 13, 26, 39):
        bits = (mask >> shift) & 0x1FFF
        length = bits.bit_count()
        if (
            bits >> 12 & 1
            or (bits >> 11 & 1 and length >= 2)
            or (bits >> 10 & 1 and length >= 3)
            or (bits >> 9 & 1 and length >= 4)
        ):
            return False
    return True


def level_of(bid: int) -> int:
    """The number of a bid's action id."""
    return (bid - BID_BASE) // 6


# -- the ladders of bids --------------------------------------------------------------


def _levels(rules: Rules) -> range:
    return range(rules.min_bid, rules.max_bid + 1, rules.bid_step)


def _strains(rules: Rules) -> list[int]:
    """The strains of strain bidding, lowest first."""
    return [int(s) for s in rules.strain_order] + ([Strain.NO_TRUMP] if rules.no_trump else [])


@functools.lru_cache(maxsize=64)
def ladder(rules: Rules) -> tuple[int, ...]:
    """Every bid of a partnership auction as action ids, lowest first (empty for individual).

    With ``ladder='strain-and-number'`` the bids are only partly ordered: this
    lists them by number, then strain, and :func:`ladder_over` says which
    outrank which.
    """
    bids: list[int] = []
    if rules.bidding is Bidding.STRAINS:
        strains = _strains(rules)
        for level in _levels(rules):
            bids.extend(BID_BASE + level * 6 + s for s in strains)
    elif rules.bidding is Bidding.TRICKS:
        for level in _levels(rules):
            bids.append(BID_BASE + level * 6 + NO_STRAIN)
            if rules.no_trump:
                bids.append(BID_BASE + level * 6 + Strain.NO_TRUMP)
    return tuple(bids)


@functools.lru_cache(maxsize=64)
def possible_bids(rules: Rules) -> tuple[int, ...]:
    """Every bid a player may make under ``rules``, as action ids, lowest first.

    The :func:`ladder` of a partnership auction; for individual bids, each
    number from the lowest individual minimum to 13.

    >>> from tarneeb.presets import find_rules
    >>> [format_action(b) for b in possible_bids(find_rules("syrian400"))][:3]
    ['2', '3', '4']
    """
    if rules.is_individual:
        return _individual_bids(min(bid for _, bid, _ in rules.individual_minimums))
    return ladder(rules)


@functools.lru_cache(maxsize=64)
def _over(rules: Rules) -> dict[int, tuple[int, ...]]:
    """For each bid (and ``-1``, no bid yet), the bids that outrank it."""
    bids = ladder(rules)
    over: dict[int, tuple[int, ...]] = {-1: bids}
    if rules.bidding is Bidding.STRAINS and rules.ladder is Ladder.STRAIN_AND_NUMBER:
        rank = {s: i for i, s in enumerate(_strains(rules))}
        for bid in bids:
            level, strain = divmod(bid - BID_BASE, 6)
            over[bid] = tuple(
                b for b in bids if level_of(b) > level and rank[(b - BID_BASE) % 6] > rank[strain]
            )
    else:
        for i, bid in enumerate(bids):
            over[bid] = bids[i + 1 :]
    return over


def ladder_over(rules: Rules, high: int) -> tuple[int, ...]:
    """The bids that outrank the bid ``high`` (``-1``: every bid), lowest first.

    ``ladder='number-or-strain'``: a higher number, or the same number in a
    higher strain. ``ladder='strain-and-number'`` (seed 003): a higher number
    and a higher strain at once, so after no-trump nothing outranks a bid.
    """
    return _over(rules).get(high, ())


def max_auction_actions(rules: Rules) -> int:
    """The most actions an auction (with its raise and trump choice) can take.

    Each bid outranks the last and each pass or double puts a seat out; a
    raise or stand and a trump choice may follow.
    """
    if rules.is_individual:
        return 4
    return len(ladder(rules)) + 4 + 2


# -- the procedures -------------------------------------------------------------------


class Auction:
    """The state of one deal's auction; a subclass for each procedure.

    ``to_act`` is the seat to act; :meth:`push` takes an action (already
    checked against :meth:`legal_ids`) and returns ``True`` when the auction
    is over: then ``thrown`` says why the deal was thrown in, or the contract
    is read from ``high``, ``high_seat``, ``doubler`` and ``nbids`` (or the
    individual ``bids``).
    """

    __slots__ = (
        "acted",
        "bidders",
        "bids",
        "dealer",
        "doubler",
        "high",
        "high_seat",
        "nbids",
        "out",
        "rules",
        "scores",
        "thrown",
        "to_act",
    )

    rules: Rules
    dealer: int
    scores: tuple[int, int, int, int]
    to_act: int
    high: int
    high_seat: int
    out: int
    bidders: int
    acted: int
    doubler: int
    nbids: int
    bids: list[int]
    thrown: ThrowIn | None

    def __init__(self, rules: Rules, dealer: int, scores: tuple[int, int, int, int]) -> None:
        self.rules = rules
        self.dealer = dealer
        self.scores = scores
        self.reset()

    def reset(self) -> None:
        """The state before the first action."""
        self.to_act = (self.dealer + 1) & 3
        self.high = -1
        self.high_seat = -1
        self.out = 0
        self.bidders = 0
        self.acted = 0
        self.doubler = -1
        self.nbids = 0
        self.bids = [-1, -1, -1, -1]
        self.thrown = None

    def copy(self) -> Auction:
        other = object.__new__(type(self))
        for name in Auction.__slots__:
            setattr(other, name, getattr(self, name))
        other.bids = self.bids[:]
        return other

    def key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in Auction.__slots__)

    def legal_ids(self, hand: int) -> tuple[int, ...]:
        """The legal actions of the seat to act, holding ``hand``."""
        raise NotImplementedError

    def push(self, seat: int, a: int) -> bool:
        """Take action ``a`` for ``seat``; whether the auction is over."""
        raise NotImplementedError

    def refusal(self, seat: int, a: int) -> str | None:
        """Why the bid or pass ``a`` is not legal now, when the procedure can say."""
        raise NotImplementedError

    def first_leader(self) -> int:
        """Who leads to the first trick, once the auction is over."""
        raise NotImplementedError

    def score(self, tricks: list[int], points: list[int], multiplier: int) -> DealResult:
        """The result of the deal played after this auction."""
        raise NotImplementedError

    def _redeal_claim(self, seat: int, hand: int) -> bool:
        return self.rules.weak_redeal and not self.acted >> seat & 1 and is_weak_hand(hand)


def _all13(tricks: list[int]) -> Team | None:
    if tricks[0] + tricks[2] == 13:
        return Team.NS
    if tricks[1] + tricks[3] == 13:
        return Team.EW
    return None


class PartnershipAuction(Auction):
    """Bid in turn until all but the highest bidder have passed (trick or strain bids)."""

    __slots__ = ("_over", "_plain")

    _over: dict[int, tuple[int, ...]]
    _plain: dict[int, tuple[int, ...]] | None
    """Pass or any higher bid, by the highest bid so far, where that is the whole choice."""

    def __init__(self, rules: Rules, dealer: int, scores: tuple[int, int, int, int]) -> None:
        super().__init__(rules, dealer, scores)
        self._over, self._plain = _partnership_tables(rules)

    def copy(self) -> Auction:
        other = super().copy()
        assert isinstance(other, PartnershipAuction)
        other._over = self._over
        other._plain = self._plain
        return other

    def legal_ids(self, hand: int) -> tuple[int, ...]:
        if self._plain is not None:
            return self._plain[self.high]
        rules = self.rules
        seat = self.to_act
        out: list[int] = []
        if self._redeal_claim(seat, hand):
            out.append(REDEAL)
        forced = (
            rules.all_pass is AllPass.DEALER_BIDS
            and self.high < 0
            and seat == self.dealer
            and self.out == 15 ^ (1 << seat)
        )
        if not forced:
            out.append(PASS)
        if (
            rules.doubling is Doubling.DOUBLE
            and self.high >= 0
            and (self.high_seat ^ seat) & 1
            and self.doubler < 0
        ):
            out.append(DOUBLE)
        if not (rules.bid_once and self.bidders >> seat & 1):
            if forced:
                out.extend(b for b in self._over[-1] if level_of(b) == rules.min_bid)
            else:
                out.extend(self._over[self.high])
        return tuple(out)

    def push(self, seat: int, a: int) -> bool:
        bit = 1 << seat
        self.acted |= bit
        if a in (PASS, DOUBLE):
            self.out |= bit
            if a == DOUBLE:
                self.doubler = seat
        elif a == REDEAL:
            self.thrown = ThrowIn.WEAK_HAND
            return True
        else:
            self.high = a
            self.high_seat = seat
            self.bidders |= bit
            self.doubler = -1
            self.nbids += 1
        if self.high >= 0 and self.out | (1 << self.high_seat) == 15:
            return True
        if self.out == 15:
            self.thrown = ThrowIn.ALL_PASS
            return True
        nxt = (seat + 1) & 3
        while self.out >> nxt & 1:
            nxt = (nxt + 1) & 3
        self.to_act = nxt
        return False

    def refusal(self, seat: int, a: int) -> str | None:
        if a >= BID_BASE:
            if self.rules.bid_once and self.bidders >> seat & 1:
                return "each player bids only once (bid_once)"
            if a not in self._over:
                return "that is not a bid of these rules"
            if self.high >= 0:
                if self.rules.bidding is Bidding.STRAINS and self.rules.ladder is (
                    Ladder.STRAIN_AND_NUMBER
                ):
                    return (
                        f"it must outrank {format_action(self.high)}: a higher number and a "
                        "higher strain (ladder='strain-and-number')"
                    )
                return f"it must outrank {format_action(self.high)}"
        if a == PASS:
            return "the dealer must bid when the other three have passed"
        return None

    def first_leader(self) -> int:
        return self.high_seat

    def score(self, tricks: list[int], points: list[int], multiplier: int) -> DealResult:
        rules = self.rules
        d = self.high_seat
        taken_by = points if rules.count is Count.CARD_POINTS else tricks
        taken = taken_by[d] + taken_by[d ^ 2]
        against = taken_by[d ^ 1] + taken_by[d ^ 3]
        bid = level_of(self.high)
        decl, defs = score_contract(rules, bid, taken, against, multiplier)
        team_points = (decl, defs) if d & 1 == 0 else (defs, decl)
        bid13 = rules.count is Count.TRICKS and bid == 13
        return DealResult(team_points, None, taken >= bid, _all13(tricks), bid13)


@functools.lru_cache(maxsize=64)
def _partnership_tables(
    rules: Rules,
) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]] | None]:
    """The bids over each bid, and, for the common auction (no redeal claims, doubles,
    forced dealer or bid-once), pass or any higher bid ready-made for each highest bid."""
    over = _over(rules)
    plain = (
        not rules.weak_redeal
        and not rules.bid_once
        and rules.all_pass is AllPass.THROW_IN
        and rules.doubling is not Doubling.DOUBLE
    )
    return over, ({high: (PASS, *bids) for high, bids in over.items()} if plain else None)


class IndividualAuction(Auction):
    """Syrian 400: each player in turn bids once for their own tricks; no passing."""

    __slots__ = ()

    def legal_ids(self, hand: int) -> tuple[int, ...]:
        seat = self.to_act
        low = self.rules.individual_minimum(self.scores[seat])
        bids = _individual_bids(low)
        return (REDEAL, *bids) if self._redeal_claim(seat, hand) else bids

    def push(self, seat: int, a: int) -> bool:
        self.acted |= 1 << seat
        if a == REDEAL:
            self.thrown = ThrowIn.WEAK_HAND
            return True
        self.bids[seat] = level_of(a)
        if self.acted != 15:
            self.to_act = (seat + 1) & 3
            return False
        if sum(self.bids) < self.rules.total_minimum(max(self.scores)):
            self.thrown = ThrowIn.LOW_TOTAL
        return True

    def refusal(self, seat: int, a: int) -> str | None:
        if a >= BID_BASE:
            low = self.rules.individual_minimum(self.scores[seat])
            return f"individual bids run from {low} to 13"
        return None

    def first_leader(self) -> int:
        return (self.dealer + 1) & 3

    def score(self, tricks: list[int], points: list[int], multiplier: int) -> DealResult:
        sp = score_individual(self.rules, self.bids, tricks, self.scores)
        return DealResult((sp[0] + sp[2], sp[1] + sp[3]), sp, None, _all13(tricks), False)


@functools.lru_cache(maxsize=16)
def _individual_bids(lowest: int) -> tuple[int, ...]:
    return tuple(Bid(level).id for level in range(lowest, 14))


PROCEDURES: dict[Bidding, type[Auction]] = {
    Bidding.TRICKS: PartnershipAuction,
    Bidding.STRAINS: PartnershipAuction,
    Bidding.INDIVIDUAL: IndividualAuction,
}
"""The auction procedure of each kind of bidding."""
_PROCEDURE_OF = {bidding._value_: kind for bidding, kind in PROCEDURES.items()}


def auction_for(rules: Rules, dealer: int, scores: tuple[int, int, int, int]) -> Auction:
    """A new auction under ``rules``, by the procedure ``rules.bidding`` names."""
    return _PROCEDURE_OF[rules.bidding._value_](rules, dealer, scores)
