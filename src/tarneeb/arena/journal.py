"""A run's journal: each match written down as it ends, so a long run goes on where it stopped.

An arena of hundreds of search-bot matches takes hours. With ``--journal
FILE`` every finished match is appended to ``FILE`` (one JSON line, flushed
and synced), after a first line that names the run: its format, bots,
rules, seed, deal cap and double-dummy setting. Run the same command again
and the matches in the journal are not played again: the run plays the
rest and reports on all of them, exactly as one uninterrupted run would
(every match's deals and bots' random choices come from the seed and the
match's number, :func:`~tarneeb.arena.run.deal_seed`). ``--matches`` may
grow between runs (400 after 200 plays 200 more); the seed, when not given,
is the journal's. A journal of another run is refused, naming what differs.
A last line cut short (the process killed while writing it) is dropped.

>>> import tempfile, pathlib
>>> from tarneeb.arena.run import ArenaConfig, play_arena
>>> from tarneeb.rules import Rules
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> config = ArenaConfig(("random", "random"), matches=2, rules=Rules(target=1), seed=7)
>>> first = play_arena(config, journal=Journal.open(folder / "run.jsonl", config))
>>> again = play_arena(config, journal=Journal.open(folder / "run.jsonl", config))
>>> [o.winner for o in again.outcomes] == [o.winner for o in first.outcomes]
True
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from tarneeb.arena.accuracy import DealPlay
from tarneeb.arena.run import ArenaConfig, ArenaError, MatchOutcome

__all__ = ["JOURNAL_VERSION", "Journal", "journal_seed", "outcome_from_json", "outcome_to_json"]

JOURNAL_VERSION = 1


def _run_key(config: ArenaConfig) -> dict[str, Any]:
    """What makes two runs the same run (the number of matches may grow)."""
    return {
        "format": config.format,
        "bots": list(config.bots),
        "rules": config.rules.to_dict(),
        "seed": config.seed,
        "max_deals": config.max_deals,
        "double_dummy": config.double_dummy,
    }


def outcome_to_json(outcome: MatchOutcome) -> dict[str, Any]:
    return dataclasses.asdict(outcome)


def _pairs(value: Any) -> tuple[Any, ...]:
    return tuple(tuple(item) if isinstance(item, list) else item for item in value)


def _tuples(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its lists as tuples (JSON has no tuples)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}


def outcome_from_json(data: dict[str, Any]) -> MatchOutcome:
    """A :class:`MatchOutcome` from :func:`outcome_to_json`'s dict.

    :raises ArenaError: on a dict that is not one.
    """
    try:
        plays = tuple(DealPlay(**_tuples(play)) for play in data.get("dd_play", ()))
        fields = {f.name for f in dataclasses.fields(MatchOutcome)}
        unknown = set(data) - fields
        if unknown:
            raise ArenaError(f"unknown fields {sorted(unknown)}")
        values = {**data, "dd_play": plays}
        for name in (
            "points",
            "final_scores",
            "sets_won",
            "decisions",
            "seconds",
            "dd_lost",
            "auctions",
        ):
            if name in values:
                values[name] = tuple(values[name])
        for name in ("contracts", "hands", "dealers"):
            if name in values:
                values[name] = _pairs(values[name])
        return MatchOutcome(**values)
    except (TypeError, KeyError, AttributeError) as exc:
        raise ArenaError(f"not a match's outcome: {exc}") from None


def _read(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]], int]:
    """The journal's header, its outcomes' dicts, and the length of its whole lines."""
    if not path.exists():
        return None, [], 0
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ArenaError(f"journal {path}: {exc.strerror or exc}") from None
    lines = raw.split(b"\n")
    whole = len(raw) - len(lines[-1])  # what ends in a newline; the rest was cut short
    try:
        parsed = [json.loads(line) for line in lines[:-1] if line.strip()]
    except ValueError as exc:
        raise ArenaError(f"journal {path}: a line is not JSON ({exc})") from None
    if not parsed:
        return None, [], whole
    header = parsed[0]
    if not isinstance(header, dict) or header.get("journal") != JOURNAL_VERSION:
        raise ArenaError(f"journal {path}: not an arena journal (version {JOURNAL_VERSION})")
    return header, parsed[1:], whole


def journal_seed(path: str | Path) -> int | None:
    """The seed of the run journaled at ``path``, if there is one there.

    :raises ArenaError: when ``path`` holds something else.
    """
    header, _, _ = _read(Path(path))
    return None if header is None else int(header["run"]["seed"])


class Journal:
    """The matches of one run written so far, and the file the next ones go to."""

    def __init__(self, path: Path, done: dict[int, MatchOutcome]) -> None:
        self.path = path
        self.done = done
        """The matches played already, by index."""

    @classmethod
    def open(cls, path: str | Path, config: ArenaConfig) -> Journal:
        """The journal at ``path`` for ``config``'s run (made when there is none).

        :raises ArenaError: for a journal of another run, or not a journal.
        """
        if config.format == "king":
            raise ArenaError("a journal is for the match and sets formats (king's sets are few)")
        path = Path(path)
        header, lines, whole = _read(path)
        key = _run_key(config)
        if header is None:
            _append(path, {"journal": JOURNAL_VERSION, "run": key}, "wb")
            return cls(path, {})
        theirs = header.get("run", {})
        differs = [name for name in key if theirs.get(name) != key[name]]
        if differs:
            shown = ", ".join(f"{n}={json.dumps(theirs.get(n))}" for n in differs)
            raise ArenaError(f"journal {path} is of another run ({shown}): give another file")
        if whole < path.stat().st_size:
            try:
                with path.open("r+b") as file:  # a line cut short by a kill: played again
                    file.truncate(whole)
            except OSError as exc:
                raise ArenaError(f"journal {path}: {exc.strerror or exc}") from None
        done: dict[int, MatchOutcome] = {}
        for line in lines:
            try:
                outcome = outcome_from_json(line)
            except ArenaError as exc:
                raise ArenaError(f"journal {path}: {exc}") from None
            done[outcome.index] = outcome
        return cls(path, done)

    def write(self, outcome: MatchOutcome) -> None:
        """Write down a finished match (synced: a kill after this loses nothing of it)."""
        _append(self.path, outcome_to_json(outcome), "ab")
        self.done[outcome.index] = outcome


def _append(path: Path, line: dict[str, Any], mode: str) -> None:
    """Write ``line`` and sync it. :raises ArenaError: when the disk refuses."""
    try:
        with path.open(mode) as file:
            file.write(json.dumps(line).encode() + b"\n")
            file.flush()
            os.fsync(file.fileno())
    except OSError as exc:
        raise ArenaError(f"journal {path}: {exc.strerror or exc}") from None
