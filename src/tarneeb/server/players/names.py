"""Player names and passwords as the server takes them.

A name is shown as given (NFKC, its spaces collapsed) and is unique by its
*key*: NFKC, case-folded, without spaces, dots, dashes or underscores, and
with the Cyrillic and Greek letters that look like Latin ones read as those
(a light version of Unicode's confusables), so ``Layla``, ``LAYLA``,
``La yla`` and ``Lаyla`` (a Cyrillic ``а``) are one name.

>>> name_key("  Layla  ") == name_key("LAYLA") == name_key("La.yla") == name_key("L\\u0430yla")
True
>>> clean_name(" Nour   al  Huda ")
'Nour al Huda'
>>> clean_name("a\\u0007b")
Traceback (most recent call last):
...
tarneeb.server.wire.names.ServerError: a player's name has no control characters
"""

from __future__ import annotations

import unicodedata

from tarneeb.server.wire import ErrorCode, ServerError

__all__ = [
    "MAX_NAME_LENGTH",
    "MAX_PASSWORD",
    "MIN_NAME_LENGTH",
    "MIN_PASSWORD",
    "check_password",
    "clean_name",
    "name_key",
]

MIN_NAME_LENGTH = 3
MAX_NAME_LENGTH = 24
MIN_PASSWORD = 8
MAX_PASSWORD = 128
"""Characters of a password (argon2 hashes any length; a bound keeps a request cheap)."""

_PUNCTUATION = set("._-'")
"""Separators a name may have, ignored by its key."""

_CONFUSABLES = str.maketrans(
    {
        # Cyrillic letters that look Latin (after case folding)
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "i",
        "ј": "j",
        "ѕ": "s",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        # digits that pass for letters
        "0": "o",
        "1": "l",
    }
)


def clean_name(name: object) -> str:
    """``name`` as it is shown: NFKC, trimmed, inner spaces collapsed to one.

    :raises ServerError: ``malformed`` for no text, a control or format character,
        a character that is not a letter, digit, mark, space or ``. _ - '``, or a
        length outside :data:`MIN_NAME_LENGTH` .. :data:`MAX_NAME_LENGTH`.
    """
    if not isinstance(name, str):
        raise ServerError(ErrorCode.MALFORMED, "a player's name is text")
    text = unicodedata.normalize("NFKC", name)
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn") and not char.isspace():
            raise ServerError(ErrorCode.MALFORMED, "a player's name has no control characters")
        if char.isspace() or char in _PUNCTUATION or category[0] in "LMN":
            continue
        raise ServerError(
            ErrorCode.MALFORMED,
            f"a player's name has letters, digits, spaces and . _ - ' only, not {char!r}",
        )
    shown = " ".join(text.split())
    if not MIN_NAME_LENGTH <= len(shown) <= MAX_NAME_LENGTH or not name_key(shown):
        raise ServerError(
            ErrorCode.MALFORMED,
            f"a player's name is {MIN_NAME_LENGTH} to {MAX_NAME_LENGTH} characters",
        )
    return shown


def name_key(name: str) -> str:
    """The form of ``name`` two names are the same name by (see the module docs)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    kept = "".join(c for c in text if not c.isspace() and c not in _PUNCTUATION)
    # Marks go: "é" and "e" are one name (NFKD splits the mark off).
    bare = "".join(c for c in unicodedata.normalize("NFKD", kept) if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare).translate(_CONFUSABLES)


def check_password(password: object) -> str:
    """``password`` if it is a password the server takes.

    :raises ServerError: ``malformed`` for one that is not text of
        :data:`MIN_PASSWORD` .. :data:`MAX_PASSWORD` characters.
    """
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ServerError(
            ErrorCode.MALFORMED,
            f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters",
        )
    return password
