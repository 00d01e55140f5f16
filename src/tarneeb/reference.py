"""The rules reference for people, generated from :class:`~tarneeb.rules.Rules` itself.

Every sentence about an option is written from the option's value, and every
scoring example is worked out by :func:`~tarneeb.scoring.score_contract`, so
the reference cannot drift from the engine. ``docs/rules.md`` is
:func:`reference_markdown`; ``tarneeb rules NAME`` prints :func:`describe_rules`.
Pure text: no I/O here.

>>> from tarneeb.presets import find_rules
>>> text = describe_rules(find_rules("lebanese31"))
>>> print(text.splitlines()[0])
# Tarneeb rules: lebanese31
>>> "each player may bid only once" in " ".join(text.split())
True
>>> text = describe_rules(find_rules("classic").replace(target=61), "classic")
>>> "Changed from the classic preset: target = 61 (classic: 41)." in " ".join(text.split())
True
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Sequence

from tarneeb.actions import Strain
from tarneeb.presets import DEFAULT_PRESET, PRESET_SUMMARIES, PRESETS, preset_name
from tarneeb.rules import (
    AllPass,
    Bidding,
    Count,
    Defenders,
    Doubling,
    Failed,
    Ladder,
    Made,
    Rules,
    ThirteenWins,
)
from tarneeb.scoring import score_contract

__all__ = ["choice_doc", "describe_rules", "format_option_value", "reference_markdown"]

_WIDTH = 78

_SEEDS: tuple[tuple[str, str, str], ...] = (
    (
        "000",
        "Spanish",
        "the fullest guide: dealing, auction, play, scoring, winning; the 31/41/61 targets, "
        "Tarneeb 400 with card points, Sol (no-trump) bids, the Saudi kabsh",
    ),
    (
        "002",
        "Dutch",
        "the Levant game played in sets: 13 tricks wins the set, regional scoring, matches of "
        "13 sets",
    ),
    (
        "003",
        "Russian",
        "the original game with difference scoring and the 16/26/-16 table for 13 tricks, its "
        "regional options, and Egyptian Tarneeb (bids name a strain; an uncontested bid may be "
        "raised)",
    ),
)

_CHOICE_DOCS: dict[str, dict[str, str]] = {
    "dealing": {
        "one-at-a-time": "one card at a time to each player in turn",
        "4-4-5": "in packets of 4, then 4, then 5 cards to each player in turn",
        "13-at-once": "all 13 cards to each player at once",
    },
    "bidding": {
        "tricks": "partnership bids of a number of tricks (or card points); the winner then "
        "names trump",
        "strains": "Egyptian: every bid names a number and a strain, and must outrank the last bid",
        "individual": "the 400 of the apps: each player bids once for their own tricks, with a "
        "fixed trump suit, and scores alone",
    },
    "count": {
        "tricks": "bids, contracts and scores count tricks",
        "card-points": "bids, contracts and scores count card points won in tricks (A 11, 10 10, "
        "K 4, Q 3, J 2; 120 in a deal)",
    },
    "all_pass": {
        "throw-in": "the deal is thrown in and the next dealer deals",
        "dealer-bids": "when the first three players have passed, the dealer must bid the lowest "
        "bid",
    },
    "ladder": {
        "strain-and-number": "each later bid names a higher strain and a higher number (after 7C: "
        "8D or above; nothing outranks a no-trump bid)",
        "number-or-strain": "a bid names a higher number, or the same number in a higher strain "
        "(7C, 7D, ... 7NT, 8C)",
    },
    "made": {
        "taken": "declarers score what they took: bid 8, take 9, score 9",
        "bid": "declarers score their bid: bid 8, take 9, score 8",
    },
    "failed": {
        "minus-bid": "declarers lose their bid: bid 9, take 8, score -9",
        "zero": "declarers score nothing",
    },
    "defenders": {
        "tricks": "the defenders always score what they took, made or failed",
        "tricks-if-set": "the defenders score what they took only when the contract fails",
        "shortfall": "the defenders score only when the contract fails: the bid minus what the "
        "declarers took",
    },
    "thirteen_wins": {
        "no": "taking 13 tricks scores, but does not end the set by itself",
        "any": "a side that takes all 13 tricks wins the set at once",
        "if-bid": "declarers who bid 13 and take all 13 win the set at once",
    },
    "doubling": {
        "none": "points are never multiplied",
        "raise": "the only bidder of an auction may raise before play: every point of the deal "
        "then counts double_factor times",
        "double": "an opponent of the highest bidder may double instead of passing: if that bid "
        "wins the auction, every point of the deal counts double_factor times",
    },
}

_POINT_VALUES = "ace 11, ten 10, king 4, queen 3, jack 2; 120 in a deal"


# -- small helpers --------------------------------------------------------------------


def choice_doc(option: str, value: str) -> str:
    """What one reading of an option with named choices means.

    :raises KeyError: when the reading has no description here (a new choice
        must be described before the reference can be generated).
    """
    return _CHOICE_DOCS[option][value]


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


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def _unit(rules: Rules) -> str:
    return "card points" if rules.count is Count.CARD_POINTS else "tricks"


def _strain_name(strain: Strain) -> str:
    return strain.name.lower().replace("_", "-")


def _seeds_text(seeds: str) -> str:
    return ", ".join(seeds.split()) if seeds.strip() else "-"


def _differences(rules: Rules, base: Rules) -> list[tuple[str, str, str]]:
    """(option, value here, value in ``base``) for every option that differs."""
    ours, theirs = rules.to_dict(), base.to_dict()
    return [
        (name, format_option_value(ours[name]), format_option_value(theirs[name]))
        for name in Rules.option_names()
        if ours[name] != theirs[name]
    ]


# -- how the game goes, topic by topic ------------------------------------------------


def _example_bid(rules: Rules) -> int:
    """A bid for the scoring examples: one step above the lowest, where the rules allow."""
    return min(rules.min_bid + rules.bid_step, rules.max_bid)


def _players() -> str:
    return (
        "four, in two fixed partnerships, partners sitting opposite each other: South and "
        "North against East and West. Dealing, bidding and play go to the right "
        "(counter-clockwise)."
    )


def _dealing(rules: Rules) -> str:
    return (
        "the first dealer is drawn at random, and the turn to deal passes to the right after "
        f"every deal. All 52 cards are dealt, 13 to each player, "
        f"{choice_doc('dealing', rules.dealing.value)}, starting with the first hand (the player "
        "on the dealer's right)."
    )


def _counting(rules: Rules) -> str:
    if rules.count is Count.CARD_POINTS:
        return (
            f"in card points ({_POINT_VALUES}): bids, contracts and scores count the card points "
            "a side wins in its tricks, not the tricks."
        )
    if rules.is_individual:
        return "in tricks; each player counts the tricks they win themselves."
    return "in tricks; the tricks won by either partner count for their side."


def _auction(rules: Rules) -> str:
    unit = _unit(rules)
    levels = f"from {rules.min_bid} to {rules.max_bid}"
    if rules.bid_step != 1:
        levels += f" in steps of {rules.bid_step}"
    if rules.is_individual:
        return (
            "each player in turn, starting with the first hand (right of the dealer), bids "
            "once for the tricks they alone will take, from their lowest bid up to 13; nobody "
            "passes and there is no partnership contract. "
            + _individual_minimums(rules)
            + " When the four bids add up to less than the lowest total, the same dealer deals "
            "again."
        )
    head = "the first hand (right of the dealer) speaks first; then each player in turn passes or "
    if rules.bidding is Bidding.STRAINS:
        strains = [_strain_name(s) for s in rules.strain_order]
        if rules.no_trump:
            strains.append("no-trump")
        return (
            head
            + f"bids a number of {unit} {levels} together with a strain (a trump suit"
            + (" or no-trump" if rules.no_trump else "")
            + "). A bid must outrank the last one: "
            + (
                "a higher number and a higher strain at once, so that nothing outranks a bid in "
                "the highest strain"
                if rules.ladder is Ladder.STRAIN_AND_NUMBER
                else "a higher number, or the same number in a higher strain"
            )
            + f"; strains rank {' < '.join(strains)}. A player who passes is out of "
            "the auction, which ends when the three others have passed after a bid."
        )
    text = head + f"bids a number of {unit} {levels}, higher than the last bid."
    if rules.no_trump:
        text += (
            " Each number may also be bid as no-trump (Sol, e.g. "
            f"{_example_bid(rules)}NT): it outranks the plain bid of the same number, and the "
            "contract is played without trump."
        )
    return text + (
        " A player who passes is out of the auction, which ends when the three others have "
        "passed after a bid."
    )


def _individual_minimums(rules: Rules) -> str:
    rows = rules.individual_minimums
    parts = []
    for i, (score, bid, total) in enumerate(rows):
        if len(rows) == 1:
            span = "at any score"
        elif i == 0:
            span = f"under {rows[1][0]}"
        elif i == len(rows) - 1:
            span = f"{score} and up"
        else:
            span = f"{score} to {rows[i + 1][0] - 1}"
        parts.append(f"{span}: lowest bid {bid}, lowest total {total}")
    return (
        "The lowest bid follows the bidder's own score, the lowest total of the four bids the "
        "highest score at the table: " + "; ".join(parts) + "."
    )


def _rebidding(rules: Rules) -> str:
    if rules.is_individual:
        return "each player bids exactly once."
    if rules.bid_once:
        return "each player may bid only once in an auction; once overbid, they can only pass."
    return (
        "a player who has not passed may bid again whenever their turn comes round (which "
        "happens only after someone has overbid them)."
    )


def _all_pass(rules: Rules) -> str:
    if rules.is_individual:
        return "cannot happen, since every player bids."
    if rules.all_pass is AllPass.DEALER_BIDS:
        lowest = f"{rules.min_bid}"
        if rules.bidding is Bidding.STRAINS:
            lowest += " in any strain"
        return (
            f"when the first three players pass, the dealer may not pass and must bid {lowest} "
            "(the lowest bid), so every deal is played."
        )
    return "if all four pass, the deal is thrown in and the next dealer (to the right) deals."


def _stakes(rules: Rules) -> str:
    factor = rules.double_factor
    if rules.doubling is Doubling.RAISE:
        return (
            "when an auction holds a single bid (everyone else passed), its bidder may raise "
            "it before play: every point of the deal, plus or minus and for both sides, is then "
            f"multiplied by {factor}, overtricks included."
        )
    if rules.doubling is Doubling.DOUBLE:
        return (
            "an opponent of the highest bidder may say double instead of passing (a double "
            "also ends that player's auction; a new bid cancels it). If the doubled bid wins "
            f"the auction, every point of the deal, for both sides, is multiplied by {factor}."
        )
    return "every point counts once (no doubling or raising)."


def _weak_hands(rules: Rules) -> str:
    if rules.weak_redeal:
        return (
            "on their first turn to bid, a player whose hand holds no ace, no king in a suit "
            "of two or more cards, no queen in a suit of three or more and no jack in a suit "
            "of four or more may claim a redeal; the same dealer deals again."
        )
    return "every hand is played as dealt (no redeal)."


def _trump(rules: Rules) -> str:
    no_trump = " A no-trump contract has no trump." if rules.no_trump else ""
    if rules.fixed_trump is not None:
        suit = rules.fixed_trump.name.lower()
        return f"{suit} are always trump; nobody names a trump suit." + no_trump
    if rules.bidding is Bidding.STRAINS:
        return "the strain of the winning bid is trump (the tarneeb)." + no_trump
    return (
        "the highest bidder (the declarer) names the trump suit, the tarneeb, once the auction "
        "is over." + no_trump
    )


def _first_lead(rules: Rules) -> str:
    if rules.is_individual:
        who = "the first hand (right of the dealer) leads to the first trick"
    else:
        who = "the declarer leads to the first trick"
    if rules.first_lead_trump:
        text = who + " and must lead a trump when holding one"
        if rules.no_trump:
            text += " (any card in a no-trump contract)"
        return text + "."
    return who + " with any card."


def _play() -> str:
    return (
        "follow suit if you can, otherwise play any card. The highest trump wins the trick, "
        "or else the highest card of the suit led; the winner leads to the next trick. All "
        "13 tricks are played."
    )


def _made(rules: Rules) -> str:
    unit = _unit(rules)
    bid = _example_bid(rules)
    over = min(bid + (rules.bid_step if rules.count is Count.CARD_POINTS else 1), _top(rules))
    declarers, _ = score_contract(rules, bid, over, _top(rules) - over)
    what = f"the {unit} they took" if rules.made is Made.TAKEN else "their bid"
    return (
        f"when the declarers take at least their bid, they score {what} "
        f"(bid {bid}, take {over}: {_signed(declarers)})."
    )


def _top(rules: Rules) -> int:
    return rules.max_points_per_deal


def _failed_example(rules: Rules) -> tuple[int, int]:
    bid = _example_bid(rules)
    short = rules.bid_step if rules.count is Count.CARD_POINTS else 1
    return bid, max(bid - short, 0)


def _failed(rules: Rules) -> str:
    bid, taken = _failed_example(rules)
    declarers, _ = score_contract(rules, bid, taken, _top(rules) - taken)
    what = "they lose their bid" if rules.failed is Failed.MINUS_BID else "they score nothing"
    return f"when they take less, {what} (bid {bid}, take {taken}: {_signed(declarers)})."


def _defenders(rules: Rules) -> str:
    unit = _unit(rules)
    top = _top(rules)
    bid = _example_bid(rules)
    over = min(bid + (rules.bid_step if rules.count is Count.CARD_POINTS else 1), top)
    _, on_made = score_contract(rules, bid, over, top - over)
    fbid, taken = _failed_example(rules)
    _, on_failed = score_contract(rules, fbid, taken, top - taken)
    if rules.defenders is Defenders.TRICKS:
        what = f"the defenders always score the {unit} they took, made or failed"
    elif rules.defenders is Defenders.TRICKS_IF_SET:
        what = f"the defenders score the {unit} they took, but only when the contract fails"
    else:
        what = (
            "the defenders score only when the contract fails: the bid minus what the "
            "declarers took"
        )
    return (
        f"{what} (declarers bid {bid} and take {over}: defenders {_signed(on_made)}; "
        f"bid {fbid} and take {taken}: defenders {_signed(on_failed)})."
    )


def _thirteen(rules: Rules) -> str:
    if rules.count is Count.CARD_POINTS:
        return "nothing special: card points are counted as they fall (no bonus)."
    parts = []
    if rules.max_bid == 13:
        made13, _ = score_contract(rules, 13, 13, 0)
        parts.append(f"bid 13 and take all 13: declarers {_signed(made13)}")
        down = 10 if rules.min_bid <= 13 else 13
        failed13, defenders13 = score_contract(rules, 13, down, 13 - down)
        parts.append(
            f"bid 13 and take {down}: declarers {_signed(failed13)}, defenders "
            f"{_signed(defenders13)}"
        )
    if rules.min_bid < 13:
        low = rules.min_bid
        kabsh, _ = score_contract(rules, low, 13, 0)
        name = " (the kabsh)" if rules.kabsh is not None else ""
        parts.append(f"take all 13 after bidding {low}{name}: declarers {_signed(kabsh)}")
    return "; ".join(parts) + "."


def _individual_values(rules: Rules) -> str:
    threshold = rules.value_threshold
    groups: list[tuple[int, int, int, int]] = []  # first bid, last bid, value, high value
    for bid in range(rules.individual_minimum(0), 14):
        value, high = rules.bid_value(bid, 0), rules.bid_value(bid, threshold)
        if groups and groups[-1][2:] == (value, high) and groups[-1][1] == bid - 1:
            groups[-1] = (groups[-1][0], bid, value, high)
        else:
            groups.append((bid, bid, value, high))
    parts = []
    for first, last, value, high in groups:
        bids = str(first) if first == last else f"{first}-{last}"
        text = f"{bids}: {value}"
        if high != value:
            text += f" ({high} from a score of {threshold})"
        parts.append(text)
    return "; ".join(parts)


def _individual_scoring(rules: Rules) -> list[tuple[str, str]]:
    lowest = rules.individual_minimum(0)
    # Show a bid whose value is not its face value, where the table has one.
    low = next((b for b in range(lowest, 14) if rules.bid_value(b, 0) != b), lowest)
    value = rules.bid_value(low, 0)
    return [
        (
            "Made bid",
            "a player who takes at least their bid adds its value, whatever the overtricks. "
            f"Values by bid: {_individual_values(rules)}.",
        ),
        (
            "Failed bid",
            f"a player who takes fewer tricks than their bid loses its value (bid {low}, take "
            f"{low - 1}: -{value}).",
        ),
        (
            "Partners",
            "each player scores alone; a side's score is the sum of its two players' scores.",
        ),
        ("13 tricks", "a bid of 13 is worth its value like any other (no bonus)."),
    ]


def _winning(rules: Rules) -> str:
    text = ""
    if rules.thirteen_wins is not ThirteenWins.NO:
        who = (
            "a side that takes all 13 tricks in a deal wins"
            if rules.thirteen_wins is ThirteenWins.ANY
            else "declarers who bid 13 and take all 13 win"
        )
        text = f"{who} the set at once"
        if rules.no_win_below_zero:
            text += ", unless the side's score (that deal counted) is below zero"
        text += ". Otherwise, "
    if rules.is_individual:
        floor = "zero or more" if rules.partner_zero_ok else "above zero"
        text += (
            f"scores are counted at the end of every deal, and a side wins the set when one "
            f"partner has reached {rules.target} while the other's score is {floor}. If both "
            "sides qualify after the same deal, the higher side total wins; a tie plays "
            "another deal."
        )
    else:
        text += (
            f"scores are counted at the end of every deal, and a side that has reached "
            f"{rules.target} wins the set. If both sides have, the higher score wins; a tie "
            "plays another deal."
        )
    return text[0].lower() + text[1:]


def _sets(rules: Rules) -> str:
    if rules.sets == 1:
        return "one set is the whole match: the side that wins it wins."
    return (
        f"a match is {rules.sets} sets, each starting again from zero; the side with more "
        "points over all the sets wins the match (with equal points, the side that won more "
        "sets; otherwise the match is drawn)."
    )


def _topics(rules: Rules) -> list[tuple[str, str]]:
    topics = [
        ("Players", _players()),
        ("Dealing", _dealing(rules)),
        ("Counting", _counting(rules)),
        ("Auction", _auction(rules)),
        ("Re-bidding", _rebidding(rules)),
        ("All pass", _all_pass(rules)),
    ]
    if not rules.is_individual:
        topics.append(("Stakes", _stakes(rules)))
    topics += [
        ("Weak hands", _weak_hands(rules)),
        ("Trump", _trump(rules)),
        ("First lead", _first_lead(rules)),
        ("Play", _play()),
    ]
    if rules.is_individual:
        topics += _individual_scoring(rules)
    else:
        topics += [
            ("Made contract", _made(rules)),
            ("Failed contract", _failed(rules)),
            ("Defenders", _defenders(rules)),
            ("13 tricks", _thirteen(rules)),
        ]
    topics += [("Winning", _winning(rules)), ("Sets", _sets(rules))]
    return topics


def _game_lines(rules: Rules) -> list[str]:
    return [_bullet(label, text[0].lower() + text[1:]) for label, text in _topics(rules)]


# -- the two public texts -------------------------------------------------------------


def describe_rules(rules: Rules, name: str | None = None) -> str:
    """The reference for people of one set of rules: what ``tarneeb rules NAME`` prints.

    The preset's name and summary, the options changed from it, how the game
    goes under these rules in plain words, then every option with its value.
    ``name`` is the preset the rules were made from (found with
    :func:`~tarneeb.presets.preset_name` when not given); rules that are no
    preset are described as changes from the default preset.
    """
    if name is None:
        name = preset_name(rules)
    key = "" if name is None else name.strip().lower()
    is_preset = key in PRESETS
    base_name = key if is_preset else DEFAULT_PRESET
    base = PRESETS[base_name]
    title = base_name if is_preset else (name or "custom")
    lines = [f"# Tarneeb rules: {title}", ""]
    if is_preset:
        lines += [_paragraph(PRESET_SUMMARIES[base_name]), ""]
    changes = [f"{o} = {v} ({base_name}: {b})" for o, v, b in _differences(rules, base)]
    if changes:
        lines += [_paragraph(f"Changed from the {base_name} preset: {'; '.join(changes)}."), ""]
    lines += ["## How the game goes", "", *_game_lines(rules), "", "## Options", ""]
    plain = rules.to_dict()
    lines += _table(
        ["option", "value"],
        [[option, format_option_value(plain[option])] for option in Rules.option_names()],
    )
    lines += [
        "",
        _paragraph(
            "Any option can be changed on top of a preset: "
            f"`tarneeb rules {base_name} -o target=31` (values as shown above), or "
            "`Rules.replace(target=31)` in Python. docs/rules.md explains every option."
        ),
    ]
    return "\n".join(lines) + "\n"


def reference_markdown() -> str:
    """The whole rules reference, ``docs/rules.md``: the game, every preset, every option.

    Regenerate the file with ``python -m tarneeb.cli rules --markdown > docs/rules.md``.
    """
    classic = PRESETS[DEFAULT_PRESET]
    out = [
        "# Tarneeb rules reference",
        "",
        "<!-- Generated from the code: python -m tarneeb.cli rules --markdown > docs/rules.md",
        "     Do not edit by hand; tests/test_reference.py checks that it is up to date. -->",
        "",
        _paragraph(
            'Tarneeb ("trump" in Arabic) is the partnership trick-taking game of the Levant, '
            "played across Lebanon, Syria, Jordan, Palestine, Iraq and the Gulf. This page is "
            "generated from the rules engine itself: every preset and every option below is "
            "exactly what the `tarneeb` package plays."
        ),
        "",
        "## The common core",
        "",
        _paragraph("Whatever the local rules, these hold at every table:"),
        "",
        *(_bullet(label, text) for label, text in _CORE),
        "",
        _paragraph(
            "Everything else varies from one table to the next: the target, whether a player "
            "may bid twice, what happens when everyone passes, how made and failed contracts "
            "and the defenders score, what all 13 tricks are worth, and more. Each reading is "
            "a rule option, and a preset is a named bundle of options."
        ),
        "",
        "## Where the rules come from",
        "",
        _paragraph(
            "The rules follow three written sources (seeds), summarised in our own words; "
            "where they disagree, each reading became an option. The options table names the "
            'seeds each option comes from; "-" marks the options of the 400 that the big card '
            "apps play (the syrian400 preset) and the project's own choices where a seed is "
            "silent (such as the step of card-point bids)."
        ),
        "",
        *_table(["seed", "language", "what it covers"], [list(s) for s in _SEEDS]),
        "",
        "## Presets",
        "",
        _paragraph(
            f"A preset is a named set of options; {DEFAULT_PRESET} is the default. List them "
            "with `tarneeb rules --list` and read one with `tarneeb rules NAME`."
        ),
        "",
        *_table(
            ["preset", "summary"],
            [[f"`{name}`", _cell(summary)] for name, summary in PRESET_SUMMARIES.items()],
        ),
    ]
    for name, rules in PRESETS.items():
        out += ["", f"### {name}", "", _paragraph(PRESET_SUMMARIES[name]), ""]
        changes = _differences(rules, classic)
        if name == DEFAULT_PRESET:
            out += [_paragraph("The default preset: every option at its default value."), ""]
        elif changes:
            out += [
                _paragraph(f"Options changed from {DEFAULT_PRESET}:"),
                "",
                *(_bullet(f"`{o}`", f"`{v}` ({DEFAULT_PRESET}: `{b}`)") for o, v, b in changes),
                "",
            ]
        out += [_paragraph("How the game goes:"), "", *_game_lines(rules)]
    out += [
        "",
        "## Options",
        "",
        _paragraph(
            f"Every option, its value in {DEFAULT_PRESET} (the default), its readings where "
            "it has named ones, what it sets, and the seeds it comes from."
        ),
        "",
    ]
    plain = classic.to_dict()
    rows = []
    for option in Rules.option_names():
        doc, seeds = Rules.option_doc(option)
        choices = Rules.option_choices(option)
        rows.append(
            [
                f"`{option}`",
                f"`{format_option_value(plain[option])}`",
                ", ".join(f"`{c}`" for c in choices) if choices else "",
                _cell(doc),
                _seeds_text(seeds),
            ]
        )
    out += _table(["option", DEFAULT_PRESET, "readings", "what it sets", "seeds"], rows, pad=False)
    out += ["", "### The readings of each option", ""]
    for option in Rules.option_names():
        choices = Rules.option_choices(option)
        if not choices:
            continue
        out += [f"`{option}`:", ""]
        out += [_bullet(f"`{c}`", choice_doc(option, c)) for c in choices]
        out += [""]
    out += [
        "## Changing options",
        "",
        _paragraph(
            "Any option can be set on top of any preset. On the command line, `-o OPTION=VALUE` "
            "(repeatable), with values written as in the tables above (numbers, true/false, "
            "none, a reading, or JSON for lists and tables):"
        ),
        "",
        "```",
        "tarneeb rules classic -o target=31 -o bid_once=true",
        "tarneeb rules egyptian -o double_factor=4 --json",
        "```",
        "",
        _paragraph(
            "In Python, `find_rules(NAME).replace(OPTION=VALUE, ...)`. A value, or a "
            "combination of options, that cannot work is refused with a message naming the "
            "options (a `RulesError`)."
        ),
    ]
    return "\n".join(out) + "\n"


_CORE: tuple[tuple[str, str], ...] = (
    (
        "Players",
        "four, in two fixed partnerships; partners sit opposite each other and their tricks "
        "count together.",
    ),
    (
        "Cards",
        "one pack of 52 cards without jokers; in every suit the ace is high, then king, "
        "queen, jack, 10 and so down to the 2.",
    ),
    (
        "Direction",
        "everything goes to the right (counter-clockwise): the cards as they are dealt, the "
        "bidding, the play, and the turn to deal. The first dealer is chosen at random.",
    ),
    (
        "First hand",
        "the player on the dealer's right receives cards first and speaks first in the auction.",
    ),
    (
        "Auction",
        "in turn, each player passes or bids a number of tricks, at least 7 and at most 13, "
        "above the last bid. Passing is final. Once a bid has been followed by three passes "
        "the auction is over; if nobody bids at all, the cards are thrown in and the next "
        "dealer deals.",
    ),
    (
        "Trump",
        "the highest bidder chooses the trump suit, the tarneeb, and leads to the first trick.",
    ),
    (
        "Play",
        "each player must follow the suit led when able, and may play any card otherwise. A "
        "trick goes to the highest trump in it, or, with no trump in it, to the highest card of "
        "the suit led; its winner leads next. All 13 tricks are played.",
    ),
    (
        "Scoring",
        "points add up deal after deal, and a side wins once it has reached the agreed target "
        "at the end of a deal.",
    ),
)
