"""Train a small policy for one seat against random bots, and plot its learning curve.

Numpy only (plus matplotlib for the plot): a linear softmax policy over the
masked actions of the Gymnasium environment (``tarneeb/Tarneeb-v0``), trained
with REINFORCE and a linear value baseline. South learns; North, its
partner, and East and West are the ``random`` bot. Before and after training
it plays the same evaluation deals (same cards, same bots' choices), so the
two averages compare like with like: a random South first, then the learned
one, choosing its most likely action.

    python examples/train_policy.py                 # about a minute and a half on 2 cores
    python examples/train_policy.py --episodes 50   # a quick check

The plot (``--plot``, default ``learning_curve.png``) shows the points the
learner's side won per deal minus the other side's, averaged over a sliding
window of training deals, with the random policy's level for reference. The
last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import numpy as np

from tarneeb.env.gym_env import TarneebEnv

SCALE = 13.0  # rewards are points; a deal rarely swings by more than 26


class LinearPolicy:
    """Softmax over ``W @ obs + b`` restricted to the legal actions, with a linear value."""

    def __init__(self, obs_size: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, obs_size), dtype=np.float64)
        self.b = np.zeros(actions, dtype=np.float64)
        self.v = np.zeros(obs_size, dtype=np.float64)
        self.v0 = 0.0
        self.rng = rng

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        legal = mask.astype(bool)
        logits = self.w[legal] @ obs + self.b[legal]
        logits -= logits.max()
        p = np.exp(logits)
        out = np.zeros(len(mask))
        out[legal] = p / p.sum()
        return out

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> int:
        p = self.probabilities(obs, mask)
        if greedy:
            return int(np.argmax(p))
        return int(self.rng.choice(len(p), p=p))

    def value(self, obs: np.ndarray) -> float:
        return float(self.v @ obs + self.v0)


def play(
    env: TarneebEnv, policy: LinearPolicy | None, seed: int | None, greedy: bool
) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    """One deal; the learner's reward and its (observation, mask, action) steps."""
    obs, info = env.reset(seed=seed)
    steps = []
    while True:
        mask = info["action_mask"]
        if policy is None:
            legal = np.flatnonzero(mask)
            action = int(legal[env.np_random.integers(len(legal))])
        else:
            action = policy.act(obs.astype(np.float64), mask, greedy)
        steps.append((obs.astype(np.float64), mask, action))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return float(reward), steps


def evaluate(env: TarneebEnv, policy: LinearPolicy | None, deals: int, seed: int) -> float:
    return float(np.mean([play(env, policy, seed + d, greedy=True)[0] for d in range(deals)]))


def train(args: argparse.Namespace) -> dict[str, Any]:
    rng = np.random.default_rng(args.seed)
    env = TarneebEnv(rules=args.rules, seat=0, opponents="random")
    obs_size = env.observation_space.shape[0]  # type: ignore[index]
    policy = LinearPolicy(obs_size, env.action_map.num_actions, rng)
    eval_seed = 10**6 + args.seed
    before = evaluate(env, None, args.eval_deals, eval_seed)
    env.reset(seed=args.seed)
    curve: list[float] = []
    grad_w = np.zeros_like(policy.w)
    grad_b = np.zeros_like(policy.b)
    grad_v = np.zeros_like(policy.v)
    grad_v0 = 0.0
    start = time.perf_counter()
    for episode in range(1, args.episodes + 1):
        reward, steps = play(env, policy, None, greedy=False)
        curve.append(reward)
        target = reward / SCALE
        for obs, mask, action in steps:
            advantage = target - policy.value(obs)
            p = policy.probabilities(obs, mask)
            g = -p
            g[action] += 1.0
            legal = np.flatnonzero(mask)
            grad_w[legal] += advantage * np.outer(g[legal], obs)
            grad_b[legal] += advantage * g[legal]
            grad_v += advantage * obs
            grad_v0 += advantage
        if episode % args.batch == 0:
            policy.w += args.lr * grad_w / args.batch
            policy.b += args.lr * grad_b / args.batch
            policy.v += args.value_lr * grad_v / args.batch
            policy.v0 += args.value_lr * grad_v0 / args.batch
            grad_w[:] = 0.0
            grad_b[:] = 0.0
            grad_v[:] = 0.0
            grad_v0 = 0.0
        if args.progress and episode % max(1, args.episodes // 10) == 0:
            recent = np.mean(curve[-500:])
            print(f"  episode {episode:6d}: mean reward of the last 500 deals {recent:+.2f}")
    seconds = time.perf_counter() - start
    after = evaluate(env, policy, args.eval_deals, eval_seed)
    save_plot(curve, before, after, args)
    return {
        "episodes": args.episodes,
        "rules": args.rules,
        "eval_deals": args.eval_deals,
        "before": round(before, 3),
        "after": round(after, 3),
        "train_seconds": round(seconds, 1),
        "plot": str(args.plot),
    }


def save_plot(curve: list[float], before: float, after: float, args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    window = max(1, min(200, len(curve) // 20))
    smooth = np.convolve(curve, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(np.arange(window, len(curve) + 1), smooth, label=f"training (mean of {window} deals)")
    ax.axhline(before, color="gray", linestyle="--", label=f"random South: {before:+.2f}")
    ax.axhline(after, color="green", linestyle=":", label=f"learned South: {after:+.2f}")
    ax.set_xlabel("training deals")
    ax.set_ylabel("points won minus points lost, per deal")
    ax.set_title(f"Linear policy for South vs random bots ({args.rules})")
    ax.legend(loc="lower right")
    fig.tight_layout()
    Path(args.plot).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.plot, dpi=100)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--episodes", type=int, default=8000, help="training deals")
    parser.add_argument("--eval-deals", type=int, default=1000, help="deals of each evaluation")
    parser.add_argument("--rules", default="classic", help="preset to play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.05, help="policy learning rate")
    parser.add_argument("--value-lr", type=float, default=0.01, help="baseline learning rate")
    parser.add_argument("--batch", type=int, default=16, help="deals per update")
    parser.add_argument("--plot", type=Path, default=Path("learning_curve.png"))
    parser.add_argument("--quiet", dest="progress", action="store_false")
    args = parser.parse_args()
    print(
        f"training South for {args.episodes} deals against random bots ({args.rules}), "
        f"evaluating on {args.eval_deals} deals"
    )
    figures = train(args)
    print(f"random South:  {figures['before']:+.2f} points per deal")
    print(f"learned South: {figures['after']:+.2f} points per deal")
    print(f"plot saved to {figures['plot']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
