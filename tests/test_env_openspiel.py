"""The OpenSpiel game: conformance, tensors and strings, parameters, search bots.

Skipped without open_spiel, failed instead when TARNEEB_REQUIRE_EXTRAS=1 (see
tests/test_env.py). Code that may crash the interpreter (OpenSpiel's C++ bots)
runs in a subprocess, so that a segmentation fault fails its test instead of
ending pytest.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import textwrap
from typing import Any

import pytest

from support import need, run_python
from tarneeb import PRESETS, Phase, find_rules
from tarneeb.actions import BID_BASE
from tarneeb.auction import level_of
from tarneeb.errors import IllegalActionError, RecordError, RulesError


def spiel() -> Any:
    need("pyspiel", "env (open_spiel)")
    need("numpy", "env")
    import pyspiel

    import tarneeb.env.openspiel_game as og

    return pyspiel, og


def load(**params: Any) -> Any:
    pyspiel, og = spiel()
    return pyspiel.load_game(og.GAME_NAME, params)


def dealt(game: Any, seed: int) -> Any:
    """A state right after chance dealt the cards (seeded)."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


def play_out(state: Any, rng: random.Random, stop: Any = None) -> Any:
    """Random actions (and chance) until the end, or until ``stop(state)``."""
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def play_bots(state: Any, stop: Any) -> Any:
    """Our heuristic bots play (chance deals at random) until ``stop(state)``."""
    from tarneeb.actions import action_id
    from tarneeb.bots import make_bot

    bot = make_bot("heuristic", seed=1)
    rng = random.Random(1)
    to_env = state.get_game().action_map.to_env
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            choice = bot.act(state.view(state.current_player()))
            state.apply_action(to_env[action_id(choice)])
    return state


CUSTOM = [
    {"rules": "egyptian;target=31"},
    {"rules": json.dumps({**find_rules("saudi").to_dict(), "min_bid": 8})},
    {"rules": "syrian400", "scores": "35,12,40,0"},
    {"rules": "classic", "scores": "30,-8", "max_deals": 3},
    {"rules": "levant-sets;target=11", "max_deals": 12, "reward": "match"},
]


# -- conformance ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_random_sim_test_every_preset(rules: str) -> None:
    pyspiel, _ = spiel()
    pyspiel.random_sim_test(load(rules=rules), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", CUSTOM, ids=["changes", "json", "scores", "deals", "sets"])
def test_random_sim_test_custom_rules_and_episodes(params: dict[str, Any]) -> None:
    pyspiel, _ = spiel()
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


def test_game_facts(np: Any) -> None:
    pyspiel, og = spiel()
    from tarneeb.env.encoding import OBS_SIZE, encode_view

    game = load()
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 139
    assert game.max_chance_outcomes() == 52
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.observation_tensor_size() == OBS_SIZE
    assert game.max_utility() == og.utility_bound(find_rules("classic")) == 29
    state = game.new_initial_state()
    rng = random.Random(5)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    state = dealt(game, 5)
    assert state.current_player() == 0  # West deals, South bids first
    play_out(state, rng, stop=lambda s: len(s.deal.action_ids) >= 12)
    deal = state.deal
    for player in range(4):
        tensor = np.array(state.observation_tensor(player), dtype=np.float32)
        assert np.array_equal(tensor, encode_view(deal.view(player)))
        info = state.information_state_string(player)
        assert info.startswith(f"p{player} | dealt ")
        for other in range(4):
            if other != player:
                assert deal.hand(other).format() not in info
    play_out(state, rng)
    returns = state.returns()
    assert sum(returns) == 0 and returns[0] == returns[2] and returns[1] == returns[3]


# -- tensors --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_tensors_follow_the_views_incrementally(np: Any, rules: str) -> None:
    """At every step of every preset: the observation tensor is the view's encoding.

    Python callers and C++ callers (``pyspiel.State``'s own methods) read the
    same tensors, and a clone goes on independently of its original.
    """
    pyspiel, _ = spiel()
    from tarneeb.env.encoding import encode_view

    game = load(rules=rules)
    for seed in range(2):
        rng = random.Random(seed)
        state = dealt(game, seed)
        clone_at = rng.randrange(20)
        steps = 0
        while not state.is_terminal():
            deal = state.deal
            for p in range(4):
                ours = state.observation_tensor(p)
                assert ours == pyspiel.State.observation_tensor(state, p)
                assert np.array_equal(np.array(ours, np.float32), encode_view(deal.view(p)))
                info = state.information_state_tensor(p)
                assert info == pyspiel.State.information_state_tensor(state, p)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for p in range(4):
                assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
            if steps == clone_at:
                twin = state.clone()
                before = [twin.observation_tensor(p) for p in range(4)]
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        assert [twin.observation_tensor(p) for p in range(4)] == before
        play_out(twin, random.Random(99))


@pytest.mark.parametrize("rules", ["classic", "egyptian", "syrian400"])
def test_tensors_read_now_and_then_are_whole(np: Any, rules: str) -> None:
    """Reads skipped, observations alone for a while, then an information state, or a
    clone read first: each tensor is what the observers build from scratch.

    The Python readers keep the four tensors of the deal and bring them up to
    date only when read (the information state's own parts only when one is
    read), so a read after several unread steps must catch up on all of them.
    """
    pyspiel, _ = spiel()
    game = load(rules=rules)
    for seed in range(6):
        rng = random.Random(seed)
        state = dealt(game, seed)
        while not state.is_terminal():
            if rng.random() < 0.4:
                p = rng.randrange(4)
                if rng.random() < 0.25:
                    assert state.information_state_tensor(p) == (
                        pyspiel.State.information_state_tensor(state, p)
                    )
                else:
                    assert state.observation_tensor(p) == pyspiel.State.observation_tensor(state, p)
            if rng.random() < 0.05:
                twin = state.clone()
                p = rng.randrange(4)
                assert twin.information_state_tensor(p) == (
                    pyspiel.State.information_state_tensor(state, p)
                )
            state.apply_action(rng.choice(state.legal_actions()))


def reference_auction(np: Any, rules: Any, player: int, calls: list[tuple[int, int]]) -> Any:
    """The information state's auction block and declarer's calls, the simple way.

    ``calls`` are ``(seat, engine id)``, in order. Each relative seat: the bids
    it made, then pass, double, redeal; after the four seats: raised, stood, the
    trump chosen.
    """
    from tarneeb.actions import DOUBLE, PASS, RAISE, REDEAL, STAND, TRUMP_BASE
    from tarneeb.auction import possible_bids

    bids = list(possible_bids(rules))
    seats = np.zeros((4, len(bids) + 3), np.float32)
    declarer = np.zeros(6, np.float32)
    for seat, a in calls:
        rel = (seat - player) & 3
        if a in bids:
            seats[rel, bids.index(a)] = 1.0
        elif a in (PASS, DOUBLE, REDEAL):
            seats[rel, len(bids) + [PASS, DOUBLE, REDEAL].index(a)] = 1.0
        elif a in (RAISE, STAND):
            declarer[a - RAISE] = 1.0
        else:
            declarer[2 + a - TRUMP_BASE] = 1.0
    return np.concatenate([seats.reshape(-1), declarer])


def reference_tensors(np: Any, state: Any, player: int) -> tuple[list[float], list[float]]:
    """The observation and information-state tensors, built from scratch the simple way.

    The observation from the player's view alone (``encode_view`` replays it),
    the pieces of perfect recall from the deal's history, one value at a time.
    """
    from tarneeb.actions import action_id
    from tarneeb.env.encoding import OBS_SIZE, OFFSETS, encode_view
    from tarneeb.env.episode import hands_of

    game = state.get_game()
    rules = game.rules
    obs = np.zeros(OBS_SIZE, np.float32)
    dealt = np.zeros(52, np.float32)
    auction = reference_auction(np, rules, player, [])
    order = np.zeros(52, np.float32)
    deal = state.deal
    if state.is_chance_node():  # dealing: the cards dealt to the player so far
        held = hands_of(state._core.dealt)[player]
        for c in range(52):
            obs[OFFSETS["hand"] + c] = dealt[c] = held >> c & 1
    else:
        obs = encode_view(deal.view(player), progress=state._core.progress)
        for c in range(52):
            dealt[c] = deal.dealt[player] >> c & 1
        calls = [(int(s), action_id(a)) for s, a in deal.history if action_id(a) >= 52]
        auction = reference_auction(np, rules, player, calls)
        cards = [action_id(a) for _, a in deal.history if action_id(a) < 52]
        for k, card in enumerate(cards, start=1):
            order[card] = np.float32(k) / np.float32(52)
    info = np.concatenate([obs, dealt, auction, order])
    return obs.tolist(), info.tolist()


@pytest.mark.parametrize(
    "params",
    [{"rules": r} for r in sorted(PRESETS)] + CUSTOM,
    ids=[*sorted(PRESETS), "changes", "json", "scores", "deals", "sets"],
)
def test_fast_tensors_equal_the_reference_encoding(np: Any, params: dict[str, Any]) -> None:
    """Value for value, over random games: the tensors Python callers get (kept as lists and
    brought up to date by difference) are those built from scratch, whether read at every
    step or now and then, in the original and in clones that go on their own way."""
    game = load(**params)
    rng = random.Random(json.dumps(params))
    for _ in range(4 if game.setup.max_deals == 1 else 1):
        states = [game.new_initial_state()]
        while not states[0].is_terminal():
            for state in states:
                if state.is_terminal():
                    continue
                for player in range(4):
                    if rng.random() < 0.6:
                        obs, info = reference_tensors(np, state, player)
                        assert state.observation_tensor(player) == obs
                        assert state.information_state_tensor(player) == info
                if not state.is_chance_node():
                    assert state.legal_actions() == sorted(
                        game.action_map.env_ids(state.deal.legal_action_ids())
                    )
                if rng.random() < 0.01 and len(states) < 3:
                    states.append(state.clone())
            for state in states:
                if not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(rng.choice(state.chance_outcomes())[0])
                    else:
                        state.apply_action(rng.choice(state.legal_actions()))
        for state in states:
            if state.is_terminal():
                for player in range(4):
                    obs, info = reference_tensors(np, state, player)
                    assert state.observation_tensor(player) == obs
                    assert state.information_state_tensor(player) == info


LOSSLESS = [{"rules": r} for r in sorted(PRESETS)] + [
    {"rules": "classic;doubling=double;weak_redeal=true;all_pass=dealer-bids"},
    {"rules": "egyptian;ladder=number-or-strain;bid_once=true"},
    {"rules": "syrian400;weak_redeal=true", "scores": "35,12,40,0"},
]


@pytest.mark.parametrize(
    "params",
    LOSSLESS,
    ids=[*sorted(PRESETS), "double-redeal-dealer", "bid-once", "syrian-redeal"],
)
def test_information_state_tensor_is_lossless(np: Any, params: dict[str, Any]) -> None:
    """Perfect recall: two different histories of a player (its cards as dealt and every
    action of the deal in order, as the information-state string tells them) never give
    the same information-state tensor, nor even the same pieces of perfect recall with
    the dealer (the observation aside). Many random auctions of the same few deals (where
    histories meet most), into the first trick; where the rules let a weak hand claim a
    redeal, one of the deals has one."""
    import hashlib

    from tarneeb.auction import is_weak_hand
    from tarneeb.env.encoding import OBS_SIZE, OFFSETS
    from tarneeb.env.episode import hands_of

    dealer = OFFSETS["dealer"]

    game = load(**params)
    rng = random.Random(json.dumps(params))
    deals = []
    for _ in range(3):
        cards = list(range(52))
        rng.shuffle(cards)
        deals.append(cards)
    if game.rules.weak_redeal:
        cards = list(range(52))
        while not any(is_weak_hand(h) for h in hands_of(cards)):
            rng.shuffle(cards)
        deals[0] = cards
    seen: dict[bytes, str] = {}
    claims = 0
    for cards in deals:
        for _ in range(120):
            state = game.new_initial_state()
            for card in cards:
                state.apply_action(card)
            while not state.is_terminal() and len(state.deal.tricks) < 1:
                for player in range(4):
                    tensor = np.array(state.information_state_tensor(player), np.float32)
                    recall = np.concatenate([tensor[dealer : dealer + 4], tensor[OBS_SIZE:]])
                    key = hashlib.blake2b(recall.tobytes(), digest_size=16).digest()
                    history = state.information_state_string(player)
                    assert seen.setdefault(key, history) == history
                state.apply_action(rng.choice(state.legal_actions()))
            claims += "redeal" in state.information_state_string(0)
    assert len(seen) > 1000
    assert claims > 0 or not game.rules.weak_redeal


def test_chance_outcomes_are_the_cards_left() -> None:
    """Kept as chance deals card by card: whether asked at every chance node or now and
    then, in a clone or the original, in the next deal of an episode, the outcomes are the
    cards not dealt yet, in order, each as likely."""
    game = load(max_deals=3)
    rng = random.Random(11)
    states = [game.new_initial_state()]
    while not states[0].is_terminal():
        for state in states:
            if state.is_terminal():
                continue
            if state.is_chance_node():
                dealt = state._core.dealt
                left = sorted(set(range(52)) - set(dealt))
                if rng.random() < 0.7:
                    assert state.chance_outcomes() == [(c, 1.0 / len(left)) for c in left]
                if rng.random() < 0.02 and len(states) < 3:
                    states.append(state.clone())
                state.apply_action(rng.choice(left))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert sum(len(s._core.history) for s in states) > len(states)


@pytest.mark.parametrize("rules", ["classic", "tarneeb400"])
def test_tensors_by_any_read_pattern(np: Any, rules: str) -> None:
    """One player read at a time (its row alone is brought up to date), all four (all rows
    at once), some now and then, observation or information state: always the encoding
    built from scratch."""
    game = load(rules=rules)
    rng = random.Random(rules)
    for seed in range(3):
        state = dealt(game, seed)
        step = 0
        while not state.is_terminal():
            pattern = (step // 7) % 4
            if pattern == 0:
                readers = [state.current_player()]
            elif pattern == 1:
                readers = [0, 1, 2, 3]
            elif pattern == 2:
                readers = [2] if step % 3 else []
            else:
                readers = [p for p in range(4) if rng.random() < 0.5]
            for player in readers:
                obs, info = reference_tensors(np, state, player)
                kind = (step // 2 + player) % 3  # one tensor or both, either first
                if kind == 0:
                    assert state.information_state_tensor(player) == info
                elif kind == 1:
                    assert state.observation_tensor(player) == obs
                else:
                    assert state.observation_tensor(player) == obs
                    assert state.information_state_tensor(player) == info
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
        for player in range(4):
            obs, info = reference_tensors(np, state, player)
            assert state.observation_tensor(player) == obs
            assert state.information_state_tensor(player) == info


def test_tensor_reads_are_copies_whoever_asks(np: Any) -> None:
    """A tensor read is the caller's own: writing into it, or the game going on, leaves
    it and the next reads alone; the player to act (no argument) and numpy ints read
    the same tensors as ints, and other players are refused."""
    game = load()
    rng = random.Random(12)
    state = dealt(game, 12)
    kept: list[tuple[list[float], list[float], list[float], list[float]]] = []
    while not state.is_terminal():
        player = state.current_player()
        obs, info = reference_tensors(np, state, player)
        mine = state.observation_tensor()
        assert mine == obs == state.observation_tensor(np.int64(player))
        assert state.information_state_tensor() == info
        assert state.information_state_tensor(np.int32(player)) == info
        mine[:] = [7.0] * len(mine)
        theirs = state.information_state_tensor(player)
        theirs[0] = 7.0
        assert state.observation_tensor(player) == obs
        assert state.information_state_tensor(player) == info
        kept.append(
            (state.observation_tensor(player), obs, state.information_state_tensor(player), info)
        )
        state.apply_action(rng.choice(state.legal_actions()))
    for read_obs, obs, read_info, info in kept:
        assert read_obs == obs and read_info == info
    for bad in (-1, 4):
        with pytest.raises(ValueError, match=r"player must be 0\.\.3"):
            state.observation_tensor(bad)
        with pytest.raises(ValueError, match=r"player must be 0\.\.3"):
            state.information_state_tensor(bad)


def test_rewards_are_pyspiels() -> None:
    pyspiel, _ = spiel()
    game = load(max_deals=2)
    state = game.new_initial_state()
    rng = random.Random(4)
    while True:
        assert state.rewards() == pyspiel.State.rewards(state)
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.rewards() == state.returns() != [0.0] * 4


def test_tensors_are_not_rebuilt_from_the_history(monkeypatch: Any) -> None:
    """Reading tensors builds no view and replays nothing: they are kept up to date."""
    _, _ = spiel()
    from tarneeb.deal import Deal
    from tarneeb.env import encoding

    game = load()
    state = dealt(game, 3)
    rng = random.Random(3)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a tensor was rebuilt from a view")

    monkeypatch.setattr(Deal, "view", refuse)
    monkeypatch.setattr(encoding, "encode_view", refuse)
    while not state.is_terminal():
        for p in range(4):
            state.observation_tensor(p)
            state.information_state_tensor(p)
        state.apply_action(rng.choice(state.legal_actions()))


def test_perfect_recall_tensor_pieces(np: Any) -> None:
    pyspiel, _ = spiel()
    game = load()
    state = dealt(game, 8)
    play_out(state, random.Random(8), stop=lambda s: s.deal.phase is Phase.PLAY)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    deal = state.deal
    calls = [(int(s), a) for s, a in zip(deal._actors, deal._history, strict=True)]
    cards = list(deal.action_ids[len(calls) :])
    for player in range(4):
        observer.set_from(state, player)
        pieces = observer.dict
        assert pieces["dealt"].tolist() == [float(deal.dealt[player] >> c & 1) for c in range(52)]
        auction = np.concatenate([pieces["auction"].reshape(-1), pieces["declarer_calls"]])
        assert auction.tolist() == reference_auction(np, game.rules, player, calls).tolist()
        bids = [(s, a) for s, a in calls if a >= BID_BASE]
        assert pieces["auction"][:, :7].sum() == len(bids)  # classic: seven bids, 7 to 13
        for seat, a in bids:
            assert pieces["auction"][(seat - player) & 3, level_of(a) - 7] == 1
        assert pieces["declarer_calls"][2:].sum() == 1  # the trump chosen
        order = pieces["play_order"]
        assert [order[c] * 52 for c in cards] == pytest.approx(range(1, 6))


# -- strings and observers --------------------------------------------------------------


def test_observation_string_tells_the_public_state() -> None:
    game = load(rules="syrian400", scores="35,12,40,0", dealer=1)
    state = dealt(game, 2)
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    text = state.observation_string(3)
    deal = state.deal
    assert "dealer E" in text
    assert "scores S:35 E:12 N:40 W:0" in text
    bids = deal.bids  # East deals: North bids first, then West
    assert bids[0] is None and bids[2] is not None and bids[3] is not None
    assert f"bids S:- E:- N:{bids[2]} W:{bids[3]}" in text
    assert text.startswith(f"p3 | hand {deal.hand(3).format()} | ")
    for other in range(3):
        assert deal.hand(other).format() not in text
    classic = load(scores="20,-5")
    state = dealt(classic, 4)
    state.apply_action(state.legal_actions()[1])  # South bids
    first = state.legal_actions()[0]
    state.apply_action(first)
    text = state.observation_string(2)
    assert "scores NS:20 EW:-5" in text and "dealer W" in text
    auction = text.split(" | auction ")[1].split(" |")[0]
    assert auction.startswith("S:") and auction.split()[1] == "E:pass"
    sets = load(rules="levant-sets;target=11", max_deals=40, reward="match")
    state = play_bots(dealt(sets, 1), stop=lambda s: s.match is not None and s.match.sets)
    play_out(state, random.Random(2), stop=lambda s: not s.is_chance_node())
    won = state.match.sets[0].winner
    assert ("sets NS:1 EW:0" if int(won) == 0 else "sets NS:0 EW:1") in state.observation_string(0)
    points = load(rules="tarneeb400")
    state = dealt(points, 6)
    play_out(state, random.Random(6), stop=lambda s: len(s.deal.tricks) >= 2)
    taken = state.deal.card_points_taken
    assert f"card points NS:{taken[0] + taken[2]} EW:{taken[1] + taken[3]}" in (
        state.observation_string(1)
    )


def test_observer_without_public_info_writes_only_the_own_cards(np: Any) -> None:
    pyspiel, _ = spiel()
    game = load()
    state = dealt(game, 1)
    play_out(state, random.Random(1), stop=lambda s: len(s.deal.action_ids) >= 10)
    for recall in (False, True):
        private = game.make_py_observer(
            pyspiel.IIGObservationType(public_info=False, perfect_recall=recall)
        )
        for player in range(4):
            private.set_from(state, player)
            tensor = private.tensor
            obs = private.dict["observation"]
            assert obs[:52].tolist() == [
                float(state.deal.hand(player).mask >> c & 1) for c in range(52)
            ]
            if recall:
                held = state.deal.dealt[player]
                assert private.dict["dealt"].tolist() == [float(held >> c & 1) for c in range(52)]
                assert tensor.sum() == obs[:52].sum() + 13
            else:
                assert tensor.sum() == obs[:52].sum()
            text = private.string_from(state, player)
            assert "dealer" not in text and "auction" not in text and ":" not in text
    public = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    public.set_from(state, 0)
    assert public.tensor[:52].sum() == 0 and public.tensor.sum() > 0


# -- parameters -------------------------------------------------------------------------


def test_custom_rules_parameter() -> None:
    _, og = spiel()
    game = load(rules="egyptian;target=31")
    assert game.rules == find_rules("egyptian").replace(target=31)
    as_json = json.dumps(game.rules.to_dict())
    assert load(rules=as_json).rules == game.rules
    assert og.game_rules("custom;min_bid=8") == find_rules("classic").replace(min_bid=8)
    with pytest.raises(RulesError, match="no preset named"):
        load(rules="nosuch")
    with pytest.raises(RulesError, match="not valid JSON"):
        load(rules="{oops")
    with pytest.raises(RecordError, match="KEY=VALUE"):
        load(rules="classic;target")
    with pytest.raises(RulesError):
        load(rules='{"target": "far"}')


def test_starting_scores_reach_score_dependent_rules() -> None:
    """Syrian 400: a player's lowest bid rises with its score (2 below 30, then 3 ...)."""
    low = dealt(load(rules="syrian400"), 0)
    high = dealt(load(rules="syrian400", scores="35,0,0,0"), 0)
    assert high.deal.scores == (35, 0, 0, 0) and low.deal.scores == (0, 0, 0, 0)
    assert low.action_to_string(0, low.legal_actions()[0]) == "bid 2"
    assert high.action_to_string(0, high.legal_actions()[0]) == "bid 3"
    assert "S:35" in high.observation_string(0)
    # The match starts from them as Match(scores=...) does: seats alone, sides as partners' sums.
    seats = dealt(load(rules="syrian400", scores="35,12,40,0"), 0).match
    assert seats.seat_scores == (35, 12, 40, 0) and seats.team_scores == (75, 12)
    sides = dealt(load(scores="20,-5"), 0).match
    assert sides.seat_scores == (20, -5, 20, -5) and sides.team_scores == (20, -5)
    with pytest.raises(RulesError, match="four seats"):
        load(rules="syrian400", scores="1,2")
    with pytest.raises(RulesError, match="two sides"):
        load(scores="1,2,3")


def test_several_deals_of_a_match() -> None:
    """Deals follow as in a match: each starts from the scores the last one left."""
    game = load(scores="30/-8", max_deals=3)
    assert game.max_game_length() == 3 * load().max_game_length()
    assert game.max_utility() == 3 * load().max_utility()
    state = dealt(game, 4)
    rng = random.Random(4)
    deals = [state.deal]
    while not state.is_terminal():
        if state.is_chance_node():
            play_out(state, rng, stop=lambda s: not s.is_chance_node())
            deals.append(state.deal)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(deals) == 3 and not state.match.is_over()
    assert deals[0].scores == (30, -8, 30, -8)
    for earlier, later in itertools.pairwise(deals):
        ns, ew = (0, 0) if earlier.result is None else earlier.result.team_points
        assert later.scores == (earlier.scores[0] + ns, earlier.scores[1] + ew) * 2
    points = sum(d.result.team_points[0] - d.result.team_points[1] for d in deals if d.result)
    assert state.returns() == [points, -points, points, -points]
    assert state.information_state_string(0).count("dealt ") == 3
    with pytest.raises(RulesError, match="max_deals must be at least 1"):
        load(max_deals=0)


def test_match_reward() -> None:
    game = load(rules="classic;target=5", max_deals=60, reward="match")
    assert game.max_utility() == 1
    for seed in range(3):
        state = play_out(dealt(game, seed), random.Random(seed))
        match = state.match
        assert match.is_over()
        win = 1.0 if int(match.winner) == 0 else -1.0
        assert state.returns() == [win, -win, win, -win]
    cut = play_out(dealt(load(reward="match", max_deals=1), 0), random.Random(0))
    assert not cut.match.is_over() and cut.returns() == [0.0] * 4


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    state = dealt(load(), 0)
    before = state.serialize()
    with pytest.raises(IllegalActionError):
        state.apply_action(0)  # a card in the auction
    assert state.serialize() == before


# -- search ------------------------------------------------------------------------------


def test_resample_keeps_the_information_state() -> None:
    pyspiel, _ = spiel()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for params in ({"rules": "saudi"}, {"max_deals": 3, "scores": "12,3"}):
        game = load(**params)
        rng = random.Random(8)
        differed = 0
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                    continue
                player = state.current_player()
                if rng.random() < 0.2:
                    other = state.resample_from_infostate(player, sampler)
                    assert other.information_state_string(player) == (
                        state.information_state_string(player)
                    )
                    assert other.legal_actions() == state.legal_actions()
                    assert other.observation_tensor(player) == state.observation_tensor(player)
                    assert other.information_state_tensor(player) == (
                        state.information_state_tensor(player)
                    )
                    differed += str(other) != str(state)
                state.apply_action(rng.choice(state.legal_actions()))
        assert differed > 0


def run_isolated(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter (a crash there fails the test, not pytest)."""
    return run_python("-c", code, timeout=600)


def test_cpp_mcts_bot_plays_whole_games() -> None:
    """OpenSpiel's C++ MCTSBot: step_with_policy and evaluate_bots play to the end.

    (``bot.step`` itself crashes on any Python game in open_spiel 2.0.2: see
    the module docstring of tarneeb.env.openspiel_game.)
    """
    spiel()
    done = run_isolated(
        textwrap.dedent(
            """
            import json, random
            import pyspiel
            import tarneeb.env.openspiel_game as og
            game = pyspiel.load_game(og.GAME_NAME)
            evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
            bot = pyspiel.MCTSBot(game, evaluator, 2.0, 8, 100, False, 0, False)
            rng = random.Random(0)
            state = game.new_initial_state()
            searched = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                elif state.current_player() % 2 == 0:
                    policy, action = bot.step_with_policy(state)
                    assert action in state.legal_actions()
                    state.apply_action(action)
                    searched += 1
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            bots = [pyspiel.MCTSBot(game, evaluator, 2.0, 4, 100, False, p, False) for p in range(4)]
            again = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
            duel = og.play_ismcts_match(deals=1, simulations=4, seed=1, search="mcts")
            print(json.dumps({"returns": state.returns(), "searched": searched, "again": again,
                              "duel": duel["ismcts_points_diff"]}))
            """
        )
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["searched"] > 10
    assert sum(figures["returns"]) == 0 and sum(figures["again"]) == 0
    assert len(figures["duel"]) == 2


def test_cpp_ismcts_bot_is_refused_and_the_python_one_plays() -> None:
    """The C++ ISMCTSBot cannot resample a Python game's state: OpenSpiel says so.

    OpenSpiel's Python ISMCTSBot, which calls our resample_from_infostate,
    plays whole deals against our heuristic bot instead.
    """
    _, og = spiel()
    need("open_spiel", "env (open_spiel)")
    done = run_isolated(
        textwrap.dedent(
            """
            import pyspiel
            import tarneeb.env.openspiel_game as og
            game = pyspiel.load_game(og.GAME_NAME)
            evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
            kind = pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT
            bots = [pyspiel.ISMCTSBot(p, evaluator, 2.0, 8, -1, kind, False, False) for p in range(4)]
            try:
                pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
            except pyspiel.SpielError as exc:
                print("refused:", exc)
            """
        )
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ResampleFromInfostate() not implemented" in done.stdout
    summary = og.play_ismcts_match(deals=1, simulations=4, seed=2)
    assert summary["games"] == 2 and len(summary["ismcts_points_diff"]) == 2
    assert summary["ismcts_total"] == sum(summary["ismcts_points_diff"])
    bound = og.utility_bound(find_rules("classic"))
    assert all(abs(d) <= bound for d in summary["ismcts_points_diff"])


def test_rl_environment_runs_episodes(np: Any) -> None:
    spiel()
    need("open_spiel", "env (open_spiel)")
    from open_spiel.python import rl_environment

    for kind in (
        rl_environment.ObservationType.OBSERVATION,
        rl_environment.ObservationType.INFORMATION_STATE,
    ):
        env = rl_environment.Environment(load(), observation_type=kind, seed=3)
        rng = random.Random(3)
        for _ in range(2):
            step = env.reset()
            while not step.last():
                player = step.observations["current_player"]
                step = env.step([rng.choice(step.observations["legal_actions"][player])])
            assert sum(step.rewards) == 0


@pytest.fixture
def np() -> Any:
    need("numpy", "env")
    import numpy

    return numpy
