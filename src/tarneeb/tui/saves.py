"""Where ``tarneeb play`` keeps its matches: one file a match under the data directory.

Every match gets its own record file in :func:`saves_dir`
(``$XDG_DATA_HOME/tarneeb/matches``, ``~/.local/share/tarneeb/matches`` by
default; ``%APPDATA%\\tarneeb\\matches`` on Windows), named by the time it
started and its rules, e.g. ``2026-12-02-045512-classic.json``. Nothing is
ever overwritten by another match: a rematch or the next ``tarneeb play``
starts a new file. Writes are atomic (a temporary file, then
:func:`os.replace`), so a crash leaves the last complete record.

>>> import tempfile
>>> from tarneeb import Match, find_rules
>>> folder = Path(tempfile.mkdtemp())
>>> path = new_save_path("classic", folder, stamp="2026-12-02-045512")
>>> path.name
'2026-12-02-045512-classic.json'
>>> write_atomic(path, "{}")
>>> new_save_path("classic", folder, stamp="2026-12-02-045512").name
'2026-12-02-045512-classic-2.json'
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tarneeb.errors import TarneebError
from tarneeb.i18n import DEFAULT_LANGUAGE, translator
from tarneeb.record import read_record
from tarneeb.tui import names

__all__ = [
    "SavedMatch",
    "data_dir",
    "latest_unfinished",
    "list_lines",
    "list_saved",
    "new_save_path",
    "saves_dir",
    "write_atomic",
]

LEGACY_NAMES = ("last-match.json", "last-match.previous.json")
"""Where versions before one file a match saved (directly under :func:`data_dir`)."""


def data_dir() -> Path:
    """``tarneeb``'s data directory: ``$XDG_DATA_HOME/tarneeb`` (``~/.local/share/tarneeb``),
    or ``%APPDATA%\\tarneeb`` on Windows."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tarneeb"


def saves_dir() -> Path:
    """The folder of saved matches, one record file each."""
    return data_dir() / "matches"


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "custom"


def new_save_path(rules_name: str, folder: Path | None = None, stamp: str | None = None) -> Path:
    """A file name for a new match that no other match has."""
    folder = saves_dir() if folder is None else folder
    stamp = stamp or time.strftime("%Y-%m-%d-%H%M%S")
    base = f"{stamp}-{_slug(rules_name)}"
    path = folder / f"{base}.json"
    number = 2
    while path.exists():
        path = folder / f"{base}-{number}.json"
        number += 1
    return path


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and :func:`os.replace`.

    :raises OSError: when it cannot; where a file stands in place of the folder,
        ``NotADirectoryError`` (not ``mkdir``'s "File exists").
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise NotADirectoryError(
            errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path.parent)
        ) from None
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


@dataclass(frozen=True)
class SavedMatch:
    """What the list of saved matches shows of one file."""

    path: Path
    modified: float
    rules: str
    deals: int
    scores: tuple[int, ...]
    """The sides' two scores, or the four players' where each scores alone (South first)."""
    over: bool
    problem: str | None = None
    """Why the file cannot be resumed (not a record), or ``None``."""

    def columns(self, lang: str = DEFAULT_LANGUAGE, unicode: bool = True) -> tuple[str, ...]:
        """What the list shows of this file, in the player's language: ``("2026-12-02
        04:55", "Classic", "deal 3", "N–S 12  E–W 8", "unfinished", PATH)`` (a Syrian 400
        match: each player's score); for a file that is not a record, the time, why,
        and the path."""
        tr = translator(lang)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.modified))
        if self.problem is not None:
            return (when, tr("tui.list.unreadable", why=self.problem), str(self.path))
        return (
            when,
            names.preset_label(self.rules, lang),
            tr("tui.list.deal", deal=self.deals),
            names.score_text(self.scores, lang, unicode),
            tr("tui.list.over" if self.over else "tui.list.unfinished"),
            str(self.path),
        )


def list_lines(
    matches: Sequence[SavedMatch], lang: str = DEFAULT_LANGUAGE, unicode: bool = True
) -> list[str]:
    """A line for each match of ``matches``, numbered, their columns lined up by the
    cells each takes on a terminal (a Russian or Arabic preset's name is longer than
    the English one)."""
    rows = [m.columns(lang, unicode) for m in matches]
    full = [r for r in rows if len(r) == 6]
    widths = [max((_cells(r[i]) for r in full), default=0) for i in range(5)]
    out = []
    for number, row in enumerate(rows, 1):
        cells = row if len(row) != 6 else [*_padded(row[:5], widths), row[5]]
        out.append(f"{number:>3}. " + "  ".join(cells))
    return out


def _padded(texts: Sequence[str], widths: Sequence[int]) -> list[str]:
    return [t + " " * (w - _cells(t)) for t, w in zip(texts, widths, strict=True)]


def _cells(text: str) -> int:
    """The cells ``text`` takes on a terminal (wide characters two, marks none)."""
    return sum(
        0
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(c) in ("W", "F")
        else 1
        for c in text
    )


def _read(path: Path) -> SavedMatch:
    modified = path.stat().st_mtime
    try:
        text = path.read_text(encoding="utf-8")
        match = read_record(text)
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError, TarneebError) as exc:
        problem = " ".join(str(exc).split())[:60] or type(exc).__name__
        return SavedMatch(path, modified, "?", 0, (0, 0), True, problem)
    name = data.get("preset") if isinstance(data, dict) else None
    return SavedMatch(
        path,
        modified,
        str(name or "custom"),
        len(match.deals),
        match.seat_scores if match.rules.is_individual else match.team_scores,
        match.is_over(),
    )


def list_saved(folder: Path | None = None) -> list[SavedMatch]:
    """The saved matches, newest first (with the files older versions saved)."""
    folder = saves_dir() if folder is None else folder
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if folder == saves_dir():
        paths += [data_dir() / name for name in LEGACY_NAMES if (data_dir() / name).is_file()]
    found = [_read(p) for p in paths]
    return sorted(found, key=lambda s: s.modified, reverse=True)


def latest_unfinished(folder: Path | None = None) -> SavedMatch | None:
    """The unfinished match saved last, if any."""
    for saved in list_saved(folder):
        if not saved.over and saved.problem is None:
            return saved
    return None
