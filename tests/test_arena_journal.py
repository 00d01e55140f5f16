"""The arena's journal (``--journal``): a long run stopped goes on where it was.

A run of 400 search-bot matches takes hours on two cores; it is written
down match by match, and the same command again plays only what is left
and reports on all of it, as one uninterrupted run would.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tarneeb import Deal, Phase, Rules, Seat
from tarneeb.arena import ArenaConfig, ArenaError, play_arena, summarize
from tarneeb.arena.journal import Journal, outcome_from_json, outcome_to_json
from test_arena import cli

QUICK = Rules(target=11)


def _config(matches: int, seed: int = 11, **changes: object) -> ArenaConfig:
    return ArenaConfig(("heuristic", "random"), matches=matches, rules=QUICK, seed=seed, **changes)  # type: ignore[arg-type]


def _played(outcomes: list) -> list:  # type: ignore[type-arg]
    """What a match was, without the time its decisions took (which differs run to run)."""
    return [dataclasses.replace(o, seconds=(0.0, 0.0)) for o in outcomes]


def test_a_run_in_two_parts_is_the_run_in_one(tmp_path: Path) -> None:
    whole = play_arena(_config(8))
    path = tmp_path / "run.jsonl"
    first = play_arena(_config(4), journal=Journal.open(path, _config(4)))
    assert len(first.outcomes) == 4
    # --matches grows: the four journaled are not played again, the next four are
    played: list[int] = []
    rest = play_arena(
        _config(8), journal=Journal.open(path, _config(8)), done=lambda o: played.append(o.index)
    )
    assert sorted(played) == list(range(8))  # the progress hears all eight
    assert _played(rest.outcomes) == _played(whole.outcomes)
    assert summarize(rest)["wins"] == summarize(whole)["wins"]
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 8 and json.loads(lines[0])["journal"] == 1


def test_nothing_is_played_again_when_the_journal_has_it_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "run.jsonl"
    play_arena(_config(4), journal=Journal.open(path, _config(4)))
    import tarneeb.arena.run as run

    def refuse(task: object) -> None:
        raise AssertionError(f"played again: {task}")

    monkeypatch.setattr(run, "play_task", refuse)
    again = play_arena(_config(4), journal=Journal.open(path, _config(4)))
    assert [o.index for o in again.outcomes] == [0, 1, 2, 3]


def test_a_line_cut_short_by_a_kill_is_played_again(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    play_arena(_config(4), journal=Journal.open(path, _config(4)))
    text = path.read_bytes()
    cut = text[: text.rindex(b"\n", 0, len(text) - 1) + 40]  # the last line half written
    path.write_bytes(cut)
    journal = Journal.open(path, _config(4))
    assert sorted(journal.done) == [0, 1, 2]
    again = play_arena(_config(4), journal=journal)
    assert _played(again.outcomes) == _played(play_arena(_config(4)).outcomes)
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_a_journal_of_another_run_is_refused_naming_what_differs(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    play_arena(_config(2), journal=Journal.open(path, _config(2)))
    with pytest.raises(ArenaError, match=r"another run \(seed=11\)"):
        Journal.open(path, _config(2, seed=12))
    with pytest.raises(ArenaError, match="max_deals"):
        Journal.open(path, _config(2, max_deals=5))
    path.write_text('{"not": "a journal"}\n')
    with pytest.raises(ArenaError, match="not an arena journal"):
        Journal.open(path, _config(2))
    king = ArenaConfig(("random", "heuristic"), matches=3, format="king", seed=1)
    with pytest.raises(ArenaError, match="match and sets formats"):
        Journal.open(tmp_path / "king.jsonl", king)


def test_outcomes_round_trip_with_their_double_dummy_figures() -> None:
    config = ArenaConfig(
        ("heuristic", "random"), matches=2, rules=Rules(target=1), seed=3, double_dummy=True
    )
    for outcome in play_arena(config).outcomes:
        assert outcome.dd_play
        again = outcome_from_json(json.loads(json.dumps(outcome_to_json(outcome))))
        assert again == outcome
        # Journals written before the partner figures load, with none counted.
        new = ("partner_winning", "over_partner", "over_partner_costly")
        data = outcome_to_json(outcome)
        data["dd_play"] = [{k: v for k, v in p.items() if k not in new} for p in data["dd_play"]]
        before = outcome_from_json(json.loads(json.dumps(data)))
        assert [p.lost for p in before.dd_play] == [p.lost for p in outcome.dd_play]
        assert all(p.partner_winning == p.over_partner == (0, 0) for p in before.dd_play)
    with pytest.raises(ArenaError, match="unknown fields"):
        outcome_from_json({**outcome_to_json(outcome), "extra": 1})


def test_each_deal_s_calls_are_kept_and_replay_to_its_contract() -> None:
    """The journals said how each contract ended (side, level, made) but not how the
    auction went, so two versions of a bot could not be told apart call by call; each
    deal's calls are kept now, and journals written before load without them."""
    outcomes = play_arena(_config(4)).outcomes
    for outcome in outcomes:
        assert len(outcome.auctions) == len(outcome.hands) == outcome.deals
        contracts = iter(outcome.contracts)
        for hands, dealer, calls in zip(
            outcome.hands, outcome.dealers, outcome.auctions, strict=True
        ):
            deal = Deal(QUICK, Seat(dealer), hands)
            for call in calls.split():
                deal.push(call)
            assert deal.phase in (Phase.PLAY, Phase.THROWN_IN), (calls, deal.phase)
            if deal.contract is not None:
                side, level, _made = next(contracts)
                assert (int(deal.contract.team), deal.contract.level) == (side, level)
        assert next(contracts, None) is None
        again = outcome_from_json(json.loads(json.dumps(outcome_to_json(outcome))))
        assert again == outcome
        before = {k: v for k, v in outcome_to_json(outcome).items() if k != "auctions"}
        assert outcome_from_json(before).auctions == ()


def test_the_command_goes_on_with_the_journals_seed(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    base = ("--bots", "heuristic,random", "-o", "target=11", "--workers", "1", "--no-progress")
    status, out, err = cli(*base, "--matches", "2", "--journal", str(path))
    assert status == 0, err
    seed = json.loads(path.read_text().splitlines()[0])["run"]["seed"]
    status, out, err = cli(*base, "--matches", "4", "--journal", str(path))
    assert status == 0, err
    assert f"seed {seed}" in out  # no --seed: the journal's
    assert len(path.read_text().splitlines()) == 1 + 4
    # the timing is this run's: its own two matches' deals, the journal's said apart
    assert "2 matches (" in out and "from the journal" in out and "played now" in out
    # all from the journal: no rate over deals this run did not play (it said
    # "0.0 s ... 52708441 deals/s" for a 400-match journal)
    status, out, err = cli(*base, "--matches", "4", "--journal", str(path))
    assert status == 0, err
    assert "4 matches (" in out and "nothing left to play" in out and "deals/s" not in out
    # another seed is another run: one line, no traceback
    status, out, err = cli(*base, "--matches", "4", "--seed", "5", "--journal", str(path))
    assert status == 2 and err.startswith("tarneeb: error: journal") and "seed=" in err
    status, out, err = cli(*base, "--journal", str(tmp_path / "no" / "run.jsonl"))
    assert status == 2 and "no folder" in err


def _journal(path: Path, bots: tuple[str, str], matches: int = 6, seed: int = 11) -> list:  # type: ignore[type-arg]
    config = ArenaConfig(bots, matches=matches, rules=QUICK, seed=seed)
    return play_arena(config, journal=Journal.open(path, config)).outcomes


def test_the_journals_bench_compares_two_versions_on_the_same_deals(tmp_path: Path) -> None:
    """``bench/journals.py NEW OLD``: match i of each was dealt the same cards, so the
    matches that changed hands and the points a deal are compared match by match."""
    from support import run_python

    new = _journal(tmp_path / "new.jsonl", ("heuristic", "random"))
    old = _journal(tmp_path / "old.jsonl", ("easy", "random"), matches=4)  # 2 pairs in common
    assert [o.hands for o in new[:4]] == [o.hands for o in old]  # dealt alike
    done = run_python("bench/journals.py", str(tmp_path / "new.jsonl"), str(tmp_path / "old.jsonl"))
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["matches"] == 4
    won_new = sum(o.winner == "heuristic" for o in new[:4])
    won_old = sum(o.winner == "easy" for o in old)
    assert (figures["new_won"], figures["old_won"]) == (won_new, won_old)
    changed = [
        (o.winner == "heuristic") - (p.winner == "easy") for o, p in zip(new[:4], old, strict=True)
    ]
    assert figures["turned_to_wins"] == changed.count(1)
    assert figures["turned_to_losses"] == changed.count(-1)

    def per_deal(o, bot: str) -> float:  # type: ignore[no-untyped-def]
        side = 0 if o.ns_label == bot else 1
        return (o.points[side] - o.points[1 - side]) / o.deals

    mean = (
        sum(
            per_deal(o, "heuristic") - per_deal(p, "easy")
            for o, p in zip(new[:4], old, strict=True)
        )
        / 4
    )
    assert figures["difference_per_deal"] == pytest.approx(mean, abs=0.006)  # rounded to 0.01
    for who, journal, bot in (("new", new[:4], "heuristic"), ("old", old, "easy")):
        levels: dict[str, list[int]] = {}
        for o in journal:
            side = 0 if o.ns_label == bot else 1
            for declarers, level, made in o.contracts:
                if declarers == side:
                    row = levels.setdefault(str(level), [0, 0])
                    row[0] += 1
                    row[1] += made
        assert figures[f"{who}_contracts"]["bot_by_level"] == levels
        assert sum(b for b, _m in levels.values()) == figures[f"{who}_contracts"]["bot"][0]
    firsts = [(o.auctions[0], p.auctions[0]) for o, p in zip(new[:4], old, strict=True)]
    assert figures["first_deals_compared"] == 4
    assert figures["first_deals_differ"] == sum(a != b for a, b in firsts)
    shown = [(e["new"], e["old"]) for e in figures["first_deals_examples"]]
    assert shown == [(a, b) for a, b in firsts if a != b][:3]
    assert "matches that changed hands" in done.stdout


def test_the_journals_bench_refuses_journals_not_dealt_alike(tmp_path: Path) -> None:
    from support import run_python

    _journal(tmp_path / "a.jsonl", ("heuristic", "random"), matches=2, seed=1)
    _journal(tmp_path / "b.jsonl", ("easy", "random"), matches=2, seed=2)
    (tmp_path / "c.jsonl").write_text("not json\n")
    for other, message in (
        ("b.jsonl", "differ in their seed"),
        ("c.jsonl", "not an arena journal"),
    ):
        done = run_python("bench/journals.py", str(tmp_path / "a.jsonl"), str(tmp_path / other))
        assert done.returncode == 2
        assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
