"""The message catalogues: every text the package says to players, in their languages.

One catalogue for everything that speaks to players: a flat JSON object of
``"key": "message"`` pairs in UTF-8, one file a language,
``tarneeb/i18n/LANG.json``, with ``{name}`` placeholders filled in by name.
A number's noun takes the language's plural form with ICU's plural syntax,
``{tricks, plural, one {# взятку} few {# взятки} many {# взяток} other {# взятки}}``
(``#`` is the number; the categories are CLDR's, as the browser's
``Intl.PluralRules`` names them).
The rules reference, the preset summaries and ``tarneeb play`` read it here;
the browser client's own messages are its ``web.`` block, which the server
hands the page with the shared words it needs (:func:`browser_catalogue`,
``GET /i18n/LANG.json``); the page's ``t(key, params)`` fills the same
placeholders the same way. Standard library only.

>>> tr = translator("es")
>>> tr("reference.title")
'Referencia de las reglas de Tarneeb'
>>> translator("en")("describe.title", title="classic")
'# Tarneeb rules: classic'
>>> translator("xx")
Traceback (most recent call last):
...
tarneeb.i18n.LanguageError: no language 'xx'; the languages are: en, ar, es, nl, ru
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING

from tarneeb.errors import TarneebError

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

__all__ = [
    "BROWSER_PREFIXES",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LanguageError",
    "Translator",
    "accept_language",
    "browser_catalogue",
    "core_catalogue",
    "fill",
    "find_language",
    "placeholders",
    "plural_category",
    "read_catalogue",
    "translator",
]

#: The languages players can read the package in, English first (the fallback).
LANGUAGES: tuple[str, ...] = ("en", "ar", "es", "nl", "ru")
DEFAULT_LANGUAGE = "en"
#: The languages written right to left.
RIGHT_TO_LEFT: frozenset[str] = frozenset({"ar"})

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_PLURAL = re.compile(r"\{(\w+), plural,((?:\s*(?:zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}")
"""``{name, plural, one {...} other {...}}``: a placeholder whose words follow its number."""
_BRANCH = re.compile(r"(zero|one|two|few|many|other)\s*\{([^{}]*)\}")

#: A message function: ``tr(key, **params)`` gives the message with its placeholders filled.
Translator = Callable[..., str]


class LanguageError(TarneebError, ValueError):
    """A language the catalogues do not have."""


def find_language(code: str) -> str:
    """The catalogue language of ``code`` (``"ar"``, ``"AR"``, ``"ar-LB"`` all give ``"ar"``).

    :raises LanguageError: when no catalogue has that language; the message lists them.
    """
    key = code.strip().lower().replace("_", "-").split("-")[0]
    if key not in LANGUAGES:
        raise LanguageError(f"no language {code!r}; the languages are: {', '.join(LANGUAGES)}")
    return key


def accept_language(header: str | None) -> str | None:
    """The best language of an HTTP ``Accept-Language`` header that a catalogue has.

    >>> accept_language("fr-FR, ru;q=0.8, en;q=0.5")
    'ru'
    >>> accept_language("fr") is None, accept_language(None) is None
    (True, True)
    """
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        code, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if code and weight > 0:
            ranked.append((-weight, index, code))
    for _, _, code in sorted(ranked):
        try:
            return find_language(code)
        except LanguageError:
            continue
    return None


def placeholders(message: str) -> set[str]:
    """The names of the ``{name}`` placeholders of a message, plural ones too.

    >>> sorted(placeholders("bid {bid}, take {taken, plural, one {# trick} other {# tricks}}"))
    ['bid', 'taken']
    """
    plural = {match.group(1) for match in _PLURAL.finditer(message)}
    return plural | set(_PLACEHOLDER.findall(_PLURAL.sub("", message)))


def plural_category(lang: str, value: object) -> str:
    """The CLDR plural category of ``value`` in ``lang``: ``zero``, ``one``, ``two``,
    ``few``, ``many`` or ``other``, as the browser's ``Intl.PluralRules`` says.

    ``value`` is a number, or a number written out (``"7,5"``: the decimal comma of a
    reason's argument). A number with a fraction is ``other`` in every language here.

    >>> [plural_category("ru", n) for n in (1, 3, 5, 11, 21, 22, 7.5)]
    ['one', 'few', 'many', 'many', 'one', 'few', 'other']
    >>> [plural_category("ar", n) for n in (0, 1, 2, 3, 11, 100, 102)]
    ['zero', 'one', 'two', 'few', 'many', 'other', 'other']
    >>> plural_category("en", 1), plural_category("en", "1,5")
    ('one', 'other')
    """
    text = str(value).strip("\u2066\u2069").replace(",", ".").replace("\u2212", "-")
    try:
        number = abs(float(text))
    except ValueError:
        return "other"
    if number != int(number):
        return "other"
    n = int(number)
    lang = find_language(lang)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if lang == "ar":
        if n <= 2:
            return ("zero", "one", "two")[n]
        if 3 <= n % 100 <= 10:
            return "few"
        return "many" if 11 <= n % 100 <= 99 else "other"
    return "one" if n == 1 else "other"


def fill(message: str, params: Mapping[str, object], lang: str = DEFAULT_LANGUAGE) -> str:
    """The message with each ``{name}`` replaced by ``params[name]``, the way the browser does;
    a plural placeholder by the words of its number's category in ``lang`` (``other`` when
    the message has none for it), ``#`` in them by the number.

    >>> fill("bid {bid}, take {taken}", {"bid": 8, "taken": 9})
    'bid 8, take 9'
    >>> plural = "{n, plural, one {# взятку} few {# взятки} many {# взяток} other {# взятки}}"
    >>> [fill(plural, {"n": n}, "ru") for n in (1, 3, 5, "2,5")]
    ['1 взятку', '3 взятки', '5 взяток', '2,5 взятки']

    :raises KeyError: when a placeholder has no value (a bug of the caller).
    """

    def plural(match: re.Match[str]) -> str:
        value = params[match.group(1)]
        words: dict[str, str] = dict(_BRANCH.findall(match.group(2)))
        chosen = words.get(plural_category(lang, value)) or words.get("other", "#")
        return chosen.replace("#", str(value))

    def one(match: re.Match[str]) -> str:
        return str(params[match.group(1)])

    return _PLACEHOLDER.sub(one, _PLURAL.sub(plural, message))


def read_catalogue(folder: Traversable, lang: str) -> Mapping[str, str]:
    """The catalogue ``LANG.json`` of ``folder``: a flat object of string messages.

    :raises LanguageError: for an unknown language.
    :raises ValueError: when the file is not a flat object of strings.
    """
    lang = find_language(lang)
    data = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{lang}.json is not a flat object of string messages")
    return MappingProxyType(data)


@cache
def core_catalogue(lang: str) -> Mapping[str, str]:
    """The core's messages (rules reference, preset summaries) in ``lang``."""
    return read_catalogue(resources.files(__name__), lang)


#: The keys the browser client reads: its own ``web.`` block and the words it shares
#: with the rest of the package (suit and strain names, the reasons of hints).
BROWSER_PREFIXES: tuple[str, ...] = ("web.", "suit.", "strain.", "reason.", "call.")


@cache
def browser_catalogue(lang: str) -> Mapping[str, str]:
    """The messages of ``lang`` the browser client reads (the keys of :data:`BROWSER_PREFIXES`).

    >>> browser_catalogue("en")["call.pass"], browser_catalogue("en")["strain.hearts"]
    ('Pass', 'hearts')
    >>> "game.players" in browser_catalogue("en")
    False

    :raises LanguageError: for an unknown language.
    """
    messages = core_catalogue(find_language(lang))
    return MappingProxyType({k: v for k, v in messages.items() if k.startswith(BROWSER_PREFIXES)})


def translator(lang: str = DEFAULT_LANGUAGE) -> Translator:
    """The core's message function for ``lang``; a message missing there falls back to English.

    :raises LanguageError: for an unknown language.
    """
    messages = core_catalogue(find_language(lang))
    english = core_catalogue(DEFAULT_LANGUAGE)

    def tr(key: str, /, **params: object) -> str:
        message = messages.get(key)
        if message is None:
            message = english[key]
        return fill(message, params, lang)

    return tr
