"""Double-dummy modes: auction-only episodes scored double dummy, and double-dummy features."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

from tarneeb import Deal, Phase, find_rules
from test_env import need


@pytest.fixture
def dd() -> Any:
    need("numpy")
    need("endplay", extra="solver")  # DDS: our own solver is too slow for a test of many deals
    from tarneeb.env import dd

    return dd


@pytest.fixture
def v0(dd: Any) -> Any:
    need("pettingzoo")
    need("gymnasium")
    from tarneeb.env import tarneeb_v0

    return tarneeb_v0


def auction_done(rules_name: str, seed: int) -> Deal:
    """A deal whose random auction ended in a contract, at its first card."""
    rules = find_rules(rules_name)
    rng = random.Random(seed)
    while True:
        deal = Deal.from_rng(rules, rng.randrange(4), rng)
        while not deal.is_over() and deal.phase is not Phase.PLAY:
            deal.push(rng.choice(deal.legal_action_ids()))
        if deal.phase is Phase.PLAY:
            return deal


def play_double_dummy(deal: Deal) -> Deal:
    """Play ``deal`` out with a best card (double dummy) at every turn."""
    from tarneeb.solver import Position, solve

    deal = deal.copy()
    while not deal.is_over():
        best = solve(Position.from_deal(deal)).best_cards
        deal.push(int(best[0]))
    return deal


@pytest.mark.parametrize(("rules", "seed"), [("classic", 1), ("egyptian", 2), ("saudi", 3)])
def test_the_double_dummy_result_is_the_deal_played_double_dummy(
    dd: Any, rules: str, seed: int
) -> None:
    deal = auction_done(rules, seed)
    played = play_double_dummy(deal)
    assert played.result is not None
    expected = played.result
    got = dd.dd_result(deal)
    assert got.team_points == expected.team_points
    assert got.made == expected.made
    declarer = deal.contract.declarer
    taken = played.tricks_taken[declarer] + played.tricks_taken[declarer ^ 2]
    assert dd.dd_declarer_tricks(deal) == taken


def test_dd_result_is_taken_at_the_first_card(dd: Any) -> None:
    from tarneeb.errors import RulesError

    deal = Deal.from_seed(find_rules("classic"), 0, 1)
    with pytest.raises(RulesError, match="first card"):
        dd.dd_result(deal)


def test_auction_only_episodes(dd: Any, v0: Any) -> None:
    import numpy as np

    env = v0.env(use_double_dummy_result=True)
    rng = random.Random(0)
    scored = 0
    for episode in range(6):
        env.reset(seed=episode)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            legal = np.flatnonzero(obs["action_mask"])
            assert not (legal < 52).any()  # never a card: the play is not played
            env.step(None if terminated or truncated else int(rng.choice(legal)))
        raw = env.unwrapped
        deal = raw.deal
        assert not deal.played.mask
        if raw.dd_result is None:
            assert deal.phase is Phase.THROWN_IN and set(totals.values()) == {0.0}
            continue
        scored += 1
        assert deal.phase is Phase.PLAY
        ns, ew = raw.dd_result.team_points
        assert totals == {
            "player_0": ns - ew,
            "player_1": ew - ns,
            "player_2": ns - ew,
            "player_3": ew - ns,
        }
        assert raw.dd_result.team_points == dd.dd_result(deal).team_points
    assert scored


def test_double_dummy_features(dd: Any, v0: Any) -> None:
    from tarneeb.env.encoding import OBS_SIZE

    env = v0.raw_env(dd_features=True)
    env.reset(seed=4)
    space = env.observation_space("player_0")["observation"]
    assert space.shape == (OBS_SIZE + dd.DD_FEATURES,)
    table = dd.dd_tricks(env.deal.dealt, env.rules)
    assert env.dd_table == table
    blocks = [env.observe(a)["observation"][OBS_SIZE:] for a in env.possible_agents]
    for seat, block in enumerate(blocks):
        assert space.contains(env.observe(f"player_{seat}")["observation"])
        for k, row in enumerate(table):
            for rel in range(4):
                assert block[4 * k + rel] == pytest.approx(row[(seat + rel) & 3] / 13)
    # The usual part is the observation without the features.
    plain = v0.raw_env()
    plain.reset(seed=4)
    assert (
        plain.observe("player_1")["observation"].tolist()
        == env.observe("player_1")["observation"][:OBS_SIZE].tolist()
    )
    assert env.state().shape == env.state_space.shape


def test_first_lead_trump_rules_use_the_lead_rule(dd: Any) -> None:
    rules = find_rules("classic").replace(first_lead_trump=True)
    deal = auction_done("classic", 5)
    again = Deal(rules, deal.dealer, deal.dealt, deal.scores)
    for a in deal.action_ids:
        again.push(a)
    played = play_double_dummy(again)
    assert played.result is not None
    assert dd.dd_result(again).team_points == played.result.team_points


def test_conformance_in_double_dummy_modes(dd: Any, v0: Any) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(v0.env(use_double_dummy_result=True, dd_features=True), num_cycles=20)


def test_gymnasium_in_double_dummy_modes(dd: Any) -> None:
    need("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from tarneeb.env.gym_env import TarneebEnv

    env = TarneebEnv(use_double_dummy_result=True, dd_features=True, opponents="heuristic")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=2)
    assert env.observation_space.contains(obs)
