"""The table screen of ``tarneeb play``: who sits where, the trick, the auction, the hand and
the bidding box, the keys, and the bots' turns.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from tarneeb.actions import Action, Pass, Phase, Stand, action_id, parse_action
from tarneeb.bots import Bot, Decision, decide_safely
from tarneeb.cards import Card
from tarneeb.deal import Deal
from tarneeb.errors import TarneebError
from tarneeb.match import Match
from tarneeb.seats import SEATS, Seat, Team
from tarneeb.tui.controller import DEFAULT_DELAY, DealEnd, GameController, double_dummy_line
from tarneeb.tui.names import os_reason, preset_label, score_text
from tarneeb.tui.render import (
    Look,
    action_label,
    auction_text,
    fit_pieces,
    hand_order,
    help_text,
    legend,
    seat_name,
    table_text,
    trick_text,
)
from tarneeb.tui.review import ReviewScreen
from tarneeb.tui.screens import QuestionScreen, RulesScreen, TextScreen, rules_markdown
from tarneeb.tui.widgets import Item, Picker
from tarneeb.view import View

__all__ = ["MIN_SIZE", "TableScreen"]

TABLE_WIDTH = 46
SCOREBOX_WIDTH = 29
"""The score box's width at 80 columns (the side pane's 32, less its border and padding)."""
MIN_SIZE = (80, 24)
"""The smallest terminal the table fits in; below it the app asks to enlarge it."""
RANKS = set("23456789tjqka")
SUITS = set("cdhs")
STRAIN_LETTERS = set("cdhsnt")


class TableScreen(Screen[None]):
    """The table: who sits where, the trick, the auction, the hand and the bidding box."""

    def __init__(self, game: GameController, unicode: bool, look: Look | None = None) -> None:
        super().__init__(name="table")
        self.game = game
        self.unicode = unicode
        self.look = look if look is not None else Look(unicode)
        game.unicode = unicode
        game.lang = self.look.lang
        self.tr = self.look.tr
        self.typed = ""
        self.message = ""
        self._bot_timer_set = False
        self._waiting = False
        """A deal summary or the match's end is on screen: the bots wait for it."""
        self._thinking: Seat | None = None
        """A slow bot's seat, deciding in a worker thread while the screen answers keys."""
        self._hinting = False
        """A slow hint bot is thinking, in a worker thread."""

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")
        yield Static(id="header")
        with Horizontal(id="main"):
            yield Static(id="table")
            with Vertical(id="side"):
                yield Static(id="auction")
                yield Static(id="scorebox")
        yield Static(id="box-title")
        yield Picker(capacity=64, columns=13, id="bidbox")
        yield Picker(capacity=13, columns=13, id="hand")
        yield Static(id="status")
        yield Static(
            Text(self.tr("tui.keys"), style="dim"),
            id="keys",
        )

    def on_mount(self) -> None:
        self.refresh_all()
        self.after_action(None)

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_all)

    # -- drawing --------------------------------------------------------------------

    def names(self, seat: Seat) -> str:
        return self.game.describe(seat)

    def too_small(self) -> bool:
        """Whether the terminal is below :data:`MIN_SIZE` (then only a request to enlarge it shows)."""
        width, height = self.app.size
        return width < MIN_SIZE[0] or height < MIN_SIZE[1]

    def _fit(self) -> bool:
        small = self.too_small()
        if small != self.has_class("-small"):
            # Shown or hidden again: draw once more when the layout has its new sizes.
            self.call_after_refresh(self.refresh_all)
        self.set_class(small, "-small")
        if small:
            self.query_one("#bidbox", Picker).display = False
            width, height = self.app.size
            self.query_one("#too-small", Static).update(
                Text(
                    self.tr(
                        "tui.too-small",
                        need=f"{MIN_SIZE[0]}x{MIN_SIZE[1]}",
                        size=f"{width}x{height}",
                    ),
                    style="bold",
                )
                + Text("\n\n" + self.tr("tui.too-small.saved"), style="dim")
            )
        self.app.set_class(self.app.size[0] >= 110, "-wide")
        return not small

    def refresh_all(self) -> None:
        if not self._fit():
            return
        game = self.game
        view = game.view()
        rules = game.rules
        match = game.match
        dot = " · " if self.unicode else " | "
        header = Text(f" {self.tr('web.app.name')} ", style="bold reverse")
        preset = self.app.sub_title
        # the preset as the browser names it, in the player's language (not its id)
        name = preset_label(preset, self.look.lang) or self.tr("tui.header.custom")
        header.append(f" {name}{dot}" + self.tr("tui.header.target", target=rules.target))
        if rules.sets > 1:
            header.append(dot + self.tr("tui.header.set", set=match.set_number, sets=rules.sets))
        # each plays for their own where bids are individual: the sides' sums decide nothing
        scores = match.seat_scores if rules.is_individual else match.team_scores
        header.append(dot + score_text(scores, self.look.lang, self.unicode), style="bold")
        header.append(dot + self.tr("tui.header.deal", deal=len(match.deals)))
        instant = dot + self.tr("tui.header.instant")
        # the bots' speed is said last, and only where it fits (Arabic's longer names)
        if game.bot_delay == 0 and header.cell_len + Text(instant).cell_len <= self.app.size[0]:
            header.append(instant, style="dim")
        self.query_one("#header", Static).update(header)
        table = self.query_one("#table", Static)
        room = table.content_size.width or TABLE_WIDTH
        rows = table.content_size.height or 12
        width = max(TABLE_WIDTH, room)
        gap = max(1, min(4, (rows - 12) // 2))
        drawn = table_text(view, self.names, width, look=self.look, gap=gap)
        if rows >= 11 + 2 * gap:
            drawn.append("\n")
            drawn.append_text(Text(legend(view.rules, self.look), style="dim"))
        table.update(drawn)
        self.query_one("#auction", Static).update(
            Text(self.tr("tui.auction.title") + "\n", style="bold")
            + auction_text(view, look=self.look)
        )
        self.query_one("#scorebox", Static).update(self._scorebox(view))
        self._draw_hand(view)
        self._draw_bidbox(view)
        self._draw_status(view)

    def _scorebox(self, view: View) -> Text:
        """The match's score and the last deal's, each line fitted to the box (29 cells at
        80 columns): a side's name and its score, or a deal's points, never parted."""
        game = self.game
        width = self.query_one("#scorebox", Static).content_size.width or SCOREBOX_WIDTH
        text = Text(self.tr("tui.score.title"), style="bold")
        match = game.match
        target = self.tr("tui.score.to", target=game.rules.target)
        if game.rules.is_individual:  # each player's own score, below; not the sides' sums
            text.append(f"\n{target}")
            wide = max(len(self.look.seat_letter(seat)) for seat in SEATS)  # جنوب, شرق
            text.append("\n" + " " * (wide + 3) + self.tr("tui.score.columns"), style="dim")
            for seat in SEATS:
                bid = view.bids[seat]
                text.append(
                    f"\n{self.look.seat_letter(seat):<{wide}}  {'-' if bid is None else bid:>3} "
                    f"{view.tricks_taken[seat]:>4} {match.seat_scores[seat]:>5}"
                )
            total = sum(b for b in view.bids if b is not None)
            least = game.rules.total_minimum(max(view.scores))
            text.append("\n" + self.tr("tui.score.bids", total=total, least=least))
        else:
            ns, ew = match.team_scores
            sides = [f"{self.look.side(Team.NS)} {ns:>4}", f"{self.look.side(Team.EW)} {ew:>4}"]
            text.append("\n")
            text.append_text(fit_pieces([*sides, target], width, "   "))
        rows = game.score_rows(self.unicode)
        if rows:
            number, _dealer, *cells = rows[-1]
            label = self.tr("tui.score.last", number=number)
            if game.rules.is_individual and any(cells[1:]):  # each player's: S-3 E-12 N-2 W+12
                pieces = [
                    f"{self.look.seat_letter(s)}{p}" for s, p in zip(SEATS, cells, strict=True)
                ]
            elif game.rules.is_individual:  # redealt
                pieces = [cells[0]]
            else:
                what, pns, pew = cells
                pieces = [what, f"{pns or '-'}/{pew or '-'}"]
            fitted = fit_pieces([label, *pieces], width, " ")
            fitted.stylize("dim")
            text.append("\n")
            text.append_text(fitted)
        return text

    def _draw_hand(self, view: View) -> None:
        picker = self.query_one("#hand", Picker)
        playing = view.phase is Phase.PLAY and view.is_my_turn
        legal = {action_id(a) for a in view.legal_actions} if playing else set()
        items = [
            Item(int(card), self.look.card(card), not playing or int(card) in legal)
            for card in hand_order(list(view.hand))
        ]
        # Cards are dimmed only while the human is to play and may not play them.
        picker.set_items(items)
        picker.set_active(playing)

    def _draw_bidbox(self, view: View) -> None:
        box = self.query_one("#bidbox", Picker)
        title = self.query_one("#box-title", Static)
        bidding = view.is_my_turn and view.phase is not Phase.PLAY
        box.display = bidding
        if bidding:
            items = [Item(action_id(a), self._bid_label(a), True) for a in view.legal_actions]
            box.set_items(items, keep=False)
            # The cursor starts on the safe choice: stand (not raise), pass (not a bid).
            for safe in (Stand(), Pass()):
                if safe in view.legal_actions:
                    box.point_at(action_id(safe))
                    break
            box.set_active(True)
            title.update(Text(self._box_title(view.phase), style="bold"))
        else:
            box.set_active(False)
            title.update(Text(self.tr("tui.box.hand"), style="bold"))

    def _bid_label(self, action: Action) -> Text:
        text = Text(action_label(action, self.unicode, self.look.lang))
        text.stylize(self.look.action(action).style or "")
        return text

    def _box_title(self, phase: Phase) -> str:
        if phase is Phase.TRUMP:
            return self.tr("tui.box.trump")
        if phase is Phase.RAISE:
            return self.tr("tui.box.raise")
        return self.tr("tui.box.bid")

    def _draw_status(self, view: View) -> None:
        lead = Text()
        sep = "  "
        failure = self.game.save_failure
        if failure is not None:  # until a save succeeds again
            why = os_reason(failure, self.look.lang)
            lead.append(self.tr("tui.status.unsaved", why=why), style="bold red")
        if self.typed:
            lead.append("  " if lead else "")
            lead.append(self.tr("tui.status.typed", typed=self.typed), style="bold cyan")
        if self.message:
            lead.append(("  " if lead else "") + self.message)
        elif view.history and view.history[-1][0] != view.seat:
            seat, action = view.history[-1]
            lead.append(("  " if lead else "") + seat_name(seat, self.look) + ": ")
            lead.append(action_label(action, self.unicode, self.look.lang), style="bold")
            lead.append(".")
            sep = " "
        tail = Text()
        if view.is_my_turn:
            key = "tui.status.your-card" if view.phase is Phase.PLAY else "tui.status.your-call"
            tail.append(self.tr(key), style="bold yellow")
        elif self.game.match.is_over():
            tail.append(self.tr("tui.status.over"))
        elif view.to_act is not None and view.to_act == self._thinking:
            who = self.names(view.to_act)
            tail.append(self.tr("tui.status.thinking", seat=who) + self._dots, style="dim")
        elif view.to_act is not None:
            who = self.names(view.to_act)
            tail.append(self.tr("tui.status.to-act", seat=who) + self._dots, style="dim")
        status = self.query_one("#status", Static)
        width = status.content_size.width or max(1, self.app.size.width - 2)
        status.update(_join_status(lead, tail, width, self.app.console, sep))
        # At the trump choice s types spades: the keys line does not offer the score sheet.
        choosing = view.is_my_turn and view.phase is Phase.TRUMP
        keys = self.tr("tui.keys.trump" if choosing else "tui.keys")
        self.query_one("#keys", Static).update(Text(keys, style="dim"))

    @property
    def _dots(self) -> str:
        return "…" if self.unicode else "..."

    def say(self, message: str) -> None:
        self.message = message
        self._draw_status(self.game.view())

    # -- acting ---------------------------------------------------------------------

    def on_picker_picked(self, message: Picker.Picked) -> None:
        self.act(message.action)

    def act(self, action: Action | int | str) -> None:
        """The human's choice: taken if legal, refused with a message if not."""
        self.typed = ""
        try:
            ended = self.game.play(action)
        except TarneebError as exc:
            self.say(str(exc))
            return
        self.message = ""
        self.refresh_all()
        self.after_action(ended)

    def after_action(self, ended: DealEnd | None) -> None:
        if ended is not None:
            self.show_deal_end(ended)
            return
        if self.game.match.is_over():
            self.show_match_end()
            return
        self.schedule_bots()

    def _bots_may_act(self) -> bool:
        return not self._waiting and self._thinking is None and self.game.bot_to_act is not None

    def schedule_bots(self) -> None:
        if not self._bots_may_act():
            return
        if self.game.bot_delay <= 0:
            while self._bots_may_act():
                self._bot_acts()
            return
        if not self._bot_timer_set:
            self._bot_timer_set = True
            self.set_timer(self.game.bot_delay, self._bot_turn)

    def _bot_turn(self) -> None:
        self._bot_timer_set = False
        if not self._bots_may_act():
            return
        if self.app.screen is not self:  # a help or rules page is open: wait for it
            self._bot_timer_set = True
            self.set_timer(0.3, self._bot_turn)
            return
        self._bot_acts()
        self.schedule_bots()

    def _bot_acts(self) -> None:
        """The bot to act decides: at once, or, for a slow bot, in a worker thread
        while the screen goes on answering keys (its move lands in :meth:`_thought`)."""
        game = self.game
        seat = game.bot_to_act
        assert seat is not None
        bot = game.bots[seat]
        view = game.match.view(seat)
        if bot.slow:
            self._thinking = seat
            self._draw_status(game.view())
            self.run_worker(partial(self._think, bot, view), thread=True, group="bots")
            return
        self._decided(seat, decide_safely(bot, view))

    def _think(self, bot: Bot, view: View) -> None:
        """In a worker thread: the decision, handed back to the screen's thread."""
        decision = decide_safely(bot, view)
        self.app.call_from_thread(self._thought, view.seat, decision)

    def _thought(self, seat: Seat, decision: Decision) -> None:
        """A slow bot's decision, back from its thread: taken, and the next bot goes on."""
        self._thinking = None
        self._decided(seat, decision)
        self.schedule_bots()

    def _decided(self, seat: Seat, decision: Decision) -> None:
        try:
            ended = self.game.push_bot(seat, decision)
        except TarneebError as exc:  # the match moved on meanwhile: nothing to take
            self.say(self.tr("tui.say.too-late", seat=self.names(seat), why=exc))
            return
        self.message = ""  # the table moved on: what was said is stale
        self.refresh_all()
        if ended is not None:
            self.show_deal_end(ended)

    def show_deal_end(self, ended: DealEnd) -> None:
        self._waiting = True
        deal = ended.deal
        body = Text("\n".join(self.game.deal_lines(deal, self.unicode, dd=False)))
        if deal.result is not None:
            body.append("\n\n" + self.tr("tui.deal-end.hands") + "\n", style="bold")
            for seat in SEATS:
                body.append(f"{self.names(seat):<17}")
                cards = hand_order(_cards(deal.dealt[seat]))
                for card in cards:
                    body.append_text(self.look.card(card))
                    body.append(" ")
                body.append("\n")
        body.append("\n" + self._score_now("tui.deal-end.score", "tui.deal-end.score-seats"))
        contract = deal.contract
        solve = (
            self.game.analyse
            and deal.result is not None
            and contract is not None
            and contract.strain is not None
        )
        number = ended.number
        screen = TextScreen(
            self.tr("tui.deal-end.title", number=number),
            body,
            name="deal-end",
            lang=self.look.lang,
            note=self.tr("tui.deal-end.solving") + self._dots if solve else "",
            keys={}
            if deal.thrown_in is not None
            else {
                "v": (self.tr("tui.deal-end.review"), lambda: self.show_review(number)),
            },
        )
        self.app.push_screen(screen, self._after_deal_end)
        if solve:
            self.run_worker(partial(self._double_dummy, deal, screen), thread=True, group="dd")

    def _double_dummy(self, deal: Deal, screen: TextScreen) -> None:
        """In a worker thread: the solver may take seconds without DDS."""
        line = double_dummy_line(deal, self.unicode, self.look.lang)
        self.app.call_from_thread(screen.set_note, line or "")

    def _after_deal_end(self, _result: None) -> None:
        self._waiting = False
        self.refresh_all()
        if self.game.match.is_over():
            self.show_match_end()
        else:
            self.schedule_bots()

    def show_match_end(self) -> None:
        self._waiting = True
        lines = self.game.match_over_lines()
        self.app.push_screen(
            QuestionScreen(
                self.tr("tui.end.title"),
                "\n".join(lines) + "\n\n" + self.tr("tui.end.again"),
                self.tr("tui.end.rematch"),
                self.tr("tui.end.quit"),
                name="match-end",
                enter_is_yes=True,
                keys={
                    "s": (self.tr("tui.end.scores"), self.show_scores),
                    "v": (self.tr("tui.end.review"), self.show_review),
                },
            ),
            self._after_match_end,
        )

    def _after_match_end(self, again: bool | None) -> None:
        if not again:
            self.app.exit(0)
            return
        self.game.rematch()
        self._waiting = False
        self.message = self.tr("tui.say.new-match")
        self.refresh_all()
        self.schedule_bots()

    # -- keys -----------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        key = event.key
        char = (event.character or "").lower() if event.is_printable else ""
        view = self.game.view()
        handled = True
        if key in ("left", "right", "up", "down"):
            self._move(view, key)
        elif key == "enter":
            self._enter(view)
        elif key == "backspace":
            self.typed = self.typed[:-1]
            self._draw_status(view)
        elif key == "escape":
            if self.typed:
                self.typed = ""
                self._draw_status(view)
            else:
                quit_: Any = getattr(self.app, "action_request_quit", None)
                if callable(quit_):
                    quit_()
        elif key in ("question_mark", "f1"):
            self.app.push_screen(
                TextScreen(
                    self.tr("tui.help.screen"),
                    help_text(self.game.rules, self.look),
                    name="help",
                    lang=self.look.lang,
                )
            )
        elif self.too_small():
            pass  # only Esc (quit) and help while the terminal is too small
        elif char and self._typing(view, char):
            pass
        elif char == "h":
            self.show_hint()
        elif char == "l":
            self.show_last_trick()
        elif char == "s":
            self.show_scores()
        elif char == "r":
            self.show_rules()
        elif char == "b":
            self.toggle_speed()
        elif char == "v":
            self.show_review()
        else:
            handled = False
        if handled:
            event.stop()

    def _active_picker(self, view: View) -> Picker | None:
        if not view.is_my_turn:
            return None
        return self.query_one("#hand" if view.phase is Phase.PLAY else "#bidbox", Picker)

    def _move(self, view: View, key: str) -> None:
        picker = self._active_picker(view)
        if picker is None:
            return
        step = {"left": -1, "right": 1, "up": -picker.columns, "down": picker.columns}[key]
        picker.move(step)

    def _enter(self, view: View) -> None:
        if self.typed and view.is_my_turn:
            text = self.typed
            self.typed = ""
            try:
                action = parse_action(text, view.phase)
            except TarneebError as exc:
                self.say(self.tr("tui.say.not-understood", why=exc))
                return
            self.act(action)
            return
        picker = self._active_picker(view)
        if picker is not None and picker.current() is not None:
            chosen = picker.current()
            assert chosen is not None
            self.act(chosen)

    def _typing(self, view: View, char: str) -> bool:
        """Take ``char`` as part of a typed card or bid; False when it is a command."""
        if not view.is_my_turn:
            return False
        typed = self.typed
        if view.phase is Phase.PLAY:
            if char in RANKS or char in "10":
                if typed == "1" and char == "0":
                    self.typed = "10"
                elif char == "1" or char in RANKS:
                    self.typed = char
                else:
                    return False
                self._draw_status(view)
                return True
            if char in SUITS and typed and typed != "1":
                self.act(Card.parse(typed + char))
                return True
            return False
        if view.phase is Phase.TRUMP and char in SUITS:
            # Typed, then named with Enter (Esc takes it back), never named by one key:
            # h and s are the hint and the score sheet too, and a player pressing h for a
            # hint here named hearts for good. h shows the hint as well, which is what
            # that player asked for.
            self.typed = char
            self._draw_status(view)
            if char == "h":
                self.show_hint()
            return True
        if view.phase is Phase.AUCTION:
            if char.isdigit():
                self.typed = typed + char
                self._draw_status(view)
                return True
            if char in STRAIN_LETTERS and typed[:1].isdigit():
                self.typed = typed + char
                self._draw_status(view)
                return True
            if char == "p" and not typed:
                self.act("pass")
                return True
            if char == "x" and not typed:
                self.act("double")
                return True
        return False

    # -- commands -------------------------------------------------------------------

    def show_hint(self) -> None:
        game = self.game
        if game.hint_bot.slow and game.human_to_act:
            # A slow hint bot thinks in a worker thread; the hint shows if the
            # human has not acted meanwhile.
            if not self._hinting:
                self._hinting = True
                thinking = self.tr("tui.say.hint-thinking") + self._dots
                self.say(self.tr("tui.say.hint", hint=thinking))
                self.run_worker(
                    partial(self._think_hint, game.hint_bot, game.view(), self._moment()),
                    thread=True,
                    group="hint",
                )
            return
        try:
            decision = game.hint()
        except TarneebError as exc:
            self.say(str(exc))
            return
        self._show_hint(decision)

    def _moment(self) -> tuple[Match, int, int]:
        """What tells one turn of the human's from another: the match (a rematch is
        another), its deal, the action."""
        match = self.game.match
        return match, len(match.deals), len(match.deal.history)

    def _think_hint(self, bot: Bot, view: View, moment: tuple[Match, int, int]) -> None:
        """In a worker thread: the hint, handed back to the screen's thread."""
        decision = bot.decide(view)
        self.app.call_from_thread(self._hinted, decision, moment)

    def _hinted(self, decision: Decision, moment: tuple[Match, int, int]) -> None:
        self._hinting = False
        now = self._moment()
        if moment[0] is now[0] and moment[1:] == now[1:]:
            self._show_hint(decision)

    def _show_hint(self, decision: Decision) -> None:
        label = action_label(decision.action, self.unicode, self.look.lang)
        why = decision.reason.text(self.look.lang)
        reason = f": {why}" if why else ""
        self.say(self.tr("tui.say.hint", hint=label + reason))
        picker = self._active_picker(self.game.view())
        if picker is not None:
            picker.point_at(action_id(decision.action))

    def show_last_trick(self) -> None:
        trick = self.game.last_trick()
        if trick is None:
            self.say(self.tr("tui.say.no-trick"))
            return
        number = len(self.game.view().tricks)
        self.app.push_screen(
            TextScreen(
                self.tr("tui.trick.title", number=number),
                trick_text(trick, self.names, look=self.look),
                name="last-trick",
                lang=self.look.lang,
            )
        )

    def _score_now(self, key: str, seats_key: str) -> str:
        """The match's score by ``key``: the sides', or where each player scores alone each
        player's (by ``seats_key``), as their own scores decide."""
        target = self.game.rules.target
        match = self.game.match
        if self.game.rules.is_individual:
            s, e, n, w = match.seat_scores
            letters = {f"seat_{seat.letter.lower()}": self.look.seat_letter(seat) for seat in SEATS}
            return self.tr(seats_key, s=s, e=e, n=n, w=w, target=target, **letters)
        ns, ew = match.team_scores
        return self.tr(key, ns=ns, ew=ew, target=target, **self.look.sides())

    def show_scores(self) -> None:
        """The score sheet: a row a deal, the running score, each set's winner. Where each
        player scores alone (Syrian 400), a column and a running score for each player:
        the sides' sums decide nothing there."""
        alone = self.game.rules.is_individual
        head: tuple[str, ...] = ("#", self.tr("tui.sheet.dealer"))
        if alone:
            head += tuple(self.look.seat_letter(seat) for seat in SEATS)
        else:
            head += (
                self.tr("tui.sheet.contract"),
                self.look.side(Team.NS),
                self.look.side(Team.EW),
            )
        rows = [head, *self.game.score_rows(self.unicode)]
        # by the cells each takes on screen: Arabic's الموزّع has a mark above a letter; a
        # thrown-in deal's words run on over the players' columns, widening none of them
        spans = [r for r in rows if len(r) > 3 and not any(r[3:])]
        widths = [
            max(cell_len(r[i]) for r in rows if i < 2 or r not in spans) for i in range(len(head))
        ]
        lines = [
            "  ".join(
                c + " " * (w - cell_len(c)) for c, w in zip(row, widths, strict=True)
            ).rstrip()
            for row in rows
        ]
        match = self.game.match
        lines.append("")
        lines.append(self._score_now("tui.sheet.running", "tui.sheet.running-seats"))
        for result in match.sets:
            score = f"{result.team_scores[0]}-{result.team_scores[1]}"
            lines.append(
                self.tr(
                    "tui.sheet.set",
                    number=result.number,
                    winner=self.look.side(result.winner),
                    score=score,
                )
            )
        screen = TextScreen(
            self.tr("tui.sheet.title"), "\n".join(lines), name="scores", lang=self.look.lang
        )
        self.app.push_screen(screen)

    def show_rules(self) -> None:
        name = self.app.sub_title or None
        self.app.push_screen(
            RulesScreen(rules_markdown(self.game.rules, name, self.look.lang), self.look.lang)
        )

    def show_review(self, number: int | None = None) -> None:
        """The review of the finished deals, from deal ``number`` (default: the last)."""
        deals = [(n, deal) for n, deal in enumerate(self.game.match.deals, 1) if deal.is_over()]
        if not deals:
            self.say(self.tr("tui.say.no-review"))
            return
        start = next((i for i, (n, _d) in enumerate(deals) if n == number), -1)
        self.app.push_screen(ReviewScreen(deals, self.names, self.look, start))

    def toggle_speed(self) -> None:
        game = self.game
        game.bot_delay = DEFAULT_DELAY if game.bot_delay == 0 else 0.0
        self.say(self.tr("tui.say.instant" if game.bot_delay == 0 else "tui.say.pause"))
        self.refresh_all()
        self.schedule_bots()


def _cards(mask: int) -> list[Card]:
    return [Card(c) for c in range(52) if mask >> c & 1]


def _join_status(lead: Text, tail: Text, width: int, console: Console, sep: str = "  ") -> Text:
    """What was said, then whose turn it is: on one row when the turn fits after the last
    row of what was said, else on a row of its own, so that it is never cut in two."""
    if not lead:
        return tail
    if not tail:
        return lead
    last = lead.wrap(console, width)[-1]
    last.rstrip()
    gap = sep if last.cell_len + len(sep) + tail.cell_len <= width else "\n"
    return Text.assemble(lead, gap, tail)
