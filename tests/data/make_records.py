"""Write the version-1 record fixtures of tests/test_record.py.

Run once, from the repository root: ``python tests/data/make_records.py``. The
files are kept as written: later versions of tarneeb must go on reading them,
so do not regenerate them with a newer record format.
"""

from __future__ import annotations

import random
from pathlib import Path

from tarneeb import Match, Pass, Phase, Seat, find_rules, write_record

HERE = Path(__file__).parent


def choose(match: Match, rng: random.Random) -> object:
    """A deterministic low-bidding policy: mostly pass, bid low; declarers play high cards."""
    deal = match.deal
    legal = list(deal.legal_actions)
    if deal.phase is Phase.AUCTION:
        if Pass() in legal and rng.random() < 0.6:
            return Pass()
        bids = [a for a in legal if a != Pass()] or legal
        return bids[min(len(bids) - 1, int(rng.random() * 3))]
    if deal.phase is Phase.TRUMP:
        hand = deal.hand(deal.to_act)
        return max(legal, key=lambda a: (hand.count(a.suit), a.suit))
    if deal.phase is not Phase.PLAY:
        return legal[int(rng.random() * len(legal))]
    declarer = deal.declarer
    if declarer is not None and declarer.team == deal.to_act.team:
        # the declaring side plays its highest card (in individual play, everyone at random)
        return max(legal, key=lambda c: (c.suit == deal.trump, c.rank))
    return legal[int(rng.random() * len(legal))]


def play(
    name: str,
    seed: int,
    first_dealer: Seat | None = None,
    max_actions: int | None = None,
    record_seed: bool = True,
) -> Match:
    match = Match(find_rules(name), seed=seed, first_dealer=first_dealer)
    rng = random.Random(f"policy-{name}-{seed}")
    actions = 0
    while not match.is_over() and (max_actions is None or actions < max_actions):
        match.push(choose(match, rng))
        actions += 1
    if not record_seed:
        match.seed = None
    return match


FIXTURES = {
    "record_v1_classic.json": lambda: play("classic", 1),
    "record_v1_egyptian.json": lambda: play("egyptian", 2),
    "record_v1_syrian400.json": lambda: play("syrian400", 5),
    "record_v1_tarneeb400_unseeded_partial.json": lambda: play(
        "tarneeb400", 4, first_dealer=Seat.NORTH, max_actions=150, record_seed=False
    ),
}


def main() -> None:
    for filename, make in FIXTURES.items():
        match = make()
        players = {"S": "policy", "E": "policy", "N": "policy", "W": "policy"}
        (HERE / filename).write_text(write_record(match, players) + "\n", encoding="utf-8")
        print(filename, len(match.deals), "deals", match.team_scores, match.winner)


if __name__ == "__main__":
    main()
