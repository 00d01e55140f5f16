"""Card-play accuracy against double-dummy play, as the arena's ``--double-dummy`` reports it.

Every played deal is analyzed double dummy (:func:`tarneeb.solver.analysis.analyze_deals`):
each card's cost is the tricks its side could have kept with its best card
and lost with the card played. From that, for each side of each deal
(:class:`DealPlay`), and added up for each bot (:class:`Accuracy`):

* ``error_rate``: the share of card decisions that gave a trick away; a
  decision is a card played from two or more legal cards (a forced card
  cannot cost anything and is not counted);
* ``tricks_lost_per_deal``: the tricks the side's cards gave away, per deal;
* ``lead_accuracy``: the share of the deals' first leads made by the side
  that were double-dummy best (first leads from a single legal card are not
  counted);
* ``over_partner_rate`` and ``over_partner_costly_rate``: of the cards played
  while partner's card was a sure winner of the trick
  (:meth:`Knowledge.partner_holds <tarneeb.bots.knowledge.Knowledge.partner_holds>`)
  and a card under it was legal (``partner_winning``), the share that took the
  trick from partner, and the share that did so and gave a trick away: the
  partner players complain of, who overtakes or overtrumps a sure winner.

Each comes for all deals and by role, as bridge programs report it (Ben's
"declarer play" and "defence" figures): ``declarers`` (the side that won the
auction), ``defenders``, and by strain, ``trump`` or ``no_trump``. Deals
without a partnership contract (players bidding alone, Syrian 400) count in
``all`` and by strain only. The shares come with their 95% Wilson interval,
the tricks per deal with the 95% Student's t interval of the mean over deals.

>>> from tarneeb.deal import Deal
>>> from tarneeb.presets import find_rules
>>> deal = Deal.from_seed(find_rules("classic"), dealer=0, seed=4)
>>> for action in ["7", "pass", "pass", "pass", "S"]:  # East declares spades
...     deal.push(action)
>>> deal.hand(1).format()
'KJ962.T7543.A62.'
>>> deal.push("KS")  # into the ace: a trick given away
>>> (play,) = deal_plays([deal])
>>> play.declarers, play.no_trump, play.leader, play.lead_best
(1, False, 1, False)
>>> play.decisions, play.errors, play.lost
((0, 1), (0, 1), (0, 1))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarneeb.actions import Phase
from tarneeb.arena.stats import mean_ci, wilson_interval
from tarneeb.bots.knowledge import Knowledge
from tarneeb.deal import Deal

__all__ = ["GROUPS", "Accuracy", "DealPlay", "deal_plays"]

GROUPS = ("all", "declarers", "defenders", "trump", "no_trump")
"""The groups of deals each bot's accuracy is given for."""


@dataclass(frozen=True)
class DealPlay:
    """One played deal seen double dummy: what each side's cards gave away.

    Pairs are (North-South, East-West).
    """

    declarers: int | None
    """The declaring side (0 North-South, 1 East-West); ``None`` without a partnership contract."""
    no_trump: bool
    decisions: tuple[int, int]
    """Cards each side played from two or more legal cards."""
    errors: tuple[int, int]
    """Cards each side played that gave at least one trick away."""
    lost: tuple[int, int]
    """Tricks each side's cards gave away."""
    leader: int
    """The side that led to the first trick."""
    lead_best: bool | None
    """Whether that first lead was double-dummy best (``None``: it was forced)."""
    partner_winning: tuple[int, int] = (0, 0)
    """Cards each side played while partner's card was a sure winner of the trick
    (:meth:`Knowledge.partner_holds <tarneeb.bots.knowledge.Knowledge.partner_holds>`)
    and a card that would not take it from partner was legal (0 in journals written
    before)."""
    over_partner: tuple[int, int] = (0, 0)
    """Of those, the cards that took the trick from partner."""
    over_partner_costly: tuple[int, int] = (0, 0)
    """Of those, the cards that gave a trick away."""

    def role(self, side: int) -> str | None:
        """``declarers`` or ``defenders`` for ``side``; ``None`` without a contract."""
        if self.declarers is None:
            return None
        return "declarers" if self.declarers == side else "defenders"


@dataclass(frozen=True)
class _Choice:
    """What a player could do at one card of the play."""

    legal: int
    """How many legal cards there were."""
    under_partner: bool
    """Whether partner's card was a sure winner of the trick and a legal card stayed under it."""
    over_partner: bool
    """Whether the card played took the trick from partner's card."""


def _choices(deal: Deal) -> list[_Choice]:
    """What the player could do at each card of ``deal``, in order."""
    replay = Deal(deal.rules, deal.dealer, deal.dealt, deal.scores)
    out: list[_Choice] = []
    for action in deal.action_ids:
        if replay.phase is Phase.PLAY and action < 52:
            legal = replay.legal_action_ids()
            trick = replay.current_trick
            under = over = False
            if trick is not None and len(trick.cards) >= 2:
                seat = replay.to_act
                assert seat is not None
                know = Knowledge.of(replay.view(seat))
                best = know.partner_holds(trick)
                if best is not None:
                    under = any(not know.beats(c, best) for c in legal)
                    over = know.beats(action, best)
            out.append(_Choice(len(legal), under, over))
        replay.push_unchecked(action)
    return out


def deal_plays(deals: Sequence[Deal], backend: str = "auto") -> tuple[DealPlay, ...]:
    """The double-dummy figures of every deal of ``deals`` with cards played, in order."""
    from tarneeb.solver.analysis import analyze_deals

    played = [deal for deal in deals if deal.played]
    if not played:
        return ()
    out: list[DealPlay] = []
    for deal, analysis in zip(played, analyze_deals(played, backend), strict=True):
        decisions = [0, 0]
        errors = [0, 0]
        lost = [0, 0]
        chances = [0, 0]
        over = [0, 0]
        costly = [0, 0]
        choices = _choices(deal)
        for card, choice in zip(analysis.cards, choices, strict=True):
            side = card.seat & 1
            decisions[side] += choice.legal > 1
            errors[side] += card.cost > 0
            lost[side] += card.cost
            if choice.under_partner:
                chances[side] += 1
                over[side] += choice.over_partner
                costly[side] += choice.over_partner and card.cost > 0
        first = analysis.cards[0]
        contract = deal.contract
        out.append(
            DealPlay(
                declarers=None if contract is None else int(contract.team),
                no_trump=deal.trump is None,
                decisions=(decisions[0], decisions[1]),
                errors=(errors[0], errors[1]),
                lost=(lost[0], lost[1]),
                leader=first.seat & 1,
                lead_best=None if choices[0].legal < 2 else first.cost == 0,
                partner_winning=(chances[0], chances[1]),
                over_partner=(over[0], over[1]),
                over_partner_costly=(costly[0], costly[1]),
            )
        )
    return tuple(out)


@dataclass
class _Group:
    """One bot's counts over one group of deals."""

    decisions: int = 0
    errors: int = 0
    leads: int = 0
    best_leads: int = 0
    partner_winning: int = 0
    over_partner: int = 0
    over_partner_costly: int = 0
    lost: list[int] = field(default_factory=list)
    """Tricks given away, deal by deal."""

    def add(self, play: DealPlay, side: int) -> None:
        self.decisions += play.decisions[side]
        self.errors += play.errors[side]
        self.lost.append(play.lost[side])
        self.partner_winning += play.partner_winning[side]
        self.over_partner += play.over_partner[side]
        self.over_partner_costly += play.over_partner_costly[side]
        if play.leader == side and play.lead_best is not None:
            self.leads += 1
            self.best_leads += play.lead_best

    def to_dict(self) -> dict[str, Any]:
        mean, ci = mean_ci(self.lost)
        deals = len(self.lost)
        return {
            "deals": deals,
            "decisions": self.decisions,
            "errors": self.errors,
            "error_rate": self.errors / self.decisions if self.decisions else None,
            "error_rate_ci95": _share_ci(self.errors, self.decisions),
            "tricks_lost": sum(self.lost),
            "tricks_lost_per_deal": mean if deals else None,
            "tricks_lost_per_deal_ci95": None if ci is None else [ci[0], ci[1]],
            "leads": self.leads,
            "best_leads": self.best_leads,
            "lead_accuracy": self.best_leads / self.leads if self.leads else None,
            "lead_accuracy_ci95": _share_ci(self.best_leads, self.leads),
            "partner_winning": self.partner_winning,
            "over_partner": self.over_partner,
            "over_partner_rate": _share(self.over_partner, self.partner_winning),
            "over_partner_rate_ci95": _share_ci(self.over_partner, self.partner_winning),
            "over_partner_costly": self.over_partner_costly,
            "over_partner_costly_rate": _share(self.over_partner_costly, self.partner_winning),
            "over_partner_costly_rate_ci95": _share_ci(
                self.over_partner_costly, self.partner_winning
            ),
        }


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _share_ci(successes: int, trials: int) -> list[float] | None:
    return list(wilson_interval(successes, trials)) if trials else None


class Accuracy:
    """One bot's double-dummy figures over the deals it played, by group (:data:`GROUPS`)."""

    def __init__(self) -> None:
        self._groups = {name: _Group() for name in GROUPS}

    def add(self, plays: Iterable[DealPlay], side: int) -> None:
        """Count ``plays``, the bot holding ``side`` (0 North-South, 1 East-West)."""
        for play in plays:
            self._groups["all"].add(play, side)
            role = play.role(side)
            if role is not None:
                self._groups[role].add(play, side)
            self._groups["no_trump" if play.no_trump else "trump"].add(play, side)

    @property
    def deals(self) -> int:
        return len(self._groups["all"].lost)

    @property
    def tricks_lost(self) -> int:
        return sum(self._groups["all"].lost)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """For each group, the figures (the JSON summary's ``dd_play``)."""
        return {name: group.to_dict() for name, group in self._groups.items()}


def format_share(value: float | None, ci: Sequence[float] | None) -> str:
    """``12.5% [8.1, 18.0]`` (``-`` for none)."""
    if value is None:
        return "-"
    text = f"{100 * value:5.1f}%"
    if ci is not None:
        text += f" [{100 * ci[0]:4.1f}, {100 * ci[1]:4.1f}]"
    return text


def format_mean(value: float | None, ci: Sequence[float] | None) -> str:
    """``1.53 [1.21, 1.85]`` (``-`` for none)."""
    if value is None or math.isnan(value):
        return "-"
    text = f"{value:.2f}"
    if ci is not None:
        text += f" [{ci[0]:.2f}, {ci[1]:.2f}]"
    return text
