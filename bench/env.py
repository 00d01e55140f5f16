"""Environment speed: PettingZoo ``tarneeb_v0`` steps per second, against rlcard's bridge.

Run as ``python bench/env.py [--seconds S] [--rounds R] [--rules NAME]``. Each
loop plays whole random games the way learning code drives an environment,
for the same wall time, repeated (interleaved, best round kept):

* ``pettingzoo``: ``tarneeb_v0.raw_env``: ``agent_iter()``, ``last()`` (the
  observation vector and the action mask of the agent to act), a uniform
  choice among the mask's legal actions, ``step()``;
* ``pettingzoo (wrapped)``: the same through ``tarneeb_v0.env()``, with
  PettingZoo's three usual wrappers (their attribute forwarding costs more
  than the game: shown, not compared);
* ``rlcard bridge``: ``rlcard.make("bridge")``: ``reset()``, then ``step()``
  (which returns the next player's encoded state and legal actions) with a
  uniform choice among the legal actions, until ``is_over()``.

A step is one action of one player, with the observation that follows it.
``steps_per_s`` is the unwrapped env's, compared with rlcard's env (which has
no wrapper either). The reference comes with the ``bench`` extra (rlcard).
The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb.env import tarneeb_v0

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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per round of each loop")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each loop (best kept)")
    parser.add_argument("--rules", default="classic", help="preset to play")
    args = parser.parse_args()

    print(
        f"env bench: preset {args.rules}, {args.rounds} x {args.seconds:.1f} s per loop, "
        f"Python {platform.python_version()} on {platform.machine()}"
    )
    loops: dict[str, Loop] = {
        "pettingzoo": pettingzoo_loop(args.rules, wrapped=False),
        "wrapped": pettingzoo_loop(args.rules, wrapped=True),
    }
    reference = rlcard_bridge()
    if reference is None:
        print("rlcard is missing: pip install 'tarneeb[bench]' to measure the reference")
    else:
        loops["rlcard"] = reference
    rates: dict[str, list[float]] = {name: [] for name in loops}
    # Interleave the loops so that a busy machine slows them alike.
    for r in range(args.rounds):
        for name, loop in loops.items():
            rates[name].append(_rate(loop, args.seconds, r))
    ours = max(rates["pettingzoo"])
    wrapped = max(rates["wrapped"])
    print(f"  tarneeb_v0 raw_env:       {ours:10.0f} steps/s")
    print(f"  tarneeb_v0 env (wrapped): {wrapped:10.0f} steps/s")
    figures: dict[str, object] = {
        "bench": "env",
        "rules": args.rules,
        "steps_per_s": round(ours),
        "wrapped_steps_per_s": round(wrapped),
    }
    if reference is not None:
        theirs = max(rates["rlcard"])
        print(f"  rlcard bridge:            {theirs:10.0f} steps/s")
        print(f"  ratio tarneeb / rlcard:   {ours / theirs:10.2f}x (target >= 3x)")
        figures["rlcard_bridge_steps_per_s"] = round(theirs)
        figures["vs_rlcard_bridge"] = round(ours / theirs, 2)
    else:
        figures["vs_rlcard_bridge"] = None
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
