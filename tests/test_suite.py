"""The partnership suite (tests/data/partnership, tarneeb.bots.suite): sound positions, scored.

Every position loads from its deal line, has the seat to act and legal
accepted actions, covers the principles issue 21 names, and is sound: where
the principle is about tricks, double-dummy play on the actual layout gives
every accepted card the most tricks and every card the principle rejects
fewer; where it is about the score, the evidence (the chance of winning the
set with each action, over layouts the seat cannot tell apart) puts the
accepted actions on top. The heuristic bot scores at least the bar.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarneeb.actions import format_action
from tarneeb.bots import HeuristicBot, RandomBot
from tarneeb.bots.suite import (
    PRINCIPLES,
    SUITE_DIR,
    SuitePosition,
    load_suite,
    score_bot,
)
from tarneeb.errors import RecordError
from tarneeb.solver import Position, dds, solve_many

SUITE = load_suite()
HEURISTIC_BAR = 0.75


def test_the_suite_has_at_least_60_positions_covering_every_principle() -> None:
    assert len(SUITE) >= 60
    counts = {p: sum(1 for s in SUITE if s.principle == p) for p in PRINCIPLES}
    assert all(n >= 1 for n in counts.values()), counts  # play-safe has one position so far


@pytest.mark.parametrize("position", SUITE, ids=lambda p: p.name)
def test_every_position_is_legal_and_explained(position: SuitePosition) -> None:
    deal = position.deal()
    assert deal.to_act is not None
    legal = {format_action(a) for a in deal.legal_actions}
    assert set(position.accept) <= legal and len(legal) > len(position.accept)
    assert len(position.why) > 30 and position.source
    view = position.view()
    assert view.seat == deal.to_act and view.legal_actions == tuple(deal.legal_actions)


def _dd_positions() -> list[SuitePosition]:
    return [p for p in SUITE if p.check.get("kind") == "double-dummy"]


def test_trick_positions_are_sound_double_dummy() -> None:
    if not dds.available():
        pytest.skip("endplay (DDS) is not installed (the solver extra)")
    positions = _dd_positions()
    assert len(positions) >= 40
    solutions = solve_many([Position.from_deal(p.deal()) for p in positions])
    for position, solution in zip(positions, solutions, strict=True):
        values = {format_action(c): v for c, v in solution.values.items()}
        top = max(values.values())
        assert all(values[a] == top for a in position.accept), position.name
        rejected = position.check["rejected_by_principle"]
        assert rejected and all(values[r] < top for r in rejected), position.name
        assert not set(rejected) & set(position.accept)
        assert values == position.check["actual"], position.name  # the evidence is true


def test_score_positions_put_the_accepted_actions_on_top() -> None:
    positions = [p for p in SUITE if p.check.get("kind") == "set-chance"]
    assert {p.principle for p in positions} == {"play-safe", "take-risk", "bid-to-score"}
    for position in positions:
        chance = position.check["win_set"]
        top = max(chance.values())
        assert all(chance[a] >= top - 0.05 for a in position.accept), position.name
        assert position.check["layouts"] >= 60, position.name  # confirmed on many layouts
        assert min(chance.values()) <= top - 0.05, position.name  # the choice matters
        assert position.deal().scores != (0, 0, 0, 0)  # the score is what decides


def test_the_heuristic_bot_scores_at_least_the_bar() -> None:
    result = score_bot("heuristic", SUITE)
    assert result.score >= HEURISTIC_BAR, result.failed


def test_random_play_scores_well_below_the_heuristic() -> None:
    random_score = score_bot("random", SUITE).score
    assert random_score < score_bot(HeuristicBot(), SUITE).score - 0.2


def test_score_bot_takes_a_bot_a_factory_or_a_name_and_repeats_with_a_seed() -> None:
    first = score_bot("random", SUITE, seed=3)
    assert first == score_bot("random", SUITE, seed=3)
    import random

    made = score_bot(lambda seed: RandomBot(random.Random(seed)), SUITE, seed=3)
    assert made.passed == first.passed
    assert sum(n for _, n in first.by_principle.values()) == len(SUITE)


def test_a_bad_position_file_is_a_record_error(tmp_path: Path) -> None:
    good = json.loads(next(SUITE_DIR.glob("*.json")).read_text(encoding="utf-8"))
    cases = {
        "missing": {k: v for k, v in good.items() if k != "accept"},
        "illegal": {**good, "accept": ["pass" if "," in good["deal"] else "AS"]},
        "principle": {**good, "principle": "luck"},
        "deal": {**good, "deal": "tarneeb-deal/1 rules=classic dealer=Q"},
    }
    for name, data in cases.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "x.json").write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(RecordError):
            load_suite(folder)
    with pytest.raises(RecordError):
        load_suite(tmp_path / "empty")
