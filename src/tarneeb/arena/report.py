"""What an arena run shows: the summary, the printed report, the JSON file and the plot.

The figures, for two bots A and B:

* ``matches``: matches played (``--matches``), two to a duplicate pair;
* ``win_rate``: (matches won + half the drawn ones) / matches, with its 95%
  Wilson interval; a match is drawn when it is stopped at ``max_deals``
  before it is decided, or (matches of sets) when points and sets are even;
* ``points_per_deal_diff``: for each duplicate pair, A's points minus B's
  over its two matches divided by the deals scored in them (thrown-in deals
  score nothing and are not counted), averaged over the pairs, with the 95%
  interval of that mean (Student's t over the pairs; ``None`` with one pair);
* ``contracts``: for each bot, partnership contracts its side declared, by
  level: how many were bid and how many made;
* ``dd_tricks_lost_per_deal`` (with ``--double-dummy``): for each bot, the
  tricks its side's cards gave away against double-dummy play, per played
  deal (the solver's value before each card minus after it, added up);
* ``dd_play`` (with ``--double-dummy``): for each bot and group of deals
  (``all``, ``declarers``, ``defenders``, ``trump``, ``no_trump``): ``deals``,
  ``decisions``, ``errors``, ``error_rate`` (the share of card decisions that
  gave a trick away), ``tricks_lost``, ``tricks_lost_per_deal``, ``leads``,
  ``best_leads``, ``lead_accuracy`` (the share of first leads that were
  double-dummy best), ``partner_winning``, ``over_partner``,
  ``over_partner_costly`` and their rates (the cards played while partner's
  card was sure to win the trick and one under it was legal; those that took the
  trick from partner; those that did and gave a trick away), the rates and
  the mean with a ``_ci95`` interval (:mod:`tarneeb.arena.accuracy`);
* ``timing``: mean time a decision of each bot took (the only figures that
  change from run to run with the same seed).

King of the table (``--format king``, seed 002's tournament, each bot a
pair) is not duplicate: each set is one match between the pair holding the
table and the challenger, so ``matches`` counts the sets played,
``points_per_deal_diff`` and its interval are ``None`` (the cards' luck does
not cancel), and it adds ``standings`` (the lines of
:meth:`KingOfTheTable.standings <tarneeb.tournament.KingOfTheTable.standings>`:
rank, pair, played, won, lost, points_for, points_against, streak,
best_streak, at_table), ``sets`` (each set in order: number, ns, ew, holder,
winner, scores, deals, capped), ``champion`` (the tournament's winner),
``king`` (the pair holding the table at the end) and ``ended_by`` (``sets``
or ``streak``). The JSON file holds the whole tournament under
``tournament`` (:meth:`KingOfTheTable.to_dict`, which ``from_dict`` reads back).
"""

from __future__ import annotations

import importlib
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.arena.accuracy import GROUPS, Accuracy, format_mean, format_share
from tarneeb.arena.run import ArenaError, ArenaResult, MatchOutcome
from tarneeb.arena.stats import mean_ci, wilson_interval

__all__ = ["format_report", "result_to_json", "save_plot", "summarize", "write_json"]

MATCHES_COUNTED = (
    "matches played; each duplicate pair is two of them, "
    "dealt the same cards with the bots' sides swapped"
)
SETS_COUNTED = (
    "sets played, one match each between the pair holding the table and the "
    "challenger (not duplicate: the winner keeps its seats)"
)


@dataclass
class _Tally:
    """One bot's figures over the matches it played."""

    matches: int = 0
    wins: int = 0
    draws: int = 0
    points_for: int = 0
    points_against: int = 0
    scored_deals: int = 0
    sets_won: int = 0
    decisions: int = 0
    seconds: float = 0.0
    dd_lost: int = 0
    dd_deals: int = 0
    accuracy: Accuracy = field(default_factory=Accuracy)
    contracts: dict[int, list[int]] = field(default_factory=dict)
    """Level -> [bid, made]."""

    @property
    def losses(self) -> int:
        return self.matches - self.wins - self.draws

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    @property
    def win_rate(self) -> float:
        return self.score / self.matches if self.matches else 0.0


def _tallies(result: ArenaResult) -> dict[str, _Tally]:
    tallies = {label: _Tally() for label in result.labels}
    for o in result.outcomes:
        for side, label in enumerate((o.ns_label, o.ew_label)):
            t = tallies[label]
            t.matches += 1
            if o.winner is None:
                t.draws += 1
            elif o.winner == label:
                t.wins += 1
            t.points_for += o.points[side]
            t.points_against += o.points[1 - side]
            t.scored_deals += o.scored_deals
            t.sets_won += o.sets_won[side]
            t.decisions += o.decisions[side]
            t.seconds += o.seconds[side]
            t.dd_lost += o.dd_lost[side]
            t.dd_deals += o.dd_deals
            t.accuracy.add(o.dd_play, side)
            for team, level, made in o.contracts:
                if team == side:
                    row = t.contracts.setdefault(level, [0, 0])
                    row[0] += 1
                    row[1] += int(made)
    return tallies


def _pairs(outcomes: Sequence[MatchOutcome]) -> dict[int, list[MatchOutcome]]:
    pairs: dict[int, list[MatchOutcome]] = {}
    for o in outcomes:
        pairs.setdefault(o.pair, []).append(o)
    return pairs


def pair_diffs(outcomes: Sequence[MatchOutcome], a: str, b: str) -> list[float]:
    """For each duplicate pair: ``a``'s points minus ``b``'s per scored deal."""
    diffs = []
    for matches in _pairs(outcomes).values():
        diff = 0
        deals = 0
        for o in matches:
            side = o.side_of(a)
            if o.side_of(b) != 1 - side:
                raise ArenaError(f"{a!r} and {b!r} did not face each other in match {o.index}")
            diff += o.points[side] - o.points[1 - side]
            deals += o.scored_deals
        diffs.append(diff / deals if deals else 0.0)
    return diffs


def _interval(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else [ci[0], ci[1]]


def summarize(result: ArenaResult) -> dict[str, Any]:
    """The summary of the JSON file (the keys of the arena contract, and more)."""
    config = result.config
    labels = result.labels
    tallies = _tallies(result)
    table = result.tournament
    summary: dict[str, Any] = {
        "bots": list(labels),
        "specs": list(config.bots),
        "format": config.format,
        "matches": config.matches if table is None else len(result.outcomes),
        "matches_counted": MATCHES_COUNTED if table is None else SETS_COUNTED,
    }
    if table is None:
        summary["pairs"] = config.pairs
    summary |= {
        "win_rate": {label: tallies[label].win_rate for label in labels},
        "win_rate_ci95": {
            label: list(wilson_interval(tallies[label].score, tallies[label].matches))
            for label in labels
        },
        "points_per_deal_diff": None,
        "points_per_deal_diff_ci95": None,
    }
    if len(labels) == 2 and table is None:
        diffs = pair_diffs(result.outcomes, labels[0], labels[1])
        mean, ci = mean_ci(diffs)
        summary["points_per_deal_diff"] = mean
        summary["points_per_deal_diff_ci95"] = _interval(ci)
        summary["points_per_deal_diff_of"] = f"{labels[0]} - {labels[1]}"
        both = [0, 0]
        split = 0
        for matches in _pairs(result.outcomes).values():
            winners = {o.winner for o in matches}
            if len(winners) == 1 and None not in winners:
                both[labels.index(next(iter(winners)))] += 1
            else:
                split += 1
        summary["pair_results"] = {
            f"{labels[0]} won both": both[0],
            f"{labels[1]} won both": both[1],
            "split or drawn": split,
        }
    summary["wins"] = {label: tallies[label].wins for label in labels}
    summary["draws"] = sum(1 for o in result.outcomes if o.winner is None)
    summary["capped"] = sum(1 for o in result.outcomes if o.capped)
    summary["max_deals"] = config.max_deals
    if config.rules.sets > 1 and table is None:
        summary["sets_won"] = {label: tallies[label].sets_won for label in labels}
    summary["deals"] = result.deals
    summary["scored_deals"] = sum(o.scored_deals for o in result.outcomes)
    summary["contracts"] = {
        label: {
            str(level): {"bid": bid, "made": made}
            for level, (bid, made) in sorted(tallies[label].contracts.items())
        }
        for label in labels
    }
    if config.double_dummy:
        summary["dd_tricks_lost_per_deal"] = {
            label: (t.dd_lost / t.dd_deals if t.dd_deals else None) for label, t in tallies.items()
        }
        summary["dd_deals"] = {label: t.dd_deals for label, t in tallies.items()}
        summary["dd_play"] = {label: t.accuracy.to_dict() for label, t in tallies.items()}
    if table is not None:
        summary["standings"] = [line.to_dict() for line in table.standings()]
        summary["sets"] = king_sets(result)
        summary["champion"] = table.winner
        summary["king"] = table.king
        ending = table.ending
        summary["ended_by"] = None if ending is None else ending.value
    summary["timing"] = {
        "decision_us": {
            label: (1e6 * t.seconds / t.decisions if t.decisions else 0.0)
            for label, t in tallies.items()
        },
        "decisions": {label: t.decisions for label, t in tallies.items()},
        "seconds": result.elapsed,
        # the rate of this run's own deals: a journal's were played in another
        "played_deals": result.played_deals,
        "journaled_matches": len(result.journaled),
        "deals_per_s": result.played_deals / result.elapsed if result.elapsed > 0 else 0.0,
        "backend": result.backend,
        "workers": result.workers,
    }
    return summary


def king_sets(result: ArenaResult) -> list[dict[str, Any]]:
    """King of the table: each set in order, who sat where and who won."""
    table = result.tournament
    if table is None:
        return []
    return [
        {
            "number": played.number,
            "ns": played.ns,
            "ew": played.ew,
            "holder": pairing.holder,
            "winner": played.winner,
            "scores": list(played.scores),
            "deals": played.deals,
            "capped": outcome.capped,
        }
        for pairing, played, outcome in zip(
            table.pairings, table.played, result.outcomes, strict=True
        )
    ]


def result_to_json(result: ArenaResult) -> dict[str, Any]:
    """The whole JSON file: the summary, how the run was set, bouts, and every game."""
    config = result.config
    data: dict[str, Any] = {
        "summary": summarize(result),
        "config": {
            "bots": list(config.bots),
            "matches": config.matches,
            "format": config.format,
            "seed": config.seed,
            "max_deals": config.max_deals,
            "rules_name": config.rules_name,
            "rules": config.rules.to_dict(),
        },
    }
    if config.streak is not None:
        data["config"]["streak"] = config.streak
    if result.tournament is not None:
        data["tournament"] = result.tournament.to_dict()
    data["games"] = [
        {
            "index": o.index,
            "pair": o.pair,
            "ns": o.ns_label,
            "ew": o.ew_label,
            "winner": o.winner,
            "capped": o.capped,
            "deals": o.deals,
            "points": list(o.points),
            "final_scores": list(o.final_scores),
            "record": o.record,
        }
        for o in result.outcomes
    ]
    return data


def write_json(result: ArenaResult, path: str | Path) -> None:
    """Write :func:`result_to_json` to ``path``."""
    text = json.dumps(result_to_json(result), indent=1, ensure_ascii=False)
    Path(path).write_text(text + "\n", encoding="utf-8")


# -- the printed report -------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def format_report(result: ArenaResult, summary: dict[str, Any] | None = None) -> str:
    """The report for people, as printed by ``tarneeb arena``."""
    s = summary if summary is not None else summarize(result)
    config = result.config
    labels = result.labels
    width = max(9, *(len(label) for label in labels))
    timing = s["timing"]
    out = io.StringIO()
    w = out.write
    title = " vs ".join(labels) if len(labels) == 2 else ", ".join(labels)
    king = result.tournament is not None
    if king:
        played = s["matches"]
        w(f"arena: {title}: king of the table, {played} set{'' if played == 1 else 's'} ")
        w("(one match a set, not duplicate)\n")
    else:
        kind = f" of {config.rules.sets} sets" if config.format == "sets" else ""
        plural = "" if config.pairs == 1 else "s"
        w(f"arena: {title}, {config.matches} matches{kind} ")
        w(f"({config.pairs} duplicate pair{plural})\n")
    w(f"  rules {config.rules_name}, seed {config.seed}, format {config.format}, ")
    w(f"at most {config.max_deals} deals a {'set' if king else 'match'}\n")
    journaled, played = timing["journaled_matches"], timing["played_deals"]
    if journaled:
        w(f"  {journaled} matches ({s['deals'] - played} deals) from the journal\n")
    if played or not journaled:
        w(f"  {timing['seconds']:.1f} s on {timing['workers']} worker")
        w(f"{'s' if timing['workers'] != 1 else ''} ({timing['backend']}), {played} deals")
        w(" played now" if journaled else "")
        rate = timing["deals_per_s"]
        w(f", {rate:.0f} deals/s\n\n" if rate >= 10 else f", {rate:.2g} deals/s\n\n")
    else:
        w("  nothing left to play\n\n")

    if king:
        _write_king(w, s, width)
    else:
        _write_wins(w, s, config.pairs, width)

    levels = sorted({int(lv) for rows in s["contracts"].values() for lv in rows})
    w("\ncontracts bid / made, by level\n")
    if levels:
        w(f"  {'level':<{width}}" + "".join(f"{lv:>10}" for lv in levels) + "\n")
        for label in labels:
            rows = s["contracts"][label]
            cells = [
                f"{rows[str(lv)]['bid']}/{rows[str(lv)]['made']}" if str(lv) in rows else "-"
                for lv in levels
            ]
            w(f"  {label:<{width}}" + "".join(f"{c:>10}" for c in cells) + "\n")
    else:
        w("  none\n")

    if "dd_play" in s:
        _write_dd(w, s, width)

    w("\ntime per decision\n")
    for label in labels:
        us = timing["decision_us"][label]
        w(f"  {label:<{width}}  {us:10.1f} µs  ({timing['decisions'][label]} decisions)\n")
    return out.getvalue()


def _write_dd(w: Callable[[str], object], s: dict[str, Any], width: int) -> None:
    w("\ncard play against double-dummy play (95% intervals)\n")
    w("  costly: the card decisions (from two or more legal cards) that gave a trick away\n")
    w("  lost: tricks lost against double-dummy play, per deal\n")
    w("  leads: the first leads of a deal that were double-dummy best\n")
    w(f"  {'':<{width}}  {'group':<9} {'deals':>5}  {'costly':<20}  {'lost':<17}  leads\n")
    for label in s["bots"]:
        rows = s["dd_play"][label]
        for group in GROUPS:
            row = rows[group]
            every = group in ("trump", "no_trump") and row["deals"] == rows["all"]["deals"]
            if group != "all" and (not row["deals"] or every):
                continue  # no such deal; or every deal in one strain: the "all" line
            name = label if group == "all" else ""
            share = format_share(row["error_rate"], row["error_rate_ci95"])
            lost = format_mean(row["tricks_lost_per_deal"], row["tricks_lost_per_deal_ci95"])
            leads = format_share(row["lead_accuracy"], row["lead_accuracy_ci95"])
            w(f"  {name:<{width}}  {group.replace('_', '-'):<9} {row['deals']:>5}  {share:<20}")
            w(f"  {lost:<17}  {leads}\n")
    w("\nover partner's sure winner (95% intervals)\n")
    w("  chances: cards played while partner's card was sure to win the trick for all the\n")
    w("    player could tell (last to play, or the last opponent cannot beat it), one under\n")
    w("    it legal\n")
    w("  over: the share of those that took the trick from partner; costly: and gave one away\n")
    w(f"  {'':<{width}}  {'chances':>7}  {'over':<20}  costly\n")
    for label in s["bots"]:
        row = s["dd_play"][label]["all"]
        over = format_share(row["over_partner_rate"], row["over_partner_rate_ci95"])
        costly = format_share(row["over_partner_costly_rate"], row["over_partner_costly_rate_ci95"])
        w(f"  {label:<{width}}  {row['partner_winning']:>7}  {over:<20}  {costly}\n")


def _write_wins(w: Callable[[str], object], s: dict[str, Any], pairs: int, width: int) -> None:
    w("match wins (a draw counts a half; 95% interval, Wilson)\n")
    for label in s["bots"]:
        lo, hi = s["win_rate_ci95"][label]
        w(f"  {label:<{width}}  {s['wins'][label]:>5} won  {_pct(s['win_rate'][label])}")
        w(f"  [{_pct(lo)}, {_pct(hi)}]\n")
    w(f"  drawn {s['draws']} (stopped at the deal cap: {s['capped']})\n")
    if "sets_won" in s:
        w("  sets won: " + ", ".join(f"{k} {v}" for k, v in s["sets_won"].items()) + "\n")
    if "pair_results" in s:
        w("  duplicate pairs: " + ", ".join(f"{k} {v}" for k, v in s["pair_results"].items()))
        w("\n")
    if s["points_per_deal_diff"] is not None:
        ci = s["points_per_deal_diff_ci95"]
        interval = (
            "no interval from one pair"
            if ci is None
            else (f"[{_signed(ci[0])}, {_signed(ci[1])}] 95% interval over {pairs} pairs")
        )
        w(f"\npoints per deal: {s['points_per_deal_diff_of']} = ")
        w(f"{_signed(s['points_per_deal_diff'])}  {interval}\n")


def _write_king(w: Callable[[str], object], s: dict[str, Any], width: int) -> None:
    played = s["matches"]
    how = {"sets": "all its sets played", "streak": "a winning streak", None: "unfinished"}
    w(f"king of the table: {s['champion']} won, after {played} set{'' if played == 1 else 's'} ")
    w(f"({how[s['ended_by']]}); {s['king']} holds the table\n")
    w(f"  rank  {'pair':<{width}}  played  won  lost  points  against  streak  best\n")
    for row in s["standings"]:
        w(f"  {row['rank']:>4}  {row['pair']:<{width}}  {row['played']:>6} {row['won']:>4}")
        w(f" {row['lost']:>5} {row['points_for']:>7} {row['points_against']:>8}")
        w(f" {row['streak']:>7} {row['best_streak']:>5}\n")
    w("\nsets, in order (* the pair that held the table)\n")
    seat = max(width + 1, len("North-South"))
    w(f"  set  {'North-South':<{seat}}  {'East-West':<{seat}}  {'winner':<{width}}")
    w("    score  deals\n")
    for row in s["sets"]:
        ns = row["ns"] + ("*" if row["holder"] == row["ns"] else "")
        ew = row["ew"] + ("*" if row["holder"] == row["ew"] else "")
        score = f"{row['scores'][0]}:{row['scores'][1]}"
        w(f"  {row['number']:>3}  {ns:<{seat}}  {ew:<{seat}}  {row['winner']:<{width}}")
        w(f"  {score:>7}  {row['deals']:>5}")
        w(" (stopped at the deal cap)\n" if row["capped"] else "\n")


# -- the plot -----------------------------------------------------------------------


def plot_path(path: str | Path) -> Path:
    """The file ``--plot PATH`` writes, checked before any match is played.

    A name without an extension gets ``.png`` (what matplotlib would add, so the
    name reported is the one written); an extension matplotlib cannot write is
    an error naming the ones it can.

    :raises ArenaError: for a format matplotlib cannot write, or without matplotlib.
    """
    try:
        importlib.import_module("matplotlib")
        backend_bases: Any = importlib.import_module("matplotlib.backend_bases")
    except ImportError:
        raise ArenaError(
            "--plot needs matplotlib, which is not installed: pip install 'tarneeb[plot]'"
        ) from None
    target = Path(path)
    formats = sorted(backend_bases.FigureCanvasBase.get_supported_filetypes())
    suffix = target.suffix.lower().lstrip(".")
    if not suffix:
        return target.with_name(target.name + ".png")
    if suffix not in formats:
        raise ArenaError(
            f"--plot {path}: matplotlib cannot write .{suffix} files; "
            f"use one of {', '.join('.' + f for f in formats)}"
        )
    return target


def save_plot(result: ArenaResult, path: str | Path) -> None:
    """A PNG of the score distribution: each match's points margin, and per-pair points per deal.

    For king of the table, each bot's win rate with its interval instead of the pairs.

    :raises ArenaError: when matplotlib (the ``plot`` extra) is not installed.
    """
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise ArenaError(
            "--plot needs matplotlib, which is not installed: pip install 'tarneeb[plot]'"
        ) from None
    matplotlib.use("Agg")
    plt: Any = importlib.import_module("matplotlib.pyplot")
    labels = result.labels
    a = labels[0]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    try:
        if len(labels) == 2:
            margins = [o.points[o.side_of(a)] - o.points[1 - o.side_of(a)] for o in result.outcomes]
            left.hist(margins, bins=min(40, max(5, len(margins) // 4)), color="#4477aa")
            left.set_title(f"points per match: {a} - {labels[1]}")
            left.set_xlabel("points margin over the match")
            left.set_ylabel("matches")
            left.axvline(0, color="black", linewidth=0.8)
            diffs = pair_diffs(result.outcomes, a, labels[1])
            right.hist(diffs, bins=min(40, max(5, len(diffs) // 3)), color="#cc6677")
            right.set_title("points per deal, each duplicate pair")
            right.set_xlabel(f"{a} - {labels[1]}, points per deal")
            right.set_ylabel("pairs")
            right.axvline(0, color="black", linewidth=0.8)
        else:
            played = result.tournament.played if result.tournament is not None else ()
            margins = [p.scores_of(p.winner)[0] - p.scores_of(p.winner)[1] for p in played]
            left.hist(margins, bins=min(40, max(5, len(margins) // 3)), color="#4477aa")
            left.set_title("points margin of each set (winner - loser)")
            left.set_xlabel("points")
            left.set_ylabel("sets")
            tallies = _tallies(result)
            rates = [tallies[label].win_rate for label in labels]
            cis = [wilson_interval(tallies[lb].score, tallies[lb].matches) for lb in labels]
            errors = [
                [r - lo for r, (lo, _) in zip(rates, cis, strict=True)],
                [hi - r for r, (_, hi) in zip(rates, cis, strict=True)],
            ]
            right.bar(labels, rates, yerr=errors, color="#cc6677", capsize=4)
            right.set_ylim(0, 1)
            right.set_title("match win rate (95% Wilson interval)")
        fig.suptitle(
            f"tarneeb arena: {result.config.matches} matches, {result.config.rules_name}, "
            f"seed {result.config.seed}"
        )
        fig.tight_layout()
        fig.savefig(str(path), dpi=100)
    finally:
        plt.close(fig)
