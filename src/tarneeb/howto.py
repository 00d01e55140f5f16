"""How the game goes under one set of rules, topic by topic, in any catalogue language.

Every sentence is a message of the core catalogue (:mod:`tarneeb.i18n`) chosen
by an option's value, and every scoring example is worked out by
:func:`~tarneeb.scoring.score_contract`, so the text cannot drift from the
engine. :mod:`tarneeb.reference` puts the topics on the page.

>>> from tarneeb.i18n import translator
>>> from tarneeb.presets import find_rules
>>> dict(topics(find_rules("classic"), translator("en")))["Made contract"]
'when the declarers take at least their bid, they score the tricks they took (bid 8, take 9: +9).'
"""

from __future__ import annotations

from tarneeb.actions import Strain
from tarneeb.i18n import Translator
from tarneeb.rules import (
    AllPass,
    BelowZero,
    Bidding,
    Count,
    Defenders,
    Doubling,
    Failed,
    KabshSide,
    Made,
    Rules,
    ThirteenWins,
)
from tarneeb.scoring import score_contract

__all__ = ["signed", "strain_names", "topics", "unit_key"]


def signed(points: int) -> str:
    """Points with their sign: ``+9``, ``0``, ``-8``."""
    return f"+{points}" if points > 0 else str(points)


def unit_key(rules: Rules) -> str:
    """``"points"`` for a card-point game, else ``"tricks"``: the tail of unit-bound keys."""
    return "points" if rules.count is Count.CARD_POINTS else "tricks"


def strain_names(rules: Rules, tr: Translator) -> str:
    """The strains from lowest to highest, as ``clubs < diamonds < ...``."""
    names = [tr(f"strain.{_strain_key(s)}") for s in rules.strain_order]
    if rules.no_trump:
        names.append(tr("strain.no-trump"))
    return " < ".join(names)


def _strain_key(strain: Strain) -> str:
    return strain.name.lower().replace("_", "-")


def _example_bid(rules: Rules) -> int:
    """A bid for the scoring examples: one step above the lowest, where the rules allow."""
    return min(rules.min_bid + rules.bid_step, rules.max_bid)


def _step(rules: Rules) -> int:
    return rules.bid_step if rules.count is Count.CARD_POINTS else 1


def _top(rules: Rules) -> int:
    return rules.max_points_per_deal


def _dealing(rules: Rules, tr: Translator) -> str:
    return tr("game.dealing", how=tr(f"reading.dealing.{rules.dealing.value}"))


def _counting(rules: Rules, tr: Translator) -> str:
    if rules.count is Count.CARD_POINTS:
        return tr("game.counting.points")
    if rules.is_individual:
        return tr("game.counting.individual")
    return tr("game.counting.tricks")


def _auction(rules: Rules, tr: Translator) -> str:
    if rules.is_individual:
        return tr("game.auction.individual", minimums=_individual_minimums(rules, tr))
    unit = unit_key(rules)
    levels = tr("game.levels", low=rules.min_bid, high=rules.max_bid)
    if rules.bid_step != 1:
        levels = tr("game.levels.step", low=rules.min_bid, high=rules.max_bid, step=rules.bid_step)
    if rules.bidding is Bidding.STRAINS:
        strains = strain_names(rules, tr)
        key = "game.auction.strains.nt" if rules.no_trump else "game.auction.strains"
        ladder = tr(f"game.ladder.{rules.ladder.value}")
        return tr(f"{key}.{unit}", levels=levels, strains=strains, ladder=ladder)
    text = tr(f"game.auction.{unit}", levels=levels)
    if rules.no_trump:
        text += " " + tr("game.auction.sol", example=f"{_example_bid(rules)}NT")
    return text + " " + tr("game.auction.end")


def _individual_minimums(rules: Rules, tr: Translator) -> str:
    rows = rules.individual_minimums
    parts = []
    for i, (score, bid, total) in enumerate(rows):
        if len(rows) == 1:
            span = tr("game.span.any")
        elif i == 0:
            span = tr("game.span.under", score=rows[1][0])
        elif i == len(rows) - 1:
            span = tr("game.span.up", score=score)
        else:
            span = tr("game.span.between", low=score, high=rows[i + 1][0] - 1)
        parts.append(tr("game.minimum", span=span, bid=bid, total=total))
    return tr("sep.items").join(parts)


def _rebidding(rules: Rules, tr: Translator) -> str:
    if rules.is_individual:
        return tr("game.rebidding.individual")
    return tr("game.rebidding.once" if rules.bid_once else "game.rebidding.again")


def _all_pass(rules: Rules, tr: Translator) -> str:
    if rules.is_individual:
        return tr("game.all_pass.individual")
    if rules.all_pass is AllPass.DEALER_BIDS:
        redeal = ".redeal" if rules.weak_redeal else ""
        if rules.bidding is Bidding.STRAINS:
            return tr(f"game.all_pass.dealer.strains{redeal}", bid=rules.min_bid)
        return tr(f"game.all_pass.dealer{redeal}", bid=rules.min_bid)
    return tr("game.all_pass.throw-in")


def _stakes(rules: Rules, tr: Translator) -> str:
    factor = rules.double_factor
    if rules.doubling is Doubling.RAISE:
        return tr("game.stakes.raise", factor=factor)
    if rules.doubling is Doubling.DOUBLE:
        return tr("game.stakes.double", factor=factor)
    return tr("game.stakes.none")


def _trump(rules: Rules, tr: Translator) -> str:
    if rules.fixed_trump is not None:
        text = tr("game.trump.fixed", suit=tr(f"suit.{rules.fixed_trump.name.lower()}"))
    elif rules.bidding is Bidding.STRAINS:
        text = tr("game.trump.strain")
    else:
        text = tr("game.trump.declarer")
    return text + (" " + tr("game.trump.no-trump") if rules.no_trump else "")


def _first_lead(rules: Rules, tr: Translator) -> str:
    who = "first-hand" if rules.is_individual else "declarer"
    if not rules.first_lead_trump:
        return tr(f"game.lead.{who}.any")
    return tr(f"game.lead.{who}.trump" + (".nt" if rules.no_trump else ""))


def _made(rules: Rules, tr: Translator) -> str:
    bid = _example_bid(rules)
    over = min(bid + _step(rules), _top(rules))
    declarers, _ = score_contract(rules, bid, over, _top(rules) - over)
    what = f"taken.{unit_key(rules)}" if rules.made is Made.TAKEN else "bid"
    return tr(f"game.made.{what}", bid=bid, taken=over, score=signed(declarers))


def _failed_example(rules: Rules) -> tuple[int, int]:
    bid = _example_bid(rules)
    return bid, max(bid - _step(rules), 0)


def _failed(rules: Rules, tr: Translator) -> str:
    bid, taken = _failed_example(rules)
    declarers, _ = score_contract(rules, bid, taken, _top(rules) - taken)
    what = "minus-bid" if rules.failed is Failed.MINUS_BID else "zero"
    return tr(f"game.failed.{what}", bid=bid, taken=taken, score=signed(declarers))


def _defenders(rules: Rules, tr: Translator) -> str:
    top = _top(rules)
    bid = _example_bid(rules)
    over = min(bid + _step(rules), top)
    _, on_made = score_contract(rules, bid, over, top - over)
    fbid, taken = _failed_example(rules)
    _, on_failed = score_contract(rules, fbid, taken, top - taken)
    if rules.defenders is Defenders.SHORTFALL:
        key = "game.defenders.shortfall"
    else:
        key = f"game.defenders.{rules.defenders.value}.{unit_key(rules)}"
    return tr(
        key,
        bid=bid,
        over=over,
        on_made=signed(on_made),
        failed_bid=fbid,
        taken=taken,
        on_failed=signed(on_failed),
    )


def _thirteen(rules: Rules, tr: Translator) -> str:
    if rules.count is Count.CARD_POINTS:
        return tr("game.thirteen.points")
    parts = []
    if rules.max_bid == 13:
        made13, _ = score_contract(rules, 13, 13, 0)
        parts.append(tr("game.thirteen.made", score=signed(made13)))
        down = 10 if rules.min_bid <= 13 else 13
        failed13, defenders13 = score_contract(rules, 13, down, 13 - down)
        parts.append(
            tr(
                "game.thirteen.failed",
                taken=down,
                score=signed(failed13),
                defenders=signed(defenders13),
            )
        )
    if rules.min_bid < 13:
        low = rules.min_bid
        kabsh, _ = score_contract(rules, low, 13, 0)
        key = "game.thirteen.kabsh" if rules.kabsh is not None else "game.thirteen.unbid"
        parts.append(tr(key, bid=low, score=signed(kabsh)))
        if rules.kabsh_side is KabshSide.EITHER:
            _, defenders13 = score_contract(rules, low, 0, 13)
            parts.append(tr("game.thirteen.kabsh-either", score=signed(defenders13)))
    return tr("sep.items").join(parts) + "."


def _individual_values(rules: Rules, tr: Translator) -> str:
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
        if high != value:
            parts.append(
                tr("game.value.high", bids=bids, value=value, high=high, threshold=threshold)
            )
        else:
            parts.append(tr("game.value", bids=bids, value=value))
    return tr("sep.items").join(parts)


def _individual_scoring(rules: Rules, tr: Translator) -> list[tuple[str, str]]:
    lowest = rules.individual_minimum(0)
    # Show a bid whose value is not its face value, where the table has one.
    low = next((b for b in range(lowest, 14) if rules.bid_value(b, 0) != b), lowest)
    value = rules.bid_value(low, 0)
    return [
        (tr("topic.made-bid"), tr("game.bid.made", values=_individual_values(rules, tr))),
        (tr("topic.failed-bid"), tr("game.bid.failed", bid=low, taken=low - 1, value=value)),
        (tr("topic.partners"), tr("game.partners")),
        (tr("topic.thirteen"), tr("game.thirteen.individual")),
    ]


def _winning(rules: Rules, tr: Translator) -> str:
    if rules.is_individual:
        floor = "zero" if rules.partner_zero_ok else "positive"
        rest = tr(f"game.winning.individual.{floor}", target=rules.target)
    else:
        rest = tr("game.winning.target", target=rules.target)
        if rules.no_win_below_zero is BelowZero.BEFORE_DEAL:
            rest += " " + tr("game.winning.before-deal")
    if rules.thirteen_wins is ThirteenWins.NO:
        return rest
    below = "" if rules.no_win_below_zero is BelowZero.NO else f".{rules.no_win_below_zero.value}"
    first = tr(f"game.winning.thirteen.{rules.thirteen_wins.value}{below}")
    return tr("game.winning.otherwise", first=first, rest=rest)


def _sets(rules: Rules, tr: Translator) -> str:
    if rules.sets == 1:
        return tr("game.sets.one")
    return tr("game.sets.many", sets=rules.sets)


def topics(rules: Rules, tr: Translator) -> list[tuple[str, str]]:
    """(topic, what it says) for every topic of the game under ``rules``, in order."""
    out = [
        (tr("topic.players"), tr("game.players")),
        (tr("topic.dealing"), _dealing(rules, tr)),
        (tr("topic.counting"), _counting(rules, tr)),
        (tr("topic.auction"), _auction(rules, tr)),
        (tr("topic.rebidding"), _rebidding(rules, tr)),
        (tr("topic.all-pass"), _all_pass(rules, tr)),
    ]
    if not rules.is_individual:
        out.append((tr("topic.stakes"), _stakes(rules, tr)))
    out += [
        (tr("topic.weak-hands"), tr("game.weak.redeal" if rules.weak_redeal else "game.weak.none")),
        (tr("topic.trump"), _trump(rules, tr)),
        (tr("topic.first-lead"), _first_lead(rules, tr)),
        (tr("topic.play"), tr("game.play")),
    ]
    if rules.is_individual:
        out += _individual_scoring(rules, tr)
    else:
        out += [
            (tr("topic.made"), _made(rules, tr)),
            (tr("topic.failed"), _failed(rules, tr)),
            (tr("topic.defenders"), _defenders(rules, tr)),
            (tr("topic.thirteen"), _thirteen(rules, tr)),
        ]
    out += [(tr("topic.winning"), _winning(rules, tr)), (tr("topic.sets"), _sets(rules, tr))]
    return out
