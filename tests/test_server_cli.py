"""``tarneeb serve`` on the command line: its options and its one-line errors."""

from __future__ import annotations

import argparse

import pytest

from tarneeb.cli import main
from tarneeb.server.cli import add_serve_parser


def test_serve_is_a_command_with_its_contract_options() -> None:
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--host", "0.0.0.0", "--port", "8123", "--db", "sqlite://"])
    assert (args.host, args.port, args.db) == ("0.0.0.0", 8123, "sqlite://")
    defaults = parser.parse_args(["serve"])
    assert (defaults.host, defaults.port, defaults.db) == ("127.0.0.1", 8000, None)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--port", "0"], "tarneeb: error: --port must be 1 to 65535, not 0"),
        (["--bot-delay", "-1"], "tarneeb: error: --bot-delay cannot be negative"),
        (
            ["--db", "postgresql+psycopg://nobody@127.0.0.1:1/none"],
            "tarneeb: error: cannot open the database "
            "'postgresql+psycopg://nobody@127.0.0.1:1/none': (psycopg.OperationalError)",
        ),
        (["--db", "nosuchdb://x"], "tarneeb: error: cannot open the database 'nosuchdb://x'"),
        (
            ["--db", "sqlite://", "--workers", "2"],
            "tarneeb: error: --workers and --worker-id need PostgreSQL "
            "(--db postgresql+psycopg://...): SQLite is one process",
        ),
        (
            ["--worker-id", "w1"],
            "tarneeb: error: --workers and --worker-id need PostgreSQL",
        ),
        (["--workers", "0"], "tarneeb: error: --workers must be 1 or more, not 0"),
        (
            ["--db", "postgresql+psycopg://nobody@127.0.0.1:1/none", "--worker-id", "W 1"],
            "tarneeb: error: --worker-id: a worker id is 1 to 12 lowercase letters and digits",
        ),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(expected)


def test_missing_server_extra_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    real = importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name == "uvicorn" else real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert main(["serve"]) == 2
    assert capsys.readouterr().err == (
        "tarneeb: error: tarneeb serve needs uvicorn: pip install 'tarneeb[server]'\n"
    )
