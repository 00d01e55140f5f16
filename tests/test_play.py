"""The card play's rules (tarneeb.play) and the shape of the core (no import circle)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from tarneeb import Card, CardSet, Deal, Seat, find_rules
from tarneeb.game import DenseActions, game_info, max_game_length, utility_bound
from tarneeb.play import (
    POINTS,
    beats,
    legal_cards,
    legal_mask,
    must_lead_suit,
    strength_table,
    trick_points,
    trick_winner,
    winning_index,
)

SRC = Path(__file__).resolve().parent.parent / "src" / "tarneeb"
CORE = [
    "actions",
    "auction",
    "cards",
    "deal",
    "errors",
    "match",
    "play",
    "presets",
    "record",
    "rules",
    "scoring",
    "seats",
    "view",
    "_version",
    "game",
    "notation",
    "trickbook",
]


def spec_winner(cards: list[int], trump: int) -> int:
    """The rule as the seeds word it: the highest trump, or else the highest card of the suit led.

    000: «gana la baza la carta más alta del palo que se jugó primero, a menos que se haya
    jugado un triunfo»; 003: «Взятку забирает игрок, который положит самую старшую карту».
    """
    trumps = [c for c in cards if c // 13 == trump]
    pool = trumps or [c for c in cards if c // 13 == cards[0] // 13]
    return cards.index(max(pool))


def test_trick_winner_against_the_spec() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        cards = rng.sample(range(52), rng.randint(1, 4))
        trump = rng.randrange(-1, 4)
        assert winning_index(cards, trump) == spec_winner(cards, trump)
        leader = rng.randrange(4)
        assert trick_winner(leader, cards, trump) == (leader + spec_winner(cards, trump)) & 3
        best = cards[spec_winner(cards[:-1], trump)] if len(cards) > 1 else cards[0]
        if len(cards) > 1:
            assert beats(cards[-1], best, trump) == (spec_winner(cards, trump) == len(cards) - 1)


def test_strength_table_is_strength() -> None:
    for lead in range(4):
        for trump in range(-1, 4):
            table = strength_table(lead, trump)
            for c in range(52):
                if c // 13 not in (lead, trump):
                    assert table[c] == 0
                else:
                    assert table[c] > 0


def test_legal_cards_follow_suit_or_anything() -> None:
    """000: «debe seguir el palo ... si no tiene cartas de ese palo, puede jugar cualquier carta»."""
    rng = random.Random(2)
    for _ in range(500):
        hand = sum(1 << c for c in rng.sample(range(52), 13))
        lead = rng.randrange(-1, 4)
        follow = [c for c in CardSet(hand) if lead >= 0 and c // 13 == lead]
        expected = follow or list(CardSet(hand))
        assert list(legal_cards(hand, lead)) == sorted(expected)
        assert CardSet(legal_mask(hand, lead)) == CardSet(sum(1 << c for c in expected))


def test_first_lead_trump() -> None:
    """002/003 option: the first lead must be a trump when the leader holds one."""
    hand = CardSet.parse("AK.Q..5432").mask  # spades, hearts, -, clubs
    assert must_lead_suit(True, 3, 0) == 3
    assert must_lead_suit(True, 3, 4) == -1
    assert must_lead_suit(False, 3, 0) == -1
    assert must_lead_suit(True, -1, 0) == -1
    assert [str(Card(c)) for c in legal_cards(hand, -1, 3)] == ["KS", "AS"]
    assert len(legal_cards(hand, -1, 1)) == 7  # no diamond: any card


def test_card_points() -> None:
    """000's Tarneeb 400: A 11, 10 10, K 4, Q 3, J 2; 120 in the deck."""
    assert sum(POINTS) == 120
    assert trick_points([Card.parse(c) for c in ("AS", "TS", "KH", "2C")]) == 25


@pytest.mark.parametrize("name", ["classic", "original", "egyptian", "syrian400"])
def test_deal_winners_are_plays(name: str) -> None:
    """The deal's tricks, its fast playout and the solver's position agree with play.py."""
    from tarneeb.bots.knowledge import Knowledge
    from tarneeb.solver.position import trick_winner as position_winner

    for seed in range(20):
        deal = Deal.from_seed(find_rules(name), seed % 4, seed)
        deal.playout(random.Random(seed))
        trump = -1 if deal.trump is None else int(deal.trump)
        for trick in deal.tricks:
            assert trick.winner == trick_winner(trick.leader, trick.cards, trump)
            assert position_winner(trick.leader, trick.cards, deal.trump) == trick.winner
            know = Knowledge(Seat.SOUTH, 0, 0, ((),) * 4, deal.trump)  # type: ignore[arg-type]
            best = trick.cards[0]
            for card in trick.cards[1:]:
                assert know.beats(card, best) == beats(card, best, trump)
                if beats(card, best, trump):
                    best = card


def _imports(module: str) -> set[str]:
    """The core modules ``module`` imports when it runs (not under ``if TYPE_CHECKING``)."""
    tree = ast.parse((SRC / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom) and child.module and top:
                name = child.module.removeprefix("tarneeb.")
                if child.module.startswith("tarneeb.") and name in CORE:
                    found.add(name)
            if isinstance(child, ast.Import) and top:
                for alias in child.names:
                    name = alias.name.removeprefix("tarneeb.")
                    if alias.name.startswith("tarneeb.") and name in CORE:
                        found.add(name)
            # Imports inside functions run late, but still count as a dependency.
            visit(child, top)

    visit(tree, True)
    return found


def test_no_import_circle_in_the_core() -> None:
    graph = {m: _imports(m) for m in CORE if (SRC / f"{m}.py").exists()}
    assert "deal" not in graph["view"]
    state: dict[str, int] = {}

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                raise AssertionError(f"import circle: {' -> '.join([*path, node, nxt])}")
            if nxt not in state:
                walk(nxt, [*path, node])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [])


def test_core_modules_are_under_600_lines() -> None:
    for module in CORE:
        path = SRC / f"{module}.py"
        if path.exists() and module not in ("rules",):  # rules.py: the option table's (issue 18)
            lines = len(path.read_text(encoding="utf-8").splitlines())
            assert lines <= 650, f"{module}.py has {lines} lines"


@pytest.mark.parametrize("name", ["classic", "sol", "egyptian", "tarneeb400", "syrian400"])
def test_game_metadata_holds_over_random_deals(name: str) -> None:
    """game.py's figures bound what deals do: length, points, and every action has a dense id."""
    rules = find_rules(name)
    info = game_info(rules)
    space = DenseActions(rules)
    assert info.num_players == 4 and info.num_actions == space.num_actions
    assert info.min_utility == -info.max_utility == -utility_bound(rules)
    rng = random.Random(name)
    for seed in range(60):
        deal = Deal.from_seed(rules, seed % 4, seed)
        while not deal.is_over():
            for a in deal.legal_action_ids():
                dense = space.to_dense[a]
                assert 0 <= dense < space.num_actions and space.to_engine[dense] == a
            deal.push(rng.choice(deal.legal_action_ids()))
        assert len(deal.action_ids) <= info.max_game_length == max_game_length(rules)
        if deal.result is not None:
            ns, ew = deal.result.team_points
            assert abs(ns - ew) <= info.max_utility
