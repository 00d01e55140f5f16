"""Rules: every option round-trips, text values are read, bad values and combinations refused."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest

from tarneeb import (
    PRESETS,
    AllPass,
    BelowZero,
    Bidding,
    Count,
    Dealing,
    Defenders,
    Doubling,
    Failed,
    KabshSide,
    Ladder,
    Made,
    Rules,
    RulesError,
    Strain,
    Suit,
    ThirteenWins,
)
from tarneeb.options import SOURCE_IDS, OptionSpec
from tarneeb.rules import OPTION_SPECS, option_spec, parse_rule_changes

CARD_POINTS = {
    "count": Count.CARD_POINTS,
    "min_bid": 60,
    "max_bid": 120,
    "bid_step": 10,
    "bid13_made": None,
}
INDIVIDUAL = {"bidding": Bidding.INDIVIDUAL, "fixed_trump": Suit.HEARTS, "bid13_made": None}
STRAINS = {"bidding": Bidding.STRAINS}

# option -> (other options it needs, a value other than the default)
NON_DEFAULT: dict[str, tuple[dict[str, Any], Any]] = {
    "target": ({}, 55),
    "sets": ({}, 13),
    "dealing": ({}, Dealing.THIRTEEN),
    "bidding": ({}, Bidding.STRAINS),
    "count": (
        {"min_bid": 60, "max_bid": 120, "bid_step": 10, "bid13_made": None},
        Count.CARD_POINTS,
    ),
    "min_bid": ({}, 8),
    "max_bid": ({}, 12),
    "bid_step": ({k: v for k, v in CARD_POINTS.items() if k != "bid_step"}, 20),
    "bid_once": ({}, True),
    "all_pass": ({}, AllPass.DEALER_BIDS),
    "no_trump": ({}, True),
    "strain_order": (STRAINS, (Strain.CLUBS, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS)),
    "ladder": (STRAINS, Ladder.STRAIN_AND_NUMBER),
    "fixed_trump": ({}, Suit.HEARTS),
    "first_lead_trump": ({}, True),
    "made": ({}, Made.BID),
    "failed": ({}, Failed.ZERO),
    "defenders": ({}, Defenders.SHORTFALL),
    "bid13_made": ({}, None),
    "bid13_failed": ({}, -16),
    "bid13_shortfall_factor": ({}, 2),
    "kabsh": ({}, 16),
    "kabsh_side": ({"kabsh": 16}, KabshSide.EITHER),
    "thirteen_wins": ({}, ThirteenWins.IF_BID),
    "no_win_below_zero": ({"thirteen_wins": ThirteenWins.ANY}, BelowZero.AFTER_DEAL),
    "doubling": ({}, Doubling.RAISE),
    "double_factor": ({}, 4),
    "weak_redeal": ({}, True),
    "individual_minimums": (INDIVIDUAL, ((0, 3, 12), (25, 4, 13))),
    "bid_values": (INDIVIDUAL, tuple((b, b + 1, b) for b in range(1, 14))),
    "value_threshold": (INDIVIDUAL, 25),
    "partner_zero_ok": (INDIVIDUAL, True),
}

# More values worth a round trip: the other readings of the named options.
MORE_VALUES: list[tuple[str, dict[str, Any], Any]] = [
    ("dealing", {}, Dealing.ONE_AT_A_TIME),
    ("bidding", {"fixed_trump": Suit.HEARTS, "bid13_made": None}, Bidding.INDIVIDUAL),
    ("thirteen_wins", {}, ThirteenWins.ANY),
    ("doubling", {}, Doubling.DOUBLE),
    ("no_win_below_zero", {"thirteen_wins": ThirteenWins.ANY}, BelowZero.BEFORE_DEAL),
    ("defenders", {}, Defenders.TRICKS_IF_SET),
    ("bid13_made", {}, 20),
    ("fixed_trump", {}, Suit.CLUBS),
    ("strain_order", STRAINS, (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)),
]


def _round_trips(rules: Rules) -> None:
    data = rules.to_dict()
    assert Rules.from_dict(data) == rules
    text = json.dumps(data, sort_keys=True)
    assert Rules.from_dict(json.loads(text)) == rules
    assert json.loads(text) == data


def test_the_table_covers_every_option() -> None:
    assert set(NON_DEFAULT) == set(Rules.option_names())


@pytest.mark.parametrize("name", list(NON_DEFAULT))
def test_every_option_round_trips(name: str) -> None:
    base, value = NON_DEFAULT[name]
    rules = Rules(**base, **{name: value})
    assert getattr(rules, name) == value
    assert rules.to_dict()[name] != Rules().to_dict()[name]
    _round_trips(rules)
    # replace() takes the same value, typed or as to_dict writes it.
    assert Rules().replace(**base, **{name: value}) == rules
    assert Rules().replace(**_plain(base), **{name: rules.to_dict()[name]}) == rules


@pytest.mark.parametrize(("name", "base", "value"), MORE_VALUES)
def test_other_readings_round_trip(name: str, base: dict[str, Any], value: Any) -> None:
    rules = Rules(**base, **{name: value})
    assert getattr(rules, name) == value
    _round_trips(rules)


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_round_trip(name: str) -> None:
    _round_trips(PRESETS[name])


def test_to_dict_is_plain_json() -> None:
    data = PRESETS["syrian400"].to_dict()
    assert list(data) == list(Rules.option_names())
    assert data["bidding"] == "individual"
    assert data["fixed_trump"] == "hearts"
    assert data["dealing"] == "4-4-5"
    assert data["strain_order"] == ["clubs", "diamonds", "hearts", "spades"]
    assert data["individual_minimums"] == [[0, 2, 11], [30, 3, 12], [40, 4, 13], [50, 5, 14]]
    assert data["bid13_made"] is None
    for value in data.values():
        assert value is None or isinstance(value, str | int | bool | list)


def test_from_dict_keeps_defaults_for_missing_options() -> None:
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"target": 31}) == Rules(target=31)


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.target = 31  # type: ignore[misc]
    assert hash(rules) == hash(Rules())
    assert {Rules(), Rules(target=31)} == {Rules(target=31), Rules()}


# -- text values -------------------------------------------------------------------


def test_replace_reads_text_values() -> None:
    rules = Rules().replace(target="31", bid_once="true", bid13_made="none")
    assert rules.target == 31
    assert rules.bid_once is True
    assert rules.bid13_made is None
    assert Rules().replace(fixed_trump="hearts").fixed_trump is Suit.HEARTS
    assert Rules().replace(fixed_trump="H").fixed_trump is Suit.HEARTS
    assert Rules().replace(fixed_trump="♥").fixed_trump is Suit.HEARTS
    assert Rules(fixed_trump=Suit.HEARTS).replace(fixed_trump="none").fixed_trump is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("true", True),
        ("yes", True),
        ("on", True),
        ("1", True),
        ("TRUE", True),
        ("false", False),
        ("no", False),
        ("off", False),
        ("0", False),
    ],
)
def test_replace_reads_booleans(text: str, value: bool) -> None:
    start = Rules(no_trump=not value)
    assert start.replace(no_trump=text).no_trump is value


def test_replace_reads_choices_and_lists() -> None:
    rules = Rules().replace(
        dealing="13-at-once",
        all_pass="dealer-bids",
        made="BID",
        failed="zero",
        defenders="tricks-if-set",
        thirteen_wins="if-bid",
        doubling="double",
        bid13_failed="-16",
        kabsh="16",
    )
    assert rules.dealing is Dealing.THIRTEEN
    assert rules.all_pass is AllPass.DEALER_BIDS
    assert rules.made is Made.BID
    assert rules.failed is Failed.ZERO
    assert rules.defenders is Defenders.TRICKS_IF_SET
    assert rules.thirteen_wins is ThirteenWins.IF_BID
    assert rules.doubling is Doubling.DOUBLE
    assert rules.bid13_failed == -16
    assert rules.kabsh == 16
    strains = Rules(bidding=Bidding.STRAINS).replace(strain_order="C S H D")
    assert strains.strain_order == (Strain.CLUBS, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS)
    assert Rules(bidding=Bidding.STRAINS).replace(strain_order="s,h,d,c").strain_order == (
        Strain.SPADES,
        Strain.HEARTS,
        Strain.DIAMONDS,
        Strain.CLUBS,
    )
    assert Rules().replace(bidding="strains").bidding is Bidding.STRAINS


def test_replace_keeps_the_other_options() -> None:
    base = PRESETS["egyptian"]
    changed = base.replace(double_factor=4)
    assert changed.double_factor == 4
    assert changed.to_dict() == {**base.to_dict(), "double_factor": 4}
    assert base.double_factor == 2


# -- refusals ----------------------------------------------------------------------


def _refused(names: tuple[str, ...], **options: Any) -> str:
    with pytest.raises(RulesError) as info:
        Rules(**options)
    message = str(info.value)
    for name in names:
        assert name in message, (name, message)
    # The same refusal through from_dict, as text.
    with pytest.raises(RulesError) as info:
        Rules.from_dict(_plain(options))
    assert str(info.value) == message
    return message


def _plain(options: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in options.items():
        if isinstance(value, Suit | Strain):
            out[key] = value.name.lower()
        elif isinstance(value, tuple) and value and isinstance(value[0], Strain):
            out[key] = [s.name.lower() for s in value]
        elif hasattr(value, "value") and isinstance(value.value, str):
            out[key] = value.value
        else:
            out[key] = value
    return out


@pytest.mark.parametrize(
    ("names", "options"),
    [
        (("target",), {"target": 0}),
        (("target",), {"target": -41}),
        (("sets",), {"sets": 0}),
        (("double_factor",), {"double_factor": 1}),
        (("bid13_shortfall_factor",), {"bid13_shortfall_factor": 0}),
        (("bid_step",), {"bid_step": 0}),
        (("min_bid", "max_bid"), {"min_bid": 10, "max_bid": 9}),
        (("min_bid", "max_bid"), {"min_bid": 0}),
        (("min_bid", "max_bid"), {"max_bid": 14}),
        (("min_bid", "max_bid", "count"), {**CARD_POINTS, "max_bid": 130}),
        (("bid_step", "count"), {"bid_step": 2}),
        (("bid_step", "count"), {"bid_step": 3, "min_bid": 7, "max_bid": 13}),
        (("bid_step", "max_bid", "min_bid"), {"bid_step": 4}),
        (("bid_step", "max_bid", "min_bid"), {**CARD_POINTS, "bid_step": 7}),
        (("bid13_made", "count"), {**CARD_POINTS, "bid13_made": 16}),
        (("bid13_failed", "count"), {**CARD_POINTS, "bid13_failed": -16}),
        (("kabsh", "count"), {**CARD_POINTS, "kabsh": 16}),
        (("thirteen_wins", "count"), {**CARD_POINTS, "thirteen_wins": ThirteenWins.IF_BID}),
        (("fixed_trump", "bidding"), {**STRAINS, "fixed_trump": Suit.SPADES}),
        (
            ("strain_order",),
            {**STRAINS, "strain_order": (Strain.CLUBS, Strain.CLUBS, Strain.HEARTS, Strain.SPADES)},
        ),
        (("strain_order",), {**STRAINS, "strain_order": (Strain.CLUBS, Strain.HEARTS)}),
        (
            ("strain_order",),
            {
                **STRAINS,
                "strain_order": (
                    Strain.CLUBS,
                    Strain.DIAMONDS,
                    Strain.HEARTS,
                    Strain.SPADES,
                    Strain.NO_TRUMP,
                ),
            },
        ),
        (("bidding", "fixed_trump"), {"bidding": Bidding.INDIVIDUAL, "bid13_made": None}),
        (("bidding", "doubling"), {**INDIVIDUAL, "doubling": Doubling.RAISE}),
        (("bidding", "doubling"), {**INDIVIDUAL, "doubling": Doubling.DOUBLE}),
        (("bidding", "no_trump"), {**INDIVIDUAL, "no_trump": True}),
        (("bidding", "all_pass"), {**INDIVIDUAL, "all_pass": AllPass.DEALER_BIDS}),
        (("bidding", "bid13_made"), {**INDIVIDUAL, "bid13_made": 16}),
        (("bidding", "bid13_failed"), {**INDIVIDUAL, "bid13_failed": -16}),
        (("bidding", "kabsh"), {**INDIVIDUAL, "kabsh": 16}),
        (("bidding", "thirteen_wins"), {**INDIVIDUAL, "thirteen_wins": ThirteenWins.ANY}),
        (
            ("bidding", "count"),
            {
                **INDIVIDUAL,
                "count": Count.CARD_POINTS,
                "min_bid": 60,
                "max_bid": 120,
                "bid_step": 10,
            },
        ),
        (
            ("bidding", "doubling", "no_trump"),
            {**INDIVIDUAL, "doubling": Doubling.RAISE, "no_trump": True},
        ),
        (("individual_minimums",), {**INDIVIDUAL, "individual_minimums": ()}),
        (("individual_minimums",), {**INDIVIDUAL, "individual_minimums": ((10, 2, 11),)}),
        (
            ("individual_minimums",),
            {**INDIVIDUAL, "individual_minimums": ((0, 2, 11), (40, 3, 12), (30, 4, 13))},
        ),
        (("individual_minimums",), {**INDIVIDUAL, "individual_minimums": ((0, 14, 11),)}),
        (("individual_minimums",), {**INDIVIDUAL, "individual_minimums": ((0, 2, 3),)}),
        (("bid_values",), {**INDIVIDUAL, "individual_minimums": ((0, 1, 11),)}),
        (("bid_values",), {**INDIVIDUAL, "bid_values": ((2, 2, 2), (3, 3, 3))}),
        (("partner_zero_ok",), {"partner_zero_ok": True}),
        (("partner_zero_ok",), {**STRAINS, "partner_zero_ok": True}),
    ],
)
def test_bad_values_and_combinations_are_refused(
    names: tuple[str, ...], options: dict[str, Any]
) -> None:
    _refused(names, **options)


def test_individual_conflicts_are_all_named() -> None:
    message = _refused(
        ("doubling", "no_trump", "all_pass", "bid13_made"),
        bidding=Bidding.INDIVIDUAL,
        fixed_trump=Suit.HEARTS,
        doubling=Doubling.DOUBLE,
        no_trump=True,
        all_pass=AllPass.DEALER_BIDS,
    )
    assert "bidding='individual'" in message


def test_replace_checks_the_result() -> None:
    with pytest.raises(RulesError, match="target"):
        Rules().replace(target=0)
    with pytest.raises(RulesError, match="fixed_trump"):
        PRESETS["syrian400"].replace(fixed_trump=None)
    with pytest.raises(RulesError, match="fixed_trump"):
        PRESETS["egyptian"].replace(fixed_trump="spades")
    with pytest.raises(RulesError, match="partner_zero_ok"):
        Rules().replace(partner_zero_ok=True)
    # A bad combination can be mended in the same call.
    assert PRESETS["syrian400"].replace(bidding="tricks", fixed_trump="none").bidding is (
        Bidding.TRICKS
    )


@pytest.mark.parametrize("name", ["targt", "trump", "Target", ""])
def test_unknown_options_are_refused(name: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict({name: 31})
    assert repr(name) in str(info.value)
    with pytest.raises(RulesError) as info:
        Rules().replace(**{name: 31})
    assert repr(name) in str(info.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("target", "31"),
        ("target", 31.0),
        ("target", True),
        ("target", None),
        ("sets", "1"),
        ("bid13_made", "16"),
        ("bid13_made", False),
        ("bid_once", "yes"),
        ("bid_once", 1),
        ("no_trump", None),
        ("dealing", "4-4-5"),
        ("bidding", "tricks"),
        ("made", "taken"),
        ("fixed_trump", "hearts"),
        ("fixed_trump", 2),
        ("strain_order", [Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES]),
        ("strain_order", (0, 1, 2, 3)),
        ("individual_minimums", [[0, 2, 11]]),
        ("individual_minimums", "junk"),
        ("bid_values", [[2, 2, 2]]),
        ("bid_values", None),
    ],
)
def test_wrong_types_in_the_constructor(name: str, value: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**{name: value})
    assert name in str(info.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("target", "abc"),
        ("target", 31.5),
        ("target", "31.0"),
        ("target", "--5"),
        ("target", True),
        ("target", None),
        ("target", [31]),
        ("sets", ""),
        ("bid13_made", "lots"),
        ("bid13_made", 16.5),
        ("kabsh", True),
        ("bid_once", "maybe"),
        ("bid_once", 1),
        ("bid_once", None),
        ("dealing", "zigzag"),
        ("bidding", "auction"),
        ("count", 3),
        ("all_pass", None),
        ("made", "all"),
        ("failed", "minus"),
        ("defenders", "all"),
        ("thirteen_wins", True),
        ("doubling", "triple"),
        ("fixed_trump", "rubies"),
        ("fixed_trump", 2),
        ("strain_order", 5),
        ("strain_order", "C D X S"),
        ("individual_minimums", [[0, 2]]),
        ("individual_minimums", 7),
        ("individual_minimums", [[0, "two", 11]]),
        ("bid_values", None),
    ],
)
def test_wrong_types_from_dict(name: str, value: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict({name: value})
    assert name in str(info.value)
    with pytest.raises(RulesError):
        Rules().replace(**{name: value})


def test_from_dict_needs_a_mapping() -> None:
    with pytest.raises(RulesError, match="mapping"):
        Rules.from_dict([("target", 31)])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="mapping"):
        Rules.from_dict("target=31")  # type: ignore[arg-type]


def test_enum_values_name_the_choices() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict({"made": "all"})
    assert str(info.value) == "made='all' is not one of 'taken', 'bid'"


# -- documentation -----------------------------------------------------------------


def test_option_names() -> None:
    names = Rules.option_names()
    assert isinstance(names, tuple)
    assert names[:4] == ("target", "sets", "dealing", "bidding")
    assert len(names) == len(set(names)) == 32
    assert "partner_zero_ok" in names
    assert list(Rules().to_dict()) == list(names)


@pytest.mark.parametrize("name", Rules.option_names())
def test_option_doc(name: str) -> None:
    doc, seeds = Rules.option_doc(name)
    assert isinstance(doc, str) and len(doc) > 10
    assert doc[0].isupper() or doc[0].isdigit()
    assert doc.rstrip().endswith((".", ")"))
    assert set(seeds.split()) <= {"000", "002", "003"}


def test_option_doc_known_values() -> None:
    assert Rules.option_doc("target") == (
        "Points a side needs at the end of a deal to win the set.",
        "000 002 003",
    )
    assert Rules.option_doc("bid13_made")[1] == "000 003"
    assert Rules.option_doc("partner_zero_ok")[1] == ""


def test_option_choices() -> None:
    assert Rules.option_choices("made") == ("taken", "bid")
    assert Rules.option_choices("failed") == ("minus-bid", "zero")
    assert Rules.option_choices("defenders") == ("tricks", "tricks-if-set", "shortfall")
    assert Rules.option_choices("bidding") == ("tricks", "strains", "individual")
    assert Rules.option_choices("count") == ("tricks", "card-points")
    assert Rules.option_choices("all_pass") == ("throw-in", "dealer-bids")
    assert Rules.option_choices("thirteen_wins") == ("no", "any", "if-bid")
    assert Rules.option_choices("doubling") == ("none", "raise", "double")
    assert Rules.option_choices("dealing") == ("one-at-a-time", "4-4-5", "13-at-once")
    for name in ("target", "bid_once", "fixed_trump", "strain_order", "bid13_made", "bid_values"):
        assert Rules.option_choices(name) is None


@pytest.mark.parametrize("name", Rules.option_names())
def test_every_choice_is_accepted(name: str) -> None:
    choices = Rules.option_choices(name)
    if choices is None:
        return
    needs = {
        "individual": INDIVIDUAL,
        "card-points": CARD_POINTS,
        "either": {"kabsh": 16},
        "before-deal": {"thirteen_wins": ThirteenWins.ANY},
        "after-deal": {"thirteen_wins": ThirteenWins.ANY},
    }
    for choice in choices:
        base = _plain(needs.get(choice, STRAINS if name == "ladder" else {}))
        rules = Rules.from_dict({**base, name: choice})
        assert rules.to_dict()[name] == choice


# -- derived values ----------------------------------------------------------------


def test_derived_values() -> None:
    assert Rules().max_points_per_deal == 13
    assert Rules(**CARD_POINTS).max_points_per_deal == 120
    assert not Rules().is_individual
    assert Rules(**INDIVIDUAL).is_individual


def test_individual_tables() -> None:
    rules = Rules(**INDIVIDUAL)
    assert [rules.individual_minimum(s) for s in (-10, 0, 29, 30, 39, 40, 49, 50, 400)] == [
        2,
        2,
        2,
        3,
        3,
        4,
        4,
        5,
        5,
    ]
    assert [rules.total_minimum(s) for s in (-10, 0, 29, 30, 39, 40, 49, 50, 400)] == [
        11,
        11,
        11,
        12,
        12,
        13,
        13,
        14,
        14,
    ]
    assert [rules.bid_value(b, 0) for b in range(2, 14)] == [
        2,
        3,
        4,
        10,
        12,
        14,
        16,
        27,
        40,
        40,
        40,
        40,
    ]
    assert [rules.bid_value(b, 30) for b in range(2, 14)] == [
        2,
        3,
        4,
        5,
        6,
        14,
        16,
        27,
        40,
        40,
        40,
        40,
    ]


# -- the table of option specifications ----------------------------------------------


def test_every_field_has_a_spec() -> None:
    """A field declared without its spec is a failure here, not a silent pass."""
    fields = [f.name for f in dataclasses.fields(Rules)]
    assert list(OPTION_SPECS) == fields == list(Rules.option_names())
    for f in dataclasses.fields(Rules):
        spec = OPTION_SPECS[f.name]
        assert isinstance(f.metadata.get("spec"), OptionSpec), f.name
        assert spec.name == f.name
        assert spec.default == f.default
        assert spec.is_typed(f.default)
        assert spec.parse(spec.to_plain(f.default)) == f.default
        assert spec.kind in {"enum", "int", "optional-int", "bool", "suit", "strains", "table"}


def test_a_field_without_a_spec_is_caught() -> None:
    """A field added without its spec cannot be stored: the codec fails loudly."""

    @dataclasses.dataclass(frozen=True)
    class Bigger(Rules):
        extra: int = 3

    assert "extra" not in OPTION_SPECS
    with pytest.raises(KeyError, match="extra"):
        Bigger().to_dict()
    with pytest.raises(RulesError, match="extra"):
        option_spec("extra")


@pytest.mark.parametrize("name", Rules.option_names())
def test_spec_readings_and_sources(name: str) -> None:
    spec = option_spec(name)
    assert spec is Rules.option_spec(name) or spec == Rules.option_spec(name)
    assert set(spec.all_sources) <= set(SOURCE_IDS)
    assert "seed" not in spec.doc.lower()
    assert not re.search(r"\b00[023]\b", spec.doc)
    if spec.kind == "enum":
        assert spec.choices == Rules.option_choices(name)
        assert [r.value for r in spec.readings] == list(spec.choices or ())
        for reading in spec.readings:
            assert len(reading.doc) > 5
            assert not reading.doc.endswith(".")
            assert not re.search(r"\b00[023]\b", reading.doc + reading.note)
            assert "seed" not in (reading.doc + reading.note).lower()
    else:
        assert spec.choices is None and spec.readings == ()
    assert Rules.option_doc(name) == (
        spec.doc,
        " ".join(s for s in spec.all_sources if s != "platforms"),
    )


def test_spec_sources_of_the_corrected_readings() -> None:
    # 002: «anders wordt het bod van hun score afgetrokken»: the failed contract loses the bid.
    assert option_spec("failed").reading("minus-bid").sources == ("000", "002")
    assert Rules.option_doc("failed")[1] == "000 002 003"
    # Doubling (rather than 003's raise) is the card platforms' rule, not a document's.
    assert option_spec("doubling").reading("double").sources == ("platforms",)
    assert option_spec("doubling").reading("raise").sources == ("003",)
    # 000: «el siguiente jugador reparte»; 003: «карты собираются в колоду и сдаются заново».
    throw_in = option_spec("all_pass").reading("throw-in")
    assert throw_in.sources == ("000", "003")
    # (the catalogue says it in the reading itself: "... dealt again, by the next dealer (...)")
    assert "dealt again" in throw_in.doc
    assert "not always played" in option_spec("all_pass").reading("dealer-bids").note
    assert option_spec("kabsh_side").reading("either").sources == ("000",)
    assert option_spec("kabsh_side").reading("declarers").sources == ("003",)
    assert option_spec("bidding").reading("individual").sources == ("platforms",)
    # 003: «каждая последующая ставка помимо смены масти, должна быть в количественном
    # отношении выше»; the bridge ladder is the apps'.
    assert option_spec("ladder").reading("strain-and-number").sources == ("003",)
    assert option_spec("ladder").reading("number-or-strain").sources == ("platforms",)
    assert option_spec("partner_zero_ok").all_sources == ("platforms",)
    assert option_spec("bid_step").all_sources == ()
    assert option_spec("target").minimum == 1
    assert option_spec("double_factor").minimum == 2


def test_parse_rule_changes_reads_each_kind_by_its_spec() -> None:
    changes = parse_rule_changes(
        [
            "target=31",
            "kabsh=none",
            "bid-once=yes",
            "made=BID",
            "fixed_trump=♥",
            "strain_order=C,S,H,D",
            "bid_values=[[2,2,2]]",
            "no_win_below_zero=after-deal",
            'doubling="raise"',
        ]
    )
    assert changes == {
        "target": 31,
        "kabsh": None,
        "bid_once": True,
        "made": "bid",
        "fixed_trump": "hearts",
        "strain_order": ["clubs", "spades", "hearts", "diamonds"],
        "bid_values": [[2, 2, 2]],
        "no_win_below_zero": "after-deal",
        "doubling": "raise",
    }
    assert parse_rule_changes(['strain_order=["s","h","d","c"]'])["strain_order"][0] == "spades"
    assert parse_rule_changes(['fixed_trump="clubs"', 'target="31"']) == {
        "fixed_trump": "clubs",
        "target": 31,
    }


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("target=many", "-o target='many' is not a whole number"),
        ("kabsh_side=both", "-o kabsh_side='both' is not one of 'declarers', 'either'"),
        ("bid_values=[[2,2", "-o bid_values: '[[2,2' is not valid JSON"),
        ("strain_order=C X", "-o strain_order='C X' is not a list of suits"),
        ("no_win_below_zero=true", "is not one of 'no', 'before-deal', 'after-deal'"),
    ],
)
def test_parse_rule_changes_refuses_with_the_flag(item: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        parse_rule_changes([item])
    assert message in str(info.value)


# -- the kabsh side and the below-zero rule ---------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"kabsh_side": "either"}, "kabsh_side='either' needs kabsh"),
        (
            {**_plain(CARD_POINTS), "kabsh_side": "either"},
            "kabsh_side='either' needs kabsh",
        ),
        # A side at the target is above zero: after the deal, only 13 tricks can be stopped.
        ({"no_win_below_zero": "after-deal"}, "has no effect with thirteen_wins='no'"),
        # From below zero, no classic deal (16 at most) reaches 41.
        ({"no_win_below_zero": "before-deal"}, "no deal scores a side more than 16"),
        (
            {"thirteen_wins": "any", "failed": "zero", "no_win_below_zero": "after-deal"},
            "no score can fall below zero",
        ),
        (
            {**_plain(INDIVIDUAL), "no_win_below_zero": "before-deal"},
            "no_win_below_zero='before-deal'",
        ),
    ],
)
def test_options_that_could_have_no_effect_are_refused(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict(options)
    assert message in str(info.value)


def test_below_zero_readings_where_they_matter() -> None:
    assert Rules(target=10, no_win_below_zero=BelowZero.BEFORE_DEAL).target == 10
    # Egyptian at four times the stakes: a deal can score 104, more than 41.
    egyptian = PRESETS["egyptian"].replace(double_factor=4)
    assert egyptian.replace(no_win_below_zero="before-deal").no_win_below_zero is (
        BelowZero.BEFORE_DEAL
    )
    # At twice the stakes too: raised, bid 13 and take none gives the defenders 2 x 2 x 13.
    assert PRESETS["egyptian"].replace(no_win_below_zero="before-deal").target == 41
    with pytest.raises(RulesError, match="more than 32"):
        PRESETS["egyptian"].replace(bid13_shortfall_factor=1, no_win_below_zero="before-deal")
    # Difference scoring can still go below zero through bid13_failed = -16.
    original = PRESETS["original"].replace(thirteen_wins="any")
    assert original.replace(no_win_below_zero="after-deal").no_win_below_zero is (
        BelowZero.AFTER_DEAL
    )
    with pytest.raises(RulesError, match="below zero"):
        original.replace(bid13_failed=None, no_win_below_zero="after-deal")


@pytest.mark.parametrize(
    ("stored", "expected"),
    [
        ({"no_win_below_zero": False}, BelowZero.NO),
        ({"no_win_below_zero": True, "thirteen_wins": "any"}, BelowZero.AFTER_DEAL),
        # Without 13-trick wins the old flag did nothing: it reads as "no", not an error.
        ({"no_win_below_zero": True}, BelowZero.NO),
        ({"no_win_below_zero": True, "thirteen_wins": "any", "failed": "zero"}, BelowZero.NO),
        ({**_plain(INDIVIDUAL), "no_win_below_zero": True}, BelowZero.NO),
    ],
)
def test_rules_stored_by_earlier_versions_read_as_they_played(
    stored: dict[str, Any], expected: BelowZero
) -> None:
    """Before the two readings the option was a boolean: true was the after-deal reading."""
    assert Rules.from_dict(stored).no_win_below_zero is expected


def test_old_preset_dicts_keep_their_rules() -> None:
    """A saudi or levant-sets game stored by an earlier version has every option of its day;
    the options added since take their defaults, which play as the game then did."""
    old_saudi = {**PRESETS["saudi"].to_dict(), "no_win_below_zero": False}
    del old_saudi["kabsh_side"]
    assert Rules.from_dict(old_saudi).kabsh_side is KabshSide.DECLARERS
    old_levant = {**PRESETS["levant-sets"].to_dict(), "bid13_made": 16}
    del old_levant["kabsh_side"]
    assert Rules.from_dict(old_levant).bid13_made == 16
