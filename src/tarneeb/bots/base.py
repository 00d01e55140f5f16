"""The bot protocol: a bot sees one seat's :class:`~tarneeb.view.View` and answers.

Every decision the rules can ask goes through one method, :meth:`Bot.decide`:
a bid or pass (or double, or a weak-hand redeal), a raise or not, a trump
suit, a card. A bot never sees the deal, only the view of its seat. Its
randomness comes from the ``rng`` it is given, so a seeded bot plays the same
way every time.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from tarneeb.actions import Action
from tarneeb.bots.reasons import NO_REASON, Reason
from tarneeb.errors import TarneebError
from tarneeb.view import View

__all__ = ["Bot", "BotError", "Decision", "Reason"]


class BotError(TarneebError, ValueError):
    """An unknown bot name or option."""


@dataclass(frozen=True, init=False)
class Decision:
    """What a bot chose, and why when it can say.

    The reason is a :class:`~tarneeb.bots.reasons.Reason`, which renders in
    every language (``decision.reason.text("ru")``); a plain ``str`` is taken
    as :meth:`Reason.plain <tarneeb.bots.reasons.Reason.plain>`, the same text
    in every language.

    >>> from tarneeb.cards import Card
    >>> Decision(Card.parse("2H")).reason == ""
    True
    >>> Decision(Card.parse("2H"), Reason("second-low")).reason.text("nl")
    'tweede hand laag'
    """

    action: Action
    reason: Reason

    def __init__(self, action: Action, reason: Reason | str = NO_REASON) -> None:
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "reason", Reason.plain(reason))


class Bot(abc.ABC):
    """Base of every bot.

    :param rng: the bot's source of randomness (a fresh unseeded one if omitted).
    :param options: option words, as in ``heuristic:aggressive``.
    :raises BotError: on an option the bot does not know.
    """

    name: ClassVar[str] = "bot"
    option_docs: ClassVar[Mapping[str, str]] = {}
    """Options this bot takes, with what each does."""
    slow: ClassVar[bool] = False
    """Whether a decision may take long (a tenth of a second or more): the server
    and the terminal app then make it in a worker thread, off their event loop."""
    errs_on_purpose: ClassVar[bool] = False
    """Whether the bot makes mistakes on purpose (``easy``, ``random``): it gives no
    hints (:func:`~tarneeb.bots.registry.make_adviser`)."""

    def __init__(self, rng: random.Random | None = None, options: Sequence[str] = ()) -> None:
        self.rng = rng if rng is not None else random.Random()
        unknown = [o for o in options if o not in self.option_docs]
        if unknown:
            known = ", ".join(self.option_docs) or "none"
            raise BotError(f"bot {self.name!r} has no option {unknown[0]!r} (its options: {known})")
        self.options = tuple(options)

    @property
    def spec(self) -> str:
        """The name that makes this bot again, e.g. ``heuristic:aggressive``."""
        return ":".join((self.name, *self.options))

    @abc.abstractmethod
    def decide(self, view: View) -> Decision:
        """Choose one of ``view.legal_actions`` (the view's seat is to act)."""

    def act(self, view: View) -> Action:
        """:meth:`decide` without the reason."""
        return self.decide(view).action

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"
