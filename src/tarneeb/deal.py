"""One deal as a phase machine: auction, raise, trump, play, scored.

A :class:`Deal` holds four hands and every action taken on them. Actions are
ints (see :mod:`tarneeb.actions`); :meth:`Deal.push` takes them as ints,
objects or text and checks them, :meth:`Deal.push_unchecked` is the fast path
for search, and :meth:`Deal.pop` takes the last one back exactly. The auction
is the procedure :mod:`tarneeb.auction` picks for the rules; the rules of the
card play are :mod:`tarneeb.play`'s.

>>> from tarneeb.presets import find_rules
>>> deal = Deal.from_seed(find_rules("classic"), dealer=Seat.WEST, seed=7)
>>> deal.phase, deal.to_act
(Phase.AUCTION, Seat.SOUTH)
>>> for text in ["8", "pass", "pass", "pass", "S"]:
...     deal.push(text)
>>> deal.phase, deal.contract
(Phase.PLAY, Contract(Seat.SOUTH, 8, Strain.SPADES))
>>> len(deal.legal_actions), deal.legal_actions[0] in deal.hand(Seat.SOUTH)
(13, True)
>>> deal.push("AS")
Traceback (most recent call last):
...
tarneeb.errors.IllegalActionError: South cannot play AS in the play phase: it is not in South's hand
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tarneeb.actions import (
    BID_BASE,
    RAISE,
    STAND,
    TRUMP_BASE,
    Action,
    LegalActions,
    Phase,
    Strain,
    action_from_id,
    action_id,
    format_action,
    parse_action,
)
from tarneeb.auction import Auction, Contract, ThrowIn, auction_for, is_weak_hand, level_of
from tarneeb.cards import (
    SUIT_MASKS,
    CardSet,
    Suit,
    deal_masks,
    live_rng,
    seeded_rng,
    shuffled_deck,
)
from tarneeb.errors import IllegalActionError, InvalidActionError
from tarneeb.notation import deal_line
from tarneeb.play import (
    SHIFTS,
    STRENGTH_TABLES,
    SUIT_CARDS,
    Trick,
    hand_masks,
    legal_cards,
    legal_mask,
    play_out,
    suit_cards,
)
from tarneeb.rules import Doubling, Rules
from tarneeb.scoring import DealResult
from tarneeb.seats import SEATS, Seat
from tarneeb.trickbook import TrickBook
from tarneeb.view import View

__all__ = ["Contract", "Deal", "LegalActions", "ThrowIn", "Trick", "is_weak_hand"]

_PLAY = Phase.PLAY
_AUCTION = Phase.AUCTION
_SEAT_NAMES = ("South", "East", "North", "West")
_FOLLOW = SUIT_CARDS  # filled by suit_cards() when the play starts
_SHIFTS = SHIFTS
_NO_SCORES: tuple[int, int, int, int] = (0, 0, 0, 0)
_TRUMPS = (TRUMP_BASE, TRUMP_BASE + 1, TRUMP_BASE + 2, TRUMP_BASE + 3)


class Deal(TrickBook):
    """One deal: four hands and the actions taken on them.

    :param hands: the four hands as dealt, by seat (masks, card sets or text).
    :param scores: each seat's score before the deal (its side's score in a
        partnership game); individual bidding needs them for its minimums and
        values.
    :raises InvalidActionError: when the hands are not 13 cards each of one deck.

    ``repr(deal)`` is a :func:`~tarneeb.record.parse_deal` call that gives the
    deal back: its rules, dealer, scores, the hands as dealt and every action.

    >>> from tarneeb.presets import find_rules
    >>> from tarneeb.record import parse_deal
    >>> deal = Deal.from_seed(find_rules("sol"), dealer=Seat.NORTH, seed=3)
    >>> deal.push("8NT")
    >>> repr(deal)[:61]
    "parse_deal('tarneeb-deal/1 rules=sol dealer=N S=Q543.Q94.KQ98"
    >>> eval(repr(deal)) == deal
    True
    """

    __slots__ = (
        "_auction",
        "_declarer",
        "_hands",
        "_multiplier",
        "_raised",
        "_result",
        "_strain",
        "_to_act",
        "_trump",
        "dealer",
        "dealt",
        "rules",
        "scores",
    )

    rules: Rules
    dealer: Seat
    dealt: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    _auction: Auction
    _hands: list[int]
    _result: DealResult | None
    _to_act: int
    _declarer: int
    _strain: int
    _multiplier: int
    _raised: bool
    _trump: int

    def __init__(
        self,
        rules: Rules,
        dealer: Seat | int,
        hands: Sequence[int | CardSet | str],
        scores: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        masks = hand_masks(hands)
        if len(scores) != 4:
            raise InvalidActionError("scores must give one number per seat")
        self._setup(rules, Seat(dealer), masks, scores)

    def _setup(
        self, rules: Rules, dealer: Seat, masks: Sequence[int], scores: Sequence[int]
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.dealt = (masks[0], masks[1], masks[2], masks[3])
        self.scores = (
            _NO_SCORES
            if scores is _NO_SCORES
            else (int(scores[0]), int(scores[1]), int(scores[2]), int(scores[3]))
        )
        self._auction = auction_for(rules, dealer, self.scores)
        self._hands = list(masks)
        self._history = []
        self._seen = ((), ())
        self._actors = []
        self._played = []
        self._winners = []
        self._tricks = [0, 0, 0, 0]
        self._result = None
        self._start_auction(fresh=True)

    def _start_auction(self, fresh: bool = False) -> None:
        """The state before the first action (what :meth:`pop` replays the auction from)."""
        if not fresh:
            self._auction.reset()
        self._phase = Phase.AUCTION
        self._to_act = (self.dealer + 1) & 3
        self._declarer = -1
        self._strain = -1
        self._multiplier = 1
        self._raised = False
        self._trump = -1
        self._leader = -1
        self._first = -1

    # -- making deals -----------------------------------------------------------

    @classmethod
    def from_rng(
        cls,
        rules: Rules,
        dealer: Seat | int,
        rng: random.Random,
        scores: Sequence[int] = _NO_SCORES,
    ) -> Deal:
        """Shuffle with ``rng`` and deal by the rules' dealing pattern."""
        deal = object.__new__(cls)
        if type(dealer) is Seat:
            seat = dealer
        else:
            seat = SEATS[dealer] if type(dealer) is int and 0 <= dealer < 4 else Seat(dealer)
        deal._setup(rules, seat, deal_masks(shuffled_deck(rng), seat, rules.dealing), scores)
        return deal

    @classmethod
    def from_seed(
        cls,
        rules: Rules,
        dealer: Seat | int,
        seed: int | str | None = None,
        scores: Sequence[int] = (0, 0, 0, 0),
    ) -> Deal:
        """A reproducible deal for ``seed``, or a live one from the OS when it is ``None``."""
        rng = live_rng() if seed is None else seeded_rng(seed)
        return cls.from_rng(rules, dealer, rng, scores)

    def copy(self) -> Deal:
        """An independent copy (it can :meth:`pop` as far back as this one)."""
        other = object.__new__(Deal)
        for name in _SLOTS:
            setattr(other, name, getattr(self, name))
        other._auction = self._auction.copy()
        other._hands = self._hands[:]
        other._history = self._history[:]
        other._actors = self._actors[:]
        other._played = self._played[:]
        other._winners = self._winners[:]
        other._tricks = self._tricks[:]
        return other

    def __copy__(self) -> Deal:
        return self.copy()

    def _key(self) -> tuple[object, ...]:
        return (
            *(
                getattr(self, n)
                for n in Deal.__slots__
                if n not in ("_auction", "_seen", "_result")
            ),
            self._auction.key(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        line = deal_line(self.rules, self.dealer, self.scores, self.dealt, self.action_ids)
        return f"parse_deal({line!r})"

    # -- state for people ---------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_act(self) -> Seat | None:
        """The seat whose decision it is, or ``None`` once the deal is over."""
        return None if self._to_act < 0 else SEATS[self._to_act]

    def is_over(self) -> bool:
        """Whether the deal is scored or thrown in."""
        return self._to_act < 0

    @property
    def thrown_in(self) -> ThrowIn | None:
        """Why the deal was thrown in, if it was."""
        return self._auction.thrown if self._phase is Phase.THROWN_IN else None

    @property
    def result(self) -> DealResult | None:
        """What the deal scored, once it is over (``None`` before, or when thrown in)."""
        if self._result is None and self._phase is Phase.SCORED:
            points = self._card_points()
            self._result = self._auction.score(self._tricks, points, self._multiplier)
        return self._result

    def hand(self, seat: Seat | int) -> CardSet:
        """The cards ``seat`` still holds."""
        return CardSet(self._hands[seat])

    @property
    def hands(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        h = self._hands
        return CardSet(h[0]), CardSet(h[1]), CardSet(h[2]), CardSet(h[3])

    @property
    def trump(self) -> Suit | None:
        return None if self._trump < 0 else Suit(self._trump)

    @property
    def declarer(self) -> Seat | None:
        return None if self._declarer < 0 else Seat(self._declarer)

    @property
    def contract(self) -> Contract | None:
        """The partnership contract, once the auction has one."""
        if self._declarer < 0:
            return None
        strain: Strain | None = None
        if self._strain in (0, 1, 2, 3, 4):
            strain = Strain(self._strain)
        elif self._trump >= 0:
            strain = Strain(self._trump)
        doubler = self._auction.doubler
        return Contract(
            Seat(self._declarer),
            level_of(self._auction.high),
            strain,
            self._multiplier,
            None if doubler < 0 else Seat(doubler),
            self._raised,
        )

    @property
    def bids(self) -> tuple[int | None, int | None, int | None, int | None]:
        """Individual bids by seat (``None`` for a seat yet to bid, or in a partnership auction)."""
        b = [None if x < 0 else x for x in self._auction.bids]
        return b[0], b[1], b[2], b[3]

    # -- legal actions ----------------------------------------------------------------

    @property
    def legal_actions(self) -> LegalActions:
        """A lazy view of the legal actions: iterate it, test ``in``, take ``len``."""
        return LegalActions(self)

    def _lead_rule(self) -> tuple[int, int]:
        """The suit led to the trick under way (``-1``: none yet) and the suit a lead must be."""
        played = self._played
        n = len(played) & 3
        if n:
            return played[-n] // 13, -1
        if not played and self.rules.first_lead_trump:
            return -1, self._trump
        return -1, -1

    def legal_card_mask(self) -> int:
        """The legal cards as a bitmask (0 outside the play phase)."""
        if self._phase is not Phase.PLAY:
            return 0
        return legal_mask(self._hands[self._to_act], *self._lead_rule())

    def legal_action_ids(self) -> tuple[int, ...]:
        """The legal actions as ints, for search and environments."""
        phase = self._phase
        if phase is _PLAY:
            played = self._played
            n = len(played) & 3
            if n:
                # play.legal_cards' follow-suit lookup, inlined over its table (the hot loop).
                hand = self._hands[self._to_act]
                suit = played[-n] // 13
                return _FOLLOW[suit][hand >> _SHIFTS[suit] & 0x1FFF] or legal_cards(hand)
            if played or not self.rules.first_lead_trump:
                return legal_cards(self._hands[self._to_act])
            return legal_cards(self._hands[self._to_act], -1, self._trump)
        if phase is _AUCTION:
            return self._auction.legal_ids(self._hands[self._to_act])
        if phase is Phase.TRUMP:
            return _TRUMPS
        if phase is Phase.RAISE:
            return (RAISE, STAND)
        return ()

    def is_legal(self, action: Action | int | str) -> bool:
        try:
            a = self._parse(action)
        except InvalidActionError:
            return False
        if self._phase is Phase.PLAY:
            return a < 52 and bool(self.legal_card_mask() >> a & 1)
        return a in self.legal_action_ids()

    # -- pushing and popping --------------------------------------------------------

    def _parse(self, action: Action | int | str) -> int:
        if isinstance(action, str):
            return action_id(parse_action(action, self._phase))
        return action_id(action)

    def push(self, action: Action | int | str) -> None:
        """Take ``action`` for the seat to act, after checking it.

        :raises InvalidActionError: when it cannot be read as an action.
        :raises IllegalActionError: when the rules do not allow it now; the
            message names the seat, the phase and why. The deal is unchanged.
        """
        if type(action) is int and self._phase is _PLAY:
            seat = self._to_act
            hand = self._hands[seat]
            played = self._played
            n = len(played) & 3
            if 0 <= action < 52 and hand >> action & 1:
                if n:
                    lead = played[-n] // 13
                    ok = action // 13 == lead or not hand & SUIT_MASKS[lead]
                else:
                    ok = bool(played) or bool(self.legal_card_mask() >> action & 1)
                if ok:
                    # The card path of push_unchecked, inlined: this is the hot loop.
                    self._hands[seat] = hand ^ (1 << action)
                    played.append(action)
                    if n == 3:
                        self._end_trick()
                    else:
                        self._to_act = (seat + 1) & 3
                    return
            if 0 <= action < 52:
                raise IllegalActionError(self._refusal(action))
        elif (
            type(action) is int
            and self._phase is _AUCTION
            and action in self._auction.legal_ids(self._hands[self._to_act])
        ):
            self.push_unchecked(action)
            return
        elif type(action) is int and self._to_act >= 0 and action in self.legal_action_ids():
            self.push_unchecked(action)  # the raise and the trump choice
            return
        if self.is_over():
            shown = action if isinstance(action, str) else format_action(action)
            raise IllegalActionError(
                f"no action is possible: the deal is {self._phase} ({shown!r} refused)"
            )
        try:
            a = self._parse(action)
        except InvalidActionError as exc:
            raise InvalidActionError(
                f"{exc} ({_SEAT_NAMES[self._to_act]}, {self._phase} phase)"
            ) from None
        if not self.is_legal(a):
            raise IllegalActionError(self._refusal(a))
        self.push_unchecked(a)

    def _refusal(self, a: int) -> str:
        seat = self._to_act
        name = _SEAT_NAMES[seat]
        verb = "play" if a < 52 else ("bid" if a >= BID_BASE else "choose")
        head = f"{name} cannot {verb} {format_action(a)} in the {self._phase} phase"
        phase = self._phase
        if phase is Phase.PLAY:
            if a >= 52:
                return f"{head}: play a card"
            if not self._hands[seat] >> a & 1:
                return f"{head}: it is not in {name}'s hand"
            lead, _must = self._lead_rule()
            if lead >= 0:
                return f"{head}: {name} must follow suit ({Suit(lead).name.lower()} led)"
            return f"{head}: the first lead must be a trump"
        if phase is Phase.AUCTION:
            why = self._auction.refusal(seat, a)
            if why is not None:
                return f"{head}: {why}"
        ids = self.legal_action_ids()
        shown = ", ".join(format_action(a) for a in ids[:12])
        return f"{head}: the legal actions are {shown}" + (", ..." if len(ids) > 12 else "")

    def push_unchecked(self, a: int) -> None:
        """Take action id ``a`` without checking it (search and playouts only).

        An illegal id here corrupts the deal; use :meth:`push` for anything
        that did not come from :meth:`legal_action_ids`.
        """
        seat = self._to_act
        if a < 52:
            self._hands[seat] ^= 1 << a
            played = self._played
            played.append(a)
            if len(played) & 3:
                self._to_act = (seat + 1) & 3
            else:
                self._end_trick()
            return
        self._history.append(a)
        self._actors.append(seat)
        self._apply(seat, a)

    def _apply(self, seat: int, a: int) -> None:
        """Take the action ``a`` (not a card) for ``seat``."""
        phase = self._phase
        if phase is Phase.AUCTION:
            auction = self._auction
            if not auction.push(seat, a):
                self._to_act = auction.to_act
            elif auction.thrown is not None:
                self._phase = Phase.THROWN_IN
                self._to_act = -1
            else:
                self._end_auction()
        elif phase is Phase.TRUMP:
            self._trump = a - TRUMP_BASE
            self._start_play()
        elif phase is Phase.RAISE:
            if a == RAISE:
                self._multiplier = self.rules.double_factor
                self._raised = True
            self._after_raise()

    def _end_auction(self) -> None:
        auction = self._auction
        if auction.high < 0:  # individual bids: each for their own tricks, a fixed trump
            assert self.rules.fixed_trump is not None
            self._trump = self.rules.fixed_trump
            self._start_play()
            return
        self._declarer = auction.high_seat
        self._strain = (auction.high - BID_BASE) % 6
        if auction.doubler >= 0:
            self._multiplier = self.rules.double_factor
        if self.rules.doubling is Doubling.RAISE and auction.nbids == 1:
            self._phase = Phase.RAISE
            self._to_act = self._declarer
            return
        self._after_raise()

    def _after_raise(self) -> None:
        strain = self._strain
        if strain < 4:
            self._trump = strain
        elif strain == Strain.NO_TRUMP:
            self._trump = -1
        elif self.rules.fixed_trump is not None:
            self._trump = self.rules.fixed_trump
        else:
            self._phase = Phase.TRUMP
            self._to_act = self._declarer
            return
        self._start_play()

    def _start_play(self) -> None:
        suit_cards()  # the table legal_action_ids reads
        self._phase = Phase.PLAY
        self._first = self._leader = self._auction.first_leader()
        self._to_act = self._leader

    def _end_trick(self) -> None:
        played = self._played
        # play.winning_index for four cards, unrolled over its strength table (the hot loop).
        c0, c1, c2, c3 = played[-4:]
        table = STRENGTH_TABLES[c0 // 13 * 5 + self._trump + 1]
        index, top = 0, table[c0]
        if table[c1] > top:
            index, top = 1, table[c1]
        if table[c2] > top:
            index, top = 2, table[c2]
        if table[c3] > top:
            index = 3
        winner = (self._leader + index) & 3
        self._winners.append(winner)
        self._tricks[winner] += 1
        self._leader = winner
        if len(played) == 52:
            self._phase = Phase.SCORED
            self._to_act = -1  # the result is scored when first asked for
        else:
            self._to_act = winner

    def playout(self, rng: random.Random) -> None:
        """Finish the deal with uniformly random legal actions (the bots' fast path).

        The auction and the trump choice go through :meth:`push_unchecked`; the
        card play runs in one tight loop over ints, with :mod:`tarneeb.play`'s
        tables. ``pop`` works afterwards.
        """
        rand = rng.random
        while self._to_act >= 0 and self._phase is not _PLAY:
            ids = self.legal_action_ids()
            self.push_unchecked(ids[int(rand() * len(ids))])
        if self._to_act < 0:
            return
        self._leader = play_out(
            self._hands,
            self._played,
            self._winners,
            self._tricks,
            self._trump,
            self.rules.first_lead_trump,
            self._to_act,
            self._leader,
            rand,
        )
        self._phase = Phase.SCORED
        self._to_act = -1

    def pop(self) -> Action:
        """Take back the last action and return it.

        :raises IndexError: when no action has been taken.
        """
        played = self._played
        if played:
            a = played.pop()
            if len(played) & 3 == 3:
                # This card ended a trick: undo its winner; its leader leads again.
                winner = self._winners.pop()
                self._tricks[winner] -= 1
                self._leader = self._leader_of_trick(len(self._winners))
                seat = (self._leader + 3) & 3
                self._phase = Phase.PLAY
                self._result = None
            else:
                seat = (self._to_act + 3) & 3
            self._hands[seat] |= 1 << a
            self._to_act = seat
        elif not self._history:
            raise IndexError("pop from a deal with no actions")
        else:
            # The auction is short and rarely taken back: replay it rather than
            # save its state before every bid.
            a = self._history.pop()
            self._actors.pop()
            self._start_auction()
            for seat, action in zip(self._actors, self._history, strict=True):
                self._apply(seat, action)
        # Cut the views' caches back: the next push may differ from the one undone.
        seen, done = self._seen
        n = len(self._history) + len(played)
        if len(seen) > n or len(done) > len(self._winners):
            self._seen = (seen[:n], done[: len(self._winners)])
        return action_from_id(a)

    # -- views -----------------------------------------------------------------------

    def view(self, seat: Seat | int) -> View:
        """What ``seat`` may know: its own cards and everything public."""
        return View.of(self, Seat(seat))


_SLOTS = TrickBook.__slots__ + Deal.__slots__
