"""The arena: duplicate matches, statistics, determinism, the JSON file, the command line."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import io
import itertools
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from support import run_python
from tarneeb import Card, Match, Rules, Team, find_rules, read_record
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
from tarneeb.arena.run import MatchOutcome, _bout_winner
from tarneeb.arena.stats import t_quantile95
from tarneeb.bots import BOTS, Bot, Decision
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


def test_format_king() -> None:
    config = ArenaConfig(
        ("heuristic", "random", "heuristic:cautious"), matches=6, rules=SMALL, seed=8, format="king"
    )
    result = play_arena(config, workers=1)
    bouts = result.bouts
    assert [b.number for b in bouts] == [1, 2, 3]
    assert (bouts[0].champion, bouts[0].challenger) == ("heuristic", "random")
    for before, after in itertools.pairwise(bouts):
        assert after.champion == before.winner
    # The loser of bout 1 queues behind heuristic:cautious.
    assert bouts[1].challenger == "heuristic:cautious"
    assert bouts[2].challenger == bouts[0].loser
    assert [(o.pair, o.index) for o in result.outcomes] == [(i // 2, i) for i in range(6)]
    summary = summarize(result)
    rows = summary["standings"]
    assert sorted(r["bot"] for r in rows) == sorted(config.labels)
    assert sum(r["bouts"] for r in rows) == 2 * 3
    assert sum(r["bouts_won"] for r in rows) == 3
    assert sum(r["matches"] for r in rows) == 2 * 6
    assert rows[0]["bouts_won"] == max(r["bouts_won"] for r in rows)
    assert summary["champion"] == bouts[-1].winner
    assert summary["points_per_deal_diff"] is None  # only defined for two bots
    random_row = next(r for r in rows if r["bot"] == "random")
    assert random_row["wins"] == 0


def _outcome(pair: int, ns: str, ew: str, winner: str | None, points: tuple[int, int]) -> Any:
    return MatchOutcome(
        index=0, pair=pair, ns_label=ns, ew_label=ew, winner=winner, capped=winner is None,
        deals=1, scored_deals=1, points=points, final_scores=points, sets_won=(0, 0),
        contracts=(), decisions=(0, 0), seconds=(0.0, 0.0), hands=(), dealers=(),
    )  # fmt: skip


def test_king_bout_ties_go_to_points_then_to_the_champion() -> None:
    split = [_outcome(0, "a", "b", "a", (10, 4)), _outcome(0, "b", "a", "b", (12, 3))]
    bout = _bout_winner("a", "b", split)
    assert (bout.wins, bout.margin, bout.winner, bout.loser) == ((1, 1), -3, "b", "a")
    even = [_outcome(0, "a", "b", None, (5, 5)), _outcome(0, "b", "a", None, (2, 2))]
    assert _bout_winner("a", "b", even).winner == "a"
    swept = [_outcome(0, "a", "b", "b", (12, 13)), _outcome(0, "b", "a", "b", (0, 40))]
    assert _bout_winner("a", "b", swept).winner == "b"  # matches won come before points


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


def test_plot_king(tmp_path: Path) -> None:
    need("matplotlib", "plot")
    path = tmp_path / "king.png"
    status, _, err = cli(
        "--bots", "heuristic,random,random", "--matches", "4", "--format", "king",
        "--seed", "3", "--workers", "1", "-o", "target=11", "--plot", str(path),
    )  # fmt: skip
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
