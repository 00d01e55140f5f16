"""Environment speed: steps per second of every env, beside rlcard's and OpenSpiel's bridge.

Run as ``python bench/env.py [--seconds S] [--rounds R] [--rules NAME]``. Each
loop plays whole random games the way learning code drives an environment,
for the same wall time, repeated (interleaved, best round kept):

* ``pettingzoo``: ``tarneeb_v0.raw_env``: ``agent_iter()``, ``last()`` (the
  observation vector and the action mask of the agent to act), a uniform
  choice among the mask's legal actions, ``step()``;
* ``wrapped``: the same through ``tarneeb_v0.env()``, the documented entry
  point, with PettingZoo's three usual wrappers;
* ``gymnasium``: ``TarneebEnv`` (South learns, three ``random`` bots): a step
  is one of the learner's (the bots' moves in between are inside it);
* ``openspiel obs``: ``python_tarneeb``: chance deals at random, then for each
  player step ``observation_tensor()`` of the player to act,
  ``legal_actions()``, a uniform choice, ``apply_action()``;
* ``openspiel rl_env``: ``open_spiel.python.rl_environment.Environment`` on
  it (information-state tensors and legal actions of all four players at
  every step, as that class gives them);
* ``bridge obs`` and ``bridge rl_env``: the same two loops on OpenSpiel's C++
  ``bridge`` with ``use_double_dummy_result=False`` (an auction, then the
  play, as ours);
* ``rlcard bridge``: ``rlcard.make("bridge")``: ``reset()``, then ``step()``
  (which returns the next player's encoded state and legal actions) with a
  uniform choice among the legal actions, until ``is_over()``.

With ``--filed DIR`` (the ``src`` directory of another checkout, e.g. of
the commit an issue's figures were taken on: ``git worktree add /tmp/filed
7aaf17e``), the ``openspiel obs`` loop also runs on that code, in a child
process per round interleaved with the others, and the ratio is printed
(``openspiel_obs_vs_filed``): a target stated as "N times today's" is
measured against that code in the same run, not against a figure taken on
another machine.

A step is one action of one player, with the observation that follows it.
The references come with the ``bench`` extra (rlcard) and the ``env`` extra
(OpenSpiel); a missing one is reported and left out. Timings taken on a
shared machine (other processes running) are slowed unevenly: the ratios of
one run are fairer than its absolute figures, and the JSON records the load
average. The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

# ``--src DIR`` measures another checkout's code (the child runs of ``--filed``).
_SRC = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--src"), None)
sys.path.insert(0, _SRC or str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb.env import tarneeb_v0  # noqa: E402 (after the path set above)

Loop = Callable[[random.Random, float], int]


def _rate(loop: Loop, seconds: float, seed: int) -> float:
    start = time.perf_counter()
    steps = loop(random.Random(seed), start + seconds)
    return steps / (time.perf_counter() - start)


def pettingzoo_loop(rules: str, wrapped: bool) -> Loop:
    env: Any = tarneeb_v0.env(rules=rules) if wrapped else tarneeb_v0.raw_env(rules=rules)
    env.reset(seed=0)

    def run(rng: random.Random, deadline: float) -> int:
        rand = rng.random
        steps = 0
        while time.perf_counter() < deadline:
            env.reset()
            for _agent in env.agent_iter():
                obs, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[int(rand() * len(legal))]))
                steps += 1
        return steps

    return run


def gymnasium_loop(rules: str) -> Loop:
    from tarneeb.env.gym_env import TarneebEnv

    env = TarneebEnv(rules=rules, seat=0, opponents="random")
    env.reset(seed=0)

    def run(rng: random.Random, deadline: float) -> int:
        rand = rng.random
        steps = 0
        while time.perf_counter() < deadline:
            _obs, info = env.reset()
            while True:
                legal = info["action_mask"].nonzero()[0]
                _obs, _r, terminated, truncated, info = env.step(
                    int(legal[int(rand() * len(legal))])
                )
                steps += 1
                if terminated or truncated:
                    break
        return steps

    return run


def openspiel_game(name: str, rules: str) -> Any | None:
    """``python_tarneeb`` with ``rules``, or OpenSpiel's ``bridge``; ``None`` without OpenSpiel."""
    try:
        import pyspiel

        from tarneeb.env import openspiel_game
    except ImportError:
        return None
    if name == "tarneeb":
        return pyspiel.load_game(openspiel_game.GAME_NAME, {"rules": rules})
    # Played out, as ours is (by default OpenSpiel's bridge ends at the contract and
    # scores it double dummy).
    return pyspiel.load_game(name, {"use_double_dummy_result": False})


def openspiel_obs_loop(game: Any) -> Loop:
    def run(rng: random.Random, deadline: float) -> int:
        rand = rng.random
        steps = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rand() * len(outcomes))][0])
                    continue
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
                steps += 1
        return steps

    return run


def rl_environment_loop(game: Any) -> Loop:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(game, seed=0)

    def run(rng: random.Random, deadline: float) -> int:
        rand = rng.random
        steps = 0
        while time.perf_counter() < deadline:
            step = env.reset()
            while not step.last():
                legal = step.observations["legal_actions"][step.observations["current_player"]]
                step = env.step([legal[int(rand() * len(legal))]])
                steps += 1
        return steps

    return run


def rlcard_bridge() -> Loop | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import rlcard  # type: ignore[import-untyped]
    except ImportError:
        return None
    env = rlcard.make("bridge", config={"seed": 0})

    def run(rng: random.Random, deadline: float) -> int:
        rand = rng.random
        steps = 0
        while time.perf_counter() < deadline:
            state, _player = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _player = env.step(legal[int(rand() * len(legal))])
                steps += 1
        return steps

    return run


def _filed_rate(src: str, rules: str, seconds: float, seed: int) -> float:
    """One round of the ``openspiel obs`` loop on the code in ``src``, in a child process
    (its steps per second over the round, its start-up not counted)."""
    import subprocess

    child = [sys.executable, __file__, "--src", src, "--child", "--rules", rules]
    child += ["--seconds", str(seconds), "--seed", str(seed)]
    out = subprocess.run(child, capture_output=True, text=True, check=True).stdout
    return float(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per round of each loop")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each loop (best kept)")
    parser.add_argument("--rules", default="classic", help="preset to play")
    parser.add_argument(
        "--filed", metavar="DIR", help="another checkout's src: its openspiel obs loop too"
    )
    parser.add_argument("--src", help=argparse.SUPPRESS)  # read before the imports
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # one round of the openspiel obs loop, for --filed
        game = openspiel_game("tarneeb", args.rules)
        assert game is not None
        print(json.dumps(_rate(openspiel_obs_loop(game), args.seconds, args.seed)))
        return

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    print(
        f"env bench: preset {args.rules}, {args.rounds} x {args.seconds:.1f} s per loop, "
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, load average {load}"
    )
    loops: dict[str, Loop] = {
        "pettingzoo": pettingzoo_loop(args.rules, wrapped=False),
        "wrapped": pettingzoo_loop(args.rules, wrapped=True),
        "gymnasium": gymnasium_loop(args.rules),
    }
    ours = openspiel_game("tarneeb", args.rules)
    bridge = openspiel_game("bridge", args.rules)
    if ours is None or bridge is None:
        print("OpenSpiel is missing: pip install 'tarneeb[env]' to measure its loops")
    else:
        loops["openspiel obs"] = openspiel_obs_loop(ours)
        loops["openspiel rl_env"] = rl_environment_loop(ours)
        loops["bridge obs"] = openspiel_obs_loop(bridge)
        loops["bridge rl_env"] = rl_environment_loop(bridge)
    reference = rlcard_bridge()
    if reference is None:
        print("rlcard is missing: pip install 'tarneeb[bench]' to measure the reference")
    else:
        loops["rlcard"] = reference
    rates: dict[str, list[float]] = {name: [] for name in loops}
    filed = args.filed if "openspiel obs" in loops else None
    if filed is not None:
        rates["filed obs"] = []
    # Interleave the loops so that a busy machine slows them alike.
    for r in range(args.rounds):
        for name, loop in loops.items():
            rates[name].append(_rate(loop, args.seconds, r))
        if filed is not None:
            rates["filed obs"].append(_filed_rate(filed, args.rules, args.seconds, r))
    best = {name: max(values) for name, values in rates.items()}
    labels = {
        "pettingzoo": "tarneeb_v0 raw_env",
        "wrapped": "tarneeb_v0 env (wrapped)",
        "gymnasium": "Gymnasium TarneebEnv",
        "openspiel obs": "OpenSpiel, observation tensor",
        "openspiel rl_env": "OpenSpiel, rl_environment",
        "bridge obs": "C++ bridge, observation tensor",
        "bridge rl_env": "C++ bridge, rl_environment",
        "rlcard": "rlcard bridge",
        "filed obs": "filed code, observation tensor",
    }
    for name, rate in best.items():
        print(f"  {labels[name] + ':':32s} {rate:10.0f} steps/s")
    figures: dict[str, object] = {
        "bench": "env",
        "rules": args.rules,
        "load_average": None if load is None else round(load, 2),
        "steps_per_s": round(best["pettingzoo"]),
        "wrapped_steps_per_s": round(best["wrapped"]),
        "gymnasium_steps_per_s": round(best["gymnasium"]),
    }
    if "openspiel obs" in best:
        figures["openspiel_obs_steps_per_s"] = round(best["openspiel obs"])
        figures["openspiel_rl_env_steps_per_s"] = round(best["openspiel rl_env"])
        figures["openspiel_bridge_obs_steps_per_s"] = round(best["bridge obs"])
        figures["openspiel_bridge_rl_env_steps_per_s"] = round(best["bridge rl_env"])
        figures["openspiel_obs_vs_bridge"] = round(best["openspiel obs"] / best["bridge obs"], 2)
        figures["rl_env_vs_bridge"] = round(best["openspiel rl_env"] / best["bridge rl_env"], 2)
        if "filed obs" in best:
            ratio = best["openspiel obs"] / best["filed obs"]
            print(f"  ratio observation tensor / filed: {ratio:9.2f}x (target >= 10x)")
            figures["openspiel_filed_obs_steps_per_s"] = round(best["filed obs"])
            figures["openspiel_obs_vs_filed"] = round(ratio, 2)
    else:
        figures["openspiel_obs_steps_per_s"] = None
    if reference is not None:
        theirs = best["rlcard"]
        print(f"  ratio raw_env / rlcard:          {best['pettingzoo'] / theirs:10.2f}x")
        print(
            f"  ratio env (wrapped) / rlcard:    {best['wrapped'] / theirs:10.2f}x (target >= 2x)"
        )
        figures["rlcard_bridge_steps_per_s"] = round(theirs)
        figures["vs_rlcard_bridge"] = round(best["pettingzoo"] / theirs, 2)
        figures["wrapped_vs_rlcard_bridge"] = round(best["wrapped"] / theirs, 2)
    else:
        figures["vs_rlcard_bridge"] = None
        figures["wrapped_vs_rlcard_bridge"] = None
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
