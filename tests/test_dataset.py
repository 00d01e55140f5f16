"""``tarneeb dataset``: Parquet rows, one a decision, read back with pyarrow and pandas."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarneeb import Deal, find_rules
from tarneeb.cli import main
from tarneeb.dataset import COLUMNS, write_dataset
from test_env import need


@pytest.fixture
def libs() -> None:
    need("numpy", extra="dataset")
    need("pyarrow", extra="dataset")
    need("pandas", extra="dataset")


def test_rows_replay_to_the_same_observations_masks_and_outcomes(
    libs: None, tmp_path: Path
) -> None:
    import json

    import pandas as pd
    import pyarrow.parquet as pq

    from tarneeb.env.encoding import OBS_SIZE, ActionMap, encode_view
    from tarneeb.rules import Rules

    rules = find_rules("egyptian")
    path = tmp_path / "games.parquet"
    stats = write_dataset(path, ["heuristic", "random"], deals=4, rules=rules, seed=7)
    table = pq.read_table(path)
    assert tuple(table.column_names) == COLUMNS and table.num_rows == stats.rows > 0
    meta = pq.read_schema(path).metadata
    assert json.loads(meta[b"tarneeb.bots"]) == ["heuristic", "random", "heuristic", "random"]
    frame = pd.read_parquet(path)
    assert len(frame) == stats.rows
    amap = ActionMap(rules)
    for deal_id, rows in frame.groupby("deal_id"):
        rows = rows.sort_values("step")
        first = rows.iloc[0]
        assert Rules.from_dict(json.loads(first["rules"])) == rules
        deal = Deal.from_seed(
            rules, int(first["dealer"]), int(first["seed"]), list(first["scores"])
        )
        for _, row in rows.iterrows():
            seat = deal.to_act
            assert seat is not None and int(row["seat"]) == int(seat)
            assert row["bot"] == ("heuristic" if int(seat) % 2 == 0 else "random")
            assert row["phase"] == str(deal.phase)
            obs = row["observation"]
            assert len(obs) == OBS_SIZE
            assert obs.tolist() == encode_view(deal.view(seat)).tolist()
            legal = sorted(amap.to_env[a] for a in deal.legal_action_ids())
            assert [i for i, v in enumerate(row["action_mask"]) if v] == legal
            assert amap.to_engine[int(row["action"])] == int(row["engine_action"])
            deal.push(int(row["engine_action"]))
        assert deal.is_over()
        result = deal.result
        for _, row in rows.iterrows():
            if result is None:
                assert row["thrown_in"] and row["reward"] == 0
                continue
            ns, ew = result.team_points
            mine = ns - ew if int(row["seat"]) % 2 == 0 else ew - ns
            assert row["reward"] == mine and row["points"] == result.team_points[row["seat"] % 2]
        assert deal_id == int(first["deal_id"])


def test_the_same_arguments_write_the_same_file(libs: None, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    write_dataset(a, ["random"], deals=3, seed=2)
    write_dataset(b, ["random"], deals=3, seed=2)
    assert pq.read_table(a).equals(pq.read_table(b))
    write_dataset(b, ["random"], deals=3, seed=3)
    assert not pq.read_table(a).equals(pq.read_table(b))


def test_individual_scoring_gives_each_seat_its_own_points(libs: None, tmp_path: Path) -> None:
    import pandas as pd

    path = tmp_path / "s.parquet"
    write_dataset(path, ["heuristic"], deals=3, rules=find_rules("syrian400"), seed=1)
    frame = pd.read_parquet(path)
    rules = find_rules("syrian400")
    for _, rows in frame.groupby("deal_id"):
        first = rows.iloc[0]
        deal = Deal.from_seed(rules, int(first["dealer"]), int(first["seed"]))
        for a in rows.sort_values("step")["engine_action"]:
            deal.push(int(a))
        if deal.result is None:
            continue
        assert deal.result.seat_points is not None
        for _, row in rows.iterrows():
            assert row["points"] == deal.result.seat_points[int(row["seat"])]


def test_the_command_line(libs: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import pandas as pd

    path = tmp_path / "cli.parquet"
    code = main(
        [
            "dataset",
            str(path),
            "--bots",
            "random",
            "--deals",
            "2",
            "--rules",
            "saudi",
            "-o",
            "target=31",
        ]
    )
    assert code == 0
    assert "decisions of 2 deals" in capsys.readouterr().err
    frame = pd.read_parquet(path)
    assert '"target": 31' in frame["rules"].iloc[0]
    for argv, message in (
        (["--bots", "oracle"], "no bot named 'oracle'"),
        (["--bots", "random", "random", "random"], "give one bot"),
        (["--deals", "0"], "at least 1"),
        (["--rules", "nope"], "nope"),
    ):
        assert main(["dataset", str(tmp_path / "x.parquet"), *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith("tarneeb: error:") and message in err and err.count("\n") == 1
    assert main(["dataset", str(tmp_path / "missing" / "x.parquet"), "--deals", "1"]) == 2
    assert "existing folder" in capsys.readouterr().err


def test_bench_quick() -> None:
    need("pyarrow", extra="dataset")
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, str(root / "bench" / "dataset.py"), "--deals", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    import json

    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["bench"] == "dataset" and figures["rows_per_s"] > 0
