"""Text for the terminal app, as pure functions of a :class:`~tarneeb.view.View`.

Nothing here knows Textual: each function returns a :class:`rich.text.Text`
(or plain strings), so what the player sees can be tested line by line.
Suits are drawn with their symbols, or with letters where the terminal
cannot show them (``unicode=False``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text

from tarneeb.actions import Action, Bid, ChooseTrump, Phase, format_action
from tarneeb.cards import Card, Suit
from tarneeb.deal import Trick
from tarneeb.seats import SEATS, Seat
from tarneeb.view import View

__all__ = [
    "RED",
    "action_label",
    "auction_text",
    "card_text",
    "hand_order",
    "table_text",
    "trick_text",
]

RED = "bold red"
BLACK = "bold"
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""Hands are shown black, red, black, red so that the suits stand apart."""

Names = Callable[[Seat], str]


def suit_style(suit: Suit) -> str:
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


def card_text(card: Card, unicode: bool = True, dim: bool = False) -> Text:
    """A card in its suit's colour, e.g. ``Q♥`` (or ``QH``)."""
    style = suit_style(card.suit)
    return Text(card.format(unicode), style=f"dim {style}" if dim else style)


def hand_order(cards: Sequence[Card]) -> list[Card]:
    """Cards sorted by suit (spades, hearts, clubs, diamonds), high to low."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))


def action_label(action: Action, unicode: bool = True) -> str:
    """The label of a choice in the bidding box: ``pass``, ``8``, ``8♥``, ``♥ hearts``."""
    if isinstance(action, ChooseTrump):
        return f"{format_action(action, unicode)} {action.suit.name.lower()}"
    return format_action(action, unicode)


def _action_text(action: Action, unicode: bool) -> Text:
    if isinstance(action, Card):
        return card_text(action, unicode)
    if isinstance(action, ChooseTrump):
        return Text(format_action(action, unicode), style=suit_style(action.suit))
    if isinstance(action, Bid) and action.strain is not None and action.strain.suit is not None:
        return Text(format_action(action, unicode), style=suit_style(action.strain.suit))
    return Text(format_action(action, unicode))


def _centre(text: Text, width: int) -> Text:
    pad = max(0, (width - text.cell_len) // 2)
    return Text(" " * pad) + text


def _beside(left: Text, right: Text, width: int) -> Text:
    gap = max(1, width - left.cell_len - right.cell_len)
    return left + Text(" " * gap) + right


def _seat_label(view: View, seat: Seat, names: Names) -> Text:
    text = Text()
    if view.to_act == seat:
        text.append("▶ ", style="bold yellow")
    text.append(names(seat), style="bold" if seat == view.seat else "")
    if view.phase is Phase.PLAY or view.phase is Phase.SCORED:
        text.append(f" {view.tricks_taken[seat]}t", style="cyan")
    if seat == view.dealer:
        text.append(" (D)", style="magenta")
    return text


def _shown_trick(view: View) -> tuple[Trick | None, bool]:
    """The trick to draw in the middle: the current one, or the last one while the next is empty."""
    current = view.current_trick
    if current is not None and current.cards:
        return current, False
    if view.tricks:
        return view.tricks[-1], True
    return None, False


def table_text(view: View, names: Names, width: int = 46, unicode: bool = True) -> Text:
    """The table from the view's seat: partner across, left-hand opponent left, right-hand right.

    Play goes to the right (counter-clockwise): from the viewer's seat to the
    seat on its right, then across, then left.
    """
    me = view.seat
    right, across, left = me.next, me.next.next, me.previous
    trick, finished = _shown_trick(view)
    played: dict[Seat, Text] = {}
    if trick is not None:
        for seat, card in trick.plays:
            mark = "*" if seat == trick.leader else " "
            played[seat] = card_text(card, unicode, dim=finished) + Text(mark, style="dim")
    blank = Text("   ")
    lines = [
        _centre(_seat_label(view, across, names), width),
        _centre(played.get(across, blank), width),
        Text(""),
        _beside(_seat_label(view, left, names), _seat_label(view, right, names), width),
        _beside(
            Text("  ") + played.get(left, blank),
            played.get(right, blank) + Text("  "),
            width,
        ),
        Text(""),
        _centre(played.get(me, blank), width),
        _centre(_seat_label(view, me, names), width),
    ]
    if trick is not None and finished and trick.winner is not None:
        lines.append(_centre(Text(f"last trick: {names(trick.winner)} won it", style="dim"), width))
    else:
        arrow = " → ".join(s.letter for s in (me, right, across, left))
        lines.append(_centre(Text(f"play goes {arrow} (to the right)", style="dim"), width))
    lines.append(_status_line(view, unicode))
    return Text("\n").join(lines)


def _status_line(view: View, unicode: bool) -> Text:
    text = Text()
    contract = view.contract
    if contract is not None:
        text.append("Contract ")
        text.append(str(contract.level), style="bold")
        if contract.strain is not None:
            text.append(" ")
            suit = contract.strain.suit
            text.append(
                contract.strain.symbol if unicode else contract.strain.letter,
                style=suit_style(suit) if suit is not None else "bold",
            )
        if contract.multiplier != 1:
            text.append(f" x{contract.multiplier}")
        text.append(f" by {contract.declarer.name.title()}")
    elif view.rules.is_individual and view.phase is not Phase.AUCTION:
        text.append("Bids ")
        text.append(
            " ".join(
                f"{s.letter}{'-' if b is None else b}"
                for s, b in zip(SEATS, view.bids, strict=True)
            )
        )
    if view.trump is not None and (contract is None or contract.strain is None):
        text.append("  trump ")
        text.append(
            view.trump.symbol if unicode else view.trump.letter, style=suit_style(view.trump)
        )
    if view.phase is Phase.PLAY:
        taken = view.tricks_taken
        text.append(f"  tricks NS {taken[0] + taken[2]} EW {taken[1] + taken[3]}")
    return text


def auction_text(view: View, unicode: bool = True) -> Text:
    """The bids so far, in columns South, East, North, West (play order)."""
    cells: list[Text] = []
    head = Text("  ".join(f"{s.letter:<5}" for s in SEATS).rstrip(), style="bold underline")
    entries = [(seat, a) for seat, a in view.history if not isinstance(a, Card)]
    if not entries:
        return Text("\n").join([head, Text("no bids yet", style="dim")])
    first = entries[0][0]
    cells.extend(Text("") for _ in range(int(first)))
    lines = [head]
    trump_lines: list[Text] = []
    for seat, action in entries:
        if isinstance(action, ChooseTrump):
            trump_lines.append(
                Text(f"{seat.name.title()} chose trump ") + _action_text(action, unicode)
            )
            continue
        cells.append(_action_text(action, unicode))
    for row in range(0, len(cells), 4):
        line = Text()
        for index, cell in enumerate(cells[row : row + 4]):
            if index:
                line.append("  ")
            line.append_text(cell)
            line.append(" " * max(0, 5 - cell.cell_len))
        line.rstrip()
        lines.append(line)
    return Text("\n").join(lines + trump_lines)


def trick_text(trick: Trick, names: Names, unicode: bool = True) -> Text:
    """A trick card by card, with who played each and who won it."""
    lines = []
    for seat, card in trick.plays:
        line = Text(f"{names(seat):<18}")
        line.append_text(card_text(card, unicode))
        if seat == trick.leader:
            line.append("  led", style="dim")
        if seat == trick.winner:
            line.append("  won", style="bold green")
        lines.append(line)
    return Text("\n").join(lines)
