"""Game records: a versioned JSON record of a match, and a one-line text form of a deal.

A match record holds the rules, the seed (if any), the first dealer and, for
every deal, the dealer, the four hands as dealt and every action as text. It
replays to the identical state. Readers of a version load every earlier one.

>>> from tarneeb.presets import find_rules
>>> from tarneeb.match import Match
>>> match = Match(find_rules("classic"), seed=3)
>>> for action in ["7", "pass", "pass", "pass", "H"]:
...     match.push(action)
>>> text = write_record(match)
>>> read_record(text) == match
True
>>> read_record('{"format": "tarneeb-match", "version": 1}')
Traceback (most recent call last):
...
tarneeb.errors.RecordError: record: 'rules' is missing
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarneeb._version import __version__
from tarneeb.actions import format_action
from tarneeb.cards import CardSet
from tarneeb.deal import Deal
from tarneeb.errors import RecordError, RulesError, TarneebError
from tarneeb.match import Match
from tarneeb.notation import DEAL_PREFIX, deal_line, parse_rules_text
from tarneeb.presets import preset_name
from tarneeb.rules import Bidding, Ladder, Rules
from tarneeb.seats import SEATS, Seat, parse_seat

__all__ = [
    "DEAL_PREFIX",
    "FORMAT",
    "VERSION",
    "RecordReading",
    "format_deal",
    "match_to_record",
    "parse_deal",
    "read_record",
    "read_record_lenient",
    "write_record",
]

FORMAT = "tarneeb-match"
VERSION = 1


def _hands_dict(masks: Sequence[int]) -> dict[str, str]:
    return {seat.letter: CardSet(masks[seat]).format() for seat in SEATS}


def match_to_record(match: Match, players: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The record of ``match`` as a JSON-ready dict."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "written_by": f"tarneeb {__version__}",
        "preset": preset_name(match.rules),
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "first_dealer": match.first_dealer.letter,
    }
    if players:
        record["players"] = {parse_seat(k).letter: str(v) for k, v in players.items()}
    record["deals"] = [
        {
            "dealer": deal.dealer.letter,
            "hands": _hands_dict(deal.dealt),
            "actions": [format_action(a) for a in deal.action_ids],
        }
        for deal in match.deals
    ]
    record["result"] = {
        "over": match.is_over(),
        "winner": None if match.winner is None else match.winner.name,
        "team_scores": list(match.team_scores),
        "seat_scores": list(match.seat_scores),
        "sets": [
            {"winner": s.winner.name, "team_scores": list(s.team_scores), "deals": s.deals}
            for s in match.sets
        ],
    }
    return record


def write_record(match: Match, players: Mapping[str, str] | None = None) -> str:
    """The record of ``match`` as JSON text."""
    return json.dumps(match_to_record(match, players), indent=1, ensure_ascii=False)


@dataclass
class RecordReading:
    """What the lenient reader made of a record: the match as far as it replayed, and the errors."""

    match: Match | None
    errors: list[str] = field(default_factory=list)


class _Reader:
    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.errors: list[str] = []

    def fail(self, message: str) -> None:
        if self.strict:
            raise RecordError(f"record: {message}")
        self.errors.append(message)

    def read(self, source: str | bytes | Mapping[str, Any]) -> Match | None:
        data = self._load(source)
        if data is None:
            return None
        data = self._migrate(data)
        if data is None:
            return None
        rules = self._rules(data)
        if rules is None:
            return None
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            self.fail(f"seed {seed!r} is not a number or text")
            seed = None
        try:
            first_dealer = parse_seat(data.get("first_dealer", ""))
        except TarneebError:
            self.fail(f"first_dealer {data.get('first_dealer')!r} is not a seat")
            return None
        deals = data.get("deals")
        if not isinstance(deals, list):
            self.fail("'deals' is missing or not a list")
            return None
        hands: list[tuple[int, ...]] = []
        for index, entry in enumerate(deals):
            masks = self._hands(index, entry, rules)
            if masks is None:
                break
            hands.append(masks)
        try:
            match = Match(rules, seed, first_dealer, () if seed is not None else hands)
        except TarneebError as exc:
            self.fail(str(exc))
            return None
        for index, entry in enumerate(deals[: len(hands)]):
            if not self._replay(match, index, entry, hands[index]):
                break
            if index + 1 < len(deals) and not match.deals[index].is_over():
                self.fail(f"deal {index + 1}: the deal is not finished, yet the record goes on")
                break
        self._check_result(match, data.get("result"), len(hands) == len(deals))
        return match

    def _load(self, source: str | bytes | Mapping[str, Any]) -> dict[str, Any] | None:
        if isinstance(source, Mapping):
            return dict(source)
        try:
            data = json.loads(source)
        except (ValueError, UnicodeDecodeError) as exc:
            self.fail(f"not JSON: {exc}")
            return None
        if not isinstance(data, dict):
            self.fail("a record is a JSON object")
            return None
        return data

    def _migrate(self, data: dict[str, Any]) -> dict[str, Any] | None:
        if data.get("format") != FORMAT:
            self.fail(f"'format' is {data.get('format')!r}, not {FORMAT!r}")
            if self.strict:
                return None
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            self.fail(f"'version' {version!r} is not a record version")
            return None
        if version > VERSION:
            self.fail(
                f"version {version} was written by a newer tarneeb (this one reads up to {VERSION})"
            )
            return None
        for step in range(version, VERSION):
            data = _MIGRATIONS[step](data)
        if "rules" not in data:
            self.fail("'rules' is missing")
            return None
        return data

    def _rules(self, data: Mapping[str, Any]) -> Rules | None:
        try:
            return Rules.from_dict(data["rules"])
        except RulesError as exc:
            self.fail(f"rules: {exc}")
            return None

    def _hands(self, index: int, entry: object, rules: Rules) -> tuple[int, ...] | None:
        if not isinstance(entry, dict) or not isinstance(entry.get("hands"), dict):
            self.fail(f"deal {index + 1}: 'hands' is missing")
            return None
        try:
            found = {parse_seat(k): CardSet.parse(str(v)).mask for k, v in entry["hands"].items()}
        except TarneebError as exc:
            self.fail(f"deal {index + 1}: {exc}")
            return None
        if set(found) != set(SEATS):
            self.fail(f"deal {index + 1}: hands must be given for S, E, N and W")
            return None
        masks = tuple(found[seat] for seat in SEATS)
        try:
            Deal(rules, Seat.SOUTH, masks)  # 13 cards each, no card twice
        except TarneebError as exc:
            self.fail(f"deal {index + 1}: {exc}")
            return None
        return masks

    def _replay(
        self, match: Match, index: int, entry: dict[str, Any], masks: tuple[int, ...]
    ) -> bool:
        where = f"deal {index + 1}"
        if match.is_over():
            self.fail(f"{where}: the match was already over")
            return False
        deal = match.deal
        if deal.dealt != masks:
            self.fail(f"{where}: the hands are not those the seed {match.seed!r} deals")
            return False
        try:
            dealer = parse_seat(entry.get("dealer", ""))
        except TarneebError:
            self.fail(f"{where}: dealer {entry.get('dealer')!r} is not a seat")
            return False
        if dealer != deal.dealer:
            self.fail(f"{where}: dealer {dealer.letter} should be {deal.dealer.letter}")
            return False
        actions = entry.get("actions", [])
        if not isinstance(actions, list):
            self.fail(f"{where}: 'actions' is not a list")
            return False
        for number, action in enumerate(actions, 1):
            if not isinstance(action, (str, int)) or isinstance(action, bool):
                self.fail(f"{where}, action {number}: {action!r} is not an action")
                return False
            try:
                match.push(action)
            except TarneebError as exc:
                self.fail(f"{where}, action {number} ({action!r}): {exc}")
                return False
        return True

    def _check_result(self, match: Match, result: object, complete: bool) -> None:
        """A recorded result must be what the replay gives (a guard against edited records)."""
        if not isinstance(result, dict) or not complete or self.errors:
            return
        replayed = match_to_record(match)["result"]
        for key, value in result.items():
            if key in replayed and replayed[key] != value:
                label = "scores" if key == "team_scores" else key.replace("_", " ")
                self.fail(f"the recorded {label} {value} differ from the replayed {replayed[key]}")


_MIGRATIONS: dict[int, Any] = {}
"""Version n -> n + 1 upgrades of the record dict (none yet: version 1 is the first)."""


def read_record(source: str | bytes | Mapping[str, Any]) -> Match:
    """Replay a record (JSON text or its dict) to the match it describes.

    :raises RecordError: on the first problem: not JSON, a newer version,
        bad rules, hands that are not a deal, an illegal action, or a result
        that does not match the replay.
    """
    match = _Reader(strict=True).read(source)
    assert match is not None
    return match


def read_record_lenient(source: str | bytes | Mapping[str, Any]) -> RecordReading:
    """Replay as much of a record as can be, collecting the problems instead of raising.

    The match stops at the first action that does not replay; ``errors`` says why.
    """
    reader = _Reader(strict=False)
    try:
        match = reader.read(source)
    except TarneebError as exc:  # pragma: no cover - the lenient reader collects instead
        return RecordReading(None, [*reader.errors, str(exc)])
    return RecordReading(match, reader.errors)


# -- the one-line text form of a deal -----------------------------------------------


def format_deal(deal: Deal) -> str:
    """One line that gives back ``deal`` with :func:`parse_deal` (for humans and bug reports).

    >>> from tarneeb import Seat, find_rules
    >>> deal = Deal(find_rules("classic"), Seat.WEST, ["AKQJT98765432...", ".AKQJT98765432..",
    ...     "..AKQJT98765432.", "...AKQJT98765432"])
    >>> deal.push("7"); deal.push("pass")
    >>> format_deal(deal)
    'tarneeb-deal/1 rules=classic dealer=W S=AKQJT98765432... E=.AKQJT98765432.. N=..AKQJT98765432. W=...AKQJT98765432 actions=7,pass'
    >>> parse_deal(format_deal(deal)) == deal
    True
    """
    return deal_line(deal.rules, deal.dealer, deal.scores, deal.dealt, deal.action_ids)


def parse_deal(text: str) -> Deal:
    """The deal written by :func:`format_deal`, replayed.

    :raises RecordError: when the line is not a deal or an action does not replay.
    """
    words = text.split()
    if not words or words[0] != DEAL_PREFIX:
        raise RecordError(f"a deal line starts with {DEAL_PREFIX!r}")
    fields: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep:
            raise RecordError(f"{word!r} is not KEY=VALUE")
        fields[key] = value
    try:
        rules = parse_rules_text(fields.get("rules", "classic"))
        dealer = parse_seat(fields.get("dealer", ""))
        scores = [int(s) for s in fields["scores"].split(",")] if "scores" in fields else [0] * 4
        hands = [CardSet.parse(fields[seat.letter]) for seat in SEATS]
        deal = Deal(rules, dealer, hands, scores)
    except KeyError as exc:
        raise RecordError(f"the deal line has no {exc.args[0]}=") from None
    except (TarneebError, ValueError) as exc:
        raise RecordError(f"deal line: {exc}") from None
    actions = [a for a in fields.get("actions", "").split(",") if a]
    try:
        return _replay(deal, actions)
    except RecordError:
        if "ladder" in fields.get("rules", "") or not _old_ladder(rules):
            raise
        # A line written before the ladder option, when strain bids climbed the bridge
        # ladder under every preset: replay it as it was played.
        old = Deal(rules.replace(ladder="number-or-strain"), dealer, hands, scores)
        try:
            return _replay(old, actions)
        except RecordError:
            pass
        raise


def _old_ladder(rules: Rules) -> bool:
    return rules.bidding is Bidding.STRAINS and rules.ladder is not Ladder.NUMBER_OR_STRAIN


def _replay(deal: Deal, actions: Sequence[str]) -> Deal:
    for number, action in enumerate(actions, 1):
        try:
            deal.push(action)
        except TarneebError as exc:
            raise RecordError(f"action {number} ({action!r}): {exc}") from None
    return deal
