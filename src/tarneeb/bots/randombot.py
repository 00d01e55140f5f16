"""A bot that picks uniformly among the legal actions."""

from __future__ import annotations

from tarneeb.bots.base import Bot, Decision
from tarneeb.bots.reasons import Reason
from tarneeb.view import View

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Uniform over the legal actions: the floor every other bot must beat."""

    name = "random"
    errs_on_purpose = True

    def decide(self, view: View) -> Decision:
        actions = view.legal_actions
        if not actions:
            raise ValueError(f"{view.seat.name.title()} has no decision to make now")
        return Decision(actions[self.rng.randrange(len(actions))], Reason("random"))
