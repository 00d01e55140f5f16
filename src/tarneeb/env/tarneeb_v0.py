"""Tarneeb as a PettingZoo AEC environment: ``tarneeb_v0``.

Four agents, ``player_0`` .. ``player_3``, are the seats South, East, North,
West (:class:`~tarneeb.seats.Seat` numbers, in play order); South and North
play together against East and West. Agents act in the game's order: the seat
after the dealer bids first, the declarer leads.

Observation
===========

A dict: ``observation``, the flat ``float32`` vector of
:data:`~tarneeb.env.encoding.OBS_SIZE` values described in
:mod:`tarneeb.env.encoding` (own hand, the auction, contract and trump, cards
played by each seat, the trick under way, known voids, tricks, scores; seats
relative to the observer), and ``action_mask``, ``int8``, 1 for each legal
action of the agent. An observation holds only what that seat's
:class:`~tarneeb.view.View` holds (unless ``dd_features`` is on: below).

Masks follow PettingZoo's convention: a fresh, writable array at every
``observe``; all 0 for an agent whose turn it is not, and for every agent once
the episode is over (a finished agent's only action is ``None``: the loop
``action = None if termination or truncation else space.sample(mask)``).

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
illegal action; :class:`raw_env` raises
:class:`~tarneeb.errors.IllegalActionError`. :func:`env` gives the
guarantees of PettingZoo's three usual wrappers (``OrderEnforcingWrapper``,
``AssertOutOfBoundsWrapper``, ``TerminateIllegalWrapper``) in one layer,
:class:`SafeEnv`: the same errors, warnings and rewards, at the speed of the
bare environment (stacked, the three cost four times the game itself: each
attribute read walks the stack through ``__getattr__``).

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

Parameters
==========

The same names serve every environment of :mod:`tarneeb.env` (the
Gymnasium env and the OpenSpiel game take them too):

``rules``
    a :class:`~tarneeb.rules.Rules` (any custom rules) or a preset name;
    default ``"classic"``.
``reward``, ``reward_scale``
    as above.
``max_deals``
    with ``reward="match"``, the deals after which a match still going is
    truncated (thrown-in deals count); an int >= 1, or ``None`` for no limit
    (the whole match). 0 or less is refused with a
    :class:`~tarneeb.errors.RulesError`. Unused with ``reward="deal"``.
``scores``
    the scores the episode starts from (default 0-0): four numbers, one per
    seat, or two (North-South, East-West) in partnership play (where
    partners' numbers must agree). With ``reward="deal"`` they are the
    scores before the deal, so that score-dependent rules (Syrian 400's
    minimum bids) vary; with ``reward="match"``, the match starts there.
``dealer``
    the first dealer (0..3); default drawn from the seed.
``use_double_dummy_result``, ``dd_features``, ``dd_backend``
    the double-dummy modes of :mod:`tarneeb.env.dd`: an auction-only
    episode scored by the contract's double-dummy result (``reward="deal"``
    only), and 20 double-dummy values appended to the observation
    (full information: an oracle feature).
``render_mode``
    ``"ansi"`` or ``"human"``.

``reset(seed=..., options=...)``: ``seed`` makes the deals reproducible;
``options`` may give ``scores``, ``dealer`` and ``rules`` for this episode
(rules whose action space is the same as the env's, e.g. the preset with
options changed: the spaces are fixed at construction); other keys are
ignored.

State
=====

:meth:`raw_env.state` (PettingZoo's convention for centralised critics,
with ``state_space``) is **full information**: ``player_0``'s observation
followed by the cards still held by seats 1, 2 and 3 (52 each, absolute
seats). Give it to a critic in training, never to an acting policy.

Version history
===============

* ``tarneeb_v0``: the first version (observation and action version 0).

>>> e = env(rules="classic")
>>> e.reset(seed=3)
>>> e.agent_selection, int(e.action_space("player_0").n)
('player_2', 139)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape == (OBS_SIZE,), int(obs["action_mask"].sum())
(True, 8)
>>> e.reset(seed=3, options={"scores": (30, -5), "dealer": 0})
>>> e.unwrapped.deal.scores, e.agent_selection
((30, -5, 30, -5), 'player_1')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tarneeb.actions import Phase, format_action
from tarneeb.cards import live_rng
from tarneeb.deal import Deal
from tarneeb.env import dd
from tarneeb.env.encoding import (
    OBS_SIZE,
    ActionMap,
    FloatArray,
    MaskArray,
    ObservationEncoder,
    match_progress,
)
from tarneeb.env.params import (
    check_dealer,
    check_max_deals,
    check_reward,
    resolve_rules,
    start_scores,
)
from tarneeb.env.safe import SafeEnv
from tarneeb.errors import IllegalActionError, RulesError
from tarneeb.game import NUM_PLAYERS
from tarneeb.match import Match
from tarneeb.rules import Rules
from tarneeb.scoring import DealResult
from tarneeb.seats import Seat

__all__ = ["AGENTS", "SafeEnv", "env", "raw_env", "resolve_rules"]

AGENTS = tuple(f"player_{i}" for i in range(NUM_PLAYERS))
_PLAY = Phase.PLAY
ObsDict = dict[str, Any]


def env(illegal_reward: float = -1.0, **kwargs: Any) -> SafeEnv:
    """The environment with PettingZoo's usual checks (illegal action: ``illegal_reward``, over).

    ``kwargs`` are :class:`raw_env`'s.
    """
    return SafeEnv(raw_env(**kwargs), illegal_reward=illegal_reward)


def _hand_bits(mask: int, out: FloatArray) -> None:
    raw = np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)
    out[:] = np.unpackbits(raw, bitorder="little", count=52)


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
        max_deals: int | None = 200,
        render_mode: str | None = None,
        scores: Sequence[int] | None = None,
        dealer: int | None = None,
        use_double_dummy_result: bool = False,
        dd_features: bool = False,
        dd_backend: str = "auto",
    ) -> None:
        super().__init__()
        check_reward(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of ansi, human, not {render_mode!r}")
        self.rules = resolve_rules(rules)
        self.reward_mode = reward
        self.reward_scale = float(reward_scale)
        self.max_deals = check_max_deals(max_deals)
        self.scores = start_scores(self.rules, scores)
        self.dealer = check_dealer(dealer)
        self.use_double_dummy_result = bool(use_double_dummy_result)
        self.dd_features = bool(dd_features)
        self.dd_backend = dd_backend
        if self.use_double_dummy_result:
            dd.check_dd_result(self.rules)
            if reward != "deal":
                raise RulesError("use_double_dummy_result scores single deals: use reward='deal'")
        self.render_mode = render_mode
        self.action_map = ActionMap(self.rules)
        n = self.action_map.num_actions
        self._obs_size = OBS_SIZE + (dd.DD_FEATURES if self.dd_features else 0)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-1.0, 1.0, (self._obs_size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in AGENTS
        }
        self.state_space = spaces.Box(-1.0, 1.0, (self._obs_size + 3 * 52,), np.float32)
        self._seat_of = {a: i for i, a in enumerate(AGENTS)}
        self._encoder = ObservationEncoder(self.rules)
        self._no_mask = self.action_map.mask(())
        self._rng: random.Random | None = None
        self._match: Match | None = None
        self._deal: Deal = Deal.from_rng(self.rules, 0, random.Random(0))
        self._legal: tuple[int, ...] = ()
        """The legal engine ids outside the play phase."""
        self._legal_cards = 0
        """The legal cards (a bitmask) in the play phase."""
        self._to_act = -1
        self._dd_table: dd.DDTricks | None = None
        self._dd_result: DealResult | None = None
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

    @property
    def dd_result(self) -> DealResult | None:
        """With ``use_double_dummy_result``, the deal's double-dummy result once it is scored."""
        return self._dd_result

    @property
    def dd_table(self) -> dd.DDTricks | None:
        """With ``dd_features``, the double-dummy table of the deal (full information)."""
        return self._dd_table

    def _start_deal(self, deal: Deal) -> None:
        self._deal = deal
        self._dd_result = None
        self._dd_table = (
            dd.dd_tricks(deal.dealt, self.rules, self.dd_backend) if self.dd_features else None
        )
        self._encoder.start(deal.dealer, deal.scores, deal.dealt, match_progress(self._match))
        self._after_action(deal)

    # -- AEC API -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        rules, scores, dealer = self.rules, self.scores, self.dealer
        if options:
            # Everything is checked before anything changes. Other keys are left alone
            # (PettingZoo's api_test passes one of its own).
            if "rules" in options:
                rules = self._check_rules(resolve_rules(options["rules"]))
                scores = start_scores(rules, scores)
            if "scores" in options:
                scores = start_scores(rules, options["scores"])
            if "dealer" in options:
                dealer = check_dealer(options["dealer"])
            if rules is not self.rules:
                self.rules = rules
                self.action_map = ActionMap(rules)
                self._encoder = ObservationEncoder(rules)
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
            seed64 = rng.getrandbits(64)
            self._match = Match(self.rules, seed=seed64, first_dealer=dealer, scores=scores)
            self._start_deal(self._match.deal)
        else:
            self._match = None
            drawn = rng.randrange(4)
            deal_dealer = drawn if dealer is None else dealer
            self._start_deal(Deal.from_rng(self.rules, deal_dealer, rng, scores=scores))

    def _check_rules(self, rules: Rules) -> Rules:
        if rules == self.rules:
            return self.rules
        if ActionMap(rules).to_engine != self.action_map.to_engine:
            raise RulesError(
                "rules given to reset must keep the env's action space (the spaces are fixed "
                "when the env is made): make a new env for these rules"
            )
        if self.use_double_dummy_result:
            dd.check_dd_result(rules)
        return rules

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat_of[agent]
        to_act = self._to_act
        table = self._dd_table
        obs: FloatArray
        if table is None:
            obs = self._encoder.row(seat, to_act)
        else:
            obs = np.empty(self._obs_size, dtype=np.float32)
            self._encoder.row(seat, to_act, obs[:OBS_SIZE])
            obs[OBS_SIZE:] = dd.dd_features(table, seat)
        mask: MaskArray
        if seat != to_act:
            mask = self._no_mask.copy()
        elif self._legal_cards:
            mask = self.action_map.card_mask(self._legal_cards).copy()
        else:
            mask = self.action_map.mask(self._legal)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> FloatArray:
        """Full information, for centralised critics: see "State" in the module docstring."""
        out = np.empty(self._obs_size + 3 * 52, dtype=np.float32)
        size = self._obs_size
        out[:size] = self.observe(AGENTS[0])["observation"]
        hands = self._deal.hands
        for k in range(3):
            _hand_bits(hands[k + 1].mask, out[size + 52 * k : size + 52 * (k + 1)])
        return out

    def engine_id(self, action: int) -> int:
        """The engine id of env action ``action`` if it is legal now, else -1."""
        amap = self.action_map.to_engine
        engine = amap[action] if 0 <= action < len(amap) else -1
        if engine < 0 or self._to_act < 0:
            return -1
        if engine < 52:
            return engine if self._legal_cards >> engine & 1 else -1
        return engine if engine in self._legal else -1

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None, "a live agent must act"
        engine = self.engine_id(int(action))
        if engine < 0:
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
                self._end_episode(self._deal_rewards(deal.result))
            elif self.use_double_dummy_result and deal.phase is _PLAY:
                # The auction is over: the contract is scored double-dummy, without play.
                self._dd_result = dd.dd_result(deal, self.dd_backend)
                self._to_act = -1
                self._legal_cards = 0
                self._end_episode(self._deal_rewards(self._dd_result))
        else:
            match.push(engine)
            if match.deal is deal or match.is_over():
                # The deal goes on, or it was the match's last: show its end.
                self._encoder.add(seat, engine)
                self._after_action(deal)
                if match.is_over():
                    self._end_episode(self._match_rewards(match))
            elif self.max_deals is not None and len(match.deals) > self.max_deals:
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

    def _deal_rewards(self, result: DealResult | None) -> list[float]:
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
        if self._dd_result is not None:
            lines.append(f"double-dummy result: {self._dd_result.team_points}")
        if self._to_act >= 0 and deal.to_act is not None:
            lines.append(f"to act: {deal.to_act.name.title()}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
