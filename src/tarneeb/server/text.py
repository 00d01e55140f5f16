"""Text a client sends (names, chat lines), checked at the edge before anything keeps it.

Every piece of client text that the server stores or shows to others goes
through :func:`clean_text`: it must be valid Unicode (no lone surrogates),
is normalised to NFC, and may not hold control characters (NUL, ESC and the
other C0 and C1 controls), bidirectional overrides or isolates (which turn
the rest of a line around on other people's screens), or nothing but
invisible characters. Lengths count characters (code points) after
normalisation. A refusal is a ``malformed`` :class:`ServerError` naming the
problem and the character.

>>> clean_text("  Layla   Haddad ", "a name", 40)
'Layla Haddad'
>>> clean_text("Cafe\\u0301", "a name", 40) == "Caf\\u00e9"
True
>>> clean_text("x\\u202eevil", "a name", 40)
Traceback (most recent call last):
...
tarneeb.server.wire.names.ServerError: a name cannot hold the bidirectional control U+202E
>>> clean_text("\\u200b\\u200b", "a name", 40)
Traceback (most recent call last):
...
tarneeb.server.wire.names.ServerError: a name needs a visible character
>>> scrub({"name": "x\\ud800", "n": [1, "ok"]})
{'name': 'x\\ufffd', 'n': [1, 'ok']}
"""

from __future__ import annotations

import unicodedata
from typing import Any

from tarneeb.server.table import ErrorCode, ServerError

__all__ = ["clean_text", "scrub"]

BIDI_CONTROLS = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
"""Embeddings, overrides and isolates (LRE..RLO, LRI..PDI); the marks LRM, RLM and ALM stay."""

_INVISIBLE = frozenset(
    "\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0\ufeff"
    "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\u061c\u034f"
)
"""Characters that draw nothing although Unicode does not class them as spaces or formats."""
_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cf", "Mn", "Me", "Cc", "Cs"})


def _describe(char: str) -> str:
    return f"U+{ord(char):04X}"


def _visible(char: str) -> bool:
    if char in _INVISIBLE or "\ufe00" <= char <= "\ufe0f" or "\U000e0000" <= char <= "\U000e0fff":
        return False
    return unicodedata.category(char) not in _BLANK_CATEGORIES


def clean_text(value: object, what: str, limit: int, collapse: bool = True) -> str:
    """``value`` checked and normalised as client text: ``what`` (``"a name"``) names it in errors.

    ``collapse`` turns every run of white space into one space (names);
    without it inner spacing stays (chat), only the ends are trimmed.

    :raises ServerError: ``malformed``, with a message saying what is wrong.
    """
    if not isinstance(value, str):
        raise ServerError(ErrorCode.MALFORMED, f"{what} must be a string")
    for char in value:
        if "\ud800" <= char <= "\udfff":
            raise ServerError(
                ErrorCode.MALFORMED,
                f"{what} is not valid Unicode: it holds the lone surrogate {_describe(char)}",
            )
    text = unicodedata.normalize("NFC", value)
    text = " ".join(text.split()) if collapse else text.strip()
    for char in text:
        if char in BIDI_CONTROLS:
            raise ServerError(
                ErrorCode.MALFORMED,
                f"{what} cannot hold the bidirectional control {_describe(char)}",
            )
        category = unicodedata.category(char)
        if category == "Cc" or char in "\u2028\u2029":
            raise ServerError(
                ErrorCode.MALFORMED, f"{what} cannot hold the control character {_describe(char)}"
            )
    if not any(_visible(char) for char in text):
        raise ServerError(ErrorCode.MALFORMED, f"{what} needs a visible character")
    if len(text) > limit:
        raise ServerError(ErrorCode.MALFORMED, f"{what} is at most {limit} characters")
    return text


def scrub(data: Any) -> Any:
    """``data`` (parsed JSON) with every lone surrogate in its strings replaced by U+FFFD.

    For text stored before the edge checked it: it loads, and can always be sent.
    """
    if isinstance(data, str):
        try:
            data.encode("utf-8")
        except UnicodeEncodeError:
            return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in data)
        return data
    if isinstance(data, dict):
        return {scrub(k): scrub(v) for k, v in data.items()}
    if isinstance(data, list):
        return [scrub(v) for v in data]
    return data
