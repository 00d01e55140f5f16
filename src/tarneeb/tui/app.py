"""The Textual app of ``tarneeb play``: the table, the hand, the bidding box and the screens.

The widgets hold no game logic: they render the human's
:class:`~tarneeb.view.View` (through :mod:`tarneeb.tui.render`) and pass the
human's choices to the :class:`~tarneeb.tui.controller.GameController`.

Keys (also in the help screen, ``?``, which lists only what the rules have):
arrows move the cursor, Enter plays or bids; a card can be typed (``qh``,
``10h``, ``th``), a bid too (``8`` Enter, ``8nt`` Enter), ``p`` passes, and
the winner of the auction names trump with ``c d h s`` then Enter (``h``
there also shows the hint: one key never names trump). A bare letter is
otherwise a command: ``h`` hint, ``l`` last trick, ``s`` score sheet, ``v``
review, ``r`` rules, ``b`` bot speed, ``?`` help; Escape or Ctrl+Q quits
(after asking).

Below 80x24 the app says so instead of drawing a cut table; above it the
table grows with the terminal. Without colour (``NO_COLOR``) suits read by
their symbols and unplayable cards by their brackets.
"""

from __future__ import annotations

import io
from typing import ClassVar

from rich.console import Console
from textual.app import App
from textual.binding import Binding, BindingType

from tarneeb.i18n import DEFAULT_LANGUAGE, find_language
from tarneeb.tui.controller import GameController
from tarneeb.tui.names import os_reason
from tarneeb.tui.render import Look
from tarneeb.tui.review import ReviewScreen
from tarneeb.tui.screens import QuestionScreen
from tarneeb.tui.table import MIN_SIZE, TableScreen
from tarneeb.tui.widgets import Chip, Picker

__all__ = ["MIN_SIZE", "Chip", "Picker", "TableScreen", "TarneebApp", "screen_text"]


def screen_text(app: App[object]) -> str:
    """The current screen as plain text, one line a terminal row (for tests and bug reports)."""
    console = Console(
        width=app.size.width,
        height=app.size.height,
        record=True,
        file=io.StringIO(),
        color_system=None,
    )
    for strip in app.screen._compositor.render_strips():
        console.print(strip.text, soft_wrap=True)
    return console.export_text()


class TarneebApp(App[int]):
    """``tarneeb play``: one human against (or with) three bots."""

    TITLE = "Tarneeb"
    CSS = """
    Screen { layout: vertical; }
    #header { height: 1; background: $boost; }
    #main { height: 1fr; }
    #table { width: 1fr; height: 1fr; min-width: 46; padding: 0 1; content-align: left middle; }
    #side { width: 32; padding: 0 1; border-left: vkey $primary; }
    .-wide #side { width: 44; }
    .-ascii #side { border-left: ascii $primary; }
    #too-small { display: none; height: 1fr; content-align: center middle; }
    TableScreen.-small > * { display: none; }
    TableScreen.-small > #too-small { display: block; }
    #auction { height: 1fr; }
    #scorebox { height: auto; }
    #box-title { height: 1; padding: 0 1; }
    Picker { layout: grid; height: auto; padding: 0 1; }
    #bidbox { grid-size: 13; grid-columns: 6; grid-rows: 1; }
    #hand { grid-size: 13; grid-columns: 5; grid-rows: 1; }
    Chip { height: 1; padding: 0; }
    Chip.-illegal { text-opacity: 50%; }
    Chip.-cursor { background: $accent; text-style: bold; }
    .-nocolor Chip.-cursor { text-style: bold reverse; }
    #status { height: auto; max-height: 3; padding: 0 1; }
    #keys { height: 1; padding: 0 1; }
    TextScreen, QuestionScreen, RulesScreen, ReviewScreen { align: center middle; }
    #dialog { width: 78; max-height: 22; height: auto; border: round $primary;
              background: $panel; padding: 0 1; }
    .-wide #dialog { width: 100; max-height: 36; }
    .-ascii #dialog { border: ascii $primary; }
    #dialog-body { height: auto; max-height: 17; }
    .-wide #dialog-body { max-height: 31; }
    #dialog.-tall { height: 22; }
    .-wide #dialog.-tall { height: 36; }
    #dialog.-tall #dialog-body { height: 1fr; max-height: 100%; }
    #dialog-title, #dialog-keys { height: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True, show=False),
    ]

    def __init__(
        self,
        game: GameController,
        preset: str | None = None,
        unicode: bool = True,
        review: bool = False,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        super().__init__()
        self.game = game
        self.unicode = unicode
        self.review = review
        """Only review the match's finished deals (``tarneeb play --review``), then quit."""
        self.sub_title = preset or ""
        self.look = Look(unicode, colour=not self.no_color, lang=find_language(lang))
        game.lang = self.look.lang
        self.table = TableScreen(game, unicode, self.look)

    def on_mount(self) -> None:
        self.set_class(not self.unicode, "-ascii")
        self.set_class(self.no_color, "-nocolor")
        self.set_class(self.size[0] >= 110, "-wide")
        if self.review:
            deals = [(n, d) for n, d in enumerate(self.game.match.deals, 1) if d.is_over()]
            self.push_screen(
                ReviewScreen(deals, self.game.describe, self.look), lambda _r: self.exit(0)
            )
            return
        self.push_screen(self.table)

    def action_request_quit(self) -> None:
        """Quit after asking, unless the match is over (it is saved after every action)."""
        if self.review or self.game.match.is_over() or isinstance(self.screen, QuestionScreen):
            self.exit(0)
            return
        tr = self.look.tr
        game = self.game
        game.save()  # where a write failed, the disk may be back
        if game.save_path is None:
            where = tr("tui.quit.unsaved")
        elif game.save_failure is not None:
            why = os_reason(game.save_failure, self.look.lang)
            where = tr("tui.quit.failed", why=why, path=game.save_path)
        else:
            where = tr("tui.quit.saved", path=game.save_path)
        self.push_screen(
            QuestionScreen(
                tr("tui.quit.title"), where, tr("tui.quit.yes"), tr("tui.quit.no"), name="quit"
            ),
            self._quit_answer,
        )

    def _quit_answer(self, yes: bool | None) -> None:
        if yes:
            self.exit(0)
