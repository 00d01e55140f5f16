"""``python -m tarneeb.tui``: the same as ``tarneeb play``."""

from __future__ import annotations

import sys

from tarneeb.tui.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["play", *sys.argv[1:]]))
