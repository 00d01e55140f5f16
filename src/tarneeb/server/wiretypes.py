"""The wire schema read back from its annotations: TypeScript for the client, and a checker.

:func:`typescript` writes the ``.d.ts`` the browser client's types come from
(``static/js/wire.d.ts``, kept current by the tests); :func:`check` tells
whether a value fits one of the schema's types, as the tests use it on
every frame the server builds.

>>> from tarneeb.server import wire
>>> check({"type": "ack", "id": "a1", "version": 3}, wire.AckFrame)
>>> check({"type": "ack", "id": "a1"}, wire.AckFrame)
Traceback (most recent call last):
...
tarneeb.server.wiretypes.SchemaError: $: AckFrame: version is missing
>>> print(ts_type(typing.get_type_hints(wire.TrickJson)["winner"]))
SeatName | null
"""

from __future__ import annotations

import ast
import enum
import functools
import inspect
import itertools
import textwrap
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from tarneeb.errors import TarneebError

__all__ = ["SchemaError", "check", "ts_type", "typescript"]

DTS_PATH = "src/tarneeb/server/static/js/wire.d.ts"
"""Where the generated client types live, from the repository's root."""


class SchemaError(TarneebError, ValueError):
    """A value that does not fit the wire schema; the message says where and why."""


def _wire() -> types.ModuleType:
    from tarneeb.server import wire

    return wire


def _is_typeddict(tp: object) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def _is_enum(tp: object) -> bool:
    return isinstance(tp, type) and issubclass(tp, enum.Enum)


def _ours(tp: type) -> bool:
    """Whether a class is defined in the wire package."""
    name = _wire().__name__
    return tp.__module__ == name or tp.__module__.startswith(name + ".")


def _is_union(tp: object) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


@functools.cache
def _hints(tp: type) -> dict[str, Any]:
    return get_type_hints(tp)  # in the namespace of the module that defines it


def _named() -> Iterator[tuple[str, Any]]:
    """The schema's public names: enums, aliases and TypedDicts, in the order they are defined."""
    from tarneeb.server.wire import events, names, players, schema

    wire = _wire()
    yield "ActionKind", wire.ActionKind
    seen = {"ActionKind"}
    for module in (names, schema, events, players):
        for name, value in vars(module).items():
            if name.startswith("_") or name not in wire.__all__ or name in seen:
                continue
            seen.add(name)
            enum_type = _is_enum(value) and issubclass(value, str)
            record = _is_typeddict(value) and _ours(value)
            alias = get_origin(value) in (Literal, Union, types.UnionType, tuple) and _is_wire(
                value
            )
            if enum_type or record or alias:
                yield name, value


def _is_wire(tp: Any) -> bool:
    """Whether an alias is made of JSON and the schema's own types only."""
    if tp in (int, float, str, bool, type(None)) or _is_enum(tp) or _is_typeddict(tp):
        return True
    if get_origin(tp) is Literal:
        return True
    args = get_args(tp)
    return bool(args) and all(_is_wire(a) for a in args)


def _aliases() -> dict[str, Any]:
    return {name: value for name, value in _named() if not isinstance(value, type)}


def _literal(value: object) -> str:
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if value is None:
        return "null"
    return str(value).lower() if isinstance(value, bool) else str(value)


def ts_type(tp: Any, aliases: dict[str, Any] | None = None, top: bool = True) -> str:
    """The TypeScript type of an annotation of the schema (names of the schema kept)."""
    aliases = _aliases() if aliases is None else aliases
    if isinstance(tp, str):
        tp = eval(tp, vars(_wire()))  # an annotation as text: the schema's own names only
    if not top:
        for name, value in aliases.items():
            if tp == value:
                return name
    if tp is type(None) or tp is None:
        return "null"
    if tp is Any:
        return "unknown"
    if tp is bool:
        return "boolean"
    if tp in (int, float):
        return "number"
    if tp is str:
        return "string"
    if _is_enum(tp) or _is_typeddict(tp):
        return str(tp.__name__)
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is Literal:
        return " | ".join(_literal(a) for a in args)
    if _is_union(tp):
        return " | ".join(ts_type(a, aliases, False) for a in args)
    if origin is list:
        inner = ts_type(args[0], aliases, False)
        return f"({inner})[]" if " | " in inner else f"{inner}[]"
    if origin is tuple:
        return "[" + ", ".join(ts_type(a, aliases, False) for a in args) + "]"
    if origin is dict:
        return f"Record<{ts_type(args[0], aliases, False)}, {ts_type(args[1], aliases, False)}>"
    raise TypeError(f"no TypeScript for {tp!r}")


def _doc(obj: object, indent: str = "") -> list[str]:
    text = (getattr(obj, "__doc__", None) or "").strip()
    if not text or text.startswith(("dict()", "str(object")) or "Enum" in text[:20]:
        return []
    lines = [" ".join(text.split())]
    return [f"{indent}/** {line} */" for line in lines]


def _field_docs(tp: type) -> dict[str, str]:
    """The docstrings under the fields of a TypedDict (and of the TypedDicts it extends)."""
    docs: dict[str, str] = {}
    for cls in reversed(tp.__mro__):
        if not _is_typeddict(cls) or not _ours(cls):
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for field, after in itertools.pairwise(body):
            if (
                isinstance(field, ast.AnnAssign)
                and isinstance(field.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                docs[field.target.id] = " ".join(after.value.value.split())
    return docs


def typescript() -> str:
    """The ``.d.ts`` of the whole schema (``python -m tarneeb.server.wire --dts``)."""
    wire = _wire()
    aliases = _aliases()
    out = [
        "// The wire schema of `tarneeb serve`, for the browser client's JSDoc and `tsc`.",
        "// Generated from tarneeb/server/wire/ by `python -m tarneeb.server.wire --dts`:",
        "// do not edit; the tests check that it is current.",
        "",
        f"export const PROTOCOL_VERSION: {wire.PROTOCOL_VERSION};",
        *(
            f"export const {name}: {getattr(wire, name)};"
            for name in sorted(wire.__all__)
            if name.startswith("MAX_")
        ),
    ]
    for name, value in _named():
        out.append("")
        if _is_enum(value):
            out.extend(_doc(value))
            out.append(f"export type {name} = {' | '.join(_literal(m) for m in value)};")
        elif _is_typeddict(value):
            out.extend(_doc(value))
            out.append(f"export interface {name} {{")
            optional = value.__optional_keys__
            docs = _field_docs(value)
            for key, hint in _hints(value).items():
                mark = "?" if key in optional else ""
                if key in docs:
                    out.append(f"  /** {docs[key]} */")
                out.append(f"  {key}{mark}: {ts_type(hint, aliases, False)};")
            out.append("}")
        else:
            out.append(f"export type {name} = {ts_type(value, aliases)};")
    return "\n".join(out) + "\n"


# -- checking values ------------------------------------------------------------------------------


Checker = Callable[[object, str], None]


def check(value: object, tp: Any, path: str = "$") -> None:
    """Whether ``value`` (as built, or read back from JSON) fits the schema's type ``tp``.

    :raises SchemaError: naming the first place where it does not.
    """
    _checker(tp)(value, path)


def _fail(path: str, why: str) -> SchemaError:
    return SchemaError(f"{path}: {why}")


def _scalar(kinds: tuple[type, ...], what: str) -> Checker:
    def run(value: object, path: str) -> None:
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            raise _fail(path, f"{value!r} is not {what}")

    return run


def _one_of(values: frozenset[object], what: str) -> Checker:
    # A boolean is one of a literal true or false only, never of 1 or 0 (and 1 never true).
    allowed = frozenset((isinstance(v, bool), v) for v in values)

    def run(value: object, path: str) -> None:
        hashable = isinstance(value, (str, int, float, type(None)))
        if not hashable or (isinstance(value, bool), value) not in allowed:
            raise _fail(path, f"{value!r} is not {what}")

    return run


@functools.cache
def _checker(tp: Any) -> Checker:
    """A function that checks values against ``tp``, made once per type."""
    if tp is Any:
        return lambda value, path: None
    if tp is type(None) or tp is None:
        return _one_of(frozenset([None]), "null")
    if tp is bool:
        return _scalar((bool,), "a boolean")
    if tp is int:
        return _scalar((int,), "an integer")
    if tp is float:
        return _scalar((int, float), "a number")
    if tp is str:
        return _scalar((str,), "a string")
    if _is_enum(tp):
        return _one_of(frozenset(m.value for m in tp), f"a {tp.__name__}")
    if _is_typeddict(tp):
        return _dict_checker(tp)
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is Literal:
        return _one_of(frozenset(args), f"one of {[_literal(a) for a in args]}")
    if _is_union(tp):
        return _union_checker(tuple(_checker(a) for a in args))
    if origin is list:
        item = _checker(args[0])

        def run_list(value: object, path: str) -> None:
            if not isinstance(value, (list, tuple)):
                raise _fail(path, f"{value!r} is not a list")
            for i, v in enumerate(value):
                item(v, f"{path}[{i}]")

        return run_list
    if origin is tuple:
        items = tuple(_checker(a) for a in args)

        def run_tuple(value: object, path: str) -> None:
            if not isinstance(value, (list, tuple)) or len(value) != len(items):
                raise _fail(path, f"{value!r} is not a list of {len(items)}")
            for i, (v, c) in enumerate(zip(value, items, strict=True)):
                c(v, f"{path}[{i}]")

        return run_tuple
    if origin is dict:
        key_check, value_check = _checker(args[0]), _checker(args[1])

        def run_dict(value: object, path: str) -> None:
            if not isinstance(value, dict):
                raise _fail(path, f"{value!r} is not an object")
            for k, v in value.items():
                key_check(k, f"{path}.{k}")
                value_check(v, f"{path}.{k}")

        return run_dict
    raise TypeError(f"cannot check {tp!r}")


def _union_checker(options: tuple[Checker, ...]) -> Checker:
    def run(value: object, path: str) -> None:
        errors = []
        for option in options:
            try:
                option(value, path)
                return
            except SchemaError as exc:
                errors.append(str(exc))
        raise SchemaError(" / ".join(errors))

    return run


def _dict_checker(tp: type) -> Checker:
    name = tp.__name__
    required: typing.AbstractSet[str] = tp.__required_keys__  # type: ignore[attr-defined]
    fields: dict[str, Checker] = {}

    def run(value: object, path: str) -> None:
        if not isinstance(value, dict):
            raise _fail(path, f"{name}: {value!r} is not an object")
        if not fields:  # filled on first use: the TypedDicts may refer to each other
            fields.update({key: _checker(hint) for key, hint in _hints(tp).items()})
        for key in required:
            if key not in value:
                raise _fail(path, f"{name}: {key} is missing")
        for key, item in value.items():
            field = fields.get(key)
            if field is None:
                raise _fail(path, f"{name}: unknown key {key!r}")
            field(item, f"{path}.{key}")

    return run
