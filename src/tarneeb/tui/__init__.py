"""``tarneeb play``: play a match in the terminal against bots (Textual).

:class:`GameController` holds the game and is usable without Textual;
:mod:`tarneeb.tui.app` is the Textual app, imported only when a game starts.
"""

from __future__ import annotations

from tarneeb.tui.cli import add_play_parser, run_play
from tarneeb.tui.controller import DealEnd, GameController
from tarneeb.tui.saves import saves_dir

__all__ = ["DealEnd", "GameController", "add_play_parser", "run_play", "saves_dir"]
