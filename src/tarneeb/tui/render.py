"""Text for the terminal app, as pure functions of a :class:`~tarneeb.view.View`.

Nothing here knows Textual: each function returns a :class:`rich.text.Text`
(or plain strings), so what the player sees can be tested line by line.
Suits are drawn with their symbols, or with letters where the terminal
cannot show them (``unicode=False``).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from rich.text import Text

from tarneeb.actions import Action, Bid, ChooseTrump, Phase, Strain, format_action
from tarneeb.cards import Card, Suit
from tarneeb.deal import Trick
from tarneeb.i18n import DEFAULT_LANGUAGE, Translator, translator
from tarneeb.rules import Bidding, Count, Doubling, Rules
from tarneeb.seats import SEATS, Seat, Team
from tarneeb.tui import names
from tarneeb.view import View

__all__ = [
    "HELP_WIDTH",
    "LEGEND",
    "RED",
    "Look",
    "action_label",
    "auction_text",
    "card_points_taken",
    "card_text",
    "fit_pieces",
    "hand_order",
    "help_text",
    "legend",
    "seat_name",
    "status_line",
    "table_text",
    "trick_text",
]

RED = "bold red"
BLACK = "bold"
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""Hands are shown black, red, black, red so that the suits stand apart."""

LEGEND = "(D) dealer  3t tricks won  * led  x2 doubled"
"""What the marks of the table mean, in English (``tui.legend`` of the catalogue)."""

Names = Callable[[Seat], str]

WORD_CALLS = ("pass", "double", "raise", "stand", "redeal")
"""The calls written as words (:func:`~tarneeb.actions.format_action`), said in the
player's language (``call.*`` of the catalogue)."""
CELL = 6
"""The auction's cells: a call of up to this many columns, then one space."""


@dataclass(frozen=True)
class Look:
    """How the terminal draws: suit symbols (``unicode``) and colours (``colour``).

    Without colour (``NO_COLOR``) the red suits are drawn like the black ones,
    since a monochrome terminal turns red into a grey near the background;
    the suit symbol or letter tells the suits apart, and marks (not shades)
    tell what may be played.
    """

    unicode: bool = True
    colour: bool = True
    lang: str = DEFAULT_LANGUAGE
    """The language of the catalogue the texts come from (``tui.*`` messages)."""

    def tr(self, key: str, /, **params: object) -> str:
        """The catalogue's message ``key`` in the look's language, placeholders filled."""
        return _translator(self.lang)(key, **params)

    def seat_letter(self, seat: Seat) -> str:
        """The seat's short name in the look's language (:func:`~tarneeb.tui.names.seat_letter`)."""
        return names.seat_letter(seat, self.lang)

    def side(self, team: Team) -> str:
        """A side's name in the look's language (:func:`~tarneeb.tui.names.side_name`)."""
        return names.side_name(team, self.lang, self.unicode)

    def sides(self) -> dict[str, str]:
        """Both sides' names, as the catalogue's ``{ns_side}`` and ``{ew_side}``."""
        return names.sides(self.lang, self.unicode)

    @property
    def turn(self) -> str:
        """The mark of the seat to act."""
        return "▶ " if self.unicode else "> "

    @property
    def arrow(self) -> str:
        return " → " if self.unicode else " -> "

    def suit(self, suit: Suit) -> str:
        """The style of ``suit``'s cards."""
        if self.colour and suit in (Suit.HEARTS, Suit.DIAMONDS):
            return RED
        return BLACK

    def card(self, card: Card, dim: bool = False) -> Text:
        """A card in its suit's colour, e.g. ``Q♥`` (or ``QH``)."""
        style = self.suit(card.suit)
        return Text(card.format(self.unicode), style=f"dim {style}" if dim else style)

    def call(self, action: Action) -> str:
        """An action's text in the look's language: ``8♥``, ``AS``, and the calls that
        are words (pass, double, raise, stand, redeal) in the catalogue's short form,
        which fits a cell of the auction (``call.short.*``; the browser says ``call.*``)."""
        text = format_action(action, self.unicode)
        return self.tr(f"call.short.{text}") if text in WORD_CALLS else text

    def action(self, action: Action) -> Text:
        """An action, a card or a bid, in its suit's colour where it has one."""
        if isinstance(action, Card):
            return self.card(action)
        text = Text(self.call(action))
        if isinstance(action, ChooseTrump):
            text.stylize(self.suit(action.suit))
        elif isinstance(action, Bid) and action.strain is not None:
            suit = action.strain.suit
            text.stylize(self.suit(suit) if suit is not None else BLACK)
        return text

    def strain(self, strain: Strain) -> Text:
        suit = strain.suit
        return Text(
            strain.symbol if self.unicode else strain.letter,
            style=self.suit(suit) if suit is not None else BLACK,
        )

    def trump(self, suit: Suit) -> Text:
        return Text(suit.symbol if self.unicode else suit.letter, style=self.suit(suit))


@cache
def _translator(lang: str) -> Translator:
    return translator(lang)


PLAIN = Look()


def seat_name(seat: Seat, look: Look = PLAIN) -> str:
    """The seat's name for players: ``South``, ``Юг``.

    >>> seat_name(Seat.SOUTH), seat_name(Seat.WEST, Look(lang="es"))
    ('South', 'Oeste')
    """
    return look.tr(f"tui.seat.{seat.name.lower()}")


def suit_style(suit: Suit, colour: bool = True) -> str:
    return Look(colour=colour).suit(suit)


def card_text(card: Card, unicode: bool = True, dim: bool = False, colour: bool = True) -> Text:
    """A card in its suit's colour, e.g. ``Q♥`` (or ``QH``)."""
    return Look(unicode, colour).card(card, dim)


def hand_order(cards: Sequence[Card]) -> list[Card]:
    """Cards sorted by suit (spades, hearts, clubs, diamonds), high to low."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))


def action_label(action: Action, unicode: bool = True, lang: str = DEFAULT_LANGUAGE) -> str:
    """The label of a choice in the bidding box: ``pass``, ``8``, ``8♥``, ``♥ hearts``.

    >>> action_label(ChooseTrump(Suit.HEARTS)), action_label(ChooseTrump(Suit.HEARTS), lang="ru")
    ('♥ hearts', '♥ черви')
    >>> from tarneeb.actions import Pass
    >>> action_label(Pass(), lang="es"), action_label(Bid(8))
    ('paso', '8')
    """
    if isinstance(action, ChooseTrump):
        name = _translator(lang)(f"strain.{action.suit.name.lower()}")
        return f"{format_action(action, unicode)} {name}"
    return Look(unicode, lang=lang).call(action)


def _centre(text: Text, width: int) -> Text:
    pad = max(0, (width - text.cell_len) // 2)
    return Text(" " * pad) + text


def _beside(left: Text, right: Text, width: int) -> Text:
    gap = max(1, width - left.cell_len - right.cell_len)
    return left + Text(" " * gap) + right


def _seat_label(view: View, seat: Seat, names: Names, look: Look) -> Text:
    text = Text()
    if view.to_act == seat:
        text.append(look.turn, style="bold yellow")
    text.append(names(seat), style="bold" if seat == view.seat else "")
    if view.phase is Phase.PLAY or view.phase is Phase.SCORED:
        text.append(" " + look.tr("tui.seat.tricks", tricks=view.tricks_taken[seat]), style="cyan")
    if view.rules.is_individual and view.bids[seat] is not None:
        text.append(" " + look.tr("tui.seat.bid", bid=view.bids[seat]), style="cyan")
    if seat == view.dealer:
        text.append(" " + look.tr("tui.seat.dealer"), style="magenta")
    return text


def _shown_trick(view: View) -> tuple[Trick | None, bool]:
    """The trick to draw in the middle: the current one, or the last one while the next is empty."""
    current = view.current_trick
    if current is not None and current.cards:
        return current, False
    if view.tricks:
        return view.tricks[-1], True
    return None, False


def card_points_taken(view: View) -> tuple[int, int]:
    """The card points (A 11, 10 10, K 4, Q 3, J 2) each side has won in tricks so far.

    >>> from tarneeb import Match, Seat, find_rules
    >>> card_points_taken(Match(find_rules("tarneeb400"), seed=1).view(Seat.SOUTH))
    (0, 0)
    """
    points = [0, 0]
    for trick in view.tricks:
        if trick.winner is not None:
            points[trick.winner & 1] += sum(card.card_points for card in trick.cards)
    return points[0], points[1]


def table_text(
    view: View,
    names: Names,
    width: int = 46,
    unicode: bool = True,
    look: Look | None = None,
    gap: int = 1,
) -> Text:
    """The table from the view's seat: partner across, left-hand opponent left, right-hand right.

    Play goes to the right (counter-clockwise): from the viewer's seat to the
    seat on its right, then across, then left. ``gap`` blank lines part the
    rows (more where the terminal is tall).
    """
    look = look if look is not None else Look(unicode)
    me = view.seat
    right, across, left = me.next, me.next.next, me.previous
    trick, finished = _shown_trick(view)
    played: dict[Seat, Text] = {}
    if trick is not None:
        for seat, card in trick.plays:
            mark = "*" if seat == trick.leader else " "
            played[seat] = look.card(card, dim=finished) + Text(mark, style="dim")
    blank = Text("   ")
    space = [Text("") for _ in range(gap)]
    lines = [
        _centre(_seat_label(view, across, names, look), width),
        _centre(played.get(across, blank), width),
        *space,
        _beside(_seat_label(view, left, names, look), _seat_label(view, right, names, look), width),
        _beside(
            Text("  ") + played.get(left, blank),
            played.get(right, blank) + Text("  "),
            width,
        ),
        *space,
        _centre(played.get(me, blank), width),
        _centre(_seat_label(view, me, names, look), width),
    ]
    if trick is not None and finished and trick.winner is not None:
        lines.append(
            _centre(
                Text(look.tr("tui.table.last-trick", seat=names(trick.winner)), style="dim"), width
            )
        )
    else:
        arrow = look.arrow.join(look.seat_letter(s) for s in (me, right, across, left))
        goes = look.tr("tui.table.play-goes", order=arrow)
        if Text(goes).cell_len > width:  # Arabic's seats are words: the way is the arrows'
            goes = look.tr("tui.table.play-goes.short", order=arrow)
        lines.append(_centre(Text(goes, style="dim"), width))
    lines.append(status_line(view, look, width))
    return Text("\n").join(lines)


def status_line(view: View, look: Look = PLAIN, width: int | None = None) -> Text:
    """The contract (or the bids), the trump and how the sides stand in the play.

    Each of the three stays whole: where they do not fit ``width`` together (Arabic's
    sides are words), the next goes on a line of its own (:func:`fit_pieces`).
    """
    contract = view.contract
    rules = view.rules
    pieces: list[Text] = []
    if contract is not None:
        text = Text(look.tr("tui.status.contract") + " ")
        text.append(str(contract.level), style="bold")
        if contract.strain is not None:
            text.append(" ")
            text.append_text(look.strain(contract.strain))
        if contract.multiplier != 1:
            text.append(f" x{contract.multiplier}")
        text.append(" " + look.tr("tui.status.by", seat=seat_name(contract.declarer, look)))
        pieces.append(text)
    elif rules.is_individual and view.phase is not Phase.AUCTION:
        total = sum(b for b in view.bids if b is not None)
        pieces.append(Text(look.tr("tui.status.bids-total", total=total)))
    if view.trump is not None and (contract is None or contract.strain is None):
        pieces.append(Text(look.tr("tui.status.trump") + " ") + look.trump(view.trump))
    if view.phase is Phase.PLAY:
        if rules.count is Count.CARD_POINTS:  # what the bid counts; tricks are by the seats
            ns, ew = card_points_taken(view)
            pieces.append(Text(look.tr("tui.status.points", ns=ns, ew=ew, **look.sides())))
        elif not rules.is_individual:  # alone, each player's tricks are by their seat
            taken = view.tricks_taken
            ns, ew = taken[0] + taken[2], taken[1] + taken[3]
            pieces.append(Text(look.tr("tui.status.tricks", ns=ns, ew=ew, **look.sides())))
    return fit_pieces(pieces, width)


def fit_pieces(pieces: Sequence[Text | str], width: int | None, sep: str = "  ") -> Text:
    """``pieces`` on one line, ``sep`` apart, where they fit in ``width`` cells; else on as
    many lines as they need, each piece whole.

    A narrow pane (the table, the score box) left to wrap its own text breaks it at any
    space: a label parted from its figure ("شرق–غرب" at a line's end, its "0" below).
    Only a piece wider than the pane alone is left to wrap.

    >>> fit_pieces(["N-S 7", "E-W 12", "to 41"], 14, " ").plain
    'N-S 7 E-W 12\\nto 41'
    >>> fit_pieces(["N-S 7", "E-W 12"], None).plain
    'N-S 7  E-W 12'
    """
    lines: list[Text] = []
    for piece in pieces:
        text = Text(piece) if isinstance(piece, str) else piece
        if not text:
            continue
        if lines and (width is None or lines[-1].cell_len + len(sep) + text.cell_len <= width):
            lines[-1] = Text.assemble(lines[-1], sep, text)
        else:
            lines.append(text)
    return Text("\n").join(lines)


def auction_text(view: View, unicode: bool = True, look: Look | None = None) -> Text:
    """The calls so far, each under its seat's column: South, East, North, West (play order).

    A row runs from South to West; a seat that does not speak in a round (it
    passed before, or the auction jumped past it) leaves its cell blank, so
    every call stands under the seat that made it.
    """
    look = look if look is not None else Look(unicode)
    head = Text(
        " ".join(f"{look.seat_letter(s):<{CELL}}" for s in SEATS).rstrip(), style="bold underline"
    )
    entries = [(seat, a) for seat, a in view.history if not isinstance(a, Card)]
    if not entries:
        return Text("\n").join([head, Text(look.tr("tui.auction.none"), style="dim")])
    rows: list[list[Text | None]] = []
    trump_lines: list[Text] = []
    for seat, action in entries:
        if isinstance(action, ChooseTrump):
            trump_lines.append(
                Text(look.tr("tui.auction.chose-trump", seat=seat_name(seat, look)) + " ")
                + look.action(action)
            )
            continue
        column = int(seat)
        if not rows or any(cell is not None for cell in rows[-1][column:]):
            rows.append([None, None, None, None])
        rows[-1][column] = look.action(action)
    lines = [head]
    for row in rows:
        line = Text()
        for index, cell in enumerate(row):
            if index:
                line.append(" ")
            shown = cell if cell is not None else Text("")
            line.append_text(shown)
            line.append(" " * max(0, CELL - shown.cell_len))
        line.rstrip()
        lines.append(line)
    return Text("\n").join(lines + trump_lines)


def trick_text(trick: Trick, names: Names, unicode: bool = True, look: Look | None = None) -> Text:
    """A trick card by card, with who played each and who won it."""
    look = look if look is not None else Look(unicode)
    lines = []
    for seat, card in trick.plays:
        line = Text(f"{names(seat):<18}")
        line.append_text(look.card(card))
        if seat == trick.leader:
            line.append("  " + look.tr("tui.trick.led"), style="dim")
        if seat == trick.winner:
            line.append("  " + look.tr("tui.trick.won"), style="bold green")
        lines.append(line)
    return Text("\n").join(lines)


def legend(rules: Rules, look: Look = PLAIN) -> str:
    """What the marks of the table mean; ``x2`` only where the stakes can be multiplied.

    >>> from tarneeb import find_rules
    >>> legend(find_rules("classic")), "x2" in legend(find_rules("egyptian"))
    ('(D) dealer  3t tricks won  * led', True)
    """
    plain = rules.doubling is Doubling.NONE
    return look.tr("tui.legend.plain" if plain else "tui.legend")


HELP_WIDTH = 72
"""The help page's width: what the dialog shows of a line at 80 columns (78, less its
border, padding and scroll bar)."""

_KEY_LINE = re.compile(r"(\s+\S+(?: \S+)*?(?:\s{2,}|\s+(?=\S+:)))(\S.*)")
"""A line of a table of keys: the key column (up to two spaces), then what it does."""


def _fit(lines: Sequence[str], width: int) -> list[str]:
    """``lines`` no wider than ``width``: a long line of a table of keys goes on under
    its description column, a long line of prose under its own start, by words."""
    fitted: list[str] = []
    for line in lines:
        if len(line) <= width:
            fitted.append(line)
            continue
        key = _KEY_LINE.fullmatch(line)
        indent = " " * len(key.group(1)) if key else " " * (len(line) - len(line.lstrip()))
        fitted += textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)
    return fitted


def _paragraph(text: str) -> list[str]:
    """A catalogue's paragraph of prose as one line (its own line breaks are a translator's
    guess at a width: :func:`_fit` breaks it where the page is)."""
    return [" ".join(text.split("\n"))]


def help_text(rules: Rules, look: Look = PLAIN, width: int = HELP_WIDTH) -> str:
    """The help page for ``rules``: only the keys and calls these rules have, in lines no
    wider than ``width``.

    >>> from tarneeb import find_rules
    >>> "x doubles" in help_text(find_rules("classic")), "x doubles" in help_text(
    ...     find_rules("classic").replace(doubling="double"))
    (False, True)
    """
    tr = look.tr
    ten = "10♥" if look.unicode else "10h"
    calls = [tr("tui.help.call.bid")]
    if rules.bidding is Bidding.STRAINS:
        calls = [tr("tui.help.call.strain")]
    if not rules.is_individual:
        calls.append(tr("tui.help.call.pass"))
    if rules.doubling is Doubling.DOUBLE:
        calls.append(tr("tui.help.call.double"))
    if rules.weak_redeal:
        calls.append(tr("tui.help.call.redeal"))
    lines = [
        tr("tui.help.title"),
        "",
        *_paragraph(tr("tui.help.intro")),
        "",
        *tr("tui.help.keys.move").split("\n"),
        tr("tui.help.keys.card", ten=f"{ten:<5}"),
        "  " + tr("sep.items").join(calls),
    ]
    if rules.bidding is not Bidding.INDIVIDUAL and rules.fixed_trump is None:
        lines.append(tr("tui.help.keys.trump"))
    if rules.doubling is Doubling.RAISE:
        lines.append(tr("tui.help.keys.raise"))
    lines += [
        tr("tui.help.keys.mouse"),
        "",
        *tr("tui.help.keys.commands").split("\n"),
        "",
        tr("tui.help.bare-letter"),
        "",
        tr("tui.help.legend", legend=legend(rules, look)),
    ]
    return "\n".join(_fit(lines, width)) + "\n"
