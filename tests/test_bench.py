"""The engine bench runs and ends with its JSON figures (a very short run)."""

from __future__ import annotations

import importlib.util
import json
import os

from support import run_python


def test_engine_bench_last_line_is_the_json_figures() -> None:
    done = run_python("bench/engine.py", "--seconds", "0.05", "--rounds", "1", timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) >= 2, "readable lines come before the JSON figures"
    figures = json.loads(lines[-1])
    assert isinstance(figures, dict)
    for key in (
        "bench",
        "deals_per_s",
        "fast_deals_per_s",
        "vs_openspiel_spades",
        "fast_vs_openspiel_spades",
    ):
        assert key in figures, key
    assert figures["bench"] == "engine"
    for key in ("deals_per_s", "fast_deals_per_s"):
        assert isinstance(figures[key], int) and figures[key] > 0, key
    ratios = (figures["vs_openspiel_spades"], figures["fast_vs_openspiel_spades"])
    if importlib.util.find_spec("pyspiel") is None:
        # CI installs the reference (the bench extra) and insists on it.
        assert os.environ.get("TARNEEB_REQUIRE_EXTRAS") != "1", "OpenSpiel (pyspiel) is missing"
        assert ratios == (None, None)
        assert "OpenSpiel is missing" in done.stdout
    else:
        assert all(isinstance(r, int | float) and r > 0 for r in ratios), ratios
