"""The rules of a game: one frozen value holding every option.

Where the seeds disagree, each reading is an option of :class:`Rules`; a
preset (:mod:`tarneeb.presets`) is a named :class:`Rules`. Any option can be
changed on top of a preset with :meth:`Rules.replace`; every combination is
checked when the value is made.

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
import difflib
import enum
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tarneeb.actions import Strain
from tarneeb.cards import Dealing, Suit
from tarneeb.errors import RulesError

__all__ = [
    "AllPass",
    "Bidding",
    "Count",
    "Defenders",
    "Doubling",
    "Failed",
    "Ladder",
    "Made",
    "Rules",
    "ThirteenWins",
    "parse_rule_changes",
]


class _Choice(enum.Enum):
    """An option with named readings; its value is the text used in files and flags."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


class Bidding(_Choice):
    """What the auction bids for."""

    TRICKS = "tricks"
    """Partnership bids of a number of tricks; the winner then names trump (000, 002, 003)."""
    STRAINS = "strains"
    """Egyptian: every bid names its strain, and a bid must outrank the last (003)."""
    INDIVIDUAL = "individual"
    """Syrian 400: each player bids for their own tricks, once, with a fixed trump."""


class Ladder(_Choice):
    """Which bids outrank the last one where every bid names its strain (Egyptian).

    The strains rank as ``strain_order`` gives them, lowest first, with
    no-trump (where allowed) above them all.
    """

    STRAIN_AND_NUMBER = "strain-and-number"
    """Each later bid names a higher strain and a higher number (003: «каждая последующая ставка
    помимо смены масти, должна быть в количественном отношении выше, чем предыдущая»). The
    strains do not wrap: after a no-trump bid, or a bid at the top of both ladders, nobody can
    overbid (003 walks clubs, diamonds, hearts, spades «и наконец в бескозырной», no-trump last)."""
    NUMBER_OR_STRAIN = "number-or-strain"
    """The bridge ladder of the app platforms: a higher number, or the same number in a higher
    strain (7C, 7D, ... 7NT, 8C, ...). Records written before this option was made play it."""


class Count(_Choice):
    """What bids, contracts and scores count."""

    TRICKS = "tricks"
    CARD_POINTS = "card-points"
    """Seed 000's Tarneeb 400: A 11, 10 10, K 4, Q 3, J 2; 120 a deal."""


class AllPass(_Choice):
    """What happens when nobody bids."""

    THROW_IN = "throw-in"
    """The deal is thrown in and the next dealer deals (000, 003)."""
    DEALER_BIDS = "dealer-bids"
    """When the first three have passed, the dealer must bid the minimum (003 option)."""


class Made(_Choice):
    """What declarers score for a made contract."""

    TAKEN = "taken"
    """The tricks (or card points) actually taken: bid 8 take 9 scores 9 (000, 002)."""
    BID = "bid"
    """The bid only: bid 8 take 9 scores 8."""


class Failed(_Choice):
    """What declarers score for a failed contract."""

    MINUS_BID = "minus-bid"
    """They lose the bid: bid 9 take 8 scores -9 (000, 002)."""
    ZERO = "zero"
    """They score nothing (003's difference scoring)."""


class Defenders(_Choice):
    """What the defenders score."""

    TRICKS = "tricks"
    """Always their tricks (or card points) taken, made or failed (000)."""
    TRICKS_IF_SET = "tricks-if-set"
    """Their tricks, only when the contract fails (002)."""
    SHORTFALL = "shortfall"
    """Only when the contract fails: the bid minus the declarers' tricks (003)."""


class ThirteenWins(_Choice):
    """Whether taking all 13 tricks wins the set outright."""

    NO = "no"
    ANY = "any"
    """Any side taking all 13 tricks wins the set (002)."""
    IF_BID = "if-bid"
    """Only declarers who bid 13 and took 13 win the set (002, Falamanki Dubai)."""


class Doubling(_Choice):
    """Whether stakes can be multiplied in the auction."""

    NONE = "none"
    RAISE = "raise"
    """The only bidder of an auction may raise the contract: every point counts
    ``double_factor`` times (003, Egyptian)."""
    DOUBLE = "double"
    """An opponent of the highest bidder may say double instead of pass; if
    that bid wins the auction every point counts ``double_factor`` times."""


_E = TypeVar("_E", bound=_Choice)

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


def _opt(default: Any, doc: str, seeds: str = "") -> Any:
    return field(default=default, metadata={"doc": doc, "seeds": seeds})


@dataclass(frozen=True)
class Rules:
    """Every rule option of Tarneeb. The defaults are the ``classic`` preset.

    :raises RulesError: on a value or combination of options that cannot work;
        the message names the options.
    """

    target: int = _opt(
        41, "Points a side needs at the end of a deal to win the set.", "000 002 003"
    )
    sets: int = _opt(
        1,
        "Sets in a match; with more than one, the side with the most points over all sets wins.",
        "002",
    )
    dealing: Dealing = _opt(
        Dealing.PACKETS_4_4_5,
        "How the cards are dealt from the shuffled deck (changes the hands a seed gives).",
        "000 002 003",
    )
    bidding: Bidding = _opt(Bidding.TRICKS, "What the auction bids for.", "000 003")
    count: Count = _opt(Count.TRICKS, "What bids, contracts and scores count.", "000")
    min_bid: int = _opt(7, "The lowest bid (tricks, or card points).", "000 002 003")
    max_bid: int = _opt(13, "The highest bid.", "000 002 003")
    bid_step: int = _opt(1, "Bids go up in steps of this much.", "")
    bid_once: bool = _opt(
        False,
        "A player may bid only once in an auction. (Otherwise a player who has not passed may "
        "bid again when overbid; 000's and 002's wordings come to the same thing, since a "
        "bidder's turn only comes back after someone has overbid them.)",
        "003",
    )
    all_pass: AllPass = _opt(AllPass.THROW_IN, "What happens when nobody bids.", "000 003")
    ladder: Ladder = _opt(
        Ladder.NUMBER_OR_STRAIN,
        "With bidding='strains': which bids outrank the last (the seed's strain-and-number, or "
        "the app platforms' number-or-strain).",
        "003",
    )
    no_trump: bool = _opt(
        False,
        "No-trump (Sol) bids: a no-trump bid outranks a suit bid of the same number.",
        "000 003",
    )
    strain_order: tuple[Strain, ...] = _opt(
        SUIT_ORDER,
        "Rank of the suits in strain bidding, lowest first (no-trump, where allowed, is highest).",
        "003",
    )
    fixed_trump: Suit | None = _opt(None, "A trump suit fixed for every deal; no trump choice.", "")
    first_lead_trump: bool = _opt(
        False, "The first lead must be a trump when the leader holds one.", "002 003"
    )
    made: Made = _opt(Made.TAKEN, "What declarers score for a made contract.", "000 002 003")
    failed: Failed = _opt(
        Failed.MINUS_BID, "What declarers score for a failed contract.", "000 003"
    )
    defenders: Defenders = _opt(Defenders.TRICKS, "What the defenders score.", "000 002 003")
    bid13_made: int | None = _opt(
        16,
        "Declarers' points for bidding 13 and taking all 13 (none: the made-contract rule).",
        "000 003",
    )
    bid13_failed: int | None = _opt(
        None,
        "Declarers' points for bidding 13 and failing (none: the failed-contract rule).",
        "003",
    )
    bid13_shortfall_factor: int = _opt(
        1,
        "When 13 was bid and failed, the defenders' shortfall points are multiplied by this.",
        "003",
    )
    kabsh: int | None = _opt(
        None,
        "Declarers' points for taking all 13 tricks without having bid 13 (none: the made-contract "
        "rule).",
        "000 003",
    )
    thirteen_wins: ThirteenWins = _opt(
        ThirteenWins.NO, "Whether taking all 13 tricks wins the set outright.", "002"
    )
    no_win_below_zero: bool = _opt(
        False,
        "A side whose score is below zero (once the deal is counted) cannot win the set by "
        "taking 13 tricks.",
        "002",
    )
    doubling: Doubling = _opt(Doubling.NONE, "Whether stakes can be multiplied.", "003")
    double_factor: int = _opt(
        2, "The multiplier of a raised or doubled contract (2, or 4 in some groups).", "003"
    )
    weak_redeal: bool = _opt(
        False,
        "A player whose hand has no ace, no king in a suit of 2+ cards, no queen in a suit of 3+ "
        "and no jack in a suit of 4+ may ask for a redeal on their first turn; the same dealer "
        "deals again.",
        "003",
    )
    individual_minimums: tuple[tuple[int, int, int], ...] = _opt(
        SYRIAN_MINIMUMS,
        "Individual bidding: rows (score, lowest bid, lowest total): from that score of the "
        "bidder, the lowest bid; from that highest score at the table, the lowest sum of the four "
        "bids, below which the cards are redealt.",
        "",
    )
    bid_values: tuple[tuple[int, int, int], ...] = _opt(
        SYRIAN_BID_VALUES,
        "Individual bidding: rows (bid, value, value from value_threshold): what a made bid adds "
        "and a failed one takes away.",
        "",
    )
    value_threshold: int = _opt(
        30, "Individual bidding: the bidder's score from which the second value column counts.", ""
    )
    partner_zero_ok: bool = _opt(
        False,
        "Individual bidding: a side wins when one partner reaches the target while the other's "
        "score is positive; with this, zero is enough.",
        "",
    )

    def __post_init__(self) -> None:
        _validate(self)

    def __hash__(self) -> int:
        # Rules key the per-rules tables of every deal: hash the 30 options once.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, name) for name in _FIELDS))
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
        for key in changes:
            if key not in _FIELDS:
                raise RulesError(f"unknown rule option {key!r}")
        data.update({k: _to_plain(v) for k, v in changes.items()})
        return Rules.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        """The options as a flat dict of JSON values (enums as their text)."""
        return {f.name: _to_plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a flat dict as :meth:`to_dict` writes it; missing options keep defaults.

        :raises RulesError: on an unknown option or a value of the wrong kind.
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be a mapping of options, not {type(data).__name__}")
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in _FIELDS:
                raise RulesError(f"unknown rule option {key!r}")
            kwargs[key] = _from_plain(key, value)
        return cls(**kwargs)

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(_FIELDS)

    @classmethod
    def option_doc(cls, name: str) -> tuple[str, str]:
        """The description and the seeds of one option."""
        meta = _FIELDS[name].metadata
        return meta["doc"], meta["seeds"]

    @classmethod
    def option_choices(cls, name: str) -> tuple[str, ...] | None:
        """The readings of an option with named choices (``None`` for the others)."""
        kind = _ENUM_FIELDS.get(name)
        return tuple(str(m.value) for m in kind) if kind else None


def _to_plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value if isinstance(value, _Choice | Dealing) else value.name.lower()
    if isinstance(value, tuple):
        return [_to_plain(v) for v in value]
    return value


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}
_ENUM_FIELDS: dict[str, type[_Choice] | type[Dealing]] = {
    "dealing": Dealing,
    "bidding": Bidding,
    "count": Count,
    "all_pass": AllPass,
    "ladder": Ladder,
    "made": Made,
    "failed": Failed,
    "defenders": Defenders,
    "thirteen_wins": ThirteenWins,
    "doubling": Doubling,
}
_INT_FIELDS = {
    "target",
    "sets",
    "min_bid",
    "max_bid",
    "bid_step",
    "bid13_shortfall_factor",
    "double_factor",
    "value_threshold",
}
_OPTIONAL_INT_FIELDS = {"bid13_made", "bid13_failed", "kabsh"}
_BOOL_FIELDS = {
    "bid_once",
    "no_trump",
    "first_lead_trump",
    "no_win_below_zero",
    "weak_redeal",
    "partner_zero_ok",
}
_TABLE_FIELDS = {"individual_minimums", "bid_values"}


def _parse_enum(key: str, kind: type[_E] | type[Dealing], value: Any) -> Any:
    if isinstance(value, kind):
        return value
    for member in kind:
        if value == member.value or (
            isinstance(value, str) and value.lower() == member.name.lower()
        ):
            return member
    choices = ", ".join(repr(m.value) for m in kind)
    raise RulesError(f"{key}={value!r} is not one of {choices}")


def _parse_int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]+\s*", value):
            return int(value)
        raise RulesError(f"{key}={value!r} is not a whole number")
    return value


def _parse_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in (
        "true",
        "yes",
        "on",
        "1",
        "false",
        "no",
        "off",
        "0",
    ):
        return value.lower() in ("true", "yes", "on", "1")
    raise RulesError(f"{key}={value!r} is not true or false")


def _from_plain(key: str, value: Any) -> Any:
    kind = _ENUM_FIELDS.get(key)
    if kind is not None:
        return _parse_enum(key, kind, value)
    if key in _INT_FIELDS:
        return _parse_int(key, value)
    if key in _OPTIONAL_INT_FIELDS:
        if value is None or (isinstance(value, str) and value.lower() in ("none", "null", "")):
            return None
        return _parse_int(key, value)
    if key in _BOOL_FIELDS:
        return _parse_bool(key, value)
    if key == "fixed_trump":
        if value is None or isinstance(value, Suit):
            return value
        if isinstance(value, str):
            if value.lower() in ("none", "null", ""):
                return None
            try:
                return Suit.parse(value)
            except ValueError:
                pass
        raise RulesError(f"fixed_trump={value!r} is not a suit or none")
    if key == "strain_order":
        items = value.replace(",", " ").split() if isinstance(value, str) else value
        if not isinstance(items, list | tuple):
            raise RulesError(f"strain_order={value!r} is not a list of suits")
        try:
            return tuple(s if isinstance(s, Strain) else Strain.parse(str(s)) for s in items)
        except ValueError:
            raise RulesError(f"strain_order={value!r} is not a list of suits") from None
    if key in _TABLE_FIELDS:
        try:
            rows = tuple(tuple(_parse_int(key, x) for x in row) for row in value)
        except TypeError:
            raise RulesError(f"{key}={value!r} is not a table of whole numbers") from None
        if any(len(row) != 3 for row in rows):
            raise RulesError(f"{key}: every row has three numbers")
        return rows
    return value  # pragma: no cover - every field is handled above


def _check_types(rules: Rules) -> None:
    for key in _FIELDS:
        value = getattr(rules, key)
        kind = _ENUM_FIELDS.get(key)
        ok = True
        if kind is not None:
            ok = isinstance(value, kind)
        elif key in _INT_FIELDS:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif key in _OPTIONAL_INT_FIELDS:
            ok = value is None or (isinstance(value, int) and not isinstance(value, bool))
        elif key in _BOOL_FIELDS:
            ok = isinstance(value, bool)
        elif key == "fixed_trump":
            ok = value is None or isinstance(value, Suit)
        elif key == "strain_order":
            ok = isinstance(value, tuple) and all(isinstance(s, Strain) for s in value)
        elif key in _TABLE_FIELDS:
            ok = isinstance(value, tuple) and all(
                isinstance(row, tuple)
                and len(row) == 3
                and all(isinstance(x, int) and not isinstance(x, bool) for x in row)
                for row in value
            )
        if not ok:
            raise RulesError(f"{key}={value!r} has the wrong type; use Rules.from_dict for text")


def _validate(rules: Rules) -> None:
    _check_types(rules)
    r = rules
    if r.target < 1:
        raise RulesError(f"target={r.target} must be at least 1")
    if r.sets < 1:
        raise RulesError(f"sets={r.sets} must be at least 1")
    if r.double_factor < 2:
        raise RulesError(f"double_factor={r.double_factor} must be at least 2")
    if r.bid13_shortfall_factor < 1:
        raise RulesError(f"bid13_shortfall_factor={r.bid13_shortfall_factor} must be at least 1")
    if r.bid_step < 1:
        raise RulesError(f"bid_step={r.bid_step} must be at least 1")
    top = r.max_points_per_deal
    if not 1 <= r.min_bid <= r.max_bid <= top:
        raise RulesError(
            f"min_bid={r.min_bid} and max_bid={r.max_bid} must satisfy 1 <= min_bid <= max_bid "
            f"<= {top} with count={r.count.value!r}"
        )
    if (r.max_bid - r.min_bid) % r.bid_step:
        raise RulesError(
            f"bid_step={r.bid_step} must divide max_bid - min_bid ({r.max_bid} - {r.min_bid})"
        )
    if r.count is Count.TRICKS and r.bid_step != 1:
        raise RulesError(f"bid_step={r.bid_step} needs count='card-points'; trick bids go up by 1")
    if r.count is Count.CARD_POINTS:
        for name in ("bid13_made", "bid13_failed", "kabsh"):
            if getattr(r, name) is not None:
                raise RulesError(
                    f"{name}={getattr(r, name)} scores 13 tricks, which count='card-points' does "
                    f"not bid for: set {name} to none"
                )
        if r.thirteen_wins is ThirteenWins.IF_BID:
            raise RulesError(
                "thirteen_wins='if-bid' needs trick bids; count='card-points' has no bid of 13"
            )
    if sorted(r.strain_order) != list(SUIT_ORDER):
        raise RulesError(
            f"strain_order={[s.letter for s in r.strain_order]} must hold the four suits once each"
        )
    if r.bidding is Bidding.STRAINS and r.fixed_trump is not None:
        raise RulesError("fixed_trump cannot go with bidding='strains': the bids name the trump")
    if r.bidding is not Bidding.STRAINS and r.ladder is not Ladder.NUMBER_OR_STRAIN:
        raise RulesError(
            f"ladder={r.ladder.value!r} needs bidding='strains': only strain bids climb a ladder "
            "of strains"
        )
    if r.is_individual:
        _validate_individual(r)
    elif r.partner_zero_ok:
        raise RulesError("partner_zero_ok needs bidding='individual'")


def _validate_individual(r: Rules) -> None:
    if r.fixed_trump is None:
        raise RulesError(
            "bidding='individual' needs fixed_trump: every player bids for their own tricks with a "
            "fixed trump suit"
        )
    conflicts = [
        f"{name}={value!r}"
        for name, value, ok in (
            ("count", r.count.value, r.count is Count.TRICKS),
            ("no_trump", r.no_trump, not r.no_trump),
            ("doubling", r.doubling.value, r.doubling is Doubling.NONE),
            ("all_pass", r.all_pass.value, r.all_pass is AllPass.THROW_IN),
            ("bid13_made", r.bid13_made, r.bid13_made is None),
            ("bid13_failed", r.bid13_failed, r.bid13_failed is None),
            ("kabsh", r.kabsh, r.kabsh is None),
            ("thirteen_wins", r.thirteen_wins.value, r.thirteen_wins is ThirteenWins.NO),
        )
        if not ok
    ]
    if conflicts:
        raise RulesError(
            "bidding='individual' scores each player's own bid, without passing, doubling or "
            f"partnership contracts; these options cannot go with it: {', '.join(conflicts)}"
        )
    minimums = r.individual_minimums
    if not minimums or minimums[0][0] != 0:
        raise RulesError("individual_minimums must start with a row for score 0")
    if any(a[0] >= b[0] for a, b in itertools.pairwise(minimums)):
        raise RulesError("individual_minimums must list rising scores")
    for score, bid, total in minimums:
        if not 1 <= bid <= 13 or not 4 <= total <= 52:
            raise RulesError(
                f"individual_minimums row {(score, bid, total)}: the lowest bid must be 1..13 and "
                "the lowest total 4..52"
            )
    valued = {row[0] for row in r.bid_values}
    missing = [b for b in range(min(row[1] for row in minimums), 14) if b not in valued]
    if missing:
        raise RulesError(f"bid_values has no value for the bids {missing}")


def parse_rule_changes(items: Sequence[str], flag: str = "-o") -> dict[str, Any]:
    """Option changes written ``KEY=VALUE`` (as on a command line), for :meth:`Rules.replace`.

    A value is read as JSON where it is JSON (``31``, ``true``, ``null``,
    ``[[0,2,11]]``), else taken as text (``hearts``, ``minus-bid``); dashes in
    a key count as underscores.

    :raises RulesError: on an item without ``=``, an unknown option (naming the
        nearest, or listing them all) or a table that is not valid JSON.

    >>> parse_rule_changes(["target=31", "bid-once=true", "fixed_trump=hearts"])
    {'target': 31, 'bid_once': True, 'fixed_trump': 'hearts'}
    """
    names = list(_FIELDS)
    changes: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise RulesError(f"{flag} expects OPTION=VALUE, not {item!r}")
        if key not in _FIELDS:
            close = difflib.get_close_matches(key, names, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise RulesError(f"unknown rule option {key!r} ({hint}the options: {', '.join(names)})")
        text = text.strip()
        try:
            changes[key] = json.loads(text)
        except (ValueError, RecursionError):
            if text.startswith(("[", "{")):
                raise RulesError(f"{flag} {key}: {text!r} is not valid JSON") from None
            changes[key] = text
    return changes
