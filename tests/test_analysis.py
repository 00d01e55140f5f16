"""``tarneeb analyze`` and the analysis data: tables, card-by-card values, errors.

Analyses of random deals need DDS (endplay): without it they skip, unless
TARNEEB_REQUIRE_EXTRAS=1 (CI), where they fail. Deals of solid suits run on
the own solver everywhere.
"""

from __future__ import annotations

import io
import json
import os
import random
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from support import need_dds
from tarneeb import Deal, Match, Seat, find_rules, format_deal, write_record
from tarneeb.actions import Phase, Strain
from tarneeb.solver.analysis import (
    AnalysisError,
    analyze_deal,
    analyze_hands,
    format_analysis,
    parse_hands,
    read_deals,
    rules_strains,
)
from tarneeb.solver.cli import main

REQUIRE_EXTRAS = os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1"
SUITED = ("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432")
FOUR_HANDS = " ".join(f"{seat}={hand}" for seat, hand in zip("SENW", SUITED, strict=True))


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def played_deal(seed: int, rules_name: str = "classic") -> Deal:
    deal = Deal.from_seed(find_rules(rules_name), Seat.WEST, seed)
    for action in ["8", "pass", "pass", "pass", "S"]:
        deal.push(action)
    deal.playout(random.Random(seed))
    return deal


def suited_deal() -> Deal:
    """South runs the spades: every card keeps North-South's 13 tricks."""
    deal = Deal(find_rules("classic"), Seat.WEST, list(SUITED))
    for action in ["7", "pass", "pass", "pass", "S"]:
        deal.push(action)
    deal.playout(random.Random(1))
    return deal


# -- the data ------------------------------------------------------------------------------


def test_suited_deal_with_the_own_solver() -> None:
    a = analyze_deal(suited_deal(), backend="own")
    assert a.table[Strain.SPADES] == (13, 0, 13, 0)
    assert a.table.strains == (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES)
    assert a.contract == "7 S by South" and a.trump == Strain.SPADES
    assert a.ns_start == 13 and a.ns_taken == 13
    assert len(a.cards) == 52
    assert all(c.ns_before == c.ns_after == 13 and c.cost == 0 for c in a.cards)
    assert a.cards[0].seat == Seat.SOUTH and a.cards[0].trick == 1
    assert a.cards[-1].trick == 13
    data = a.to_dict()
    assert data["errors"] == 0 and data["trump"] == "S" and data["rules"] == "classic"
    assert data["play"][0] == {
        "trick": 1,
        "seat": "S",
        "card": str(a.cards[0].card),
        "ns_tricks": 13,
        "cost": 0,
        "best": [str(c) for c in a.cards[0].best],
    }


def test_unplayed_deal_has_a_table_only() -> None:
    deal = Deal(find_rules("classic").replace(no_trump=True), Seat.WEST, list(SUITED))
    a = analyze_deal(deal, backend="own")
    assert a.table.strains == tuple(Strain)
    assert a.cards == () and a.ns_start is None and a.ns_taken is None and a.contract is None
    assert "Play" not in format_analysis([a])


def test_rules_strains() -> None:
    assert rules_strains(None) == tuple(Strain)
    assert rules_strains(find_rules("classic")) == tuple(Strain)[:4]
    assert rules_strains(find_rules("classic").replace(no_trump=True)) == tuple(Strain)
    fixed = [r for r in ("tarneeb400", "syrian400") if find_rules(r).fixed_trump is not None]
    for name in fixed:
        assert rules_strains(find_rules(name)) == (Strain(int(find_rules(name).fixed_trump)),)  # type: ignore[arg-type]


def test_played_deal_values_add_up() -> None:
    need_dds()
    for seed in (3, 4):
        deal = played_deal(seed)
        a = analyze_deal(deal, backend="dds")
        assert len(a.cards) == 52
        assert a.ns_start == a.cards[0].ns_before
        assert a.cards[-1].ns_after == a.ns_taken == deal.team_tricks(0)
        for before, after in zip(a.cards, a.cards[1:], strict=False):
            assert after.ns_before == before.ns_after
        for c in a.cards:
            # A card that costs its side a trick moves North-South's total against that side.
            change = c.ns_after - c.ns_before
            assert change == (-c.cost if c.seat % 2 == 0 else c.cost)
            assert (c.cost == 0) == (c.card in c.best)
        total_cost_ns = sum(c.cost for c in a.cards if c.seat % 2 == 0)
        total_cost_ew = sum(c.cost for c in a.cards if c.seat % 2 == 1)
        assert a.ns_start - total_cost_ns + total_cost_ew == a.ns_taken
        # The table agrees with the position the play started from.
        strain = a.trump
        assert strain is not None
        assert a.table[strain][Seat.SOUTH] == a.ns_start


def test_late_positions_of_a_played_deal_agree_between_backends() -> None:
    need_dds()
    from tarneeb.solver import Position, solve

    deal = played_deal(9)
    replay = Deal(deal.rules, deal.dealer, deal.dealt)
    for number, action in enumerate(deal.action_ids):
        if replay.phase is Phase.PLAY and number >= len(deal.action_ids) - 24:
            position = Position.from_deal(replay)
            assert solve(position, backend="own") == solve(position, backend="dds")
        replay.push_unchecked(action)


# -- reading input ------------------------------------------------------------------------


def test_parse_hands_forms() -> None:
    keyed = parse_hands(FOUR_HANDS)
    assert parse_hands(" ".join(SUITED)) == keyed
    assert (
        parse_hands("W:...AKQJT98765432 N:..AKQJT98765432. E:.AKQJT98765432.. S:AKQJT98765432...")
        == keyed
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            FOUR_HANDS.replace("W=...AKQJT98765432", "W=...AKQJT9876543"),
            "the deal has 51 cards, not 52: West's hand has 12, not 13",
        ),
        (
            FOUR_HANDS.replace("W=...AKQJT98765432", "W=A...AKQJT9876543"),
            "duplicated card AS: in South's and West's hands",
        ),
        (FOUR_HANDS.replace("W=", "X="), "unknown seat 'X' (use S, E, N, W)"),
        (FOUR_HANDS.replace("W=", "S="), "South's hand is given twice"),
        (FOUR_HANDS.rsplit(" ", 1)[0], "no hand for West"),
        ("AKQ.JT9.8.765 AKQ", "give four hands"),
        (FOUR_HANDS.replace("W=...AKQJT98765432", "W=...AKQJT9876543Z"), "West's hand:"),
    ],
)
def test_bad_hands(text: str, message: str) -> None:
    with pytest.raises(AnalysisError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_deals(text)


def test_read_deals_kinds() -> None:
    deal = suited_deal()
    assert read_deals(format_deal(deal)) == [deal]
    match = Match(find_rules("classic"), seed=5)
    for action in ["7", "pass", "pass", "pass", "H"]:
        match.push(action)
    deals = read_deals(write_record(match))
    assert isinstance(deals, list) and len(deals) == 1 and deals[0] == match.deal
    assert read_deals(FOUR_HANDS) == parse_hands(FOUR_HANDS)


def test_analyze_hands_for_a_preset() -> None:
    a = analyze_hands(parse_hands(FOUR_HANDS), find_rules("classic"), backend="own")
    assert a.table.strains == tuple(Strain)[:4] and a.dealer is None
    assert a.to_dict()["dd_table"]["C"] == {"S": 0, "E": 13, "N": 0, "W": 13}


# -- the command -------------------------------------------------------------------------


def test_cli_four_hands_text_and_json() -> None:
    status, out, err = cli(FOUR_HANDS, "--backend", "own")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Deal 1"
    assert "  Double-dummy tricks of the declarer's side (the declarer leads):" in lines
    assert "    S      13   0  13   0" in lines
    assert "    NT     13  13  13  13" in lines
    status, out, err = cli(FOUR_HANDS, "--backend", "own", "--json", "--rules", "classic")
    assert status == 0
    data = json.loads(out)
    assert data["backend"] == "own"
    assert data["deals"][0]["dd_table"]["S"] == {"S": 13, "E": 0, "N": 13, "W": 0}
    assert "NT" not in data["deals"][0]["dd_table"]


def test_cli_played_deal_file(tmp_path: Path) -> None:
    path = tmp_path / "deal.txt"
    path.write_text(format_deal(suited_deal()) + "\n")
    status, out, err = cli(str(path), "--backend", "own")
    assert status == 0 and err == ""
    assert out.startswith("Deal 1, dealer W, contract 7 S by South (classic)\n")
    assert "  Play, S trump: North-South's double-dummy tricks after each card (start 13);" in out
    assert "  North-South took 13 tricks, East-West 0" in out
    assert "*" not in out.split("Play")[1].split("marks")[1]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_cli_says_which_deal_it_solves_on_a_terminal_and_wipes_the_line(
    tmp_path: Path,
) -> None:
    need_dds()
    match = Match(find_rules("classic"), seed=11)
    rng = random.Random(5)
    while len(match.deals) < 3:  # two deals over, a third begun
        match.push(rng.choice(match.deal.legal_action_ids()))
    path = tmp_path / "match.json"
    path.write_text(write_record(match))
    status, plain, err = cli(str(path))
    assert (status, err) == (0, "")
    out, terminal = io.StringIO(), Terminal()
    with redirect_stdout(out), redirect_stderr(terminal):
        assert main([str(path)]) == 0
    assert out.getvalue() == plain
    steps = "".join(f"\rtarneeb: solving deal {i} of 3..." for i in (1, 2, 3))
    assert terminal.getvalue() == steps + "\r\x1b[K"


def test_cli_record_marks_costly_cards(tmp_path: Path) -> None:
    need_dds()
    match = Match(find_rules("classic"), seed=11)
    for action in ["8", "pass", "pass", "pass", "S"]:
        match.push(action)
    rng = random.Random(2)
    deal = match.deal
    while not deal.is_over():
        match.push(rng.choice(deal.legal_action_ids()))
    path = tmp_path / "match.json"
    path.write_text(write_record(match))
    status, out, err = cli(str(path), "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["backend"] == "dds"
    first = data["deals"][0]
    assert len(first["play"]) == 52
    costly = [c for c in first["play"] if c["cost"]]
    assert first["errors"] == len(costly) > 0  # random play gives tricks away
    status, text, _ = cli(str(path))
    for c in costly:
        assert f"{c['seat']} {c['card']}*" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            [FOUR_HANDS.replace("W=...AKQJT98765432", "W=...AKQJT9876543")],
            "tarneeb: error: the deal has 51 cards, not 52: West's hand has 12, not 13",
        ),
        (
            [FOUR_HANDS.replace("W=...AKQJT98765432", "W=A...AKQJT9876543")],
            "tarneeb: error: duplicated card AS: in South's and West's hands",
        ),
        ([FOUR_HANDS.replace("W=", "Q=")], "tarneeb: error: unknown seat 'Q' (use S, E, N, W)"),
        (["no/such/file.json"], "tarneeb: error: no/such/file.json: no such file"),
        (["{not json"], "tarneeb: error: record: not JSON"),
        ([FOUR_HANDS, "--backend", "fast"], "tarneeb: error: argument --backend: invalid choice"),
        ([FOUR_HANDS, "--rules", "nosuch"], "tarneeb: error: "),
    ],
)
def test_cli_errors_are_one_line(argv: list[str], message: str) -> None:
    status, out, err = cli(*argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(message)


def test_cli_names_a_directory_or_device_given_as_the_record(tmp_path: Path) -> None:
    status, out, err = cli(str(tmp_path))
    assert (status, out) == (2, "")
    assert err == f"tarneeb: error: {tmp_path}: a directory, not a record or deal file\n"
    status, out, err = cli("/dev/null")
    assert (status, out, err) == (2, "", "tarneeb: error: /dev/null: not a regular file\n")


def test_cli_bad_deal_line(tmp_path: Path) -> None:
    line = format_deal(suited_deal()).replace("W=...AKQJT98765432", "W=...AKQJT9876543")
    status, out, err = cli(line)
    assert status == 2 and out == ""
    assert err == "tarneeb: error: the deal has 51 cards, not 52: West's hand has 12, not 13\n"
    line = format_deal(suited_deal()).replace("E=.AKQJT98765432..", "E=.AKQJT9876543..A")
    status, _, err = cli(line)
    assert err == "tarneeb: error: duplicated card AC: in East's and West's hands\n"
