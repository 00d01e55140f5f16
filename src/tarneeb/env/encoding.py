"""The environments' action ids and observation vector (numpy only).

Every environment of :mod:`tarneeb.env` (PettingZoo, Gymnasium, OpenSpiel)
speaks the same dense action space and the same flat observation, built here.

Actions (version 0)
===================

The engine's ids (:mod:`tarneeb.actions`) run to 790 with gaps; the
environments compact them to a dense range for the rules in play. Ids below 61
are the engine's own:

=============================  ===============================================
env id                         action
=============================  ===============================================
0..51                          play that card: ``suit * 13 + rank`` (clubs,
                               diamonds, hearts, spades; rank 0 = deuce)
52                             pass
53                             double
54                             raise
55                             stand (decline to raise)
56                             redeal (claim a weak hand)
57..60                         trump: clubs, diamonds, hearts, spades
61 + 6 * k + strain            a bid: strain 0..3 a suit, 4 no-trump, 5 no
                               strain named; ``k = level - 1`` where bids count
                               tricks (levels 1..13), ``k = (level - min_bid)
                               // bid_step`` where they count card points
=============================  ===============================================

So every trick-counting preset has ``61 + 78 = 139`` actions and
``tarneeb400`` has ``61 + 7 * 6 = 103``. :class:`ActionMap` converts.

Observation (version 0)
=======================

A ``float32`` vector of :data:`OBS_SIZE` values in ``[-1, 1]``, made only of
what the observing seat may know (its :class:`~tarneeb.view.View`: its own
hand and the public actions). Seats are relative to the observer: 0 itself,
1 the next to play after it (its right), 2 its partner, 3 its left.

=========  ====  ==========================================================
offset     size  what
=========  ====  ==========================================================
0          52    own hand: 1 for each card still held
52         6     phase: auction, raise, trump, play, scored, thrown in
58         4     seat to act (relative), all 0 once the deal is over
62         4     dealer (relative)
66         40    auction, 10 per relative seat: has bid, its last bid level /
                 top (13, or 120 for card points), that bid's strain (6:
                 C, D, H, S, NT, none), passed, doubled
106        11    highest bid of the partnership auction: level / top, strain
                 (6), bidder (relative, 4)
117        12    contract: declarer (relative, 4), level / top, trump (5: C,
                 D, H, S, no-trump), multiplied (doubled or raised), raised
129        208   cards played by each relative seat (4 x 52)
337        208   cards of the trick under way, by relative seat (4 x 52)
545        4     leader of the trick under way (relative)
549        16    known voids: relative seat x suit, from failing to follow
                 (and from a first lead off trump where it must be a trump)
565        4     tricks taken by each relative seat / 13
569        4     scores before the deal by relative seat / target, clipped
                 to [-1, 1] (a side's score in partnership play)
573        4     card points (A 11, 10 10, K 4, Q 3, J 2) taken in tricks
                 by each relative seat / 120: what a deal counted in card
                 points (``tarneeb400``) is decided by
577        4     match of sets: sets won by the observer's side and by the
                 other side / sets, then the points of the finished sets
                 of each side / (target x sets), clipped to [-1, 1]; all 0
                 in a match of one set (the set is the match) or when the
                 encoder is not told of the match (:class:`MatchProgress`)
=========  ====  ==========================================================

Version history:

* 0, the first (cards, calls, then bids; 573 values);
* 1, card points taken and the match of sets (581 values; the blocks of
  version 0 keep their offsets).

>>> from tarneeb import Deal, find_rules
>>> deal = Deal.from_seed(find_rules("classic"), dealer=0, seed=1)
>>> obs = encode_view(deal.view(1))
>>> obs.shape, int(obs[:52].sum()), float(obs[OFFSETS["to_act"]])
((581,), 13, 1.0)
>>> amap = ActionMap(find_rules("classic"))
>>> amap.num_actions, amap.to_env[117], amap.to_engine[amap.to_env[117]]
(139, 108, 117)
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import NamedTuple, Protocol, cast

try:
    import numpy as np
    import numpy.typing as npt
except ImportError:  # `No module named 'numpy'` said nothing of the extra that brings it
    raise ImportError(
        "tarneeb.env needs numpy: pip install 'tarneeb[pettingzoo]' (or [gymnasium], "
        "[openspiel], [env])"
    ) from None

from tarneeb.actions import (
    BID_BASE,
    DOUBLE,
    PASS,
    Phase,
    Strain,
    action_id,
)
from tarneeb.auction import Contract
from tarneeb.cards import Suit
from tarneeb.game import DENSE_BID_OFFSET, DenseActions
from tarneeb.play import card_ids, trick_points, trick_winner
from tarneeb.rules import Rules
from tarneeb.seats import Seat
from tarneeb.view import View

__all__ = [
    "ACTION_VERSION",
    "BID_OFFSET",
    "OBS_SIZE",
    "OBS_VERSION",
    "OFFSETS",
    "ActionMap",
    "MatchProgress",
    "ObservationEncoder",
    "PublicState",
    "encode_view",
    "hand_bits",
    "match_progress",
]

ACTION_VERSION = 0
OBS_VERSION = 1
BID_OFFSET = DENSE_BID_OFFSET
_MASK_CACHE = 1 << 16
"""Env id of the first bid slot."""

_BLOCKS = (
    ("hand", 52),
    ("phase", 6),
    ("to_act", 4),
    ("dealer", 4),
    ("auction", 40),
    ("high_bid", 11),
    ("contract", 12),
    ("played", 208),
    ("trick", 208),
    ("leader", 4),
    ("voids", 16),
    ("tricks", 4),
    ("scores", 4),
    ("points", 4),
    ("match", 4),
)
OFFSETS: dict[str, int] = {}
_offset = 0
for _name, _size in _BLOCKS:
    OFFSETS[_name] = _offset
    _offset += _size
OBS_SIZE = _offset
"""Length of the observation vector (581)."""

_HAND = OFFSETS["hand"]
_PHASE = OFFSETS["phase"]
_TO_ACT = OFFSETS["to_act"]
_DEALER = OFFSETS["dealer"]
_AUCTION = OFFSETS["auction"]
_HIGH = OFFSETS["high_bid"]
_CONTRACT = OFFSETS["contract"]
_PLAYED = OFFSETS["played"]
_TRICK = OFFSETS["trick"]
_LEADER = OFFSETS["leader"]
_VOIDS = OFFSETS["voids"]
_TRICKS = OFFSETS["tricks"]
_SCORES = OFFSETS["scores"]
_POINTS = OFFSETS["points"]
_MATCH = OFFSETS["match"]
_ALL_POINTS = 120.0

_PHASES = {
    Phase.AUCTION: 0,
    Phase.RAISE: 1,
    Phase.TRUMP: 2,
    Phase.PLAY: 3,
    Phase.SCORED: 4,
    Phase.THROWN_IN: 5,
}

_PLAY = Phase.PLAY
FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def _rel(seat: int, observer: int) -> int:
    return (seat - observer) & 3


class _Layout:
    """Where the blocks of four observers' rows are, the rows laid ``stride`` values apart.

    For each acting seat ``s``, the offsets of ``s``'s relative blocks in the four
    observers' rows (add the card, the suit or the cell within the block).
    """

    __slots__ = (
        "auction_at",
        "bidder_at",
        "card_at",
        "high_at",
        "row_at",
        "seat_cells",
        "trick_at",
        "void_at",
    )

    def __init__(self, stride: int) -> None:
        self.row_at = [o * stride for o in range(4)]
        """Where each observer's row starts."""

        def at(block: int, width: int) -> list[list[int]]:
            return [
                [base + block + _rel(s, o) * width for o, base in enumerate(self.row_at)]
                for s in range(4)
            ]

        played = at(_PLAYED, 52)
        self.trick_at = at(_TRICK, 52)
        self.card_at = [(*ps, *ts) for ps, ts in zip(played, self.trick_at, strict=True)]
        self.void_at = at(_VOIDS, 4)
        self.auction_at = at(_AUCTION, 10)
        self.bidder_at = at(_HIGH + 7, 1)
        self.high_at = [base + _HIGH for base in self.row_at]
        self.seat_cells = at(0, 1)
        """``seat_cells[s]``: where seat ``s`` is in each observer's row, relative to the
        observer (add the block's offset)."""


_LAYOUTS: dict[int, _Layout] = {}
"""The layouts made, by stride."""


def _layout(stride: int) -> _Layout:
    layout = _LAYOUTS.get(stride)
    if layout is None:
        layout = _LAYOUTS[stride] = _Layout(stride)
    return layout


_ZEROS = cast("MutableSequence[float]", np.zeros(OBS_SIZE, np.float32).data)
"""Zeros to clear cells of a memoryview of rows at once."""
_ZERO_LIST: list[float] = np.zeros(OBS_SIZE).tolist()
"""Zeros to clear cells of a list of rows at once (float objects of their own)."""


_F32: dict[float, float] = {}
"""Values rounded to float32, by value (the rows hold few distinct ones: fractions of a
deal's tricks, points and bids, and of the target)."""


def _f32(value: float) -> float:
    """``value`` rounded to float32, as a row of the array holds it."""
    rounded = _F32.get(value)
    if rounded is None:
        rounded = float(np.float32(value))
        if len(_F32) < 65536:
            _F32[value] = rounded
    return rounded


class ActionMap:
    """The dense env action ids of one set of rules, and the engine ids they stand for.

    :ivar num_actions: the size of the action space.
    :ivar to_engine: env id -> engine id (``-1`` for a bid slot the rules never use).
    :ivar to_env: engine id -> env id (``-1`` for an engine id outside these rules).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        space = DenseActions(rules)  # the core's dense action space
        self.levels = space.levels
        self.num_actions = space.num_actions
        self._masks: dict[tuple[int, ...], MaskArray] = {}
        self._tail = bytes(self.num_actions - 52)
        self.to_engine: list[int] = space.to_engine
        self.to_env: list[int] = space.to_dense

    def env_ids(self, engine_ids: Iterable[int]) -> list[int]:
        """Env ids of engine ids."""
        to_env = self.to_env
        return [to_env[a] for a in engine_ids]

    def card_mask(self, cards: int) -> MaskArray:
        """The read-only int8 mask of the cards in the bitmask ``cards`` (bit ``c`` = card ``c``)."""
        table = _suit_bytes()
        raw = (
            table[cards & 0x1FFF]
            + table[cards >> 13 & 0x1FFF]
            + table[cards >> 26 & 0x1FFF]
            + table[cards >> 39]
            + self._tail
        )
        return np.frombuffer(raw, dtype=np.int8)

    def mask(self, engine_ids: tuple[int, ...], shared: bool = False) -> MaskArray:
        """The int8 mask of the env's action space with 1 at the env ids of ``engine_ids``.

        A new array, or with ``shared`` the cached one, read-only (the same
        legal actions give the same array; it never changes).
        """
        masks = self._masks
        mask = masks.get(engine_ids)
        if mask is None:
            if len(masks) >= _MASK_CACHE:
                masks.clear()
            mask = np.zeros(self.num_actions, dtype=np.int8)
            mask[self.env_ids(engine_ids)] = 1
            mask.flags.writeable = False
            masks[engine_ids] = mask
        if shared:
            return mask
        fresh: MaskArray = mask.copy()
        return fresh


class PublicState(Protocol):
    """What the encoder reads besides the actions: public facts of a deal.

    A :class:`~tarneeb.view.View` has them all (so does a
    :class:`~tarneeb.deal.Deal`, whose public properties are the same values).
    """

    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> Seat | None: ...
    @property
    def contract(self) -> Contract | None: ...
    @property
    def trump(self) -> Suit | None: ...
    @property
    def tricks_taken(self) -> tuple[int, int, int, int]: ...


class MatchProgress(NamedTuple):
    """How a match of sets stands before a deal, by side (North-South, East-West).

    >>> MatchProgress(sets_won=(2, 1), match_points=(130, 97)).sets_won
    (2, 1)
    """

    sets_won: tuple[int, int]
    match_points: tuple[int, int]
    """The points of the finished sets, added up (what a match of sets counts)."""


class _MatchLike(Protocol):
    @property
    def sets(self) -> Sequence[_SetLike]: ...
    @property
    def match_points(self) -> tuple[int, int]: ...


class _SetLike(Protocol):
    @property
    def winner(self) -> int: ...


def match_progress(match: _MatchLike | None) -> MatchProgress | None:
    """The :class:`MatchProgress` of a :class:`~tarneeb.match.Match` (``None`` for none)."""
    if match is None:
        return None
    won = [0, 0]
    for finished in match.sets:
        won[int(finished.winner)] += 1
    return MatchProgress((won[0], won[1]), match.match_points)


class ObservationEncoder:
    """Observations of one deal for all four seats, kept up to date action by action.

    The encoder holds one row per observing seat. Each row starts from that
    seat's own hand and the public facts (dealer, scores), then takes every
    public action (:meth:`add`), so the work per action is a handful of cell
    writes; :meth:`observe` copies one row and fills in what changes from turn
    to turn (phase, the seat to act, the leader, the contract, the tricks). A
    row never holds another seat's hand: the only private input is
    :meth:`start`'s ``hands[seat]``, for the row of ``seat``.

    The rows are a float32 array of shape ``(4, OBS_SIZE)``, or with ``into``
    the Python list given, row ``o`` at ``o * stride`` (the rows zeros when
    given, its other values left alone): OpenSpiel's readers copy their tensors from such a list, which
    a numpy array would cost a conversion each read. The list holds the
    array's values (float32 ones); the seat to act is left to its owner, and
    :meth:`row` and :meth:`observe` read only an array.
    """

    def __init__(
        self, rules: Rules, into: list[float] | None = None, stride: int = OBS_SIZE
    ) -> None:
        self.rules = rules
        self._top = float(rules.max_points_per_deal)
        self._target = float(max(1, rules.target))
        self._individual = rules.is_individual
        self._first_lead_trump = rules.first_lead_trump
        self._rows: FloatArray | None = None
        # Single cells are written through a memoryview: cheaper than numpy's item assignment.
        self._cells: MutableSequence[float]
        self._zeros: MutableSequence[float]
        if into is None:
            rows = self._rows = np.zeros((4, OBS_SIZE), dtype=np.float32)
            self._cells = cast("MutableSequence[float]", rows.reshape(-1).data)
            self._zeros = _ZEROS
            stride = OBS_SIZE
        else:
            self._cells = into
            self._zeros = _ZERO_LIST
        self._clean = into is not None
        """The rows are zeros (a list given is: see the class), so :meth:`start` need not
        clear them."""
        layout = _layout(stride)
        self._row_at = layout.row_at
        self._card_at = layout.card_at
        self._trick_at = layout.trick_at
        self._void_at = layout.void_at
        self._auction_at = layout.auction_at
        self._bidder_at = layout.bidder_at
        self._high_at = layout.high_at
        self._seat_cells = layout.seat_cells
        self._cards = 0
        self._lead_suit = -1
        self._leader = -1
        self._first: tuple[int, int] | None = None
        self._contract_dirty = True
        self._phase: Phase | None = None
        self._synced_cards = 0
        self._shown_leader = -1
        self._sets = rules.sets
        self._trick_cards: list[int] = []
        self._pending: list[tuple[int, list[int]]] = []
        self._points = [0, 0, 0, 0]
        self._tricks = [0, 0, 0, 0]
        """The tricks taken as the rows show them."""

    @property
    def rows(self) -> FloatArray:
        """The four rows, ``(4, OBS_SIZE)`` (an encoder writing into a list has none)."""
        rows = self._rows
        if rows is None:
            raise TypeError("this encoder writes its rows into a list")
        return rows

    def copy(self) -> ObservationEncoder:
        """An independent copy, to go on from here (a search clones states)."""
        other = ObservationEncoder.__new__(ObservationEncoder)
        other.__dict__.update(self.__dict__)
        if self._rows is None:
            other._cells = self._cells[:]
        else:
            rows = other._rows = self._rows.copy()
            other._cells = cast("MutableSequence[float]", rows.reshape(-1).data)
        other._trick_cards = self._trick_cards[:]
        other._pending = self._pending[:]
        other._points = self._points[:]
        other._tricks = self._tricks[:]
        return other

    def start(
        self,
        dealer: int,
        scores: Sequence[int],
        hands: Sequence[int | None],
        progress: MatchProgress | None = None,
    ) -> None:
        """Begin a deal: ``hands[seat]`` is the hand dealt to ``seat`` (``None`` when unknown).

        ``progress`` is how the match of sets stands (see :func:`match_progress`).
        """
        self._cards = 0
        self._lead_suit = -1
        self._leader = -1
        self._first = None
        self._contract_dirty = True
        self._phase = None
        self._synced_cards = 0
        self._shown_leader = -1
        self._trick_cards = []
        self._pending = []
        self._points = [0, 0, 0, 0]
        self._tricks = [0, 0, 0, 0]
        target = self._target
        cells = self._cells
        values = [_f32(min(1.0, max(-1.0, scores[s] / target))) for s in range(4)]
        clean = self._clean
        self._clean = False
        for o, base in enumerate(self._row_at):
            if not clean:
                cells[base : base + OBS_SIZE] = self._zeros
            mask = hands[o]
            if mask is not None:
                at = base + _HAND
                for card in card_ids(mask):
                    cells[at + card] = 1.0
            cells[base + _DEALER + _rel(dealer, o)] = 1.0
            for s in range(4):
                cells[base + _SCORES + _rel(s, o)] = values[s]
        if progress is not None and self._sets > 1:
            sets = float(self._sets)
            whole = target * sets
            for o, base in enumerate(self._row_at):
                mine, theirs = o & 1, (o & 1) ^ 1
                cells[base + _MATCH] = _f32(progress.sets_won[mine] / sets)
                cells[base + _MATCH + 1] = _f32(progress.sets_won[theirs] / sets)
                points = progress.match_points
                cells[base + _MATCH + 2] = _f32(min(1.0, max(-1.0, points[mine] / whole)))
                cells[base + _MATCH + 3] = _f32(min(1.0, max(-1.0, points[theirs] / whole)))

    def add(self, seat: int, a: int) -> None:
        """Take one public action: ``seat`` did engine action ``a``."""
        cells = self._cells
        if a < 52:
            n = self._cards & 3
            self._cards += 1
            cells[self._row_at[seat] + _HAND + a] = 0.0
            for at in self._card_at[seat]:
                cells[at + a] = 1.0
            suit = a // 13
            trick = self._trick_cards
            trick.append(a)
            if n == 0:
                self._lead_suit = suit
                self._leader = seat
                if self._cards == 1:
                    self._first = (seat, a)
            elif suit != self._lead_suit:
                lead = self._lead_suit
                for at in self._void_at[seat]:
                    cells[at + lead] = 1.0
            if n == 3:
                # The trick block empties: each card's cell in the four rows (the k-th card
                # of a trick is the leader's k-th seat round).
                leader = self._leader
                trick_at = self._trick_at
                for k, card in enumerate(trick):
                    for at in trick_at[(leader + k) & 3]:
                        cells[at + card] = 0.0
                # Who won it is settled in sync, which knows the trump.
                self._pending.append((leader, trick))
                self._trick_cards = []
            return
        self._contract_dirty = True
        if a in (PASS, DOUBLE):
            slot = 8 if a == PASS else 9
            for at in self._auction_at[seat]:
                cells[at + slot] = 1.0
        elif a >= BID_BASE:
            level, strain = divmod(a - BID_BASE, 6)
            value = _f32(level / self._top)
            zeros = self._zeros
            for at in self._auction_at[seat]:
                cells[at] = 1.0
                cells[at + 1] = value
                cells[at + 2 : at + 8] = zeros[:6]
                cells[at + 2 + strain] = 1.0
            if not self._individual:
                bidder = self._bidder_at[seat]
                for o, high in enumerate(self._high_at):
                    cells[high : high + 11] = zeros[:11]
                    cells[high] = value
                    cells[high + 1 + strain] = 1.0
                    cells[bidder[o]] = 1.0

    def sync(self, public: PublicState, to_act: int) -> None:
        """Bring the rows up to date with the public facts after the last :meth:`add`.

        ``to_act`` is ``int(public.to_act)``, or -1 once the deal is over.
        """
        phase = public.phase
        was_phase = self._phase
        if phase is not was_phase:
            self._phase = phase
            cells = self._cells
            for base in self._row_at:
                if was_phase is not None:
                    cells[base + _PHASE + _PHASES[was_phase]] = 0.0
                cells[base + _PHASE + _PHASES[phase]] = 1.0
        if self._contract_dirty:
            # In play the contract is settled; before it any action may change it.
            self._contract_dirty = phase is not _PLAY
            self._write_contract(public)
            if self._first is not None and self._first_lead_trump:
                self._first_lead_void(public)
        cards = self._cards
        if cards != self._synced_cards:
            done = cards >> 2 != self._synced_cards >> 2
            self._synced_cards = cards
            if self._first is not None and self._first_lead_trump:
                self._first_lead_void(public)
            if done:
                # Only the seats whose count changed, each in the four rows.
                tricks = public.tricks_taken
                shown = self._tricks
                cells = self._cells
                for seat in range(4):
                    if tricks[seat] != shown[seat]:
                        shown[seat] = tricks[seat]
                        value = _f32(tricks[seat] / 13.0)
                        for at in self._seat_cells[seat]:
                            cells[at + _TRICKS] = value
                self._take_tricks(public)
        leader = -1
        if phase is _PLAY:
            leader = self._leader if cards & 3 else to_act
        was = self._shown_leader
        if leader != was:
            # The block holds the leader shown alone: move it, cell by cell.
            self._shown_leader = leader
            cells = self._cells
            if was >= 0:
                for at in self._seat_cells[was]:
                    cells[at + _LEADER] = 0.0
            if leader >= 0:
                for at in self._seat_cells[leader]:
                    cells[at + _LEADER] = 1.0

    def row(self, seat: int, to_act: int, out: FloatArray | None = None) -> FloatArray:
        """The observation of ``seat`` after :meth:`sync`, in ``out`` or a new array."""
        rows = self.rows
        if out is None:
            out = rows[seat].copy()
        else:
            np.copyto(out, rows[seat])
        if to_act >= 0:
            out[_TO_ACT + ((to_act - seat) & 3)] = 1.0
        return out

    def observe(self, seat: int, public: PublicState, out: FloatArray | None = None) -> FloatArray:
        """The observation of ``seat`` now; ``public`` gives the public facts of this moment.

        Written into ``out`` when given (shape ``(OBS_SIZE,)``), else into a new array.
        """
        to_act = public.to_act
        t = -1 if to_act is None else int(to_act)
        self.sync(public, t)
        return self.row(seat, t, out)

    def _write_contract(self, public: PublicState) -> None:
        cells = self._cells
        zeros = self._zeros[:12]
        contract = public.contract
        trump = public.trump
        for base in self._row_at:
            cells[base + _CONTRACT : base + _CONTRACT + 12] = zeros
        if contract is not None:
            declarer = int(contract.declarer)
            level = _f32(contract.level / self._top)
            multiplied = 1.0 if contract.multiplier > 1 else 0.0
            raised = 1.0 if contract.raised else 0.0
            no_trump = contract.strain is Strain.NO_TRUMP
            for o, base in enumerate(self._row_at):
                at = base + _CONTRACT
                cells[at + ((declarer - o) & 3)] = 1.0
                cells[at + 4] = level
                cells[at + 10] = multiplied
                cells[at + 11] = raised
                if no_trump:
                    cells[at + 9] = 1.0
        if trump is not None:
            for base in self._row_at:
                cells[base + _CONTRACT + 5 + int(trump)] = 1.0

    def _take_tricks(self, public: PublicState) -> None:
        # The card points of the tricks finished since the last sync go to their winners.
        trump = public.trump
        t = -1 if trump is None else int(trump)
        points = self._points
        cells = self._cells
        for leader, cards in self._pending:
            got = trick_points(cards)
            if got:
                winner = trick_winner(leader, cards, t)
                points[winner] += got
                value = _f32(points[winner] / _ALL_POINTS)
                for at in self._seat_cells[winner]:
                    cells[at + _POINTS] = value
        self._pending = []

    def _first_lead_void(self, public: PublicState) -> None:
        # Where the first lead must be a trump, leading another suit shows that none was held.
        assert self._first is not None
        leader, card = self._first
        trump = public.trump
        if trump is None:
            return
        self._first = None
        if card // 13 == int(trump):
            return
        cells = self._cells
        for at in self._void_at[leader]:
            cells[at + int(trump)] = 1.0


_SUIT_BYTES: list[bytes] = []


def _suit_bytes() -> list[bytes]:
    """For each 13-bit holding, 13 bytes of 0 and 1 (built on first use)."""
    if not _SUIT_BYTES:
        _SUIT_BYTES.extend(bytes(h >> r & 1 for r in range(13)) for h in range(8192))
    return _SUIT_BYTES


def hand_bits(mask: int) -> FloatArray:
    """The 52 values 0/1 of the cards in ``mask`` (bit ``c`` = card ``c``), as the hand block."""
    raw = np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little", count=52).astype(np.float32)


def encode_view(
    view: View, out: FloatArray | None = None, progress: MatchProgress | None = None
) -> FloatArray:
    """The observation vector of ``view``'s seat, from the view alone.

    ``progress`` is how the match of sets stands (a view holds one deal). The
    environments keep an :class:`ObservationEncoder` up to date action by
    action instead (much faster); both give the same vector.
    """
    seat = int(view.seat)
    mine = view.hand.mask
    history: list[tuple[int, int]] = [(int(s), action_id(a)) for s, a in view.history]
    for s, a in history:
        if s == seat and a < 52:
            mine |= 1 << a
    encoder = ObservationEncoder(view.rules)
    hands: list[int | None] = [None, None, None, None]
    hands[seat] = mine
    encoder.start(view.dealer, view.scores, hands, progress)
    for s, a in history:
        encoder.add(s, a)
    return encoder.observe(seat, view, out)
