"""Seats' and sides' short names in the player's language, as the browser shows them.

The terminal once wrote ``S E N W`` and ``NS``/``EW`` in every language; a
Dutch player reads ``Z`` for Zuid, a Russian ``Ю`` for Юг. The names are the
catalogue's ``web.seat.*.short`` and ``web.side.*``, the browser's own. No
Rich here: the controller and the command line load on the core install.

>>> seat_letter(Seat.SOUTH, "nl"), seat_letter(Seat.WEST, "es")
('Z', 'O')
>>> side_name(Team.NS, "ru"), side_name(Team.EW, "en", unicode=False)
('С–Ю', 'E-W')
>>> sides("en")
{'ns_side': 'N–S', 'ew_side': 'E–W'}
>>> score_text((12, 8), "ru"), score_text((1, -12, 7, 0), "nl")
('С–Ю 12  В–З 8', 'Z 1  O -12  N 7  W 0')
>>> preset_label("syrian400", "en"), preset_label("mine", "en")
('Syrian 400', 'mine')
>>> os_reason(OSError(errno.ENOSPC, "No space left on device"), "es")
'el disco está lleno'
"""

from __future__ import annotations

import errno
from collections.abc import Sequence

from tarneeb.i18n import DEFAULT_LANGUAGE, translator
from tarneeb.presets import PRESETS
from tarneeb.seats import SEATS, Seat, Team

__all__ = ["preset_label", "score_text", "seat_letter", "seat_letters", "side_name", "sides"]


def seat_letter(seat: Seat, lang: str = DEFAULT_LANGUAGE) -> str:
    """The seat's short name: ``S``, ``Ю`` (Юг), ``Z`` (Zuid)."""
    return translator(lang)(f"web.seat.{seat.name.lower()}.short")


def side_name(team: Team, lang: str = DEFAULT_LANGUAGE, unicode: bool = True) -> str:
    """A side's name: ``N–S``, ``С–Ю`` (with a hyphen for ``N-S`` in ASCII)."""
    name = translator(lang)(f"web.side.{'NS' if team == Team.NS else 'EW'}")
    return name if unicode else name.replace("–", "-")


def sides(lang: str = DEFAULT_LANGUAGE, unicode: bool = True) -> dict[str, str]:
    """Both sides' names, as the catalogue's ``{ns_side}`` and ``{ew_side}``."""
    return {
        "ns_side": side_name(Team.NS, lang, unicode),
        "ew_side": side_name(Team.EW, lang, unicode),
    }


def seat_letters(lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """Every seat's short name, as the catalogue's ``{seat_s}`` to ``{seat_w}``."""
    return {f"seat_{s.letter.lower()}": seat_letter(s, lang) for s in SEATS}


def score_text(scores: Sequence[int], lang: str = DEFAULT_LANGUAGE, unicode: bool = True) -> str:
    """A match's score: the sides' two (``N–S 12  E–W 8``), or where each player scores
    alone, the four players' (``S 1  E -12  N 7  W 0``, South first, as play goes)."""
    if len(scores) == 4:
        return "  ".join(f"{seat_letter(s, lang)} {p}" for s, p in zip(SEATS, scores, strict=True))
    ns, ew = scores
    return f"{side_name(Team.NS, lang, unicode)} {ns}  {side_name(Team.EW, lang, unicode)} {ew}"


def preset_label(preset: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A preset as the browser names it in ``lang`` (``web.preset.*``); any other name as
    it is."""
    return translator(lang)(f"web.preset.{preset}") if preset in PRESETS else preset


OS_REASONS = {
    errno.ENOSPC: "full",
    errno.EDQUOT: "full",
    errno.EACCES: "denied",
    errno.EPERM: "denied",
    errno.EROFS: "read-only",
    errno.ENOTDIR: "no-folder",
    errno.ENOENT: "no-folder",
    errno.EISDIR: "is-folder",
}
"""The reasons a save fails that the player is told in their language (``tui.oserror.*``)."""


def os_reason(exc: OSError, lang: str = DEFAULT_LANGUAGE) -> str:
    """Why a file could not be written, in the player's language where the catalogue has
    the reason (a full disk, no permission, the folder gone); else the system's words."""
    key = OS_REASONS.get(exc.errno) if exc.errno is not None else None
    if key is not None:
        return translator(lang)(f"tui.oserror.{key}")
    return exc.strerror or type(exc).__name__
