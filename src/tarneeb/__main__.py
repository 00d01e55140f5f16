"""``python -m tarneeb``: the same command line as ``tarneeb``."""

from __future__ import annotations

from tarneeb.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
