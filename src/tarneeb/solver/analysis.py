"""Double-dummy analysis of deals: the table of each deal, and the play card by card.

For a played deal, every card gets the double-dummy tricks of North-South
(taken so far plus best play from there) after it, and the tricks it cost its
side against best play, as bridge sites show for hand records.

>>> from tarneeb import Deal, Seat, find_rules
>>> deal = Deal(find_rules("classic"), Seat.WEST, ["AKQJT98765432...", ".AKQJT98765432..",
...     "..AKQJT98765432.", "...AKQJT98765432"])
>>> a = analyze_deal(deal, backend="own")
>>> a.table[Strain.SPADES]
(13, 0, 13, 0)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tarneeb.actions import Phase, Strain, format_action
from tarneeb.cards import Card, CardSet
from tarneeb.deal import Deal
from tarneeb.errors import TarneebError
from tarneeb.presets import preset_name
from tarneeb.record import DEAL_PREFIX, parse_deal, read_record
from tarneeb.rules import Count, Rules
from tarneeb.seats import SEATS, Seat, parse_seat
from tarneeb.solver.position import DDTable, Position, PositionError
from tarneeb.solver.solve import backend_name, dd_tables, solve_many

__all__ = [
    "AnalysisError",
    "CardAnalysis",
    "DealAnalysis",
    "analyze_deal",
    "analyze_hands",
    "format_analysis",
    "parse_hands",
    "read_deals",
    "rules_strains",
]

_NAMES = ("South", "East", "North", "West")


class AnalysisError(PositionError):
    """Input to the analysis that is no deal."""


@dataclass(frozen=True)
class CardAnalysis:
    """One card of the play, seen double dummy."""

    trick: int
    """The trick it was played to, 1 to 13."""
    seat: Seat
    card: Card
    ns_before: int
    """North-South's tricks (taken plus best play) before the card."""
    ns_after: int
    """North-South's tricks (taken plus best play) after it."""
    cost: int
    """Tricks the card gave away to the other side (0: a best card)."""
    best: tuple[Card, ...]
    """The cards that kept every trick."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "seat": self.seat.letter,
            "card": str(self.card),
            "ns_tricks": self.ns_after,
            "cost": self.cost,
            "best": [str(c) for c in self.best],
        }


@dataclass(frozen=True)
class DealAnalysis:
    """A deal's double-dummy table and, when it was played, its play card by card."""

    hands: tuple[int, int, int, int]
    dealer: Seat | None
    rules: Rules | None
    table: DDTable
    contract: str | None = None
    trump: Strain | None = None
    ns_start: int | None = None
    """North-South's double-dummy tricks at the first lead (the deal's trump and leader)."""
    cards: tuple[CardAnalysis, ...] = ()
    ns_taken: int | None = None
    """North-South's tricks in the play as it went, once the deal was played out."""
    auction: tuple[tuple[Seat, str], ...] = ()
    """The calls before the play (bids, passes, the trump named), each with its seat."""
    points: tuple[int, int] | None = None
    """What the deal scored for North-South and East-West, once scored."""
    seat_points: tuple[int, int, int, int] | None = None
    """What each player scored, where players bid alone (Syrian 400)."""
    card_points: tuple[int, int] | None = None
    """Card points taken by North-South and East-West, where the rules count them."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "dealer": None if self.dealer is None else self.dealer.letter,
            "rules": None if self.rules is None else (preset_name(self.rules) or "custom"),
            "hands": {s.letter: CardSet(self.hands[s]).format() for s in SEATS},
            "dd_table": self.table.to_dict(),
            "contract": self.contract,
            "trump": None if self.trump is None else self.trump.letter,
            "ns_start": self.ns_start,
            "play": [c.to_dict() for c in self.cards],
            "ns_taken": self.ns_taken,
            "errors": sum(1 for c in self.cards if c.cost),
            "auction": [{"seat": seat.letter, "call": call} for seat, call in self.auction],
            "points": None
            if self.points is None
            else dict(zip(("NS", "EW"), self.points, strict=True)),
            "seat_points": None
            if self.seat_points is None
            else {s.letter: self.seat_points[s] for s in SEATS},
            "card_points": None
            if self.card_points is None
            else dict(zip(("NS", "EW"), self.card_points, strict=True)),
        }
        return out


def rules_strains(rules: Rules | None) -> tuple[Strain, ...]:
    """The strains a deal can be played in under ``rules`` (all five when unknown)."""
    if rules is None:
        return tuple(Strain)
    if rules.fixed_trump is not None:
        return (Strain(int(rules.fixed_trump)),)
    suits = tuple(Strain(s) for s in range(4))
    return (*suits, Strain.NO_TRUMP) if rules.no_trump else suits


def _play_positions(deal: Deal) -> tuple[list[Position], list[tuple[int, int, int]]]:
    """Positions before each card of ``deal``, with (card, North-South tricks taken, trick)."""
    replay = Deal(deal.rules, deal.dealer, deal.dealt, deal.scores)
    positions: list[Position] = []
    plays: list[tuple[int, int, int]] = []
    for a in deal.action_ids:
        if replay.phase is Phase.PLAY and a < 52:
            positions.append(Position.from_deal(replay))
            taken = replay.team_tricks(0)
            plays.append((a, taken, len(replay.tricks) + 1))
        replay.push_unchecked(a)
    return positions, plays


def analyze_deals(deals: Sequence[Deal], backend: str = "auto") -> list[DealAnalysis]:
    """:func:`analyze_deal` for many deals; the solver sees all positions at once."""
    name = backend_name(backend)
    tables: list[DDTable] = []
    by_rules: dict[tuple[tuple[Strain, ...], bool], list[int]] = {}
    for i, deal in enumerate(deals):
        key = (rules_strains(deal.rules), deal.rules.first_lead_trump)
        by_rules.setdefault(key, []).append(i)
    found: dict[int, DDTable] = {}
    for (strains, lead_trump), indexes in by_rules.items():
        solved = dd_tables([deals[i].dealt for i in indexes], strains, lead_trump, name)
        found.update(zip(indexes, solved, strict=True))
    tables = [found[i] for i in range(len(deals))]
    all_positions: list[Position] = []
    spans: list[tuple[int, int, list[tuple[int, int, int]]]] = []
    for deal in deals:
        positions, plays = _play_positions(deal)
        spans.append((len(all_positions), len(positions), plays))
        all_positions.extend(positions)
    solutions = solve_many(all_positions, name)
    out: list[DealAnalysis] = []
    for deal, table, (start, count, plays) in zip(deals, tables, spans, strict=True):
        cards: list[CardAnalysis] = []
        ns_start: int | None = None
        for k in range(count):
            position = all_positions[start + k]
            solution = solutions[start + k]
            card, taken, trick = plays[k]
            left = position.tricks_left
            seat = position.to_play
            ns = seat & 1 == 0
            before = solution.tricks if ns else left - solution.tricks
            value = solution.values[Card(card)]
            after = value if ns else left - value
            if k == 0:
                ns_start = taken + before
            cards.append(
                CardAnalysis(
                    trick,
                    seat,
                    Card(card),
                    taken + before,
                    taken + after,
                    solution.tricks - value,
                    solution.best_cards,
                )
            )
        contract = deal.contract
        out.append(
            DealAnalysis(
                deal.dealt,
                deal.dealer,
                deal.rules,
                table,
                None if contract is None else str(contract),
                None if deal.trump is None and not cards else _strain_of(deal),
                ns_start,
                tuple(cards),
                deal.team_tricks(0) if deal.phase is Phase.SCORED else None,
                *_facts(deal),
            )
        )
    return out


def _facts(
    deal: Deal,
) -> tuple[
    tuple[tuple[Seat, str], ...],
    tuple[int, int] | None,
    tuple[int, int, int, int] | None,
    tuple[int, int] | None,
]:
    """The auction, the points and the card points of ``deal``, as :class:`DealAnalysis` holds them."""
    calls = []
    for seat, action in deal.history:
        if isinstance(action, Card):
            break
        calls.append((seat, format_action(action)))
    result = deal.result
    points = None if result is None else result.team_points
    seat_points = None if result is None else result.seat_points
    card_points = None
    if deal.rules.count is Count.CARD_POINTS and deal.phase is not Phase.AUCTION:
        taken = deal.card_points_taken
        card_points = (taken[0] + taken[2], taken[1] + taken[3])
    return tuple(calls), points, seat_points, card_points


def _strain_of(deal: Deal) -> Strain:
    trump = deal.trump
    return Strain.NO_TRUMP if trump is None else Strain(int(trump))


def analyze_deal(deal: Deal, backend: str = "auto") -> DealAnalysis:
    """The double-dummy table of ``deal`` and, as far as it was played, each card's value."""
    return analyze_deals([deal], backend)[0]


def analyze_hands(
    hands: Sequence[int], rules: Rules | None = None, backend: str = "auto"
) -> DealAnalysis:
    """The double-dummy table of four hands, for the strains ``rules`` allow (all when ``None``)."""
    lead_trump = rules.first_lead_trump if rules is not None else False
    table = dd_tables([hands], rules_strains(rules), lead_trump, backend)[0]
    a, b, c, d = hands
    return DealAnalysis((a, b, c, d), None, rules, table)


# -- reading what to analyse ---------------------------------------------------------


def parse_hands(text: str) -> tuple[int, int, int, int]:
    """Four hands: ``S=AKQ.JT9.8.765 E=... N=... W=...`` (``:`` for ``=`` too, any
    order), or four hands by suit in the order S E N W.

    :raises AnalysisError: naming the problem: an unknown seat, a seat given
        twice or missing, a card in two hands, a hand without 13 cards.
    """
    words = text.split()
    found: dict[Seat, int] = {}
    keyed = any("=" in w or ":" in w for w in words)
    if keyed:
        for word in words:
            key, sep, value = word.replace(":", "=", 1).partition("=")
            if not sep:
                raise AnalysisError(f"{word!r} is not SEAT=HAND")
            try:
                seat = parse_seat(key)
            except TarneebError:
                raise AnalysisError(f"unknown seat {key!r} (use S, E, N, W)") from None
            if seat in found:
                raise AnalysisError(f"{_NAMES[seat]}'s hand is given twice")
            found[seat] = _hand(value, seat)
        missing = [_NAMES[s] for s in SEATS if s not in found]
        if missing:
            raise AnalysisError(f"no hand for {', '.join(missing)}")
    else:
        if len(words) != 4:
            raise AnalysisError(
                f"give four hands (S E N W, or S=... E=... N=... W=...), not {len(words)} words"
            )
        for seat, word in zip(SEATS, words, strict=True):
            found[seat] = _hand(word, seat)
    masks = tuple(found[s] for s in SEATS)
    check_hands(masks)
    a, b, c, d = masks
    return a, b, c, d


def _hand(text: str, seat: Seat) -> int:
    try:
        return CardSet.parse(text).mask
    except TarneebError as exc:
        raise AnalysisError(f"{_NAMES[seat]}'s hand: {exc}") from None


def check_hands(masks: Sequence[int]) -> None:
    """Raise :class:`AnalysisError` unless ``masks`` are 4 hands of 13 cards, no card twice."""
    seen: dict[int, Seat] = {}
    for seat in SEATS:
        mask = masks[seat]
        x = mask
        while x:
            low = x & -x
            card = low.bit_length() - 1
            if card in seen:
                raise AnalysisError(
                    f"duplicated card {Card(card)}: in {_NAMES[seen[card]]}'s and "
                    f"{_NAMES[seat]}'s hands"
                )
            seen[card] = seat
            x ^= low
    total = len(seen)
    for seat in SEATS:
        n = masks[seat].bit_count()
        if n != 13:
            raise AnalysisError(
                f"the deal has {total} cards, not 52: {_NAMES[seat]}'s hand has {n}, not 13"
            )


def read_deals(text: str) -> list[Deal] | tuple[int, int, int, int]:
    """What ``tarneeb analyze`` was given: a record's deals (or every record's in an
    arena's JSON file), PBN boards, deal lines, or four hands.

    :raises TarneebError: when the text is none of these (one line naming why).
    """
    stripped = text.strip()
    if not stripped:
        raise AnalysisError("nothing to analyse: give a record, a deal line or four hands")
    if stripped.startswith("{"):
        return _json_deals(stripped)
    if stripped.startswith(("%", "[")):
        from tarneeb.pbn import read_pbn

        return read_pbn(stripped)
    if stripped.startswith(DEAL_PREFIX.split("/")[0]):
        lines = [line for line in stripped.splitlines() if line.strip()]
        deals = []
        for line in lines:
            try:
                deals.append(parse_deal(line))
            except TarneebError as exc:
                raise AnalysisError(_deal_line_problem(line, exc)) from None
        return deals
    return parse_hands(stripped)


def _json_deals(text: str) -> list[Deal]:
    """A record's deals, or, for the JSON file of ``tarneeb arena --json``, every kept
    record's deals, game after game."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not (isinstance(data, dict) and "games" in data and "summary" in data):
        return list(read_record(text).deals)
    games = data["games"]
    if not isinstance(games, list):
        raise AnalysisError("the arena file's games are not a list")
    deals: list[Deal] = []
    for number, game in enumerate(games, 1):
        record = game.get("record") if isinstance(game, dict) else None
        if record is None:
            continue
        try:
            deals.extend(read_record(record).deals)
        except TarneebError as exc:
            raise AnalysisError(f"the arena file's game {number}: {exc}") from None
    if not deals:
        raise AnalysisError("the arena file keeps no records of its games")
    return deals


def _deal_line_problem(line: str, exc: TarneebError) -> str:
    """A deal line's own error, or a sharper one about its hands when they are the trouble."""
    words = line.split()
    keyed = [w for w in words[1:] if "=" in w]
    hands = {}
    for word in keyed:
        key, _, value = word.partition("=")
        if key in ("rules", "dealer", "scores", "actions"):
            continue
        hands[key] = value
    if hands:
        try:
            parse_hands(" ".join(f"{k}={v}" for k, v in hands.items()))
        except AnalysisError as sharper:
            return str(sharper)
    return str(exc)


# -- showing it ------------------------------------------------------------------------


def format_analysis(analyses: Sequence[DealAnalysis], unicode: bool = False, first: int = 1) -> str:
    """The analyses for people: each deal's table, then its play trick by trick.

    Deals are numbered from ``first`` (the number of the first in its record).
    """
    out: list[str] = []
    for number, a in enumerate(analyses, first):
        head = f"Deal {number}"
        if a.dealer is not None:
            head += f", dealer {a.dealer.letter}"
        if a.contract is not None:
            head += f", contract {a.contract}"
        if a.rules is not None:
            head += f" ({preset_name(a.rules) or 'custom rules'})"
        out.append(head)
        for seat in SEATS:
            out.append(f"  {seat.letter}  {CardSet(a.hands[seat]).format(unicode=unicode)}")
        if a.auction:
            out.append(
                "  Auction: " + ", ".join(f"{seat.letter} {call}" for seat, call in a.auction)
            )
        out.append("  Double-dummy tricks of the declarer's side (the declarer leads):")
        out.append("         " + "".join(f"{s.letter:>4}" for s in SEATS))
        for strain in a.table.strains:
            name = strain.symbol if unicode else strain.letter
            row = a.table[strain]
            out.append(f"    {name:<5}" + "".join(f"{row[s]:>4}" for s in SEATS))
        if a.cards:
            trump = "" if a.trump is None else f", {a.trump.letter} trump"
            out.append(
                f"  Play{trump}: North-South's double-dummy tricks after each card "
                f"(start {a.ns_start}); * marks a card that cost its side a trick"
            )
            for trick in range(1, 14):
                cards = [c for c in a.cards if c.trick == trick]
                if not cards:
                    break
                parts = []
                for c in cards:
                    mark = "*" if c.cost else " "
                    parts.append(f"{c.seat.letter} {c.card.format(unicode)}{mark}{c.ns_after:>3}")
                out.append(f"    {trick:>2}. " + "   ".join(parts))
            errors = [c for c in a.cards if c.cost]
            for c in errors:
                best = " ".join(b.format(unicode) for b in c.best)
                side = "North-South" if c.seat % 2 == 0 else "East-West"
                lost = "a trick" if c.cost == 1 else f"{c.cost} tricks"
                out.append(
                    f"    * trick {c.trick}: {_NAMES[c.seat]}'s {c.card.format(unicode)} cost "
                    f"{side} {lost} (best: {best})"
                )
            if a.ns_taken is not None:
                out.append(f"  North-South took {a.ns_taken} tricks, East-West {13 - a.ns_taken}")
        if a.card_points is not None:
            ns, ew = a.card_points
            out.append(f"  Card points taken: North-South {ns}, East-West {ew}")
        if a.points is not None:
            out.append(f"  Points: North-South {a.points[0]:+d}, East-West {a.points[1]:+d}")
        if a.seat_points is not None:
            each = ", ".join(f"{s.letter} {a.seat_points[s]:+d}" for s in SEATS)
            out.append(f"  Points by player: {each}")
        out.append("")
    return "\n".join(out)


def analyses_to_json(analyses: Sequence[DealAnalysis], backend: str, first: int = 1) -> str:
    """The analyses as one JSON object: ``{"backend": ..., "deals": [...]}``, each deal
    with its ``number`` in its record (from ``first``)."""
    deals = [{"number": n, **a.to_dict()} for n, a in enumerate(analyses, first)]
    data = {"backend": backend, "deals": deals}
    return json.dumps(data, indent=1)
