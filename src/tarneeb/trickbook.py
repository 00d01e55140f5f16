"""The public record of a deal: every action, trick by trick (the base of :class:`~tarneeb.deal.Deal`).

What everyone at the table has seen, derived from the deal's lists of ints:
the history with who took each action, the completed tricks and the one
under way, the tricks and card points each seat has won.
"""

from __future__ import annotations

from tarneeb.actions import Action, Phase, action_from_id
from tarneeb.cards import Card, CardSet
from tarneeb.play import POINTS, Trick
from tarneeb.seats import Seat, Team

__all__ = ["TrickBook"]


class TrickBook:
    """The actions of a deal and its tricks; :class:`~tarneeb.deal.Deal` keeps the lists."""

    __slots__ = (
        "_actors",
        "_first",
        "_history",
        "_leader",
        "_phase",
        "_played",
        "_seen",
        "_tricks",
        "_winners",
    )

    _history: list[int]
    """The actions before the play (auction, raise, trump); the cards are in ``_played``."""
    _actors: list[int]
    """Who took each action of ``_history``."""
    _played: list[int]
    _winners: list[int]
    """The winner of each completed trick."""
    _tricks: list[int]
    """Tricks won by each seat."""
    _phase: Phase
    _leader: int
    """The leader of the trick under way."""
    _first: int
    """The leader of the first trick (``-1`` before the play)."""
    _seen: tuple[tuple[tuple[Seat, Action], ...], tuple[Trick, ...]]
    """The history and tricks as objects, cached for views."""

    @property
    def history(self) -> tuple[tuple[Seat, Action], ...]:
        """Every action so far, with the seat that took it."""
        seen, tricks = self._seen
        before = len(self._history)
        n = before + len(self._played)
        if len(seen) != n:
            new: list[tuple[Seat, Action]] = []
            for i in range(len(seen), n):
                if i < before:
                    new.append((Seat(self._actors[i]), action_from_id(self._history[i])))
                else:
                    j = i - before
                    seat = (self._leader_of_trick(j // 4) + j) & 3
                    new.append((Seat(seat), Card(self._played[j])))
            seen = seen[:n] + tuple(new)
            self._seen = (seen, tricks)
        return seen

    @property
    def action_ids(self) -> tuple[int, ...]:
        """Every action so far as ints (the auction's, then the cards)."""
        return (*self._history, *self._played)

    @property
    def played(self) -> CardSet:
        """Every card played so far."""
        mask = 0
        for card in self._played:
            mask |= 1 << card
        return CardSet(mask)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        seen, done = self._seen
        n = len(self._winners)
        if len(done) != n:
            out = list(done[:n])
            for i in range(len(out), n):
                leader = self._leader_of_trick(i)
                cards = tuple(Card(c) for c in self._played[4 * i : 4 * i + 4])
                out.append(Trick(Seat(leader), cards, Seat(self._winners[i])))
            done = tuple(out)
            self._seen = (seen, done)
        return done

    @property
    def current_trick(self) -> Trick | None:
        """The trick under way (possibly empty), or ``None`` outside play."""
        if self._phase is not Phase.PLAY:
            return None
        n = len(self._played) & 3
        cards = tuple(Card(c) for c in self._played[len(self._played) - n :])
        return Trick(Seat(self._leader), cards)

    @property
    def tricks_taken(self) -> tuple[int, int, int, int]:
        """Tricks won by each seat so far."""
        t = self._tricks
        return t[0], t[1], t[2], t[3]

    def team_tricks(self, team: Team | int) -> int:
        return self._tricks[team] + self._tricks[team + 2]

    @property
    def card_points_taken(self) -> tuple[int, int, int, int]:
        """Card points (A 11, 10 10, K 4, Q 3, J 2) won by each seat so far."""
        p = self._card_points()
        return p[0], p[1], p[2], p[3]

    def _card_points(self) -> list[int]:
        points = [0, 0, 0, 0]
        played = self._played
        for i, winner in enumerate(self._winners):
            points[winner] += sum(POINTS[c] for c in played[4 * i : 4 * i + 4])
        return points

    def _leader_of_trick(self, index: int) -> int:
        return self._first if index == 0 else self._winners[index - 1]
