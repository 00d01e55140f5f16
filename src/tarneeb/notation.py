"""The one-line text of a deal (``tarneeb-deal/1 ...``), without the deal machine.

:func:`deal_line` writes the line from a deal's parts, so that
:class:`~tarneeb.deal.Deal` can print itself without importing the records
module; :func:`tarneeb.record.parse_deal` reads it back and replays it.

>>> from tarneeb.presets import find_rules
>>> deal_line(find_rules("sol").replace(target=31), 3, (0, 0, 0, 0), (1, 2, 4, 8), (52,))[:55]
'tarneeb-deal/1 rules=custom;target=31;no_trump=true dea'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tarneeb.actions import format_action
from tarneeb.cards import CardSet
from tarneeb.errors import RecordError
from tarneeb.presets import find_rules, preset_name
from tarneeb.rules import Rules
from tarneeb.seats import SEATS

__all__ = ["DEAL_PREFIX", "deal_line", "parse_rules_text", "rules_text"]

DEAL_PREFIX = "tarneeb-deal/1"


def rules_text(rules: Rules) -> str:
    """A preset's name, or ``custom;KEY=VALUE;...`` for the options that differ from classic."""
    name = preset_name(rules)
    if name is not None:
        return name
    base = find_rules("classic").to_dict()
    changes = {k: v for k, v in rules.to_dict().items() if base[k] != v}
    return "custom;" + ";".join(
        f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in changes.items()
    )


def parse_rules_text(text: str) -> Rules:
    """The rules :func:`rules_text` wrote.

    :raises RecordError: on a change that is not ``KEY=VALUE``.
    :raises RulesError: on an unknown preset or option.
    """
    name, *changes = text.split(";")
    base = find_rules("classic") if name == "custom" else find_rules(name)
    options: dict[str, Any] = {}
    for change in changes:
        key, sep, value = change.partition("=")
        if not sep:
            raise RecordError(f"rule change {change!r} is not KEY=VALUE")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    return base.replace(**options) if options else base


def deal_line(
    rules: Rules,
    dealer: int,
    scores: Sequence[int],
    dealt: Sequence[int],
    actions: Sequence[int],
) -> str:
    """The line of a deal: its rules, dealer, scores (when any), hands as dealt and actions."""
    parts = [DEAL_PREFIX, f"rules={rules_text(rules)}", f"dealer={SEATS[dealer].letter}"]
    if any(scores):
        parts.append("scores=" + ",".join(str(s) for s in scores))
    parts.extend(f"{seat.letter}={CardSet(dealt[seat]).format()}" for seat in SEATS)
    parts.append("actions=" + ",".join(format_action(a) for a in actions))
    return " ".join(parts)
