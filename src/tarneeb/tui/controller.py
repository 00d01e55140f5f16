"""The game behind ``tarneeb play``, without any screen.

:class:`GameController` owns the :class:`~tarneeb.match.Match`, the bots of
the other three seats, the autosave file and the bots' pause. The widgets only
render what :meth:`GameController.view` shows (the human's seat) and hand the
human's choices back, so every rule of the app can be tested without Textual.

>>> from tarneeb.presets import find_rules
>>> game = GameController.new(find_rules("classic"), seed=7, save_path=None)
>>> game.human, game.human_to_act, game.bot_to_act
(Seat.SOUTH, False, Seat.WEST)
>>> seat, decision, ended = game.step_bot()
>>> seat, ended is None
(Seat.WEST, True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tarneeb.actions import Action, Phase, action_from_id, parse_action
from tarneeb.bots import Bot, Decision, decide_safely, make_adviser, make_bot
from tarneeb.cards import Card, Suit
from tarneeb.deal import Deal, Trick
from tarneeb.errors import IllegalActionError, RecordError, TarneebError
from tarneeb.i18n import DEFAULT_LANGUAGE, Translator, translator
from tarneeb.match import Match
from tarneeb.presets import preset_name
from tarneeb.record import read_record, write_record
from tarneeb.rules import Count, Rules
from tarneeb.seats import SEATS, Seat, Team, parse_seat
from tarneeb.tui import names
from tarneeb.tui.saves import new_save_path, write_atomic
from tarneeb.view import View

__all__ = [
    "HUMAN",
    "DealEnd",
    "GameController",
    "double_dummy_line",
    "refusal",
]

HUMAN = "you"
"""The name the record gives the human's seat (``players`` of the record)."""
DEFAULT_DELAY = 0.7


@dataclass(frozen=True)
class DealEnd:
    """A deal that has just ended (played out, or thrown in)."""

    deal: Deal
    number: int
    """The deal's number in the match, counting from 1."""
    match_over: bool


def double_dummy_line(
    deal: Deal, unicode: bool = False, lang: str = DEFAULT_LANGUAGE
) -> str | None:
    """What double-dummy analysis says the declarers could have taken, or ``None``.

    Optional: only when :mod:`tarneeb.solver` is there, and only for a played
    partnership contract. It may take a while (seconds without DDS), so the
    app calls it off the main thread.
    """
    contract = deal.contract
    if deal.result is None or contract is None or contract.strain is None:
        return None
    try:
        from tarneeb.solver import Position, solve
    except ImportError:
        return None
    strain = contract.strain
    try:
        position = Position(
            deal.dealt, strain.suit, contract.declarer, lead_trump=deal.rules.first_lead_trump
        )
        tricks = solve(position).tricks
    except TarneebError:
        return None
    taken = deal.team_tricks(contract.team)
    tr = translator(lang)
    line = tr(
        "tui.dd.line",
        side=names.side_name(contract.team, lang, unicode),
        tricks=tricks,
        strain=strain.symbol if unicode else strain.letter,
        taken=taken,
    )
    if deal.rules.count is Count.CARD_POINTS:
        line += " " + tr("tui.dd.card-points")
    return line


def refusal(view: View, action: Action, unicode: bool = True, lang: str = DEFAULT_LANGUAGE) -> str:
    """Why the seat of ``view`` may not take ``action`` now, said to that player.

    >>> from tarneeb import Deal, Seat, find_rules
    >>> deal = Deal(find_rules("classic"), Seat.WEST, ["AKQJT98765432...", ".AKQJT98765432..",
    ...     "..AKQJT98765432.", "...AKQJT98765432"])
    >>> refusal(deal.view(Seat.SOUTH), Card.parse("2H"))
    'No card now: it is the auction phase; make a call first.'
    """

    # the look draws with Rich (Textual's): imported here, so that the command line and
    # the controller load on the core install alone
    from tarneeb.tui.render import Look

    tr = translator(lang)
    look = Look(unicode, lang=lang)

    def fmt(a: Action) -> str:
        return look.call(a)

    def suit(s: Suit) -> str:
        return s.symbol if unicode else tr(f"strain.{s.name.lower()}")

    if not view.is_my_turn:
        return tr("tui.refuse.not-your-turn")
    if isinstance(action, Card):
        if view.phase is not Phase.PLAY:
            return tr("tui.refuse.no-card", phase=tr(f"tui.phase.{view.phase.value}"))
        if action not in view.hand:
            return tr("tui.refuse.not-held", card=fmt(action))
        trick = view.current_trick
        if trick is not None and trick.cards:
            return tr("tui.refuse.follow", suit=suit(trick.cards[0].suit))
        if view.trump is not None:
            return tr("tui.refuse.lead-trump", suit=suit(view.trump))
        return tr("tui.refuse.lead", card=fmt(action))
    if view.phase is Phase.PLAY:
        return tr("tui.refuse.play-a-card")
    choices = ", ".join(fmt(a) for a in view.legal_actions[:12])
    more = ", ..." if len(view.legal_actions) > 12 else ""
    return tr("tui.refuse.call", call=fmt(action), choices=choices + more)


class GameController:
    """A match between one human seat and three bots.

    :param match: the match to play (new or resumed).
    :param bots: a bot for every seat but the human's.
    :param human: the human's seat.
    :param hint_bot: the bot asked for hints (it sees only the human's view).
    :param save_path: the record is written there after every action; ``None``: no saving.
    :param bot_delay: seconds a bot waits before acting, so play can be followed.
    :param players: who sits where, as written to the record (seat letter to name).
    """

    def __init__(
        self,
        match: Match,
        bots: Mapping[Seat, Bot],
        human: Seat = Seat.SOUTH,
        hint_bot: Bot | None = None,
        save_path: Path | None = None,
        bot_delay: float = DEFAULT_DELAY,
        players: Mapping[str, str] | None = None,
        specs: tuple[str, str] = ("heuristic", "heuristic"),
    ) -> None:
        missing = [s for s in SEATS if s != human and s not in bots]
        if missing:
            raise ValueError(f"no bot for {missing[0].name}")
        self.match = match
        self.bots = dict(bots)
        self.human = human
        self.hint_bot = (
            hint_bot if hint_bot is not None else make_adviser(specs[0], random.Random(0))
        )
        self.save_path = save_path
        self.save_failure: OSError | None = None
        """Why the last save failed (a full disk, the folder gone), or ``None``: the match
        goes on in memory, and every action tries to save it again
        (:func:`names.os_reason <tarneeb.tui.names.os_reason>` says it to the player)."""
        self.bot_delay = bot_delay
        self.specs = specs
        self.analyse = True
        """Whether the deal summary asks the solver what was possible (when it is installed)."""
        self.players = dict(players) if players else self._players()
        self.unicode = True
        """Whether messages show suit symbols (the app sets it from the terminal)."""
        self.lang = DEFAULT_LANGUAGE
        """The language of the messages (``tarneeb play --lang``; a catalogue language)."""

    # -- making one ---------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        seed: int | None = None,
        partner: str = "heuristic",
        opponents: str = "heuristic",
        human: Seat = Seat.SOUTH,
        save_path: Path | None = None,
        bot_delay: float = DEFAULT_DELAY,
    ) -> GameController:
        """A new match; a ``seed`` makes the deals and the bots reproducible.

        :raises BotError: on an unknown bot.
        """
        match = Match(rules, seed=seed)
        bots = _make_bots(human, partner, opponents, seed)
        hint = make_adviser(partner, rng=_bot_rng(seed, "hint"))
        return cls(match, bots, human, hint, save_path, bot_delay, specs=(partner, opponents))

    @classmethod
    def resume(
        cls, path: Path, save_path: Path | None = None, bot_delay: float = DEFAULT_DELAY
    ) -> GameController:
        """The match saved in ``path``, with the bots it was played against.

        It is saved back to ``save_path`` (default: ``path`` itself).

        :raises RecordError: when the file cannot be read or is no record.
        :raises BotError: when it names an unknown bot.
        """
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {str(path)!r}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{str(path)!r} is not a record (not UTF-8 text)") from None
        match = read_record(text)
        players = json.loads(text).get("players") or {}
        if not isinstance(players, dict):
            raise RecordError("record: 'players' is not an object")
        named = {parse_seat(k): str(v) for k, v in players.items()}
        humans = [seat for seat, name in named.items() if name == HUMAN]
        human = humans[0] if humans else Seat.SOUTH
        partner = named.get(human.partner, "heuristic")
        opponents = named.get(human.next, "heuristic")
        seed = match.seed if isinstance(match.seed, int) else None
        bots = _make_bots(human, partner, opponents, seed, len(match.deals))
        hint = make_adviser(partner, rng=_bot_rng(seed, "hint"))
        return cls(
            match,
            bots,
            human,
            hint,
            path if save_path is None else save_path,
            bot_delay,
            players=None,
            specs=(partner, opponents),
        )

    def rematch(self) -> None:
        """Start a new match with the same rules, seats and bots."""
        seed = self.match.seed
        self.match = Match(self.match.rules, seed=seed + 1 if isinstance(seed, int) else None)
        if self.save_path is not None:
            self.save_path = new_save_path(
                preset_name(self.rules) or "custom", self.save_path.parent
            )
        self.save()

    def _players(self) -> dict[str, str]:
        out = {}
        for seat in SEATS:
            if seat == self.human:
                out[seat.letter] = HUMAN
            else:
                out[seat.letter] = self.bots[seat].spec
        return out

    # -- what the human sees ----------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.match.rules

    def view(self) -> View:
        """The current deal as the human's seat sees it."""
        return self.match.view(self.human)

    @property
    def human_to_act(self) -> bool:
        return self.match.to_act == self.human

    @property
    def bot_to_act(self) -> Seat | None:
        """The bot's seat that is to act, if a bot is."""
        seat = self.match.to_act
        return None if seat is None or seat == self.human else seat

    def finished_deals(self) -> list[Deal]:
        """The deals of the match that are over (thrown-in ones included)."""
        return [deal for deal in self.match.deals if deal.is_over()]

    def last_trick(self) -> Trick | None:
        """The last complete trick of the current deal, for the review."""
        tricks = self.view().tricks
        return tricks[-1] if tricks else None

    def hint(self) -> Decision:
        """What the hint bot would do in the human's place.

        :raises IllegalActionError: when it is not the human's turn.
        """
        view = self.view()
        if not view.is_my_turn:
            raise IllegalActionError(self.tr("tui.refuse.no-hint"))
        return decide_safely(self.hint_bot, view)

    def describe(self, seat: Seat) -> str:
        """``South (you)``, ``North (partner)``, ``East``."""
        name = self.tr(f"tui.seat.{seat.name.lower()}")
        if seat == self.human:
            return self.tr("tui.seat.you", seat=name)
        if seat == self.human.partner:
            return self.tr("tui.seat.partner", seat=name)
        return name

    def tr(self, key: str, /, **params: object) -> str:
        """The catalogue's message ``key`` in the match's language :attr:`lang`."""
        return translator(self.lang)(key, **params)

    def _side(self, team: Team) -> str:
        return names.side_name(team, self.lang, self.unicode)

    # -- acting -----------------------------------------------------------------------

    def play(self, action: Action | int | str) -> DealEnd | None:
        """Take the human's ``action``; saved at once. Returns the deal it ended, if it did.

        :raises IllegalActionError: when it is not the human's turn or the rules refuse it.
        :raises InvalidActionError: when the text is no action. Nothing changes on error.
        """
        if not self.human_to_act:
            raise IllegalActionError(self.tr("tui.refuse.not-your-turn"))
        view = self.view()
        chosen: Action
        if isinstance(action, str):
            chosen = parse_action(action, view.phase)
        elif isinstance(action, int) and not isinstance(action, Card):
            chosen = action_from_id(action)
        else:
            chosen = action
        if chosen not in view.legal_actions:
            raise IllegalActionError(refusal(view, chosen, self.unicode, self.lang))
        return self._push(chosen)

    def step_bot(self) -> tuple[Seat, Decision, DealEnd | None]:
        """Let the bot to act take its turn (through its own view); saved at once.

        :raises IllegalActionError: when no bot is to act.
        """
        seat = self.bot_to_act
        if seat is None:
            raise IllegalActionError("no bot is to act")
        decision = decide_safely(self.bots[seat], self.match.view(seat))
        return seat, decision, self.push_bot(seat, decision)

    def push_bot(self, seat: Seat, decision: Decision) -> DealEnd | None:
        """Take ``decision`` of the bot of ``seat`` (made perhaps in another thread,
        from that seat's view); saved at once. Returns the deal it ended, if it did.

        :raises IllegalActionError: when that bot is not to act, or the rules refuse it.
        """
        if self.bot_to_act != seat:
            raise IllegalActionError(f"{seat.name.title()}'s bot is not to act now")
        return self._push(decision.action)

    def run_bots(self) -> list[DealEnd]:
        """Let the bots act until the human is to act, a deal ends, or the match does."""
        while self.bot_to_act is not None:
            ended = self.step_bot()[2]
            if ended is not None:
                return [ended]
        return []

    def _push(self, action: Action | int | str) -> DealEnd | None:
        match = self.match
        count = len(match.deals)
        deal = match.deal
        match.push(action)
        self.save()
        if len(match.deals) != count or match.is_over():
            return DealEnd(deal, count, match.is_over())
        return None

    def save(self) -> None:
        """Write the record to the save file (atomically), if there is one.

        A failed write stops no match: the file keeps the last record written whole, the
        reason is kept in :attr:`save_failure` for the screen to show, and the next save
        (after the next action) writes the whole record again.
        """
        if self.save_path is None:
            return
        try:
            write_atomic(self.save_path, write_record(self.match, self.players))
        except OSError as exc:
            self.save_failure = exc
        else:
            self.save_failure = None

    @property
    def save_error(self) -> str | None:
        """The system's words for :attr:`save_failure` (the command line's error), or ``None``."""
        failure = self.save_failure
        return None if failure is None else failure.strerror or type(failure).__name__

    # -- summaries --------------------------------------------------------------------

    def deal_lines(self, deal: Deal, unicode: bool = True, dd: bool = True) -> list[str]:
        """A finished deal in words: contract, tricks, points; with ``dd``, double dummy if known."""
        if deal.thrown_in is not None:
            reason: str = deal.thrown_in
            if reason in ("all-pass", "weak-hand", "low-total"):
                reason = self.tr(f"tui.thrown-in.{reason}")
            return [self.tr("tui.thrown-in", reason=reason)]
        result = deal.result
        assert result is not None
        lines = []
        contract = deal.contract
        taken = deal.tricks_taken
        if contract is not None:
            strain = ""
            if contract.strain is not None:
                strain = " " + (contract.strain.symbol if unicode else contract.strain.letter)
            side = contract.team
            verdict = self.tr("tui.summary.made" if result.made else "tui.summary.down")
            multiplier = f" x{contract.multiplier}" if contract.multiplier != 1 else ""
            lines.append(
                self.tr(
                    "tui.summary.contract",
                    contract=f"{contract.level}{strain}{multiplier}",
                    seat=self.describe(contract.declarer),
                    verdict=verdict,
                )
            )
            sides = {
                "side": names.side_name(side, self.lang, unicode),
                "other": names.side_name(side.other, self.lang, unicode),
            }
            lines.append(
                self.tr(
                    "tui.summary.tricks",
                    **sides,
                    taken=taken[side] + taken[side + 2],
                    lost=taken[side.other] + taken[side.other + 2],
                )
            )
            if deal.rules.count is Count.CARD_POINTS:
                won = deal.card_points_taken
                lines.append(
                    self.tr(
                        "tui.summary.card-points",
                        **sides,
                        taken=won[side] + won[side + 2],
                        lost=won[side.other] + won[side.other + 2],
                        bid=contract.level,
                    )
                )
        if result.seat_points is not None:
            lines.extend(self.player_lines(deal))
        else:
            ns, ew = (f"{p:+d}" for p in result.team_points)
            lines.append(
                self.tr("tui.summary.points", ns=ns, ew=ew, **names.sides(self.lang, unicode))
            )
        line = double_dummy_line(deal, unicode, self.lang) if dd else None
        if line is not None:
            lines.append(line)
        return lines

    def player_lines(self, deal: Deal) -> list[str]:
        """Individual play (Syrian 400): each player's bid, tricks and points, and the bids'
        total against the minimum the scores asked for (:func:`player_lines`)."""
        return player_lines(deal, self.describe, self.tr)

    def score_rows(self, unicode: bool = False) -> list[tuple[str, ...]]:
        """The score sheet: one row a finished deal. With partnership contracts, its
        number, dealer, contract and the sides' points; where each player bids and
        scores alone, its number, dealer and each player's points (South, East, North,
        West), as their own scores decide the match, not the sides' sums."""
        rows: list[tuple[str, ...]] = []
        alone = self.rules.is_individual
        for number, deal in enumerate(self.match.deals, 1):
            if not deal.is_over():
                continue
            result = deal.result
            contract = deal.contract
            dealer = names.seat_letter(deal.dealer, self.lang)
            if deal.thrown_in is not None or result is None:
                thrown = self.tr("tui.sheet.thrown-in")
                rows.append(
                    (str(number), dealer, thrown, "", "", "")
                    if alone
                    else (str(number), dealer, thrown, "", "")
                )
                continue
            if result.seat_points is not None:
                rows.append((str(number), dealer, *(f"{p:+d}" for p in result.seat_points)))
                continue
            if contract is not None:
                strain = contract.strain
                letter = "" if strain is None else strain.symbol if unicode else strain.letter
                what = f"{contract.level}{letter}"
                what += f" {names.seat_letter(contract.declarer, self.lang)}"
                what += " " + self.tr("tui.sheet.made" if result.made else "tui.sheet.down")
            else:
                what = self.tr("tui.sheet.individual")
            ns, ew = (f"{p:+d}" for p in result.team_points)
            rows.append((str(number), dealer, what, ns, ew))
        return rows

    def match_over_lines(self) -> list[str]:
        match = self.match
        winner = match.winner
        if winner is None:
            head = self.tr("tui.end.drawn")
        else:
            won = winner == self.human.team
            you = self.tr("tui.end.you-win" if won else "tui.end.you-lose")
            head = self.tr("tui.end.winner", side=self._side(winner), you=you)
        lines = [head]
        if len(match.sets) > 1:
            ns, ew = match.match_points
            lines.append(
                self.tr(
                    "tui.end.sets",
                    sets=len(match.sets),
                    ns=ns,
                    ew=ew,
                    **names.sides(self.lang, self.unicode),
                )
            )
        target = match.rules.target
        if match.rules.is_individual:
            # Each player's own score decides (one at the target, partner above zero): the
            # sides' sums would read as the wrong side winning (NS 49 beating EW 71).
            s, e, n, w = match.sets[-1].seat_scores if match.sets else match.seat_scores
            lines.append(
                self.tr(
                    "tui.end.final-seats.zero"
                    if match.rules.partner_zero_ok
                    else "tui.end.final-seats",
                    s=s,
                    e=e,
                    n=n,
                    w=w,
                    target=target,
                    **names.seat_letters(self.lang),
                )
            )
        else:
            final = match.sets[-1].team_scores if match.sets else match.team_scores
            lines.append(
                self.tr(
                    "tui.end.final",
                    ns=final[0],
                    ew=final[1],
                    target=target,
                    **names.sides(self.lang, self.unicode),
                )
            )
        return lines

    @property
    def phase(self) -> Phase:
        return self.match.deal.phase


def player_lines(deal: Deal, describe: Callable[[Seat], str], tr: Translator) -> list[str]:
    """A deal of individual play (Syrian 400) player by player: each one's bid, tricks
    and points (once scored), and the bids' total against the minimum the scores asked
    for. The deal's end and the review both say it so: each player scores alone."""
    result = deal.result
    lines = []
    for seat in SEATS:
        bid = deal.bids[seat]
        points = (
            ""
            if result is None or result.seat_points is None
            else f", {result.seat_points[seat]:+d}"
        )
        said = tr(
            "tui.summary.player",
            bid=f"{'-' if bid is None else bid:>2}",
            taken=f"{deal.tricks_taken[seat]:>2}",
        )
        lines.append(f"  {describe(seat):<17} {said}{points}")
    total = sum(b for b in deal.bids if b is not None)
    least = deal.rules.total_minimum(max(deal.scores))
    lines.append(tr("tui.summary.bids-total", total=total, least=least))
    return lines


def _bot_rng(seed: int | None, salt: str) -> random.Random | None:
    return None if seed is None else random.Random(f"{seed}/{salt}")


def _make_bots(
    human: Seat, partner: str, opponents: str, seed: int | None, salt: int = 0
) -> dict[Seat, Bot]:
    bots = {}
    for seat in SEATS:
        if seat == human:
            continue
        spec = partner if seat == human.partner else opponents
        bots[seat] = make_bot(spec, rng=_bot_rng(seed, f"{seat.letter}/{salt}"))
    return bots
