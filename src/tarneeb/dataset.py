"""``tarneeb dataset``: games of chosen bots as a Parquet file, one row per decision.

For imitation learning, offline RL and bidding studies: every decision of
every deal, with what the deciding seat saw (the observation vector and the
legal-action mask of :mod:`tarneeb.env.encoding`, the same the environments
give), what it chose, and how the deal ended. Written with ``pyarrow`` (the
``dataset`` extra), read back by pandas (``pandas.read_parquet(path)``),
polars, DuckDB or Spark alike.

Schema (one row per decision)
=============================

===================  =========================  ========================================
column               type                       what
===================  =========================  ========================================
``deal_id``          int64                      the deal's number in the file, from 0
``seed``             int64                      the deal's seed: ``Deal.from_seed(rules,
                                                dealer, seed, scores)`` deals it again
``dealer``           int8                       the dealer (0 South .. 3 West)
``scores``           list<int32>, 4             each seat's score before the deal
``rules``            string (dictionary)        the rules as JSON (``Rules.to_dict``)
``step``             int16                      the decision's number in the deal, from 0
``seat``             int8                       the seat deciding (0 South .. 3 West)
``bot``              string (dictionary)        that seat's bot spec
``phase``            string (dictionary)        ``auction``, ``raise``, ``trump``, ``play``
``observation``      fixed_size_list<float32>   the seat's observation
                                                (:data:`~tarneeb.env.encoding.OBS_SIZE`)
``action_mask``      fixed_size_list<int8>      1 for each legal env action
``action``           int16                      the env action id chosen
``engine_action``    int16                      the same as an engine id
                                                (:mod:`tarneeb.actions`)
``action_text``      string                     the same in notation (``7S``, ``pass``)
``reward``           float32                    the deal's outcome for the seat: its
                                                side's points minus the other side's
                                                (the env's deal reward; 0 thrown in)
``points``           int32                      the points the seat scored (its side's in
                                                partnership play, its own alone)
``thrown_in``        bool                       the deal was thrown in (no score)
===================  =========================  ========================================

The file's metadata (``pyarrow.parquet.read_schema(path).metadata``) holds
``tarneeb.obs_version``, ``tarneeb.action_version``, ``tarneeb.version``,
``tarneeb.preset`` and ``tarneeb.bots`` (JSON). The same arguments give the
same file: deal ``i`` uses the seed derived from ``--seed`` and ``i``, each
bot its own seeded generator.

>>> import tempfile, pathlib, pandas
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.parquet"
>>> stats = write_dataset(path, ["heuristic", "random"], deals=2, seed=1)
>>> frame = pandas.read_parquet(path)
>>> len(frame) == stats.rows, sorted(set(frame["bot"]))
(True, ['heuristic', 'random'])
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarneeb._version import __version__
from tarneeb.actions import action_id, format_action
from tarneeb.bots import Bot, BotError, make_bot
from tarneeb.cliargs import add_option_flag
from tarneeb.deal import Deal
from tarneeb.errors import TarneebError
from tarneeb.presets import DEFAULT_PRESET, find_rules
from tarneeb.rules import Rules, parse_rule_changes

__all__ = [
    "COLUMNS",
    "DatasetError",
    "DatasetStats",
    "add_dataset_parser",
    "deal_seed",
    "run_dataset",
    "write_dataset",
]

COLUMNS = (
    "deal_id",
    "seed",
    "dealer",
    "scores",
    "rules",
    "step",
    "seat",
    "bot",
    "phase",
    "observation",
    "action_mask",
    "action",
    "engine_action",
    "action_text",
    "reward",
    "points",
    "thrown_in",
)
"""The columns, in file order (the schema is in the module docstring)."""
_ROW_GROUP = 50_000


class DatasetError(TarneebError, ValueError):
    """A dataset that cannot be written as asked (a missing library, bad arguments)."""


@dataclass(frozen=True)
class DatasetStats:
    """What :func:`write_dataset` wrote."""

    path: Path
    deals: int
    rows: int
    seconds: float

    @property
    def rows_per_s(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else 0.0


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a dataset made with ``seed`` (63 bits, stable)."""
    digest = hashlib.sha256(f"tarneeb-dataset/{seed}/deal/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _seat_bots(specs: Sequence[str], seed: int) -> list[Bot]:
    if len(specs) == 1:
        specs = [specs[0]] * 4
    elif len(specs) == 2:
        specs = [specs[0], specs[1], specs[0], specs[1]]
    elif len(specs) != 4:
        raise DatasetError("give one bot (all seats), two (North-South, East-West) or four")
    return [
        make_bot(spec, rng=random.Random(f"tarneeb-dataset/{seed}/bot/{seat}"))
        for seat, spec in enumerate(specs)
    ]


def _modules() -> tuple[Any, Any, Any]:
    try:
        import numpy as np
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise DatasetError(
            f"{exc.name} is missing: pip install 'tarneeb[dataset]' to write datasets"
        ) from None
    return np, pa, pq


def write_dataset(
    path: str | Path,
    bots: Sequence[str],
    deals: int,
    rules: Rules | None = None,
    seed: int = 0,
    preset: str | None = None,
) -> DatasetStats:
    """Play ``deals`` deals with ``bots`` and write every decision to the Parquet file ``path``.

    :param bots: bot specs: one for all four seats, two (North-South, then
        East-West) or four (South, East, North, West).
    :param rules: the rules (default: the classic preset); ``preset`` names them in the metadata.
    :raises DatasetError: without pyarrow and numpy, or for ``deals`` < 1.
    :raises BotError: for an unknown bot.
    """
    np, pa, pq = _modules()
    from tarneeb.env.encoding import (
        ACTION_VERSION,
        OBS_SIZE,
        OBS_VERSION,
        ActionMap,
        ObservationEncoder,
    )

    if deals < 1:
        raise DatasetError(f"deals must be at least 1, not {deals}")
    rules = find_rules(DEFAULT_PRESET) if rules is None else rules
    seats = _seat_bots(list(bots), seed)
    amap = ActionMap(rules)
    encoder = ObservationEncoder(rules)
    n = amap.num_actions
    rules_json = json.dumps(rules.to_dict(), sort_keys=True)
    schema = pa.schema(
        [
            ("deal_id", pa.int64()),
            ("seed", pa.int64()),
            ("dealer", pa.int8()),
            ("scores", pa.list_(pa.int32(), 4)),
            ("rules", pa.dictionary(pa.int8(), pa.string())),
            ("step", pa.int16()),
            ("seat", pa.int8()),
            ("bot", pa.dictionary(pa.int8(), pa.string())),
            ("phase", pa.dictionary(pa.int8(), pa.string())),
            ("observation", pa.list_(pa.float32(), OBS_SIZE)),
            ("action_mask", pa.list_(pa.int8(), n)),
            ("action", pa.int16()),
            ("engine_action", pa.int16()),
            ("action_text", pa.string()),
            ("reward", pa.float32()),
            ("points", pa.int32()),
            ("thrown_in", pa.bool_()),
        ],
        metadata={
            "tarneeb.version": __version__,
            "tarneeb.obs_version": str(OBS_VERSION),
            "tarneeb.action_version": str(ACTION_VERSION),
            "tarneeb.preset": preset or "",
            "tarneeb.bots": json.dumps([b.spec for b in seats]),
        },
    )
    start = time.perf_counter()
    rows = 0
    buffer: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    observations: list[Any] = []
    masks: list[Any] = []

    def flush(writer: Any) -> None:
        if not buffer["step"]:
            return
        arrays = []
        for column in COLUMNS:
            field = schema.field(column)
            if column == "observation":
                flat = pa.array(np.concatenate(observations), pa.float32())
                arrays.append(pa.FixedSizeListArray.from_arrays(flat, OBS_SIZE))
            elif column == "action_mask":
                flat = pa.array(np.concatenate(masks), pa.int8())
                arrays.append(pa.FixedSizeListArray.from_arrays(flat, n))
            elif pa.types.is_dictionary(field.type):
                arrays.append(pa.array(buffer[column], pa.string()).dictionary_encode())
            else:
                arrays.append(pa.array(buffer[column], field.type))
        writer.write_table(pa.Table.from_arrays(arrays, schema=schema))
        for values in buffer.values():
            values.clear()
        observations.clear()
        masks.clear()

    with pq.ParquetWriter(str(path), schema) as writer:
        for index in range(deals):
            dseed = deal_seed(seed, index)
            deal_rng = random.Random(dseed)
            dealer = deal_rng.randrange(4)
            deal = Deal.from_seed(rules, dealer, dseed)
            encoder.start(deal.dealer, deal.scores, deal.dealt)
            first = len(buffer["step"])
            step = 0
            while not deal.is_over():
                seat_obj = deal.to_act
                assert seat_obj is not None
                seat = int(seat_obj)
                legal = deal.legal_action_ids()
                observations.append(encoder.observe(seat, deal))
                masks.append(amap.mask(legal, shared=True))
                phase = str(deal.phase)
                engine = action_id(seats[seat].act(deal.view(seat)))
                deal.push(engine)
                encoder.add(seat, engine)
                for column, value in (
                    ("step", step),
                    ("seat", seat),
                    ("bot", seats[seat].spec),
                    ("phase", phase),
                    ("action", amap.to_env[engine]),
                    ("engine_action", engine),
                    ("action_text", format_action(engine)),
                ):
                    buffer[column].append(value)
                step += 1
            _outcome(deal, buffer, first, index, dseed, rules_json)
            rows += step
            if len(buffer["step"]) >= _ROW_GROUP:
                flush(writer)
        flush(writer)
    return DatasetStats(Path(path), deals, rows, time.perf_counter() - start)


def _outcome(
    deal: Deal, buffer: dict[str, list[Any]], first: int, index: int, seed: int, rules: str
) -> None:
    result = deal.result
    count = len(buffer["step"]) - first
    for offset in range(count):
        seat = buffer["seat"][first + offset]
        if result is None:
            reward, points = 0.0, 0
        else:
            ns, ew = result.team_points
            mine = ns - ew if seat % 2 == 0 else ew - ns
            reward = float(mine)
            if result.seat_points is not None:
                points = result.seat_points[seat]
            else:
                points = result.team_points[seat % 2]
        buffer["reward"].append(reward)
        buffer["points"].append(points)
    buffer["deal_id"].extend([index] * count)
    buffer["seed"].extend([seed] * count)
    buffer["dealer"].extend([int(deal.dealer)] * count)
    buffer["scores"].extend([list(deal.scores)] * count)
    buffer["rules"].extend([rules] * count)
    buffer["thrown_in"].extend([result is None] * count)


# -- the command line -------------------------------------------------------------------


def add_dataset_parser(subparsers: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """Add ``tarneeb dataset`` to the command line."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "dataset",
        help="write games of chosen bots as a Parquet file, one row per decision",
        description=(
            "Play deals with the bots given and write every decision (the seat's observation, "
            "legal-action mask, action and the deal's outcome) to a Parquet file, readable by "
            "pandas. Needs the dataset extra: pip install 'tarneeb[dataset]'."
        ),
    )
    parser.add_argument("output", metavar="OUT.parquet", help="the file to write")
    parser.add_argument(
        "--bots",
        nargs="+",
        default=["heuristic"],
        metavar="SPEC",
        help="one bot (all seats), two (North-South, East-West) or four (default: heuristic)",
    )
    parser.add_argument("--deals", type=int, default=1000, help="deals to play (default 1000)")
    parser.add_argument(
        "--rules", default=DEFAULT_PRESET, help=f"the preset (default {DEFAULT_PRESET})"
    )
    add_option_flag(parser)
    parser.add_argument("--seed", type=int, default=0, help="the seed of everything (default 0)")
    return parser


def run_dataset(args: argparse.Namespace) -> int:
    """Run ``tarneeb dataset``; errors are raised as :class:`~tarneeb.errors.TarneebError`."""
    rules = find_rules(args.rules)
    if args.options:
        rules = rules.replace(**parse_rule_changes(args.options, flag="-o"))
    output = Path(args.output)
    if output.is_dir() or not output.parent.is_dir():
        raise DatasetError(f"cannot write {args.output}: not a file in an existing folder")
    try:
        stats = write_dataset(
            output, args.bots, args.deals, rules, args.seed, args.rules.strip().lower()
        )
    except BotError:
        raise
    except OSError as exc:
        raise DatasetError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(
        f"wrote {stats.rows} decisions of {stats.deals} deals to {stats.path} "
        f"({stats.rows_per_s:,.0f} rows/s)",
        file=sys.stderr,
    )
    return 0
