"""The exceptions of :mod:`tarneeb`: one root, one class per kind of mistake."""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "InvalidActionError",
    "RecordError",
    "RulesError",
    "TarneebError",
]


class TarneebError(Exception):
    """Root of every error raised on purpose by :mod:`tarneeb`."""


class InvalidActionError(TarneebError, ValueError):
    """An action that cannot be parsed or cannot exist (``"ZZ"``, a bid of 14)."""


class IllegalActionError(TarneebError, ValueError):
    """A well-formed action that the rules do not allow now."""


class RulesError(TarneebError, ValueError):
    """A rule option, or a combination of options, that cannot work."""


class RecordError(TarneebError, ValueError):
    """A game record that cannot be read or does not replay."""
