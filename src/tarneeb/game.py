"""The game's metadata for given rules: players, utility bounds, length, a dense action space.

What a learning environment (OpenSpiel, PettingZoo, Gymnasium) declares about
the game, computed in the core from the :class:`~tarneeb.rules.Rules`, so that
every environment says the same:

>>> from tarneeb.presets import find_rules
>>> info = game_info(find_rules("classic"))
>>> info.num_players, info.max_utility, info.max_game_length, info.num_actions
(4, 29, 65, 139)
>>> from tarneeb.actions import Bid
>>> space = DenseActions(find_rules("classic"))
>>> space.to_dense[Bid(8).id], space.to_engine[space.to_dense[Bid(8).id]]
(108, 117)
"""

from __future__ import annotations

from dataclasses import dataclass

from tarneeb.actions import BID_BASE, NUM_ACTIONS
from tarneeb.auction import max_auction_actions
from tarneeb.rules import Count, Doubling, Rules

__all__ = [
    "DENSE_BID_OFFSET",
    "NUM_PLAYERS",
    "DenseActions",
    "GameInfo",
    "game_info",
    "max_game_length",
    "utility_bound",
]

NUM_PLAYERS = 4
DENSE_BID_OFFSET = 61
"""The dense id of the first bid slot (ids below it are the engine's own: cards, pass ... trump)."""


def utility_bound(rules: Rules) -> int:
    """The most one side can win from the other in one deal under ``rules``."""
    if rules.is_individual:
        top = max([13, *(max(v, w) for _, v, w in rules.bid_values)])
        return 4 * top
    points = rules.max_points_per_deal
    declarers = max(
        points,
        rules.max_bid,
        abs(rules.bid13_made or 0),
        abs(rules.bid13_failed or 0),
        abs(rules.kabsh or 0),
    )
    defenders = points * max(1, rules.bid13_shortfall_factor)
    factor = 1 if rules.doubling is Doubling.NONE else max(1, rules.double_factor)
    return (declarers + defenders) * factor


def max_game_length(rules: Rules) -> int:
    """The most actions a deal can take: its auction (raise and trump included) and 52 cards."""
    return 52 + max_auction_actions(rules)


class DenseActions:
    """A dense numbering of the actions the rules can use (for policy vectors).

    Dense ids ``0..60`` are the engine ids of the cards, pass, double, raise,
    stand, redeal and trump choices; then six slots (one per strain code) for
    each bid level the rules may use: 1..13 for trick counts, the rules' levels
    for card points.

    :ivar levels: the bid levels with slots, lowest first.
    :ivar num_actions: the size of the dense space.
    :ivar to_engine: dense id -> engine id.
    :ivar to_dense: engine id -> dense id (``-1`` for an engine id outside these rules).
    """

    def __init__(self, rules: Rules) -> None:
        if rules.count is Count.CARD_POINTS:
            levels = list(range(rules.min_bid, rules.max_bid + 1, rules.bid_step))
        else:
            levels = list(range(1, 14))
        self.levels = levels
        self.num_actions = DENSE_BID_OFFSET + 6 * len(levels)
        self.to_engine: list[int] = list(range(DENSE_BID_OFFSET)) + [-1] * (6 * len(levels))
        self.to_dense: list[int] = list(range(DENSE_BID_OFFSET)) + [-1] * (
            NUM_ACTIONS - DENSE_BID_OFFSET
        )
        for k, level in enumerate(levels):
            for strain in range(6):
                engine = BID_BASE + level * 6 + strain
                self.to_engine[DENSE_BID_OFFSET + 6 * k + strain] = engine
                self.to_dense[engine] = DENSE_BID_OFFSET + 6 * k + strain


@dataclass(frozen=True)
class GameInfo:
    """What an environment declares about the game under some rules."""

    num_players: int
    min_utility: int
    """The lowest points difference one side can end a deal with (``-max_utility``)."""
    max_utility: int
    max_game_length: int
    num_actions: int
    """The size of :class:`DenseActions`' space."""


def game_info(rules: Rules) -> GameInfo:
    """The metadata of one deal under ``rules``."""
    bound = utility_bound(rules)
    return GameInfo(
        NUM_PLAYERS,
        -bound,
        bound,
        max_game_length(rules),
        DenseActions(rules).num_actions,
    )
