"""The rules reference: docs/rules.md is current, complete, and follows the options."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from support import PRESET_NAMES, ROOT
from tarneeb import Rules, RulesError, find_rules
from tarneeb.i18n import translator
from tarneeb.presets import PRESET_SUMMARIES, PRESETS
from tarneeb.reference import (
    choice_doc,
    describe_rules,
    format_option_value,
    option_sources,
    reference_markdown,
)

DOCS = ROOT / "docs" / "rules.md"
REGENERATE = "python -m tarneeb.cli rules --markdown > docs/rules.md"


def flat(text: str) -> str:
    """The text with every run of white space as one space (wrapping does not matter)."""
    return " ".join(text.split())


def options_table(text: str) -> dict[str, str]:
    """The rows of the option table at the end of describe_rules, as option -> value."""
    rows: dict[str, str] = {}
    lines = text.split("## Options\n", 1)[1].splitlines()
    for line in lines:
        if line.startswith("| ") and not line.startswith("| option "):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            rows[cells[0]] = cells[1]
    return rows


# -- docs/rules.md ---------------------------------------------------------------------


def test_docs_rules_md_is_the_generated_reference() -> None:
    assert DOCS.exists(), f"docs/rules.md is missing: generate it with `{REGENERATE}`"
    assert DOCS.read_text(encoding="utf-8") == reference_markdown(), (
        f"docs/rules.md is out of date: regenerate it with `{REGENERATE}`"
    )


def test_reference_is_ascii_so_the_redirect_gives_the_same_file_everywhere() -> None:
    text = reference_markdown()
    assert text.isascii()
    for name in PRESETS:
        assert describe_rules(PRESETS[name]).isascii()


def test_reference_ends_with_one_newline() -> None:
    text = reference_markdown()
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert text.startswith("# Tarneeb rules reference\n")


def test_presets_are_the_ten_of_the_rules() -> None:
    assert list(PRESETS) == PRESET_NAMES


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_appears_in_the_reference(name: str) -> None:
    text = reference_markdown()
    assert f"\n### {name}\n" in text
    assert f"| `{name}`" in text
    assert flat(PRESET_SUMMARIES[name]) in flat(text)


@pytest.mark.parametrize("option", Rules.option_names())
def test_every_option_appears_in_the_table_with_doc_default_and_sources(option: str) -> None:
    text = reference_markdown()
    doc = translator("en")(f"option.{option}")
    default = format_option_value(Rules().to_dict()[option])
    names = {"es": "Spanish", "nl": "Dutch", "ru": "Russian"}
    sources = ", ".join(names[s] for s in option_sources(option)) or "-"
    row = f"| `{option}` | `{default}` | "
    lines = [line for line in text.splitlines() if line.startswith(row)]
    assert len(lines) == 1, f"no single table row for {option!r}"
    assert lines[0].endswith(f" | {doc} | {sources} |")


def test_option_sources_follow_the_rules_own_citations() -> None:
    # The options table cites the written sources the Rules fields name.
    assert option_sources("target") == ("es", "nl", "ru")
    # the readings' sources count: thirteen_wins' "no" is the Spanish and Russian reading
    assert option_sources("thirteen_wins") == ("es", "nl", "ru")
    assert option_sources("sets") == ("nl",)
    assert option_sources("bid_step") == ()


@pytest.mark.parametrize(
    "option", [o for o in Rules.option_names() if Rules.option_choices(o) is not None]
)
def test_every_reading_of_every_option_is_explained(option: str) -> None:
    text = reference_markdown()
    section = text.split(f"\n`{option}`:\n", 1)[1].split("\n\n`", 1)[0]
    choices = Rules.option_choices(option)
    assert choices is not None
    for choice in choices:
        meaning = choice_doc(option, choice)
        assert meaning
        assert f"- `{choice}`: {flat(meaning)}" in flat(section)


def test_choice_doc_refuses_an_unknown_reading() -> None:
    with pytest.raises(KeyError):
        choice_doc("bidding", "auction-by-telepathy")


def test_reference_states_the_common_core_and_the_sources() -> None:
    text = flat(reference_markdown())
    for phrase in (
        "four, in two fixed partnerships",
        "one pack of 52 cards without jokers",
        "counter-clockwise",
        "at least 7 and at most 13",
        "the cards are thrown in and dealt again",
        "chooses the trump suit, the tarneeb, and leads to the first trick",
        "must follow the suit led when able",
        "at the end of a deal",
        "| Spanish | Como jugar (How to play), a Spanish guide | the Levant classic in full",
        "| Dutch | Tarneeb, Spelregels (Rules of play), in Dutch | the Levant game played in sets",
        "| Russian | Kozyr (Trump), in Russian | the original game with difference scoring",
    ):
        assert phrase in text, phrase


@pytest.mark.parametrize("name", PRESET_NAMES[1:])
def test_preset_sections_list_what_differs_from_classic(name: str) -> None:
    text = reference_markdown()
    section = text.split(f"\n### {name}\n", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    ours, classic = PRESETS[name].to_dict(), PRESETS["classic"].to_dict()
    for option in Rules.option_names():
        line = (
            f"- `{option}`: `{format_option_value(ours[option])}` "
            f"(classic: `{format_option_value(classic[option])}`)"
        )
        assert (line in section) == (ours[option] != classic[option]), option


def test_readme_setup_is_exactly_two_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Set up", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("\n", 1)[1].strip() for b in section.split("```")[1::2]]
    assert blocks == [
        'pip install ".[play]" && tarneeb play',
        'pip install -e ".[test]" && python -m pytest -n auto',
    ]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "set -euo pipefail" in ci
    assert 'pip install -e ".[test]"' in ci
    assert "\npython -m pytest -n auto || status=$?\n" in ci
    for check in (
        "ruff check src tests bench",
        "ruff format --check src tests bench",
        "mypy --strict src",
    ):
        assert check in ci, check


def test_readme_lists_every_preset_and_links_the_reference() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in PRESET_NAMES:
        assert f"| `{name}`" in readme, name
    assert "(docs/rules.md)" in readme
    assert REGENERATE in readme


# -- describe_rules --------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_describe_preset_has_name_summary_topics_and_every_option(name: str) -> None:
    rules = find_rules(name)
    text = describe_rules(rules)
    assert text.startswith(f"# Tarneeb rules: {name}\n\n")
    assert flat(PRESET_SUMMARIES[name]) in flat(text)
    assert "Changed from" not in text
    assert text == describe_rules(rules, name)
    for topic in (
        "Players",
        "Dealing",
        "Auction",
        "Re-bidding",
        "All pass",
        "Trump",
        "First lead",
        "13 tricks",
        "Winning",
        "Sets",
    ):
        assert f"\n- {topic}: " in text, topic
    table = options_table(text)
    plain = rules.to_dict()
    assert table == {o: format_option_value(plain[o]) for o in Rules.option_names()}


def test_describe_names_the_scoring_topics_of_partnership_and_individual_games() -> None:
    classic = describe_rules(find_rules("classic"))
    for topic in ("Made contract", "Failed contract", "Defenders", "Stakes"):
        assert f"\n- {topic}: " in classic
    syrian = describe_rules(find_rules("syrian400"))
    for topic in ("Made bid", "Failed bid", "Partners"):
        assert f"\n- {topic}: " in syrian
    assert "\n- Defenders: " not in syrian


def test_describe_custom_rules_lists_changes_from_classic() -> None:
    rules = find_rules("classic").replace(target=31, first_lead_trump=True)
    text = describe_rules(rules)
    assert text.startswith("# Tarneeb rules: custom\n")
    assert (
        "Changed from the classic preset: target = 31 (classic: 41); "
        "first_lead_trump = true (classic: false)."
    ) in flat(text)


def test_describe_finds_the_preset_of_equal_rules() -> None:
    rules = find_rules("classic").replace(target=31, bid_once=True)
    assert describe_rules(rules).startswith("# Tarneeb rules: lebanese31\n")


def test_describe_with_a_name_that_is_no_preset_uses_it_as_a_title() -> None:
    text = describe_rules(find_rules("classic").replace(target=51), "house rules")
    assert text.startswith("# Tarneeb rules: house rules\n")
    assert "Changed from the classic preset: target = 51 (classic: 41)." in flat(text)


# Each case: the preset, the options changed, a phrase that must appear with the
# change and must not appear without it.
CHANGES: list[tuple[str, dict[str, Any], str]] = [
    ("classic", {"target": 31}, "a side that has reached 31 wins the set"),
    ("classic", {"bid_once": True}, "each player may bid only once in an auction"),
    ("classic", {"min_bid": 8}, "bids a number of tricks from 8 to 13"),
    ("classic", {"max_bid": 12}, "from 7 to 12"),
    ("classic", {"dealing": "one-at-a-time"}, "one card at a time to each player"),
    ("classic", {"dealing": "13-at-once"}, "all 13 cards to each player at once"),
    (
        "classic",
        {"all_pass": "dealer-bids"},
        "when the first three players pass, the dealer may not pass and must bid 7",
    ),
    ("classic", {"first_lead_trump": True}, "must lead a trump when holding one"),
    ("classic", {"made": "bid"}, "they score their bid (bid 8, take 9: +8)"),
    ("classic", {"failed": "zero"}, "they score nothing (bid 8, take 7: 0)"),
    (
        "classic",
        {"defenders": "tricks-if-set"},
        "(declarers bid 8 and take 9: defenders 0; bid 8 and take 7: defenders +6)",
    ),
    (
        "classic",
        {"defenders": "shortfall"},
        "the bid minus what the declarers took (declarers bid 8 and take 9: defenders 0; "
        "bid 8 and take 7: defenders +1)",
    ),
    ("classic", {"bid13_made": 26}, "bid 13 and take all 13: declarers +26"),
    ("classic", {"bid13_failed": -16}, "bid 13 and take 10: declarers -16, defenders +3"),
    (
        "original",
        {"bid13_shortfall_factor": 3},
        "bid 13 and take 10: declarers -16, defenders +9",
    ),
    ("classic", {"kabsh": 20}, "take all 13 after bidding 7 (the kabsh): declarers +20"),
    ("original", {"kabsh_side": "either"}, "defenders take all 13 (the kabsh): defenders +16"),
    (
        "levant-sets",
        {"no_win_below_zero": "before-deal"},
        "unless the side's score before that deal was below zero",
    ),
    (
        "classic",
        {"thirteen_wins": "any"},
        "a side that takes all 13 tricks in a deal wins the set at once",
    ),
    (
        "classic",
        {"thirteen_wins": "if-bid"},
        "declarers who bid 13 and take all 13 win the set at once",
    ),
    (
        "levant-sets",
        {"no_win_below_zero": True},
        "unless the side's score (that deal counted) is below zero",
    ),
    ("classic", {"sets": 13}, "a match is 13 sets"),
    ("classic", {"doubling": "double"}, "may say double instead of passing"),
    ("classic", {"doubling": "raise"}, "its bidder may raise it before play"),
    ("egyptian", {"double_factor": 4}, "is then multiplied by 4"),
    (
        "egyptian",
        {"ladder": "number-or-strain"},
        "a higher number, or the same number in a higher strain",
    ),
    ("classic", {"weak_redeal": True}, "may claim a redeal; the same dealer deals again"),
    ("classic", {"no_trump": True}, "may also be bid as no-trump (Sol"),
    ("classic", {"fixed_trump": "spades"}, "spades are always trump"),
    (
        "classic",
        {"bidding": "strains"},
        "strains rank clubs < diamonds < hearts < spades.",
    ),
    (
        "egyptian",
        {"strain_order": "clubs,spades,hearts,diamonds"},
        "strains rank clubs < spades < hearts < diamonds < no-trump",
    ),
    (
        "classic",
        {"count": "card-points", "min_bid": 60, "max_bid": 120, "bid_step": 10, "bid13_made": None},
        "bids a number of card points from 60 to 120 in steps of 10",
    ),
    ("syrian400", {"partner_zero_ok": True}, "while the other's score is zero or more"),
    ("syrian400", {"value_threshold": 20}, "5: 10 (5 from a score of 20)"),
    (
        "syrian400",
        {"individual_minimums": [[0, 3, 12], [25, 4, 13]]},
        "under 25: lowest bid 3, lowest total 12; 25 and up: lowest bid 4, lowest total 13",
    ),
    (
        "syrian400",
        {"bid_values": [[b, 2 * b, b] for b in range(2, 14)]},
        "Values by bid: 2: 4 (2 from a score of 30); 3: 6 (3 from a score of 30)",
    ),
    ("syrian400", {"fixed_trump": "clubs"}, "clubs are always trump"),
    ("syrian400", {"target": 61}, "one partner has reached 61"),
]


@pytest.mark.parametrize(("preset", "changes", "phrase"), CHANGES)
def test_describe_reflects_changed_options(
    preset: str, changes: dict[str, Any], phrase: str
) -> None:
    base = find_rules(preset)
    rules = base.replace(**changes)
    before = flat(describe_rules(base, preset))
    after = flat(describe_rules(rules, preset))
    assert phrase not in before
    assert phrase in after
    for option in changes:
        shown = format_option_value(rules.to_dict()[option])
        assert f"{option} = {shown} ({preset}: " in after
        assert options_table(describe_rules(rules, preset))[option] == shown


def test_every_option_is_covered_by_a_change_case() -> None:
    changed = {option for _, changes, _ in CHANGES for option in changes}
    assert changed == set(Rules.option_names())


def test_scoring_examples_follow_the_seeds() -> None:
    original = flat(describe_rules(find_rules("original")))
    # Seed 003: bid under 13 and take 13 = 16; bid 13 and take 13 = 26; bid 13 and
    # fail = -16 and twice the shortfall to the defenders.
    assert "bid 13 and take all 13: declarers +26" in original
    assert "bid 13 and take 10: declarers -16, defenders +6" in original
    assert "take all 13 after bidding 7 (the kabsh): declarers +16" in original
    classic = flat(describe_rules(find_rules("classic")))
    # Seed 000: bid 8 take 9 scores 9; bid 9 take 8 loses 9 (here: bid 8 take 7 loses 8).
    assert "they score the tricks they took (bid 8, take 9: +9)" in classic
    assert "they lose their bid (bid 8, take 7: -8)" in classic
    syrian = flat(describe_rules(find_rules("syrian400")))
    assert (
        "Values by bid: 2: 2; 3: 3; 4: 4; 5: 10 (5 from a score of 30); "
        "6: 12 (6 from a score of 30); 7: 14; 8: 16; 9: 27; 10-13: 40."
    ) in syrian
    assert "(bid 5, take 4: -10)" in syrian
    card_points = flat(describe_rules(find_rules("tarneeb400")))
    assert "they score the card points they took (bid 70, take 80: +80)" in card_points


def test_format_option_value() -> None:
    assert format_option_value(None) == "none"
    assert format_option_value(False) == "false"
    assert format_option_value(41) == "41"
    assert format_option_value("minus-bid") == "minus-bid"
    assert format_option_value(["clubs", "hearts"]) == '["clubs","hearts"]'
    assert format_option_value([[0, 2, 11]]) == "[[0,2,11]]"


def test_option_values_as_shown_read_back_through_replace() -> None:
    import json

    for rules in PRESETS.values():
        plain = rules.to_dict()
        shown: dict[str, Any] = {}
        for option in Rules.option_names():
            text = format_option_value(plain[option])
            try:
                shown[option] = json.loads(text)
            except ValueError:
                shown[option] = text
        assert Rules().replace(**shown) == rules


# Random valid rules: the description never fails and always shows every option.
_CANDIDATES: dict[str, list[Any]] = {
    "target": [1, 31, 41, 400],
    "sets": [1, 3],
    "min_bid": [1, 7, 13, 60],
    "max_bid": [7, 12, 13, 120],
    "bid_step": [1, 10],
    "bid13_made": [None, 16, 26],
    "bid13_failed": [None, -16],
    "bid13_shortfall_factor": [1, 2],
    "kabsh": [None, 16],
    "double_factor": [2, 4],
    "fixed_trump": [None, "hearts", "clubs"],
    "strain_order": [["clubs", "diamonds", "hearts", "spades"], "C,S,H,D"],
    "individual_minimums": [[[0, 2, 11]], [[0, 13, 52]], [[0, 1, 4], [10, 3, 12]]],
    "bid_values": [[[b, b, b] for b in range(1, 14)]],
    "value_threshold": [0, 30],
}


@st.composite
def random_rules(draw: st.DrawFn) -> Rules:
    base = find_rules(draw(st.sampled_from(PRESET_NAMES)))
    changes: dict[str, Any] = {}
    for option in draw(st.sets(st.sampled_from(Rules.option_names()), max_size=6)):
        choices = Rules.option_choices(option)
        if choices is not None:
            values: list[Any] = list(choices)
        elif option in _CANDIDATES:
            values = _CANDIDATES[option]
        else:
            values = [True, False]
        changes[option] = draw(st.sampled_from(values))
    try:
        return base.replace(**changes)
    except RulesError:
        assume(False)
        raise AssertionError("unreachable") from None


@given(random_rules())
def test_describe_any_valid_rules(rules: Rules) -> None:
    text = describe_rules(rules)
    assert text.startswith("# Tarneeb rules: ")
    assert f"{rules.target}" in text
    assert set(options_table(text)) == set(Rules.option_names())
    assert "None" not in text and "Strain." not in text and "{" not in text


def test_dealer_bids_promises_a_played_deal_only_without_the_weak_hand_redeal() -> None:
    # Seed 003: «когда трое игроков пасуют, то сдатчик должен обязательно объявить 7
    # взяток» and «Еще назначают пересдачу карт, если у одного из игроков: нет Туза...»:
    # with both options a deal can still end unplayed, by a redeal.
    forced = find_rules("classic").replace(all_pass="dealer-bids")
    alone = flat(describe_rules(forced))
    both = flat(describe_rules(forced.replace(weak_redeal=True)))
    assert "must bid 7 (the lowest bid), so every deal is played" in alone
    assert "so every deal is played" not in both
    assert "a deal can still end without play when a weak hand is redealt" in both


def test_the_all_pass_readings_say_which_source_reads_what() -> None:
    # Seed 000: «Si los cuatro jugadores pasan, el reparto se anula y el siguiente jugador
    # reparte»; seed 003: «Если все игроки говорят «пас», то карты собираются в колоду и
    # сдаются заново» (who deals is not said).
    meaning = choice_doc("all_pass", "throw-in")
    assert "the Spanish guide's reading" in meaning
    assert "the Russian rules say only that the cards are dealt again" in meaning
    assert "dealt again" in flat(reference_markdown().split("## The common core", 1)[1])
