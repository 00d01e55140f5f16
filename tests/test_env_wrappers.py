"""The checked PettingZoo env (one wrapper for PettingZoo's three), masks, start scores, state.

Tests skip without PettingZoo and Gymnasium (the ``pettingzoo`` extra), and
fail instead when TARNEEB_REQUIRE_EXTRAS=1.
"""

from __future__ import annotations

import cProfile
import json
import pstats
import random
import warnings
from typing import Any

import pytest

from tarneeb import PRESETS, find_rules
from tarneeb.errors import RulesError
from test_env import need


@pytest.fixture
def v0() -> Any:
    need("pettingzoo")
    need("gymnasium")
    from tarneeb.env import tarneeb_v0

    return tarneeb_v0


def stacked(raw: Any) -> Any:
    """PettingZoo's own three wrappers, as ``tarneeb_v0.env()`` had them."""
    from pettingzoo.utils import wrappers

    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def trace(env: Any, seed: int, illegal_at: int | None = None, steps: int = 400) -> list[Any]:
    """Everything ``last()`` says along a seeded random game (an illegal move at step ``illegal_at``)."""
    import numpy as np

    rng = random.Random(seed)
    env.reset(seed=seed)
    out: list[Any] = []
    for n, agent in enumerate(env.agent_iter(steps)):
        obs, reward, terminated, truncated, _info = env.last()
        mask = obs["action_mask"]
        out.append(
            (agent, reward, terminated, truncated, obs["observation"].tolist(), mask.tolist())
        )
        if terminated or truncated:
            action = None
        elif n == illegal_at:
            action = int(np.flatnonzero(mask == 0)[0])
        else:
            action = int(rng.choice(np.flatnonzero(mask).tolist()))
        env.step(action)
    out.append((dict(env.rewards), dict(env.terminations), dict(env.truncations), env.agents))
    return out


@pytest.mark.parametrize("illegal_at", [None, 3, 30])
def test_safe_env_behaves_as_pettingzoos_stacked_wrappers(v0: Any, illegal_at: int | None) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the illegal move's warning
        ours = trace(v0.env(), seed=5, illegal_at=illegal_at)
        theirs = trace(stacked(v0.raw_env()), seed=5, illegal_at=illegal_at)
    assert ours == theirs
    if illegal_at is not None:
        rewards = [step[1] for step in ours[:-1]]
        assert -1 in rewards


def test_safe_env_order_and_bounds_checks(v0: Any) -> None:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = v0.env()
    assert isinstance(env, OrderEnforcingWrapper)
    for name in ("agent_selection", "agents", "rewards", "terminations", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, name)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    with pytest.raises(Exception, match="reset"):
        env.observe("player_0")
    env.reset(seed=1)
    with pytest.raises(AssertionError, match="action space"):
        env.step(10_000)
    with pytest.raises(AssertionError, match="action space"):
        env.step(None)
    assert env.unwrapped.__class__ is v0.raw_env
    assert env.num_agents == 4 and env.possible_agents == list(v0.AGENTS)


def count_calls(env: Any, steps: int) -> int:
    import numpy as np

    rng = random.Random(0)
    env.reset(seed=0)
    profile = cProfile.Profile()
    profile.enable()
    done = 0
    while done < steps:
        for _agent in env.agent_iter():
            obs, _r, terminated, truncated, _i = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist())))
            done += 1
        env.reset()
    profile.disable()
    return sum(int(s[1]) for s in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]


def test_wrapped_env_costs_little_more_than_the_bare_env(v0: Any) -> None:
    """The wrapped env was 5x slower than raw_env: each attribute read walked three __getattr__."""
    count_calls(v0.raw_env(), 50)  # first calls build tables: not counted
    bare = count_calls(v0.raw_env(), 300)
    wrapped = count_calls(v0.env(), 300)
    assert wrapped < 1.3 * bare, (bare, wrapped)


def test_masks_are_fresh_and_writable_and_sampling_works(v0: Any) -> None:
    import numpy as np

    env = v0.env(rules="egyptian")
    env.reset(seed=2)
    seen = 0
    for agent in env.agent_iter():
        obs, _r, terminated, truncated, _i = env.last()
        mask = obs["action_mask"]
        assert mask.flags.writeable and mask.dtype == np.int8
        if terminated or truncated:
            assert not mask.any()  # a finished agent's only action is None
            env.step(None)
            continue
        again = env.observe(agent)["action_mask"]
        mask[:] = 0  # the caller's own array: the env's next mask is unchanged
        assert env.observe(agent)["action_mask"].tolist() == again.tolist()
        action = int(np.random.default_rng(seen).choice(np.flatnonzero(again)))
        assert env.action_space(agent).sample(again) in np.flatnonzero(again)
        env.step(action)
        seen += 1
    assert seen > 10


def test_start_scores_reach_the_deal_and_score_dependent_rules(v0: Any) -> None:
    """RULES.md, syrian400: "both minimums rise with the bidder's own score (under 30: 2 and
    11; 30-39: 3 and 12; 40-49: 4 and 13; 50 and up: 5 and 14)"."""
    import numpy as np

    env = v0.raw_env(rules="syrian400")
    lows = {}
    for score in (0, 35, 45, 55):
        env.reset(seed=3, options={"scores": (score,) * 4, "dealer": 3})
        assert env.deal.scores == (score,) * 4 and env.agent_selection == "player_0"
        mask = env.observe("player_0")["action_mask"]
        bids = [env.action_map.to_engine[i] for i in np.flatnonzero(mask)]
        lows[score] = min(b for b in bids if b >= 64)
    assert len(set(lows.values())) == 4  # the lowest bid differs at each level of score
    # The constructor's scores are the default; options override them for one reset.
    env = v0.raw_env(rules="classic", scores=(20, -4))
    env.reset(seed=1)
    assert env.deal.scores == (20, -4, 20, -4)
    obs = env.observe("player_1")["observation"]
    env.reset(seed=1, options={"scores": (0, 0)})
    assert env.deal.scores == (0, 0, 0, 0)
    assert obs.tolist() != env.observe("player_1")["observation"].tolist()


def test_match_starts_from_the_scores(v0: Any) -> None:
    env = v0.raw_env(rules="classic", reward="match", scores=(40, 0))
    env.reset(seed=7)
    assert env.match is not None and env.match.team_scores == (40, 0)
    assert env.deal.scores == (40, 0, 40, 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"scores": (1, 2, 3)}, "two numbers"),
        ({"scores": (1, 2, 3, 4)}, "partners share"),
        ({"scores": "10"}, "sequence"),
        ({"scores": (1.5, 2)}, "whole"),
        ({"rules": "syrian400", "scores": (1, 2)}, "four numbers"),
        ({"dealer": 4}, "0..3"),
        ({"max_deals": 0}, "at least 1"),
        ({"max_deals": -2}, "at least 1"),
        ({"use_double_dummy_result": True, "reward": "match"}, "reward='deal'"),
        ({"use_double_dummy_result": True, "rules": "syrian400"}, "partnership"),
        ({"use_double_dummy_result": True, "rules": "tarneeb400"}, "tricks"),
        # rules of another type used to end in AttributeError ('int' object has no 'strip')
        ({"rules": 12}, "a preset's name"),
        ({"rules": None}, "a preset's name"),
        ({"rules": ["classic"]}, "a preset's name"),
        ({"rules": "classic;foo"}, "KEY=VALUE"),
        ({"rules": {"nosuch": 1}}, "unknown rule option"),
        # a ValueError here, a RulesError from OpenSpiel's game: one check now
        ({"reward": 5}, "'deal' or 'match'"),
        ({"reward": "points"}, "'deal' or 'match'"),
    ],
)
def test_bad_parameters_are_refused(v0: Any, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        v0.raw_env(**kwargs)


def test_bad_reset_options_are_refused_and_change_nothing(v0: Any) -> None:
    env = v0.raw_env()
    env.reset(seed=1)
    before = env.deal
    with pytest.raises(RulesError, match="partners share"):
        env.reset(seed=2, options={"scores": (1, 2, 3, 4)})
    with pytest.raises(RulesError, match="action space"):
        env.reset(seed=2, options={"rules": "tarneeb400"})
    eleven = find_rules("classic").replace(target=11)
    with pytest.raises(RulesError, match="partners share"):
        env.reset(seed=2, options={"rules": eleven, "scores": (1, 2, 3, 4)})
    assert env.deal is before and env.rules == find_rules("classic")
    env.reset(seed=2, options={"rules": find_rules("classic").replace(target=11)})
    assert env.rules.target == 11


def test_rules_are_read_as_openspiel_reads_them(v0: Any) -> None:
    """The same ``rules`` values on every environment: a preset with changes, its JSON,
    or the dict of ``Rules.to_dict``, at creation and in ``reset(options=...)``."""
    from tarneeb.env.episode import game_rules

    eleven = find_rules("egyptian").replace(target=31)
    for given in ("egyptian;target=31", json.dumps(eleven.to_dict()), eleven.to_dict(), eleven):
        assert v0.raw_env(rules=given).rules == eleven
        if isinstance(given, str):
            assert game_rules(given) == eleven  # what OpenSpiel's parameter gives
    env = v0.raw_env(rules="classic")
    env.reset(seed=1, options={"rules": "classic;target=11"})
    assert env.rules == find_rules("classic").replace(target=11)
    with pytest.raises(RulesError, match="a preset's name"):
        env.reset(seed=2, options={"rules": 11})
    assert env.rules.target == 11


def test_max_deals_none_plays_the_whole_match(v0: Any) -> None:
    """max_deals=0 used to act as 1; now it is refused, and None means no limit."""
    import numpy as np

    short = find_rules("classic").replace(target=11)
    env = v0.raw_env(rules=short, reward="match", max_deals=None)
    env.reset(seed=4)
    rng = random.Random(4)
    for _agent in env.agent_iter():
        obs, _r, terminated, truncated, _i = env.last()
        assert not truncated
        env.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.match is not None and env.match.is_over()
    assert len(env.match.deals) > 1


def test_state_is_full_information_and_marked_so(v0: Any) -> None:
    import numpy as np

    env = v0.env()
    env.reset(seed=4)
    raw = env.unwrapped
    state = env.state()
    assert state.shape == raw.state_space.shape and state.dtype == np.float32
    assert raw.state_space.contains(state)
    size = raw.observation_spaces["player_0"]["observation"].shape[0]
    assert state[:size].tolist() == env.observe("player_0")["observation"].tolist()
    for k, seat in enumerate((1, 2, 3)):
        held = np.flatnonzero(state[size + 52 * k : size + 52 * (k + 1)]).tolist()
        assert held == sorted(int(c) for c in raw.deal.hands[seat])
    assert "full information" in (type(raw).state.__doc__ or "").lower()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": find_rules("classic").replace(target=21, bid_once=True), "scores": (15, 3)},
        {"rules": "syrian400", "scores": (35, 10, 0, 45)},
        {"rules": "egyptian", "reward": "match", "scores": (30, 12), "max_deals": None},
    ],
    ids=["custom-rules", "syrian-scores", "egyptian-match"],
)
def test_conformance_with_custom_rules_and_start_scores(v0: Any, kwargs: dict[str, Any]) -> None:
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(v0.env(**kwargs), num_cycles=100)
        api_test(v0.raw_env(**kwargs), num_cycles=100)
    seed_test(lambda: v0.env(**kwargs), num_cycles=100)


def preset_scores(name: str) -> tuple[int, ...]:
    """Start scores near a preset's minimum-bid thresholds (individual: one a seat)."""
    return (35, 10, 0, 45) if find_rules(name).is_individual else (25, -8)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_passes_with_start_scores(v0: Any, name: str) -> None:
    from pettingzoo.test import api_test, seed_test

    kwargs = {"rules": name, "scores": preset_scores(name)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(v0.env(**kwargs), num_cycles=60)
    seed_test(lambda: v0.env(**kwargs), num_cycles=60)


# -- Gymnasium ---------------------------------------------------------------------------


@pytest.fixture
def gym_env() -> Any:
    need("gymnasium")
    need("pettingzoo")
    from tarneeb.env import gym_env

    return gym_env


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": find_rules("classic").replace(target=21), "scores": (10, 15)},
        {"rules": "syrian400", "scores": (35, 10, 0, 45), "opponents": "heuristic"},
    ],
    ids=["custom", "syrian-scores"],
)
def test_gymnasium_check_env_with_custom_rules_and_scores(
    gym_env: Any, kwargs: dict[str, Any]
) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gym_env.TarneebEnv(**kwargs)
    check_env(env)
    env.reset(seed=1)
    assert env.aec.deal.scores == env.aec.scores != (0, 0, 0, 0)


@pytest.mark.parametrize("name", list(PRESETS))
def test_gymnasium_check_env_on_every_preset_with_start_scores(gym_env: Any, name: str) -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(gym_env.TarneebEnv(rules=name, scores=preset_scores(name)))


def test_gymnasium_action_masks_and_terminal_mask(gym_env: Any) -> None:
    """The terminal mask was all 0, which breaks np.random.choice(np.flatnonzero(mask))."""
    import numpy as np

    env = gym_env.TarneebEnv(opponents="random")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    while True:
        mask = env.action_masks()
        assert mask.tolist() == info["action_mask"].tolist() and mask.flags.writeable
        _obs, _reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    assert info["action_mask"].all() and env.action_masks().all()
    assert env.state().shape == env.state_space.shape


def test_gymnasium_random_opponents_play_as_random_bots(gym_env: Any) -> None:
    """The fast path for random bots (no view) makes the same choices as RandomBot.decide."""
    import numpy as np

    from tarneeb.bots import RandomBot

    class ViewRandom(RandomBot):  # the same bot, taking the view path
        pass

    fast = gym_env.TarneebEnv(opponents="random")
    slow = gym_env.TarneebEnv(opponents="random")
    slow._bots = {s: ViewRandom(b.rng) for s, b in slow._bots.items()}
    slow._fast = set()
    for seed in range(4):
        histories = []
        for env in (fast, slow):
            _, info = env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                _, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            histories.append(env.aec.deal.action_ids)
        assert histories[0] == histories[1]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 7}, "0..3 or a seat's name"),  # was ValueError: 7 is not a valid Seat
        ({"seat": "middle"}, "0..3 or a seat's name"),
        ({"opponents": 5}, "one bot spec or three"),  # was TypeError: not iterable
        ({"opponents": ["random"]}, "one bot spec or three"),
        ({"opponents": ["random", 3, "random"]}, "one bot spec or three"),
        ({"reward": 5}, "'deal' or 'match'"),
    ],
)
def test_gymnasium_bad_parameters_are_refused(
    gym_env: Any, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        gym_env.TarneebEnv(**kwargs)


def test_gymnasium_seat_by_name(gym_env: Any) -> None:
    from tarneeb import Seat

    assert gym_env.TarneebEnv(seat="north").seat == Seat.NORTH == gym_env.TarneebEnv(seat=2).seat
