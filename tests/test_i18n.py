"""Text for players in their languages: one catalogue format, complete in every language.

One catalogue (tarneeb/i18n/LANG.json: the rules reference, preset summaries,
tarneeb play, and the browser's web.* block, served to the page as
/i18n/LANG.json) in one format, read by one loader; every language has every message with the
same placeholders; every option and reading of Rules, found at test time, has
its messages; no player-facing text calls the sources "seeds".
"""

from __future__ import annotations

import dataclasses
import enum
import io
import json
import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from support import PRESET_NAMES, ROOT
from tarneeb import Rules, find_rules
from tarneeb.cli import main
from tarneeb.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    RIGHT_TO_LEFT,
    LanguageError,
    accept_language,
    browser_catalogue,
    core_catalogue,
    fill,
    find_language,
    placeholders,
    read_catalogue,
    translator,
)
from tarneeb.options import IntOption, OptionSpec, Reading
from tarneeb.presets import PRESET_SUMMARIES, PRESETS
from tarneeb.reference import (
    SOURCES,
    describe_game,
    describe_rules,
    option_sources,
    reference_markdown,
)
from tarneeb.summaries import preset_summary

OTHERS = [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE]


def catalogues() -> dict[str, dict[str, dict[str, str]]]:
    """The catalogue, and the part of it the browser reads, by name then language."""
    return {
        "core": {lang: dict(core_catalogue(lang)) for lang in LANGUAGES},
        "browser": {lang: dict(browser_catalogue(lang)) for lang in LANGUAGES},
    }


# -- one format, complete in every language --------------------------------------------


@pytest.mark.parametrize("name", ["core", "browser"])
@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_every_message_and_no_other(name: str, lang: str) -> None:
    books = catalogues()[name]
    english, other = books[DEFAULT_LANGUAGE], books[lang]
    assert sorted(set(english) - set(other)) == [], f"{lang} lacks messages"
    assert sorted(set(other) - set(english)) == [], f"{lang} has messages English lacks"


@pytest.mark.parametrize("name", ["core", "browser"])
@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_has_the_placeholders_of_the_english(name: str, lang: str) -> None:
    books = catalogues()[name]
    wrong = {
        key: (sorted(placeholders(text)), sorted(placeholders(books[lang][key])))
        for key, text in books[DEFAULT_LANGUAGE].items()
        if placeholders(text) != placeholders(books[lang][key])
    }
    assert wrong == {}


# Messages that read the same in every language: formatting, names and numbers.
SAME_EVERYWHERE = {
    "sep.items",
    "summary",
    "describe.change",
    "game.value",
    "web.app.title",
    "web.app.name",
    "web.home.title",
    "web.home.seat.bot",
    "web.players.rating.value",  # placeholders and the Greek mu and sigma only
    "web.preset.tarneeb61",
    "web.seat.points",
}
# Words the language shares with English.
SAME_WORD = {
    ("nl", "web.players.board.rating"),  # Dutch says "rating" too (KNSB-rating)
    ("es", "topic.sets"),
    ("nl", "topic.sets"),
    ("nl", "topic.partners"),
    ("es", "tui.sheet.individual"),
    ("es", "tui.header.set"),
    ("nl", "tui.header.set"),
    ("nl", "tui.seat.west"),
    ("nl", "tui.status.contract"),
    ("nl", "tui.sheet.contract"),
    ("nl", "tui.seat.partner"),
    ("es", "web.preset.original"),
    ("es", "web.chat.title"),
    ("nl", "web.chat.title"),
    ("nl", "web.seat.west"),
    ("nl", "web.seat.partner"),
    ("nl", "web.info.contract"),
    ("nl", "web.fair.details"),
    ("nl", "web.banner.offline"),
    ("nl", "web.conn.offline"),
    ("es", "web.pace.normal"),
    ("es", "web.sheet.total"),
    ("nl", "web.level.expert"),
    ("nl", "web.react.sorry"),
    ("nl", "web.sheet.contract"),
}


@pytest.mark.parametrize("lang", OTHERS)
def test_no_core_message_is_left_in_english(lang: str) -> None:
    english, other = core_catalogue("en"), core_catalogue(lang)
    untranslated = [
        key
        for key, text in english.items()
        if key not in SAME_EVERYWHERE
        and (lang, key) not in SAME_WORD
        and other[key] == text
        and re.search("[a-z]{3}", text)
    ]
    assert untranslated == []


def test_catalogues_are_flat_json_objects_of_strings_in_utf8() -> None:
    folder = resources.files("tarneeb.i18n")
    for lang in LANGUAGES:
        raw = (folder / f"{lang}.json").read_bytes()
        data = json.loads(raw.decode("utf-8"))
        assert isinstance(data, dict) and data
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())


def test_there_is_one_catalogue() -> None:
    """The browser's messages live in the package's catalogue (its web.* block), not
    in a second set of files beside the page."""
    static = ROOT / "src/tarneeb/server/static"
    assert not list(static.rglob("*.json")), "a second catalogue beside the page"
    english = browser_catalogue("en")
    assert english["call.pass"] == "Pass" and english["strain.hearts"] == "hearts"
    assert not [k for k in english if k.startswith(("tui.", "game.", "topic."))]


def test_the_browser_offers_the_languages_the_core_has() -> None:
    script = (ROOT / "src/tarneeb/server/static/js/i18n.js").read_text(encoding="utf-8")
    offered = re.findall(r'\{ code: "(\w+)", name: "[^"]+", dir: "(\w+)" \}', script)
    assert offered == [(lang, "rtl" if lang in RIGHT_TO_LEFT else "ltr") for lang in LANGUAGES]


def test_read_catalogue_refuses_a_nested_catalogue(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text('{"a": {"b": "c"}}', encoding="utf-8")
    with pytest.raises(ValueError, match="flat object of string messages"):
        read_catalogue(tmp_path, "en")  # type: ignore[arg-type]


def test_fill_follows_the_browser_convention() -> None:
    # i18n.js: text.replace(/\{(\w+)\}/g, ...): the same placeholders, the same names.
    assert fill("{a} and {b_2}", {"a": 1, "b_2": "x"}) == "1 and x"
    assert placeholders("no {place holder} here, {one}") == {"one"}
    with pytest.raises(KeyError):
        fill("{missing}", {})


# -- every option, reading, preset and source of the rules has its messages --------------


def _enum_fields() -> dict[str, list[str]]:
    """Each Rules field whose value is an enum, with the plain names of all its members."""
    rules = Rules()
    out = {}
    for field in dataclasses.fields(Rules):
        value = getattr(rules, field.name)
        if isinstance(value, enum.Enum):
            choices = Rules.option_choices(field.name)
            assert choices is not None, f"{field.name} is an enum without named readings"
            assert len(choices) == len(type(value)), field.name
            out[field.name] = list(choices)
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_option_of_rules_has_its_message(lang: str) -> None:
    messages = core_catalogue(lang)
    missing = [f.name for f in dataclasses.fields(Rules) if f"option.{f.name}" not in messages]
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reading_of_every_option_has_its_message(lang: str) -> None:
    messages = core_catalogue(lang)
    fields = _enum_fields()
    assert {"dealing", "bidding", "defenders", "doubling"} <= set(fields)
    missing = [
        f"reading.{option}.{choice}"
        for option, choices in fields.items()
        for choice in choices
        if f"reading.{option}.{choice}" not in messages
    ]
    assert missing == []
    # and no message for a reading that does not exist
    known = {f"reading.{o}.{c}" for o, cs in fields.items() for c in cs}
    assert {k for k in messages if k.startswith("reading.")} == known


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_for_an_option_that_does_not_exist(lang: str) -> None:
    fields = {f"option.{f.name}" for f in dataclasses.fields(Rules)}
    options = {k for k in core_catalogue(lang) if k.startswith("option.")}
    assert options == fields


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_preset_and_source_has_its_messages(lang: str) -> None:
    messages = core_catalogue(lang)
    for name in PRESETS:
        assert f"preset.{name}.tradition" in messages, name
    cited = {key for option in Rules.option_names() for key in option_sources(option)}
    assert cited <= {key for key, _ in SOURCES}, "an option cites a source the reference lacks"
    for key, _ in SOURCES:
        for part in ("short", "title", "covers"):
            assert f"source.{key}.{part}" in messages


def test_every_spec_text_is_read_from_the_english_catalogue() -> None:
    """One place per concept: an option's spec keeps its kind, parsing, readings and
    sources; what the option and its readings mean is the catalogue's English message."""
    english = core_catalogue(DEFAULT_LANGUAGE)
    readings = set()
    for name in Rules.option_names():
        spec = Rules.option_spec(name)
        assert spec.doc == english[f"option.{name}"] == Rules.option_doc(name)[0]
        for reading in spec.readings:
            readings.add(f"{name}.{reading.value}")
            assert reading.doc == english[f"reading.{name}.{reading.value}"]
            assert reading.note == english.get(f"note.{name}.{reading.value}", "")
    # the spec holds no text of its own to drift from the catalogue
    assert not {"doc", "note"} & {f.name for f in dataclasses.fields(OptionSpec)}
    assert not {"doc", "note"} & {f.name for f in dataclasses.fields(Reading)}
    # and every note belongs to a reading that exists
    notes = {k.removeprefix("note.") for k in english if k.startswith("note.")}
    assert notes and notes <= readings
    with pytest.raises(KeyError):
        _ = IntOption().doc  # an option not in Rules has no text


# -- the reference in every language ------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_describe_every_preset_in_every_language(lang: str, name: str) -> None:
    tr = translator(lang)
    rules = find_rules(name)
    text = describe_rules(rules, name, lang)
    assert text.startswith(tr("describe.title", title=name) + "\n\n")
    flat = " ".join(text.split())
    assert " ".join(preset_summary(name, rules, lang).split()) in flat
    assert f"\n## {tr('heading.game')}\n" in text
    assert f"\n- {tr('topic.auction')}: " in text
    assert f"\n- {tr('topic.winning')}: " in text
    for option in Rules.option_names():
        assert f"\n| {option} " in text, option
    assert "{" not in text.replace("[{", "").replace('{"', "")


def test_arabic_reference_is_arabic_and_uses_the_games_terms() -> None:
    text = describe_rules(find_rules("egyptian"), "egyptian", "ar")
    # The options table holds the options' names and values, which are the same in every
    # language (they are what -o takes): the prose around it is what must be Arabic.
    prose = "\n".join(line for line in text.splitlines() if not line.startswith("|"))
    letters = [c for c in prose if c.isalpha()]
    arabic = [c for c in letters if "\u0600" <= c <= "\u06ff"]
    assert len(arabic) > 0.9 * len(letters)
    for term in ("الطرنيب", "باس", "أكلة", "الموزّع", "سباتي < ديناري < كبة < بستوني < صول"):
        assert term in text, term
    assert "ar" in RIGHT_TO_LEFT


@pytest.mark.parametrize(
    ("lang", "phrase"),
    [
        ("en", "strains rank clubs < diamonds < hearts < spades < no-trump"),
        ("es", "tréboles < diamantes < corazones < picas < sin triunfo"),
        ("nl", "klaveren < ruiten < harten < schoppen < zonder troef"),
        ("ru", "трефы < бубны < черви < пики < без козыря"),
    ],
)
def test_the_egyptian_strains_are_named_in_each_language(lang: str, phrase: str) -> None:
    text = " ".join(describe_rules(find_rules("egyptian"), lang=lang).split())
    assert phrase in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_auction_names_the_ladder_played_in_each_language(lang: str) -> None:
    # 003: «каждая последующая ставка помимо смены масти, должна быть в количественном
    # отношении выше, чем предыдущая» (the egyptian preset); the apps' ladder on request.
    tr = translator(lang)
    egyptian = find_rules("egyptian")
    for rules in (egyptian, egyptian.replace(ladder="number-or-strain")):
        text = " ".join(describe_rules(rules, lang=lang).split())
        assert tr(f"game.ladder.{rules.ladder.value}") in text, rules.ladder
        other = (
            "number-or-strain" if rules.ladder.value == "strain-and-number" else "strain-and-number"
        )
        assert tr(f"game.ladder.{other}") not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_whole_reference_exists_in_every_language(lang: str) -> None:
    tr = translator(lang)
    text = reference_markdown(lang)
    assert text.startswith(f"# {tr('reference.title')}\n")
    for name in PRESET_NAMES:
        assert f"\n### {name}\n" in text
    for key, _ in SOURCES:
        assert tr(f"source.{key}.title") in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_kabsh_for_either_side_is_described_in_every_language(lang: str) -> None:
    """000: «un bono de "kabsh" (capot) cuando una pareja gana las 13 bazas sin haberlo
    reclamado de antemano»: the defenders' kabsh is told, with the engine's score."""
    tr = translator(lang)
    original = find_rules("original")
    either = tr("game.thirteen.kabsh-either", score="+16")
    assert either not in " ".join(describe_rules(original, lang=lang).split())
    text = " ".join(describe_rules(original.replace(kabsh_side="either"), lang=lang).split())
    assert either in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_both_below_zero_readings_are_described_in_every_language(lang: str) -> None:
    """002: «Een team kan niet winnen als hun huidige score lager is dan 0»: the score
    before the deal or after it, each reading told in its own words."""
    tr = translator(lang)
    sets = find_rules("levant-sets")

    def text(rules: Rules) -> str:
        return " ".join(describe_rules(rules, lang=lang).split())

    before = text(sets.replace(no_win_below_zero="before-deal"))
    assert tr("game.winning.thirteen.any.before-deal") in before
    assert tr("game.winning.before-deal") in before
    after = text(sets.replace(no_win_below_zero="after-deal"))
    assert tr("game.winning.thirteen.any.after-deal") in after
    assert tr("game.winning.before-deal") not in after
    # without 13 tricks winning, the before-deal reading still stops a win at the target
    classic = text(find_rules("classic").replace(target=11, no_win_below_zero="before-deal"))
    assert tr("game.winning.before-deal") in classic
    assert tr("game.winning.before-deal") not in text(sets)


def test_unknown_language_is_a_typed_error_listing_the_languages() -> None:
    for call in (
        lambda: describe_rules(Rules(), lang="fr"),
        lambda: reference_markdown("fr"),
        lambda: preset_summary("classic", Rules(), "fr"),
    ):
        with pytest.raises(LanguageError, match=r"no language 'fr'; the languages are: en, ar"):
            call()


def test_find_language_takes_tags_and_case() -> None:
    assert [find_language(c) for c in ("ar", "AR", "ar-LB", "es_419", " nl ")] == [
        "ar",
        "ar",
        "ar",
        "es",
        "nl",
    ]


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ru-RU,ru;q=0.9,en-US;q=0.8", "ru"),
        ("fr-FR, nl;q=0.5, ar;q=0.7", "ar"),
        ("de, *;q=0.1", None),
        ("es;q=0, en", "en"),
        ("ar;q=bad, nl", "nl"),
        ("", None),
        (None, None),
    ],
)
def test_accept_language_picks_the_best_language_we_have(header: str | None, lang: str) -> None:
    assert accept_language(header) == lang


# -- summaries follow the options ---------------------------------------------------------


def test_summary_follows_the_target_set() -> None:
    rules = find_rules("classic").replace(target=31)
    summary = preset_summary("classic", rules)
    assert "to 31" in summary and "41" not in summary
    text = describe_rules(rules, "classic")
    paragraph = " ".join(text.split("\n\n")[1].split())
    assert paragraph == summary and paragraph.startswith("The Levant classic: to 31, ")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_egyptian_summary_says_double_or_quadruple_as_the_factor_is(lang: str) -> None:
    # Seed 003: «очки за данную ставку будут удвоены» ... «Иногда ... не удваиваются, а
    # учетверяются»: the raise doubles, or in some groups quadruples.
    tr = translator(lang)
    egyptian = find_rules("egyptian")
    double = preset_summary("egyptian", egyptian, lang)
    quadruple = preset_summary("egyptian", egyptian.replace(double_factor=4), lang)
    assert tr("factor.2") in double and tr("factor.4") not in double
    assert tr("factor.4") in quadruple and tr("factor.2") not in quadruple
    odd = preset_summary("egyptian", egyptian.replace(double_factor=5), lang)
    assert tr("factor.n", factor=5) in odd


# Each case: options changed on a preset, and the English fact the summary then states.
SUMMARY_FACTS: list[tuple[str, dict[str, Any], str]] = [
    ("classic", {"bid_once": True}, "each player bids only once"),
    ("classic", {"no_trump": True}, "no-trump bids beat suit bids of the same number"),
    ("classic", {"kabsh": 20}, "all 13 taken without bidding 13 scores 20"),
    ("classic", {"thirteen_wins": "any"}, "13 tricks win the set"),
    ("classic", {"sets": 3}, "a match of 3 sets"),
    ("classic", {"all_pass": "dealer-bids"}, "the dealer must bid when the other three pass"),
    (
        "classic",
        {"defenders": "shortfall"},
        "a failed contract loses the bid and gives the defenders the shortfall",
    ),
    ("classic", {"made": "bid"}, "a made contract scores the bid only"),
    (
        "classic",
        {"doubling": "double", "double_factor": 4},
        "an opponent of the highest bidder may double, for quadruple stakes",
    ),
    ("original", {"bid13_made": 32}, "13 bid and made scores 32"),
    ("syrian400", {"target": 61}, "The 400 of the apps: to 61, "),
    ("syrian400", {"fixed_trump": "spades"}, "own tricks, spades always trump"),
    ("classic", {"kabsh": 16, "kabsh_side": "either"}, "scores 16, for either side"),
    (
        "levant-sets",
        {"no_win_below_zero": "before-deal"},
        "a side below zero before a deal cannot win in it",
    ),
    ("levant-sets", {"no_win_below_zero": "after-deal"}, "a side below zero cannot win"),
]


@pytest.mark.parametrize(("preset", "changes", "fact"), SUMMARY_FACTS)
def test_summary_states_the_facts_of_the_options(
    preset: str, changes: dict[str, Any], fact: str
) -> None:
    base = find_rules(preset)
    assert fact not in preset_summary(preset, base)
    assert fact in preset_summary(preset, base.replace(**changes))


def test_preset_summaries_are_the_english_summaries_of_the_presets() -> None:
    assert dict(PRESET_SUMMARIES) == {n: preset_summary(n, r) for n, r in PRESETS.items()}


# -- nothing a player reads calls the sources "seeds" -------------------------------------

# The word in each language (the browser's fair-shuffle check once used these for its
# key), and the sources' file numbers.
SEED_WORDS = re.compile(r"seed|semilla|zaad|зерн|بذر|\b00[0-3]\b", re.IGNORECASE)


def _player_texts() -> dict[str, str]:
    texts = {"docs/rules.md": (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")}
    for lang in LANGUAGES:
        texts[f"reference {lang}"] = reference_markdown(lang)
        for name, rules in PRESETS.items():
            texts[f"{name} {lang}"] = describe_rules(rules, name, lang)
        for name, book in catalogues().items():
            texts[f"{name} catalogue {lang}"] = "\n".join(book[lang].values())
    texts["PRESET_SUMMARIES"] = "\n".join(PRESET_SUMMARIES.values())
    return texts


def test_no_player_text_says_seed() -> None:
    found = {where: SEED_WORDS.findall(text) for where, text in _player_texts().items()}
    assert {where: words for where, words in found.items() if words} == {}


def test_the_seed_check_finds_what_it_looks_for() -> None:
    for text in ("Seed 000's rules", "seed 003's game", "la semilla", "зерно", "البذرة"):
        assert SEED_WORDS.search(text), text
    assert not SEED_WORDS.search("Tarneeb 400, bids of 60 to 120, 1000 deals")


# -- the command line and the server --------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> tuple[str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == status, (code, out, err)
    return out, err


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cli_rules_lang_prints_the_reference_in_that_language(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    out, err = run(capsys, "rules", "egyptian", "--lang", lang)
    assert out == describe_rules(find_rules("egyptian"), "egyptian", lang)
    assert err == ""
    out, _ = run(capsys, "rules", "classic", "-o", "target=31", "--lang", lang)
    assert out == describe_rules(find_rules("classic").replace(target=31), "classic", lang)
    out, _ = run(capsys, "rules", "--markdown", "--lang", lang)
    assert out == reference_markdown(lang)


def test_cli_rules_without_lang_is_english(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, "rules", "saudi")
    assert out == describe_rules(find_rules("saudi"), "saudi", "en")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["rules", "egyptian", "--lang", "xx"],
            "tarneeb: error: no language 'xx'; the languages are: en, ar, es, nl, ru\n",
        ),
        (["rules", "--list", "--lang", "ar"], "tarneeb: error: --list cannot go with --lang\n"),
        (
            ["rules", "classic", "--json", "--lang", "ar"],
            "tarneeb: error: --json cannot go with --lang (the options have no language)\n",
        ),
    ],
)
def test_cli_rules_lang_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    out, err = run(capsys, *argv, status=2)
    assert out == "" and err == message


def test_cli_writes_arabic_as_utf8_to_a_stream_that_cannot_hold_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="cp1252")
    monkeypatch.setattr(sys, "stdout", stream)
    assert main(["rules", "egyptian", "--lang", "ar"]) == 0
    stream.flush()
    assert raw.getvalue().decode("utf-8") == describe_rules(
        find_rules("egyptian"), "egyptian", "ar"
    ).replace("\n", stream.newlines or "\n")


def test_server_serves_the_browser_its_messages_with_an_etag(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from ws_support import server

    with server(tmp_path) as client:
        answer = client.get("/i18n/ar.json")
        assert answer.status_code == 200
        assert answer.json() == dict(browser_catalogue("ar"))
        etag = answer.headers["etag"]
        again = client.get("/i18n/ar.json", headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        english = client.get("/i18n/en.json", headers={"If-None-Match": etag})
        assert english.status_code == 200 and english.headers["etag"] != etag
        assert client.get("/i18n/xx.json").status_code == 400


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_how_to_play_is_in_the_language_and_free_of_option_names(preset: str, lang: str) -> None:
    """Issue 23, item 9: "rules pages are English and full of jargon in every language"."""
    text = describe_game(PRESETS[preset], preset, lang)
    assert "## " in text and "\n- " in text
    # the option names that are no word of a language, and the setup's commands and files
    code = [o for o in Rules.option_names() if re.search(r"[_\d]", o)]
    found = [w for w in [*code, "tarneeb rules", "Rules.", "-o ", "docs/", "`", "|"] if w in text]
    assert not found, (preset, lang, found)
    if lang in ("ar", "ru"):
        latin = re.findall(r"[A-Za-z]{3,}", text)
        assert not latin, (preset, lang, latin)


def test_server_serves_the_reference_in_the_pages_language(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from ws_support import server

    egyptian = find_rules("egyptian")
    with server(tmp_path) as client:
        body = client.get("/api/rules/egyptian?lang=ar").json()
        assert (body["lang"], body["dir"]) == ("ar", "rtl")
        assert body["reference"] == describe_rules(egyptian, "egyptian", "ar")
        assert body["howto"] == describe_game(egyptian, "egyptian", "ar")
        assert body["summary"] == preset_summary("egyptian", egyptian, "ar")
        assert body["options"] == egyptian.to_dict()
        # the browser's own language when the page does not say
        answer = client.get("/api/rules/egyptian", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
        assert answer.headers["content-language"] == "ru"
        assert answer.json()["reference"] == describe_rules(egyptian, "egyptian", "ru")
        # ?lang= wins over the header; English when nothing we have is asked for
        answer = client.get("/api/rules/classic?lang=nl", headers={"Accept-Language": "ru"})
        assert answer.json()["lang"] == "nl"
        answer = client.get("/api/rules/classic", headers={"Accept-Language": "fr, de"})
        assert (answer.json()["lang"], answer.json()["dir"]) == ("en", "ltr")
        assert answer.json()["reference"] == describe_rules(find_rules("classic"), "classic")
        # a language we do not have, asked for by name: an error, not English in disguise
        answer = client.get("/api/rules/classic?lang=xx")
        assert answer.status_code == 400
        assert answer.json()["error"]["code"] == "malformed"
        assert "the languages are: en, ar, es, nl, ru" in answer.json()["error"]["message"]


def test_the_plural_categories_the_browser_checks_are_these() -> None:
    """tests/js/plural_categories.json holds plural_category for 0 to 229 in every
    language; the node test checks the browser's Intl.PluralRules against it."""
    from tarneeb.i18n import plural_category

    saved = json.loads((ROOT / "tests" / "js" / "plural_categories.json").read_text())
    assert saved == {lang: [plural_category(lang, n) for n in range(230)] for lang in LANGUAGES}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_has_other_and_only_the_languages_categories(lang: str) -> None:
    """A plural placeholder names ``other`` (a fraction's words, and the fallback) and no
    category the language does not have: a misspelt or foreign one would never be said."""
    from tarneeb.i18n import plural_category

    have = {plural_category(lang, n) for n in range(1000)} | {"other"}
    block = re.compile(r"\{\w+, plural,((?:\s*\w+\s*\{[^{}]*\})+)\s*\}")
    for key, text in core_catalogue(lang).items():
        for found in block.finditer(text):
            said = re.findall(r"(\w+)\s*\{", found.group(1))
            assert "other" in said, (key, text)
            assert set(said) <= have, (key, set(said) - have)


def reason_samples() -> list[dict[str, Any]]:
    """Reasons as the server sends them, with their text in every language: every card
    (ranks and suits are words of their own inside a reason), suits, fractions, plurals
    and a reason inside a reason."""
    from tarneeb.bots import Reason
    from tarneeb.cards import Card, Suit
    from tarneeb.server.protocol import reason_json

    reasons = [Reason("cash-master", card=Card(i)) for i in range(52)]
    reasons += [Reason("return-partner", suit=suit) for suit in Suit]
    reasons += [Reason("team-tricks", tricks=t) for t in (1.0, 2.0, 7.5, 11.0)]
    reasons += [Reason("best-set", layouts=n, percent=46, tricks=8.3) for n in (1, 2, 10, 40)]
    reasons.append(
        Reason("search-agrees", reason=Reason("partner-wins", card=Card.parse("KH")), layouts=40)
    )
    return [
        {"lang": lang, "reason": reason_json(reason), "text": reason.text(lang)}
        for lang in LANGUAGES
        for reason in reasons
    ]


def test_the_reasons_the_browser_writes_out_are_these() -> None:
    """A hint in the browser said "cobra As de diamantes, que manda" where the terminal
    says "cobra el as de diamantes, que manda": the page wrote a reason's card as a card's
    label, not in the catalogue's words for a card inside a reason. tests/js/reason_texts.json
    holds what tarneeb.bots.Reason says for each; the node test checks the page's
    reasonText says the same. To write it anew: ``python tests/test_i18n.py reasons``."""
    saved = json.loads((ROOT / "tests" / "js" / "reason_texts.json").read_text(encoding="utf-8"))
    assert saved == reason_samples()


if __name__ == "__main__" and sys.argv[1:] == ["reasons"]:
    path = ROOT / "tests" / "js" / "reason_texts.json"
    lines = ",\n".join(json.dumps(sample, ensure_ascii=False) for sample in reason_samples())
    path.write_text(f"[\n{lines}\n]\n", encoding="utf-8")


def test_counts_on_the_players_and_events_pages_take_plural_forms() -> None:
    """A look over the Arabic catalogue's counts found "ينتظر 1 آخرون", "16 أزواج" and
    "12 توزيعات" (11 and more take the singular), and English said "1 others waiting"
    and "(1 deals)"; these take the plural placeholder now."""
    en, nl, ar = translator("en"), translator("nl"), translator("ar")
    assert en("web.players.ranked.waiting", rules="X", seconds=5, others=1).endswith(
        "1 other waiting."
    )
    assert en("web.players.match.deals", count=1) == "Points per deal (1 deal)"
    assert en("web.players.claimed", count=1).startswith("1 of your guest seats is now")
    assert nl("web.players.ranked.waiting", rules="X", seconds=5, others=1).endswith(
        "nog 1 wachtende."
    )
    assert ar("web.events.registered", count=3, capacity=16) == "3 من 16 زوجًا"
    assert ar("web.events.registered", count=3, capacity=8) == "3 من 8 أزواج"
    assert ar("web.players.match.deals", count=12).endswith("(12 توزيعة)")
    assert "ينتظر لاعب آخر" in ar("web.players.ranked.waiting", rules="X", seconds=5, others=1)
