"""Playing the arena: duplicate matches between bots, here, in worker processes or on Ray.

A *duplicate pair* is two matches dealt from the same seed: in the first the
first bot holds North-South and the second East-West, in the second they swap
sides, so each bot plays both sides of the same cards and the luck of the deal
cancels. ``matches`` always counts matches played, two to a pair. King of
the table (``format="king"``) is the exception: a tournament of sets, one
match each, played one after the other (:func:`_play_king`).

Everything random is derived from the run's seed: the deals of pair ``p``
from ``(seed, p)``, the random source of the bot in seat ``s`` of match ``i``
from ``(seed, i, s)``. Each match is one task, and results are put back in
match order, so the same seed gives the same results whatever the number of
workers or the order the tasks finish in. Only the timings differ.

>>> from tarneeb.presets import find_rules
>>> config = ArenaConfig(("heuristic", "random"), matches=2, seed=1,
...                      rules=find_rules("classic").replace(target=11))
>>> result = play_arena(config, workers=1)
>>> [(o.ns_label, o.ew_label, o.winner) for o in result.outcomes]
[('heuristic', 'random', 'heuristic'), ('random', 'heuristic', 'heuristic')]
"""

from __future__ import annotations

import abc
import hashlib
import importlib
import json
import logging
import multiprocessing
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any

from tarneeb.actions import format_action
from tarneeb.arena.accuracy import DealPlay, deal_plays
from tarneeb.bots import make_bot
from tarneeb.cards import Card
from tarneeb.deal import Deal
from tarneeb.errors import IllegalActionError, InvalidActionError, TarneebError
from tarneeb.match import Match
from tarneeb.presets import DEFAULT_PRESET, PRESETS, preset_name
from tarneeb.record import match_to_record
from tarneeb.rules import Rules
from tarneeb.seats import Seat, Team
from tarneeb.tournament import (
    KingOfTheTable,
    Pairing,
    SetPlayed,
    TournamentError,
    play_out,
    set_rules,
)

if TYPE_CHECKING:
    from tarneeb.arena.journal import Journal

__all__ = [
    "FORMATS",
    "ArenaConfig",
    "ArenaError",
    "ArenaResult",
    "MatchOutcome",
    "MatchTask",
    "bot_labels",
    "bot_rng",
    "deal_seed",
    "play_arena",
    "play_task",
]

FORMATS = ("match", "sets", "king")
"""``match``: duplicate matches to the target; ``sets``: the same, each match
of several sets (13 by default); ``king``: king of the table (seed 002,
:class:`~tarneeb.tournament.KingOfTheTable`), each bot a pair: the pairs
queue, each set is one match to the target, and its loser gives its seats to
the next pair."""

Progress = Callable[["MatchOutcome"], None]


class ArenaError(TarneebError, ValueError):
    """Arena settings that cannot work, or a bot that broke the rules."""


def bot_labels(specs: Sequence[str]) -> tuple[str, ...]:
    """Names for the bots in reports: the spec, numbered when the same spec comes twice.

    >>> bot_labels(["heuristic", "random", "heuristic"])
    ('heuristic#1', 'random', 'heuristic#2')
    """
    counts = Counter(specs)
    seen: Counter[str] = Counter()
    labels = []
    for spec in specs:
        if counts[spec] > 1:
            seen[spec] += 1
            labels.append(f"{spec}#{seen[spec]}")
        else:
            labels.append(spec)
    return tuple(labels)


def deal_seed(seed: int, pair: int) -> int:
    """The seed of the deals of duplicate pair ``pair`` (both its matches)."""
    digest = hashlib.sha256(f"tarneeb-arena/{seed}/deals/{pair}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_rng(seed: int, match_index: int, seat: Seat | int) -> random.Random:
    """The random source of the bot in ``seat`` of match ``match_index``."""
    return random.Random(f"tarneeb-arena/{seed}/bot/{match_index}/{int(seat)}")


@dataclass(frozen=True)
class ArenaConfig:
    """What to play.

    :param bots: bot specs (``heuristic``, ``heuristic:aggressive``): two for
        the ``match`` and ``sets`` formats, two or more for ``king`` (each bot
        a pair: it holds both seats of its side).
    :param matches: matches to play, an even number (two to a duplicate pair);
        for ``king``, the sets of the tournament (one match each, at least 1).
    :param rules: the rules of every match (for ``sets``, with ``sets`` > 1;
        for ``king``, each set is one set of them, :func:`~tarneeb.tournament.set_rules`).
    :param seed: the seed everything random is derived from.
    :param max_deals: deals after which an unfinished match is stopped and drawn.
    :param format: one of :data:`FORMATS`.
    :param keep_records: keep every match's record (for the JSON file).
    :param preset: the preset ``rules`` were made from, for reports (found when omitted).
    :param double_dummy: analyze every played deal double dummy: the tricks each
        bot's cards gave away, its share of costly card decisions and of best
        first leads, as declarers and defenders, in trump and no-trump
        (:mod:`tarneeb.arena.accuracy`; the solver, DDS where installed).
    :param streak: ``king`` only: the tournament also ends when one pair has
        won this many sets in a row.
    :raises ArenaError: on a setting that cannot work.
    :raises BotError: on an unknown bot or bot option.
    """

    bots: tuple[str, ...]
    matches: int = 100
    rules: Rules = field(default_factory=Rules)
    seed: int = 0
    max_deals: int = 200
    format: str = "match"
    keep_records: bool = True
    preset: str | None = None
    double_dummy: bool = False
    streak: int | None = None

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ArenaError(f"no format {self.format!r} (the formats: {', '.join(FORMATS)})")
        specs = tuple(make_bot(spec).spec for spec in self.bots)  # BotError on a bad name
        object.__setattr__(self, "bots", specs)
        if self.format == "king":
            if len(specs) < 2:
                raise ArenaError("king of the table needs at least two bots")
            if self.matches < 1:
                raise ArenaError(f"matches={self.matches}: king of the table plays at least 1 set")
            if self.streak is not None and self.streak < 1:
                raise ArenaError(f"streak={self.streak} must be at least 1")
        else:
            if len(specs) != 2:
                raise ArenaError(
                    f"the {self.format} format plays two bots, not {len(specs)} "
                    "(--format king takes two or more)"
                )
            if self.streak is not None:
                raise ArenaError("a streak ends king of the table only (--format king)")
        if self.format != "king" and (self.matches < 2 or self.matches % 2):
            raise ArenaError(
                f"matches={self.matches}: give an even number of at least 2 "
                "(duplicate matches come in pairs)"
            )
        if self.max_deals < 1:
            raise ArenaError(f"max_deals={self.max_deals} must be at least 1")

    @property
    def labels(self) -> tuple[str, ...]:
        return bot_labels(self.bots)

    @property
    def rules_name(self) -> str:
        """The rules in a few words: ``classic``, or ``classic with target=11``."""
        exact = preset_name(self.rules)
        if exact is not None:
            return exact
        base_name = (
            self.preset if self.preset is not None and self.preset in PRESETS else DEFAULT_PRESET
        )
        base = PRESETS[base_name].to_dict()
        changed = [
            f"{key}={json.dumps(value)}"
            for key, value in self.rules.to_dict().items()
            if base.get(key) != value
        ]
        return f"{base_name} with {' '.join(changed)}"

    @property
    def pairs(self) -> int:
        return self.matches // 2


@dataclass(frozen=True)
class MatchTask:
    """One match to play: everything a worker needs, as plain picklable data."""

    index: int
    pair: int
    ns: str
    ew: str
    ns_label: str
    ew_label: str
    deal_seed: int
    seed: int
    rules: dict[str, Any]
    """The rules as :meth:`Rules.to_dict` gives them (rebuilt in the worker)."""
    max_deals: int
    keep_record: bool
    double_dummy: bool = False


@dataclass(frozen=True)
class MatchOutcome:
    """How one match went, from the arena's point of view."""

    index: int
    pair: int
    ns_label: str
    ew_label: str
    winner: str | None
    """The winner's label; ``None`` for a drawn match (stopped at the cap, or tied sets)."""
    capped: bool
    """Whether the match was stopped at ``max_deals`` before it was decided."""
    deals: int
    """Deals played to the end, thrown-in ones included."""
    scored_deals: int
    points: tuple[int, int]
    """Points North-South and East-West scored, added over every scored deal."""
    final_scores: tuple[int, int]
    """The scores when the match ended (of the last set)."""
    sets_won: tuple[int, int]
    contracts: tuple[tuple[int, int, bool], ...]
    """Each partnership contract played: (declaring side 0 NS / 1 EW, level, made)."""
    decisions: tuple[int, int]
    """Decisions taken by the North-South bots and by the East-West bots."""
    seconds: tuple[float, float]
    """Time those decisions took, in seconds."""
    hands: tuple[tuple[int, int, int, int], ...]
    """The hands of every deal as dealt (masks by seat)."""
    dealers: tuple[int, ...]
    record: dict[str, Any] | None = None
    dd_lost: tuple[int, int] = (0, 0)
    """Tricks the North-South and the East-West cards gave away against double-dummy play."""
    dd_deals: int = 0
    """Played deals analyzed double dummy (0 unless the run asked for it)."""
    dd_play: tuple[DealPlay, ...] = ()
    """Those deals' double-dummy figures, side by side (:mod:`tarneeb.arena.accuracy`)."""
    auctions: tuple[str, ...] = ()
    """Each deal's calls in order, as :func:`~tarneeb.actions.format_action` writes them
    (``"pass 7 8 pass pass pass S"``: the bids, then the trump named), one for each of
    :attr:`hands`; empty in journals written before they were kept."""

    def side_of(self, label: str) -> int:
        """0 when ``label`` held North-South in this match, 1 for East-West."""
        if label == self.ns_label:
            return 0
        if label == self.ew_label:
            return 1
        raise KeyError(label)


def play_task(task: MatchTask) -> MatchOutcome:
    """Play one match between bots, each seeing only its own seat's view.

    :raises ArenaError: when a bot chooses an action the rules refuse.
    """
    rules = Rules.from_dict(task.rules)
    match = Match(rules, seed=task.deal_seed)
    specs = (task.ns, task.ew, task.ns, task.ew)
    bots = [make_bot(specs[seat], rng=bot_rng(task.seed, task.index, seat)) for seat in Seat]
    counts = [0, 0]
    seconds = [0.0, 0.0]
    clock = time.perf_counter
    while not match.is_over() and len(match.deals) <= task.max_deals:
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        start = clock()
        decision = bots[seat].decide(view)
        seconds[seat & 1] += clock() - start
        counts[seat & 1] += 1
        try:
            match.push(decision.action)
        except (IllegalActionError, InvalidActionError) as exc:
            raise ArenaError(
                f"bot {specs[seat]!r} in seat {seat.name.title()} of match {task.index} "
                f"chose {decision.action}: {exc}"
            ) from exc

    points = [0, 0]
    scored = 0
    finished = 0
    contracts: list[tuple[int, int, bool]] = []
    for deal in match.deals:
        if not deal.is_over():
            continue
        finished += 1
        result = deal.result
        if result is None:
            continue
        scored += 1
        points[0] += result.team_points[0]
        points[1] += result.team_points[1]
        contract = deal.contract
        if contract is not None and result.made is not None:
            contracts.append((int(contract.team), contract.level, result.made))
    winner_team = match.winner
    winner = None
    if winner_team is not None:
        winner = task.ns_label if winner_team is Team.NS else task.ew_label
    sets_won = (
        sum(1 for s in match.sets if s.winner is Team.NS),
        sum(1 for s in match.sets if s.winner is Team.EW),
    )
    dd_play = deal_plays(match.deals) if task.double_dummy else ()
    record = None
    if task.keep_record:
        players = {"S": task.ns, "E": task.ew, "N": task.ns, "W": task.ew}
        record = match_to_record(match, players)
    return MatchOutcome(
        index=task.index,
        pair=task.pair,
        ns_label=task.ns_label,
        ew_label=task.ew_label,
        winner=winner,
        capped=not match.is_over(),
        deals=finished,
        scored_deals=scored,
        points=(points[0], points[1]),
        final_scores=match.team_scores,
        sets_won=sets_won,
        contracts=tuple(contracts),
        decisions=(counts[0], counts[1]),
        seconds=(seconds[0], seconds[1]),
        hands=tuple(
            (d.dealt[0], d.dealt[1], d.dealt[2], d.dealt[3]) for d in match.deals if d.is_over()
        ),
        dealers=tuple(int(d.dealer) for d in match.deals if d.is_over()),
        record=record,
        dd_lost=(sum(p.lost[0] for p in dd_play), sum(p.lost[1] for p in dd_play)),
        dd_deals=len(dd_play),
        dd_play=dd_play,
        auctions=tuple(_calls(d) for d in match.deals if d.is_over()),
    )


def _calls(deal: Deal) -> str:
    """The deal's calls in order, the play left out."""
    history = deal.view(deal.dealer).history
    return " ".join(format_action(a) for _seat, a in history if not isinstance(a, Card))


# -- where the tasks run ------------------------------------------------------------


class Runner(abc.ABC):
    """Runs match tasks somewhere and gives the outcomes back in task order."""

    backend: str = ""
    workers: int = 1

    @abc.abstractmethod
    def run(self, tasks: Sequence[MatchTask], done: Progress | None = None) -> list[MatchOutcome]:
        """Play ``tasks``; call ``done`` on each outcome as it arrives."""

    @abc.abstractmethod
    def close(self) -> None:
        """Free the workers."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class SerialRunner(Runner):
    """Every match in this process, one after the other."""

    backend = "serial"

    def run(self, tasks: Sequence[MatchTask], done: Progress | None = None) -> list[MatchOutcome]:
        outcomes = []
        for task in tasks:
            outcome = play_task(task)
            if done is not None:
                done(outcome)
            outcomes.append(outcome)
        return outcomes

    def close(self) -> None:
        pass


class ProcessRunner(Runner):
    """A pool of worker processes (started fresh, not forked from a threaded parent)."""

    backend = "processes"

    def __init__(self, workers: int) -> None:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        self.workers = workers
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    def run(self, tasks: Sequence[MatchTask], done: Progress | None = None) -> list[MatchOutcome]:
        futures = [self._pool.submit(play_task, task) for task in tasks]
        by_index: dict[int, MatchOutcome] = {}
        try:
            for future in as_completed(futures):
                outcome = future.result()
                by_index[outcome.index] = outcome
                if done is not None:
                    done(outcome)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
        return [by_index[task.index] for task in tasks]

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class RayRunner(Runner):
    """The same tasks on a Ray cluster (``address``), or a local Ray instance (``"local"``).

    :raises ArenaError: when Ray is not installed (the ``tarneeb[ray]`` extra).
    """

    backend = "ray"

    def __init__(self, address: str, workers: int | None = None) -> None:
        try:
            ray = importlib.import_module("ray")
        except ImportError:
            raise ArenaError(
                "--ray needs Ray, which is not installed: pip install 'tarneeb[ray]'"
            ) from None
        self._ray: Any = ray
        self._owned = not ray.is_initialized()
        if self._owned:
            options: dict[str, Any] = {
                "address": address,
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.WARNING,
            }
            if address == "local" and workers is not None:
                options["num_cpus"] = workers
            ray.init(**options)
        self._remote = ray.remote(play_task)
        self.workers = int(ray.cluster_resources().get("CPU", 1))

    def run(self, tasks: Sequence[MatchTask], done: Progress | None = None) -> list[MatchOutcome]:
        ray = self._ray
        pending = [self._remote.remote(task) for task in tasks]
        by_index: dict[int, MatchOutcome] = {}
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    outcome: MatchOutcome = ray.get(ref)
                    by_index[outcome.index] = outcome
                    if done is not None:
                        done(outcome)
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise
        return [by_index[task.index] for task in tasks]

    def close(self) -> None:
        if self._owned:
            self._ray.shutdown()


def make_runner(workers: int, ray_address: str | None = None) -> Runner:
    """The runner for ``workers`` processes, or for Ray at ``ray_address``."""
    if ray_address is not None:
        return RayRunner(ray_address, workers if workers > 0 else None)
    if workers <= 1:
        return SerialRunner()
    return ProcessRunner(workers)


# -- the formats --------------------------------------------------------------------


@dataclass
class ArenaResult:
    """Everything an arena run gave: the outcomes in match order, and how it ran."""

    config: ArenaConfig
    outcomes: list[MatchOutcome]
    elapsed: float
    backend: str
    workers: int
    tournament: KingOfTheTable | None = None
    """King of the table: the tournament as played (its sets, standings, winner)."""
    journaled: frozenset[int] = frozenset()
    """The matches (by index) taken from a journal, not played in this run."""

    @property
    def labels(self) -> tuple[str, ...]:
        return self.config.labels

    @property
    def deals(self) -> int:
        return sum(o.deals for o in self.outcomes)

    @property
    def played_deals(self) -> int:
        """The deals played in this run (``elapsed`` is theirs), a journal's left out."""
        return sum(o.deals for o in self.outcomes if o.index not in self.journaled)


def _task(
    config: ArenaConfig, index: int, pair: int, ns: int, ew: int, rules: Rules | None = None
) -> MatchTask:
    labels = config.labels
    return MatchTask(
        index=index,
        pair=pair,
        ns=config.bots[ns],
        ew=config.bots[ew],
        ns_label=labels[ns],
        ew_label=labels[ew],
        deal_seed=deal_seed(config.seed, pair),
        seed=config.seed,
        rules=(config.rules if rules is None else rules).to_dict(),
        max_deals=config.max_deals,
        keep_record=config.keep_records,
        double_dummy=config.double_dummy,
    )


def duplicate_tasks(config: ArenaConfig) -> list[MatchTask]:
    """The tasks of a two-bot run: pair ``p`` is matches ``2p`` (first bot NS) and ``2p+1``."""
    return [
        _task(config, 2 * pair + side, pair, side, 1 - side)
        for pair in range(config.pairs)
        for side in (0, 1)
    ]


def _play_king(
    config: ArenaConfig, runner: Runner, done: Progress | None
) -> tuple[list[MatchOutcome], KingOfTheTable]:
    """King of the table: one match a set, the bots as pairs, in the tournament's order.

    A set is not a duplicate pair: the winner keeps its seats and the next
    pair takes the loser's, so the cards' luck does not cancel (as at a real
    table). Set ``n`` (from 0) is dealt from ``deal_seed(seed, n)``. A set
    stopped at ``max_deals`` goes to the pair ahead, on even scores to the
    pair holding the table (:meth:`~tarneeb.tournament.Pairing.unfinished_result`).
    """
    try:
        table = KingOfTheTable(config.labels, sets=config.matches, streak=config.streak)
    except TournamentError as exc:
        raise ArenaError(str(exc)) from None
    index = {label: i for i, label in enumerate(config.labels)}
    rules = set_rules(config.rules)
    outcomes: list[MatchOutcome] = []

    def play_set(pairing: Pairing) -> SetPlayed:
        n = pairing.number - 1
        task = _task(config, n, n, index[pairing.ns], index[pairing.ew], rules)
        (outcome,) = runner.run([task], done)
        outcomes.append(outcome)
        if outcome.winner is None:
            return pairing.unfinished_result(outcome.final_scores, outcome.deals)
        return pairing.result(outcome.winner, outcome.final_scores, outcome.deals)

    play_out(table, play_set)
    return outcomes, table


def play_arena(
    config: ArenaConfig,
    workers: int = 1,
    ray_address: str | None = None,
    done: Progress | None = None,
    journal: Journal | None = None,
) -> ArenaResult:
    """Play ``config`` with ``workers`` processes (1: in this process) or on Ray.

    :param ray_address: a Ray cluster address, or ``"local"`` for a local
        instance (then ``workers`` CPUs); ``None`` for processes.
    :param done: called with each match's outcome as it finishes (progress).
    :param journal: the matches played already (not played again), where each
        new one is written as it ends (:mod:`tarneeb.arena.journal`).
    :raises ArenaError: on a bot that breaks the rules, or Ray missing.
    """
    if workers < 1 and ray_address is None:
        raise ArenaError(f"workers={workers} must be at least 1")
    king = config.format == "king"
    tasks = [] if king else duplicate_tasks(config)
    known: dict[int, MatchOutcome] = {}
    if journal is not None:
        known = {i: o for i, o in journal.done.items() if i < len(tasks)}
        tasks = [task for task in tasks if task.index not in known]
        if done is not None:
            for outcome in known.values():
                done(outcome)
        progress, journaled = done, journal

        def done(outcome: MatchOutcome) -> None:
            journaled.write(outcome)
            if progress is not None:
                progress(outcome)

    if ray_address is None:
        # King of the table plays its sets one after the other (each decides the next).
        workers = 1 if king else max(1, min(workers, len(tasks)))
    start = time.perf_counter()
    table: KingOfTheTable | None = None
    with make_runner(workers, ray_address) as runner:
        if king:
            outcomes, table = _play_king(config, runner, done)
        else:
            outcomes = runner.run(tasks, done) if tasks else []
            outcomes = sorted([*known.values(), *outcomes], key=lambda o: o.index)
        backend, used = runner.backend, runner.workers
    elapsed = time.perf_counter() - start
    return ArenaResult(config, outcomes, elapsed, backend, used, table, frozenset(known))
