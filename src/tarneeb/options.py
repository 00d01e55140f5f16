"""The kinds of rule option, the enums of the named readings, and the specification of an option.

Every field of ``Rules`` is declared with one :class:`OptionSpec` (see
:func:`option`); the table of those specs, ``tarneeb.rules.OPTION_SPECS``, is
what validation, the flat-dict codec (``Rules.to_dict``/``from_dict``), the
``-o KEY=VALUE`` parser, the rules reference and the server's option list
read. A spec knows its option's kind, how to read a value from text or from a
plain JSON value, how to write it back, its readings (for an option with
named readings: every one), and its sources. What an option and its readings
mean is player text: it lives once, in the message catalogue
(:mod:`tarneeb.i18n`, ``option.NAME``, ``reading.NAME.VALUE``,
``note.NAME.VALUE``), and a spec's ``doc`` reads the English message.

Sources are ids (:data:`SOURCE_IDS`): ``"000"``, ``"002"`` and ``"003"`` are
the three written rule documents the project follows (the Spanish guide of the
Levant game, the Dutch rules of the Levant game played in sets, the Russian
description of the original and the Egyptian game), and ``"platforms"`` the
big Arabic card apps. An option or reading with no source is the project's
own choice where the sources are silent. Texts name no source: the reference
renders the ids as the names of the traditions.

The enums (:class:`Bidding`, :class:`Defenders`, ...) are the types of the
options with named readings; :mod:`tarneeb.rules` re-exports them.

>>> spec = IntOption(minimum=1).named("target", 41)
>>> spec.parse("31"), spec.to_plain(31), spec.kind
(31, 31, 'int')
>>> spec.doc
'Points a side needs at the end of a deal to win the set.'
>>> spec.parse("many")
Traceback (most recent call last):
...
tarneeb.errors.RulesError: target='many' is not a whole number
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import enum
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarneeb.actions import Strain
from tarneeb.cards import Suit
from tarneeb.errors import RulesError
from tarneeb.i18n import DEFAULT_LANGUAGE, core_catalogue

__all__ = [
    "SOURCE_IDS",
    "SUIT_ORDER",
    "SYRIAN_BID_VALUES",
    "SYRIAN_MINIMUMS",
    "AllPass",
    "BelowZero",
    "Bidding",
    "BoolOption",
    "ChoiceOption",
    "Count",
    "Defenders",
    "Doubling",
    "Failed",
    "IntOption",
    "KabshSide",
    "Ladder",
    "Made",
    "OptionSpec",
    "OptionalIntOption",
    "Reading",
    "StrainsOption",
    "SuitOption",
    "TableOption",
    "ThirteenWins",
    "option",
    "read_changes",
]

SOURCE_IDS: tuple[str, ...] = ("000", "002", "003", "platforms")
"""Where a rule comes from: the three rule documents, and the card apps."""

_NONE_TEXTS = ("none", "null", "")
_TRUE_TEXTS = ("true", "yes", "on", "1")
_FALSE_TEXTS = ("false", "no", "off", "0")


class _Choice(enum.Enum):
    """An option with named readings; its value is the text used in files and flags.

    What each reading means, and where it comes from, is in the option's spec
    (:data:`OPTION_SPECS`).
    """

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


class Bidding(_Choice):
    """What the auction bids for."""

    TRICKS = "tricks"
    STRAINS = "strains"
    INDIVIDUAL = "individual"


class Ladder(_Choice):
    """Which bids outrank the last one where every bid names its strain (Egyptian)."""

    # 003: «каждая последующая ставка помимо смены масти, должна быть в количественном
    # отношении выше, чем предыдущая», walking clubs, diamonds, hearts, spades «и наконец в
    # бескозырной»: the strains do not wrap, so after a bid in the highest strain nobody can
    # overbid.
    STRAIN_AND_NUMBER = "strain-and-number"
    # The bridge ladder of the card apps (7C, 7D, ... 7NT, 8C); records written before this
    # option was made were played on it, so it is the default.
    NUMBER_OR_STRAIN = "number-or-strain"


class Count(_Choice):
    """What bids, contracts and scores count."""

    TRICKS = "tricks"
    CARD_POINTS = "card-points"


class AllPass(_Choice):
    """What happens when nobody bids."""

    THROW_IN = "throw-in"
    DEALER_BIDS = "dealer-bids"


class Made(_Choice):
    """What declarers score for a made contract."""

    TAKEN = "taken"
    BID = "bid"


class Failed(_Choice):
    """What declarers score for a failed contract."""

    MINUS_BID = "minus-bid"
    ZERO = "zero"


class Defenders(_Choice):
    """What the defenders score."""

    TRICKS = "tricks"
    TRICKS_IF_SET = "tricks-if-set"
    SHORTFALL = "shortfall"


class KabshSide(_Choice):
    """Which side scores the kabsh for taking all 13 tricks without having bid 13."""

    DECLARERS = "declarers"
    EITHER = "either"


class ThirteenWins(_Choice):
    """Whether taking all 13 tricks wins the set outright."""

    NO = "no"
    ANY = "any"
    IF_BID = "if-bid"


class BelowZero(_Choice):
    """Whether a side below zero can win the set, and which score counts."""

    NO = "no"
    BEFORE_DEAL = "before-deal"
    AFTER_DEAL = "after-deal"


class Doubling(_Choice):
    """Whether stakes can be multiplied in the auction."""

    NONE = "none"
    RAISE = "raise"
    DOUBLE = "double"


# The defaults of the options of individual bidding (the 400 of the apps).
SYRIAN_MINIMUMS: tuple[tuple[int, int, int], ...] = (
    (0, 2, 11),
    (30, 3, 12),
    (40, 4, 13),
    (50, 5, 14),
)
SYRIAN_BID_VALUES: tuple[tuple[int, int, int], ...] = (
    (2, 2, 2),
    (3, 3, 3),
    (4, 4, 4),
    (5, 10, 5),
    (6, 12, 6),
    (7, 14, 14),
    (8, 16, 16),
    (9, 27, 27),
    (10, 40, 40),
    (11, 40, 40),
    (12, 40, 40),
    (13, 40, 40),
)
SUIT_ORDER: tuple[Strain, ...] = (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES)


@dataclass(frozen=True)
class Reading:
    """One named reading of an option: its value as written, where it comes from, what it means.

    What it means is player text, so it lives in the message catalogue
    (:mod:`tarneeb.i18n`): :attr:`doc` and :attr:`note` read the English
    messages ``reading.OPTION.VALUE`` and ``note.OPTION.VALUE``; the other
    languages have the same keys.
    """

    value: str
    """The text used in files, flags and JSON (``"minus-bid"``)."""
    sources: tuple[str, ...] = ()
    """Source ids (:data:`SOURCE_IDS`); empty for the project's own choice."""
    option: str = ""
    """The option's name (filled in with the spec's, by :meth:`OptionSpec.named`)."""

    @property
    def key(self) -> str:
        """The catalogue key of what the reading means: ``reading.OPTION.VALUE``."""
        return f"reading.{self.option}.{self.value}"

    @property
    def doc(self) -> str:
        """What the reading means, for players, in English (a clause, no capital, no full stop).

        :raises KeyError: when the catalogue has no such message.
        """
        return core_catalogue(DEFAULT_LANGUAGE)[self.key]

    @property
    def note(self) -> str:
        """A sentence more for the reference, where the sources differ in detail (or empty)."""
        return core_catalogue(DEFAULT_LANGUAGE).get(f"note.{self.option}.{self.value}", "")


@dataclass(frozen=True)
class OptionSpec:
    """The specification of one option (abstract: one subclass per kind).

    ``name`` and ``default`` are filled in from the ``Rules`` field by
    :meth:`named`; the rest is given where the field is declared.
    What the option sets is player text, kept in the message catalogue
    (:mod:`tarneeb.i18n`) as ``option.NAME``; :attr:`doc` reads the English.
    """

    sources: tuple[str, ...] = ()
    """Source ids of the option as a whole; for a choice, its readings' sources are added."""
    readings: tuple[Reading, ...] = ()
    """The named readings (every value of a choice, in order; empty for other kinds)."""
    minimum: int | None = None
    """The lowest whole number allowed (int kinds only)."""
    name: str = ""
    default: Any = None

    kind = "value"
    """The kind as text: ``enum``, ``int``, ``optional-int``, ``bool``, ``suit``, ``strains``,
    ``table``."""

    def named(self, name: str, default: Any) -> OptionSpec:
        """This spec for the field ``name`` with its default (checking the sources)."""
        for source in (*self.sources, *(s for r in self.readings for s in r.sources)):
            if source not in SOURCE_IDS:
                raise ValueError(f"{name}: unknown source {source!r}")
        readings = tuple(dataclasses.replace(r, option=name) for r in self.readings)
        return dataclasses.replace(self, name=name, default=default, readings=readings)

    @property
    def doc(self) -> str:
        """What the option sets, for players, in English (a sentence): ``option.NAME``.

        :raises KeyError: when the catalogue has no such message.
        """
        return core_catalogue(DEFAULT_LANGUAGE)[f"option.{self.name}"]

    @property
    def all_sources(self) -> tuple[str, ...]:
        """The option's sources and its readings', each once, in :data:`SOURCE_IDS` order."""
        found = {*self.sources, *(s for r in self.readings for s in r.sources)}
        return tuple(s for s in SOURCE_IDS if s in found)

    @property
    def choices(self) -> tuple[str, ...] | None:
        """The reading values of a choice (``None`` for other kinds)."""
        return None

    def reading(self, value: str) -> Reading:
        """The reading written ``value``.

        :raises KeyError: when the option has no such reading.
        """
        for reading in self.readings:
            if reading.value == value:
                return reading
        raise KeyError(value)

    def parse(self, value: Any) -> Any:
        """The typed value from a typed one, a plain JSON value or text.

        :raises RulesError: naming the option when the value is of no use.
        """
        raise NotImplementedError

    def parse_text(self, text: str) -> Any:
        """The typed value of ``text`` as written on a command line (``-o KEY=VALUE``).

        A JSON string (``"hearts"``, quotes included) counts as its text.
        """
        text = text.strip()
        if text.startswith('"'):
            with contextlib.suppress(ValueError):
                text = str(json.loads(text))
        return self.parse(text)

    def to_plain(self, value: Any) -> Any:
        """The plain JSON value of a typed value (what ``Rules.to_dict`` writes)."""
        return value

    def check(self, value: Any) -> None:
        """Refuse a value of the wrong type or out of range (the constructor's check).

        :raises RulesError: naming the option.
        """
        if not self.is_typed(value):
            raise RulesError(
                f"{self.name}={value!r} has the wrong type; use Rules.from_dict for text"
            )

    def is_typed(self, value: Any) -> bool:
        raise NotImplementedError

    def _refuse(self, value: Any, what: str) -> RulesError:
        return RulesError(f"{self.name}={value!r} is not {what}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_int(spec: OptionSpec, value: Any) -> int:
    if _is_int(value):
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]+\s*", value):
        return int(value)
    raise spec._refuse(value, "a whole number")


@dataclass(frozen=True)
class IntOption(OptionSpec):
    """A whole number, at least ``minimum`` where one is given."""

    kind = "int"

    def parse(self, value: Any) -> int:
        return _parse_int(self, value)

    def is_typed(self, value: Any) -> bool:
        return _is_int(value)

    def check(self, value: Any) -> None:
        super().check(value)
        if self.minimum is not None and value < self.minimum:
            raise RulesError(f"{self.name}={value} must be at least {self.minimum}")


@dataclass(frozen=True)
class OptionalIntOption(OptionSpec):
    """A whole number, or none (``None``: the option is off)."""

    kind = "optional-int"

    def parse(self, value: Any) -> int | None:
        if value is None or (isinstance(value, str) and value.strip().lower() in _NONE_TEXTS):
            return None
        return _parse_int(self, value)

    def is_typed(self, value: Any) -> bool:
        return value is None or _is_int(value)


@dataclass(frozen=True)
class BoolOption(OptionSpec):
    """On or off: ``true``/``false`` (also yes/no, on/off, 1/0 as text)."""

    kind = "bool"

    def parse(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in (*_TRUE_TEXTS, *_FALSE_TEXTS):
            return value.strip().lower() in _TRUE_TEXTS
        raise self._refuse(value, "true or false")

    def is_typed(self, value: Any) -> bool:
        return isinstance(value, bool)


@dataclass(frozen=True)
class ChoiceOption(OptionSpec):
    """One of named readings, an enum whose values are the readings' texts.

    ``legacy`` maps plain values an earlier version wrote (such as a boolean
    the option once was) to today's reading.
    """

    enum: type[enum.Enum] | None = None
    legacy: Mapping[Any, str] = field(default_factory=dict)

    kind = "enum"

    def named(self, name: str, default: Any) -> OptionSpec:
        assert self.enum is not None, name
        values = [str(m.value) for m in self.enum]
        if [r.value for r in self.readings] != values:
            raise ValueError(f"{name}: the readings must be the enum's values {values}, in order")
        return super().named(name, default)

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(r.value for r in self.readings)

    def parse(self, value: Any) -> Any:
        kind = self.enum
        assert kind is not None
        if isinstance(value, kind):
            return value
        if isinstance(value, bool) and value in self.legacy:
            value = self.legacy[value]
        for member in kind:
            if value == member.value or (
                isinstance(value, str)
                and value.strip().lower() in (member.value, member.name.lower())
            ):
                return member
        choices = ", ".join(repr(m.value) for m in kind)
        raise RulesError(f"{self.name}={value!r} is not one of {choices}")

    def to_plain(self, value: Any) -> Any:
        return value.value

    def is_typed(self, value: Any) -> bool:
        return self.enum is not None and isinstance(value, self.enum)


@dataclass(frozen=True)
class SuitOption(OptionSpec):
    """A suit, or none: ``hearts``, ``H``, ``♥``, ``none``."""

    kind = "suit"

    def parse(self, value: Any) -> Suit | None:
        if value is None or isinstance(value, Suit):
            return value
        if isinstance(value, str):
            if value.strip().lower() in _NONE_TEXTS:
                return None
            try:
                return Suit.parse(value)
            except ValueError:
                pass
        raise self._refuse(value, "a suit or none")

    def to_plain(self, value: Any) -> Any:
        return None if value is None else value.name.lower()

    def is_typed(self, value: Any) -> bool:
        return value is None or isinstance(value, Suit)


@dataclass(frozen=True)
class StrainsOption(OptionSpec):
    """An order of strains, lowest first: ``C,D,H,S``, ``C D H S`` or a JSON list of names."""

    kind = "strains"

    def parse(self, value: Any) -> tuple[Strain, ...]:
        items = value.replace(",", " ").split() if isinstance(value, str) else value
        if not isinstance(items, list | tuple):
            raise self._refuse(value, "a list of suits")
        try:
            return tuple(s if isinstance(s, Strain) else Strain.parse(str(s)) for s in items)
        except ValueError:
            raise self._refuse(value, "a list of suits") from None

    def parse_text(self, text: str) -> tuple[Strain, ...]:
        text = text.strip()
        if text.startswith("["):
            return self.parse(_json(self, text))
        return self.parse(text)

    def to_plain(self, value: Any) -> Any:
        return [s.name.lower() for s in value]

    def is_typed(self, value: Any) -> bool:
        return isinstance(value, tuple) and all(isinstance(s, Strain) for s in value)


@dataclass(frozen=True)
class TableOption(OptionSpec):
    """Rows of three whole numbers, as JSON: ``[[0,2,11],[30,3,12]]``."""

    kind = "table"

    def parse(self, value: Any) -> tuple[tuple[int, ...], ...]:
        try:
            rows = tuple(tuple(_parse_int(self, x) for x in row) for row in value)
        except TypeError:
            raise self._refuse(value, "a table of whole numbers") from None
        if any(len(row) != 3 for row in rows):
            raise RulesError(f"{self.name}: every row has three numbers")
        return rows

    def parse_text(self, text: str) -> tuple[tuple[int, ...], ...]:
        return self.parse(_json(self, text.strip()))

    def to_plain(self, value: Any) -> Any:
        return [list(row) for row in value]

    def is_typed(self, value: Any) -> bool:
        return isinstance(value, tuple) and all(
            isinstance(row, tuple) and len(row) == 3 and all(_is_int(x) for x in row)
            for row in value
        )


def _json(spec: OptionSpec, text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise RulesError(f"{spec.name}: {text!r} is not valid JSON") from None


def option(default: Any, spec: OptionSpec) -> Any:
    """A ``Rules`` field with its default and its specification."""
    return field(default=default, metadata={"spec": spec})


def read_changes(
    items: Sequence[str], specs: Mapping[str, OptionSpec], flag: str
) -> dict[str, Any]:
    """``KEY=VALUE`` items read by the options' specs (see ``tarneeb.rules.parse_rule_changes``)."""
    names = list(specs)
    changes: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise RulesError(f"{flag} expects OPTION=VALUE, not {item!r}")
        spec = specs.get(key)
        if spec is None:
            close = difflib.get_close_matches(key, names, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise RulesError(f"unknown rule option {key!r} ({hint}the options: {', '.join(names)})")
        try:
            changes[key] = spec.to_plain(spec.parse_text(text))
        except RulesError as exc:
            raise RulesError(f"{flag} {exc}") from None
    return changes
