"""Tarneeb registered with OpenSpiel as the Python game ``python_tarneeb``.

Importing this module registers the game, so that OpenSpiel loads it by name
and runs its algorithms on it::

    import pyspiel
    import tarneeb.env.openspiel_game
    game = pyspiel.load_game("python_tarneeb", {"rules": "egyptian"})

* Four players, the seats South, East, North, West (0..3); South and North
  against East and West. Zero-sum: at the end each player gets its side's
  points minus the other side's (0 for a deal thrown in).
* Chance deals the cards one at a time, 52 chance nodes: the ``k``-th card
  dealt goes to player ``k % 4`` (outcomes: the cards left, uniform).
* Actions are the env ids of :mod:`tarneeb.env.encoding` (cards 0..51, calls
  52..60, bids from 61), so chance outcomes and card plays share ids 0..51.
* Imperfect information: the information-state string and tensor have
  perfect recall (own hand as dealt, every public action in order); the
  observation tensor is the 581-value vector of :mod:`tarneeb.env.encoding`.
* ``resample_from_infostate`` deals the unseen cards again, consistent with
  what the player has seen (hand sizes, shown voids), so ISMCTS runs.

Parameters: ``rules`` (a preset name, default ``"classic"``) and ``dealer``
(0..3, default 3: West deals, so South bids first).

:func:`play_ismcts_match` lets OpenSpiel's ISMCTS bot play against one of
ours. It uses ``open_spiel.python.algorithms.ismcts.ISMCTSBot``: the C++
``pyspiel.ISMCTSBot`` releases the GIL in ``step`` and then clones the
Python state (open_spiel 2.0.2), which crashes with any game written in
Python.

>>> import pyspiel
>>> game = pyspiel.load_game("python_tarneeb")
>>> game.num_distinct_actions(), game.num_players(), game.observation_tensor_size()
(139, 4, 581)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from tarneeb.actions import BID_BASE, action_id, format_action
from tarneeb.auction import max_auction_actions
from tarneeb.bots import make_bot
from tarneeb.cards import Card, CardSet
from tarneeb.deal import Deal
from tarneeb.env.encoding import OBS_SIZE, ActionMap, FloatArray, encode_view
from tarneeb.game import game_info, utility_bound
from tarneeb.presets import find_rules, preset_name
from tarneeb.rules import Rules
from tarneeb.seats import Seat
from tarneeb.view import View

__all__ = [
    "GAME_NAME",
    "TarneebGame",
    "TarneebObserver",
    "TarneebState",
    "play_ismcts_match",
    "utility_bound",
]

GAME_NAME = "python_tarneeb"
_DEFAULT_PARAMS: dict[str, Any] = {"rules": "classic", "dealer": 3}

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
        rules = find_rules(str(merged["rules"]))
        action_map = ActionMap(rules)
        meta = game_info(rules)  # the core's metadata of the game
        info = pyspiel.GameInfo(
            num_distinct_actions=meta.num_actions,
            max_chance_outcomes=52,
            num_players=meta.num_players,
            min_utility=float(meta.min_utility),
            max_utility=float(meta.max_utility),
            utility_sum=0.0,
            max_game_length=meta.max_game_length,
        )
        super().__init__(_GAME_TYPE, info, merged)
        self.rules = rules
        self.action_map = action_map
        self.dealer = Seat(int(merged["dealer"]))

    def new_initial_state(self) -> TarneebState:
        return TarneebState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TarneebObserver:
        return TarneebObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Core:
    """A state's own data; OpenSpiel deep-copies it to clone a state, so it copies cheaply."""

    __slots__ = ("action_map", "deal", "dealer", "dealt", "rules")

    def __init__(self, rules: Rules, action_map: ActionMap, dealer: Seat) -> None:
        self.rules = rules
        self.action_map = action_map
        self.dealer = dealer
        self.dealt: list[int] = []
        self.deal: Deal | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = _Core(self.rules, self.action_map, self.dealer)
        other.dealt = self.dealt[:]
        other.deal = None if self.deal is None else self.deal.copy()
        return other

    def __getstate__(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "dealer": int(self.dealer),
            "dealt": self.dealt,
            "actions": [] if self.deal is None else list(self.deal.action_ids),
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.rules = Rules.from_dict(state["rules"])
        self.action_map = ActionMap(self.rules)
        self.dealer = Seat(state["dealer"])
        self.dealt = list(state["dealt"])
        self.deal = None
        if len(self.dealt) == 52:
            self.deal = Deal(self.rules, self.dealer, _hands(self.dealt))
            for a in state["actions"]:
                self.deal.push(a)


def _hands(dealt: Sequence[int]) -> list[int]:
    hands = [0, 0, 0, 0]
    for k, card in enumerate(dealt):
        hands[k & 3] |= 1 << card
    return hands


class TarneebState(pyspiel.State):  # type: ignore[misc]
    """One deal in OpenSpiel: the chance deal, then the :class:`~tarneeb.deal.Deal`."""

    def __init__(self, game: TarneebGame) -> None:
        super().__init__(game)
        self._core = _Core(game.rules, game.action_map, game.dealer)

    @property
    def deal(self) -> Deal | None:
        """The deal, once all 52 cards are dealt."""
        return self._core.deal

    def view(self, seat: int) -> View:
        """What ``seat`` may know (for our bots)."""
        deal = self._core.deal
        if deal is None:
            raise ValueError("the cards are still being dealt")
        return deal.view(seat)

    def current_player(self) -> int:
        deal = self._core.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = deal.to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        deal = self._core.deal
        assert deal is not None and player >= 0
        return sorted(self._core.action_map.env_ids(deal.legal_action_ids()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self._core.dealt)
        left = [c for c in range(52) if c not in dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.deal is None:
            core.dealt.append(int(action))
            if len(core.dealt) == 52:
                core.deal = Deal(core.rules, core.dealer, _hands(core.dealt))
            return
        core.deal.push(core.action_map.to_engine[int(action)])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(int(action)).format()}"
        engine = self._core.action_map.to_engine[int(action)]
        text = format_action(engine)
        return f"bid {text}" if engine >= BID_BASE else text

    def is_terminal(self) -> bool:
        deal = self._core.deal
        return deal is not None and deal.is_over()

    def returns(self) -> list[float]:
        deal = self._core.deal
        if deal is None or deal.result is None:
            return [0.0, 0.0, 0.0, 0.0]
        ns, ew = deal.result.team_points
        diff = float(ns - ew)
        return [diff, -diff, diff, -diff]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TarneebState:
        """A state the player cannot tell from this one: the unseen cards dealt again."""
        deal = self._core.deal
        if deal is None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**52))
        hands = deal.view(player_id).sample_hands(rng)
        played = [0, 0, 0, 0]
        for seat, action in deal.history:
            if isinstance(action, Card):
                played[seat] |= 1 << action
        dealt = [hands[s] | played[s] for s in range(4)]
        cards = [sorted(CardSet(m)) for m in dealt]
        state = self.get_game().new_initial_state()
        for k in range(52):
            state.apply_action(int(cards[k & 3][k >> 2]))
        to_env = self._core.action_map.to_env
        for a in deal.action_ids:
            state.apply_action(to_env[a])
        return state  # type: ignore[no-any-return]

    def __str__(self) -> str:
        core = self._core
        if core.deal is None:
            return f"dealing: {len(core.dealt)} cards dealt"
        from tarneeb.record import format_deal

        return format_deal(core.deal)


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
        self._calls = game.action_map.num_actions - 52
        self._rows = max_auction_actions(game.rules)
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("observation", OBS_SIZE, (OBS_SIZE,))]
        if self._recall:
            pieces += [
                ("dealt", 52, (52,)),
                ("auction", self._rows * (4 + self._calls), (self._rows, 4 + self._calls)),
                ("play_order", 52, (52,)),
            ]
        size = sum(s for _, s, _ in pieces)
        self.tensor: FloatArray = np.zeros(size, np.float32)
        self.dict: dict[str, FloatArray] = {}
        at = 0
        for name, n, shape in pieces:
            self.dict[name] = self.tensor[at : at + n].reshape(shape)
            at += n

    def set_from(self, state: TarneebState, player: int) -> None:
        self.tensor.fill(0.0)
        core = state._core
        mine = _hands(core.dealt)[player] if self._private else 0
        deal = core.deal
        obs = self.dict["observation"]
        if deal is None:
            obs[:52] = [mine >> c & 1 for c in range(52)]
        else:
            encode_view(deal.view(player), out=obs)
            if not self._private:
                obs[:52] = 0.0
        if not self._recall:
            return
        self.dict["dealt"][:] = [mine >> c & 1 for c in range(52)]
        if deal is None:
            return
        auction = self.dict["auction"]
        order = self.dict["play_order"]
        to_env = self.action_map.to_env
        row = 0
        cards = 0
        for seat, action in deal.history:
            a = action_id(action)
            if a < 52:
                cards += 1
                order[a] = cards / 52.0
            elif row < self._rows:
                auction[row, (seat - player) & 3] = 1.0
                auction[row, 4 + to_env[a] - 52] = 1.0
                row += 1

    def string_from(self, state: TarneebState, player: int) -> str:
        core = state._core
        deal = core.deal
        parts = [f"p{player}"]
        if self._private:
            if self._recall or deal is None:
                parts.append(f"dealt {CardSet(_hands(core.dealt)[player]).format()}")
            else:
                parts.append(f"hand {deal.hand(player).format()}")
        if deal is None or not self._public:
            return " ".join(parts)
        if self._recall:
            parts.append(" ".join(f"{seat.letter}:{format_action(a)}" for seat, a in deal.history))
            return " | ".join(parts)
        view = deal.view(player)
        parts.append(f"phase {view.phase}")
        if view.contract is not None:
            parts.append(f"contract {view.contract}")
        if view.trump is not None:
            parts.append(f"trump {view.trump.letter}")
        for seat in range(4):
            shown = CardSet(
                sum(
                    1 << c
                    for t in view.tricks
                    for i, c in enumerate(t.cards)
                    if t.seat_of(i) == seat
                )
            )
            parts.append(f"{Seat(seat).letter} played {shown.format()}")
        trick = view.current_trick
        if trick is not None and trick.cards:
            parts.append("trick " + " ".join(c.format() for c in trick.cards))
        parts.append(f"tricks {view.tricks_taken}")
        return " | ".join(parts)


def play_ismcts_match(
    deals: int = 2,
    simulations: int = 50,
    seed: int = 0,
    rules: str = "classic",
    opponent: str = "heuristic",
) -> dict[str, Any]:
    """OpenSpiel's ISMCTS bot against one of our bots, duplicate style.

    Each deal is played twice with the same cards: ISMCTS holding North-South,
    then East-West. Returns the points ISMCTS's side won minus the other
    side's, per deal and in total.
    """
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(GAME_NAME, {"rules": preset_name(find_rules(rules)) or rules})
    np_rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
    search = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np_rng,
    )
    rng = random.Random(seed)
    diffs: list[float] = []
    for number in range(deals):
        cards = list(range(52))
        rng.shuffle(cards)
        for ismcts_side in (0, 1):
            ours = make_bot(opponent, seed=seed * 1000 + number * 2 + ismcts_side)
            state = game.new_initial_state()
            for card in cards:
                state.apply_action(card)
            while not state.is_terminal():
                player = state.current_player()
                if player % 2 == ismcts_side:
                    action = int(search.step(state))
                else:
                    choice = ours.act(state.view(player))
                    action = game.action_map.to_env[action_id(choice)]
                state.apply_action(action)
            diffs.append(state.returns()[ismcts_side])
    return {
        "deals": deals,
        "games": len(diffs),
        "simulations": simulations,
        "opponent": opponent,
        "ismcts_points_diff": diffs,
        "ismcts_total": sum(diffs),
    }


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, TarneebGame)
