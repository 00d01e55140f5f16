"""The partnership test suite: positions a good partner gets right, and a bot's score on them.

Each position is one JSON file of ``tests/data/partnership/`` (in the source
tree; pass another folder to :func:`load_suite`)::

    {"principle": "no-overtake",
     "deal": "tarneeb-deal/1 rules=classic dealer=W ... actions=7,pass,...",
     "accept": ["4H", "2H"],
     "why": "North's king wins the trick: overtaking wastes the ace",
     "source": "heuristic: nobody overtakes a partner's winning card",
     "check": {"kind": "double-dummy", ...}}

``deal`` is the one-line deal notation (:func:`tarneeb.record.parse_deal`):
the rules, the dealer, the scores before the deal, the four hands as dealt
and every action so far; the seat to act is the seat whose view the bot is
given. ``accept`` holds the accepted actions (as the notation writes them),
``why`` says why in English, ``source`` names the principle (the rule
documents' advice or the heuristic bot's rule) and ``check`` records how the
position was verified (double-dummy tricks of each card on the actual layout
and averaged over layouts the seat cannot tell apart, or, for the score's
positions, the chance of winning the set).

>>> suite = load_suite()
>>> len(suite) >= 60
True
>>> result = score_bot("heuristic", suite)
>>> result.total == len(suite) and 0.0 <= result.score <= 1.0
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from tarneeb.actions import Action, format_action
from tarneeb.bots.base import Bot
from tarneeb.bots.registry import make_bot
from tarneeb.deal import Deal
from tarneeb.errors import RecordError
from tarneeb.record import parse_deal
from tarneeb.view import View

__all__ = [
    "PRINCIPLES",
    "SUITE_DIR",
    "SuitePosition",
    "SuiteScore",
    "load_suite",
    "score_bot",
]

SUITE_DIR = Path(__file__).resolve().parents[3] / "tests" / "data" / "partnership"
"""The suite's folder in the source tree."""

#: What the positions test, with a line each.
PRINCIPLES: Mapping[str, str] = {
    "no-overtake": "do not overtake partner's sure winner",
    "no-ruff-partner": "do not trump partner's sure winner",
    "return-partner": "return partner's suit",
    "unblock": "unblock partner's suit",
    "cash-out": "cash out once the contract is set or made",
    "cash-to-goal": "cash the winners that make or set the contract",
    "keep-master-trump": "keep a master trump",
    "draw-trumps": "draw the opponents' trumps",
    "play-safe": "play safe when making the contract wins the set",
    "take-risk": "take risks when only setting the contract saves the set",
    "bid-to-score": "bid to the score",
    "defence": "standard defence",
    "declarer": "standard declarer play",
}


@dataclass(frozen=True)
class SuitePosition:
    """One position of the suite: a deal under way, the accepted actions and why."""

    name: str
    principle: str
    deal_line: str
    accept: tuple[str, ...]
    why: str
    source: str
    check: Mapping[str, Any] = field(default_factory=dict)

    @cached_property
    def _deal(self) -> Deal:
        return parse_deal(self.deal_line)

    def deal(self) -> Deal:
        """The deal, replayed to the moment of the decision (a fresh copy)."""
        return self._deal.copy()

    def view(self) -> View:
        """What the seat to act sees."""
        deal = self._deal
        assert deal.to_act is not None
        return deal.view(deal.to_act)

    @cached_property
    def accepted(self) -> frozenset[Action]:
        """The accepted actions, read against the legal ones.

        :raises RecordError: when one is not legal here.
        """
        legal = {format_action(a): a for a in self._deal.legal_actions}
        unknown = [a for a in self.accept if a not in legal]
        if unknown:
            raise RecordError(f"{self.name}: {unknown[0]!r} is not a legal action here")
        return frozenset(legal[a] for a in self.accept)

    def accepts(self, action: Action) -> bool:
        return action in self.accepted

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any]) -> SuitePosition:
        """A position from its JSON object.

        :raises RecordError: when a field is missing or of the wrong type, the
            deal does not replay, nobody is to act, or an action is not legal.
        """
        try:
            principle, line, accept = data["principle"], data["deal"], data["accept"]
            why, source = data["why"], data["source"]
        except KeyError as exc:
            raise RecordError(f"{name}: no {exc.args[0]!r}") from None
        texts = (principle, line, why, source)
        if not all(isinstance(t, str) for t in texts) or not isinstance(accept, list):
            raise RecordError(f"{name}: principle, deal, why, source are texts; accept a list")
        if principle not in PRINCIPLES:
            raise RecordError(f"{name}: unknown principle {principle!r}")
        if not accept or not all(isinstance(a, str) for a in accept):
            raise RecordError(f"{name}: accept is a non-empty list of actions")
        position = cls(name, principle, line, tuple(accept), why, source, data.get("check", {}))
        try:
            deal = position._deal
        except RecordError as exc:
            raise RecordError(f"{name}: {exc}") from None
        if deal.to_act is None:
            raise RecordError(f"{name}: nobody is to act in the deal")
        position.accepted  # noqa: B018 - checks the actions now
        return position


def load_suite(folder: Path | str | None = None) -> tuple[SuitePosition, ...]:
    """Every position of ``folder`` (the source tree's suite by default), by file name.

    :raises RecordError: when a file is not a position, or the folder has none.
    """
    path = Path(folder) if folder is not None else SUITE_DIR
    files = sorted(path.glob("*.json"))
    if not files:
        raise RecordError(f"no positions (*.json) in {path}")
    out = []
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise RecordError(f"{file.name}: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise RecordError(f"{file.name}: not a JSON object")
        out.append(SuitePosition.from_json(file.stem, data))
    return tuple(out)


@dataclass(frozen=True)
class SuiteScore:
    """A bot's answers on the suite."""

    bot: str
    passed: tuple[str, ...]
    failed: tuple[tuple[str, str], ...]
    """(position, the action the bot chose) for each position it got wrong."""
    by_principle: Mapping[str, tuple[int, int]]
    """Per principle: (right, positions)."""

    @property
    def total(self) -> int:
        return len(self.passed) + len(self.failed)

    @property
    def score(self) -> float:
        """The share of positions answered with an accepted action."""
        return len(self.passed) / self.total if self.total else 0.0


BotSource = str | Bot | Callable[[int], Bot]


def score_bot(
    bot: BotSource, positions: Sequence[SuitePosition] | None = None, seed: int = 0
) -> SuiteScore:
    """The score of ``bot`` on the suite (every position by default).

    :param bot: a bot name (``"heuristic"``, ``"search:own"``), made afresh
        for each position with seed ``seed + index`` so that a random bot's
        score repeats; a bot, used as it is; or a function from that seed to a bot.
    """
    suite = load_suite() if positions is None else positions
    passed: list[str] = []
    failed: list[tuple[str, str]] = []
    tally: dict[str, list[int]] = {}
    spec = bot if isinstance(bot, str) else bot.spec if isinstance(bot, Bot) else "bot"
    for index, position in enumerate(suite):
        if isinstance(bot, str):
            player = make_bot(bot, rng=random.Random(seed + index))
        elif isinstance(bot, Bot):
            player = bot
        else:
            player = bot(seed + index)
            spec = player.spec
        action = player.decide(position.view()).action
        row = tally.setdefault(position.principle, [0, 0])
        row[1] += 1
        if position.accepts(action):
            passed.append(position.name)
            row[0] += 1
        else:
            failed.append((position.name, format_action(action)))
    by_principle = {k: (v[0], v[1]) for k, v in sorted(tally.items())}
    return SuiteScore(spec, tuple(passed), tuple(failed), by_principle)
