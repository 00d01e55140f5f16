"""The environments' shared parameters, checked in one place (standard library only).

Every environment of :mod:`tarneeb.env` (PettingZoo, Gymnasium, OpenSpiel)
takes these names, with these meanings (see :mod:`tarneeb.env.tarneeb_v0`):

``rules``
    a :class:`~tarneeb.rules.Rules` (any custom rules); a preset name, with
    changes as OpenSpiel's parameter takes them (``"egyptian;target=31"``) or
    the JSON of :meth:`Rules.to_dict <tarneeb.rules.Rules.to_dict>`; or that
    dict itself.
``scores``
    the scores an episode starts from: four whole numbers, one per seat, or
    two (North-South, East-West) in partnership play; default 0-0.
``dealer``
    the first dealer, a seat number 0..3; default drawn from the seed.
``reward``
    ``"deal"`` (points) or ``"match"`` (+1/-1), :data:`REWARDS`.
``max_deals``
    deals after which a match still going is truncated: an int >= 1, or
    ``None`` for no limit (the whole match); 0 is refused.
``use_double_dummy_result``, ``dd_features``, ``dd_backend``
    the double-dummy modes of :mod:`tarneeb.env.dd`.

``reset(options=...)`` takes :data:`RESET_OPTIONS`.

>>> from tarneeb.presets import find_rules
>>> start_scores(find_rules("classic"), (12, -3))
(12, -3, 12, -3)
>>> start_scores(find_rules("syrian400"), (12, -3))
Traceback (most recent call last):
...
tarneeb.errors.RulesError: scores: give four numbers, one per seat (players score alone here)
>>> check_max_deals(0)
Traceback (most recent call last):
...
tarneeb.errors.RulesError: max_deals must be at least 1 (or None for no limit: the whole match), not 0
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any

from tarneeb.errors import InvalidActionError, RecordError, RulesError
from tarneeb.rules import Rules
from tarneeb.seats import Seat, parse_seat

__all__ = [
    "RESET_OPTIONS",
    "REWARDS",
    "check_dealer",
    "check_max_deals",
    "check_reward",
    "check_seat",
    "resolve_rules",
    "start_scores",
]

REWARDS = ("deal", "match")
"""The ``reward`` modes: the deal's points (North-South's minus East-West's), or the
match's +1/-1."""

RESET_OPTIONS = frozenset({"scores", "dealer", "rules"})
"""The keys ``reset(options=...)`` reads (others are ignored, as PettingZoo's ``api_test`` needs)."""


def resolve_rules(rules: Rules | str | Mapping[str, Any]) -> Rules:
    """The :class:`Rules` that ``rules`` stands for: itself; a preset's name, with
    changes or as JSON (:func:`~tarneeb.env.episode.game_rules`, as OpenSpiel's
    ``rules`` parameter); or the dict of :meth:`Rules.to_dict`.

    >>> resolve_rules("egyptian;target=31").target
    31
    >>> resolve_rules({"target": 11}).target
    11
    >>> resolve_rules(11)
    Traceback (most recent call last):
    ...
    tarneeb.errors.RulesError: rules are a Rules, a preset's name (with changes, or JSON) or a dict of options, not 11

    :raises RulesError: for anything else, an unknown preset or option, or a bad value.
    """
    from tarneeb.env.episode import game_rules  # episode imports this module

    if isinstance(rules, Rules):
        return rules
    try:
        if isinstance(rules, str):
            return game_rules(rules)
        if isinstance(rules, Mapping):
            return Rules.from_dict(dict(rules))
    except RecordError as exc:  # a change that is not KEY=VALUE
        raise RulesError(str(exc)) from None
    raise RulesError(
        "rules are a Rules, a preset's name (with changes, or JSON) or a dict of options,"
        f" not {rules!r}"[:200]
    )


def _whole(x: object, what: str) -> int:
    if isinstance(x, bool):
        raise RulesError(f"{what} must be a whole number, not {x!r}")
    try:
        return operator.index(x)  # type: ignore[arg-type]  # int, numpy ints
    except TypeError:
        raise RulesError(f"{what} must be a whole number, not {x!r}") from None


def start_scores(rules: Rules, scores: Sequence[int] | None) -> tuple[int, int, int, int]:
    """The per-seat scores an episode starts from (``None``: 0-0).

    :raises RulesError: unless two numbers (partnership play) or four, partners' equal there.
    """
    if scores is None:
        return (0, 0, 0, 0)
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise RulesError(f"scores must be a sequence of whole numbers, not {scores!r}")
    values = [_whole(x, "scores") for x in scores]
    individual = rules.is_individual
    if len(values) == 2 and not individual:
        values = [values[0], values[1], values[0], values[1]]
    if len(values) != 4:
        if individual:
            raise RulesError("scores: give four numbers, one per seat (players score alone here)")
        raise RulesError("scores: give two numbers (North-South, East-West) or four, one a seat")
    if not individual and (values[0] != values[2] or values[1] != values[3]):
        raise RulesError(f"scores {tuple(values)}: partners share a score in partnership play")
    return values[0], values[1], values[2], values[3]


def check_max_deals(max_deals: int | None) -> int | None:
    """``max_deals`` checked: an int >= 1, or ``None`` for a whole match.

    :raises RulesError: for 0, a negative number or a non-integer.
    """
    if max_deals is None:
        return None
    value = _whole(max_deals, "max_deals")
    if value < 1:
        raise RulesError(
            f"max_deals must be at least 1 (or None for no limit: the whole match), not {value}"
        )
    return value


def check_dealer(dealer: object) -> int | None:
    """``dealer`` checked: a seat number 0..3, or ``None`` (drawn from the seed).

    :raises RulesError: otherwise.
    """
    if dealer is None:
        return None
    value = _whole(dealer, "dealer")
    if not 0 <= value < 4:
        raise RulesError(f"dealer must be a seat number 0..3, not {value}")
    return value


def check_reward(reward: object) -> str:
    """``reward``, one of :data:`REWARDS`.

    :raises RulesError: for anything else.
    """
    if not isinstance(reward, str) or reward not in REWARDS:
        raise RulesError(f"reward must be 'deal' or 'match', not {reward!r}"[:200])
    return reward


def check_seat(seat: object) -> Seat:
    """A seat from its number 0..3 or its name (``"S"``, ``"south"``).

    >>> check_seat("north")
    Seat.NORTH
    >>> check_seat(7)
    Traceback (most recent call last):
    ...
    tarneeb.errors.RulesError: seat must be 0..3 or a seat's name (S, E, N, W), not 7

    :raises RulesError: for anything else.
    """
    try:
        return parse_seat(seat)  # type: ignore[arg-type]  # it refuses any other type too
    except InvalidActionError:
        raise RulesError(
            f"seat must be 0..3 or a seat's name (S, E, N, W), not {seat!r}"[:200]
        ) from None
