"""The command line contracts: in-process through main(), and once each as a real process."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support import PRESET_NAMES, run_python, run_tarneeb
from tarneeb import Rules, __version__, find_rules
from tarneeb.cli import main
from tarneeb.presets import PRESETS
from tarneeb.reference import describe_rules, reference_markdown


def run(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> tuple[str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == status, (code, out, err)
    return out, err


def assert_one_line_error(err: str, fragment: str) -> None:
    assert err.startswith("tarneeb: error: "), err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert fragment in err, err


# -- the contracts, in-process ---------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = run(capsys, "--version")
    assert out == f"tarneeb {__version__}\n"
    assert re.fullmatch(r"tarneeb \d+\.\d+\.\d+\n", out)
    assert err == ""


def test_rules_list_prints_one_preset_a_line_and_nothing_else(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, err = run(capsys, "rules", "--list")
    assert out == "".join(f"{name}\n" for name in PRESET_NAMES)
    assert out.splitlines() == list(PRESETS)
    assert err == ""


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_name_prints_the_reference_for_people(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    out, err = run(capsys, "rules", name)
    assert out == describe_rules(find_rules(name), name)
    assert out.startswith(f"# Tarneeb rules: {name}\n")
    assert err == ""


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_name_json_prints_the_options(capsys: pytest.CaptureFixture[str], name: str) -> None:
    out, err = run(capsys, "rules", name, "--json")
    data = json.loads(out)
    assert isinstance(data, dict)
    assert data == find_rules(name).to_dict()
    assert list(data) == list(Rules.option_names())
    assert Rules.from_dict(data) == find_rules(name)
    assert err == ""


def test_rules_without_a_name_is_the_default_preset(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, "rules")
    assert out == describe_rules(find_rules("classic"), "classic")


def test_rules_name_ignores_case_and_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, "rules", " Egyptian ")
    assert out == describe_rules(find_rules("egyptian"), "egyptian")


def test_option_on_top_of_a_preset_json(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(
        capsys, "rules", "classic", "-o", "target=31", "--option", "bid_once=true", "--json"
    )
    assert json.loads(out) == find_rules("lebanese31").to_dict()


def test_option_on_top_of_a_preset_reference(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, "rules", "classic", "-o", "target=61")
    assert out == describe_rules(find_rules("tarneeb61"), "classic")
    assert "Changed from the classic preset: target = 61 (classic: 41)." in " ".join(out.split())


def test_the_summary_follows_the_options_set(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, "rules", "classic", "-o", "target=31")
    summary = " ".join(out.split("\n\n")[1].split())
    assert summary.startswith("The Levant classic: to 31,")
    assert "41" not in summary
    out, _ = run(capsys, "rules", "egyptian", "-o", "double_factor=4")
    assert "raise to quadruple stakes" in " ".join(out.split())


def test_option_values_as_text_json_and_hyphenated_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, _ = run(
        capsys,
        "rules",
        "syrian400",
        "-o",
        "individual_minimums=[[0,3,12],[25,4,13]]",
        "-o",
        "first-lead-trump=yes",
        "-o",
        "fixed_trump=spades",
        "-o",
        "partner_zero_ok=true",
        "--json",
    )
    data = json.loads(out)
    assert data["individual_minimums"] == [[0, 3, 12], [25, 4, 13]]
    assert data["first_lead_trump"] is True
    assert data["fixed_trump"] == "spades"
    assert data["partner_zero_ok"] is True
    out, _ = run(capsys, "rules", "classic", "-o", "bid13_made=none", "-o", "kabsh=null", "--json")
    data = json.loads(out)
    assert data["bid13_made"] is None and data["kabsh"] is None


def test_a_later_option_overrides_an_earlier_one(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, "rules", "classic", "-o", "target=31", "-o", "target=51", "--json")
    assert json.loads(out)["target"] == 51


def test_markdown_prints_the_whole_reference(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = run(capsys, "rules", "--markdown")
    assert out == reference_markdown()
    assert err == ""


def test_help_and_no_command_print_usage(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = run(capsys, "--help")
    assert out.startswith("usage: tarneeb")
    assert "rules" in out and err == ""
    out, err = run(capsys)
    assert out.startswith("usage: tarneeb")
    assert err == ""
    out, _ = run(capsys, "rules", "--help")
    assert out.startswith("usage: tarneeb rules")
    for flag in ("--list", "--json", "--markdown", "--option"):
        assert flag in out


# -- errors: one line, status 2, no traceback ---------------------------------------


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["rules", "bridge"], "no preset named 'bridge'; the presets are: classic, lebanese31"),
        (["rules", "bridge", "--json"], "no preset named 'bridge'"),
        (
            ["rules", "classic", "-o", "targt=31"],
            "unknown rule option 'targt' (did you mean 'target'? the options: ",
        ),
        (["rules", "classic", "-o", "zzzz=1"], "unknown rule option 'zzzz'"),
        (["rules", "classic", "-o", "target=0"], "target=0 must be at least 1"),
        (["rules", "classic", "-o", "target=many"], "target='many' is not a whole number"),
        (["rules", "classic", "-o", "target=--5"], "target='--5' is not a whole number"),
        (["rules", "classic", "-o", "target=\u00b2"], "is not a whole number"),
        (["rules", "classic", "-o", "bid_once=perhaps"], "bid_once='perhaps' is not true or false"),
        (["rules", "classic", "-o", "made=everything"], "made='everything' is not one of"),
        (
            ["rules", "classic", "-o", "bidding=individual"],
            "bidding='individual' needs fixed_trump",
        ),
        (["rules", "classic", "-o", "target"], "-o expects OPTION=VALUE, not 'target'"),
        (["rules", "classic", "-o", "=31"], "-o expects OPTION=VALUE"),
        (
            ["rules", "syrian400", "-o", "bid_values=[[2,2"],
            "-o bid_values: '[[2,2' is not valid JSON",
        ),
        (["rules", "--list", "--json"], "--list cannot go with --json"),
        (["rules", "--list", "classic"], "--list cannot go with a preset name"),
        (["rules", "--markdown", "-o", "target=31"], "--markdown cannot go with -o"),
        (["rules", "--list", "--markdown"], "--list cannot go with --markdown"),
        (["rules", "--bogus"], "unrecognized arguments: --bogus"),
        (["rules", "classic", "extra"], "unrecognized arguments: extra"),
        (["bogus"], "invalid choice: 'bogus'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_errors_are_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    out, err = run(capsys, *argv, status=2)
    assert out == ""
    assert_one_line_error(err, fragment)


@given(
    name=st.sampled_from(PRESET_NAMES),
    option=st.sampled_from(Rules.option_names()),
    value=st.text(max_size=12)
    | st.sampled_from(["[", "[]", "[[]]", "[[1,2]]", "{}", "null", "-1", "1e9", "NaN", "true"]),
)
def test_any_option_value_gives_output_or_one_line_error(
    name: str, option: str, value: str
) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["rules", name, "-o", f"{option}={value}"])
    if code == 0:
        assert out.getvalue().startswith("# Tarneeb rules: ")
        assert err.getvalue() == ""
    else:
        assert code == 2
        assert out.getvalue() == ""
        assert_one_line_error(err.getvalue(), "")


@pytest.mark.parametrize("command", ["analyze", "arena"])
def test_ctrl_c_stops_with_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    def interrupted(_args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(f"tarneeb.cli.run_{command}", interrupted)
    argv = {"analyze": ["analyze", "x"], "arena": ["arena", "--bots", "random,heuristic"]}
    out, err = run(capsys, *argv[command], status=130)
    assert (out, err) == ("", "tarneeb: interrupted\n")


# -- the same contracts as a real process -----------------------------------------------


def test_process_version() -> None:
    done = run_tarneeb("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"tarneeb {__version__}\n", "")


def test_process_rules_list() -> None:
    done = run_tarneeb("rules", "--list")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "".join(f"{name}\n" for name in PRESET_NAMES),
        "",
    )


def test_process_rules_name() -> None:
    done = run_tarneeb("rules", "egyptian")
    assert done.returncode == 0, done.stderr
    assert done.stdout == describe_rules(find_rules("egyptian"), "egyptian")


def test_process_rules_name_json_with_option() -> None:
    done = run_tarneeb("rules", "classic", "--json", "-o", "target=61")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == find_rules("tarneeb61").to_dict()


def test_process_error_is_one_line_with_status_2() -> None:
    done = run_tarneeb("rules", "bridge")
    assert done.returncode == 2
    assert done.stdout == ""
    assert_one_line_error(done.stderr, "no preset named 'bridge'")


def test_process_bad_option_is_one_line_with_status_2() -> None:
    done = run_tarneeb("rules", "classic", "-o", "max_bid=99")
    assert done.returncode == 2
    assert_one_line_error(done.stderr, "max_bid=99")


def test_process_regenerate_docs_command_gives_the_reference() -> None:
    # The README's `python -m tarneeb.cli rules --markdown > docs/rules.md`.
    done = run_python("-m", "tarneeb.cli", "rules", "--markdown")
    assert done.returncode == 0, done.stderr
    assert done.stdout.replace("\r\n", "\n") == reference_markdown()
