"""The wire's reading and writing: client frames parsed, the engine's objects as JSON."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from tarneeb.actions import (
    Action,
    Bid,
    ChooseTrump,
    action_from_id,
    action_id,
    action_kind,
    format_action,
)
from tarneeb.cards import Card
from tarneeb.deal import Contract, Deal, Trick
from tarneeb.errors import TarneebError
from tarneeb.seats import Seat
from tarneeb.server.wire.names import (
    MAX_ACTION_REF,
    MAX_DEPTH,
    MAX_FRAME,
    PROTOCOL_VERSION,
    PROTOCOLS,
    REACTIONS,
    ErrorCode,
    Play,
    ServerError,
    SuitLetter,
    ThrowInReason,
    seat_name,
    side_name,
    strain_letter,
)
from tarneeb.server.wire.schema import ActionJson, CallJson, ContractJson, ResultJson, TrickJson

# -- the engine's objects as JSON --------------------------------------------------------------


@functools.lru_cache(maxsize=2048)
def _action_json(number: int) -> ActionJson:
    action = action_from_id(number)
    out: ActionJson = {"id": number, "text": format_action(action), "kind": action_kind(number)}
    if isinstance(action, Bid):
        out["level"] = action.level
        out["strain"] = strain_letter(action.strain)
    elif isinstance(action, (Card, ChooseTrump)):
        out["suit"] = cast(SuitLetter, action.suit.letter)
    return out


def action_json(action: Action | int) -> ActionJson:
    """An action as the wire writes it (shared: write it out, do not change it).

    >>> json.dumps(action_json(Bid(8)))
    '{"id": 117, "text": "8", "kind": "bid", "level": 8, "strain": null}'
    """
    return _action_json(action_id(action))


def call_json(seat: Seat, action: Action) -> CallJson:
    return {"seat": seat_name(seat), "action": action_json(action)}


def trick_json(trick: Trick, card_points: bool = False) -> TrickJson:
    """A trick; ``card_points``: the rules count card points, so the trick tells its own."""
    return {
        "leader": seat_name(trick.leader),
        # JSON arrays, as stored events read back: equal before and after a round trip
        "cards": [cast(Play, [seat_name(seat), str(card)]) for seat, card in trick.plays],
        "winner": None if trick.winner is None else seat_name(trick.winner),
        "points": sum(c.card_points for c in trick.cards) if card_points else None,
    }


def contract_json(contract: Contract | None) -> ContractJson | None:
    if contract is None:
        return None
    return {
        "seat": seat_name(contract.declarer),
        "level": contract.level,
        "strain": strain_letter(contract.strain),
        "multiplier": contract.multiplier,
    }


def result_json(deal: Deal) -> ResultJson | None:
    """A finished deal's outcome, or ``None`` while it is played."""
    if deal.thrown_in is not None:
        return {"thrown_in": cast(ThrowInReason, deal.thrown_in)}
    result = deal.result
    if result is None:
        return None
    return {
        "points": list(result.team_points),
        "seat_points": None if result.seat_points is None else list(result.seat_points),
        "made": result.made,
        "all_thirteen": side_name(result.all_thirteen),
    }


# -- reading client frames ---------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    token: str | None
    since: int | None


@dataclass(frozen=True)
class Act:
    ref: str
    version: int
    action: int | str
    """The action's id, or the text it was sent as (read against the phase by the table)."""


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Ping:
    pass


@dataclass(frozen=True)
class Hint:
    pass


@dataclass(frozen=True)
class React:
    reaction: str


@dataclass(frozen=True)
class Rematch:
    vote: bool


Frame = Hello | Act | Chat | Ping | Hint | React | Rematch

_NONE = type(None)
_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "hello": {"protocol": (int,), "token": (str, _NONE), "since": (int, _NONE)},
    "act": {"id": (str,), "version": (int,), "action": (int, str, dict)},
    "chat": {"text": (str,)},
    "ping": {},
    "hint": {},
    "react": {"reaction": (str,)},
    "rematch": {"vote": (bool,)},
}
_REQUIRED = {
    "hello": (),
    "act": ("id", "version", "action"),
    "chat": ("text",),
    "ping": (),
    "hint": (),
    "react": ("reaction",),
    "rematch": ("vote",),
}
_WHAT = {int: "an integer", str: "a string", dict: "an object", bool: "true or false"}


def _malformed(message: str) -> ServerError:
    return ServerError(ErrorCode.MALFORMED, message)


_SPECIAL = re.compile(r'["\\\[\]{}]')


def check_depth(raw: str | bytes, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON text nested deeper than ``limit`` (before the parser recurses into it).

    One pass over the quotes, backslashes and brackets, in time linear in the text.

    >>> check_depth('{"a": "[[[[", "b": [[1]]}', limit=3)
    >>> check_depth(r'[[[["\\"]"]]]]', limit=3)  # the string holds an escaped quote
    Traceback (most recent call last):
    ...
    tarneeb.server.wire.names.ServerError: JSON nests at most 3 levels deep

    :raises ServerError: ``malformed``.
    """
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    depth = 0
    in_string = False
    skip = -1  # the index of a character a backslash escapes
    for found in _SPECIAL.finditer(text):
        at = found.start()
        if at == skip:
            continue
        char = text[at]
        if in_string:
            if char == "\\":
                skip = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                raise _malformed(f"JSON nests at most {limit} levels deep")
        elif char in "]}":
            depth -= 1


def _no_constant(name: str) -> Any:
    raise _malformed(f"{name} is not a JSON number")


def loads(raw: str | bytes, what: str = "the body") -> Any:
    """Parse JSON text from a client (a request body, a frame): nesting bounded by
    :data:`MAX_DEPTH`, no ``NaN`` or ``Infinity``.

    >>> loads(b'{"a": [1, {"b": null}]}')
    {'a': [1, {'b': None}]}
    >>> loads(b"[" * 100 + b"]" * 100)
    Traceback (most recent call last):
    ...
    tarneeb.server.wire.names.ServerError: JSON nests at most 32 levels deep
    >>> loads(b'{"turn_seconds": NaN}')
    Traceback (most recent call last):
    ...
    tarneeb.server.wire.names.ServerError: NaN is not a JSON number

    :raises ServerError: ``malformed``; ``what`` names the text in the message.
    """
    check_depth(raw)
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise _malformed(f"{what} must be one JSON object") from None


def parse_frame(text: str | bytes) -> Frame:
    """Read one client frame.

    :raises ServerError: ``too_large`` over :data:`MAX_FRAME` bytes;
        ``malformed`` for anything but one of the protocol's frames, exactly.
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(raw) > MAX_FRAME:
        raise ServerError(ErrorCode.TOO_LARGE, f"a frame is at most {MAX_FRAME} bytes")
    data = loads(raw, "a frame")
    if not isinstance(data, dict):
        raise _malformed("a frame must be one JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _malformed(f"unknown frame type {kind!r}")
    fields = _FIELDS[kind]
    for key, value in data.items():
        if key == "type":
            continue
        if key not in fields:
            raise _malformed(f"{kind}: unknown field {key!r}")
        if (isinstance(value, bool) and bool not in fields[key]) or not isinstance(
            value, fields[key]
        ):
            what = " or ".join(_WHAT[t] for t in fields[key] if t is not _NONE)
            raise _malformed(f"{kind}: {key} must be {what}")
    for key in _REQUIRED[kind]:
        if key not in data:
            raise _malformed(f"{kind}: {key} is missing")
    if kind == "hello":
        if data.get("protocol", PROTOCOL_VERSION) not in PROTOCOLS:
            raise _malformed(
                f"this server speaks protocol {PROTOCOL_VERSION} (and {PROTOCOLS[0]} to it)"
            )
        since = data.get("since")
        if since is not None and since < 0:
            raise _malformed("hello: since must be 0 or more")
        return Hello(data.get("token"), since)
    if kind == "act":
        ref = data["id"]
        if not 0 < len(ref) <= MAX_ACTION_REF:
            raise _malformed(f"act: id must be 1 to {MAX_ACTION_REF} characters")
        try:
            return Act(ref, data["version"], _action_ref(data["action"]))
        except ServerError as exc:  # the error answers this act: it names its id
            raise ServerError(exc.code, exc.message, id=ref) from None
    if kind == "chat":
        return Chat(data["text"])
    if kind == "react":
        if data["reaction"] not in REACTIONS:
            raise _malformed(f"react: no reaction {data['reaction'][:40]!r}")
        return React(data["reaction"])
    if kind == "rematch":
        return Rematch(data["vote"])
    if kind == "hint":
        return Hint()
    return Ping()


_ACTION_KEYS = ("id", "text", "kind", "level", "strain", "suit")


def _action_ref(value: int | str | Mapping[str, Any]) -> int | str:
    """The action of an ``act``: an id, ``{"id": ...}``, or text."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    unknown = sorted(set(value) - set(_ACTION_KEYS))
    if unknown:
        raise _malformed(f"act: unknown action field {unknown[0]!r}")
    number = value.get("id")
    if isinstance(number, bool) or not isinstance(number, int):
        raise _malformed("act: an action object needs its integer id")
    try:
        known = action_json(number)
    except TarneebError:
        raise ServerError(ErrorCode.ILLEGAL, f"{number} is no action id") from None
    for key in _ACTION_KEYS[1:]:
        if key in value and value[key] != known.get(key):
            raise _malformed(f"act: action {key} {value[key]!r} is not that of id {number}")
    return number
