"""The pages that open over the table: text, questions, the rules as Markdown.

Each closes with Escape (and ``q``); a page may offer more keys (``keys``),
e.g. ``s`` for the score sheet over the match's end or ``v`` for the review
of a deal over its summary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from tarneeb.i18n import DEFAULT_LANGUAGE, translator
from tarneeb.reference import describe_rules
from tarneeb.rules import Rules

__all__ = ["QuestionScreen", "RulesScreen", "TextScreen", "rules_markdown"]

Extra = Mapping[str, tuple[str, Callable[[], None]]]
"""More keys of a page: key -> (what the key line says, what it does)."""


def _keys_line(base: str, keys: Extra) -> Text:
    parts = [label for label, _ in keys.values()]
    return Text("  ".join([*parts, base]), style="dim")


class _Page(ModalScreen[None]):
    """A page over the table whose body scrolls (Space, Page Up/Down, arrows)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space,pagedown", "page_down", "scroll", show=False),
        Binding("pageup", "page_up", "scroll", show=False),
        Binding("down", "scroll_by(1)", "scroll", show=False),
        Binding("up", "scroll_by(-1)", "scroll", show=False),
    ]

    def _body(self) -> VerticalScroll:
        return self.query_one("#dialog-body", VerticalScroll)

    def action_page_down(self) -> None:
        self._body().scroll_page_down(animate=False)

    def action_page_up(self) -> None:
        self._body().scroll_page_up(animate=False)

    def action_scroll_by(self, lines: int) -> None:
        self._body().scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class TextScreen(_Page):
    """A scrollable page of text (help, score sheet, last trick, deal summary).

    Enter, Escape or ``q`` close it; Space and the arrows scroll it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q", "close", "close"),
    ]

    def __init__(
        self,
        title: str,
        body: Text | str,
        name: str = "text",
        note: str = "",
        keys: Extra | None = None,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        super().__init__(name=name)
        self.title_text = title
        self.body = body
        self.note = note
        self.keys = dict(keys or {})
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(self.body, markup=False, id="dialog-text")
                yield Static(Text(self.note), id="dialog-note")
            yield Static(
                _keys_line(translator(self.lang)("tui.page.close"), self.keys), id="dialog-keys"
            )

    def set_note(self, note: str) -> None:
        """Show ``note`` under the text (e.g. the double-dummy line, once solved)."""
        self.note = note  # read by compose, if it has not run yet
        for widget in self.query("#dialog-note").results(Static):
            widget.update(Text(note))

    def on_key(self, event: events.Key) -> None:
        key = (event.character or "").lower() if event.is_printable else event.key
        if key in self.keys:
            event.stop()
            self.keys[key][1]()


class QuestionScreen(ModalScreen[bool]):
    """A yes/no question, answered by a key.

    The first word of ``yes`` (and Enter, with ``enter_is_yes``) answers True;
    the first word of ``no``, and Escape, answer False. ``keys`` are more keys
    that do something without answering (e.g. ``s`` shows the score sheet).
    """

    def __init__(
        self,
        title: str,
        body: str,
        yes: str,
        no: str,
        name: str,
        enter_is_yes: bool = False,
        keys: Extra | None = None,
    ) -> None:
        super().__init__(name=name)
        self.title_text = title
        self.body = body
        self.yes = yes
        self.no = no
        self.yes_keys = {yes.split()[0], *(("enter",) if enter_is_yes else ())}
        self.no_keys = {no.split()[0], "escape"}
        self.keys = dict(keys or {})

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            yield Static(Text(self.body), id="dialog-text")
            line = Text(f"{self.yes} / {self.no}", style="bold")
            extra = [label for label, _ in self.keys.values()]
            if extra:
                line.append("   " + "  ".join(extra), style="dim")
            yield Static(line, id="dialog-keys")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        key = (event.character or "").lower() if event.is_printable else event.key
        if event.key in self.yes_keys or key in self.yes_keys:
            self.dismiss(True)
        elif event.key in self.no_keys or key in self.no_keys:
            self.dismiss(False)
        elif key in self.keys:
            self.keys[key][1]()


def rules_markdown(rules: Rules, name: str | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules reference of ``rules`` for the screen: the game in words, without the
    table of every option (most of which do not apply) or how to change them in Python.

    >>> from tarneeb import find_rules
    >>> text = rules_markdown(find_rules("classic"), "classic")
    >>> text.startswith("# Tarneeb rules: classic"), "| option" in text, "Python" in text
    (True, False, False)
    """
    reference = describe_rules(rules, name, lang)
    head, *sections = reference.split("\n## ")
    kept = [head.rstrip()]
    for section in sections:
        if "\n| " in section or "\n|-" in section:
            continue  # the options table and the note under it
        kept.append("## " + section.rstrip())
    return "\n\n".join(kept) + "\n"


class RulesScreen(_Page):
    """The rules of the match, rendered as Markdown; Escape or ``q`` closes, Space scrolls."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "close"),
    ]

    def __init__(self, markdown: str, lang: str = DEFAULT_LANGUAGE) -> None:
        super().__init__(name="rules")
        self.markdown = markdown
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="-tall"):
            tr = translator(self.lang)
            yield Static(Text(tr("tui.rules.title"), style="bold"), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Markdown(self.markdown, id="rules-text")
            yield Static(Text(tr("tui.rules.keys"), style="dim"), id="dialog-keys")
