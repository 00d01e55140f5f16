"""Evaluate a policy in a duplicate arena, with its double-dummy losses.

Any ``policy(observation, mask) -> action`` (the observation vector and
legal-action mask of :mod:`tarneeb.env`) plays as a bot through
:class:`tarneeb.bots.policy.PolicyBot`, named by a spec:
``policy:path/to/file.py:name``, ``policy:package.module:name`` or an entry
point. This script plays it against another bot in duplicate pairs (the
same cards twice, the sides swapped, so luck of the deal cancels), and
analyses every played deal double dummy: how many tricks each side's cards
gave away against best play, per deal.

    python examples/evaluate_policy.py                         # the stand-in below
    python examples/evaluate_policy.py "policy:examples/maskable_ppo.py:policy" \\
        --against heuristic --matches 40

Without a spec it evaluates :func:`highest_card`, a stand-in for a trained
policy defined in this file. The last line printed is one JSON object (the
arena's summary).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import numpy as np

from tarneeb.arena import ArenaConfig, format_report, play_arena, summarize
from tarneeb.presets import find_rules

HERE = Path(__file__).resolve()
PASS = 52  # the env id of pass (tarneeb.env.encoding)


def highest_card(observation: np.ndarray, mask: np.ndarray) -> int:
    """A stand-in policy: pass whenever it may, else the last legal action (the highest
    card, the highest bid or trump). It sees what a trained policy would: the vector
    and the mask of its own seat, nothing else."""
    legal = np.flatnonzero(mask)
    if mask[PASS]:
        return PASS
    return int(legal[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument(
        "spec",
        nargs="?",
        default=f"policy:{os.path.relpath(HERE)}:highest_card",
        help="the policy's bot spec (default: this file's highest_card)",
    )
    parser.add_argument("--against", default="random", help="the other side's bot")
    parser.add_argument("--matches", type=int, default=20, help="matches, two a duplicate pair")
    parser.add_argument("--rules", default="classic", help="the preset")
    parser.add_argument("--target", type=int, default=21, help="the match target (short matches)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    config = ArenaConfig(
        (args.spec, args.against),
        matches=args.matches,
        seed=args.seed,
        rules=find_rules(args.rules).replace(target=args.target),
        double_dummy=True,
    )
    result = play_arena(config, workers=args.workers)
    summary = summarize(result)
    print(format_report(result, summary))
    print(json.dumps(summary, default=str))


if __name__ == "__main__":
    main()
