"""Tarneeb as a Gymnasium single-agent environment: one seat learns, bots play the rest.

The learner's observation is the flat vector of :mod:`tarneeb.env.encoding`
(a ``Box`` of ``float32`` values) and its actions the env ids there (a
``Discrete`` space); the legal ones are in ``info["action_mask"]`` after
every ``reset`` and ``step``, and from :meth:`TarneebEnv.action_masks` (the
sb3-contrib ``MaskablePPO`` convention): a fresh writable ``int8`` array.
Once the episode is over the mask is all 1: a vector env samples an action
for the finished env before it resets it (Gymnasium's autoreset ignores
that action), and an all-0 mask would break the usual
``np.random.choice(np.flatnonzero(mask))``. The other three seats are bots
chosen by name (:func:`tarneeb.bots.make_bot` specs, e.g. ``"random"``,
``"heuristic:aggressive"``, ``"policy:..."``); each decides from its own
seat's view (a random bot picks among the legal ids directly: the same
choice from the same generator, without building the view).

The parameters are :mod:`tarneeb.env.tarneeb_v0`'s (``rules``, ``reward``,
``reward_scale``, ``max_deals``, ``scores``, ``dealer``, the double-dummy
modes), plus ``seat``, ``opponents`` and ``illegal_reward``;
``reset(options=...)`` takes ``scores``, ``dealer`` and ``rules`` there too.
:meth:`TarneebEnv.state` is the full-information state of the four-seat env
(for a centralised critic, never for the policy).

Rewards are those of :mod:`tarneeb.env.tarneeb_v0` for the learner's seat
(``reward="deal"``: the side's points minus the other side's at the end of
the deal; ``reward="match"``: +1 / -1 at the end of the match). An illegal
action ends the episode with ``illegal_reward`` and ``info["illegal_action"]``.
A deal that ends before the learner has acted (a weak-hand redeal claimed by
a bot) is skipped by ``reset``.

It is registered with Gymnasium as ``tarneeb/Tarneeb-v0``.

>>> import gymnasium
>>> env = gymnasium.make("tarneeb/Tarneeb-v0", opponents="heuristic")
>>> obs, info = env.reset(seed=5)
>>> obs.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from tarneeb.actions import action_id
from tarneeb.bots import Bot, RandomBot, make_bot
from tarneeb.env.encoding import FloatArray, MaskArray
from tarneeb.env.params import check_seat
from tarneeb.env.tarneeb_v0 import AGENTS, raw_env
from tarneeb.errors import RulesError
from tarneeb.rules import Rules

__all__ = ["ENV_ID", "TarneebEnv"]

ENV_ID = "tarneeb/Tarneeb-v0"


class TarneebEnv(gymnasium.Env[FloatArray, int]):
    """One learning seat against three bots (see the module docstring).

    :param seat: the learner's seat (0 South .. 3 West, or its name: "S", "north").
    :param opponents: one bot spec for all three other seats, or three specs
        for them in seat order (the learner's seat left out); the learner's
        partner is one of them.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | str = "classic",
        seat: int | str = 0,
        opponents: str | Sequence[str] = "random",
        reward: str = "deal",
        reward_scale: float = 1.0,
        illegal_reward: float = -1.0,
        max_deals: int | None = 200,
        render_mode: str | None = None,
        scores: Sequence[int] | None = None,
        dealer: int | None = None,
        use_double_dummy_result: bool = False,
        dd_features: bool = False,
        dd_backend: str = "auto",
    ) -> None:
        super().__init__()
        self.seat = check_seat(seat)
        self._aec = raw_env(
            rules=rules,
            reward=reward,
            reward_scale=reward_scale,
            max_deals=max_deals,
            render_mode="ansi" if render_mode == "ansi" else None,
            scores=scores,
            dealer=dealer,
            use_double_dummy_result=use_double_dummy_result,
            dd_features=dd_features,
            dd_backend=dd_backend,
        )
        self.render_mode = render_mode
        self.rules = self._aec.rules
        self.action_map = self._aec.action_map
        self.illegal_reward = float(illegal_reward)
        specs = [opponents] * 3 if isinstance(opponents, str) else opponents
        if (
            not isinstance(specs, Sequence)
            or len(specs) != 3
            or not all(isinstance(spec, str) for spec in specs)
        ):
            raise RulesError(
                f"opponents: give one bot spec or three, as text, not {opponents!r}"[:200]
            )
        others = [s for s in range(4) if s != self.seat]
        self.bot_specs = dict(zip(others, specs, strict=True))
        self._bots: dict[int, Bot] = {
            s: make_bot(spec, rng=random.Random(s)) for s, spec in self.bot_specs.items()
        }
        self._fast = {s for s, bot in self._bots.items() if type(bot) is RandomBot}
        self._agent = AGENTS[self.seat]
        size = self._aec.observation_spaces[self._agent]["observation"].shape
        self.observation_space = spaces.Box(-1.0, 1.0, size, np.float32)
        self.state_space = self._aec.state_space
        # Discrete draws numpy ints; step takes any int.
        self.action_space = cast("spaces.Space[int]", spaces.Discrete(self.action_map.num_actions))
        self._done = True

    @property
    def aec(self) -> raw_env:
        """The four-seat environment underneath."""
        return self._aec

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            for s, bot in self._bots.items():
                bot.rng.seed(seed * 4 + s)
            self._aec.reset(seed=seed, options=options)
        else:
            self._aec.reset(seed=int(self.np_random.integers(2**62)), options=options)
        while True:
            self._play_bots()
            if not self._over():
                break
            self._aec.reset(options=options)
        self._done = False
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("step after the episode ended: call reset()")
        aec = self._aec
        index = int(action)
        if aec.engine_id(index) < 0:
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        aec.step(index)
        self._play_bots()
        terminated = aec.terminations[self._agent]
        truncated = aec.truncations[self._agent]
        reward = float(aec._cumulative_rewards[self._agent]) if terminated else 0.0
        self._done = terminated or truncated
        return self._observe(), reward, terminated, truncated, self._info()

    def _over(self) -> bool:
        return self._aec.terminations[self._agent] or self._aec.truncations[self._agent]

    def _play_bots(self) -> None:
        aec = self._aec
        to_env = self.action_map.to_env
        fast = self._fast
        while not self._over() and aec.agent_selection != self._agent:
            seat = AGENTS.index(aec.agent_selection)
            deal = aec.deal
            bot = self._bots[seat]
            if seat in fast:
                # RandomBot's own choice (the same index from the same generator), sans view.
                ids = deal.legal_action_ids()
                engine = ids[bot.rng.randrange(len(ids))]
            else:
                engine = action_id(bot.act(deal.view(seat)))
            aec.step(to_env[engine])

    def _observe(self) -> FloatArray:
        obs: FloatArray = self._aec.observe(self._agent)["observation"]
        return obs

    def action_masks(self) -> MaskArray:
        """The learner's legal actions now (1 = legal), a fresh array; all 1 once it is over."""
        if self._done or self._over():
            return np.ones(self.action_map.num_actions, dtype=np.int8)
        mask: MaskArray = self._aec.observe(self._agent)["action_mask"]
        return mask

    def state(self) -> FloatArray:
        """The four-seat env's full-information state (see :meth:`raw_env.state`)."""
        return self._aec.state()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self._aec._render_text()


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="tarneeb.env.gym_env:TarneebEnv")
