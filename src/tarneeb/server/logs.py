"""The logs of ``tarneeb serve``: human text by default, one JSON object a line with ``--log-format json``.

The server's own loggers are under ``tarneeb`` (``tarneeb.server`` and
below); they add what a line is about as ``extra`` fields (``table``,
``seat``, ``code``, ``ref``, ...), which the JSON format writes as keys of
their own and the text format appends as ``key=value``. uvicorn's loggers go
through the same formatter, configured once through uvicorn's ``log_config``:

>>> import logging
>>> record = logging.makeLogRecord(
...     {"name": "tarneeb.server", "levelname": "WARNING", "msg": "commit failed: %s",
...      "args": ("disk full",), "created": 0.0, "table": "abc", "seat": "south"})
>>> print(JsonFormatter().format(record))
{"time": "1970-01-01T00:00:00.000Z", "level": "warning", "logger": "tarneeb.server", "message": "commit failed: disk full", "table": "abc", "seat": "south"}
>>> TextFormatter().format(record).endswith("commit failed: disk full [table=abc seat=south]")
True

Every line is one line: newlines, control characters and lone surrogates in
a message (a player's name, say) are escaped, never written raw.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

__all__ = ["FORMATS", "JsonFormatter", "TextFormatter", "log_config"]

FORMATS = ("text", "json")

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
"""Attributes every log record has; the others are a line's extra fields."""
_ACCESS = ("client", "method", "path", "http_version", "status")
"""The arguments of a uvicorn access line, in order."""


def _extra(record: logging.LogRecord) -> dict[str, Any]:
    return {
        key: value
        for key, value in vars(record).items()
        if key not in _STANDARD and not key.startswith("_") and key != "color_message"
    }


def _access(record: logging.LogRecord) -> dict[str, Any] | None:
    """A uvicorn access line's fields; the path without its query (invites carry secrets)."""
    args = record.args
    if record.name != "uvicorn.access" or not isinstance(args, tuple) or len(args) != 5:
        return None
    fields = dict(zip(_ACCESS, args, strict=True))
    fields["path"] = str(fields["path"]).split("?", 1)[0]
    return fields


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, then the extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line: dict[str, Any] = {
            "time": f"{stamp}.{int(record.created % 1 * 1000):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        access = _access(record)
        if access is not None:
            line["message"] = f"{access['method']} {access['path']} {access['status']}"
            line.update(access)
        else:
            line["message"] = record.getMessage()
        for key, value in _extra(record).items():
            line.setdefault(key, value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str)


class TextFormatter(logging.Formatter):
    """``TIME LEVEL LOGGER: message [key=value ...]``, for people reading a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        text = super().formatMessage(record)
        extra = _extra(record)
        if extra:
            text += " [" + " ".join(f"{k}={v}" for k, v in extra.items()) + "]"
        # One line a record, whatever a player put in a name or a chat line.
        return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Control characters, bidi overrides and lone surrogates: escaped in text lines."""


def log_config(log_format: str = "text", level: str = "info") -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of ``tarneeb serve`` (uvicorn's ``log_config``).

    ``text`` keeps uvicorn's own lines and writes the server's in
    :class:`TextFormatter`; ``json`` writes everything, uvicorn's access and
    error lines too, as :class:`JsonFormatter` lines on stderr.
    """
    if log_format not in FORMATS:
        raise ValueError(f"a log format is one of {', '.join(FORMATS)}, not {log_format!r}")
    level = level.upper()
    if log_format == "json":
        formatters: dict[str, Any] = {"json": {"()": JsonFormatter}}
        handlers: dict[str, Any] = {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        }
        uvicorn_handlers = access_handlers = ["stderr"]
    else:
        formatters = {
            "text": {"()": TextFormatter},
            "default": {
                "()": "uvicorn.logging.DefaultFormatter",
                "fmt": "%(levelprefix)s %(message)s",
            },
            "access": {
                "()": "uvicorn.logging.AccessFormatter",
                "fmt": '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s',
            },
        }
        handlers = {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "text",
                "stream": "ext://sys.stderr",
            },
            "default": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "stream": "ext://sys.stderr",
            },
            "access": {
                "class": "logging.StreamHandler",
                "formatter": "access",
                "stream": "ext://sys.stdout",
            },
        }
        uvicorn_handlers, access_handlers = ["default"], ["access"]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": formatters,
        "handlers": handlers,
        "loggers": {
            "tarneeb": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn": {"handlers": uvicorn_handlers, "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": access_handlers, "level": level, "propagate": False},
        },
    }
