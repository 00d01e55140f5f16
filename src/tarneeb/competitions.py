"""The other tournaments of pairs: a match of 13 sets, and a knock-out bracket.

Seed 002 ends its rules with the match: «Het team met de meeste punten uit 13
sets wint de wedstrijd.» (the team with the most points from 13 sets wins the
match). :class:`SetsMatch` is that match between two pairs: each set is one
game to the target (a :class:`~tarneeb.match.Match` of
:func:`~tarneeb.tournament.set_rules`), and the points each pair had when a
set ended are added up over the sets. :class:`Knockout` is a bracket of pairs:
each tie is one set, its loser is out, byes fill a field that is not a power
of two (the best seeds get them), and the seeds are placed so that the first
two can meet only in the final.

Both are pure like :class:`~tarneeb.tournament.KingOfTheTable`, with the same
words: they are told each set's :class:`~tarneeb.tournament.SetPlayed`
(:meth:`record_set`), say which sets can be played now (:meth:`pending`, one
:class:`~tarneeb.tournament.Pairing` each) and give
:class:`~tarneeb.tournament.Standing` lines; :class:`Tournament` is what the
three share, and :func:`tournament_from_dict` reads any of them back.

>>> match = SetsMatch(["A", "B"], sets=3)
>>> for winner, scores in [("A", (41, 20)), ("B", (5, 41)), ("B", (30, 41))]:
...     match.record_set(match.pending()[0].result(winner, scores))
>>> match.totals, match.winner  # B won two sets, but A scored more
((76, 102), 'B')
>>> bracket = Knockout(["A", "B", "C"])
>>> [(p.number, p.ns, p.ew) for p in bracket.pending()]  # A, the first seed, has the bye
[(1, 'B', 'C')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypedDict

from tarneeb.tournament import (
    DEFAULT_SETS,
    VERSION,
    Ending,
    KingOfTheTable,
    Pairing,
    SetPlayed,
    SetPlayedDict,
    Standing,
    TournamentError,
    _check_name,
    _is_int,
    standings_of,
    tally_sets,
)
from tarneeb.tournament import (
    KIND as KING_OF_THE_TABLE,
)

__all__ = [
    "KINDS",
    "KING_OF_THE_TABLE",
    "KNOCKOUT",
    "SETS_MATCH",
    "Knockout",
    "SetsMatch",
    "Tie",
    "Tournament",
    "bracket_order",
    "tournament_from_dict",
]

SETS_MATCH = "sets-match"
KNOCKOUT = "knockout"
KINDS = (KING_OF_THE_TABLE, SETS_MATCH, KNOCKOUT)
"""The ``kind`` of each tournament's :meth:`to_dict`, the names the server knows them by."""


class Tournament(Protocol):
    """What every tournament of pairs offers (king of the table, a match of sets, a knock-out)."""

    pairs: tuple[str, ...]

    @property
    def played(self) -> tuple[SetPlayed, ...]: ...

    @property
    def winner(self) -> str | None: ...

    def pending(self) -> tuple[Pairing, ...]: ...

    def record_set(self, result: SetPlayed) -> None: ...

    def standings(self) -> list[Standing]: ...

    def is_over(self) -> bool: ...

    def to_dict(self) -> Any: ...


def _names(pairs: Sequence[str], what: str, fewest: int) -> tuple[str, ...]:
    names = (pairs,) if isinstance(pairs, str) else tuple(pairs)
    for name in names:
        _check_name(name)
    if len(names) < fewest:
        raise TournamentError(f"{what} needs at least {fewest} pairs, not {len(names)}")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise TournamentError(f"pairs must have different names: {', '.join(twice)} twice")
    return names


def _check_result(result: object, pending: Sequence[Pairing]) -> Pairing:
    """The pairing of ``pending`` that ``result`` ends. :raises TournamentError: for none."""
    if not isinstance(result, SetPlayed):
        raise TournamentError(f"a set result is a SetPlayed, not {type(result).__name__}")
    for pairing in pending:
        if pairing.number == result.number:
            if (result.ns, result.ew) != (pairing.ns, pairing.ew):
                raise TournamentError(
                    f"set {pairing.number} is {pairing.ns} (North-South) against {pairing.ew} "
                    f"(East-West), not {result.ns} against {result.ew}"
                )
            return pairing
    ready = ", ".join(str(p.number) for p in pending) or "none: it is over"
    raise TournamentError(f"no set {result.number} is being played (being played: {ready})")


# -- a match of sets ---------------------------------------------------------------------------


class SetsMatchDict(TypedDict):
    kind: str
    version: int
    pairs: list[str]
    sets: int
    played: list[SetPlayedDict]


class SetsMatch:
    """Two pairs play ``sets`` sets (13 by default, as seed 002); the most points wins.

    :param pairs: the two pairs: the first sits North-South, the second
        East-West, for every set (seed 002: «Teams blijven bij elkaar voor
        alle spellen van een set.»; the seats do not move either).
    :param sets: how many sets are played, all of them (no set is skipped
        once one pair cannot be caught: the points of each still count).
    :raises TournamentError: on other than two different pairs, or ``sets`` below 1.

    The winner has the most points added over the sets (each pair's score
    when each set ended, so a lost set still adds, and a negative score
    takes off); on equal points the pair that won more sets; on that too,
    nobody (a drawn match, as :attr:`tarneeb.match.Match.winner` says).
    """

    def __init__(self, pairs: Sequence[str], sets: int = DEFAULT_SETS) -> None:
        names = _names(pairs, "a match of sets", 2)
        if len(names) != 2:
            raise TournamentError(f"a match of sets is between two pairs, not {len(names)}")
        if not _is_int(sets) or sets < 1:
            raise TournamentError(f"sets={sets!r} must be a whole number from 1")
        self.pairs: tuple[str, ...] = names
        self.sets = sets
        self._played: list[SetPlayed] = []

    @property
    def played(self) -> tuple[SetPlayed, ...]:
        return tuple(self._played)

    def is_over(self) -> bool:
        return len(self._played) >= self.sets

    @property
    def ending(self) -> Ending | None:
        return Ending.SETS if self.is_over() else None

    @property
    def totals(self) -> tuple[int, int]:
        """Each pair's points so far (the first pair's first), the match's score."""
        tally = tally_sets(self.pairs, self._played)
        return tally[self.pairs[0]].points_for, tally[self.pairs[1]].points_for

    @property
    def winner(self) -> str | None:
        """The pair that won the match once it is over; ``None`` before, or for a draw."""
        if not self.is_over():
            return None
        first, second = self.standings()
        if (first.points_for, first.won) == (second.points_for, second.won):
            return None
        return first.pair

    def pending(self) -> tuple[Pairing, ...]:
        """The next set (the same seats every set), none once over."""
        if self.is_over():
            return ()
        return (Pairing(len(self._played) + 1, self.pairs[0], self.pairs[1], None),)

    def standings(self) -> list[Standing]:
        """The two pairs, the one ahead (points, then sets won) first."""
        tally = tally_sets(self.pairs, self._played)
        ranked = sorted(
            self.pairs,
            key=lambda p: (-tally[p].points_for, -tally[p].won, self.pairs.index(p)),
        )
        return standings_of(ranked, tally, set(self.pairs))

    def record_set(self, result: SetPlayed) -> None:
        """Count the set that just ended.

        :raises TournamentError: when the match is over or ``result`` is not its next
            set with the pairs in their seats. Nothing changes on error.
        """
        _check_result(result, self.pending())
        self._played.append(result)

    def to_dict(self) -> SetsMatchDict:
        return {
            "kind": SETS_MATCH,
            "version": VERSION,
            "pairs": list(self.pairs),
            "sets": self.sets,
            "played": [s.to_dict() for s in self._played],
        }

    @classmethod
    def from_dict(cls, data: object) -> SetsMatch:
        """The match :meth:`to_dict` wrote. :raises TournamentError: on anything else."""
        body = _read(data, SETS_MATCH)
        match = cls(body["pairs"], body.get("sets", DEFAULT_SETS))
        for item in body["played"]:
            match.record_set(SetPlayed.from_dict(item))
        return match

    def __repr__(self) -> str:
        return f"<SetsMatch pairs={list(self.pairs)!r} sets={self.sets} played={len(self._played)}>"


# -- a knock-out bracket -----------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """The seeds (from 1) in bracket order for a bracket of ``size`` places (a power of two).

    Each tie of the first round is a seed against ``size + 1`` minus it, and
    seeds 1 and 2 are in different halves, 1 to 4 in different quarters,
    and so on: the better two seeds can meet only later.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if not _is_int(size) or size < 1 or size & (size - 1):
        raise TournamentError(f"a bracket has a power of two places, not {size!r}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


@dataclass(frozen=True)
class Tie:
    """One place of the bracket where two pairs meet (or one walks on, a bye).

    :param number: the set's number, counting from 1 round by round, top to
        bottom, byes skipped (0 for a bye, which is no set).
    :param round: the round, from 1; the last round is the final.
    :param ns: the pair from the upper half of the tie (the better seed in
        the first round), at North-South; ``None`` until it is known.
    :param ew: the other, at East-West; ``None`` until known, or for a bye.
    :param winner: who goes through, once known (a bye's pair at once).
    """

    number: int
    round: int
    ns: str | None
    ew: str | None
    winner: str | None

    @property
    def bye(self) -> bool:
        return self.number == 0


class KnockoutDict(TypedDict):
    kind: str
    version: int
    pairs: list[str]
    played: list[SetPlayedDict]


class Knockout:
    """A bracket of pairs: every tie is a set, its loser is out, its winner goes on.

    :param pairs: the pairs in seeding order (the first is the best seed).
        The bracket has the next power of two places; the places over the
        number of pairs are byes, which go to the best seeds (so seed 1 of six
        pairs walks into the second round). Seeds meet as :func:`bracket_order`
        places them.
    :raises TournamentError: on fewer than two pairs or a name twice.

    A tie can be played as soon as both its pairs are known, whatever the
    other ties of its round do (:meth:`pending` gives every such tie).

    The standings put the pairs that went furthest first (a pair still in
    counts the round it is in, ahead of the pairs that lost in that round),
    then sets won, sets lost (fewer first), points over the sets, and seed.
    """

    def __init__(self, pairs: Sequence[str]) -> None:
        self.pairs: tuple[str, ...] = _names(pairs, "a knock-out", 2)
        size = 1
        while size < len(self.pairs):
            size *= 2
        self.size = size
        self.rounds = size.bit_length() - 1
        """How many rounds: the last is the final."""
        seeds = bracket_order(size)
        first = [
            (
                self.pairs[seeds[i] - 1] if seeds[i] <= len(self.pairs) else None,
                self.pairs[seeds[i + 1] - 1] if seeds[i + 1] <= len(self.pairs) else None,
            )
            for i in range(0, size, 2)
        ]
        self._first = first
        # the set number of each (round, place), byes 0
        self._numbers: dict[tuple[int, int], int] = {}
        number = 0
        for place, (top, bottom) in enumerate(first):
            if top is not None and bottom is not None:
                number += 1
                self._numbers[(1, place)] = number
            else:
                self._numbers[(1, place)] = 0
        for rnd in range(2, self.rounds + 1):
            for place in range(size >> rnd):
                number += 1
                self._numbers[(rnd, place)] = number
        self._results: dict[int, SetPlayed] = {}
        self._played: list[SetPlayed] = []

    # -- state --------------------------------------------------------------------------

    @property
    def played(self) -> tuple[SetPlayed, ...]:
        """Every set played, in the order they ended."""
        return tuple(self._played)

    def ties(self) -> list[Tie]:
        """Every tie of the bracket, round by round, top to bottom (byes of the first
        round included), as far as it is known."""
        out: list[Tie] = []
        winners: dict[tuple[int, int], str | None] = {}
        for rnd in range(1, self.rounds + 1):
            for place in range(self.size >> rnd):
                if rnd == 1:
                    ns, ew = self._first[place]
                    if ew is None and ns is not None:
                        out.append(Tie(0, 1, ns, None, ns))
                        winners[(1, place)] = ns
                        continue
                else:
                    ns = winners[(rnd - 1, 2 * place)]
                    ew = winners[(rnd - 1, 2 * place + 1)]
                number = self._numbers[(rnd, place)]
                result = self._results.get(number)
                winner = None if result is None else result.winner
                winners[(rnd, place)] = winner
                out.append(Tie(number, rnd, ns, ew, winner))
        return out

    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def ending(self) -> Ending | None:
        return Ending.SETS if self.is_over() else None

    @property
    def winner(self) -> str | None:
        """The pair that won the final, once it is played."""
        final = self._results.get(self._numbers[(self.rounds, 0)])
        return None if final is None else final.winner

    def pending(self) -> tuple[Pairing, ...]:
        """Every tie whose two pairs are known and that is not played, by number."""
        return tuple(
            Pairing(tie.number, tie.ns, tie.ew, None)
            for tie in self.ties()
            if not tie.bye and tie.winner is None and tie.ns is not None and tie.ew is not None
        )

    def round_of(self, number: int) -> int:
        """The round of set ``number``. :raises TournamentError: for no such set."""
        for (rnd, _place), found in self._numbers.items():
            if found == number and number:
                return rnd
        raise TournamentError(f"the bracket has no set {number!r}")

    def standings(self) -> list[Standing]:
        tally = tally_sets(self.pairs, self._played)
        reached = dict.fromkeys(self.pairs, 1)
        out: set[str] = set()
        seated: set[str] = set()
        for tie in self.ties():
            for pair in (tie.ns, tie.ew):
                if pair is not None:
                    reached[pair] = max(reached[pair], tie.round)
                    if not tie.bye and tie.winner is None and None not in (tie.ns, tie.ew):
                        seated.add(pair)
            if tie.winner is not None and not tie.bye:
                loser = tie.ew if tie.winner == tie.ns else tie.ns
                assert loser is not None
                out.add(loser)
        champion = self.winner
        ranked = sorted(
            self.pairs,
            key=lambda p: (
                -(reached[p] + (1 if p == champion else 0)),
                p in out,
                -tally[p].won,
                tally[p].lost,
                -tally[p].points_for,
                self.pairs.index(p),
            ),
        )
        return standings_of(ranked, tally, seated)

    # -- results --------------------------------------------------------------------------

    def record_set(self, result: SetPlayed) -> None:
        """Count a tie that ended: its winner goes on to the next round.

        :raises TournamentError: when ``result`` is not a tie being played with its
            pairs in their seats. Nothing changes on error.
        """
        _check_result(result, self.pending())
        self._results[result.number] = result
        self._played.append(result)

    # -- persistence ----------------------------------------------------------------------

    def to_dict(self) -> KnockoutDict:
        return {
            "kind": KNOCKOUT,
            "version": VERSION,
            "pairs": list(self.pairs),
            "played": [s.to_dict() for s in self._played],
        }

    @classmethod
    def from_dict(cls, data: object) -> Knockout:
        """The bracket :meth:`to_dict` wrote, its sets replayed in order and checked."""
        body = _read(data, KNOCKOUT)
        bracket = cls(body["pairs"])
        for item in body["played"]:
            bracket.record_set(SetPlayed.from_dict(item))
        return bracket

    def __repr__(self) -> str:
        return f"<Knockout pairs={list(self.pairs)!r} played={len(self._played)}>"


def _read(data: object, kind: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise TournamentError(f"a tournament must be an object, not {type(data).__name__}")
    if data.get("kind") != kind:
        raise TournamentError(f"not a {kind} tournament: kind {data.get('kind')!r}")
    version = data.get("version")
    if not _is_int(version) or not 1 <= version <= VERSION:
        raise TournamentError(f"tournament version {version!r} (this one reads 1..{VERSION})")
    if not isinstance(data.get("pairs"), list):
        raise TournamentError(f"pairs must be a list of names, not {data.get('pairs')!r}")
    played = data.get("played", [])
    if not isinstance(played, list):
        raise TournamentError(f"played must be a list of sets, not {played!r}")
    return {**data, "played": played}


def tournament_from_dict(data: object) -> Tournament:
    """Any tournament's :meth:`to_dict` read back, by its ``kind``.

    >>> tournament_from_dict(Knockout(["A", "B"]).to_dict())
    <Knockout pairs=['A', 'B'] played=0>

    :raises TournamentError: for another kind, or data that does not load.
    """
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind == KING_OF_THE_TABLE:
        return KingOfTheTable.from_dict(data)
    if kind == SETS_MATCH:
        return SetsMatch.from_dict(data)
    if kind == KNOCKOUT:
        return Knockout.from_dict(data)
    raise TournamentError(f"no tournament of kind {kind!r}: the kinds are {', '.join(KINDS)}")
