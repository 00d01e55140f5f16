"""A match: deals to the target, sets of deals, and matches of sets.

:class:`Match` deals, passes every action to the current :class:`Deal`, and
when a deal ends counts it, decides the set and starts the next deal, so a
program only ever pushes the actions of whoever is to act.

>>> from tarneeb.presets import find_rules
>>> match = Match(find_rules("classic"), seed=42)
>>> match.dealer, match.to_act
(Seat.SOUTH, Seat.EAST)
>>> match.push("pass"); match.push("pass"); match.push("pass"); match.push("pass")
>>> len(match.deals), match.dealer  # all passed: thrown in, the next dealer deals
(2, Seat.EAST)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tarneeb.actions import Action
from tarneeb.cards import deal_masks, live_rng, seeded_rng, shuffled_deck
from tarneeb.deal import Deal, ThrowIn
from tarneeb.errors import IllegalActionError, InvalidActionError
from tarneeb.rules import Rules
from tarneeb.scoring import set_winner
from tarneeb.seats import Seat, Team, parse_seat
from tarneeb.view import View

__all__ = ["Match", "SetResult"]


@dataclass(frozen=True)
class SetResult:
    """How one set ended."""

    number: int
    winner: Team
    team_scores: tuple[int, int]
    seat_scores: tuple[int, int, int, int]
    deals: int
    """How many deals (thrown-in ones included) the set took."""


class Match:
    """Deals played to the target, set after set, until the match is decided.

    :param rules: the rules of the match.
    :param seed: a seed for reproducible deals; ``None`` shuffles from the
        operating system (live games).
    :param first_dealer: the first dealer; by default drawn at random (the cut).
    :param hands: hands for the first deals, by deal (each four hands as
        masks), used instead of shuffling; a record replays through this.
    :param deck_source: called with the deal's index (from 0) for each deal
        past ``hands``, it returns that deal's deck (52 card numbers) instead
        of the seeded shuffle; the server's committed shuffle comes in here.
    :param scores: each seat's score at the start (its side's in partnership
        play), as if earlier deals of the first set had given them; default 0.
    """

    def __init__(
        self,
        rules: Rules,
        seed: int | str | None = None,
        first_dealer: Seat | int | None = None,
        hands: Sequence[Sequence[int]] = (),
        deck_source: Callable[[int], Sequence[int]] | None = None,
        scores: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        self.rules = rules
        self.seed = seed
        self._rng: random.Random = live_rng() if seed is None else seeded_rng(seed)
        drawn = self._rng.randrange(4)
        self.first_dealer = parse_seat(drawn if first_dealer is None else first_dealer)
        self._given = [tuple(h) for h in hands]
        self._deck_source = deck_source
        for index, given in enumerate(self._given):
            try:
                Deal(rules, self.first_dealer, given)
            except InvalidActionError as exc:
                raise InvalidActionError(f"hands of deal {index + 1}: {exc}") from None
        self.deals: list[Deal] = []
        """Every deal so far, the current one last (thrown-in deals included)."""
        self.sets: list[SetResult] = []
        self.team_scores: tuple[int, int] = (0, 0)
        self.seat_scores: tuple[int, int, int, int] = (0, 0, 0, 0)
        if len(scores) != 4:
            raise InvalidActionError("scores must give one number per seat")
        s0, s1, s2, s3 = (int(x) for x in scores)
        self.seat_scores = (s0, s1, s2, s3)
        self.team_scores = (s0 + s2, s1 + s3) if rules.is_individual else (s0, s1)
        self._set_start = 0
        self._over = False
        self._start_deal(self.first_dealer)

    # -- state --------------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        """The current deal (the last one, once the match is over)."""
        return self.deals[-1]

    @property
    def dealer(self) -> Seat:
        return self.deal.dealer

    @property
    def to_act(self) -> Seat | None:
        return None if self._over else self.deal.to_act

    @property
    def set_number(self) -> int:
        """The set under way, counting from 1."""
        return len(self.sets) + (0 if self._over else 1)

    def is_over(self) -> bool:
        return self._over

    @property
    def winner(self) -> Team | None:
        """The side that won the match; ``None`` while it goes on, or for a drawn match of sets."""
        if not self._over:
            return None
        if len(self.sets) == 1:
            return self.sets[0].winner
        totals = self.match_points
        if totals[0] != totals[1]:
            return Team.NS if totals[0] > totals[1] else Team.EW
        wins = [sum(1 for s in self.sets if s.winner == t) for t in Team]
        if wins[0] != wins[1]:
            return Team.NS if wins[0] > wins[1] else Team.EW
        return None

    @property
    def match_points(self) -> tuple[int, int]:
        """Points of each side added over the finished sets (what a match of sets counts)."""
        return (
            sum(s.team_scores[0] for s in self.sets),
            sum(s.team_scores[1] for s in self.sets),
        )

    def view(self, seat: Seat | int) -> View:
        """What ``seat`` may know of the current deal (scores before it included)."""
        return self.deal.view(seat)

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        return () if self._over else tuple(self.deal.legal_actions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (
            self.rules == other.rules
            and self.first_dealer == other.first_dealer
            and self.deals == other.deals
            and self.sets == other.sets
            and self.team_scores == other.team_scores
            and self.seat_scores == other.seat_scores
            and self._over == other._over
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Match set={self.set_number} deals={len(self.deals)} "
            f"scores={self.team_scores} over={self._over}>"
        )

    # -- acting -------------------------------------------------------------------

    def push(self, action: Action | int | str) -> None:
        """Take ``action`` for the seat to act; a finished deal is counted and the next dealt.

        :raises IllegalActionError: when the match is over or the rules refuse it.
        :raises InvalidActionError: when it cannot be read. Nothing changes on error.
        """
        if self._over:
            raise IllegalActionError("the match is over: no more actions")
        deal = self.deal
        deal.push(action)
        if deal.is_over():
            self._finish_deal(deal)

    def _deal_scores(self) -> tuple[int, int, int, int]:
        if self.rules.is_individual:
            return self.seat_scores
        ns, ew = self.team_scores
        return (ns, ew, ns, ew)

    def _start_deal(self, dealer: Seat) -> None:
        index = len(self.deals)
        masks: Sequence[int]
        if index < len(self._given):
            masks = self._given[index]
            deal = Deal(self.rules, dealer, masks, self._deal_scores())
        else:
            deck = (
                shuffled_deck(self._rng) if self._deck_source is None else self._deck_source(index)
            )
            masks = deal_masks(deck, dealer, self.rules.dealing)
            deal = Deal(self.rules, dealer, masks, self._deal_scores())
        self.deals.append(deal)

    def _finish_deal(self, deal: Deal) -> None:
        dealer = deal.dealer
        if deal.thrown_in is not None:
            # All passed: the deal passes on; a claimed or forced redeal: the same dealer.
            nxt = dealer.next if deal.thrown_in == ThrowIn.ALL_PASS else dealer
            self._start_deal(nxt)
            return
        result = deal.result
        assert result is not None
        ns, ew = self.team_scores
        self.team_scores = (ns + result.team_points[0], ew + result.team_points[1])
        if result.seat_points is not None:
            s = self.seat_scores
            p = result.seat_points
            self.seat_scores = (s[0] + p[0], s[1] + p[1], s[2] + p[2], s[3] + p[3])
        else:
            ns, ew = self.team_scores
            self.seat_scores = (ns, ew, ns, ew)
        declarer = deal.declarer
        winner = set_winner(
            self.rules,
            self.team_scores,
            self.seat_scores,
            result,
            None if declarer is None else declarer.team,
        )
        if winner is not None:
            self.sets.append(
                SetResult(
                    len(self.sets) + 1,
                    winner,
                    self.team_scores,
                    self.seat_scores,
                    len(self.deals) - self._set_start,
                )
            )
            if len(self.sets) >= self.rules.sets:
                self._over = True
                return
            self.team_scores = (0, 0)
            self.seat_scores = (0, 0, 0, 0)
            self._set_start = len(self.deals)
        self._start_deal(dealer.next)
