"""The pickers of ``tarneeb play``: the hand and the bidding box, a grid of chips with a cursor.

What may not be chosen is dimmed and put in brackets, so that it reads
without colour too; the cursor moves over the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

__all__ = ["Chip", "Item", "Picker"]


@dataclass(frozen=True)
class Item:
    """One choice of a picker: an action, its label, whether it may be chosen."""

    action: int
    label: Text
    legal: bool = True


class Chip(Static):
    """One card or bid; a click picks it when it is legal."""

    def __init__(self) -> None:
        super().__init__("", classes="chip")
        self.item: Item | None = None

    def show(self, item: Item | None, cursor: bool) -> None:
        self.item = item
        self.display = item is not None
        if item is None:
            return
        # Brackets mark what may not be chosen, so that it reads without colour too.
        label = Text(" ") + item.label if item.legal else Text("(") + item.label + Text(")")
        self.update(label)
        self.set_class(not item.legal, "-illegal")
        self.set_class(cursor, "-cursor")

    def on_click(self, event: events.Click) -> None:
        if self.item is not None and self.item.legal:
            event.stop()
            self.post_message(Picker.Picked(self.item.action))


class Picker(Widget):
    """A grid of chips with a cursor over the legal ones."""

    class Picked(Message):
        """The human chose ``action`` (by click or Enter)."""

        def __init__(self, action: int) -> None:
            super().__init__()
            self.action = action

    def __init__(self, capacity: int, columns: int, id: str) -> None:
        super().__init__(id=id)
        self.capacity = capacity
        self.columns = columns
        self.items: list[Item] = []
        self.cursor = 0

    def compose(self) -> ComposeResult:
        for _ in range(self.capacity):
            yield Chip()

    def set_items(self, items: Sequence[Item], keep: bool = True) -> None:
        old = self.current()
        self.items = list(items[: self.capacity])
        legal = [i for i, item in enumerate(self.items) if item.legal]
        if keep and old is not None and any(self.items[i].action == old for i in legal):
            self.cursor = next(i for i in legal if self.items[i].action == old)
        else:
            self.cursor = legal[0] if legal else 0
        self._draw()

    def _draw(self) -> None:
        active = self.has_class("-active")
        for index, chip in enumerate(self.query(Chip)):
            item = self.items[index] if index < len(self.items) else None
            chip.show(item, active and index == self.cursor)

    def set_active(self, active: bool) -> None:
        self.set_class(active, "-active")
        self._draw()

    def current(self) -> int | None:
        if 0 <= self.cursor < len(self.items) and self.items[self.cursor].legal:
            return self.items[self.cursor].action
        return None

    def move(self, step: int) -> None:
        """Move the cursor ``step`` places, skipping what may not be chosen."""
        legal = [i for i, item in enumerate(self.items) if item.legal]
        if not legal:
            return
        if abs(step) >= self.columns and len(self.items) > self.columns:
            target = self.cursor + step
            if 0 <= target < len(self.items) and self.items[target].legal:
                self.cursor = target
                self._draw()
            return
        position = legal.index(self.cursor) if self.cursor in legal else 0
        self.cursor = legal[(position + (1 if step > 0 else -1)) % len(legal)]
        self._draw()

    def point_at(self, action: int) -> None:
        for index, item in enumerate(self.items):
            if item.action == action and item.legal:
                self.cursor = index
                self._draw()
