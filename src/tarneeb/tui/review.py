"""The review of finished deals inside ``tarneeb play``: trick by trick, each card with its
double-dummy cost, as ``tarneeb analyze`` prints it.

The analysis runs in a worker thread (DDS through endplay when it is
installed, our own solver otherwise, which takes longer: the page shows how
long it has been at it). Without any solver the page shows the play alone and
says why.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Static

from tarneeb.cards import CardSet
from tarneeb.deal import Deal
from tarneeb.errors import TarneebError
from tarneeb.seats import SEATS, Seat
from tarneeb.tui.controller import player_lines
from tarneeb.tui.render import Look, seat_name
from tarneeb.tui.screens import _Page

if TYPE_CHECKING:
    from tarneeb.solver.analysis import DealAnalysis

__all__ = ["ReviewScreen", "analyse", "review_text", "solver_backend"]

Names = Callable[[Seat], str]


def solver_backend() -> str | None:
    """``"dds"``, ``"own"``, or ``None`` when no solver can be imported."""
    try:
        from tarneeb.solver.solve import backend_name
    except ImportError:
        return None
    return backend_name("auto")


def analyse(deal: Deal, backend: str) -> DealAnalysis:
    """:func:`tarneeb.solver.analysis.analyze_deal` (slow with our own solver: call it in a thread)."""
    from tarneeb.solver.analysis import analyze_deal

    return analyze_deal(deal, backend)


def review_text(
    deal: Deal,
    number: int,
    names: Names,
    look: Look,
    analysis: DealAnalysis | None = None,
    note: str = "",
) -> Text:
    """Deal ``number`` for the review: hands as dealt, then the play trick by trick; with
    ``analysis`` each card shows North-South's double-dummy tricks after it and ``*``
    marks a card that cost its side tricks (then listed with the best cards)."""
    text = Text()
    tr = look.tr
    head = tr("tui.review.deal", number=number, dealer=seat_name(deal.dealer, look))
    contract = deal.contract
    if contract is not None:
        called = str(contract.level)
        if contract.strain is not None:
            called += contract.strain.symbol if look.unicode else contract.strain.letter
        if contract.multiplier != 1:
            called += f" x{contract.multiplier}"
        head += tr("tui.review.contract", contract=called, seat=names(contract.declarer))
    text.append(head + "\n", style="bold")
    for seat in SEATS:
        text.append(f"  {names(seat):<17} {CardSet(deal.dealt[seat]).format(look.unicode)}\n")
    if deal.thrown_in is not None:
        text.append("\n" + tr("tui.review.thrown-in") + "\n")
        return text
    if note:
        text.append(f"\n{note}\n", style="italic")
    if analysis is not None and analysis.cards:
        text.append(
            "\n" + tr("tui.review.dd-head", start=analysis.ns_start) + "\n",
            style="dim",
        )
        costs = {(c.trick, c.seat): c for c in analysis.cards}
    else:
        costs = {}
        text.append("\n" + tr("tui.review.play") + "\n", style="dim")
    letter = max(len(look.seat_letter(s)) for s in SEATS)  # the columns line up
    for index, trick in enumerate(deal.tricks, 1):
        text.append(f"  {index:>2}. ")
        for position, (seat, card) in enumerate(trick.plays):
            if position:
                text.append("   ")
            text.append(f"{look.seat_letter(seat):<{letter}} ")
            text.append_text(look.card(card))
            seen = costs.get((index, seat))
            if seen is not None:
                text.append("*" if seen.cost else " ", style="bold")
                text.append(f"{seen.ns_after:>3}")
        if trick.winner is not None:
            text.append(
                "   " + tr("tui.review.won-by", seat=look.seat_letter(trick.winner)), style="dim"
            )
        text.append("\n")
    for seen in costs.values():
        if not seen.cost:
            continue
        side = tr("tui.review.ns" if seen.seat % 2 == 0 else "tui.review.ew")
        lost = tr("tui.review.a-trick") if seen.cost == 1 else tr("tui.review.tricks", n=seen.cost)
        before, _, after = tr(
            "tui.review.cost",
            trick=seen.trick,
            seat=names(seen.seat),
            side=side,
            lost=lost,
            card="{card}",
        ).partition("{card}")
        text.append("  * " + before)
        text.append_text(look.card(seen.card))
        text.append(after + " (" + tr("tui.review.best") + " ")
        for k, best in enumerate(seen.best):
            if k:
                text.append(" ")
            text.append_text(look.card(best))
        text.append(")\n")
    if deal.rules.is_individual:  # each player's bid and tricks: the sides' sum decides nothing
        text.append("\n" + "\n".join(player_lines(deal, names, tr)) + "\n")
        return text
    taken = deal.team_tricks(0)
    text.append("\n" + tr("tui.review.took", ns=taken, ew=13 - taken) + "\n")
    return text


class ReviewScreen(_Page):
    """The finished deals of a match, one at a time: Left/Right (or ``p``/``n``) go from
    deal to deal, Escape or ``q`` closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "close"),
        Binding("left,p", "step(-1)", "previous deal", show=False),
        Binding("right,n", "step(1)", "next deal", show=False),
    ]

    def __init__(
        self,
        deals: Sequence[tuple[int, Deal]],
        names: Names,
        look: Look,
        start: int = -1,
    ) -> None:
        super().__init__(name="review")
        self.deals = list(deals)
        self.names = names
        self.look = look
        self.index = start % len(self.deals) if self.deals else 0
        self.analyses: dict[int, DealAnalysis] = {}
        self.problems: dict[int, str] = {}
        self.backend = solver_backend()
        self._started = 0.0
        self._ticker: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="-tall"):
            yield Static(Text(self.look.tr("tui.review.title"), style="bold"), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(Text(""), id="review-text")
            yield Static(
                Text(self.look.tr("tui.review.keys"), style="dim"),
                id="dialog-keys",
            )

    def on_mount(self) -> None:
        self.show()

    def note(self) -> str:
        """What the page says about the analysis of the deal shown."""
        number = self.deals[self.index][0] if self.deals else 0
        tr = self.look.tr
        if self.backend is None:
            return tr("tui.review.no-solver")
        if number in self.problems:
            return tr("tui.review.no-costs", why=self.problems[number])
        if number in self.analyses:
            return tr("tui.review.solved", backend=self.backend)
        seconds = int(time.monotonic() - self._started)
        which = "DDS" if self.backend == "dds" else tr("tui.review.own-solver")
        dots = "…" if self.look.unicode else "..."
        return tr("tui.review.solving", which=which + dots, seconds=seconds)

    def show(self) -> None:
        if not self.deals:
            self.query_one("#review-text", Static).update(Text(self.look.tr("tui.review.none")))
            return
        number, deal = self.deals[self.index]
        self.query_one("#dialog-title", Static).update(
            Text(
                self.look.tr(
                    "tui.review.heading", number=number, at=self.index + 1, of=len(self.deals)
                ),
                style="bold",
            )
        )
        playable = deal.thrown_in is None and deal.tricks
        waiting = number not in self.analyses and number not in self.problems
        if playable and self.backend is not None and waiting and self._ticker is None:
            self._started = time.monotonic()
            self._ticker = self.set_interval(1.0, self.show)
            self.run_worker(
                lambda: self._solve(number, deal, str(self.backend)),
                thread=True,
                group="review",
                exclusive=True,
            )
        self.query_one("#review-text", Static).update(
            review_text(deal, number, self.names, self.look, self.analyses.get(number), self.note())
        )

    def _solve(self, number: int, deal: Deal, backend: str) -> None:
        """In a worker thread: the analysis, handed back to the screen's thread."""
        try:
            found = analyse(deal, backend)
        except TarneebError as exc:
            self.app.call_from_thread(self._solved, number, None, str(exc))
            return
        self.app.call_from_thread(self._solved, number, found, "")

    def _solved(self, number: int, found: DealAnalysis | None, problem: str) -> None:
        if found is not None:
            self.analyses[number] = found
        else:
            self.problems[number] = problem
        if not self.is_attached:  # closed while the solver was at it
            return
        shown = self.deals[self.index][0]
        if self._ticker is not None and number == shown:
            self._ticker.stop()
            self._ticker = None
        self.show()

    def action_close(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        super().action_close()

    def action_step(self, step: int) -> None:
        if self.deals:
            self.index = (self.index + step) % len(self.deals)
            if self._ticker is not None:
                self._ticker.stop()
                self._ticker = None
            self.workers.cancel_group(self, "review")
            self._body().scroll_home(animate=False)
            self.show()
