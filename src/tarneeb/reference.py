"""The rules reference for people, generated from :class:`~tarneeb.rules.Rules` itself.

Every sentence is a message of the core catalogue (:mod:`tarneeb.i18n`), in
English, Arabic, Spanish, Dutch or Russian, chosen and filled from the
options' values, and every scoring example is worked out by the engine (see
:mod:`tarneeb.howto`), so the reference cannot drift from the rules played.
``docs/rules.md`` is :func:`reference_markdown` in English; ``tarneeb rules
NAME [--lang LANG]`` prints :func:`describe_rules`. Pure text: no I/O here.

>>> from tarneeb.presets import find_rules
>>> text = describe_rules(find_rules("lebanese31"))
>>> print(text.splitlines()[0])
# Tarneeb rules: lebanese31
>>> "each player may bid only once" in " ".join(text.split())
True
>>> text = describe_rules(find_rules("classic").replace(target=61), "classic")
>>> "Changed from the classic preset: target = 61 (classic: 41)." in " ".join(text.split())
True
>>> print(describe_rules(find_rules("egyptian"), lang="ru").splitlines()[0])
# Правила тарниба: egyptian
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Sequence

from tarneeb.howto import topics
from tarneeb.i18n import DEFAULT_LANGUAGE, Translator, translator
from tarneeb.presets import DEFAULT_PRESET, PRESETS, preset_name
from tarneeb.rules import Rules
from tarneeb.summaries import preset_summary

__all__ = [
    "SOURCES",
    "choice_doc",
    "describe_game",
    "describe_rules",
    "format_option_value",
    "option_sources",
    "reference_markdown",
]

_WIDTH = 78

#: The written sources of the rules, by the key of their messages, with the
#: tokens by which :meth:`Rules.option_doc` names them.
SOURCES: tuple[tuple[str, str], ...] = (("es", "000"), ("nl", "002"), ("ru", "003"))
_SOURCE_OF_TOKEN = {token: key for key, token in SOURCES}


# -- small helpers --------------------------------------------------------------------


def choice_doc(option: str, value: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """What one reading of an option with named choices means, in ``lang``.

    >>> choice_doc("made", "bid")
    'declarers score their bid: bid 8, take 9, score 8'

    :raises KeyError: when the reading has no message (a new choice must be
        described in every catalogue before the reference can be generated).
    """
    return translator(lang)(f"reading.{option}.{value}")


def option_sources(option: str) -> tuple[str, ...]:
    """The keys of the written sources an option comes from (``()`` for the apps' options).

    >>> option_sources("weak_redeal")
    ('ru',)

    :raises KeyError: for a source the reference does not know.
    """
    _, tokens = Rules.option_doc(option)
    return tuple(_SOURCE_OF_TOKEN.get(token, token) for token in tokens.split())


def _sources_text(option: str, tr: Translator) -> str:
    keys = option_sources(option)
    return ", ".join(tr(f"source.{key}.short") for key in keys) if keys else "-"


def format_option_value(value: object) -> str:
    """An option's plain value (as :meth:`Rules.to_dict` gives it) as text for people.

    It is also what ``tarneeb rules NAME -o option=VALUE`` accepts.

    >>> format_option_value(None), format_option_value(True), format_option_value("4-4-5")
    ('none', 'true', '4-4-5')
    >>> format_option_value([[0, 2, 11], [30, 3, 12]])
    '[[0,2,11],[30,3,12]]'
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def _wrap(text: str, indent: str = "") -> str:
    """Fill ``text`` to the width, never breaking a line inside a `code span`."""
    kept = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), text)
    filled = textwrap.fill(
        kept,
        width=_WIDTH,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return filled.replace("\0", " ")


def _bullet(label: str, text: str) -> str:
    return _wrap(f"- {label}: {text}", indent="  ")


def _paragraph(text: str) -> str:
    return _wrap(text)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], pad: bool = True) -> list[str]:
    """A Markdown table; with ``pad``, every column but the last is padded to read in a terminal."""
    last = len(header) - 1
    widths = [
        max(len(header[i]), *(len(r[i]) for r in rows)) if pad and i < last else 0
        for i in range(len(header))
    ]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (max(w, len(h)) + 2) for h, w in zip(header, widths, strict=True))
    return [line(header), rule + "|", *(line(r) for r in rows)]


def _differences(rules: Rules, base: Rules) -> list[tuple[str, str, str]]:
    """(option, value here, value in ``base``) for every option that differs."""
    ours, theirs = rules.to_dict(), base.to_dict()
    return [
        (name, format_option_value(ours[name]), format_option_value(theirs[name]))
        for name in Rules.option_names()
        if ours[name] != theirs[name]
    ]


def _game_lines(rules: Rules, tr: Translator) -> list[str]:
    return [_bullet(label, text) for label, text in topics(rules, tr)]


# -- the public texts -----------------------------------------------------------------


def describe_game(rules: Rules, name: str | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    """How to play under ``rules``, for players: the page a client shows to learn the game.

    The preset's summary, then how the game goes, topic by topic, in plain words
    of ``lang``; none of :func:`describe_rules`' option names, values or
    commands, which are for whoever sets rules up, not for players, and the
    page's own title says which game it is.

    :raises LanguageError: for a language without a catalogue.

    >>> from tarneeb.presets import find_rules
    >>> text = describe_game(find_rules("egyptian"), lang="ar")
    >>> "## كيف تسير اللعبة" in text.splitlines()
    True
    >>> "min_bid" in text or "tarneeb" in text
    False
    """
    tr = translator(lang)
    if name is None:
        name = preset_name(rules)
    key = "" if name is None else name.strip().lower()
    lines = [_paragraph(preset_summary(key, rules, lang)), ""] if key in PRESETS else []
    lines += [f"## {tr('heading.game')}", "", *_game_lines(rules, tr)]
    return "\n".join(lines) + "\n"


def describe_rules(rules: Rules, name: str | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The reference for people of one set of rules: what ``tarneeb rules NAME`` prints.

    The preset's name and summary (written from the options' values), the
    options changed from it, how the game goes under these rules in plain
    words, then every option with its value, all in ``lang``. ``name`` is the
    preset the rules were made from (found with
    :func:`~tarneeb.presets.preset_name` when not given); rules that are no
    preset are described as changes from the default preset.

    :raises LanguageError: for a language without a catalogue.
    """
    tr = translator(lang)
    if name is None:
        name = preset_name(rules)
    key = "" if name is None else name.strip().lower()
    is_preset = key in PRESETS
    base_name = key if is_preset else DEFAULT_PRESET
    base = PRESETS[base_name]
    title = base_name if is_preset else (name or tr("describe.custom"))
    lines = [tr("describe.title", title=title), ""]
    if is_preset:
        lines += [_paragraph(preset_summary(base_name, rules, lang)), ""]
    changes = [
        tr("describe.change", option=o, value=v, preset=base_name, was=b)
        for o, v, b in _differences(rules, base)
    ]
    if changes:
        text = tr("describe.changed", preset=base_name, changes=tr("sep.items").join(changes))
        lines += [_paragraph(text), ""]
    lines += [f"## {tr('heading.game')}", "", *_game_lines(rules, tr), ""]
    lines += [f"## {tr('heading.options')}", ""]
    plain = rules.to_dict()
    lines += _table(
        [tr("column.option"), tr("column.value")],
        [[option, format_option_value(plain[option])] for option in Rules.option_names()],
    )
    lines += ["", _paragraph(tr("describe.change-any", preset=base_name))]
    return "\n".join(lines) + "\n"


def _section_head(heading: str, intro: str) -> list[str]:
    """A section's heading and its opening paragraph, each followed by a blank line."""
    return [f"## {heading}", "", _paragraph(intro), ""]


def _sources_section(tr: Translator) -> list[str]:
    rows = [
        [tr(f"source.{key}.short"), tr(f"source.{key}.title"), _cell(tr(f"source.{key}.covers"))]
        for key, _ in SOURCES
    ]
    return [
        *_section_head(tr("heading.sources"), tr("reference.sources")),
        *_table([tr("column.source"), tr("column.title"), tr("column.covers")], rows),
        "",
        _paragraph(tr("reference.sources.apps")),
    ]


def _presets_section(tr: Translator, lang: str) -> list[str]:
    classic = PRESETS[DEFAULT_PRESET]
    out = [
        *_section_head(tr("heading.presets"), tr("reference.presets", default=DEFAULT_PRESET)),
        *_table(
            [tr("column.preset"), tr("column.summary")],
            [[f"`{name}`", _cell(preset_summary(name, r, lang))] for name, r in PRESETS.items()],
        ),
    ]
    for name, rules in PRESETS.items():
        out += ["", f"### {name}", "", _paragraph(preset_summary(name, rules, lang)), ""]
        changes = _differences(rules, classic)
        if name == DEFAULT_PRESET:
            out += [_paragraph(tr("reference.preset.default")), ""]
        elif changes:
            out += [
                _paragraph(tr("reference.preset.changed", default=DEFAULT_PRESET)),
                "",
                *(_bullet(f"`{o}`", f"`{v}` ({DEFAULT_PRESET}: `{b}`)") for o, v, b in changes),
                "",
            ]
        out += [_paragraph(tr("reference.preset.game")), "", *_game_lines(rules, tr)]
    return out


def _options_section(tr: Translator) -> list[str]:
    out = _section_head(tr("heading.options"), tr("reference.options", default=DEFAULT_PRESET))
    plain = PRESETS[DEFAULT_PRESET].to_dict()
    rows = []
    for option in Rules.option_names():
        choices = Rules.option_choices(option)
        rows.append(
            [
                f"`{option}`",
                f"`{format_option_value(plain[option])}`",
                ", ".join(f"`{c}`" for c in choices) if choices else "",
                _cell(tr(f"option.{option}")),
                _sources_text(option, tr),
            ]
        )
    header = [
        tr("column.option"),
        DEFAULT_PRESET,
        tr("column.readings"),
        tr("column.sets"),
        tr("column.sources"),
    ]
    out += _table(header, rows, pad=False)
    out += ["", f"### {tr('heading.readings')}", ""]
    for option in Rules.option_names():
        choices = Rules.option_choices(option)
        if not choices:
            continue
        out += [f"`{option}`:", ""]
        out += [_bullet(f"`{c}`", _reading_text(option, c, tr)) for c in choices]
        out += [""]
    return out


def _reading_text(option: str, value: str, tr: Translator) -> str:
    """What a reading means, and the note on it where there is one (``note.OPTION.VALUE``)."""
    text = tr(f"reading.{option}.{value}")
    if Rules.option_spec(option).reading(value).note:
        text += ". " + tr(f"note.{option}.{value}")
    return text


def reference_markdown(lang: str = DEFAULT_LANGUAGE) -> str:
    """The whole rules reference, ``docs/rules.md`` in English: the game, every preset and option.

    Regenerate the file with ``python -m tarneeb.cli rules --markdown > docs/rules.md``.

    :raises LanguageError: for a language without a catalogue.
    """
    tr = translator(lang)
    out = [
        f"# {tr('reference.title')}",
        "",
        "<!-- Generated from the code: python -m tarneeb.cli rules --markdown > docs/rules.md",
        "     Do not edit by hand; tests/test_reference.py checks that it is up to date. -->",
        "",
        _paragraph(tr("reference.intro")),
        "",
        *_section_head(tr("heading.core"), tr("reference.core")),
        *(_bullet(tr(f"topic.{topic}"), tr(f"core.{topic}")) for topic in _CORE),
        "",
        _paragraph(tr("reference.varies")),
        "",
        *_sources_section(tr),
        "",
        *_presets_section(tr, lang),
        "",
        *_options_section(tr),
        f"## {tr('heading.changing')}",
        "",
        _paragraph(tr("reference.changing")),
        "",
        "```",
        "tarneeb rules classic -o target=31 -o bid_once=true",
        "tarneeb rules egyptian -o double_factor=4 --json",
        "tarneeb rules egyptian --lang ar",
        "```",
        "",
        _paragraph(tr("reference.changing.python")),
    ]
    return "\n".join(out) + "\n"


#: The topics of the common core, in order (their messages are ``core.TOPIC``).
_CORE = ("players", "cards", "direction", "first-hand", "auction", "trump", "play", "scoring")
