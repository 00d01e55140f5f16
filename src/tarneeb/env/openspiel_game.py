"""Tarneeb registered with OpenSpiel as the Python game ``python_tarneeb``.

Importing this module registers the game, so that OpenSpiel loads it by name
and runs its algorithms on it::

    import pyspiel
    import tarneeb.env.openspiel_game
    game = pyspiel.load_game("python_tarneeb", {"rules": "egyptian"})

* Four players, the seats South, East, North, West (0..3); South and North
  against East and West. Zero-sum.
* Chance deals the cards one at a time, 52 chance nodes a deal: the ``k``-th
  card dealt goes to player ``k % 4`` (outcomes: the cards left, uniform).
* Actions are the env ids of :mod:`tarneeb.env.encoding` (cards 0..51, calls
  52..60, bids from 61), so chance outcomes and card plays share ids 0..51.
* Imperfect information. The observation tensor is the vector of
  :mod:`tarneeb.env.encoding` (:data:`~tarneeb.env.encoding.OBS_SIZE`
  values), kept up to date action by action as the PettingZoo env keeps it;
  the information-state tensor adds the hand as dealt, each seat's calls and
  the order of the cards played (perfect recall within a deal; earlier deals
  of a match show through the scores; see below). The observation string
  tells the public state (dealer, scores, the auction, each seat's bid where
  seats bid alone, contract, cards played, tricks and card points); the
  information-state string, the hand as dealt and every action in order.
  An observer with ``public_info=False`` writes only the player's own cards.
* ``resample_from_infostate`` deals the unseen cards again, consistent with
  what the player has seen (hand sizes, shown voids), so ISMCTS runs.

Information state (version 1)
=============================

:meth:`TarneebState.information_state_tensor` is the observation, then the
pieces of perfect recall; ``B`` is the number of bids the rules allow
(:func:`~tarneeb.auction.possible_bids`: 7 in trick-counting presets and
``tarneeb400``, 14 with Sol's no-trump, 35 in ``egyptian``, 12 in
``syrian400``), seats are relative to the player as in the observation:

==============  =========  ===================================================
offset          size       what
==============  =========  ===================================================
0               581        the observation (:mod:`tarneeb.env.encoding`)
581             52         the player's hand as dealt
633             4 (B + 3)  for each relative seat: the bids it made (``B``,
                           lowest first), then how it left the auction:
                           passed, doubled, claimed a redeal
633 + 4(B + 3)  6          the declarer's calls: raised, stood (a raise
                           phase), the trump chosen (C, D, H, S)
639 + 4(B + 3)  52         the order of play: card ``c`` shows ``k / 52`` when
                           it was the ``k``-th card played, else 0
==============  =========  ===================================================

So 731 values in ``classic`` (bridge's is 571), 759 with Sol, 843 in
``egyptian``, 751 in ``syrian400``; :class:`TarneebObserver` names the
pieces ``observation``, ``dealt``, ``auction`` (4 x (B + 3)),
``declarer_calls`` and ``play_order``. It is lossless: each bid outranks
the last, so the bids with their bidders give the bidding in order; a pass
or a double puts a seat out and the turn goes round the seats still in, so
the seats still in between one bidder and the next in turn (from the
dealer's left before the first bid) left the auction then, in that order,
and the others that left did so after the last bid, in turn from its
bidder (a redeal, claimed at a seat's first turn, ends the deal).
Individual bids (Syrian 400) go once round from the dealer's left. With the
dealer (in the observation) that is every call in order, and the order of
play with the tricks' winners tells who played each card. A test checks it
over random games of every preset and of custom rules with doubles,
redeals and bid-once: two different histories of a player never share
these pieces.

Version history: 0, the calls row by row (``max_auction_actions`` rows of
the relative caller and a one-hot of every call: 1,868 values in
``classic``, 4,416 in ``egyptian``); 1, each seat's calls as above
(:data:`INFO_STATE_VERSION`).

Parameters
==========

=============  ===========================================================
``rules``      a preset name (default ``"classic"``), a preset with changes
               as records write them (``"egyptian;target=31"``,
               ``"custom;min_bid=8"``: :func:`tarneeb.notation.rules_text`),
               or the JSON of :meth:`Rules.to_dict <tarneeb.rules.Rules.to_dict>`
``dealer``     the first dealer, 0..3 (default 3: West deals, South bids first)
``scores``     the scores the episode starts from: ``""`` (0-0, the
               default), ``"NS,EW"``, or four seats' ``"S,E,N,W"`` where
               seats score alone (Syrian 400); score-dependent rules such as
               Syrian 400's minimum bids see them
``max_deals``  deals in an episode (default 1): the deals of a match from
               ``scores``, until the match is won or ``max_deals`` deals
               (thrown-in ones included) are over; 0 is refused, since an
               OpenSpiel game must have a most number of moves and a match
               has none
``reward``     ``"deal"`` (default): each player gets its side's points minus
               the other side's, added over the episode's deals (0 for a deal
               thrown in); ``"match"``: +1 for the side that won the match,
               -1 for the other, 0 each when it is still going after
               ``max_deals`` deals (or drawn)
=============  ===========================================================

Search bots (open_spiel 2.0.2)
==============================

OpenSpiel's C++ ``MCTSBot`` runs on this game (searching the true state, as it
does in any game) through ``bot.step_with_policy(state)``, ``bot.mcts_search``
or ``pyspiel.evaluate_bots``; ``bot.step(state)`` crashes the interpreter
(segmentation fault) with this and every game written in Python, OpenSpiel's
own ``python_kuhn_poker`` and ``python_tic_tac_toe`` included: its binding
releases the GIL, and the search then calls back into Python to clone the state.
The C++ ``ISMCTSBot`` cannot run on any Python game: OpenSpiel's C++ state of
a Python game does not forward ``ResampleFromInfostate`` to Python (the bot
stops with "ResampleFromInfostate() not implemented", or crashes in ``step``
as above). Use OpenSpiel's Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot``,
which calls :meth:`TarneebState.resample_from_infostate`:
:func:`play_ismcts_match` and ``examples/openspiel_ismcts.py`` do.

>>> import pyspiel
>>> game = pyspiel.load_game("python_tarneeb")
>>> game.num_distinct_actions(), game.num_players(), game.observation_tensor_size()
(139, 4, 581)
>>> game = pyspiel.load_game("python_tarneeb", {"rules": "syrian400", "scores": "30,12,5,0"})
>>> game.new_initial_state().child(0).child(1).to_string()
'dealing: 2 cards dealt'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from tarneeb.actions import (
    BID_BASE,
    DOUBLE,
    PASS,
    RAISE,
    REDEAL,
    STAND,
    TRUMP_BASE,
    Phase,
    action_id,
    format_action,
)
from tarneeb.auction import possible_bids
from tarneeb.bots import make_bot
from tarneeb.cards import Card, CardSet
from tarneeb.deal import Deal
from tarneeb.env.encoding import (
    OBS_SIZE,
    OFFSETS,
    ActionMap,
    FloatArray,
    ObservationEncoder,
    hand_bits,
)
from tarneeb.env.episode import (
    Episode,
    Setup,
    game_rules,
    hands_of,
    parse_scores,
    seat_to_act,
    spiel_rules_text,
    spiel_scores_text,
)
from tarneeb.game import game_info, utility_bound
from tarneeb.match import Match
from tarneeb.options import Count
from tarneeb.play import card_ids
from tarneeb.rules import Rules
from tarneeb.seats import Seat
from tarneeb.view import View

__all__ = [
    "GAME_NAME",
    "INFO_STATE_VERSION",
    "TarneebGame",
    "TarneebObserver",
    "TarneebState",
    "game_rules",
    "parse_scores",
    "play_ismcts_match",
    "utility_bound",
]

GAME_NAME = "python_tarneeb"
INFO_STATE_VERSION = 1
"""The layout of the information-state tensor (see the module docstring)."""
_DEFAULT_PARAMS: dict[str, Any] = {
    "rules": "classic",
    "dealer": 3,
    "scores": "",
    "max_deals": 1,
    "reward": "deal",
}
_HAND = OFFSETS["hand"]
_TO_ACT = OFFSETS["to_act"]
_DECK = frozenset(range(52))
_OUTCOMES = [[(c, 1.0 / (52 - n)) for c in range(52)] for n in range(52)]
"""``_OUTCOMES[n][c]``: card ``c`` dealt after ``n`` cards, and its probability."""
_ORDER = np.arange(53, dtype=np.float32) / 52.0
"""The play-order values: the ``k``-th card played shows ``_ORDER[k]``."""
_ORDER_VALUES: list[float] = _ORDER.tolist()

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Tarneeb",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS,
)


class TarneebGame(pyspiel.Game):  # type: ignore[misc]
    """The game object OpenSpiel makes from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULT_PARAMS, **(params or {})}
        setup = Setup.from_params(merged)
        # Kept as OpenSpiel's game strings can carry them (they split at "," and "=").
        merged["rules"] = spiel_rules_text(setup.rules)
        merged["scores"] = spiel_scores_text(setup.rules, setup.scores)
        meta = game_info(setup.rules)  # the core's metadata of one deal
        deals = setup.max_deals
        bound = 1.0 if setup.reward == "match" else float(meta.max_utility * deals)
        info = pyspiel.GameInfo(
            num_distinct_actions=meta.num_actions,
            max_chance_outcomes=52,
            num_players=meta.num_players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=meta.max_game_length * deals,
        )
        super().__init__(_GAME_TYPE, info, merged)
        self.setup = setup
        self.rules = setup.rules
        self.action_map = setup.action_map
        self.dealer = setup.dealer
        self.default_observer = self.make_py_observer()
        """The observer of :meth:`TarneebState.observation_tensor`."""
        self.info_state_observer = self.make_py_observer(
            pyspiel.IIGObservationType(perfect_recall=True)
        )
        """The observer of :meth:`TarneebState.information_state_tensor`."""
        recall = self.info_state_observer.recall
        assert recall is not None  # an observer of perfect recall has the pieces
        self.recall: _Recall = recall
        """The layout of the information state's pieces of perfect recall."""

    def new_initial_state(self) -> TarneebState:
        return TarneebState(self)

    def max_chance_nodes_in_history(self) -> int:
        return 52 * self.setup.max_deals

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TarneebObserver:
        return TarneebObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class TarneebState(pyspiel.State):  # type: ignore[misc]
    """An episode in OpenSpiel: for each deal the chance deal, then its actions."""

    def __init__(self, game: TarneebGame) -> None:
        super().__init__(game)
        self._core = Episode(game.setup)
        self._cache = _Cache(game.recall)

    @property
    def deal(self) -> Deal | None:
        """The deal in play (the last one once the episode is over); ``None`` while dealing."""
        return self._core.deal

    @property
    def match(self) -> Match | None:
        """The match the deals belong to (``None`` until the first deal is dealt)."""
        return self._core.match

    def view(self, seat: int) -> View:
        """What ``seat`` may know (for our bots)."""
        deal = self._core.deal
        if deal is None:
            raise ValueError("the cards are still being dealt")
        return deal.view(seat)

    def current_player(self) -> int:
        core = self._core
        if core.done:
            return int(pyspiel.PlayerId.TERMINAL)
        deal = core.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(deal._to_act)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._legal())

    def _legal(self) -> Sequence[int]:
        """The legal actions of the player to act, kept while the state stays (a caller
        copies them)."""
        core = self._core
        deal = core.deal
        assert deal is not None
        cache = self._cache
        moves = len(core.actions)
        if cache.legal_deal is not deal or cache.legal_at != moves:
            ids = deal.legal_action_ids()
            if deal._phase is Phase.PLAY:  # cards, lowest up: their env ids are theirs
                cache.legal = ids
            else:
                cache.legal = sorted(core.setup.action_map.env_ids(ids))
            cache.legal_deal = deal
            cache.legal_at = moves
        return cache.legal

    # Python callers take these without the round trip through C++ (which calls back
    # into Python several times); C++ callers get the same answers through OpenSpiel.

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions (chance outcomes at a chance node), as pyspiel's."""
        core = self._core
        if core.done:
            return []
        deal = core.deal
        if deal is None:
            return sorted(_DECK.difference(core.dealt))
        if player is not None and player != deal._to_act:
            if player < 0:
                raise ValueError(f"no legal actions for pseudo-player {player}")
            return []
        return list(self._legal())

    def is_chance_node(self) -> bool:
        core = self._core
        return core.deal is None and not core.done

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = self._core.dealt
        n = len(dealt)
        if not n:
            return _OUTCOMES[0][:]
        cache = self._cache
        left = cache.left
        if cache.left_of is not dealt or cache.left_at != n:
            # The cards left, kept as chance deals them one by one (else from the deck).
            try:
                if cache.left_of is not dealt or cache.left_at != n - 1:
                    raise ValueError
                left.remove(dealt[-1])
            except ValueError:
                left = cache.left = sorted(_DECK.difference(dealt))
            cache.left_of = dealt
            cache.left_at = n
        outcomes = _OUTCOMES[n]
        return [outcomes[c] for c in left]

    # Python callers (rl_environment, user loops) read tensors here, without the round trip
    # through C++ (its copy and its conversion to a list cost more than the observation).
    # The four players' information states are kept as one Python list for the deal, each
    # beginning with the player's observation, which an encoder writes there as the deal
    # goes on (_Tensors); a read copies a slice of it. The observers build tensors whole
    # (what C++ callers get, and the reference the tests compare with).

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of ``player`` (default: the player to act), as pyspiel's."""
        if type(player) is not int or not 0 <= player < 4:
            return self._other_read(False, player)
        kept = self._cache.tensors
        core = self._core
        if kept is None or kept.deal is not core.deal:
            kept = self._tensors()
            if kept is None:
                return self._dealing(False, player)
        elif kept.encoded != len(core.actions):
            kept.update(core)
        at = player * kept.size
        return kept.lists[at : at + OBS_SIZE]

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information-state tensor of ``player`` (default: the player to act)."""
        if type(player) is not int or not 0 <= player < 4:
            return self._other_read(True, player)
        kept = self._cache.tensors
        core = self._core
        if kept is None or kept.recalled != len(core.actions) or kept.deal is not core.deal:
            kept = self._tensors()
            if kept is None:
                return self._dealing(True, player)
            kept.recall_up(core)
        size = kept.size
        at = player * size
        return kept.lists[at : at + size]

    def _other_read(self, info: bool, player: int | None) -> list[float]:
        # A read but the common one: the player to act, or a player not an int.
        p = self.current_player() if player is None else int(player)
        if not 0 <= p < 4:
            raise ValueError(f"player must be 0..3, not {p}")
        return self.information_state_tensor(p) if info else self.observation_tensor(p)

    def _tensors(self) -> _Tensors | None:
        """The lists of the deal, made or brought up to date (``None`` while dealing)."""
        core = self._core
        deal = core.deal
        if deal is None:
            return None
        cache = self._cache
        kept = cache.tensors
        if kept is None or kept.deal is not deal:
            kept = cache.tensors = _Tensors(deal, core, cache.recall)
        else:
            kept.update(core)
        return kept

    def _dealing(self, info: bool, player: int) -> list[float]:
        # The hand so far, nothing to keep.
        game = self.get_game()
        observer = game.info_state_observer if info else game.default_observer
        observer.set_from(self, player)
        return _as_list(observer.tensor)

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.deal is None:
            core.deal_card(int(action))
        else:
            core.act(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(int(action)).format()}"
        engine = self._core.setup.action_map.to_engine[int(action)]
        text = format_action(engine)
        return f"bid {text}" if engine >= BID_BASE else text

    def is_terminal(self) -> bool:
        return self._core.done

    def returns(self) -> list[float]:
        return self._core.returns()

    def rewards(self) -> list[float]:
        """The rewards of the last action, as pyspiel's: all at the end (returns), else 0."""
        return self._core.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TarneebState:
        """A state the player cannot tell from this one: the unseen cards dealt again."""
        core = self._core
        deal = core.deal
        if deal is None or core.done:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**52))
        hands = deal.view(player_id).sample_hands(rng)
        played = [0, 0, 0, 0]
        for seat, action in deal.history:
            if isinstance(action, Card):
                played[seat] |= 1 << action
        cards = [sorted(CardSet(hands[s] | played[s])) for s in range(4)]
        state = self.get_game().new_initial_state()
        to_env = core.setup.action_map.to_env
        for dealt, done in core.history:
            for card in dealt:
                state.apply_action(card)
            for a in done.action_ids:
                state.apply_action(to_env[a])
        for k in range(52):
            state.apply_action(int(cards[k & 3][k >> 2]))
        for a in deal.action_ids:
            state.apply_action(to_env[a])
        return state  # type: ignore[no-any-return]

    def __str__(self) -> str:
        core = self._core
        deal = core.deal
        if deal is None:
            return f"dealing: {len(core.dealt)} cards dealt"
        from tarneeb.record import format_deal

        return format_deal(deal)


class TarneebObserver:
    """OpenSpiel's observer: tensors and strings for one player (PyObserver interface)."""

    def __init__(self, game: TarneebGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation of all players' private cards is not supported")
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._public = bool(iig_obs_type.public_info)
        self._recall = bool(iig_obs_type.perfect_recall)
        self.rules = game.rules
        self.action_map = game.action_map
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("observation", OBS_SIZE, (OBS_SIZE,))]
        width = _seat_width(game.rules)
        if self._recall:
            pieces += [
                ("dealt", 52, (52,)),
                ("auction", 4 * width, (4, width)),
                ("declarer_calls", 6, (6,)),
                ("play_order", 52, (52,)),
            ]
        size = sum(s for _, s, _ in pieces)
        self.tensor: FloatArray = np.zeros(size, np.float32)
        self.dict: dict[str, FloatArray] = {}
        starts: dict[str, int] = {}
        at = 0
        for name, n, shape in pieces:
            self.dict[name] = self.tensor[at : at + n].reshape(shape)
            starts[name] = at
            at += n
        self._obs = self.dict["observation"]
        self.recall: _Recall | None = None
        """Where the perfect-recall pieces start (``None`` without them)."""
        if self._recall:
            self.recall = _Recall(game.rules, game.action_map, starts, at)

    def set_from(self, state: TarneebState, player: int) -> None:
        core = state._core
        obs = self._obs
        deal = core.deal
        if deal is None or not self._public:
            # Dealing, or only the player's own cards: the hand (as dealt so far) alone.
            self.tensor.fill(0.0)
            if self._private:
                held = hands_of(core.dealt)[player] if deal is None else deal.hand(player).mask
                obs[_HAND : _HAND + 52] = hand_bits(held)
                if self._recall:
                    dealt = hands_of(core.dealt)[player] if deal is None else deal.dealt[player]
                    self.dict["dealt"][:] = hand_bits(dealt)
            return
        core.encoder_now().row(player, seat_to_act(deal), out=obs)
        if not self._private:
            obs[_HAND : _HAND + 52] = 0.0
        if not self._recall:
            return
        self.dict["dealt"][:] = hand_bits(deal.dealt[player] if self._private else 0)
        recall = self.recall
        assert recall is not None
        calls = self.tensor[recall.auction : recall.order]
        calls.fill(0.0)
        for seat, env_id in core.calls:
            calls[recall.cell((seat - player) & 3, env_id)] = 1.0
        order = self.dict["play_order"]
        order.fill(0.0)
        cards = core.cards
        if cards:
            order[cards] = _ORDER[1 : len(cards) + 1]

    def string_from(self, state: TarneebState, player: int) -> str:
        core = state._core
        deal = core.deal
        parts = [f"p{player}"]
        if self._recall:
            deals: list[tuple[list[int], Deal | None]] = [*core.history]
            if not core.done:
                deals.append((core.dealt, deal))
            for dealt, played in deals:
                if self._private:
                    parts.append(f"dealt {CardSet(hands_of(dealt)[player]).format()}")
                if self._public and played is not None:
                    parts.append(
                        " ".join(f"{s.letter}:{format_action(a)}" for s, a in played.history)
                    )
            return " | ".join(parts)
        if self._private:
            if deal is None:
                parts.append(f"dealt {CardSet(hands_of(core.dealt)[player]).format()}")
            else:
                parts.append(f"hand {deal.hand(player).format()}")
        if deal is None or not self._public:
            return " ".join(parts)
        return " | ".join([*parts, *_public_text(core, deal.view(player))])


class _Recall:
    """The information state's perfect-recall pieces: where they are, what a call writes.

    One place for the layout of the auction block (the observer writes it
    from the calls, :class:`_Tensors` call by call): for each relative seat
    the bids it made and how it left the auction (pass, double, redeal), then
    the declarer's raise or stand and trump choice. Each call sets one value.
    """

    __slots__ = ("_cell", "_step", "auction", "dealt", "order", "seat_width", "size")

    def __init__(
        self, rules: Rules, action_map: ActionMap, starts: dict[str, int], size: int
    ) -> None:
        self.dealt = starts["dealt"]
        """Where the hand as dealt starts (offset in the information state)."""
        self.auction = starts["auction"]
        """Where the auction block starts (the declarer's calls follow it)."""
        self.order = starts["play_order"]
        """Where the play order starts."""
        self.size = size
        """The size of the information state."""
        bids = possible_bids(rules)
        width = self.seat_width = _seat_width(rules)
        # For each env id from 52: the value it sets in the block of relative seat 0, and
        # how far the next seat's is (0 for the declarer's calls, -1 for no call).
        self._cell: list[int] = []
        self._step: list[int] = []
        position = {bid: k for k, bid in enumerate(bids)}
        for env_id in range(52, action_map.num_actions):
            engine = action_map.to_engine[env_id]
            cell, step = -1, -1
            if engine in position:
                cell, step = position[engine], width
            elif engine in _LEAVE:
                cell, step = len(bids) + _LEAVE[engine], width
            elif engine in (RAISE, STAND):
                cell, step = 4 * width + engine - RAISE, 0
            elif TRUMP_BASE <= engine < TRUMP_BASE + 4:
                cell, step = 4 * width + 2 + engine - TRUMP_BASE, 0
            self._cell.append(cell)
            self._step.append(step)

    def cell(self, seat: int, env_id: int) -> int:
        """The value of the auction block set to 1 by the call ``env_id`` of the relative
        ``seat``."""
        step = self._step[env_id - 52]
        if step < 0:
            raise ValueError(f"env id {env_id} is no call of these rules")
        return self._cell[env_id - 52] + seat * step


def _seat_width(rules: Rules) -> int:
    """Values a seat of the information state's auction block: its bids, then how it left."""
    return len(possible_bids(rules)) + 3


_LEAVE = {PASS: 0, DOUBLE: 1, REDEAL: 2}
"""The calls that put a seat out of the auction, and their cell among how it left."""


_ZERO = 0.0
_ONE = 1.0
"""Written as ``_ONE + 0.0``: a float object of its own each time (see :func:`_as_list`)."""
_POOL: list[float] = []
"""Distinct float objects of value 0.0 (grown on demand), to make lists of."""


def _zeros(n: int) -> list[float]:
    """A list of ``n`` values 0.0, each a float object of its own (a slice of :data:`_POOL`).

    Distinct objects keep copies of the list fast: copying a list of the
    same object scattered among others (``[0.0] * n`` with a few values
    written) takes CPython three times as long, as the reference counts of
    that one object stall one another.
    """
    global _POOL
    if len(_POOL) < n:
        _POOL = np.zeros(n).tolist()
    return _POOL[:n]


def _as_list(tensor: FloatArray) -> list[float]:
    """``tensor.tolist()``, made cheaply: :func:`_zeros`, then the values not 0."""
    values = _zeros(len(tensor))
    nonzero = tensor.nonzero()[0]
    for i, v in zip(nonzero.tolist(), tensor[nonzero].tolist(), strict=True):
        values[i] = v
    return values


class _Tensors:
    """The four players' information states of one deal as one Python list, kept up to date.

    Player ``p``'s information state is ``lists[p * size : (p + 1) * size]``
    and its observation the first :data:`OBS_SIZE` values of it. When a
    tensor is read and the deal has gone on, an encoder of the list's own
    takes the actions since and writes the four observations there (row
    ``p`` at ``p * size``); the seat to act, which the rows leave to the
    reader, is moved; the calls and cards since are written into each
    player's auction block and play order when an information state is read
    (an observation does not hold them). A reader gets a copy of its slice,
    far cheaper than a numpy array's ``tolist()``.
    """

    __slots__ = (
        "calls",
        "cards",
        "deal",
        "encoded",
        "encoder",
        "lists",
        "order_at",
        "recall",
        "recalled",
        "size",
        "to_act",
        "to_act_at",
    )

    def __init__(self, deal: Deal, core: Episode, recall: _Recall) -> None:
        self.deal = deal
        self.recall = recall
        size = self.size = recall.size
        lists = self.lists = _zeros(4 * size)
        for p in range(4):
            dealt = p * size + recall.dealt
            for card in card_ids(deal.dealt[p]):
                lists[dealt + card] = _ONE + 0.0
        self.encoder = ObservationEncoder(core.setup.rules, into=lists, stride=size)
        self.encoded = -1
        """How many of the deal's actions the list shows (-1: none yet)."""
        self.to_act_at, self.order_at = _places(recall)
        self.to_act = -1
        """The seat to act the list shows (-1 for none)."""
        self.calls = 0
        self.cards = 0
        """The calls and the cards the list shows."""
        self.recalled = -1
        """How many of the deal's actions the information states' own parts show."""
        self.update(core)

    def update(self, core: Episode) -> None:
        """Bring the list up to date with ``core`` (its encoder and its actions)."""
        self.encoded = core.catch_up(self.encoder, self.encoded)
        lists = self.lists
        seat = self.deal._to_act
        was = self.to_act
        if seat != was:
            self.to_act = seat
            if was >= 0:
                for at in self.to_act_at[was]:
                    lists[at] = _ZERO + 0.0
            if seat >= 0:
                for at in self.to_act_at[seat]:
                    lists[at] = _ONE + 0.0

    def recall_up(self, core: Episode) -> None:
        """Write the calls and cards since into each player's auction block and play order
        (the information state's own parts: an observation read leaves them)."""
        lists = self.lists
        calls = core.calls
        held = self.calls
        if held != len(calls):
            self.calls = len(calls)
            recall = self.recall
            size = self.size
            for caller, env_id in calls[held:]:
                for p in range(4):
                    at = p * size + recall.auction
                    lists[at + recall.cell((caller - p) & 3, env_id)] = _ONE + 0.0
        cards = core.cards
        held = self.cards
        if held != len(cards):
            self.cards = len(cards)
            order_at = self.order_at
            for k in range(held, len(cards)):
                card = cards[k]
                value = _ORDER_VALUES[k + 1]
                for at in order_at:
                    lists[at + card] = value
        self.recalled = len(core.actions)


_PLACES: dict[tuple[int, int], tuple[list[list[int]], list[int]]] = {}
""":func:`_places` made, by the size of the information state and where its play order is."""


def _places(recall: _Recall) -> tuple[list[list[int]], list[int]]:
    """Where, in the list of four information states of ``recall``'s layout, each player's
    tensor shows each seat to act (``[seat][player]``), and where each player's play order
    starts."""
    key = (recall.size, recall.order)
    places = _PLACES.get(key)
    if places is None:
        size = recall.size
        places = _PLACES[key] = (
            [[p * size + _TO_ACT + ((s - p) & 3) for p in range(4)] for s in range(4)],
            [p * size + recall.order for p in range(4)],
        )
    return places


class _Cache:
    """What a state's Python readers asked for, kept as the state goes on.

    Not copied with the state: a clone starts empty (a search clones states
    by the thousand and reads few of them), and a pickle leaves it out.
    """

    __slots__ = (
        "left",
        "left_at",
        "left_of",
        "legal",
        "legal_at",
        "legal_deal",
        "recall",
        "tensors",
    )

    def __init__(self, recall: _Recall) -> None:
        self.recall = recall
        self.tensors: _Tensors | None = None
        self.left: list[int] = []
        """The cards chance may deal next (sorted), when ``left_at`` cards of ``left_of``
        are dealt."""
        self.left_of: list[int] | None = None
        self.left_at = -1
        self.legal: Sequence[int] = ()
        self.legal_deal: Deal | None = None
        self.legal_at = -1

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache(self.recall)

    def __reduce__(self) -> tuple[type[_Cache], tuple[_Recall]]:
        return (_Cache, (self.recall,))


def _public_text(core: Episode, view: View) -> list[str]:
    """The public facts of the moment, for the observation string."""
    rules = core.setup.rules
    parts = [f"dealer {view.dealer.letter}", f"phase {view.phase}"]
    scores = view.scores
    if rules.is_individual:
        parts.append("scores " + " ".join(f"{Seat(s).letter}:{scores[s]}" for s in range(4)))
    else:
        parts.append(f"scores NS:{scores[0]} EW:{scores[1]}")
    match = core.match
    if match is not None and rules.sets > 1:
        won = [sum(1 for s in match.sets if int(s.winner) == t) for t in (0, 1)]
        ns, ew = match.match_points
        parts.append(f"sets NS:{won[0]} EW:{won[1]} points NS:{ns} EW:{ew}")
    calls = [f"{seat.letter}:{format_action(a)}" for seat, a in view.history if action_id(a) >= 52]
    parts.append("auction " + (" ".join(calls) if calls else "-"))
    if rules.is_individual:
        parts.append(
            "bids "
            + " ".join(
                f"{Seat(s).letter}:{'-' if b is None else b}" for s, b in enumerate(view.bids)
            )
        )
    if view.contract is not None:
        parts.append(f"contract {view.contract}")
    if view.trump is not None:
        parts.append(f"trump {view.trump.letter}")
    played = [0, 0, 0, 0]
    for seat, a in view.history:
        if isinstance(a, Card):
            played[seat] |= 1 << a
    for s in range(4):
        parts.append(f"{Seat(s).letter} played {CardSet(played[s]).format()}")
    trick = view.current_trick
    if trick is not None and trick.cards:
        parts.append("trick " + " ".join(c.format() for c in trick.cards))
    parts.append(f"tricks {view.tricks_taken}")
    if rules.count is Count.CARD_POINTS and core.deal is not None:
        taken = core.deal.card_points_taken  # public: the tricks are shown as they are won
        parts.append(f"card points NS:{taken[0] + taken[2]} EW:{taken[1] + taken[3]}")
    return parts


def play_ismcts_match(
    deals: int = 2,
    simulations: int = 50,
    seed: int = 0,
    rules: str = "classic",
    opponent: str = "heuristic",
    search: str = "ismcts",
) -> dict[str, Any]:
    """An OpenSpiel search bot against one of our bots, duplicate style.

    ``search`` is ``"ismcts"``, OpenSpiel's Python ``ISMCTSBot`` (it deals the
    unseen cards again through :meth:`TarneebState.resample_from_infostate`),
    or ``"mcts"``, OpenSpiel's C++ ``MCTSBot`` through ``step_with_policy``
    (it searches the true deal, all hands seen: a reference, not a fair
    player). Each deal is played twice with the same cards: the search bot
    holding North-South, then East-West. Returns the points its side won
    minus the other side's, per deal and in total.
    """
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(GAME_NAME, {"rules": rules})
    np_rng = np.random.RandomState(seed)
    choose: Any
    if search == "ismcts":
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
        bot = ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=np_rng
        )
        choose = bot.step
    elif search == "mcts":
        rollouts = pyspiel.RandomRolloutEvaluator(1, seed)
        cpp = pyspiel.MCTSBot(game, rollouts, 2.0, simulations, 1000, False, seed, False)

        def choose(state: TarneebState) -> int:
            # Not cpp.step: open_spiel 2.0.2 releases the GIL there, and this game is Python.
            return int(cpp.step_with_policy(state)[1])
    else:
        raise ValueError(f"search must be 'ismcts' or 'mcts', not {search!r}")
    rng = random.Random(seed)
    diffs: list[float] = []
    for number in range(deals):
        cards = list(range(52))
        rng.shuffle(cards)
        for side in (0, 1):
            ours = make_bot(opponent, seed=seed * 1000 + number * 2 + side)
            state = game.new_initial_state()
            for card in cards:
                state.apply_action(card)
            while not state.is_terminal():
                player = state.current_player()
                if player % 2 == side:
                    action = int(choose(state))
                else:
                    choice = ours.act(state.view(player))
                    action = game.action_map.to_env[action_id(choice)]
                state.apply_action(action)
            diffs.append(state.returns()[side])
    return {
        "search": search,
        "deals": deals,
        "games": len(diffs),
        "simulations": simulations,
        "opponent": opponent,
        "ismcts_points_diff": diffs,
        "ismcts_total": sum(diffs),
    }


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, TarneebGame)
