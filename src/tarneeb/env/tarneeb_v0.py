"""Tarneeb as a PettingZoo AEC environment: ``tarneeb_v0``.

Four agents, ``player_0`` .. ``player_3``, are the seats South, East, North,
West (:class:`~tarneeb.seats.Seat` numbers, in play order); South and North
play together against East and West. Agents act in the game's order: the seat
after the dealer bids first, the declarer leads.

Observation
===========

A dict: ``observation``, the flat ``float32`` vector of 581 values described
in :mod:`tarneeb.env.encoding` (own hand, the auction, contract and trump,
cards played by each seat, the trick under way, known voids, tricks, scores;
seats relative to the observer), and ``action_mask``, ``int8``, 1 for each
legal action of the agent (all 0 when it is not the agent's turn), a
read-only array shared by equal masks. An observation holds only what that
seat's :class:`~tarneeb.view.View` holds.

Actions
=======

One ``Discrete`` space, the env ids of :mod:`tarneeb.env.encoding`:

=======================  ==================================================
id                       action
=======================  ==================================================
0..51                    play a card (``suit * 13 + rank``; C, D, H, S)
52, 53                   pass, double
54, 55                   raise, stand
56                       redeal (a weak hand)
57..60                   choose trump: C, D, H, S
61 + 6 * k + strain      bid (``k = level - 1`` for trick bids)
=======================  ==================================================

:func:`env` ends the episode with reward -1 for the agent that takes an
illegal action (PettingZoo's ``TerminateIllegalWrapper``); :class:`raw_env`
raises :class:`~tarneeb.errors.IllegalActionError`.

Rewards
=======

============  ===========================================================
``reward``    episode and reward
============  ===========================================================
``"deal"``    one deal; at its end each agent gets its side's points minus
              the other side's (0 for a deal thrown in); ``reward_scale``
              multiplies them
``"match"``   a whole :class:`~tarneeb.match.Match`; at its end +1 for the
              winning side, -1 for the other (0 each for a drawn match); a
              match still going after ``max_deals`` deals is truncated
============  ===========================================================

Arguments: ``rules`` (a :class:`~tarneeb.rules.Rules` or a preset name, default
``"classic"``), ``reward``, ``reward_scale``, ``max_deals``, ``render_mode``
(``"ansi"`` or ``"human"``). ``reset(seed=...)`` makes the deals reproducible.

Version history
===============

* ``tarneeb_v0``: the first version (observation and action version 0).

>>> e = env(rules="classic")
>>> e.reset(seed=3)
>>> e.agent_selection, int(e.action_space("player_0").n)
('player_2', 139)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((581,), 8)
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tarneeb.actions import Phase, format_action
from tarneeb.cards import live_rng
from tarneeb.deal import Deal
from tarneeb.env.encoding import (
    OBS_SIZE,
    ActionMap,
    FloatArray,
    MaskArray,
    ObservationEncoder,
    match_progress,
)
from tarneeb.errors import IllegalActionError
from tarneeb.game import NUM_PLAYERS
from tarneeb.match import Match
from tarneeb.presets import find_rules
from tarneeb.rules import Rules
from tarneeb.seats import Seat

__all__ = ["AGENTS", "env", "raw_env"]

AGENTS = tuple(f"player_{i}" for i in range(NUM_PLAYERS))
_PLAY = Phase.PLAY
ObsDict = dict[str, Any]


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment with PettingZoo's usual wrappers (illegal action: -1, episode over)."""
    wrapped: AECEnv[str, ObsDict, int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


def resolve_rules(rules: Rules | str) -> Rules:
    """A :class:`Rules` value, or the preset of that name."""
    return rules if isinstance(rules, Rules) else find_rules(rules)


class raw_env(AECEnv[str, ObsDict, int]):  # type: ignore[misc]  # PettingZoo's name for it
    """Tarneeb for four agents, without wrappers (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "tarneeb_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str = "classic",
        reward: str = "deal",
        reward_scale: float = 1.0,
        max_deals: int = 200,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in ("deal", "match"):
            raise ValueError(f"reward must be 'deal' or 'match', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of ansi, human, not {render_mode!r}")
        self.rules = resolve_rules(rules)
        self.reward_mode = reward
        self.reward_scale = float(reward_scale)
        self.max_deals = max_deals
        self.render_mode = render_mode
        self.action_map = ActionMap(self.rules)
        n = self.action_map.num_actions
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in AGENTS
        }
        self._seat_of = {a: i for i, a in enumerate(AGENTS)}
        self._encoder = ObservationEncoder(self.rules)
        self._rng: random.Random | None = None
        self._match: Match | None = None
        self._deal: Deal = Deal.from_rng(self.rules, 0, random.Random(0))
        self._legal: tuple[int, ...] = ()
        """The legal engine ids outside the play phase."""
        self._legal_cards = 0
        """The legal cards (a bitmask) in the play phase."""
        self._to_act = -1
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    # -- spaces ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the deal in play --------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        """The deal under way (the whole deal: for analysis, never for an agent)."""
        return self._deal

    @property
    def match(self) -> Match | None:
        """The match under way with ``reward="match"``."""
        return self._match

    def _start_deal(self, deal: Deal) -> None:
        self._deal = deal
        self._encoder.start(deal.dealer, deal.scores, deal.dealt, match_progress(self._match))
        self._after_action(deal)

    # -- AEC API -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = live_rng()
        rng = self._rng
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        if self.reward_mode == "match":
            self._match = Match(self.rules, seed=rng.getrandbits(64))
            self._start_deal(self._match.deal)
        else:
            self._match = None
            self._start_deal(Deal.from_rng(self.rules, rng.randrange(4), rng))

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat_of[agent]
        to_act = self._to_act
        obs: FloatArray = self._encoder.row(seat, to_act)
        # Masks are read-only: made from bytes, or shared by equal masks.
        mask: MaskArray
        if seat != to_act:
            mask = self.action_map.mask((), shared=True)
        elif self._legal_cards:
            mask = self.action_map.card_mask(self._legal_cards)
        else:
            mask = self.action_map.mask(self._legal, shared=True)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None, "a live agent must act"
        index = int(action)
        engine = (
            self.action_map.to_engine[index] if 0 <= index < len(self.action_map.to_engine) else -1
        )
        if engine < 0 or not (
            self._legal_cards >> engine & 1 if engine < 52 else engine in self._legal
        ):
            deal = self._deal
            raise IllegalActionError(
                f"{agent} ({Seat(self._seat_of[agent]).name.title()}) cannot take action "
                f"{action!r} in the {deal.phase} phase"
            )
        seat = self._seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        deal = self._deal
        match = self._match
        if match is None:
            deal.push_unchecked(engine)
            self._encoder.add(seat, engine)
            self._after_action(deal)
            if self._to_act < 0:
                self._end_episode(self._deal_rewards(deal))
        else:
            match.push(engine)
            if match.deal is deal or match.is_over():
                # The deal goes on, or it was the match's last: show its end.
                self._encoder.add(seat, engine)
                self._after_action(deal)
                if match.is_over():
                    self._end_episode(self._match_rewards(match))
            elif len(match.deals) > self.max_deals:
                self._encoder.add(seat, engine)
                self._after_action(deal)
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self._start_deal(match.deal)
        if self.render_mode == "human":
            self.render()

    def _after_action(self, deal: Deal) -> None:
        seat = deal.to_act
        to_act = -1 if seat is None else int(seat)
        self._to_act = to_act
        self._encoder.sync(deal, to_act)
        if to_act >= 0:
            if deal.phase is _PLAY:
                self._legal_cards = deal.legal_card_mask()
                self._legal = ()
            else:
                self._legal_cards = 0
                self._legal = deal.legal_action_ids()
            self.agent_selection = AGENTS[to_act]
        else:
            self._legal_cards = 0
            self._legal = ()

    def _deal_rewards(self, deal: Deal) -> list[float]:
        result = deal.result
        if result is None:
            return [0.0] * 4
        ns, ew = result.team_points
        diff = float(ns - ew) * self.reward_scale
        return [diff, -diff, diff, -diff]

    @staticmethod
    def _match_rewards(match: Match) -> list[float]:
        winner = match.winner
        if winner is None:
            return [0.0] * 4
        return [1.0 if seat % 2 == winner else -1.0 for seat in range(4)]

    def _end_episode(self, rewards: list[float]) -> None:
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = rewards[seat]
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    # -- people -----------------------------------------------------------------------

    def render(self) -> str | None:
        """The deal's public state as text (``"ansi"``), printed with ``"human"``."""
        if self.render_mode is None:
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _render_text(self) -> str:
        deal = self._deal
        lines = [f"phase: {deal.phase}, dealer: {deal.dealer.name.title()}"]
        if deal.contract is not None:
            lines.append(f"contract: {deal.contract}")
        trick = deal.current_trick
        if trick is not None and trick.cards:
            shown = " ".join(format_action(c) for c in trick.cards)
            lines.append(f"trick (led by {trick.leader.name.title()}): {shown}")
        lines.append(f"tricks taken: {deal.tricks_taken}")
        if deal.to_act is not None:
            lines.append(f"to act: {deal.to_act.name.title()}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
