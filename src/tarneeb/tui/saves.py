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

    def line(self, lang: str = DEFAULT_LANGUAGE, unicode: bool = True) -> str:
        """``2026-12-02 04:55  Classic  deal 3  N–S 12  E–W 8  unfinished  PATH``, in the
        player's language (a Syrian 400 match: each player's score)."""
        tr = translator(lang)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.modified))
        if self.problem is not None:
            return f"{when}  " + tr("tui.list.unreadable", why=self.problem) + f"  {self.path}"
        state = tr("tui.list.over" if self.over else "tui.list.unfinished")
        deal = tr("tui.list.deal", deal=f"{self.deals:<3}")
        preset = names.preset_label(self.rules, lang)
        score = names.score_text(self.scores, lang, unicode)
        return f"{when}  {preset:<11} {deal} {score}  {state:<10}  {self.path}"


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
