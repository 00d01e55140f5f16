"""``python -m tarneeb.arena --bots A,B ...``: the arena command on its own."""

from __future__ import annotations

import sys

from tarneeb.arena.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["arena", *sys.argv[1:]]))
