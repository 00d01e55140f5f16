"""King of the table: pairs queue for one table, and the loser of each set gives up its seats.

Seed 002 (the Levant's game): «In een toernooi wordt aan het eind van een set
het verliezende team vervangen voor de volgende set.» At the end of a set the
losing pair is replaced for the next set. :class:`KingOfTheTable` keeps that
table: the first two pairs sit down (the first North-South, the second
East-West), the rest queue in the order given. When a set ends, its loser goes
to the back of the queue and the pair at the front takes the seats the loser
left; the winner keeps its seats. A *set* is what the rules call a set: one
game to the target (41 in seed 002), a :class:`~tarneeb.match.Match` whose
rules have ``sets=1`` (:func:`set_rules` makes them from any rules, the
13-set ``levant-sets`` preset included).

The type is pure: it plays no cards and reads no clock, it is told how each set
ended (:meth:`KingOfTheTable.record_set`) and says who plays next. It ends after
``sets`` sets (13 by default, as many as the seed's match of sets: «Het team
met de meeste punten uit 13 sets wint de wedstrijd»), or as soon as one pair
has won ``streak`` sets in a row, whichever comes first.

>>> table = KingOfTheTable(["A", "B", "C"], sets=3)
>>> table.current_pairing()
Pairing(number=1, ns='A', ew='B', holder=None)
>>> table.record_set(SetPlayed(1, "A", "B", winner="B", scores=(12, 41)))
>>> table.current_pairing(), table.queue  # A lost: to the back; C takes North-South
(Pairing(number=2, ns='C', ew='B', holder='B'), ('A',))
>>> [(s.pair, s.won, s.played) for s in table.standings()]
[('B', 1, 1), ('C', 0, 0), ('A', 0, 1)]
"""

from __future__ import annotations

import dataclasses
import enum
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypedDict, TypeGuard

from tarneeb.errors import TarneebError
from tarneeb.match import SetResult
from tarneeb.rules import Rules
from tarneeb.seats import Team

__all__ = [
    "DEFAULT_SETS",
    "Ending",
    "KingOfTheTable",
    "KingOfTheTableDict",
    "Pairing",
    "SetPlayed",
    "SetPlayedDict",
    "Standing",
    "Tally",
    "TournamentError",
    "play_out",
    "set_rules",
    "standings_of",
    "tally_sets",
]

DEFAULT_SETS = 13
"""Sets in a king-of-the-table tournament unless told otherwise (seed 002's match of 13 sets)."""

KIND = "king-of-the-table"
"""The ``kind`` of :meth:`KingOfTheTable.to_dict`."""
VERSION = 1


class TournamentError(TarneebError, ValueError):
    """Tournament settings that cannot work, a result that does not fit, or state that cannot load."""


class Ending(enum.Enum):
    """Why a tournament ended."""

    SETS = "sets"
    """All ``sets`` sets were played."""
    STREAK = "streak"
    """A pair won ``streak`` sets in a row."""


def set_rules(rules: Rules) -> Rules:
    """The rules of one set of the tournament: ``rules`` with a single set.

    >>> from tarneeb.presets import find_rules
    >>> set_rules(find_rules("levant-sets")).sets
    1
    """
    return rules if rules.sets == 1 else rules.replace(sets=1)


class SetPlayedDict(TypedDict):
    number: int
    ns: str
    ew: str
    winner: str
    scores: list[int]
    deals: int


@dataclass(frozen=True)
class SetPlayed:
    """How one set of the tournament ended: who sat where, who won, the scores.

    :param number: the set, counting from 1.
    :param ns: the pair that held North-South; ``ew`` the pair at East-West.
    :param winner: ``ns`` or ``ew``.
    :param scores: North-South's and East-West's scores when the set ended.
        The winner need not be ahead: where 13 tricks win the set, a pair can
        win it behind.
    :param deals: deals the set took (thrown-in ones included), for reports.
    :raises TournamentError: on a winner who did not play, a pair against
        itself, or numbers that cannot be.
    """

    number: int
    ns: str
    ew: str
    winner: str
    scores: tuple[int, int]
    deals: int = 0

    def __post_init__(self) -> None:
        scores = tuple(self.scores)
        if len(scores) != 2 or not all(_is_int(x) for x in scores):
            raise TournamentError(f"set {self.number}: scores {self.scores!r} are not two numbers")
        object.__setattr__(self, "scores", scores)
        if not _is_int(self.number) or self.number < 1:
            raise TournamentError(f"set number {self.number!r} must be a whole number from 1")
        if not _is_int(self.deals) or self.deals < 0:
            raise TournamentError(f"set {self.number}: deals={self.deals!r} cannot be negative")
        for pair in (self.ns, self.ew, self.winner):
            _check_name(pair)
        if self.ns == self.ew:
            raise TournamentError(f"set {self.number}: {self.ns!r} cannot play against itself")
        if self.winner not in (self.ns, self.ew):
            raise TournamentError(
                f"set {self.number}: the winner {self.winner!r} is neither "
                f"{self.ns!r} nor {self.ew!r}"
            )

    @property
    def loser(self) -> str:
        return self.ew if self.winner == self.ns else self.ns

    def scores_of(self, pair: str) -> tuple[int, int]:
        """``pair``'s score and its opponents' score.

        :raises TournamentError: when ``pair`` did not play this set.
        """
        if pair == self.ns:
            return self.scores
        if pair == self.ew:
            return self.scores[1], self.scores[0]
        raise TournamentError(f"{pair!r} did not play set {self.number}")

    def to_dict(self) -> SetPlayedDict:
        return {
            "number": self.number,
            "ns": self.ns,
            "ew": self.ew,
            "winner": self.winner,
            "scores": list(self.scores),
            "deals": self.deals,
        }

    @classmethod
    def from_dict(cls, data: object) -> SetPlayed:
        """The set :meth:`to_dict` wrote. :raises TournamentError: on anything else."""
        if not isinstance(data, dict):
            raise TournamentError(f"a set must be an object, not {type(data).__name__}")
        missing = {"number", "ns", "ew", "winner", "scores"} - data.keys()
        if missing:
            raise TournamentError(f"a set without {', '.join(sorted(missing))}")
        scores = data["scores"]
        if not isinstance(scores, list | tuple) or len(scores) != 2:
            raise TournamentError(f"set {data['number']!r}: scores {scores!r} are not two numbers")
        return cls(
            data["number"],
            data["ns"],
            data["ew"],
            data["winner"],
            (scores[0], scores[1]),
            data.get("deals", 0),
        )


@dataclass(frozen=True)
class Pairing:
    """The pairs at the table for one set.

    :param number: the set they play, counting from 1.
    :param ns: the pair at North-South; ``ew`` the pair at East-West.
    :param holder: the pair that won the set before and kept its seats;
        ``None`` for the first set.
    """

    number: int
    ns: str
    ew: str
    holder: str | None

    @property
    def challenger(self) -> str | None:
        """The pair that just sat down (``None`` for the first set, where both did)."""
        if self.holder is None:
            return None
        return self.ew if self.holder == self.ns else self.ns

    def pair_of(self, team: Team) -> str:
        """The pair holding ``team``'s seats."""
        return self.ns if team is Team.NS else self.ew

    def result(self, winner: str | Team, scores: Sequence[int], deals: int = 0) -> SetPlayed:
        """This set's result: ``winner`` (a pair, or the side it held) and the two scores.

        :raises TournamentError: when ``winner`` is not at the table.
        """
        name = self.pair_of(winner) if isinstance(winner, Team) else winner
        return SetPlayed(self.number, self.ns, self.ew, name, _two(scores), deals)

    def result_of(self, finished: SetResult) -> SetPlayed:
        """This set's result from how the :class:`~tarneeb.match.Match` of it ended.

        >>> from tarneeb import Match, SetResult, Team
        >>> Pairing(1, "A", "B", None).result_of(SetResult(1, Team.EW, (20, 43), (20, 43, 20, 43), 9))
        SetPlayed(number=1, ns='A', ew='B', winner='B', scores=(20, 43), deals=9)
        """
        return self.result(finished.winner, finished.team_scores, finished.deals)

    def unfinished_result(self, scores: Sequence[int], deals: int = 0) -> SetPlayed:
        """The result of a set stopped before either pair won it (a deal cap, a time limit).

        The pair ahead wins; on even scores the holder keeps the table, and in
        the first set (no holder yet) North-South, the pair that sat down first.
        """
        ns, ew = _two(scores)
        if ns != ew:
            winner = self.ns if ns > ew else self.ew
        else:
            winner = self.holder if self.holder is not None else self.ns
        return SetPlayed(self.number, self.ns, self.ew, winner, (ns, ew), deals)


@dataclass(frozen=True)
class Standing:
    """One pair's line of the standings."""

    rank: int
    pair: str
    played: int
    won: int
    lost: int
    points_for: int
    """The pair's own scores at the end of its sets, added (they can be negative)."""
    points_against: int
    streak: int
    """Sets won in a row up to now (0 for a pair in the queue: it lost its last set, or has not played)."""
    best_streak: int
    at_table: bool
    """Whether the pair sits at the table for the next set (or sat for the last, once over)."""

    def to_dict(self) -> dict[str, int | str | bool]:
        """The line as JSON-ready data, one key a field."""
        return dataclasses.asdict(self)


class KingOfTheTableDict(TypedDict):
    kind: str
    version: int
    pairs: list[str]
    sets: int | None
    streak: int | None
    played: list[SetPlayedDict]


class KingOfTheTable:
    """A table where pairs queue: each set's loser goes to the back, the next pair sits down.

    :param pairs: the pairs' names, unique, in the order they queue: the first
        sits North-South, the second East-West, the others wait in turn.
    :param sets: the tournament ends after this many sets (default
        :data:`DEFAULT_SETS`); ``None`` for no such limit (then ``streak`` must
        be given, and the tournament may last as long as no pair dominates).
    :param streak: the tournament also ends as soon as one pair has won this
        many sets in a row (``len(pairs) - 1`` means it beat every other pair
        in turn); ``None`` (default) for no such end.
    :raises TournamentError: on fewer than two pairs, a name given twice or
        empty, or limits below 1 / both ``None``.

    The standings rank by sets won (more first), then sets lost (fewer
    first), then points scored over the sets (more first), then the order the
    pairs queued at the start; so the order is total and the same for the same
    results. The winner is the pair that reached the streak when that ended
    the tournament, otherwise the first of the standings.
    """

    def __init__(
        self, pairs: Sequence[str], sets: int | None = DEFAULT_SETS, streak: int | None = None
    ) -> None:
        names = tuple(pairs) if not isinstance(pairs, str) else (pairs,)
        for name in names:
            _check_name(name)
        if len(names) < 2:
            raise TournamentError(f"king of the table needs at least two pairs, not {len(names)}")
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise TournamentError(f"pairs must have different names: {', '.join(twice)} twice")
        for key, value in (("sets", sets), ("streak", streak)):
            if value is not None and (not _is_int(value) or value < 1):
                raise TournamentError(f"{key}={value!r} must be a whole number from 1, or None")
        if sets is None and streak is None:
            raise TournamentError("give sets or streak (or both): otherwise it never ends")
        self.pairs: tuple[str, ...] = names
        self.sets = sets
        self.streak = streak
        self._played: list[SetPlayed] = []
        self._pairings: list[Pairing] = []
        self._ns, self._ew = names[0], names[1]
        self._holder: str | None = None
        self._queue: deque[str] = deque(names[2:])
        self._run: dict[str, int] = dict.fromkeys(names, 0)

    # -- state --------------------------------------------------------------------

    @property
    def played(self) -> tuple[SetPlayed, ...]:
        """Every set played, in order."""
        return tuple(self._played)

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        """Who sat for each set played (the holder included), in order."""
        return tuple(self._pairings)

    @property
    def queue(self) -> tuple[str, ...]:
        """The pairs waiting, the next to sit down first (once over: those that waited for the last set)."""
        return tuple(self._queue)

    @property
    def king(self) -> str | None:
        """The pair that won the last set and holds the table; ``None`` before the first set."""
        return self._holder

    def is_over(self) -> bool:
        return self.ending is not None

    @property
    def ending(self) -> Ending | None:
        """Why the tournament ended; ``None`` while it goes on."""
        holder = self._holder
        if holder is not None and self.streak is not None and self._run[holder] >= self.streak:
            return Ending.STREAK
        if self.sets is not None and len(self._played) >= self.sets:
            return Ending.SETS
        return None

    @property
    def winner(self) -> str | None:
        """The pair that won the tournament, once it is over."""
        ending = self.ending
        if ending is None:
            return None
        if ending is Ending.STREAK:
            return self._holder
        return self.standings()[0].pair

    def current_pairing(self) -> Pairing:
        """The pairs at the table for the next set.

        :raises TournamentError: when the tournament is over.
        """
        if self.is_over():
            raise TournamentError(f"the tournament is over after {len(self._played)} sets")
        return Pairing(len(self._played) + 1, self._ns, self._ew, self._holder)

    def pending(self) -> tuple[Pairing, ...]:
        """The sets that can be played now: the current one, none once over.

        The same for every tournament of :mod:`tarneeb.competitions` (a
        knock-out may have several ties ready at once).
        """
        return () if self.is_over() else (self.current_pairing(),)

    def standings(self) -> list[Standing]:
        """Every pair's line, best first (the order of the class docstring)."""
        tally = tally_sets(self.pairs, self._played)
        order = {name: i for i, name in enumerate(self.pairs)}
        ranked = sorted(
            self.pairs,
            key=lambda p: (-tally[p].won, tally[p].lost, -tally[p].points_for, order[p]),
        )
        return standings_of(ranked, tally, {self._ns, self._ew})

    # -- results ------------------------------------------------------------------

    def record_set(self, result: SetPlayed) -> None:
        """Count the set that just ended: its loser queues at the back, the next pair sits down.

        The incoming pair takes the seats the loser left (North-South or
        East-West); the winner keeps its own. After the last set nobody moves.

        :raises TournamentError: when the tournament is over, or ``result`` is
            not the current set with the pairs at the table in their seats.
            Nothing changes on error.
        """
        if not isinstance(result, SetPlayed):
            raise TournamentError(f"a set result is a SetPlayed, not {type(result).__name__}")
        pairing = self.current_pairing()
        if result.number != pairing.number:
            raise TournamentError(
                f"a result for set {result.number}, but set {pairing.number} is being played"
            )
        if (result.ns, result.ew) != (pairing.ns, pairing.ew):
            raise TournamentError(
                f"set {pairing.number} is {pairing.ns} (North-South) against {pairing.ew} "
                f"(East-West), not {result.ns} against {result.ew}"
            )
        self._played.append(result)
        self._pairings.append(pairing)
        winner, loser = result.winner, result.loser
        self._run[winner] += 1
        self._run[loser] = 0
        self._holder = winner
        if self.is_over():
            return  # the last set: nobody sits down, the table stays as it was played
        self._queue.append(loser)
        incoming = self._queue.popleft()
        if loser == self._ns:
            self._ns = incoming
        else:
            self._ew = incoming

    # -- persistence --------------------------------------------------------------

    def to_dict(self) -> KingOfTheTableDict:
        """The whole tournament as JSON-ready data; :meth:`from_dict` rebuilds it."""
        return {
            "kind": KIND,
            "version": VERSION,
            "pairs": list(self.pairs),
            "sets": self.sets,
            "streak": self.streak,
            "played": [s.to_dict() for s in self._played],
        }

    @classmethod
    def from_dict(cls, data: object) -> KingOfTheTable:
        """The tournament :meth:`to_dict` wrote, its sets replayed and checked.

        :raises TournamentError: on data that is not such a tournament, or
            sets that do not follow from each other.
        """
        if not isinstance(data, dict):
            raise TournamentError(f"a tournament must be an object, not {type(data).__name__}")
        if data.get("kind") != KIND:
            raise TournamentError(f"not a king-of-the-table tournament: kind {data.get('kind')!r}")
        version = data.get("version")
        if not _is_int(version) or not 1 <= version <= VERSION:
            raise TournamentError(f"tournament version {version!r} (this one reads 1..{VERSION})")
        pairs = data.get("pairs")
        if not isinstance(pairs, list):
            raise TournamentError(f"pairs must be a list of names, not {pairs!r}")
        played = data.get("played", [])
        if not isinstance(played, list):
            raise TournamentError(f"played must be a list of sets, not {played!r}")
        table = cls(pairs, sets=data.get("sets"), streak=data.get("streak"))
        for item in played:
            table.record_set(SetPlayed.from_dict(item))
        return table

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KingOfTheTable):
            return NotImplemented
        return (self.pairs, self.sets, self.streak, self._played) == (
            other.pairs,
            other.sets,
            other.streak,
            other._played,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<KingOfTheTable pairs={list(self.pairs)!r} sets={self.sets!r} "
            f"streak={self.streak!r} played={len(self._played)} over={self.is_over()}>"
        )


@dataclass
class Tally:
    """One pair's counts over the sets it played (what a :class:`Standing` shows)."""

    won: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    streak: int = 0
    best_streak: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost


def tally_sets(pairs: Sequence[str], played: Sequence[SetPlayed]) -> dict[str, Tally]:
    """Each pair's :class:`Tally` over ``played``, in order (every tournament counts so).

    >>> tally_sets(["A", "B"], [SetPlayed(1, "A", "B", "B", (12, 41))])["B"]
    Tally(won=1, lost=0, points_for=41, points_against=12, streak=1, best_streak=1)
    """
    tally = {name: Tally() for name in pairs}
    for result in played:
        for pair in (result.ns, result.ew):
            own, other = result.scores_of(pair)
            tally[pair].points_for += own
            tally[pair].points_against += other
        won, lost = tally[result.winner], tally[result.loser]
        won.won += 1
        lost.lost += 1
        won.streak += 1
        lost.streak = 0
        won.best_streak = max(won.best_streak, won.streak)
    return tally


def standings_of(
    ranked: Sequence[str], tally: dict[str, Tally], seated: set[str]
) -> list[Standing]:
    """The :class:`Standing` lines of the pairs ``ranked`` (best first) from their tallies;
    ``seated``: the pairs at a table for the next set (or at the last, once over)."""
    return [
        Standing(
            rank=rank,
            pair=pair,
            played=tally[pair].played,
            won=tally[pair].won,
            lost=tally[pair].lost,
            points_for=tally[pair].points_for,
            points_against=tally[pair].points_against,
            streak=tally[pair].streak,
            best_streak=tally[pair].best_streak,
            at_table=pair in seated,
        )
        for rank, pair in enumerate(ranked, 1)
    ]


def play_out(table: KingOfTheTable, play_set: Callable[[Pairing], SetPlayed]) -> KingOfTheTable:
    """Play ``table`` to its end: ``play_set`` plays each pairing and gives its result.

    The arena plays each set with bots through this (a one-set
    :class:`~tarneeb.match.Match` of :func:`set_rules`, turned into a result
    by :meth:`Pairing.result_of` or, when stopped at its deal cap,
    :meth:`Pairing.unfinished_result`). With ``sets=None`` it runs until a
    pair wins ``streak`` sets in a row, which may take long.

    >>> table = KingOfTheTable(["A", "B", "C", "D"], sets=4)
    >>> # The pair first in the alphabet always wins:
    >>> _ = play_out(table, lambda p: p.result(min(p.ns, p.ew), (41, 0)))
    >>> [(p.ns, p.ew) for p in table.pairings], table.winner
    ([('A', 'B'), ('A', 'C'), ('A', 'D'), ('A', 'B')], 'A')
    """
    while not table.is_over():
        table.record_set(play_set(table.current_pairing()))
    return table


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _two(scores: Sequence[int]) -> tuple[int, int]:
    values = tuple(scores)
    if len(values) != 2:
        raise TournamentError(f"scores {scores!r} are not two numbers")
    return values[0], values[1]


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name.strip():
        raise TournamentError(f"a pair's name must be a non-empty string, not {name!r}")
