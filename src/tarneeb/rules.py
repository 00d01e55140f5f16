"""The rules of a game: one frozen value holding every option.

Where the seeds disagree, each reading is an option of :class:`Rules`; a
preset (:mod:`tarneeb.presets`) is a named :class:`Rules`. Any option can be
changed on top of a preset with :meth:`Rules.replace`; every combination is
checked when the value is made. Each option is declared once, as a field with
its specification (:data:`OPTION_SPECS`, :func:`option_spec`), which the
codec, the ``-o KEY=VALUE`` parser and the reference all read.

A new option is four things: its field here, declared with
``option(default, SomeOption(sources, ...))`` (for named readings, an enum
in :mod:`tarneeb.options` and a ``ChoiceOption`` with one ``Reading`` per
value); what it and its readings mean, as messages of every catalogue of
:mod:`tarneeb.i18n` (``option.NAME``, ``reading.NAME.VALUE``, optionally
``note.NAME.VALUE``: the spec's texts are the English ones); its checks
against other options in :mod:`tarneeb.validation`; and its logic where the
game uses it. Its default must play as the game did
without it, so that stored rules (records) replay as they were played.

>>> rules = Rules(target=31, bid_once=True)
>>> rules.target, rules.bidding
(31, Bidding.TRICKS)
>>> Rules.from_dict(rules.to_dict()) == rules
True
>>> Rules(bidding=Bidding.INDIVIDUAL)
Traceback (most recent call last):
...
tarneeb.errors.RulesError: bidding='individual' needs fixed_trump: every player bids for their own tricks with a fixed trump suit
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tarneeb.actions import Strain
from tarneeb.cards import Dealing, Suit
from tarneeb.errors import RulesError
from tarneeb.options import (
    SUIT_ORDER,
    SYRIAN_BID_VALUES,
    SYRIAN_MINIMUMS,
    AllPass,
    BelowZero,
    Bidding,
    BoolOption,
    ChoiceOption,
    Count,
    Defenders,
    Doubling,
    Failed,
    IntOption,
    KabshSide,
    Ladder,
    Made,
    OptionalIntOption,
    OptionSpec,
    Reading,
    StrainsOption,
    SuitOption,
    TableOption,
    ThirteenWins,
    option,
    read_changes,
)
from tarneeb.validation import below_zero_problem, validate

__all__ = [
    "OPTION_SPECS",
    "AllPass",
    "BelowZero",
    "Bidding",
    "Count",
    "Defenders",
    "Doubling",
    "Failed",
    "KabshSide",
    "Ladder",
    "Made",
    "Rules",
    "ThirteenWins",
    "option_spec",
    "parse_rule_changes",
]

_ALL = ("000", "002", "003")
_APPS = ("platforms",)


@dataclass(frozen=True)
class Rules:
    """Every rule option of Tarneeb. The defaults are the ``classic`` preset.

    Each field is declared with its :class:`~tarneeb.options.OptionSpec`
    (kind, parsing, readings, sources; its meaning is read from the message
    catalogue, ``option.NAME``); :data:`OPTION_SPECS` is that table. A new option is its field here, with its spec, and its logic.

    :raises RulesError: on a value or combination of options that cannot work;
        the message names the options.
    """

    target: int = option(41, IntOption(_ALL, minimum=1))
    sets: int = option(1, IntOption(("002",), minimum=1))
    dealing: Dealing = option(
        Dealing.PACKETS_4_4_5,
        ChoiceOption(
            readings=(
                Reading("one-at-a-time", _ALL),
                Reading("4-4-5", ("000",)),
                Reading("13-at-once", ("002",)),
            ),
            enum=Dealing,
        ),
    )
    bidding: Bidding = option(
        Bidding.TRICKS,
        ChoiceOption(
            readings=(
                Reading("tricks", _ALL),
                Reading("strains", ("003",)),
                Reading("individual", _APPS),
            ),
            enum=Bidding,
        ),
    )
    count: Count = option(
        Count.TRICKS,
        ChoiceOption(
            readings=(Reading("tricks", _ALL), Reading("card-points", ("000",))), enum=Count
        ),
    )
    min_bid: int = option(7, IntOption(_ALL))
    max_bid: int = option(13, IntOption(_ALL))
    bid_step: int = option(1, IntOption(minimum=1))
    # 000's "once passed, no more bids" and 002's "bid once unless overbid by a later player"
    # come to the same thing: a bidder's turn only comes back after someone has overbid them.
    bid_once: bool = option(False, BoolOption(_ALL))
    all_pass: AllPass = option(
        AllPass.THROW_IN,
        ChoiceOption(
            readings=(Reading("throw-in", ("000", "003")), Reading("dealer-bids", ("003",))),
            enum=AllPass,
        ),
    )
    ladder: Ladder = option(
        Ladder.NUMBER_OR_STRAIN,
        ChoiceOption(
            readings=(
                Reading("strain-and-number", ("003",)),
                Reading("number-or-strain", _APPS),
            ),
            enum=Ladder,
        ),
    )
    no_trump: bool = option(False, BoolOption(("000", "003")))
    strain_order: tuple[Strain, ...] = option(SUIT_ORDER, StrainsOption(("003", "platforms")))
    fixed_trump: Suit | None = option(None, SuitOption(_APPS))
    first_lead_trump: bool = option(False, BoolOption(("002", "003")))
    made: Made = option(
        Made.TAKEN,
        ChoiceOption(("003",), readings=(Reading("taken", _ALL[:2]), Reading("bid")), enum=Made),
    )
    failed: Failed = option(
        Failed.MINUS_BID,
        ChoiceOption(
            readings=(Reading("minus-bid", _ALL[:2]), Reading("zero", ("003",))), enum=Failed
        ),
    )
    defenders: Defenders = option(
        Defenders.TRICKS,
        ChoiceOption(
            readings=(
                Reading("tricks", ("000",)),
                Reading("tricks-if-set", ("002",)),
                Reading("shortfall", ("003",)),
            ),
            enum=Defenders,
        ),
    )
    bid13_made: int | None = option(16, OptionalIntOption(("000", "003")))
    bid13_failed: int | None = option(None, OptionalIntOption(("003",)))
    bid13_shortfall_factor: int = option(1, IntOption(("003",), minimum=1))
    kabsh: int | None = option(None, OptionalIntOption(("000", "003")))
    kabsh_side: KabshSide = option(
        KabshSide.DECLARERS,
        ChoiceOption(
            readings=(Reading("declarers", ("003",)), Reading("either", ("000",))), enum=KabshSide
        ),
    )
    thirteen_wins: ThirteenWins = option(
        ThirteenWins.NO,
        ChoiceOption(
            readings=(
                Reading("no", _ALL[::2]),
                Reading("any", ("002",)),
                Reading("if-bid", ("002",)),
            ),
            enum=ThirteenWins,
        ),
    )
    no_win_below_zero: BelowZero = option(
        BelowZero.NO,
        ChoiceOption(
            readings=(
                Reading("no", _ALL[::2]),
                Reading("before-deal", ("002",)),
                Reading("after-deal", ("002",)),
            ),
            enum=BelowZero,
            # Earlier versions wrote this option as a boolean (true: the after-deal reading).
            legacy={True: "after-deal", False: "no"},
        ),
    )
    doubling: Doubling = option(
        Doubling.NONE,
        ChoiceOption(
            readings=(
                Reading("none", _ALL[:2]),
                Reading("raise", ("003",)),
                Reading("double", _APPS),
            ),
            enum=Doubling,
        ),
    )
    double_factor: int = option(2, IntOption(("003",), minimum=2))
    weak_redeal: bool = option(False, BoolOption(("003",)))
    individual_minimums: tuple[tuple[int, int, int], ...] = option(
        SYRIAN_MINIMUMS, TableOption(_APPS)
    )
    bid_values: tuple[tuple[int, int, int], ...] = option(SYRIAN_BID_VALUES, TableOption(_APPS))
    value_threshold: int = option(30, IntOption(_APPS))
    partner_zero_ok: bool = option(False, BoolOption(_APPS))

    def __post_init__(self) -> None:
        validate(self, OPTION_SPECS)

    def __hash__(self) -> int:
        # Rules key the per-rules tables of every deal: hash the options once.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, name) for name in OPTION_SPECS))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, Any]:
        # The cached hash belongs to this process (str hashes are salted per process).
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            object.__setattr__(self, key, value)

    # -- derived -------------------------------------------------------------

    @property
    def is_individual(self) -> bool:
        return self.bidding is Bidding.INDIVIDUAL

    @property
    def max_points_per_deal(self) -> int:
        return 120 if self.count is Count.CARD_POINTS else 13

    def bid_value(self, bid: int, score: int) -> int:
        """What an individual bid of ``bid`` is worth to a bidder with ``score``."""
        for row_bid, value, high_value in self.bid_values:
            if row_bid == bid:
                return high_value if score >= self.value_threshold else value
        return bid

    def individual_minimum(self, score: int) -> int:
        """The lowest individual bid of a player with ``score``."""
        lowest = self.individual_minimums[0][1]
        for threshold, bid, _total in self.individual_minimums:
            if score >= threshold:
                lowest = bid
        return lowest

    def total_minimum(self, top_score: int) -> int:
        """The lowest sum of individual bids when the highest score at the table is ``top_score``."""
        lowest = self.individual_minimums[0][2]
        for threshold, _bid, total in self.individual_minimums:
            if top_score >= threshold:
                lowest = total
        return lowest

    # -- changing and storing -------------------------------------------------

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (values as in :meth:`from_dict` or typed).

        :raises RulesError: on an unknown option, a bad value or a bad combination.
        """
        data = self.to_dict()
        for key, value in changes.items():
            spec = _spec(key)
            data[key] = spec.to_plain(value) if spec.is_typed(value) else value
        return Rules.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        """The options as a flat dict of JSON values (enums as their text)."""
        return {
            f.name: OPTION_SPECS[f.name].to_plain(getattr(self, f.name))
            for f in dataclasses.fields(self)
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a flat dict as :meth:`to_dict` writes it; missing options keep defaults.

        Dicts written by earlier versions read as they played: ``no_win_below_zero``
        was a boolean, and ``true`` is the ``after-deal`` reading, or ``no``
        where that reading has no effect (as it had none then).

        :raises RulesError: on an unknown option or a value of the wrong kind.
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be a mapping of options, not {type(data).__name__}")
        kwargs = {key: _spec(key).parse(value) for key, value in data.items()}
        if data.get("no_win_below_zero") is True:
            off = cls(**{**kwargs, "no_win_below_zero": BelowZero.NO})
            if below_zero_problem(off, BelowZero.AFTER_DEAL) is not None:
                return off
        return cls(**kwargs)

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(OPTION_SPECS)

    @classmethod
    def option_spec(cls, name: str) -> OptionSpec:
        """The specification of one option; see :func:`option_spec`."""
        return option_spec(name)

    @classmethod
    def option_doc(cls, name: str) -> tuple[str, str]:
        """The description of one option, and the rule documents it comes from (``"000 003"``).

        A view of :func:`option_spec`: the seeds are the spec's sources that
        are documents, readings' included ("platforms" left out).
        """
        spec = option_spec(name)
        return spec.doc, " ".join(s for s in spec.all_sources if s != "platforms")

    @classmethod
    def option_choices(cls, name: str) -> tuple[str, ...] | None:
        """The readings of an option with named choices (``None`` for the others)."""
        return option_spec(name).choices


OPTION_SPECS: Mapping[str, OptionSpec] = MappingProxyType(
    {
        f.name: f.metadata["spec"].named(f.name, f.default)
        for f in dataclasses.fields(Rules)
        if "spec" in f.metadata
    }
)
"""The table of option specifications, one per field of :class:`Rules`, in field order."""


def option_spec(name: str) -> OptionSpec:
    """The specification of the option ``name``.

    An :class:`~tarneeb.options.OptionSpec`: ``name``; ``kind`` (``"enum"``,
    ``"int"``, ``"optional-int"``, ``"bool"``, ``"suit"``, ``"strains"`` or
    ``"table"``); ``default`` (the typed classic value); ``doc`` (what it
    sets, a sentence in English: the catalogue's ``option.NAME``);
    ``sources`` and ``all_sources`` (source ids of
    :data:`~tarneeb.options.SOURCE_IDS`; ``all_sources`` adds the
    readings'); ``readings`` (for an enum, every value in order, each a
    :class:`~tarneeb.options.Reading` with ``value``, ``doc`` (a clause),
    ``sources`` and ``note`` (a sentence, or empty), both English messages of
    the catalogue); ``choices`` (the
    reading values, ``None`` for other kinds); ``minimum`` (ints); and
    ``parse(value)``, ``parse_text(text)``, ``to_plain(value)``.

    >>> spec = option_spec("failed")
    >>> spec.kind, spec.choices, spec.reading("zero").sources
    ('enum', ('minus-bid', 'zero'), ('003',))
    >>> option_spec("target").minimum
    1

    :raises RulesError: when there is no such option.
    """
    return _spec(name)


def _spec(name: str) -> OptionSpec:
    spec = OPTION_SPECS.get(name)
    if spec is None:
        raise RulesError(f"unknown rule option {name!r}")
    return spec


def parse_rule_changes(items: Sequence[str], flag: str = "-o") -> dict[str, Any]:
    """Option changes written ``KEY=VALUE`` (as on a command line), for :meth:`Rules.replace`.

    Each value is read by its option's spec: a number, ``true``/``false``,
    ``none``, a reading (``minus-bid``), a suit (``hearts``), strains
    (``C,S,H,D``) or JSON for a table (``[[0,2,11]]``); dashes in a key count
    as underscores. The values come back as :meth:`Rules.to_dict` writes them.

    :raises RulesError: on an item without ``=``, an unknown option (naming the
        nearest, or listing them all) or a value the option cannot take.

    >>> parse_rule_changes(["target=31", "bid-once=true", "fixed_trump=H"])
    {'target': 31, 'bid_once': True, 'fixed_trump': 'hearts'}
    """
    return read_changes(items, OPTION_SPECS, flag)
