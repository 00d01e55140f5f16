"""Why a bot chose what it chose, in every language the package speaks.

A :class:`Reason` names a message of the catalogue (``reason.<name>`` in
``tarneeb/i18n/LANG.json``) and holds its arguments: cards, suits, strains,
counts, estimates, or another reason. It renders in any language with that
language's own card and suit names, and it *is* its English text (a ``str``),
so code that logs, joins or compares reasons keeps working::

    >>> from tarneeb.cards import Card
    >>> why = Reason("partner-wins", card=Card.parse("KH"))
    >>> why
    Reason('partner-wins', card=Card('KH'))
    >>> print(why)
    partner's king of hearts wins this trick: play low
    >>> print(why.text("es"))
    el rey de corazones del compañero gana esta baza: juega bajo
    >>> print(Reason("draw-trumps", count=2).text("ru"))
    тянуть козыри: ещё не вышло 2
    >>> why.key, why.params["card"]
    ('reason.partner-wins', Card('KH'))

A reason that is only a text (what a bot wrote before reasons were
structured, or a text from elsewhere) is :meth:`Reason.plain`: it reads the
same in every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Union

from tarneeb.actions import Strain
from tarneeb.cards import Card, Suit
from tarneeb.i18n import DEFAULT_LANGUAGE, Translator, core_catalogue, translator

__all__ = ["NO_REASON", "PARTS", "Reason", "ReasonArg", "reason_names"]

#: What a reason's argument may be.
ReasonArg = Union[str, int, float, Card, Suit, Strain, "Reason"]

#: The catalogue keys of the words reasons are built from (card names and numbers), not reasons.
PARTS = "reason.part."


@cache
def _tr(lang: str) -> Translator:
    return translator(lang)


def _render(value: ReasonArg, lang: str) -> str:
    tr = _tr(lang)
    if isinstance(value, Reason):
        return value.text(lang)
    if isinstance(value, Card):
        rank = tr(f"{PARTS}rank.{value.rank.name.lower()}")
        suit = tr(f"{PARTS}of.{value.suit.name.lower()}")
        return tr(f"{PARTS}card", rank=rank, suit=suit)
    if isinstance(value, Suit):
        return tr(f"strain.{value.name.lower()}")
    if isinstance(value, Strain):
        return tr(f"strain.{value.name.lower().replace('_', '-')}")
    if isinstance(value, float):
        text = f"{value:.1f}".removesuffix(".0")
        return text.replace(".", tr(f"{PARTS}decimal-point"))
    return str(value)


class Reason(str):
    """A catalogue message ``reason.<name>`` with its arguments; as a ``str``, its English text.

    :param name: the message's name, without the ``reason.`` prefix.
    :param args: its placeholders' values.
    :raises KeyError: when the English catalogue has no such message or a
        placeholder lacks its value (a bug of the bot).
    """

    name: str
    args: tuple[tuple[str, ReasonArg], ...]

    def __new__(cls, name: str, /, **args: ReasonArg) -> Reason:
        pairs = tuple(sorted(args.items()))
        self = super().__new__(cls, _text(name, pairs, DEFAULT_LANGUAGE))
        self.name = name
        self.args = pairs
        return self

    @classmethod
    def plain(cls, text: str) -> Reason:
        """A reason that is only ``text``, the same in every language (its ``name`` is empty).

        >>> Reason.plain("a hunch").text("ru")
        'a hunch'
        """
        if isinstance(text, Reason):
            return text
        self = str.__new__(cls, text)
        self.name = ""
        self.args = ()
        return self

    @property
    def key(self) -> str:
        """The catalogue key of the message."""
        return f"reason.{self.name}"

    @property
    def params(self) -> Mapping[str, ReasonArg]:
        return MappingProxyType(dict(self.args))

    def text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The reason in ``lang`` (English where the catalogue lacks the message).

        :raises tarneeb.i18n.LanguageError: for an unknown language.
        """
        if not self.name:
            return str(self)
        return _text(self.name, self.args, lang)

    def __repr__(self) -> str:
        if not self.name:
            return f"Reason.plain({str(self)!r})"
        args = "".join(f", {k}={v!r}" for k, v in self.args)
        return f"Reason({self.name!r}{args})"

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore, (self.name, self.args, str(self)))


def _restore(name: str, args: tuple[tuple[str, ReasonArg], ...], text: str) -> Reason:
    return Reason(name, **dict(args)) if name else Reason.plain(text)


def _text(name: str, args: tuple[tuple[str, ReasonArg], ...], lang: str) -> str:
    return _tr(lang)(f"reason.{name}", **{k: _render(v, lang) for k, v in args})


#: The empty reason: a bot that cannot say why.
NO_REASON = Reason.plain("")


def reason_names() -> frozenset[str]:
    """The names of every reason message of the catalogue (without ``reason.``).

    >>> "draw-trumps" in reason_names()
    True
    """
    return frozenset(
        key.removeprefix("reason.")
        for key in core_catalogue(DEFAULT_LANGUAGE)
        if key.startswith("reason.") and not key.startswith(PARTS)
    )
