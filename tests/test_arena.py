"""The arena: duplicate matches, statistics, determinism, the JSON file, the command line."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import io
import json
import math
import os
import sys
from collections import deque
from pathlib import Path
from typing import Any

import pytest

import tarneeb.arena.cli as arena_cli
from support import run_python
from tarneeb import Card, KingOfTheTable, Match, Rules, Team, find_rules, read_record
from tarneeb.arena import (
    ArenaConfig,
    ArenaError,
    add_arena_parser,
    bot_labels,
    deal_seed,
    format_report,
    mean_ci,
    play_arena,
    result_to_json,
    run_arena,
    summarize,
    wilson_interval,
)
from tarneeb.arena.cli import arena_config, main
from tarneeb.arena.progress import progress_bar
from tarneeb.arena.stats import t_quantile95
from tarneeb.bots import BOTS, Bot, Decision
from tarneeb.tournament import Ending
from tarneeb.view import View

SMALL = find_rules("classic").replace(target=11)
REQUIRE_EXTRAS = os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1"


def need(module: str, extra: str) -> None:
    """Skip without ``module``, unless TARNEEB_REQUIRE_EXTRAS=1 (then fail)."""
    if importlib.util.find_spec(module) is None:
        message = f"{module} is not installed (the {extra} extra)"
        if REQUIRE_EXTRAS:
            pytest.fail(f"{message}, and TARNEEB_REQUIRE_EXTRAS=1 insists on it")
        pytest.skip(message)


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    del data["summary"]["timing"]
    for game in data["games"]:
        if game["record"] is not None:
            game["record"].pop("written_by", None)
    return data


def cli(*argv: str) -> tuple[int, str, str]:
    """Run ``tarneeb arena ARGV`` through the standalone parser; (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        status = main(["arena", *argv])
    finally:
        sys.stdout, sys.stderr = old
    return status, out.getvalue(), err.getvalue()


# -- statistics ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "trials", "expected"),
    [
        (0, 10, (0.0, 0.277533)),
        (5, 10, (0.236593, 0.763407)),
        (10, 10, (0.722467, 1.0)),
        (81, 263, (0.255289, 0.366210)),
        (1, 1, (0.206549, 1.0)),
        (2.5, 5, (0.170424, 0.829576)),
        (0, 0, (0.0, 1.0)),
    ],
)
def test_wilson_interval_known_values(
    successes: float, trials: int, expected: tuple[float, float]
) -> None:
    lo, hi = wilson_interval(successes, trials)
    assert lo == pytest.approx(expected[0], abs=1e-6)
    assert hi == pytest.approx(expected[1], abs=1e-6)


def test_wilson_interval_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="successes=11"):
        wilson_interval(11, 10)


def test_mean_ci_student_t() -> None:
    mean, ci = mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert ci is not None
    assert ci[0] == pytest.approx(2.0 - 4.303 / math.sqrt(3))
    assert ci[1] == pytest.approx(2.0 + 4.303 / math.sqrt(3))
    assert mean_ci([4.0]) == (4.0, None)
    assert mean_ci([]) == (0.0, None)
    assert [t_quantile95(df) for df in (1, 10, 30, 40, 60, 120)] == [
        12.706,
        2.228,
        2.042,
        2.021,
        2.0,
        1.98,
    ]
    assert t_quantile95(10**9) == pytest.approx(1.96, abs=1e-3)


# -- duplicate matches --------------------------------------------------------------


def test_duplicate_pairs_deal_the_same_cards_with_the_sides_swapped() -> None:
    config = ArenaConfig(("heuristic", "heuristic:aggressive"), matches=4, rules=SMALL, seed=9)
    result = play_arena(config, workers=1)
    first, second, third, _ = result.outcomes
    assert (first.ns_label, first.ew_label) == ("heuristic", "heuristic:aggressive")
    assert (second.ns_label, second.ew_label) == ("heuristic:aggressive", "heuristic")
    assert (first.pair, second.pair, third.pair) == (0, 0, 1)
    common = min(len(first.hands), len(second.hands))
    assert common >= 1
    assert first.hands[:common] == second.hands[:common]
    assert first.dealers[:common] == second.dealers[:common]
    # The records hold the same hands as dealt, seat by seat.
    a, b = first.record, second.record
    assert a is not None and b is not None
    assert a["deals"][0]["hands"] == b["deals"][0]["hands"]
    assert a["players"] == {"S": "heuristic", "E": "heuristic:aggressive"} | {
        "N": "heuristic",
        "W": "heuristic:aggressive",
    }
    assert b["players"]["S"] == "heuristic:aggressive"
    # Another pair, other cards.
    assert third.hands[0] != first.hands[0]
    # The hands are the ones a Match of the pair's seed deals.
    assert Match(SMALL, seed=deal_seed(9, 0)).deals[0].dealt == first.hands[0]


def test_records_replay_to_the_same_match() -> None:
    config = ArenaConfig(("heuristic", "random"), matches=2, rules=SMALL, seed=4)
    for outcome in play_arena(config).outcomes:
        assert outcome.record is not None
        match = read_record(outcome.record)
        winner = match.winner
        assert winner is not None
        assert (outcome.ns_label if winner is Team.NS else outcome.ew_label) == outcome.winner


def test_same_results_with_one_or_two_workers() -> None:
    config = ArenaConfig(("heuristic", "random"), matches=6, rules=SMALL, seed=11)
    one = play_arena(config, workers=1)
    two = play_arena(config, workers=2)
    assert (one.backend, two.backend, two.workers) == ("serial", "processes", 2)
    assert without_timing(result_to_json(one)) == without_timing(result_to_json(two))
    assert [o.index for o in two.outcomes] == list(range(6))


def test_seed_decides_everything() -> None:
    config = ArenaConfig(("random", "heuristic"), matches=2, rules=SMALL, seed=1)
    again = play_arena(config)
    first = play_arena(config)
    other = play_arena(dataclasses.replace(config, seed=2))
    strip = [dataclasses.replace(o, seconds=(0.0, 0.0)) for o in first.outcomes]
    assert strip == [dataclasses.replace(o, seconds=(0.0, 0.0)) for o in again.outcomes]
    assert first.outcomes[0].hands != other.outcomes[0].hands


def test_heuristic_beats_random() -> None:
    config = ArenaConfig(("heuristic", "random"), matches=10, rules=SMALL, seed=7)
    summary = summarize(play_arena(config))
    assert summary["win_rate"] == {"heuristic": 1.0, "random": 0.0}
    assert summary["wins"] == {"heuristic": 10, "random": 0}
    assert summary["points_per_deal_diff"] > 5
    lo, hi = summary["points_per_deal_diff_ci95"]
    assert 0 < lo < summary["points_per_deal_diff"] < hi
    assert summary["win_rate_ci95"]["heuristic"] == [pytest.approx(0.722467, abs=1e-6), 1.0]


class _SpyBot(Bot):
    """Checks it is only ever asked about its own seat, then plays at random."""

    name = "spy"
    seen: list[tuple[int, int]] = []  # noqa: RUF012 - shared on purpose, across instances

    def decide(self, view: View) -> Decision:
        assert isinstance(view, View)
        assert view.to_act == view.seat
        assert len(view.hand) == view.hand_sizes[view.seat]
        self.seen.append((int(view.seat), len(view.legal_actions)))
        return Decision(view.legal_actions[self.rng.randrange(len(view.legal_actions))])


class _CheatBot(Bot):
    """Plays the two of clubs whatever is asked."""

    name = "cheat"

    def decide(self, view: View) -> Decision:
        return Decision(Card.parse("2C"))


def test_bots_see_only_their_own_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "spy", _SpyBot)
    monkeypatch.setattr(_SpyBot, "seen", [])
    config = ArenaConfig(("spy", "heuristic"), matches=2, rules=SMALL, seed=3, max_deals=3)
    result = play_arena(config)
    seats = {seat for seat, _ in _SpyBot.seen}
    assert seats == {0, 1, 2, 3}  # NS in one match, EW in the other
    assert sum(o.decisions[o.side_of("spy")] for o in result.outcomes) == len(_SpyBot.seen)


def test_a_bot_breaking_the_rules_stops_the_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "cheat", _CheatBot)
    config = ArenaConfig(("cheat", "random"), matches=2, rules=SMALL, seed=3)
    with pytest.raises(ArenaError, match=r"bot 'cheat' in seat .* of match 0 chose 2C"):
        play_arena(config)


def test_matches_are_capped_and_drawn() -> None:
    config = ArenaConfig(("random", "random"), matches=2, seed=5, max_deals=2)
    result = play_arena(config)
    assert [o.capped for o in result.outcomes] == [True, True]
    assert [o.winner for o in result.outcomes] == [None, None]
    assert [o.deals for o in result.outcomes] == [2, 2]
    summary = summarize(result)
    assert summary["bots"] == ["random#1", "random#2"]
    assert summary["win_rate"] == {"random#1": 0.5, "random#2": 0.5}
    assert summary["draws"] == summary["capped"] == 2
    assert summary["points_per_deal_diff_ci95"] is None  # one pair: no interval


def test_config_checks() -> None:
    assert bot_labels(["a", "b", "a"]) == ("a#1", "b", "a#2")
    with pytest.raises(ArenaError, match="even number"):
        ArenaConfig(("random", "random"), matches=3)
    with pytest.raises(ArenaError, match="two bots, not 3"):
        ArenaConfig(("random", "random", "heuristic"))
    with pytest.raises(ArenaError, match="at least two bots"):
        ArenaConfig(("random",), format="king")
    with pytest.raises(ArenaError, match="no format 'league'"):
        ArenaConfig(("random", "random"), format="league")
    assert ArenaConfig((" Heuristic ", "random")).bots == ("heuristic", "random")


# -- formats ------------------------------------------------------------------------


def test_format_sets(tmp_path: Path) -> None:
    path = tmp_path / "sets.json"
    status, out, err = cli(
        "--bots", "heuristic,heuristic:aggressive", "--matches", "2", "--format", "sets",
        "-o", "sets=2", "-o", "target=11", "--seed", "6", "--workers", "1",
        "--json", str(path),
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert "matches of 2 sets" in out
    data = json.loads(path.read_text())
    assert data["config"]["rules"]["sets"] == 2
    assert data["config"]["format"] == "sets"
    assert data["summary"]["max_deals"] == 400  # 200 deals a set
    sets_won = data["summary"]["sets_won"]
    assert sum(sets_won.values()) >= 2 * 2  # each finished match played at least 2 sets
    for game in data["games"]:
        result = game["record"]["result"]
        assert result["over"] and len(result["sets"]) == 2
        points = [sum(s["team_scores"][t] for s in result["sets"]) for t in (0, 1)]
        if points[0] != points[1]:
            assert game["winner"] == (game["ns"] if points[0] > points[1] else game["ew"])


def test_format_sets_defaults_to_thirteen_sets() -> None:
    parser = argparse.ArgumentParser()
    add_arena_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["arena", "--bots", "random,random", "--format", "sets"])
    config = arena_config(args)
    assert (config.rules.sets, config.max_deals, config.format) == (13, 2600, "sets")
    args = parser.parse_args(
        ["arena", "--bots", "random,random", "--format", "sets", "--rules", "levant-sets"]
    )
    assert arena_config(args).rules == find_rules("levant-sets")


def test_format_king_follows_the_queue_of_seed_002() -> None:
    """«In een toernooi wordt aan het eind van een set het verliezende team vervangen
    voor de volgende set.» (seed 002): each bot is a pair, each set one match; the
    loser goes to the back of the queue and the next pair takes its seats."""
    bots = ("heuristic", "random", "heuristic:cautious", "random", "heuristic:aggressive")
    config = ArenaConfig(bots, matches=7, rules=SMALL, seed=8, format="king")
    result = play_arena(config, workers=2)
    assert (result.backend, result.workers) == ("serial", 1)  # one set after the other
    table = result.tournament
    assert table is not None and table.is_over() and len(table.played) == 7
    labels = config.labels
    assert table.pairs == labels
    # The queue as the seed says, worked out here independently of the type.
    ns, ew, queue = labels[0], labels[1], deque(labels[2:])
    for n, (pairing, played, outcome) in enumerate(
        zip(table.pairings, table.played, result.outcomes, strict=True)
    ):
        assert (pairing.ns, pairing.ew) == (played.ns, played.ew) == (ns, ew)
        assert (outcome.ns_label, outcome.ew_label, outcome.index, outcome.pair) == (ns, ew, n, n)
        assert pairing.holder == (None if n == 0 else table.played[n - 1].winner)
        assert outcome.winner == played.winner and not outcome.capped
        assert played.scores == outcome.final_scores
        # Each set is one set of the rules, dealt from the set's own seed.
        assert outcome.record is not None and outcome.record["rules"]["sets"] == 1
        assert Match(SMALL, seed=deal_seed(8, n)).deals[0].dealt == outcome.hands[0]
        queue.append(played.loser)
        if played.loser == ns:
            ns = queue.popleft()
        else:
            ew = queue.popleft()
    summary = summarize(result)
    assert summary["matches"] == 7 and summary["format"] == "king"
    assert summary["standings"] == [line.to_dict() for line in table.standings()]
    assert sum(r["played"] for r in summary["standings"]) == 2 * 7
    assert sum(r["won"] for r in summary["standings"]) == 7
    assert summary["champion"] == table.winner == summary["standings"][0]["pair"]
    assert summary["king"] == table.played[-1].winner
    assert summary["ended_by"] == "sets"
    assert [(r["number"], r["ns"], r["ew"], r["winner"]) for r in summary["sets"]] == [
        (p.number, p.ns, p.ew, p.winner) for p in table.played
    ]
    assert summary["points_per_deal_diff"] is None  # not duplicate: no luck cancelled
    assert "pairs" not in summary and "sets_won" not in summary


def test_format_king_with_two_bots_and_a_streak() -> None:
    config = ArenaConfig(
        ("heuristic", "random"), matches=10, rules=SMALL, seed=2, format="king", streak=2
    )
    result = play_arena(config)
    table = result.tournament
    assert table is not None and table.ending is Ending.STREAK
    assert len(result.outcomes) == len(table.played) < 10
    assert table.played[-1].winner == table.played[-2].winner == table.winner
    summary = summarize(result)
    assert (summary["ended_by"], summary["matches"]) == ("streak", len(table.played))
    # Two bots: still not duplicate, so no points-per-deal difference.
    assert summary["points_per_deal_diff"] is None and "pair_results" not in summary


def test_format_king_a_set_stopped_at_the_cap_goes_to_the_pair_ahead() -> None:
    config = ArenaConfig(
        ("random", "random", "random"), matches=6, rules=SMALL, seed=5, format="king", max_deals=1
    )
    result = play_arena(config)
    table = result.tournament
    assert table is not None and len(table.played) == 6
    for pairing, played, outcome in zip(table.pairings, table.played, result.outcomes, strict=True):
        assert outcome.capped and outcome.winner is None
        ns, ew = played.scores
        expected = {True: pairing.ns, False: pairing.ew}[ns > ew] if ns != ew else None
        if expected is None:
            expected = pairing.holder if pairing.holder is not None else pairing.ns
        assert played.winner == expected
    assert all(row["capped"] for row in summarize(result)["sets"])
    assert "stopped at the deal cap" in format_report(result)


def test_format_king_plays_one_set_of_a_match_of_sets() -> None:
    parser = argparse.ArgumentParser()
    add_arena_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        ["arena", "--bots", "heuristic,random", "--format", "king", "--rules", "levant-sets"]
    )
    config = arena_config(args)
    levant = find_rules("levant-sets")
    # The seed's 13 sets, each one set to 41: the deal cap is one set's.
    assert (config.matches, config.max_deals, config.rules, config.streak) == (
        13,
        200,
        levant,
        None,
    )
    config = dataclasses.replace(config, matches=2, keep_records=True)
    result = play_arena(config)
    for outcome in result.outcomes:
        assert outcome.record is not None
        assert read_record(outcome.record).rules == levant.replace(sets=1)
        assert len(outcome.record["result"]["sets"]) == 1 and not outcome.capped
    assert result_to_json(result)["config"]["rules"]["sets"] == 13


def king_cli(*argv: str) -> tuple[int, str, str]:
    """``tarneeb arena`` of four sets of king of the table between three cheap bots, to 11."""
    return cli(
        "--bots", "heuristic,random,heuristic:cautious", "--format", "king", "--matches", "4",
        "--seed", "3", "-o", "target=11", *argv,
    )  # fmt: skip


def test_format_king_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "king.json"
    status, out, err = king_cli("--workers", "2", "--json", str(path))
    assert (status, err) == (0, "")
    data = json.loads(path.read_text())
    summary = data["summary"]
    for key in ("bots", "matches", "win_rate", "win_rate_ci95", "points_per_deal_diff"):
        assert key in summary
    table = KingOfTheTable.from_dict(data["tournament"])
    assert summary["standings"] == [line.to_dict() for line in table.standings()]
    assert (table.sets, table.streak, len(table.played)) == (4, None, 4)
    assert [g["ns"] for g in data["games"]] == [p.ns for p in table.played]
    assert out.startswith(
        "arena: heuristic, random, heuristic:cautious: king of the table, 4 sets "
        "(one match a set, not duplicate)\n"
    )
    assert f"king of the table: {table.winner} won, after 4 sets (all its sets played)" in out
    for line in table.standings():
        assert f"  {line.rank:>4}  {line.pair:<18}  {line.played:>6} {line.won:>4}" in out
    assert "sets, in order (* the pair that held the table)" in out
    second = table.played[1]
    holder = table.played[0].winner
    ns = second.ns + ("*" if holder == second.ns else "")
    assert f"    2  {ns:<19}" in out
    assert "match wins" not in out


def test_format_king_checks() -> None:
    assert ArenaConfig(("random", "random"), matches=1, format="king").matches == 1
    with pytest.raises(ArenaError, match="at least 1 set"):
        ArenaConfig(("random", "random"), matches=0, format="king")
    with pytest.raises(ArenaError, match="streak=0"):
        ArenaConfig(("random", "random"), format="king", streak=0)
    with pytest.raises(ArenaError, match="king of the table only"):
        ArenaConfig(("random", "random"), streak=3)
    status, out, err = cli("--bots", "random,random", "--streak", "2")
    assert (status, out) == (2, "")
    assert err == "tarneeb: error: --streak ends king of the table only (--format king)\n"
    status, _, err = cli("--bots", "random,random", "--format", "king", "--matches", "0")
    assert status == 2 and "at least 1 set" in err


# -- the command line and the JSON file ---------------------------------------------


def test_json_file_contract(tmp_path: Path) -> None:
    path = tmp_path / "arena.json"
    status, out, err = cli(
        "--bots", "heuristic,random", "--matches", "4", "--seed", "2", "--workers", "1",
        "-o", "target=11", "--json", str(path),
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert "match wins" in out and "points per deal" in out and "time per decision" in out
    assert f"written to {path}" in out
    data = json.loads(path.read_text())
    summary = data["summary"]
    assert summary["bots"] == ["heuristic", "random"]
    assert summary["matches"] == 4
    assert summary["pairs"] == 2
    assert "duplicate pair is two" in summary["matches_counted"]
    assert set(summary["win_rate"]) == {"heuristic", "random"}
    assert summary["win_rate"]["heuristic"] + summary["win_rate"]["random"] == 1.0
    for label in ("heuristic", "random"):
        lo, hi = summary["win_rate_ci95"][label]
        assert 0.0 <= lo <= summary["win_rate"][label] <= hi <= 1.0
    assert isinstance(summary["points_per_deal_diff"], float)
    lo, hi = summary["points_per_deal_diff_ci95"]
    assert lo <= summary["points_per_deal_diff"] <= hi
    assert set(summary["contracts"]) == {"heuristic", "random"}
    assert set(summary["timing"]["decision_us"]) == {"heuristic", "random"}
    assert data["config"]["seed"] == 2
    assert data["config"]["rules"] == SMALL.to_dict()
    assert len(data["games"]) == 4
    for game in data["games"]:
        assert game["record"]["format"] == "tarneeb-match"
        assert read_record(game["record"]).rules == SMALL


def test_hooks_into_a_plain_argparse() -> None:
    parser = argparse.ArgumentParser(prog="tarneeb")
    commands = parser.add_subparsers(dest="command")
    add_arena_parser(commands)
    args = parser.parse_args(
        ["arena", "--bots", "heuristic,random", "--matches", "2", "--workers", "1",
         "--option", "target=5", "--seed", "1", "--no-progress"]
    )  # fmt: skip
    assert args.command == "arena"
    assert run_arena(args) == 0


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--bots", "heuristic,oracle"], "no bot named 'oracle' (the bots: random, heuristic"),
        (["--bots", "heuristic:wild,random"], "has no option 'wild' (its options: aggressive"),
        (["--bots", "heuristic,random", "--rules", "bridge"], "the presets are: classic, "),
        (
            ["--bots", "heuristic,random", "-o", "tgt=3"],
            "unknown rule option 'tgt' (did you mean 'target'? the options: ",
        ),
        (["--bots", "heuristic,random", "-o", "target"], "--option expects OPTION=VALUE"),
        (["--bots", "heuristic,random", "-o", "target=0"], "target=0"),
        (["--bots", "heuristic,random", "--format", "league"], "choose from 'match', 'sets'"),
        (["--bots", "heuristic,random", "--matches", "3"], "even number"),
        (["--bots", "heuristic,random", "--workers", "0"], "--workers 0"),
        (["--bots", "heuristic,,random"], "--bots expects names"),
        (["--bots", "heuristic,random", "--json", "/no/such/dir/x.json"], "no folder"),
        (["--matches", "2"], "required: --bots"),
    ],
)
def test_bad_input_is_one_line_and_status_2(argv: list[str], expected: str) -> None:
    status, out, err = cli(*argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("tarneeb: error: ")
    assert expected in err


def test_an_output_that_cannot_be_written_is_refused_before_any_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--json /proc/x.json`` (or a folder) passed the check (its folder is there), the
    arena played every match, and only then failed: "tarneeb: error: [Errno 2] No such
    file or directory: '/proc/x.json'", hours of play without their records."""

    def no_play(*args: object, **kwargs: object) -> None:
        raise AssertionError("played before the outputs were checked")

    monkeypatch.setattr(arena_cli, "play_arena", no_play)
    for flag in ("--json", "--plot"):
        status, out, err = cli("--bots", "heuristic,random", flag, str(tmp_path))
        assert (status, out) == (2, "")
        assert err == f"tarneeb: error: {flag} {tmp_path}: cannot write it (Is a directory)\n"
    fresh = tmp_path / "results.json"
    monkeypatch.undo()
    cli("--bots", "random,random", "--matches", "2", "--json", str(fresh), "--workers", "1")
    assert fresh.is_file() and fresh.stat().st_size > 0


def test_unknown_option_lists_every_option() -> None:
    _, _, err = cli("--bots", "heuristic,random", "-o", "tgt=3")
    for name in Rules.option_names():
        assert name in err


def test_no_progress_bar_off_a_terminal() -> None:
    with progress_bar(3, ("a", "b")) as done:
        assert done is None  # pytest's stderr is not a terminal


def test_progress_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    need("rich", "arena")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    config = ArenaConfig(("heuristic", "random"), matches=2, rules=SMALL, seed=1)
    with progress_bar(2, config.labels) as done:
        assert done is not None
        play_arena(config, done=done)
    assert "arena" in screen.getvalue()
    with progress_bar(2, config.labels, enabled=False) as done:
        assert done is None


def test_plot(tmp_path: Path) -> None:
    need("matplotlib", "plot")
    path = tmp_path / "scores.png"
    status, out, err = cli(
        "--bots", "heuristic,random", "--matches", "4", "--seed", "3", "--workers", "1",
        "-o", "target=11", "--plot", str(path),
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot written to {path}" in out


def test_plot_format_is_checked_before_any_match_is_played(tmp_path: Path) -> None:
    """Issue 20: `--plot x.txt` played every match, then died in matplotlib."""
    need("matplotlib", "plot")
    path = tmp_path / "x.txt"
    status, out, err = cli(
        "--bots", "heuristic,random", "--matches", "2", "--workers", "1", "-o", "target=11",
        "--plot", str(path),
    )  # fmt: skip
    assert status == 2 and out == ""
    assert err.startswith(f"tarneeb: error: --plot {path}: matplotlib cannot write .txt files")
    assert ".png" in err and "Traceback" not in err and not path.exists()


def test_plot_without_an_extension_names_the_file_it_wrote(tmp_path: Path) -> None:
    """Issue 20: `--plot noext` reported a name it did not write."""
    need("matplotlib", "plot")
    path = tmp_path / "noext"
    status, out, err = cli(
        "--bots", "heuristic,random", "--matches", "2", "--seed", "3", "--workers", "1",
        "-o", "target=11", "--plot", str(path),
    )  # fmt: skip
    assert (status, err) == (0, "")
    written = tmp_path / "noext.png"
    assert f"plot written to {written}" in out
    assert written.read_bytes()[:4] == b"\x89PNG" and not path.exists()


def test_plot_king(tmp_path: Path) -> None:
    need("matplotlib", "plot")
    path = tmp_path / "king.png"
    status, _, err = king_cli("--workers", "1", "--plot", str(path))
    assert (status, err) == (0, "")
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_ray_local_gives_the_same_results() -> None:
    need("ray", "ray")
    config = ArenaConfig(("heuristic", "random"), matches=4, rules=SMALL, seed=12)
    on_ray = play_arena(config, workers=2, ray_address="local")
    here = play_arena(config, workers=1)
    assert on_ray.backend == "ray"
    assert without_timing(result_to_json(on_ray)) == without_timing(result_to_json(here))


def test_bots_bench_runs() -> None:
    done = run_python("bench/bots.py", "--seconds", "0.05", "--matches", "4", timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) >= 2
    figures = json.loads(lines[-1])
    assert figures["bench"] == "bots"
    assert set(figures["decisions_per_s"]) >= {"random", "heuristic"}
    assert set(figures["arena_deals_per_s"]) == {"1", "2"}
    assert all(v > 0 for v in figures["decisions_per_s"].values())
    assert all(v > 0 for v in figures["arena_deals_per_s"].values())


def test_double_dummy_losses_count_each_sides_costly_cards() -> None:
    from tarneeb.actions import Phase
    from tarneeb.deal import Deal
    from tarneeb.solver.position import Position
    from tarneeb.solver.solve import solve

    config = ArenaConfig(("heuristic", "random"), matches=2, rules=SMALL, seed=5, double_dummy=True)
    result = play_arena(config)
    for outcome in result.outcomes:
        assert outcome.record is not None
        match = read_record(outcome.record)
        lost = [0, 0]
        played = 0
        for deal in match.deals:
            if not deal.tricks:
                continue
            played += 1
            replay = Deal(deal.rules, deal.dealer, deal.dealt, deal.scores)
            for action in deal.action_ids:
                if replay.phase is Phase.PLAY and action < 52:
                    solution = solve(Position.from_deal(replay))
                    lost[replay.to_act & 1] += solution.tricks - solution.values[Card(action)]
                replay.push_unchecked(action)
        assert outcome.dd_deals == played > 0
        assert outcome.dd_lost == (lost[0], lost[1])
    summary = summarize(result)
    for label in ("heuristic", "random"):
        lost_by = sum(o.dd_lost[o.side_of(label)] for o in result.outcomes)
        deals = sum(o.dd_deals for o in result.outcomes)
        assert summary["dd_tricks_lost_per_deal"][label] == pytest.approx(lost_by / deals)
    # Random cards throw tricks away; the heuristic's far fewer.
    per_deal = summary["dd_tricks_lost_per_deal"]
    assert per_deal["random"] > per_deal["heuristic"]
    assert "tricks lost against double-dummy play" in format_report(result, summary)


def test_double_dummy_is_off_unless_asked() -> None:
    result = play_arena(ArenaConfig(("heuristic", "random"), matches=2, rules=SMALL, seed=5))
    assert all(o.dd_deals == 0 and o.dd_lost == (0, 0) for o in result.outcomes)
    assert "dd_tricks_lost_per_deal" not in summarize(result)
