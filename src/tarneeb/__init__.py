"""Tarneeb, the partnership trick-taking game of the Levant.

The core: cards, rules and presets, the deal and the match, per-seat views,
records. Standard library only.
"""

from __future__ import annotations

from tarneeb.actions import (
    Action,
    Bid,
    ChooseTrump,
    Double,
    Pass,
    Phase,
    Raise,
    Redeal,
    Stand,
    Strain,
    action_from_id,
    action_id,
    format_action,
    parse_action,
)
from tarneeb.cards import (
    DECK,
    Card,
    CardSet,
    Dealing,
    Rank,
    Suit,
    deal_hands,
    live_rng,
    new_deck,
    seeded_rng,
    shuffled_deck,
)
from tarneeb.deal import Contract, Deal, LegalActions, ThrowIn, Trick, is_weak_hand
from tarneeb.errors import (
    IllegalActionError,
    InvalidActionError,
    RecordError,
    RulesError,
    TarneebError,
)
from tarneeb.match import Match, SetResult
from tarneeb.presets import PRESETS, find_rules, preset_name
from tarneeb.record import (
    RecordReading,
    format_deal,
    match_to_record,
    parse_deal,
    read_record,
    read_record_lenient,
    write_record,
)
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
from tarneeb.scoring import DealResult
from tarneeb.seats import SEATS, Seat, Team, parse_seat
from tarneeb.tournament import KingOfTheTable, Pairing, SetPlayed, TournamentError
from tarneeb.view import View

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "PRESETS",
    "SEATS",
    "Action",
    "AllPass",
    "BelowZero",
    "Bid",
    "Bidding",
    "Card",
    "CardSet",
    "ChooseTrump",
    "Contract",
    "Count",
    "Deal",
    "DealResult",
    "Dealing",
    "Defenders",
    "Double",
    "Doubling",
    "Failed",
    "IllegalActionError",
    "InvalidActionError",
    "KabshSide",
    "KingOfTheTable",
    "LegalActions",
    "Made",
    "Match",
    "Pairing",
    "Pass",
    "Phase",
    "Raise",
    "Rank",
    "RecordError",
    "RecordReading",
    "Redeal",
    "Rules",
    "RulesError",
    "Seat",
    "SetPlayed",
    "SetResult",
    "Stand",
    "Strain",
    "Suit",
    "TarneebError",
    "Team",
    "ThirteenWins",
    "ThrowIn",
    "TournamentError",
    "Trick",
    "View",
    "__version__",
    "action_from_id",
    "action_id",
    "deal_hands",
    "find_rules",
    "format_action",
    "format_deal",
    "is_weak_hand",
    "live_rng",
    "match_to_record",
    "new_deck",
    "parse_action",
    "parse_deal",
    "parse_seat",
    "preset_name",
    "read_record",
    "read_record_lenient",
    "seeded_rng",
    "shuffled_deck",
    "write_record",
]
