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


def test_server_bench_last_line_is_the_json_figures() -> None:
    done = run_python(
        "bench/server.py",
        *("--tables", "2", "--seconds", "1", "--warmup", "0", "--think", "0.05"),
        *("--spectators", "3", "--flooders", "2", "--analysts", "1"),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) >= 2, "readable lines come before the JSON figures"
    figures = json.loads(lines[-1])
    assert figures["bench"] == "server"
    assert (figures["tables"], figures["clients"], figures["errors"]) == (2, 8, 0)
    assert figures["actions_per_s"] > 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    # the hostile window: the same tables under attack, the attackers' refusals apart
    assert figures["mode"] == "both"
    assert figures["hostile_errors"] == 0
    assert 0 < figures["hostile_p50_ms"] <= figures["hostile_p99_ms"]
    assert figures["spectators"] == 3 and figures["chat_sent"] > 0
    assert figures["analysis_requests"] > 0
