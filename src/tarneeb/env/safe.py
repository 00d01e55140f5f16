"""One wrapper with the checks of PettingZoo's usual three, at the bare env's speed."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gymnasium import spaces
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

if TYPE_CHECKING:
    from tarneeb.env.tarneeb_v0 import raw_env

__all__ = ["SafeEnv"]

ObsDict = dict[str, Any]


def _forward(name: str, ordered: bool) -> property:
    """An attribute read from (and written to) the bare env, without ``__getattr__``."""

    def get(self: SafeEnv) -> Any:
        if ordered and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    def put(self: SafeEnv, value: Any) -> None:
        setattr(self._raw, name, value)

    return property(get, put, doc=f"The bare environment's ``{name}``.")


class SafeEnv(OrderEnforcingWrapper):  # type: ignore[misc]
    """:class:`raw_env` with the checks of PettingZoo's three usual wrappers, in one layer.

    * ``OrderEnforcingWrapper`` (this class is one, so PettingZoo's tools
      recognise it): ``step``, ``observe``, ``state``, ``render`` and
      ``agent_iter`` before ``reset`` are errors, so is reading ``agents``,
      ``rewards``, ``terminations``, ``truncations``, ``infos``,
      ``agent_selection`` or ``num_agents``; a step after the end warns;
    * ``AssertOutOfBoundsWrapper``: an action outside the action space (or
      ``None`` from a live agent) fails an assertion;
    * ``TerminateIllegalWrapper``: an illegal action warns and ends the
      episode, ``illegal_reward`` for the agent that took it, 0 for the
      others, all agents terminated and truncated.

    The stacked wrappers find every attribute through three ``__getattr__``
    calls; here the ones the AEC loop reads are properties over the bare
    env, and the legality check asks the env (which knows the legal
    actions) instead of keeping the last observation's mask.
    """

    def __init__(self, env: raw_env, illegal_reward: float = -1.0) -> None:
        super().__init__(env)
        self._raw = env
        self._illegal_reward = float(illegal_reward)
        self._num_actions = env.action_map.num_actions
        self._space = env.action_spaces[env.possible_agents[0]]

    agents = _forward("agents", True)
    agent_selection = _forward("agent_selection", True)
    rewards = _forward("rewards", True)
    terminations = _forward("terminations", True)
    truncations = _forward("truncations", True)
    infos = _forward("infos", True)
    _cumulative_rewards = _forward("_cumulative_rewards", False)
    possible_agents = _forward("possible_agents", False)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._raw.reset(seed=seed, options=options)
        self._has_reset = True
        self._has_updated = True

    def observe(self, agent: str) -> ObsDict:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def last(
        self, observe: bool = True
    ) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self._raw
        agent = raw.agent_selection
        obs = raw.observe(agent) if observe else None
        return (
            obs,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    def _in_space(self, action: object) -> bool:
        if type(action) is int:
            return 0 <= action < self._num_actions
        contains: Callable[[object], bool] = self._space.contains
        return contains(action)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self._raw
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        if raw.terminations[agent] or raw.truncations[agent]:
            if action is not None and not self._in_space(action):
                raise AssertionError("action is not in action space")
            raw._was_dead_step(action)
            return
        if action is None or not self._in_space(action):
            raise AssertionError("action is not in action space")
        if raw.engine_id(int(action)) < 0:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[agent] = self._illegal_reward
            raw._accumulate_rewards()
            raw._deads_step_first()
            return
        raw.step(action)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._raw.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._raw.action_spaces[agent]
