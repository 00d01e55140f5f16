"""Tarneeb in OpenSpiel: the random-simulation test, then ISMCTS against our heuristic bot.

    python examples/openspiel_ismcts.py [--deals 4] [--simulations 100] [--rules classic]
    python examples/openspiel_ismcts.py --search mcts    # OpenSpiel's C++ MCTSBot instead

Importing :mod:`tarneeb.env.openspiel_game` registers ``python_tarneeb`` with
OpenSpiel. This runs OpenSpiel's own ``random_sim_test`` on it, then a short
duplicate match: each deal is played twice with the same cards, OpenSpiel's
ISMCTS bot (random-rollout evaluator) holding North-South, then East-West,
against our ``heuristic`` bot. The last line printed is one JSON object.

OpenSpiel's C++ search bots and this Python game (open_spiel 2.0.2): the C++
``ISMCTSBot`` cannot run on any game written in Python (OpenSpiel does not
pass ``ResampleFromInfostate`` on to Python), so this uses the Python
``ISMCTSBot``; the C++ ``MCTSBot`` runs through ``step_with_policy`` (its
``step`` releases the GIL and crashes), searching the true deal with all
hands seen. The module docstring of :mod:`tarneeb.env.openspiel_game` has the
details.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import pyspiel

from tarneeb.env import openspiel_game


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations a move")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--opponent", default="heuristic", help="our bot (a make_bot spec)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--search", choices=("ismcts", "mcts"), default="ismcts", help="OpenSpiel's search bot"
    )
    args = parser.parse_args()

    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"rules": args.rules})
    print(f"{game}: {game.num_distinct_actions()} actions, max length {game.max_game_length()}")
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    print("OpenSpiel random_sim_test: 10 games, passed")

    start = time.perf_counter()
    summary = openspiel_game.play_ismcts_match(
        deals=args.deals,
        simulations=args.simulations,
        seed=args.seed,
        rules=args.rules,
        opponent=args.opponent,
        search=args.search,
    )
    summary["seconds"] = round(time.perf_counter() - start, 1)
    for number, diff in enumerate(summary["ismcts_points_diff"]):
        side = "North-South" if number % 2 == 0 else "East-West"
        print(f"  deal {number // 2 + 1}, {args.search} as {side}: {diff:+.0f} points")
    print(f"{args.search} minus {args.opponent}: {summary['ismcts_total']:+.0f} points in total")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
