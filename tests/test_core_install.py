"""The core install: ``pip install tarneeb`` without extras needs only the standard library.

DESIGN.md: "the core engine (``tarneeb`` without extras) needs only the
standard library". Each check runs in a fresh interpreter where every module
outside the standard library (and ``tarneeb``) cannot be imported, as on a
machine where no extra was installed. The command line loaded Rich for every
command (``tarneeb rules --list`` ended in a traceback: the terminal app's
controller imported its Rich look at the top).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

# Modules outside the standard library are absent: `import` fails and find_spec says None.
PRELUDE = """
import sys, importlib.abc
ALLOWED = set(sys.stdlib_module_names) | {"tarneeb", "__main__"}
class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] not in ALLOWED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Absent())
import importlib.util
_find = importlib.util.find_spec
def find_spec(name, package=None):
    try:
        return _find(name, package)
    except ModuleNotFoundError:
        return None
importlib.util.find_spec = find_spec
"""


def run(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-c", PRELUDE + code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


ARENA = ("arena", "--bots", "random,heuristic", "--matches", "2", "-o", "target=11")
ARENA += ("--workers", "1", "--no-progress")


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return run(f"from tarneeb.cli import main\nsys.exit(main({list(argv)!r}))")


def test_the_engine_plays_a_deal_with_the_standard_library_alone() -> None:
    done = run(
        "import tarneeb\n"
        "from tarneeb import Match, find_rules\n"
        "from tarneeb.bots import make_bot\n"
        "m = Match(find_rules('classic'), seed=3)\n"
        "bots = [make_bot('heuristic', seed=i) for i in range(4)]\n"
        "while len(m.deals) < 3:\n"
        "    seat = m.to_act\n"
        "    m.push(bots[seat].act(m.view(seat)))\n"
        "print('played', len(m.deals) - 1)\n"
    )
    assert done.returncode == 0, done.stderr
    assert "played 2" in done.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ("--version",),
        ("--help",),
        ("rules", "--list"),
        ("rules", "egyptian"),
        ("play", "--help"),
        ("serve", "--help"),
        ("arena", "--help"),
        ARENA,
    ],
)
def test_the_command_line_works_without_any_extra(argv: tuple[str, ...]) -> None:
    done = cli(*argv)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and done.stdout


@pytest.mark.parametrize(
    ("argv", "extra"),
    [(("play",), "play"), (("serve",), "server")],
)
def test_a_command_that_needs_an_extra_says_which_in_one_line(
    argv: tuple[str, ...], extra: str
) -> None:
    done = cli(*argv)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tarneeb: error:"), done.stderr
    assert f"tarneeb[{extra}]" in lines[0]


def test_the_environments_name_the_extra_they_need() -> None:
    """``import tarneeb.env`` without numpy said ``No module named 'numpy'``, nothing of the
    extra that brings it."""
    done = run(
        "try:\n    import tarneeb.env\nexcept ImportError as exc:\n    print('refused:', exc)\n"
    )
    assert done.returncode == 0, done.stderr
    assert "refused:" in done.stdout and "pip install 'tarneeb[pettingzoo]'" in done.stdout
