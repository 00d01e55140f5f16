"""Double-dummy modes of the environments: auction-only episodes and oracle features.

As OpenSpiel's bridge does with ``use_double_dummy_result``, an environment
can stop each deal when the play would begin and score the contract by its
double-dummy result: the tricks the declaring side takes when all four hands
are open and every card is played best (:mod:`tarneeb.solver`). The episode is
then the auction alone (with the raise and the trump choice where the rules
have them): for bidding research, a hundred times fewer steps a deal.

The other mode adds double-dummy *features* to the observation: the
double-dummy table of the deal (for each strain, the tricks the side of each
seat takes when that seat leads first), 20 values after the usual vector.
They are computed from all four hands, so **they are full information**: an
oracle feature for bidding research and for critics, never a fair input to a
policy that is to play against others.

Parameters (the same names on every environment of :mod:`tarneeb.env`):

* ``use_double_dummy_result`` (bool, default ``False``): end each deal at
  the start of the play and score the contract double-dummy;
* ``dd_features`` (bool, default ``False``): append :data:`DD_FEATURES`
  values to every observation (the layout of :func:`dd_features`);
* ``dd_backend`` (``"auto"``, ``"dds"`` or ``"own"``): the solver backend
  (:func:`tarneeb.solver.backend_name`); ``"auto"`` is DDS (the ``solver``
  extra) where endplay loads. A table takes DDS a few tenths of a second on
  one core (our own pure-Python solver is far slower: use it for tests).

Double-dummy scoring needs a partnership contract counted in tricks: rules
with individual bidding (``syrian400``) or card points (``tarneeb400``) are
refused by :func:`check_dd_result` with a :class:`~tarneeb.errors.RulesError`.

>>> from tarneeb import Deal, find_rules
>>> rules = find_rules("classic")
>>> deal = Deal.from_seed(rules, dealer=0, seed=1)
>>> for a in ("7", "pass", "pass", "pass", "S"):
...     deal.push(a)
>>> deal.phase, deal.contract.declarer
(Phase.PLAY, Seat.EAST)
>>> dd_declarer_tricks(deal)
5
>>> dd_result(deal).team_points
(8, -7)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tarneeb.actions import Phase, Strain
from tarneeb.deal import Deal
from tarneeb.env.encoding import FloatArray
from tarneeb.errors import RulesError
from tarneeb.rules import Count, Rules
from tarneeb.scoring import DealResult, score_contract
from tarneeb.solver import Position, dd_table, solve_many

__all__ = [
    "DD_FEATURES",
    "DD_STRAINS",
    "check_dd_result",
    "dd_declarer_tricks",
    "dd_features",
    "dd_result",
    "dd_tricks",
]

DD_STRAINS = (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES, Strain.NO_TRUMP)
"""The strains of the feature block, in order."""
DD_FEATURES = 4 * len(DD_STRAINS)
"""Length of the double-dummy feature block (20)."""

DDTricks = tuple[tuple[int, int, int, int], ...]
"""For each strain of :data:`DD_STRAINS`, the tricks of each seat's side when it leads."""


def check_dd_result(rules: Rules) -> None:
    """Refuse rules whose deals a double-dummy result cannot score.

    :raises RulesError: for individual bidding or card-point counting.
    """
    if rules.is_individual:
        raise RulesError(
            "use_double_dummy_result needs a partnership contract: with individual bidding "
            "each player scores its own tricks, which double-dummy analysis does not give"
        )
    if rules.count is not Count.TRICKS:
        raise RulesError(
            "use_double_dummy_result needs contracts counted in tricks: the solver "
            "maximises tricks, not card points"
        )


def dd_tricks(dealt: Sequence[int], rules: Rules, backend: str = "auto") -> DDTricks:
    """The double-dummy table of the hands ``dealt``, as plain tuples by :data:`DD_STRAINS`.

    The first lead must be a trump where ``rules.first_lead_trump`` says so.
    """
    table = dd_table(dealt, DD_STRAINS, lead_trump=rules.first_lead_trump, backend=backend)
    return tuple(table[s] for s in DD_STRAINS)


def dd_features(table: DDTricks, observer: int) -> FloatArray:
    """The feature block for ``observer``: ``[strain * 4 + relative seat]`` = tricks / 13.

    Seats are relative to the observer as in :mod:`tarneeb.env.encoding` (0
    itself, 1 the next to play, 2 its partner, 3 the one before it); the
    value for a seat is the tricks its side takes with that seat on lead.

    >>> table = ((13, 0, 13, 0),) + ((0, 13, 0, 13),) * 4
    >>> dd_features(table, 1)[:4].tolist()
    [0.0, 1.0, 0.0, 1.0]
    """
    out = np.empty(DD_FEATURES, dtype=np.float32)
    for k, row in enumerate(table):
        for rel in range(4):
            out[4 * k + rel] = row[(observer + rel) & 3] / 13.0
    return out


def dd_declarer_tricks(deal: Deal, backend: str = "auto") -> int:
    """The tricks the declaring side takes double-dummy from the start of the play.

    :raises RulesError: unless ``deal`` is at its first card with a contract.
    """
    contract = deal.contract
    if deal.phase is not Phase.PLAY or contract is None or deal.played.mask:
        raise RulesError("a double-dummy result is taken at the first card of the play")
    position = Position.from_deal(deal)
    leader_side = solve_many([position], backend, values=False)[0].tricks
    same = (int(position.leader) - int(contract.declarer)) % 2 == 0
    return leader_side if same else 13 - leader_side


def dd_result(deal: Deal, backend: str = "auto") -> DealResult:
    """The result of ``deal`` (at the start of its play) with its contract played double-dummy.

    Scored by :func:`tarneeb.scoring.score_contract`, as the played deal
    would be with as many tricks (raise and double included).

    :raises RulesError: as :func:`check_dd_result`, or before the play.
    """
    rules = deal.rules
    check_dd_result(rules)
    taken = dd_declarer_tricks(deal, backend)
    contract = deal.contract
    assert contract is not None
    level = contract.level
    declarers, defenders = score_contract(rules, level, taken, 13 - taken, contract.multiplier)
    ns_declares = int(contract.declarer) % 2 == 0
    team_points = (declarers, defenders) if ns_declares else (defenders, declarers)
    all_thirteen = None
    if taken in (0, 13):
        all_thirteen = contract.team if taken == 13 else contract.team.other
    return DealResult(team_points, None, taken >= level, all_thirteen, level == 13)
