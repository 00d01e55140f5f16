"""``python -m tarneeb.server.wire --dts``: the browser client's types from the schema."""

from __future__ import annotations

import sys

from tarneeb.server.wiretypes import typescript

if __name__ == "__main__":  # pragma: no cover - a command
    if sys.argv[1:] != ["--dts"]:
        sys.exit("usage: python -m tarneeb.server.wire --dts")
    sys.stdout.write(typescript())
