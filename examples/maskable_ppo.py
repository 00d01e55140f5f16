"""A baseline with a standard library: sb3-contrib's MaskablePPO on the Gymnasium env.

South learns (``tarneeb/Tarneeb-v0``, one deal an episode, reward = its
side's points minus the other side's, scaled by 1/13); the other three seats
are bots (``--opponents``, default ``random``). The env's
``action_masks()`` is the method MaskablePPO asks for the legal actions, so
no wrapper is needed. After training it plays the same evaluation deals
(same cards, same bots' choices) with a random South and with the trained
one (its most likely legal action), against random and against heuristic
opponents, and prints the points per deal of each. The model is saved
(``--save``, default ``maskable_ppo.zip``); :func:`policy` loads it as a
policy for :class:`tarneeb.bots.policy.PolicyBot`, so the trained South plays
in the arena by name::

    pip install -e ".[baseline]"              # sb3-contrib, PyTorch
    python examples/maskable_ppo.py --steps 200000
    tarneeb arena "policy:examples/maskable_ppo.py:policy" random --matches 20

The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import numpy as np

from tarneeb.env.gym_env import TarneebEnv

SCALE = 1.0 / 13.0
MODEL_ENV = "TARNEEB_PPO_MODEL"
"""Where :func:`policy` finds the model (default ``maskable_ppo.zip`` here)."""


def make_env(opponents: str, rules: str) -> TarneebEnv:
    return TarneebEnv(rules=rules, seat=0, opponents=opponents, reward_scale=SCALE)


def evaluate(choose: Any, opponents: str, rules: str, deals: int, seed: int) -> float:
    """South's points per deal (its side's minus the other's) over ``deals`` seeded deals."""
    env = make_env(opponents, rules)
    total = 0.0
    for n in range(deals):
        obs, info = env.reset(seed=seed + n)
        done = False
        while not done:
            action = choose(obs, info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        total += reward / SCALE
    return total / deals


def random_choice(seed: int) -> Any:
    rng = np.random.default_rng(seed)
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def model_choice(model: Any) -> Any:
    def choose(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return choose


def policy() -> Any:
    """The saved model as a ``policy(observation, mask) -> action`` (``policy:...`` bot spec)."""
    from sb3_contrib import MaskablePPO

    path = os.environ.get(MODEL_ENV, str(Path(__file__).resolve().parent / "maskable_ppo.zip"))
    return model_choice(MaskablePPO.load(path, device="cpu"))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--steps", type=int, default=200_000, help="training steps (South's)")
    parser.add_argument("--opponents", default="random", help="the other three seats' bot")
    parser.add_argument("--rules", default="classic", help="the preset")
    parser.add_argument("--envs", type=int, default=4, help="environments side by side")
    parser.add_argument("--eval-deals", type=int, default=1000, help="evaluation deals")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default="maskable_ppo.zip", help="where the model goes")
    args = parser.parse_args()

    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.env_util import make_vec_env
    except ImportError:
        sys.exit("this example needs the baseline extra: pip install 'tarneeb[baseline]'")
    torch.set_num_threads(1)

    venv = make_vec_env(
        lambda: make_env(args.opponents, args.rules), n_envs=args.envs, seed=args.seed
    )
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=512,
        batch_size=256,
        learning_rate=3e-4,
        ent_coef=0.01,
        gamma=1.0,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    train_s = time.perf_counter() - start
    model.save(args.save)

    figures: dict[str, Any] = {
        "example": "maskable_ppo",
        "rules": args.rules,
        "trained_against": args.opponents,
        "steps": args.steps,
        "train_seconds": round(train_s),
        "eval_deals": args.eval_deals,
    }
    eval_seed = 10_000_000 + args.seed
    for opponents in ("random", "heuristic"):
        ppo = evaluate(model_choice(model), opponents, args.rules, args.eval_deals, eval_seed)
        rnd = evaluate(random_choice(1), opponents, args.rules, args.eval_deals, eval_seed)
        print(
            f"against {opponents:9}: MaskablePPO South {ppo:+.2f} points a deal, "
            f"random South {rnd:+.2f}"
        )
        figures[f"ppo_vs_{opponents}"] = round(ppo, 2)
        figures[f"random_vs_{opponents}"] = round(rnd, 2)
    print(f"trained {args.steps} steps in {train_s:.0f} s; model saved to {args.save}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
