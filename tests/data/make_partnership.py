"""Find and verify the positions of the partnership suite (tests/data/partnership/).

Run as ``python tests/data/make_partnership.py [--deals N] [--out DIR]``
(needs DDS, the solver extra). Four heuristic bots play seeded classic deals;
at every decision a detector per principle asks whether the position is one
of its kind (partner's sure winner can be overtaken, partner's suit can be
returned, the contract is made and masters can be cashed, ...). A position is
kept only when double-dummy play confirms the principle: on the actual layout
every accepted card keeps the most tricks and every card the principle rejects
keeps fewer, and averaged over layouts the seat cannot tell from the actual
one the accepted cards are not worse. Positions of the score (play safe, take
risks, bid to the score) are the same deals with the scores set so that the
contract decides the set; they are kept when the accepted actions win the set
in clearly more of those layouts than the rejected ones. Each kept position is
written as one JSON file with its evidence (the ``check`` field).

The suite is data, kept as written: the script is seeded, but the positions
come from deals the heuristic bot plays, so a changed bot finds other ones
(``--only PRINCIPLE,...`` redoes some kinds and leaves the other files alone).
``tests/test_suite.py`` re-checks every position. Score positions are screened
on 20 layouts, then confirmed on 240 (play; 60 for bids): the accepted cards
win the set in at least 5 points more of them than the card that takes the
most tricks, a paired difference at least two standard errors from zero.
The layouts come from :meth:`tarneeb.view.View.sample_hands`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

from tarneeb import Card, Deal, Seat, find_rules  # noqa: E402
from tarneeb.actions import Bid, Pass, Phase, format_action  # noqa: E402
from tarneeb.bots import HeuristicBot, Knowledge  # noqa: E402
from tarneeb.cards import SUIT_MASKS  # noqa: E402
from tarneeb.record import format_deal  # noqa: E402
from tarneeb.rules import Rules  # noqa: E402
from tarneeb.scoring import score_contract, set_winner  # noqa: E402
from tarneeb.seats import Team  # noqa: E402
from tarneeb.solver import Position, solve_many  # noqa: E402
from tarneeb.view import View  # noqa: E402

SAMPLES = 12
CONFIRM_PLAY = 240  # layouts a score position is confirmed on
CONFIRM_BID = 60
TARGETS = {  # how many positions of each principle to keep at most
    "no-overtake": 8,
    "no-ruff-partner": 6,
    "return-partner": 7,
    "unblock": 5,
    "cash-out": 6,
    "cash-to-goal": 5,
    "keep-master-trump": 6,
    "draw-trumps": 5,
    "defence": 6,
    "declarer": 5,
    "play-safe": 5,
    "take-risk": 5,
    "bid-to-score": 6,
}


@dataclass
class Found:
    principle: str
    deal: Deal
    accept: list[str]
    why: str
    source: str
    check: dict[str, object]


def name(card: Card) -> str:
    return card.format()


def seat_name(seat: Seat) -> str:
    return seat.name.title()


# -- double-dummy evidence ------------------------------------------------------------


def actual_values(deal: Deal) -> dict[Card, int]:
    """Tricks each legal card keeps for the side to play, on the actual layout."""
    solution = solve_many([Position.from_deal(deal)])[0]
    return {Card(c): v for c, v in solution.values.items()}


def mean_values(deal: Deal, rng: random.Random) -> dict[Card, float]:
    """Tricks each legal card keeps, averaged over layouts the seat cannot tell apart."""
    trick = deal.current_trick
    assert trick is not None
    view = deal.view(deal.to_act)  # type: ignore[arg-type]
    first = deal.rules.first_lead_trump and not len(deal.played)
    positions = []
    for _ in range(SAMPLES):
        hands = view.sample_hands(rng)
        positions.append(Position(hands, deal.trump, trick.leader, trick.cards, lead_trump=first))
    solutions = solve_many(positions)
    return {Card(c): sum(s.values[c] for s in solutions) / SAMPLES for c in solutions[0].values}


def strict(actual: dict[Card, int], conforming: Sequence[Card], violating: Sequence[Card]) -> bool:
    """The actual layout's part of :func:`judged`, before any layout is sampled."""
    if not conforming or not violating:
        return False
    top = max(actual.values())
    return all(actual[c] < top for c in violating) and any(actual[c] == top for c in conforming)


def judged(
    actual: dict[Card, int],
    mean: dict[Card, float],
    conforming: Sequence[Card],
    violating: Sequence[Card],
) -> list[Card] | None:
    """The accepted cards, when double-dummy play confirms the principle; else ``None``.

    Accepted: the cards the principle does not reject that keep the most tricks on
    the actual layout and, on average, within a quarter trick of the best. Kept only
    when at least half the cards the principle asks for are accepted (the principle,
    not some other detail, decides), every rejected card keeps fewer tricks on the
    actual layout, and none is better on average than the accepted ones.
    """
    if not conforming or not violating:
        return None
    top = max(actual.values())
    if any(actual[c] >= top for c in violating):
        return None
    candidates = [c for c in actual if c not in violating and actual[c] == top]
    if not candidates:
        return None
    best_mean = max(mean[c] for c in candidates)
    accepted = [c for c in candidates if mean[c] >= best_mean - 0.25]
    if 2 * sum(1 for c in accepted if c in conforming) < len(conforming):
        return None  # the principle must decide: most of the cards it allows are best
    if max(mean[c] for c in violating) > best_mean:
        return None
    return sorted(accepted)


# -- detectors --------------------------------------------------------------------------

Detector = Callable[[Deal, View, Knowledge], "tuple[str, list[Card], list[Card], str, str] | None"]


def trick_state(view: View, know: Knowledge) -> tuple[Card, Seat, int]:
    trick = view.current_trick
    assert trick is not None and trick.cards
    best, index = trick.cards[0], 0
    for i, card in enumerate(trick.cards[1:], 1):
        if know.beats(card, best):
            best, index = card, i
    return best, trick.seat_of(index), len(trick.cards)


def sure_for_partner(view: View, know: Knowledge, best: Card, position: int) -> bool:
    """Whether the card winning for partner cannot be beaten by the opponent still to play."""
    if position == 3:
        return True
    nxt = view.seat.next
    possible = know.possible(nxt).mask
    led = view.current_trick.cards[0].suit  # type: ignore[union-attr]
    if possible & SUIT_MASKS[led]:
        return not (best.suit == led and possible & SUIT_MASKS[led] & ~((2 << best) - 1))
    if view.trump is None or not possible & SUIT_MASKS[view.trump]:
        return True
    return best.suit == view.trump and not possible & SUIT_MASKS[view.trump] & ~((2 << best) - 1)


def declaring(view: View) -> bool:
    return view.contract is not None and view.contract.team == view.seat.team


def goal_left(view: View) -> int:
    """Tricks our side still needs to make (declaring) or set (defending) the contract."""
    assert view.contract is not None
    taken = view.tricks_taken[view.seat] + view.tricks_taken[view.seat.partner]
    goal = view.contract.level if declaring(view) else 14 - view.contract.level
    return goal - taken


def sure_masters(view: View, know: Knowledge, legal: Sequence[Card]) -> list[Card]:
    opponents = (view.seat.next, view.seat.previous)
    out = []
    for card in legal:
        if not know.is_master(card):
            continue
        if card.suit != view.trump and know.opponents_may_ruff(card.suit):
            continue
        nobody_follows = not any(know.can_hold(o, card.suit) for o in opponents)
        can_ruff = view.trump is not None and any(know.can_hold(o, view.trump) for o in opponents)
        if card.suit != view.trump and nobody_follows and can_ruff:
            continue
        out.append(card)
    return out


def detect_follow(deal: Deal, view: View, know: Knowledge, legal: list[Card]):
    best, winner, position = trick_state(view, know)
    led = view.current_trick.cards[0].suit  # type: ignore[union-attr]
    following = legal[0].suit == led
    beaters = [c for c in legal if know.beats(c, best)]
    if winner == view.seat.partner and sure_for_partner(view, know, best, position) and beaters:
        if following:
            return (
                "no-overtake",
                [c for c in legal if c not in beaters],
                beaters,
                f"{seat_name(winner)}'s {name(best)} already wins this trick: overtaking it "
                "spends a card that can take a trick of its own later.",
                "heuristic: nobody overtakes a partner's winning card",
            )
        return (
            "no-ruff-partner",
            [c for c in legal if c not in beaters],
            beaters,
            f"{seat_name(winner)}'s {name(best)} already wins this trick: ruffing it wastes "
            "a trump that can win a trick of its own.",
            "heuristic: nobody trumps a partner's winning card",
        )
    if (
        following
        and winner == view.seat.partner
        and position >= 1
        and view.current_trick.seat_of(0) == view.seat.partner  # type: ignore[union-attr]
        and len(legal) >= 2
        and not beaters
    ):
        high = max(legal)
        return (
            "unblock",
            [high],
            [min(legal)],
            f"{seat_name(winner)} leads {led.name.lower()} and wins with the {name(best)}: "
            f"playing the {name(high)} now unblocks the suit, so that it runs without a "
            "card of ours stopping it.",
            "card play: unblock partner's long suit",
        )
    if following and winner != view.seat.partner and position == 1 and beaters:
        low = [c for c in legal if c not in beaters]
        high = [c for c in beaters if not know.is_master(c)]
        if low and high:
            return (
                "declarer" if declaring(view) else "defence",
                low,
                high,
                "second hand low: the partner still to play can win the trick, and an "
                "honour played now is caught.",
                "heuristic: second hand low",
            )
    if following and winner != view.seat.partner and position == 2 and beaters:
        low = [c for c in legal if c not in beaters]
        if low:
            return (
                "declarer" if declaring(view) else "defence",
                beaters,
                low,
                f"third hand high: the {name(best)} wins the trick unless we beat it.",
                "heuristic: third hand high",
            )
    if position == 3 and winner != view.seat.partner and beaters and len(beaters) < len(legal):
        cheap = min(beaters, key=lambda c: (c.suit != led, c))
        return (
            "declarer" if declaring(view) else "defence",
            [cheap],
            [c for c in legal if c not in beaters],
            f"last to play: win the trick with the {name(cheap)}, the cheapest card that beats "
            f"the {name(best)}.",
            "heuristic: win as cheaply as possible",
        )
    return None


def partner_led_suit(view: View) -> object:
    for trick in view.tricks:
        if trick.leader == view.seat.partner and trick.cards:
            suit = trick.cards[0].suit
            if suit != view.trump:
                return suit
    return None


def detect_lead(deal: Deal, view: View, know: Knowledge, legal: list[Card]):
    contract = view.contract
    assert contract is not None
    out = []
    masters = sure_masters(view, know, legal)
    left = goal_left(view)
    others = [c for c in legal if c not in masters]
    if masters and left <= 0:
        out.append(
            (
                "cash-out",
                masters,
                others,
                "the contract is "
                + ("made" if declaring(view) else "set")
                + ": every further trick still scores, so take the sure winners before the "
                "opponents get in to cash theirs.",
                "classic scoring: both sides score every trick they take",
            )
        )
    elif masters and 0 < left <= len(masters):
        out.append(
            (
                "cash-to-goal",
                masters,
                others,
                f"{left} more trick{'s' if left > 1 else ''} "
                + ("make" if declaring(view) else "set")
                + " the contract, and the sure winners are enough: cash them now.",
                "heuristic: cash sure winners when they make the contract",
            )
        )
    suit = partner_led_suit(view)
    if not declaring(view) and suit is not None:
        mine = [c for c in legal if c.suit == suit]
        if mine:
            out.append(
                (
                    "return-partner",
                    mine,
                    [c for c in legal if c.suit != suit],
                    f"{seat_name(view.seat.partner)} led {suit.name.lower()}: returning "  # type: ignore[attr-defined]
                    "partner's suit sets up the tricks partner went for.",
                    "defence: return partner's suit",
                )
            )
    trump = view.trump
    if declaring(view) and trump is not None and know.trumps_out():
        opp_trumps = any(know.can_hold(o, trump) for o in (view.seat.next, view.seat.previous))
        mine = [c for c in legal if c.suit == trump]
        if opp_trumps and mine:
            out.append(
                (
                    "draw-trumps",
                    mine,
                    [c for c in legal if c.suit != trump],
                    "draw trumps: the opponents' trumps would ruff our winners.",
                    "heuristic: the declarer draws trumps early",
                )
            )
    partner = view.seat.partner
    if not declaring(view) and trump is not None and know.can_hold(partner, trump):
        voids = [s for s in know.voids[partner] if s != trump]
        mine = [c for c in legal if c.suit in voids]
        if mine:
            out.append(
                (
                    "defence",
                    mine,
                    [c for c in legal if c.suit not in voids],
                    f"{seat_name(partner)} has shown out of {mine[0].suit.name.lower()} and may "
                    "still hold trumps: lead the suit for partner to ruff.",
                    "heuristic: give partner a ruff",
                )
            )
    return out


def detect_master_trump(deal: Deal, view: View, know: Knowledge, legal: list[Card]):
    trump = view.trump
    if trump is None or not know.trumps_out() or declaring(view):
        return None
    master = [c for c in legal if c.suit == trump and know.is_master(c)]
    if not master or len(legal) < 2:
        return None
    trick = view.current_trick
    if trick is not None and trick.cards and legal[0].suit == trick.cards[0].suit == trump:
        return None  # following a trump lead: no choice of keeping it
    return (
        "keep-master-trump",
        [c for c in legal if c not in master],
        master,
        f"the {name(master[0])} is the master trump: kept, it wins a trick whenever it is "
        "needed and stops the opponents' long suit; spent now it wins nothing extra.",
        "heuristic: defenders keep a master trump",
    )


def detections(deal: Deal, view: View) -> list[tuple[str, list[Card], list[Card], str, str]]:
    know = Knowledge.of(view)
    legal = [a for a in view.legal_actions if isinstance(a, Card)]
    if len(legal) < 2:
        return []
    trick = view.current_trick
    out = []
    if trick is not None and trick.cards:
        found = detect_follow(deal, view, know, legal)
        if found:
            out.append(found)
    else:
        out.extend(detect_lead(deal, view, know, legal))
    found = detect_master_trump(deal, view, know, legal)
    if found:
        out.append(found)
    return out


# -- the score's positions ---------------------------------------------------------------


def set_outcome(
    rules: Rules, scores: Sequence[int], deal: Deal, decl_tricks: int
) -> dict[Team, int]:
    """+1 for the side that wins the set after this deal, -1 for the other, 0 when it goes on."""
    contract = deal.contract
    assert contract is not None
    decl, defs = score_contract(rules, contract.level, decl_tricks, 13 - decl_tricks)
    team = contract.team
    totals = [scores[0], scores[1]]
    totals[team] += decl
    totals[1 - team] += defs
    winner = set_winner(rules, totals, (*totals, *totals), None, team)
    if winner is None:
        return {Team.NS: 0, Team.EW: 0}
    return {winner: 1, Team(1 - winner): -1}


def with_scores(deal: Deal, scores: Sequence[int]) -> Deal:
    """The same deal, replayed, with other scores before it."""
    seat_scores = (scores[0], scores[1], scores[0], scores[1])
    fresh = Deal(deal.rules, deal.dealer, [int(m) for m in deal.dealt], seat_scores)
    for action in deal.action_ids:
        fresh.push(action)
    return fresh


def match_play(deal: Deal, rng: random.Random, layouts: int = 20) -> Found | None:
    """A play-safe or take-risk position: the card that wins the set most often is not the
    card that takes the most tricks on average."""
    view = deal.view(deal.to_act)  # type: ignore[arg-type]
    contract = view.contract
    if contract is None or not 0 < goal_left(view) <= len(view.hand) <= 8:
        return None
    trick = deal.current_trick
    assert trick is not None
    legal = [a for a in view.legal_actions if isinstance(a, Card)]
    if len(legal) < 2:
        return None
    positions = []
    for _ in range(layouts):
        hands = view.sample_hands(rng)
        positions.append(Position(hands, deal.trump, trick.leader, trick.cards))
    solutions = solve_many(positions)
    me = view.seat
    taken = view.tricks_taken[me] + view.tricks_taken[me.partner]
    left = goal_left(view)
    mean = {c: sum(s.values[c] for s in solutions) / len(solutions) for c in legal}
    reach = {c: sum(s.values[c] >= left for s in solutions) / len(solutions) for c in legal}
    safe = max(legal, key=lambda c: (reach[c], mean[c]))
    greedy = max(legal, key=lambda c: (mean[c], reach[c]))
    if reach[safe] - reach[greedy] < 0.05 or mean[greedy] <= mean[safe]:
        return None
    level = contract.level
    if declaring(view):
        principle = "play-safe"
        ours, theirs = 41 - level, 20  # making the contract wins the set; overtricks do nothing
    else:
        principle = "take-risk"
        ours, theirs = 20, 41 - level  # their contract made wins them the set
    scores = [0, 0]
    scores[me.team], scores[1 - me.team] = ours, theirs
    moved = with_scores(deal, scores)
    # Verify with the real scoring: the chance each card gives of winning (or not losing) the set.
    outcome: dict[Card, list[int]] = {}
    for c in legal:
        outcome[c] = []
        for s in solutions:
            ours_final = taken + s.values[c]
            decl = ours_final if declaring(view) else 13 - ours_final
            outcome[c].append(set_outcome(deal.rules, scores, moved, decl)[me.team])
    win = {c: sum(v) / len(v) for c, v in outcome.items()}
    top = max(win.values())
    best = max(legal, key=lambda c: win[c])
    accepted = sorted(c for c in legal if win[c] >= top - 0.03)
    if greedy in accepted or win[greedy] > top - 0.05:
        return None
    # The same layouts for both cards: the paired difference must stand out of the noise.
    diffs = [a - b for a, b in zip(outcome[best], outcome[greedy], strict=True)]
    average = sum(diffs) / len(diffs)
    spread = (sum((d - average) ** 2 for d in diffs) / max(1, len(diffs) - 1)) ** 0.5
    if spread == 0 or average / (spread / len(diffs) ** 0.5) < 2.0:
        if layouts > 20:
            print("  not confirmed:", round(average, 3), flush=True)
        return None
    plural = "s" if left > 1 else ""
    if declaring(view):
        stake = (
            f"We need {left} more trick{plural} for the contract and the score is "
            f"{ours}-{theirs} to {deal.rules.target}: made, it wins the set, and overtricks "
            "add nothing that matters."
        )
    else:
        stake = (
            f"We need {left} more trick{plural} to set the contract and the score is "
            f"{ours}-{theirs} to {deal.rules.target}: if they make it, they win the set, so "
            "only setting it counts."
        )
    why = (
        f"{stake} The {name(safe)} reaches that in {reach[safe]:.0%} of the layouts this "
        f"seat cannot tell apart, the {name(greedy)} (more tricks on average: "
        f"{mean[greedy]:.2f} against {mean[safe]:.2f}) in only {reach[greedy]:.0%}."
    )
    check = {
        "kind": "set-chance",
        "layouts": len(solutions),
        "win_set": {format_action(c): round(v, 3) for c, v in win.items()},
        "mean_tricks": {format_action(c): round(v, 3) for c, v in mean.items()},
    }
    source = (
        "issue 21: play safe when making the contract wins the match"
        if principle == "play-safe"
        else "issue 21: take risks when only setting the contract saves the match"
    )
    return Found(principle, moved, [format_action(c) for c in accepted], why, source, check)


def bid_to_score(deal: Deal, rng: random.Random, layouts: int = 10) -> Found | None:
    """An auction position where the score, not the hand, decides: pass or bid which level."""
    view = deal.view(deal.to_act)  # type: ignore[arg-type]
    bids = [a for a in view.legal_actions if isinstance(a, Bid)]
    if Pass() not in view.legal_actions or not bids:
        return None
    high = None
    for seat, action in view.history:
        if isinstance(action, Bid):
            high = (seat, action.level)
    if high is None or high[0].team == view.seat.team:
        return None  # an opponent's contract stands if we pass
    me = view.seat
    opp_seat, opp_level = high
    samples = [view.sample_hands(rng) for _ in range(layouts)]
    # Each side's tricks as declarer in its best trump, double-dummy (the declarer leads).
    positions = [
        Position(h, suit, seat) for h in samples for seat in (me, opp_seat) for suit in range(4)
    ]
    tricks_of = [s.tricks for s in solve_many(positions, values=False)]
    rows = [
        (max(tricks_of[i * 8 : i * 8 + 4]), max(tricks_of[i * 8 + 4 : i * 8 + 8]))
        for i in range(len(samples))
    ]
    # The score: they make their contract -> they win; we need more than they can stop.
    theirs = 41 - opp_level
    for ours in (41 - opp_level - 1, 41 - opp_level - 2, 33, 30):
        options = [Pass(), *[b for b in bids if b.level <= 10]]
        value: dict[str, float] = {}
        for option in options:
            total = 0.0
            for mine, theirs_tricks in rows:
                if isinstance(option, Pass):
                    decl_team, level, tricks = opp_seat.team, opp_level, theirs_tricks
                else:
                    decl_team, level, tricks = me.team, option.level, mine
                scores = [0, 0]
                scores[me.team], scores[1 - me.team] = ours, theirs
                decl, defs = score_contract(deal.rules, level, tricks, 13 - tricks)
                totals = list(scores)
                totals[decl_team] += decl
                totals[1 - decl_team] += defs
                winner = set_winner(deal.rules, totals, (*totals, *totals), None, Team(decl_team))
                total += 0 if winner is None else (1 if winner == me.team else -1)
            value[format_action(option)] = total / len(rows)
        top = max(value.values())
        accepted = sorted(k for k, v in value.items() if v >= top - 0.05)
        worst = min(value.values())
        if top - value["pass"] >= 0.3 and "pass" not in accepted and top - worst >= 0.3:
            scores = [0, 0]
            scores[me.team], scores[1 - me.team] = ours, theirs
            moved = with_scores(deal, scores)
            why = (
                f"The score is {ours}-{theirs} to {deal.rules.target}: if "
                f"{seat_name(opp_seat)} plays {opp_level} and makes it, they win the set, and "
                "they make it in most layouts; only a contract of ours wins. Bid "
                f"{' or '.join(accepted)}: over the layouts this seat cannot tell apart "
                f"(each side playing its best trump double-dummy, the auction ending here), "
                f"that wins the set most often."
            )
            check = {"kind": "set-chance", "layouts": len(rows), "win_set": value}
            return Found(
                "bid-to-score",
                moved,
                accepted,
                why,
                "issue 21: bid higher when only that can win",
                check,
            )
    return None


# -- unblocking, built ------------------------------------------------------------------

# Unblocking positions are rare in dealt deals, so they are built: an ending where
# North (a defender) leads the ace of a suit of which the declarers have shown out with
# every trump gone, and South holds the king and a small card: played low, the king
# overtakes partner's next card and strands the rest.
ENDING = {  # suit letters as placeholders: L the long suit, X and Y the declarers' suits
    Seat.NORTH: ("AL", "QL", "JL", "TL", "9L"),
    Seat.SOUTH: ("KL", "2L", "3Y", "4Y", "5Y"),
    Seat.EAST: ("AX", "KX", "QX", "JX", "TX"),
    Seat.WEST: ("AY", "KY", "QY", "JY", "TY"),
}


def built_unblock(rng: random.Random, long: str, x: str, y: str) -> Deal | None:
    """One built unblocking position (South to play under North's ace), or ``None``."""
    letters = {"L": long, "X": x, "Y": y}
    ending = {
        seat: [Card.parse(c[0] + letters[c[1]]) for c in cards] for seat, cards in ENDING.items()
    }
    used = {c for cards in ending.values() for c in cards}
    early = [Card(c) for c in range(52) if Card(c) not in used]
    hearts = [c for c in early if c.suit.letter == long]
    rest = [c for c in early if c.suit.letter != long]
    rng.shuffle(rest)
    # The declarers hold none of the long suit: it goes to North and South.
    north_south = hearts + rest[: 16 - len(hearts)]
    rng.shuffle(north_south)
    east_west = rest[16 - len(hearts) :]
    hands = {
        Seat.NORTH: north_south[:8],
        Seat.SOUTH: north_south[8:],
        Seat.EAST: east_west[:8],
        Seat.WEST: east_west[8:],
    }
    masks = [sum(1 << c for c in hands[seat] + ending[seat]) for seat in Seat]
    trump = "S"
    deal = Deal(find_rules("classic"), Seat.NORTH, masks)
    for action in ("7", "pass", "pass", "pass", trump):  # West bids first and declares
        deal.push(action)
    early_cards = {c for seat in Seat for c in hands[seat]}
    for _ in range(32):
        legal = [a for a in deal.legal_actions if a in early_cards]
        if not legal:
            return None
        deal.push(rng.choice(legal))
    view = deal.view(Seat.SOUTH)
    long_suit = Card.parse("A" + long).suit
    if deal.to_act != Seat.NORTH or not all(
        long_suit in view.voids(s) for s in (Seat.EAST, Seat.WEST)
    ):
        return None
    if view.trump is not None and Knowledge.of(view).trumps_out():
        return None
    deal.push(Card.parse("A" + long))
    west = [a for a in deal.legal_actions]
    deal.push(min(west))
    return deal


def unblock_positions(rng: random.Random, count: int) -> list[Found]:
    out: list[Found] = []
    for long, x, y in (
        ("H", "C", "D"),
        ("D", "H", "C"),
        ("C", "D", "H"),
        ("H", "D", "C"),
        ("D", "C", "H"),
    ):
        for _ in range(4000):
            deal = built_unblock(rng, long, x, y)
            if deal is None:
                continue
            view = deal.view(Seat.SOUTH)
            legal = [a for a in view.legal_actions if isinstance(a, Card)]
            high, low = max(legal), min(legal)
            actual = actual_values(deal)
            if not strict(actual, [high], [low]):
                continue
            mean = mean_values(deal, rng)
            accepted = judged(actual, mean, [high], [low])
            if accepted is None:
                continue
            why = (
                f"North leads the {name(Card.parse('A' + long))}; East and West have shown out of "
                "the suit and no trump is left, so all its cards are ours, and North holds the "
                f"rest. Played low, the {name(high)} would win the second round and leave South on "
                f"lead with none of the suit: North's winners would be stranded. Unblock: play the "
                f"{name(high)} now."
            )
            check = {
                "kind": "double-dummy",
                "actual": {format_action(c): v for c, v in actual.items()},
                "layouts": SAMPLES,
                "mean": {format_action(c): round(v, 3) for c, v in mean.items()},
                "rejected_by_principle": [format_action(low)],
            }
            source = "card play: unblock partner's long suit (a built position)"
            out.append(
                Found("unblock", deal, [format_action(c) for c in accepted], why, source, check)
            )
            break
        if len(out) >= count:
            break
    return out


# -- the run ------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--out", default=str(ROOT / "tests" / "data" / "partnership"))
    parser.add_argument("--only", default="", help="principles to redo (comma-separated)")
    args = parser.parse_args()
    only = set(args.only.split(",")) - {""}
    if only:
        for principle in TARGETS:
            if principle not in only:
                TARGETS[principle] = 0
    rules = find_rules("classic")
    rng = random.Random(21)
    # Phase 1, cheap: the bots play; every detection is a candidate (one per deal and kind).
    candidates: dict[str, list[tuple[int, Deal, tuple[str, list[Card], list[Card], str, str]]]]
    candidates = {p: [] for p in TARGETS}
    match_spots: list[tuple[int, Deal]] = []
    auction_spots: list[tuple[int, Deal]] = []
    for number in range(args.deals):
        deal = Deal.from_rng(rules, number % 4, rng)
        bots = [HeuristicBot(random.Random(number * 4 + s)) for s in range(4)]
        seen: set[str] = set()
        auction_done = False
        while not deal.is_over():
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if view.phase is Phase.AUCTION and not auction_done:
                high = [s for s, a in view.history if isinstance(a, Bid)]
                if high and high[-1].team != seat.team and Pass() in view.legal_actions:
                    auction_spots.append((number, deal.copy()))
                    auction_done = True
            if view.phase is Phase.PLAY:
                for found in detections(deal, view):
                    if found[0] not in seen:
                        seen.add(found[0])
                        candidates[found[0]].append((number, deal.copy(), found))
                left = goal_left(view)
                if 0 < left <= len(view.hand) <= 8:
                    match_spots.append((number, deal.copy()))
            deal.push(bots[seat].decide(view).action)
    print({p: len(v) for p, v in candidates.items()}, len(match_spots), len(auction_spots))
    # Phase 2: the solver, actual layout first, until each kind has its positions.
    kept: dict[str, list[Found]] = {p: [] for p in TARGETS}
    for principle, items in candidates.items():
        for _number, deal, (kind, conforming, violating, why, source) in items:
            if len(kept[principle]) >= TARGETS[principle]:
                break
            actual = actual_values(deal)
            if not strict(actual, conforming, violating):
                continue
            mean = mean_values(deal, rng)
            accepted = judged(actual, mean, conforming, violating)
            if accepted is None:
                continue
            check = {
                "kind": "double-dummy",
                "actual": {format_action(c): v for c, v in actual.items()},
                "layouts": SAMPLES,
                "mean": {format_action(c): round(v, 3) for c, v in mean.items()},
                "rejected_by_principle": [format_action(c) for c in violating],
            }
            accept = [format_action(c) for c in accepted]
            kept[principle].append(Found(kind, deal, accept, why, source, check))
        print(principle, len(kept[principle]), flush=True)
    if len(kept["unblock"]) < TARGETS["unblock"]:
        kept["unblock"].extend(unblock_positions(rng, TARGETS["unblock"] - len(kept["unblock"])))
        print("unblock", len(kept["unblock"]), flush=True)
    used: set[int] = set()
    for number, deal in match_spots:
        if all(len(kept[p]) >= TARGETS[p] for p in ("play-safe", "take-risk")) or number in used:
            continue
        found = match_play(deal, rng)
        if found:  # confirmed on many more layouts, or dropped as noise
            found = match_play(deal, rng, CONFIRM_PLAY)
        if found and len(kept[found.principle]) < TARGETS[found.principle]:
            kept[found.principle].append(found)
            used.add(number)
            print(found.principle, len(kept[found.principle]), flush=True)
    for _number, deal in auction_spots:
        if len(kept["bid-to-score"]) >= TARGETS["bid-to-score"]:
            break
        found = bid_to_score(deal, rng)
        if found:
            found = bid_to_score(deal, rng, CONFIRM_BID)
        if found:
            kept["bid-to-score"].append(found)
            print("bid-to-score", len(kept["bid-to-score"]), flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):
        if not only or old.stem.rsplit("-", 1)[0] in only:
            old.unlink()
    for principle, found_list in kept.items():
        if only and principle not in only:
            continue
        for index, item in enumerate(found_list, 1):
            data = {
                "principle": item.principle,
                "deal": format_deal(item.deal),
                "accept": item.accept,
                "why": item.why,
                "source": item.source,
                "check": item.check,
            }
            path = out / f"{principle}-{index:02d}.json"
            path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print({p: len(v) for p, v in kept.items()})


if __name__ == "__main__":
    main()
