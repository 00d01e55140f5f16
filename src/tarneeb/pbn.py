"""Hand records in the bridge world's format: PBN (Portable Bridge Notation, version 2.1).

:func:`write_pbn` turns deals (or a whole match) into PBN text that bridge
tools open: the hands, the trump as the contract's strain, the declarer, the
result and the play. What bridge has no words for (our auction, the rules,
the points) goes into tags of our own, ``Tarneeb...``, which bridge tools
keep or skip. :func:`read_pbn` reads PBN back, through `endplay`'s maintained
parser (the ``solver`` extra): our own files exactly (from the
``TarneebDeal`` tag, checked against the standard tags), and any bridge
file's boards as deals to analyse (hands, trump, leader and play).

**Seats.** Bridge plays North -> East -> South -> West; we play South ->
East -> North -> West. As everywhere we speak bridge (DDS, :mod:`tarneeb.solver.dds`),
seats are mapped by play order, not by name, so that every trick is played
in the same order and double-dummy values agree: our South is PBN's North,
our North is PBN's South, East and West keep their names. The file says so
in a ``TarneebSeats`` tag and a comment.

**The lead.** In Tarneeb the declarer leads to the first trick; in bridge the
declarer's left-hand opponent does. The ``Play`` tag names the player of the
first card, as the standard allows, so a reader that follows the tag (endplay
does) replays the play exactly; a viewer that always starts from the
declarer's left would show the first trick from the wrong hand.

**Contracts.** A bid of 7 to 13 tricks is bridge's level 1 to 7 (six tricks
of "book" less). Where the contract is not a number of tricks (card points in
Tarneeb 400, each player's own bid in Syrian 400) the ``Contract`` tag
carries the trump at level 1 and the ``TarneebContract`` tag says what was
bid; the ``Declarer`` is then the player who led.

>>> from tarneeb import Deal, Seat, find_rules
>>> deal = Deal(find_rules("classic"), Seat.WEST, ["AKQJT98765432...", ".AKQJT98765432..",
...     "..AKQJT98765432.", "...AKQJT98765432"])
>>> for action in ("7", "pass", "pass", "pass", "S"):
...     deal.push(action)
>>> text = write_pbn([deal])
>>> tags = ("[Dealer", "[Deal", "[Declarer", "[Contract")
>>> print("\\n".join(line for line in text.splitlines() if line.split(" ")[0] in tags))
[Dealer "W"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
[Declarer "N"]
[Contract "1S"]
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from tarneeb.actions import Phase, format_action
from tarneeb.cards import Card, CardSet, Suit
from tarneeb.deal import Deal
from tarneeb.errors import RecordError, TarneebError
from tarneeb.match import Match
from tarneeb.presets import find_rules, preset_name
from tarneeb.record import format_deal, parse_deal
from tarneeb.rules import Bidding, Count
from tarneeb.seats import SEATS, Seat, parse_seat

__all__ = ["PBN_LETTERS", "PbnError", "read_pbn", "write_pbn", "write_pbn_match"]

PBN_LETTERS = ("N", "E", "S", "W")
"""PBN's letter for each of our seats, by play order: our South is PBN's North."""

_OUR_NAMES = ("South", "East", "North", "West")
_STRAIN_LETTERS = ("C", "D", "H", "S", "NT")
_BRIDGE_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


class PbnError(RecordError):
    """PBN text that cannot be read as deals, or a deal that PBN cannot hold."""


def _tag(key: str, value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{key} "{text}"]'


def _deal_tag(deal: Deal) -> str:
    """PBN's ``Deal`` value: PBN's North (our South) first, then clockwise in bridge terms."""
    return "N:" + " ".join(CardSet(deal.dealt[seat]).format() for seat in SEATS)


def _card(card: int) -> str:
    """A card in PBN: suit letter then rank (``ST``, ``H2``)."""
    text = str(Card(card))
    return text[-1] + ("T" if text[:-1] == "10" else text[:-1])


def _strain_letter(deal: Deal) -> str:
    trump = deal.trump
    return "NT" if trump is None else Suit(int(trump)).letter


def _auction_text(deal: Deal) -> str:
    """Our calls in order, each with its seat letter (ours): ``E 7 N pass W 8 ...``."""
    calls = []
    for seat, action in deal.history:
        if isinstance(action, Card):
            break
        calls.append(f"{seat.letter} {format_action(action)}")
    return " ".join(calls)


def _contract_tags(deal: Deal) -> list[str]:
    contract = deal.contract
    tricks_game = deal.rules.count is Count.TRICKS and deal.rules.bidding is not Bidding.INDIVIDUAL
    if deal.phase is Phase.AUCTION or deal.thrown_in is not None:
        passed = deal.thrown_in is not None
        return [
            _tag("Declarer", ""),
            _tag("Contract", "Pass" if passed else "?"),
            _tag("Result", ""),
        ]
    leader = _first_leader(deal)
    if contract is not None and tricks_game:
        declarer = contract.declarer
        level = max(1, contract.level - 6)
        factor = contract.multiplier
        risk = "X" if factor == 2 else "XX" if factor >= 4 else ""
        side = declarer % 2
        result = deal.team_tricks(side) if deal.phase is Phase.SCORED else ""
        return [
            _tag("Declarer", PBN_LETTERS[declarer]),
            _tag("Contract", f"{level}{_strain_letter(deal)}{risk}"),
            _tag("Result", result),
        ]
    result = deal.team_tricks(leader % 2) if deal.phase is Phase.SCORED else ""
    return [
        _tag("Declarer", PBN_LETTERS[leader]),
        _tag("Contract", f"1{_strain_letter(deal)}"),
        _tag("Result", result),
    ]


def _first_leader(deal: Deal) -> Seat:
    tricks = deal.tricks
    if tricks:
        return tricks[0].leader
    current = deal.current_trick
    if current is not None:
        return current.leader
    to_act = deal.to_act
    return Seat.SOUTH if to_act is None else to_act


def _play_rows(deal: Deal) -> list[str]:
    """The Play section: a row a trick, columns in play order from the first leader."""
    first = _first_leader(deal)
    tricks = list(deal.tricks)
    current = deal.current_trick
    if current is not None and current not in tricks:
        tricks.append(current)
    rows = []
    for trick in tricks:
        by_seat = dict(trick.plays)
        cells = []
        for k in range(4):
            seat = Seat((first + k) & 3)
            cells.append(_card(by_seat[seat]) if seat in by_seat else "- ")
        rows.append(" ".join(cells).rstrip())
    return rows


def _pbn_board(
    deal: Deal,
    number: int,
    players: Mapping[Seat, str],
    event: str,
    date: str,
    scores: tuple[int, int] | None,
) -> list[str]:
    lines = [
        _tag("Event", event),
        _tag("Site", "?"),
        _tag("Date", date),
        _tag("Board", number),
    ]
    for letter in ("W", "N", "E", "S"):
        ours = Seat(PBN_LETTERS.index(letter))
        lines.append(_tag(_BRIDGE_NAMES[letter], players.get(ours, "?")))
    lines.append(_tag("Dealer", PBN_LETTERS[deal.dealer]))
    lines.append(_tag("Vulnerable", "None"))
    lines.append(_tag("Deal", _deal_tag(deal)))
    lines.append(_tag("Scoring", "Tarneeb"))
    lines.extend(_contract_tags(deal))
    rows = _play_rows(deal)
    if rows:
        lines.append(_tag("Play", PBN_LETTERS[_first_leader(deal)]))
        lines.extend(rows)
    lines.append(_tag("TarneebRules", preset_name(deal.rules) or "custom"))
    lines.append(_tag("TarneebSeats", " ".join(f"{PBN_LETTERS[s]}={_OUR_NAMES[s]}" for s in SEATS)))
    auction = _auction_text(deal)
    if auction:
        lines.append(_tag("TarneebAuction", auction))
    if deal.contract is not None:
        lines.append(_tag("TarneebContract", str(deal.contract)))
    bids = deal.bids
    if any(b is not None for b in bids):
        lines.append(
            _tag(
                "TarneebBids",
                " ".join(f"{s.letter}={bids[s]}" for s in SEATS if bids[s] is not None),
            )
        )
    if deal.rules.count is Count.CARD_POINTS:
        points = deal.card_points_taken
        lines.append(
            _tag("TarneebCardPoints", f"NS={points[0] + points[2]} EW={points[1] + points[3]}")
        )
    result = deal.result
    if result is not None:
        ns, ew = result.team_points
        lines.append(_tag("TarneebPoints", f"NS={ns} EW={ew}"))
        if result.seat_points is not None:
            seat_points = result.seat_points
            lines.append(
                _tag("TarneebSeatPoints", " ".join(f"{s.letter}={seat_points[s]}" for s in SEATS))
            )
    if scores is not None:
        lines.append(_tag("TarneebScore", f"NS={scores[0]} EW={scores[1]}"))
    lines.append(_tag("TarneebDeal", format_deal(deal)))
    return lines


_HEADER = (
    "% PBN 2.1",
    "% EXPORT",
    "% Written by tarneeb. Seats are mapped by play order: our South is PBN's North,",
    "% our North is PBN's South. In Tarneeb the declarer leads: the Play tag names the leader.",
)


def write_pbn(
    deals: Sequence[Deal],
    players: Mapping[str, str] | None = None,
    event: str = "Tarneeb",
    date: datetime.date | None = None,
    scores: Sequence[tuple[int, int]] | None = None,
) -> str:
    """PBN text for ``deals``, one board each, numbered from 1.

    :param players: names by seat (``"S"``, ``"south"`` ...), written under PBN's seat names.
    :param scores: the match score after each deal, if known (a ``TarneebScore`` tag).
    """
    named = {parse_seat(k): str(v) for k, v in (players or {}).items()}
    day = "?" if date is None else date.strftime("%Y.%m.%d")
    out = list(_HEADER)
    for i, deal in enumerate(deals):
        out.append("")
        out.extend(
            _pbn_board(deal, i + 1, named, event, day, None if scores is None else scores[i])
        )
    return "\n".join(out) + "\n"


def write_pbn_match(match: Match, players: Mapping[str, str] | None = None) -> str:
    """PBN text for every deal of ``match``, with the running score after each."""
    running: list[tuple[int, int]] = []
    ns = ew = 0
    for deal in match.deals:
        result = deal.result
        if result is not None:
            ns += result.team_points[0]
            ew += result.team_points[1]
        running.append((ns, ew))
    return write_pbn(match.deals, players, scores=running)


# -- reading ---------------------------------------------------------------------------


def _endplay_pbn() -> Any:
    try:
        from endplay.parsers import pbn
    except ImportError:
        raise PbnError(
            "reading PBN needs endplay's parser: pip install 'tarneeb[solver]'"
        ) from None
    return pbn


def read_pbn(text: str) -> list[Deal]:
    """The deals of PBN ``text``, replayed as far as their play goes.

    Boards written by :func:`write_pbn` come back exactly (their ``TarneebDeal``
    tag), after a check that the standard ``Deal`` tag holds the same hands.
    Any other board becomes a deal under the ``classic`` rules (``sol``'s
    no-trump bids for a no-trump contract) in which the opening leader won the
    auction with the contract's level plus six and named its strain, so that
    the hands, the trump, the lead and the play are the file's.

    :raises PbnError: naming the board and what is wrong with it.
    """
    pbn = _endplay_pbn()
    try:
        boards = pbn.loads(text)
    except Exception as exc:  # endplay raises several kinds for broken files
        raise PbnError(f"not readable PBN: {_one_line(exc)}") from None
    if not boards:
        raise PbnError("no boards in the PBN text")
    return [_board_deal(i + 1, board) for i, board in enumerate(boards)]


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _board_deal(number: int, board: Any) -> Deal:
    where = f"board {board.board_num or number}"
    hands = _board_hands(board, where)
    ours = board.info.get("TarneebDeal") if hasattr(board, "info") else None
    if ours is not None:
        line = ours.value if hasattr(ours, "value") else str(ours)
        try:
            deal = parse_deal(line)
        except TarneebError as exc:
            raise PbnError(f"{where}: its TarneebDeal tag: {exc}") from None
        if tuple(deal.dealt) != hands:
            raise PbnError(f"{where}: the TarneebDeal tag's hands differ from its Deal tag")
        return deal
    return _bridge_deal(board, hands, where)


def _board_hands(board: Any, where: str) -> tuple[int, int, int, int]:
    from endplay.types import Player

    masks = []
    for letter in PBN_LETTERS:
        hand = board.deal[Player.find(letter)]
        text = hand.to_pbn()
        try:
            masks.append(CardSet.parse(text).mask)
        except TarneebError as exc:
            raise PbnError(f"{where}: {_BRIDGE_NAMES[letter]}'s hand: {exc}") from None
    if sum(m.bit_count() for m in masks) != 52:
        raise PbnError(f"{where}: a deal of {sum(m.bit_count() for m in masks)} cards, not 52")
    a, b, c, d = masks
    return a, b, c, d


def _bridge_deal(board: Any, hands: tuple[int, int, int, int], where: str) -> Deal:
    contract = board.contract
    if contract is None or contract.is_passout():
        raise PbnError(f"{where}: no contract to play (passed out or missing)")
    denom = int(contract.denom)
    strain = "NT" if denom == 4 else "SHDC"[denom]
    play = [_card_text(card) for card in board.play]
    if play:
        first = Card.parse(play[0])
        leader = next(s for s in SEATS if hands[s] >> first & 1)
    else:
        leader = Seat((PBN_LETTERS.index(str(contract.declarer.abbr)) + 1) & 3)
    rules = find_rules("sol" if strain == "NT" else "classic")
    dealer = leader.previous  # the leader is first hand: the first to bid
    deal = Deal(rules, dealer, list(hands))
    level = int(contract.level) + 6
    try:
        deal.push(f"{level}NT" if strain == "NT" else str(level))
        for _ in range(3):
            deal.push("pass")
        if strain != "NT":
            deal.push(strain)
        for card in play:
            deal.push(card)
    except TarneebError as exc:
        raise PbnError(f"{where}: the play does not replay: {exc}") from None
    return deal


def _card_text(card: Any) -> str:
    """Our text of an endplay card (``ST`` in PBN, ``TS`` here)."""
    suit = int(card.suit)
    if suit > 3:
        raise PbnError("a placeholder card in the play")
    return f"{card.rank.abbr}{'SHDC'[suit]}"
