"""How a table of the server is set up: :class:`TableConfig`, read and checked from a client.

>>> config = TableConfig.from_dict({"rules": "egyptian", "seats": {"east": "bot:heuristic"}})
>>> config.seats, config.hints
(('human', 'bot:heuristic', 'human', 'human'), True)
>>> TableConfig.from_dict({"hints": "no"})
Traceback (most recent call last):
...
tarneeb.server.wire.names.ServerError: hints must be true or false
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tarneeb.bots.policy import remote_spec_allowed
from tarneeb.bots.registry import make_bot
from tarneeb.errors import TarneebError
from tarneeb.presets import find_rules
from tarneeb.rules import Rules
from tarneeb.seats import SEATS
from tarneeb.server.wire import ErrorCode, ServerError, parse_seat_name, seat_name

__all__ = ["MATCH_LIMITS", "TURN_SECONDS", "TableConfig", "check_bot_spec", "custom_options"]


@dataclass(frozen=True)
class TableConfig:
    """How a table was set up; stored with it and never changed."""

    rules_name: str = "classic"
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[str, str, str, str] = ("human", "human", "human", "human")
    """``"human"`` or ``"bot:SPEC"`` for each seat, South first."""
    public: bool = True
    turn_seconds: float | None = None
    takeover_seconds: float = 30.0
    hints: bool = True
    """Whether a seat may ask for a hint (the host's choice, shown to all)."""

    @property
    def rules(self) -> Rules:
        base = find_rules(self.rules_name)
        return base.replace(**dict(self.options)) if self.options else base

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules_name,
            "options": dict(self.options),
            "seats": {seat_name(seat): kind for seat, kind in zip(SEATS, self.seats, strict=True)},
            "public": self.public,
            "turn_seconds": self.turn_seconds,
            "takeover_seconds": self.takeover_seconds,
            "hints": self.hints,
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> TableConfig:
        """A stored set-up: as :meth:`from_dict`, but so that every stored table loads: a
        turn timer set before today's bounds (:data:`TURN_SECONDS`) is moved into them, and
        a match longer than :data:`MATCH_LIMITS` allow keeps its length."""
        turn = data.get("turn_seconds")
        if isinstance(turn, (int, float)) and not isinstance(turn, bool) and math.isfinite(turn):
            low, high = TURN_SECONDS
            data = {**data, "turn_seconds": min(max(turn, low), high)}
        return cls.from_dict(data, limits=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], limits: bool = True) -> TableConfig:
        """Read and check a table's set-up (the body of ``POST /api/tables``).

        ``limits``: hold the match to :data:`MATCH_LIMITS` (a table plays on the server).

        :raises ServerError: ``malformed`` naming the bad key or value.
        """
        known = {"rules", "options", "seats", "public", "turn_seconds", "takeover_seconds", "hints"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ServerError(ErrorCode.MALFORMED, f"unknown table setting {unknown[0]!r}")
        rules_name = data.get("rules", "classic")
        if not isinstance(rules_name, str):
            raise ServerError(ErrorCode.MALFORMED, "rules must be a preset name")
        rules_name = rules_name.strip().lower()  # as find_rules reads it: shown so
        options = data.get("options", {}) or {}
        if not isinstance(options, Mapping):
            raise ServerError(ErrorCode.MALFORMED, "options must be an object of rule options")
        seats_in = data.get("seats", {}) or {}
        if not isinstance(seats_in, Mapping):
            raise ServerError(
                ErrorCode.MALFORMED, "seats must map seat names to 'human' or 'bot:SPEC'"
            )
        kinds = ["human"] * 4
        for key, kind in seats_in.items():
            seat = parse_seat_name(key)
            kinds[seat] = _check_seat_kind(kind)
        public = data.get("public", True)
        if not isinstance(public, bool):
            raise ServerError(ErrorCode.MALFORMED, "public must be true or false")
        turn = data.get("turn_seconds")
        if turn is not None:
            turn = _seconds(turn, "turn_seconds", *TURN_SECONDS, "null or ")
        takeover = _seconds(data.get("takeover_seconds", 30.0), "takeover_seconds", 0, 3600)
        hints = data.get("hints", True)
        if not isinstance(hints, bool):
            raise ServerError(ErrorCode.MALFORMED, "hints must be true or false")
        config = cls(
            rules_name,
            dict(options),
            (kinds[0], kinds[1], kinds[2], kinds[3]),
            public,
            turn,
            takeover,
            hints,
        )
        try:
            rules = config.rules
        except TarneebError as exc:
            raise ServerError(ErrorCode.MALFORMED, str(exc)) from None
        except (TypeError, ValueError) as exc:
            raise ServerError(ErrorCode.MALFORMED, f"bad rule option: {exc}") from None
        for option, high in MATCH_LIMITS.items() if limits else ():
            if getattr(rules, option) > high:
                raise ServerError(
                    ErrorCode.MALFORMED, f"{option} is at most {high} for a table of the server"
                )
        return config


TURN_SECONDS = (5, 600)
"""The shortest and longest turn timer, in seconds."""
MATCH_LIMITS = {"target": 1000, "sets": 99}
"""The longest match a table may play: a table plays on the server's time."""


def _seconds(value: object, what: str, low: float, high: float, other: str = "") -> float:
    """``value`` as a number of seconds from ``low`` to ``high`` (a finite JSON number).

    >>> _seconds(30, "turn_seconds", 5, 600)
    30.0
    >>> _seconds(1e-9, "turn_seconds", 5, 600)
    Traceback (most recent call last):
    ...
    tarneeb.server.wire.names.ServerError: turn_seconds must be a number of seconds from 5 to 600
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise ServerError(
            ErrorCode.MALFORMED, f"{what} must be {other}a number of seconds from {low} to {high}"
        )
    return float(value)


def _check_seat_kind(kind: object) -> str:
    if kind == "human":
        return "human"
    if isinstance(kind, str) and kind.startswith("bot:"):
        spec = ":".join(
            part for part in kind[4:].strip().split(":") if part
        )  # as make_bot reads it
        if not remote_spec_allowed(spec):  # loading a file or module would run its code
            raise ServerError(ErrorCode.MALFORMED, "a policy bot here is an installed entry point")
        try:
            make_bot(spec)
        except TarneebError as exc:
            raise ServerError(ErrorCode.MALFORMED, str(exc)) from None
        return f"bot:{spec}"
    raise ServerError(ErrorCode.MALFORMED, f"a seat is 'human' or 'bot:SPEC', not {kind!r}")


def check_bot_spec(spec: str) -> str:
    """``spec`` as a bot of a seat is stored (``hard``, ``heuristic:aggressive``).

    :raises ServerError: ``malformed`` for no such bot.
    """
    return _check_seat_kind(f"bot:{spec}")[4:]


def custom_options(config: TableConfig) -> dict[str, Any]:
    """The options of ``config`` that differ from its preset's, as the rules write them.

    >>> custom_options(TableConfig("classic", {"target": 31}))
    {'target': 31}
    """
    base = find_rules(config.rules_name).to_dict()
    return {k: v for k, v in config.rules.to_dict().items() if base.get(k) != v}
