"""Dataset speed: ``tarneeb dataset`` rows (decisions) written per second.

Run as ``python bench/dataset.py [--deals N] [--bots SPEC ...] [--rules NAME]``.
It writes N deals of the bots given to a temporary Parquet file through
:func:`tarneeb.dataset.write_dataset` (playing the bots, encoding each
decision's observation and mask, writing through pyarrow) and reads it back
with pandas. The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from tarneeb.dataset import write_dataset
from tarneeb.presets import find_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=300, help="deals to write (default 300)")
    parser.add_argument("--bots", nargs="+", default=["random"], help="bot specs (default random)")
    parser.add_argument("--rules", default="classic", help="preset to play")
    args = parser.parse_args()
    print(
        f"dataset bench: {args.deals} deals of {' '.join(args.bots)}, preset {args.rules}, "
        f"Python {platform.python_version()} on {platform.machine()}"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.parquet"
        stats = write_dataset(path, args.bots, args.deals, find_rules(args.rules), seed=0)
        size = path.stat().st_size
        start = time.perf_counter()
        read_rows = -1
        try:
            import pandas

            read_rows = len(pandas.read_parquet(path))
            read_s = time.perf_counter() - start
        except ImportError:
            read_s = float("nan")
    print(f"  written: {stats.rows} rows in {stats.seconds:.2f} s: {stats.rows_per_s:,.0f} rows/s")
    print(f"  file:    {size / 1e6:.2f} MB, {size / max(1, stats.rows):.0f} bytes a row")
    if read_rows >= 0:
        print(f"  pandas:  read back in {read_s:.2f} s")
    print(
        json.dumps(
            {
                "bench": "dataset",
                "rules": args.rules,
                "bots": args.bots,
                "deals": stats.deals,
                "rows": stats.rows,
                "rows_per_s": round(stats.rows_per_s),
                "deals_per_s": round(stats.deals / stats.seconds, 1) if stats.seconds else None,
                "bytes_per_row": round(size / max(1, stats.rows)),
            }
        )
    )


if __name__ == "__main__":
    main()
