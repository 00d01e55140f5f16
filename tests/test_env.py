"""The environments: action ids, observations (hidden information), PettingZoo, Gymnasium, OpenSpiel.

Tests of a framework skip when it is missing, and fail instead when
TARNEEB_REQUIRE_EXTRAS=1 (CI installs the ``env`` extra).
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from tarneeb import PRESETS, Card, Deal, Phase, find_rules
from tarneeb.actions import BID_BASE, NUM_ACTIONS, action_id
from tarneeb.errors import IllegalActionError

REQUIRE_EXTRAS = os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1"
ROOT = Path(__file__).resolve().parent.parent


def need(module: str, extra: str = "env") -> None:
    """Skip without ``module``, unless TARNEEB_REQUIRE_EXTRAS=1 (then fail)."""
    if importlib.util.find_spec(module) is None:
        message = f"{module} is not installed (the {extra} extra)"
        if REQUIRE_EXTRAS:
            pytest.fail(f"{message}, and TARNEEB_REQUIRE_EXTRAS=1 insists on it")
        pytest.skip(message)


@pytest.fixture
def np() -> Any:
    need("numpy")
    import numpy

    return numpy


def random_deals(rules_name: str, count: int, seed: int = 0) -> list[tuple[Deal, list[int]]]:
    """Finished random deals with their actions, to replay step by step."""
    out = []
    rules = find_rules(rules_name)
    for n in range(count):
        rng = random.Random(seed * 1000 + n)
        scores = (rng.randrange(-30, 60),) * 4
        deal = Deal.from_rng(rules, rng.randrange(4), rng, scores=scores)
        start = deal.copy()
        actions = []
        while not deal.is_over():
            a = rng.choice(deal.legal_action_ids())
            deal.push(a)
            actions.append(a)
        out.append((start, actions))
    return out


# -- action ids ------------------------------------------------------------------------


def test_action_map_known_values(np: Any) -> None:
    from tarneeb.env.encoding import ActionMap

    classic = ActionMap(find_rules("classic"))
    assert classic.num_actions == 139
    assert classic.to_env[:61] == list(range(61))
    # Bid 8 (no strain named): 64 + 8 * 6 + 5 = 117 -> 61 + 6 * 7 + 5 = 108.
    assert classic.to_env[117] == 108 and classic.to_engine[108] == 117
    # 13NT: 64 + 13 * 6 + 4 = 146 -> 61 + 6 * 12 + 4 = 137.
    assert classic.to_env[146] == 137
    points = ActionMap(find_rules("tarneeb400"))
    assert points.num_actions == 61 + 7 * 6
    assert points.to_env[BID_BASE + 60 * 6 + 5] == 61 + 5
    assert points.to_env[BID_BASE + 120 * 6 + 5] == 61 + 36 + 5
    mask = classic.mask((52, 117))
    assert mask.dtype == np.int8 and mask.shape == (139,)
    assert np.flatnonzero(mask).tolist() == [52, 108]
    mask[0] = 1  # a fresh array each time
    assert classic.mask((52, 117))[0] == 0
    shared = classic.mask((52, 117), shared=True)
    assert shared is classic.mask((52, 117), shared=True)
    with pytest.raises(ValueError):
        shared[0] = 1


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_legal_action_has_an_env_id(np: Any, name: str) -> None:
    from tarneeb.env.encoding import ActionMap

    amap = ActionMap(find_rules(name))
    assert len(amap.to_env) == NUM_ACTIONS
    for start, actions in random_deals(name, 8):
        deal = start
        for a in [*actions, None]:
            for legal in deal.legal_action_ids():
                env_id = amap.to_env[legal]
                assert 0 <= env_id < amap.num_actions
                assert amap.to_engine[env_id] == legal
            if a is not None:
                deal.push(a)


# -- observations --------------------------------------------------------------------


def test_observation_layout(np: Any) -> None:
    from tarneeb.env import encoding

    assert encoding.OBS_SIZE == 581
    assert encoding.OFFSETS == {
        "hand": 0,
        "phase": 52,
        "to_act": 58,
        "dealer": 62,
        "auction": 66,
        "high_bid": 106,
        "contract": 117,
        "played": 129,
        "trick": 337,
        "leader": 545,
        "voids": 549,
        "tricks": 565,
        "scores": 569,
        "points": 573,
        "match": 577,
    }
    # The docstring's table names the same offsets.
    doc = encoding.__doc__ or ""
    for offset in encoding.OFFSETS.values():
        assert f"\n{offset} " in doc


def test_observation_known_values(np: Any) -> None:
    from tarneeb.env.encoding import OFFSETS, encode_view

    rules = find_rules("classic")
    deal = Deal.from_seed(rules, dealer=3, seed=7, scores=(20, -5, 20, -5))
    for text in ["8", "pass", "9", "pass", "pass", "S"]:
        deal.push(text)
    # South bid 8, East passed, North bid 9, West and South passed: North declares in spades.
    lead = deal.legal_action_ids()[0]
    deal.push(lead)  # North leads
    obs = encode_view(deal.view(1))  # East's view
    o = OFFSETS
    assert obs[o["hand"] : o["hand"] + 52].tolist() == [
        float(deal.hand(1).mask >> c & 1) for c in range(52)
    ]
    assert obs[o["phase"] : o["phase"] + 6].tolist() == [0, 0, 0, 1, 0, 0]
    assert obs[o["to_act"] : o["to_act"] + 4].tolist() == [0, 0, 1, 0]  # West: after North
    assert obs[o["dealer"] : o["dealer"] + 4].tolist() == [0, 0, 1, 0]  # West: East's partner
    south = o["auction"] + 3 * 10  # South is East's left (relative 3)
    assert obs[south : south + 10].tolist() == pytest.approx([1, 8 / 13, 0, 0, 0, 0, 0, 1, 1, 0])
    north = o["auction"] + 1 * 10
    assert obs[north : north + 10].tolist() == pytest.approx([1, 9 / 13, 0, 0, 0, 0, 0, 1, 0, 0])
    assert obs[o["auction"] : o["auction"] + 10].tolist() == [0] * 8 + [1, 0]  # East passed
    high = obs[o["high_bid"] : o["high_bid"] + 11].tolist()
    assert high == pytest.approx([9 / 13, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0])
    contract = obs[o["contract"] : o["contract"] + 12].tolist()
    assert contract == pytest.approx([0, 1, 0, 0, 9 / 13, 0, 0, 0, 1, 0, 0, 0])
    played = obs[o["played"] : o["played"] + 208].reshape(4, 52)
    assert played.sum() == 1 and played[1, lead] == 1
    trick = obs[o["trick"] : o["trick"] + 208].reshape(4, 52)
    assert trick[1, lead] == 1 and trick.sum() == 1
    assert obs[o["leader"] : o["leader"] + 4].tolist() == [0, 1, 0, 0]
    assert obs[o["scores"] : o["scores"] + 4].tolist() == pytest.approx(
        [-5 / 41, 20 / 41, -5 / 41, 20 / 41]
    )


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_env_observations_match_the_views(np: Any, name: str) -> None:
    """The env's fast, incremental observation equals the one built from each seat's View."""
    need("pettingzoo")
    need("gymnasium")
    from tarneeb.env.encoding import encode_view
    from tarneeb.env.tarneeb_v0 import AGENTS, raw_env

    env = raw_env(rules=name)
    for episode in range(6):
        env.reset(seed=episode)
        rng = random.Random(episode)
        while True:
            deal = env.deal
            for seat, agent in enumerate(AGENTS):
                obs = env.observe(agent)
                view = deal.view(seat)
                assert np.array_equal(obs["observation"], encode_view(view)), (name, seat)
                legal = sorted(env.action_map.to_env[action_id(a)] for a in view.legal_actions)
                assert np.flatnonzero(obs["action_mask"]).tolist() == legal
            if env.terminations[env.agent_selection]:
                break
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask).tolist())))


@pytest.mark.parametrize("name", ["classic", "egyptian", "saudi", "syrian400", "tarneeb400"])
def test_observation_hides_the_other_hands(np: Any, name: str) -> None:
    """Deal the unseen cards again (consistent with all seen): no observation bit changes."""
    from tarneeb.env.encoding import encode_view

    rules = find_rules(name)
    checked = 0
    for start, actions in random_deals(name, 6, seed=3):
        rng = random.Random(len(actions))
        deal = start.copy()
        stops = sorted(rng.sample(range(len(actions) + 1), min(6, len(actions) + 1)))
        done = 0
        for stop in stops:
            while done < stop:
                deal.push(actions[done])
                done += 1
            for seat in range(4):
                view = deal.view(seat)
                hands = view.sample_hands(rng)
                played = [0, 0, 0, 0]
                for s, a in view.history:
                    if isinstance(a, Card):
                        played[s] |= 1 << a
                other = Deal(
                    rules, start.dealer, [hands[s] | played[s] for s in range(4)], start.scores
                )
                for a in actions[:done]:
                    other.push(a)
                assert other.hand(seat) == deal.hand(seat)
                assert np.array_equal(encode_view(other.view(seat)), encode_view(view))
                checked += 1
                if any(hands[s] != deal.hand(s).mask for s in range(4) if s != seat):
                    # The other world really differs, and the other seats' rows show it.
                    changed = next(
                        s for s in range(4) if s != seat and hands[s] != deal.hand(s).mask
                    )
                    assert not np.array_equal(
                        encode_view(other.view(changed)), encode_view(deal.view(changed))
                    )
    assert checked >= 6 * 4


def test_hand_block_holds_only_the_own_cards(np: Any) -> None:
    from tarneeb.env.encoding import OBS_SIZE, encode_view

    for start, actions in random_deals("classic", 3, seed=9):
        deal = start
        for a in actions:
            for seat in range(4):
                obs = encode_view(deal.view(seat))
                others = 0
                for s in range(4):
                    if s != seat:
                        others |= deal.hand(s).mask
                assert obs.shape == (OBS_SIZE,)
                assert all(obs[c] == 0 for c in range(52) if others >> c & 1)
            deal.push(a)


def _two_play_orders(np: Any) -> tuple[Deal, Deal]:
    """Two Tarneeb 400 deals, the same cards by the same seats, tricks won by other sides.

    One seat plays its two cards of the first two tricks the other way round:
    every seat has played the same cards and taken as many tricks, so only
    the card points taken tell the two apart.
    """
    from tarneeb.env.encoding import OFFSETS, encode_view

    rules = find_rules("tarneeb400")
    points = OFFSETS["points"]
    for seed in range(200):
        rng = random.Random(seed)
        deal = Deal.from_rng(rules, rng.randrange(4), rng)
        while deal.phase is not Phase.PLAY and not deal.is_over():
            deal.push(rng.choice(deal.legal_action_ids()))
        if deal.is_over():
            continue
        start = deal.copy()
        cards = []
        for _ in range(8):
            cards.append(rng.choice(deal.legal_action_ids()))
            deal.push(cards[-1])
        for k in range(4):  # swap the k-th card of trick 1 with the k-th of trick 2
            other_order = [*cards]
            other_order[k], other_order[4 + k] = cards[4 + k], cards[k]
            other = start.copy()
            try:
                for card in other_order:
                    if card not in other.legal_action_ids():
                        raise IllegalActionError("not legal in this order")
                    other.push(card)
            except IllegalActionError:
                continue
            if other.tricks_taken != deal.tricks_taken:
                continue
            sides = [
                (p[0] + p[2], p[1] + p[3])
                for p in (deal.card_points_taken, other.card_points_taken)
            ]
            if sides[0] == sides[1]:
                continue
            same_before = all(
                np.array_equal(
                    encode_view(deal.view(s))[:points], encode_view(other.view(s))[:points]
                )
                for s in range(4)
            )
            if same_before:
                return deal, other
    raise AssertionError("no two such play orders in 200 deals")


def test_observation_tells_the_card_points_taken(np: Any) -> None:
    """Tarneeb 400 counts card points: two play orders alike in all else differ in them.

    Seed 000: "Tarneeb 400: Una variante de puntuación en la que las cartas de valor
    (Ases 11, Reyes 4, Reinas 3, Jotas 2, Dieces 10) tienen valores específicos".
    """
    from tarneeb.env.encoding import OFFSETS, encode_view

    one, two = _two_play_orders(np)
    at = OFFSETS["points"]
    for deal in (one, two):
        for seat in range(4):
            obs = encode_view(deal.view(seat))
            taken = deal.card_points_taken
            expected = [taken[(seat + r) & 3] / 120 for r in range(4)]
            assert obs[at : at + 4].tolist() == pytest.approx(expected)
    for seat in range(4):
        assert not np.array_equal(encode_view(one.view(seat)), encode_view(two.view(seat)))


def test_observation_tells_the_match_of_sets(np: Any) -> None:
    """A match of sets: the observation shows the sets won and the points of finished sets."""
    need("pettingzoo")
    need("gymnasium")
    from tarneeb.env.encoding import OFFSETS, MatchProgress, encode_view, match_progress
    from tarneeb.env.tarneeb_v0 import AGENTS, raw_env

    rules = find_rules("levant-sets").replace(target=11)
    env = raw_env(rules=rules, reward="match", max_deals=400)
    env.reset(seed=5)
    rng = random.Random(5)
    at = OFFSETS["match"]
    sets_seen = 0
    while not env.terminations[env.agent_selection]:
        match = env.match
        assert match is not None
        progress = match_progress(match)
        assert progress is not None
        won, points = progress
        assert sum(won) == len(match.sets)
        sets_seen = len(match.sets)
        whole = 11 * rules.sets
        for seat, agent in enumerate(AGENTS):
            obs = env.observe(agent)["observation"]
            mine, theirs = seat & 1, 1 - (seat & 1)
            assert obs[at : at + 4].tolist() == pytest.approx(
                [won[mine] / 13, won[theirs] / 13, points[mine] / whole, points[theirs] / whole]
            )
            assert np.array_equal(obs, encode_view(env.deal.view(seat), progress=progress))
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask).tolist())))
        if sets_seen >= 3:
            break
    assert sets_seen >= 3
    # Without a match (or in a match of one set) the block stays 0.
    assert match_progress(None) is None
    deal = Deal.from_seed(find_rules("classic"), dealer=0, seed=1)
    obs = encode_view(deal.view(0), progress=MatchProgress((1, 0), (41, 12)))
    assert obs[at : at + 4].tolist() == [0, 0, 0, 0]


# -- PettingZoo ---------------------------------------------------------------------


def pz() -> Any:
    need("pettingzoo")
    need("gymnasium")
    from tarneeb.env import tarneeb_v0

    return tarneeb_v0


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"rules": "egyptian"}, {"rules": "syrian400"}, {"reward": "match", "rules": "original"}],
    ids=["classic", "egyptian", "syrian400", "match"],
)
def test_pettingzoo_api_test(kwargs: dict[str, Any]) -> None:
    tarneeb_v0 = pz()
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        # Dict observations are PettingZoo's own convention for action masks.
        warnings.simplefilter("ignore", UserWarning)
        api_test(tarneeb_v0.env(**kwargs), num_cycles=200)
        api_test(tarneeb_v0.raw_env(**kwargs), num_cycles=200)


@pytest.mark.parametrize("rules", ["classic", "tarneeb400"])
def test_pettingzoo_seed_test(rules: str) -> None:
    tarneeb_v0 = pz()
    from pettingzoo.test import seed_test

    seed_test(lambda: tarneeb_v0.env(rules=rules), num_cycles=200)


def play_aec(env: Any, rng: random.Random, np: Any) -> dict[str, float]:
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist())))
    return totals


def test_pettingzoo_deal_rewards(np: Any) -> None:
    tarneeb_v0 = pz()
    env = tarneeb_v0.raw_env(reward_scale=0.5)
    seen_points = 0
    for episode in range(12):
        env.reset(seed=100 + episode)
        totals = play_aec(env, random.Random(episode), np)
        result = env.deal.result
        if result is None:
            assert env.deal.phase is Phase.THROWN_IN
            assert totals == dict.fromkeys(totals, 0.0)
            continue
        diff = 0.5 * (result.team_points[0] - result.team_points[1])
        assert totals == {"player_0": diff, "player_1": -diff, "player_2": diff, "player_3": -diff}
        seen_points += diff != 0
    assert seen_points > 0


def test_pettingzoo_match_rewards_and_truncation(np: Any) -> None:
    tarneeb_v0 = pz()
    short = find_rules("classic").replace(target=11)
    env = tarneeb_v0.raw_env(rules=short, reward="match")
    env.reset(seed=4)
    totals = play_aec(env, random.Random(4), np)
    match = env.match
    assert match is not None and match.is_over() and len(match.deals) > 1
    assert match.winner is not None
    winners = {f"player_{int(s)}" for s in match.winner.seats}
    assert totals == {a: (1.0 if a in winners else -1.0) for a in totals}
    env = tarneeb_v0.raw_env(reward="match", max_deals=2)
    env.reset(seed=4)
    totals = play_aec(env, random.Random(4), np)
    assert env.match is not None and not env.match.is_over() and len(env.match.deals) == 3
    assert totals == dict.fromkeys(totals, 0.0)


def test_pettingzoo_same_seed_same_deal() -> None:
    tarneeb_v0 = pz()
    a, b = tarneeb_v0.raw_env(), tarneeb_v0.raw_env()
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.deal == b.deal
    b.reset(seed=12)
    assert a.deal != b.deal


def test_pettingzoo_illegal_actions(np: Any) -> None:
    tarneeb_v0 = pz()
    raw = tarneeb_v0.raw_env()
    raw.reset(seed=1)
    with pytest.raises(IllegalActionError, match="cannot take action 0"):
        raw.step(0)  # a card in the auction
    with pytest.raises(IllegalActionError):
        raw.step(10_000)
    wrapped = tarneeb_v0.env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(0)
    assert wrapped.terminations[agent]
    assert wrapped.rewards[agent] == -1


def test_pettingzoo_render() -> None:
    tarneeb_v0 = pz()
    env = tarneeb_v0.raw_env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and text.startswith("phase: auction")


# -- Gymnasium ---------------------------------------------------------------------------


def gym() -> Any:
    need("gymnasium")
    need("pettingzoo")
    import gymnasium

    from tarneeb.env import gym_env

    return gymnasium, gym_env


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"opponents": "heuristic", "seat": 2},
        {"rules": "egyptian", "opponents": ["random", "heuristic", "random"], "seat": 3},
        {"rules": "syrian400", "reward": "match"},
    ],
    ids=["random", "heuristic", "egyptian", "match"],
)
def test_gymnasium_check_env(kwargs: dict[str, Any]) -> None:
    gymnasium, gym_env = gym()
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(gym_env.ENV_ID, **kwargs)
    check_env(env.unwrapped)


def test_gymnasium_episode(np: Any) -> None:
    _, gym_env = gym()
    env = gym_env.TarneebEnv(opponents="heuristic", seat=1)
    obs, info = env.reset(seed=3)
    assert env.aec.agent_selection == "player_1"
    rng = random.Random(3)
    steps = 0
    while True:
        mask = info["action_mask"]
        assert mask.sum() > 0 and obs.dtype == np.float32
        obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(mask).tolist()))
        )
        steps += 1
        if terminated or truncated:
            break
    deal = env.aec.deal
    expected = 0.0
    if deal.result is not None:
        ns, ew = deal.result.team_points
        expected = float(ew - ns)  # East is on East-West
    assert reward == expected
    assert steps >= 1
    with pytest.raises(RuntimeError):
        env.step(0)


def test_gymnasium_illegal_action_ends_the_episode() -> None:
    _, gym_env = gym()
    env = gym_env.TarneebEnv(illegal_reward=-5.0)
    _, info = env.reset(seed=1)
    assert info["action_mask"][0] == 0
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)


def test_gymnasium_bad_opponents() -> None:
    _, gym_env = gym()
    with pytest.raises(ValueError, match="one bot spec or three"):
        gym_env.TarneebEnv(opponents=["random", "random"])


# -- the bench -------------------------------------------------------------


def test_env_bench_quick() -> None:
    need("numpy")
    need("pettingzoo")
    need("gymnasium")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "env.py"), "--seconds", "0.2", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["bench"] == "env"
    for key in ("steps_per_s", "wrapped_steps_per_s", "gymnasium_steps_per_s"):
        assert figures[key] > 0, key
    if importlib.util.find_spec("pyspiel") is None:
        assert not REQUIRE_EXTRAS, "OpenSpiel (measured by the env bench) is missing"
        assert figures["openspiel_obs_steps_per_s"] is None
    else:
        for key in (
            "openspiel_obs_steps_per_s",
            "openspiel_rl_env_steps_per_s",
            "openspiel_bridge_obs_steps_per_s",
            "openspiel_bridge_rl_env_steps_per_s",
        ):
            assert figures[key] > 0, key
    if importlib.util.find_spec("rlcard") is None:
        assert not REQUIRE_EXTRAS, "rlcard (the reference of the env bench) is missing"
        assert figures["vs_rlcard_bridge"] is None
        assert "rlcard is missing" in done.stdout
    else:
        assert figures["vs_rlcard_bridge"] > 0 and figures["wrapped_vs_rlcard_bridge"] > 0
