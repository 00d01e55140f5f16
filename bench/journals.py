"""Two arena journals of one seed, compared match by match.

Run as ``python bench/journals.py NEW.jsonl OLD.jsonl`` from the repository's
root. Each journal (``tarneeb arena --journal``) is a run of a bot under test,
the first of its ``--bots``, against the same opponent with the same seed,
so match ``i`` of one and match ``i`` of the other were dealt the same cards
from the same seats: two versions of a bot judged on the same deals, which
says far more from fewer matches than two runs compared as wholes. Only
duplicate pairs complete in both journals count.

It prints the matches each version won; how many matches changed hands
(won by one version and lost by the other) with the two-sided sign test on
them; the points a deal each version scored over the opponent, and the
difference match by match with its 95% interval; the tricks its cards gave
away a deal against double-dummy play (where both runs measured it); and the
contracts each side bid and made, the bot's by level too (a version that bids
higher shows there: its 11s made 1 of 19); and, where both journals kept the
calls, how many first deals (the same cards at 0-0 in both) were bid
differently, with a few of them. The last line is one JSON object with the
figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb.arena.journal import outcome_from_json
from tarneeb.arena.run import ArenaError, MatchOutcome
from tarneeb.arena.stats import mean_ci, sign_test


def read(path: Path) -> tuple[dict[str, Any], dict[int, MatchOutcome]]:
    """A journal's run and its matches by index.

    :raises ArenaError: when the file is not an arena journal.
    """
    try:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    except OSError as exc:
        raise ArenaError(f"{path}: {exc.strerror or exc}") from None
    except ValueError:
        raise ArenaError(f"{path}: not an arena journal (a line is not JSON)") from None
    if not lines or not isinstance(lines[0], dict) or "run" not in lines[0]:
        raise ArenaError(f"{path}: not an arena journal (no run on its first line)")
    run = lines[0]["run"]
    return run, {o.index: o for o in (outcome_from_json(line) for line in lines[1:])}


def _side(outcome: MatchOutcome, bot: str) -> int:
    """The side (0 North-South, 1 East-West) ``bot`` sat in ``outcome``."""
    return 0 if outcome.ns_label == bot else 1


def _won(outcome: MatchOutcome, bot: str) -> float:
    return 0.5 if outcome.winner is None else float(outcome.winner == bot)


def _per_deal(outcome: MatchOutcome, bot: str) -> float:
    side = _side(outcome, bot)
    return (outcome.points[side] - outcome.points[1 - side]) / max(1, outcome.deals)


def compare(new_path: Path, old_path: Path) -> dict[str, Any]:
    """The figures of NEW against OLD (see the module).

    :raises ArenaError: unless the two journals are of one seed, rules and opponent.
    """
    new_run, new = read(new_path)
    old_run, old = read(old_path)
    for key in ("seed", "rules", "format"):
        if new_run.get(key) != old_run.get(key):
            raise ArenaError(f"the journals differ in their {key}: no match is dealt alike")
    new_bot, opponent = new_run["bots"]
    old_bot, old_opponent = old_run["bots"]
    if opponent != old_opponent:
        raise ArenaError(f"the opponents differ ({opponent} and {old_opponent})")
    pairs: dict[int, list[int]] = {}
    for index in sorted(set(new) & set(old)):
        pairs.setdefault(new[index].pair, []).append(index)
    both = [i for indices in pairs.values() if len(indices) == 2 for i in indices]
    if not both:
        raise ArenaError("the journals have no duplicate pair in common")
    new_won = [_won(new[i], new_bot) for i in both]
    old_won = [_won(old[i], old_bot) for i in both]
    gained = sum(1 for a, b in zip(new_won, old_won, strict=True) if a > b)
    lost = sum(1 for a, b in zip(new_won, old_won, strict=True) if a < b)
    new_points = [_per_deal(new[i], new_bot) for i in both]
    old_points = [_per_deal(old[i], old_bot) for i in both]
    mean, ci = mean_ci([a - b for a, b in zip(new_points, old_points, strict=True)])
    assert ci is not None  # a duplicate pair is two matches

    # Each match's first deal is dealt alike at 0-0 in both: a call that differs there
    # is the versions' own difference (journals from before the calls were kept: none).
    firsts = [i for i in both if new[i].auctions and old[i].auctions]
    differ = [i for i in firsts if new[i].auctions[0] != old[i].auctions[0]]

    def tricks_lost(matches: dict[int, MatchOutcome], bot: str) -> float | None:
        deals = sum(matches[i].dd_deals for i in both)
        if not deals:
            return None
        return round(sum(matches[i].dd_lost[_side(matches[i], bot)] for i in both) / deals, 2)

    def contracts(matches: dict[int, MatchOutcome], bot: str) -> dict[str, Any]:
        out: dict[str, Any] = {"bot": [0, 0], "opponent": [0, 0], "bot_by_level": {}}
        for i in both:
            side = _side(matches[i], bot)
            for declarers, level, made in matches[i].contracts:
                rows = [out["bot" if declarers == side else "opponent"]]
                if declarers == side:
                    rows.append(out["bot_by_level"].setdefault(str(level), [0, 0]))
                for row in rows:
                    row[0] += 1
                    row[1] += int(made)
        out["bot_by_level"] = dict(sorted(out["bot_by_level"].items(), key=lambda kv: int(kv[0])))
        return out

    return {
        "new": new_bot,
        "old": old_bot,
        "opponent": opponent,
        "matches": len(both),
        "new_won": sum(new_won),
        "old_won": sum(old_won),
        "turned_to_wins": gained,
        "turned_to_losses": lost,
        "sign_test_p": round(sign_test(gained, lost), 4),
        "new_points_per_deal": round(statistics.fmean(new_points), 2),
        "old_points_per_deal": round(statistics.fmean(old_points), 2),
        "difference_per_deal": round(mean, 2),
        "difference_95": [round(ci[0], 2), round(ci[1], 2)],
        "new_tricks_lost_per_deal": tricks_lost(new, new_bot),
        "old_tricks_lost_per_deal": tricks_lost(old, old_bot),
        "first_deals_compared": len(firsts),
        "first_deals_differ": len(differ),
        "first_deals_examples": [
            {"match": i, "new": new[i].auctions[0], "old": old[i].auctions[0]} for i in differ[:3]
        ],
        "new_contracts": contracts(new, new_bot),
        "old_contracts": contracts(old, old_bot),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("new", type=Path, help="the journal of the version under test")
    parser.add_argument("old", type=Path, help="the journal it is compared with")
    args = parser.parse_args()
    try:
        f = compare(args.new, args.old)
    except ArenaError as exc:
        print(f"journals: {exc}", file=sys.stderr)
        return 2
    n = f["matches"]
    print(f"journals: {f['new']} against {f['old']}, both against {f['opponent']}")
    print(f"  {n} matches dealt alike ({n // 2} duplicate pairs complete in both)")
    for who in ("new", "old"):
        won = f[f"{who}_won"]
        print(f"  {who}: {f[who]:24} won {won:g} ({100 * won / n:.1f}%)")
    print(
        f"  matches that changed hands: {f['turned_to_wins']} to the new version,"
        f" {f['turned_to_losses']} to the old (two-sided sign test p = {f['sign_test_p']})"
    )
    low, high = f["difference_95"]
    print(
        f"  points a deal against {f['opponent']}: new {f['new_points_per_deal']:+.2f},"
        f" old {f['old_points_per_deal']:+.2f}; difference {f['difference_per_deal']:+.2f}"
        f" [{low:+.2f}, {high:+.2f}] 95% interval, match by match"
    )
    if f["new_tricks_lost_per_deal"] is not None and f["old_tricks_lost_per_deal"] is not None:
        print(
            f"  tricks lost a deal against double-dummy play: new {f['new_tricks_lost_per_deal']},"
            f" old {f['old_tricks_lost_per_deal']}"
        )
    for who in ("new", "old"):
        c = f[f"{who}_contracts"]
        print(
            f"  contracts with {who}: its side bid {c['bot'][0]}, made {c['bot'][1]};"
            f" {f['opponent']} bid {c['opponent'][0]}, made {c['opponent'][1]}"
        )
        levels = ", ".join(f"{lv}s {m} of {b}" for lv, (b, m) in c["bot_by_level"].items())
        print(f"    its side's contracts made, by level: {levels}")
    if f["first_deals_compared"]:
        print(
            f"  first deals (the same cards at 0-0) whose calls differ:"
            f" {f['first_deals_differ']} of {f['first_deals_compared']}"
        )
        for example in f["first_deals_examples"]:
            print(f"    match {example['match']}: new {example['new']!r}, old {example['old']!r}")
    print(json.dumps({"bench": "journals", **f}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
