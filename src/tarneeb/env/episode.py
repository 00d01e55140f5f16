"""The deals of one OpenSpiel episode, without OpenSpiel (:mod:`tarneeb.env.openspiel_game`).

An :class:`Episode` takes the chance outcomes (52 cards a deal, the ``k``-th
to seat ``k % 4``) and the players' env action ids, plays the deals as deals
of a :class:`~tarneeb.match.Match` (which counts them, decides sets and the
match), and keeps the :class:`~tarneeb.env.encoding.ObservationEncoder` and
the per-deal records the observers read. The encoder takes the actions only
when an observation is read (:meth:`Episode.encoder_now`), so a search that
clones and plays without reading any pays nothing for it. It copies cheaply
(a search clones states by the thousand) and pickles to its actions.

>>> setup = Setup(game_rules("classic"), dealer=3, scores=(0, 0, 0, 0), max_deals=1, reward="deal")
>>> episode = Episode(setup)
>>> for card in range(52):
...     episode.deal_card(card)
>>> episode.deal.to_act, len(episode.deal.hand(0))
(Seat.SOUTH, 13)
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from tarneeb.deal import Deal
from tarneeb.env.encoding import ActionMap, MatchProgress, ObservationEncoder, match_progress
from tarneeb.env.params import check_reward
from tarneeb.errors import RulesError
from tarneeb.match import Match
from tarneeb.notation import parse_rules_text
from tarneeb.presets import PRESETS
from tarneeb.rules import Rules
from tarneeb.seats import Seat

__all__ = [
    "Episode",
    "Setup",
    "game_rules",
    "hands_of",
    "parse_scores",
    "seat_to_act",
    "spiel_rules_text",
    "spiel_scores_text",
]


_B64 = "b64:"


def game_rules(text: str) -> Rules:
    """The rules a ``rules`` parameter names.

    A preset name; a preset with changes as records write them, each change
    ``KEY=VALUE`` or ``KEY:VALUE`` (``"egyptian;target=31"``,
    ``"custom;min_bid:8"``, ``custom`` being classic); the JSON of
    :meth:`Rules.to_dict <tarneeb.rules.Rules.to_dict>`; or what
    :func:`spiel_rules_text` writes.

    >>> game_rules("egyptian;target=31").target
    31
    >>> game_rules('{"bid_once": true}').bid_once
    True
    >>> rules = game_rules("syrian400;individual_minimums=[[0,3,11]]")
    >>> game_rules(spiel_rules_text(rules)) == rules
    True

    :raises RulesError: on an unknown preset or option, or bad JSON.
    :raises RecordError: on a change that is not ``KEY=VALUE``.
    """
    text = text.strip()
    if text.startswith(_B64):
        packed = text[len(_B64) :]
        try:
            text = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4)).decode()
        except ValueError:
            raise RulesError(f"the rules are not valid {_B64} text") from None
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise RulesError(f"the rules are not valid JSON: {exc}") from None
        return Rules.from_dict(data)
    name, *changes = text.split(";")
    written = [c if "=" in c else c.replace(":", "=", 1) for c in changes]
    return parse_rules_text(";".join([name, *written]))


def spiel_rules_text(rules: Rules) -> str:
    """``rules`` as a ``rules`` parameter that OpenSpiel's game strings carry intact.

    Those strings split parameters at ``,`` and ``=`` (``python_tarneeb(rules=...,dealer=1)``),
    so a change is written ``KEY:VALUE``, and changes whose values hold commas
    (tables) in base64 (``b64:...``).

    >>> spiel_rules_text(game_rules("egyptian;target=31"))
    'egyptian;target:31'
    """
    text = _nearest_preset_text(rules)
    if not any(ch in text for ch in ",()="):
        return text
    return _B64 + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _nearest_preset_text(rules: Rules) -> str:
    # The preset with the fewest changes, then the changes (rules_text counts from classic).
    data = rules.to_dict()
    best: tuple[int, str, dict[str, Any]] | None = None
    for name, preset in PRESETS.items():
        base = preset.to_dict()
        changes = {k: v for k, v in data.items() if base[k] != v}
        if best is None or len(changes) < best[0]:
            best = (len(changes), name, changes)
    assert best is not None
    _, name, changes = best
    return ";".join(
        [name, *(f"{k}:{json.dumps(v, separators=(',', ':'))}" for k, v in changes.items())]
    )


def parse_scores(rules: Rules, text: str) -> tuple[int, int, int, int]:
    """Each seat's starting score from a ``scores`` parameter (see the module docstring).

    Two sides' scores ``NS,EW``, or four seats' ``S,E,N,W`` where seats score
    alone; ``/`` or spaces may stand for the commas (OpenSpiel's game strings
    cannot hold commas in a value: :func:`spiel_scores_text` writes ``/``).

    >>> parse_scores(game_rules("classic"), "20,-5")
    (20, -5, 20, -5)

    :raises RulesError: when it is not two (sides) or four (seats alone) integers.
    """
    text = text.strip()
    if not text:
        return (0, 0, 0, 0)
    want = 4 if rules.is_individual else 2
    try:
        values = [int(v) for v in text.replace("/", ",").replace(" ", ",").split(",") if v]
    except ValueError:
        values = []
    if len(values) != want:
        kind = "four seats' scores S,E,N,W" if want == 4 else "two sides' scores NS,EW"
        raise RulesError(f"scores must be {kind}, not {text!r}")
    if want == 2:
        values *= 2
    return (values[0], values[1], values[2], values[3])


def spiel_scores_text(rules: Rules, scores: Sequence[int]) -> str:
    """Scores as :func:`parse_scores` reads them, fit for OpenSpiel's game strings.

    >>> spiel_scores_text(game_rules("classic"), (20, -5, 20, -5))
    '20/-5'
    """
    kept = scores if rules.is_individual else scores[:2]
    return "/".join(str(s) for s in kept)


class Setup:
    """What a game's parameters settle, shared by all its states."""

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        scores: tuple[int, int, int, int],
        max_deals: int,
        reward: str,
    ) -> None:
        if not 0 <= dealer < 4:
            raise RulesError(f"dealer must be 0..3, not {dealer}")
        if max_deals < 1:
            raise RulesError(
                "max_deals must be at least 1: OpenSpiel games have a most number of moves, "
                "and a match has none (give the deals a match may take, e.g. 200)"
            )
        check_reward(reward)
        self.rules = rules
        self.action_map = ActionMap(rules)
        self.dealer = Seat(dealer)
        self.scores = scores
        self.max_deals = max_deals
        self.reward = reward

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Setup:
        """The setup of OpenSpiel's game parameters (see :mod:`tarneeb.env.openspiel_game`)."""
        rules = game_rules(str(params["rules"]))
        scores = parse_scores(rules, str(params["scores"]))
        return cls(
            rules, int(params["dealer"]), scores, int(params["max_deals"]), str(params["reward"])
        )


def _placeholder_deck(index: int) -> list[int]:
    # The match's next deal until chance has dealt its cards (then replaced).
    return list(range(52))


class Episode:
    """A state's own data; OpenSpiel deep-copies it to clone a state, so it copies cheaply."""

    __slots__ = (
        "actions",
        "calls",
        "cards",
        "deal",
        "dealt",
        "done",
        "encoded",
        "encoder",
        "history",
        "match",
        "progress",
        "setup",
    )

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.dealt: list[int] = []
        """The chance outcomes of the deal being dealt or played."""
        self.deal: Deal | None = None
        """The deal in play, or the episode's last deal once it is over."""
        self.match: Match | None = None
        self.encoder: ObservationEncoder | None = None
        """The observations of the deal, brought up to date when read (:meth:`encoder_now`)."""
        self.encoded = -1
        """How many of the deal's actions the encoder has taken (-1: not started on it)."""
        self.progress: MatchProgress | None = None
        """How the match stood when the deal began."""
        self.actions: list[tuple[int, int]] = []
        """The current deal's actions: (seat, engine id)."""
        self.calls: list[tuple[int, int]] = []
        """The current deal's calls and bids: (seat, env id)."""
        self.cards: list[int] = []
        """The current deal's cards in the order played."""
        self.history: list[tuple[list[int], Deal]] = []
        """The episode's deals over: (chance outcomes, the deal)."""
        self.done = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        other = Episode.__new__(Episode)
        other.setup = self.setup
        other.dealt = self.dealt[:]
        other.deal = None if self.deal is None else self.deal.copy()
        other.match = None if self.match is None else _copy_match(self.match, self.deal, other.deal)
        other.encoder = None if self.encoder is None else self.encoder.copy()
        other.encoded = self.encoded
        other.progress = self.progress
        other.actions = self.actions[:]
        other.calls = self.calls[:]
        other.cards = self.cards[:]
        other.history = self.history[:]  # earlier deals never change
        other.done = self.done
        return other

    def __getstate__(self) -> dict[str, Any]:
        params = self.setup
        deals = [(dealt, list(deal.action_ids)) for dealt, deal in self.history]
        if not self.done:
            deals.append((self.dealt, [] if self.deal is None else list(self.deal.action_ids)))
        return {
            "rules": params.rules.to_dict(),
            "dealer": int(params.dealer),
            "scores": list(params.scores),
            "max_deals": params.max_deals,
            "reward": params.reward,
            "deals": deals,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        scores = state["scores"]
        setup = Setup(
            Rules.from_dict(state["rules"]),
            state["dealer"],
            (scores[0], scores[1], scores[2], scores[3]),
            state["max_deals"],
            state["reward"],
        )
        Episode.__init__(self, setup)
        to_env = setup.action_map.to_env
        for dealt, actions in state["deals"]:
            for card in dealt:
                self.deal_card(int(card))
            for a in actions:
                self.act(to_env[int(a)])

    # -- the game ---------------------------------------------------------------------

    def deal_card(self, card: int) -> None:
        """Chance deals ``card`` to the next seat; the 52nd starts the deal."""
        dealt = self.dealt
        dealt.append(card)
        if len(dealt) < 52:
            return
        setup = self.setup
        hands = hands_of(dealt)
        match = self.match
        if match is None:
            match = self.match = Match(
                setup.rules,
                seed=0,
                first_dealer=setup.dealer,
                deck_source=_placeholder_deck,
                scores=setup.scores,
            )
        # The match dealt a placeholder (it deals as soon as a deal ends): chance's cards instead.
        deal = Deal(setup.rules, match.deal.dealer, hands, match.deal.scores)
        match.deals[-1] = deal
        self.deal = deal
        self.actions = []
        self.calls = []
        self.cards = []
        self.encoded = -1
        self.progress = match_progress(match)

    def encoder_now(self) -> ObservationEncoder:
        """The encoder, up to date with the deal in play (or the last one, once over).

        It takes the deal's actions only when an observation is read, so a
        search that clones and plays without reading any pays nothing for it.
        """
        encoder = self.encoder
        if encoder is None:
            encoder = self.encoder = ObservationEncoder(self.setup.rules)
        self.encoded = self.catch_up(encoder, self.encoded)
        return encoder

    def catch_up(self, encoder: ObservationEncoder, done: int) -> int:
        """Bring ``encoder``, which has taken ``done`` of the deal's actions (-1: not started
        on the deal), up to date with the deal; returns how many it has taken then."""
        deal = self.deal
        assert deal is not None, "no deal to observe while the cards are dealt"
        actions = self.actions
        n = len(actions)
        if done == n:
            return done
        if done == n - 1 and done >= 0:  # the usual step: one action since the last read
            seat, a = actions[done]
            encoder.add(seat, a)
        else:
            if done < 0:
                encoder.start(deal.dealer, deal.scores, deal.dealt, self.progress)
                done = 0
            for seat, a in actions[done:]:
                encoder.add(seat, a)
        encoder.sync(deal, deal._to_act)  # -1 once the deal is over, as seat_to_act
        return n

    def act(self, env_id: int) -> None:
        """The player to act takes ``env_id``."""
        deal = self.deal
        match = self.match
        assert deal is not None and match is not None
        seat = int(deal._to_act)
        engine = self.setup.action_map.to_engine[env_id]
        match.push(engine)  # checks the action; counts the deal when it ends
        self.actions.append((seat, engine))
        if engine < 52:
            self.cards.append(engine)
        else:
            self.calls.append((seat, env_id))
        if deal.is_over():
            self._end_deal(deal, match)

    def _end_deal(self, deal: Deal, match: Match) -> None:
        self.history.append((self.dealt, deal))
        if match.is_over() or len(self.history) >= self.setup.max_deals:
            self.done = True
            return
        self.dealt = []
        self.deal = None

    def returns(self) -> list[float]:
        if not self.done:
            return [0.0, 0.0, 0.0, 0.0]
        if self.setup.reward == "deal":
            # North-South's points minus East-West's over the episode's deals (the match
            # counts its sets' scores from the setup's; the reward only the episode's).
            diff = 0.0
            for _, deal in self.history:
                result = deal.result
                if result is not None:
                    ns, ew = result.team_points
                    diff += ns - ew
        else:
            match = self.match
            winner = None if match is None else match.winner
            diff = 0.0 if winner is None else (1.0 if int(winner) == 0 else -1.0)
        return [diff, -diff, diff, -diff]


def _copy_match(match: Match, deal: Deal | None, copy: Deal | None) -> Match:
    """A copy of ``match`` that goes on independently, with ``copy`` for its deal ``deal``.

    The other deals are shared: those over never change, and a placeholder is
    only ever replaced (in the copy's own list).
    """
    other = Match.__new__(Match)
    other.__dict__.update(match.__dict__)
    if copy is not None:
        other.deals = [copy if d is deal else d for d in match.deals]
    else:
        other.deals = match.deals[:]
    other.sets = match.sets[:]
    return other


def seat_to_act(deal: Deal) -> int:
    """The seat to act, or -1 once the deal is over."""
    seat = deal.to_act
    return -1 if seat is None else int(seat)


def hands_of(dealt: Sequence[int]) -> list[int]:
    """The four hands (masks) of chance outcomes: the ``k``-th card to seat ``k % 4``."""
    hands = [0, 0, 0, 0]
    for k, card in enumerate(dealt):
        hands[k & 3] |= 1 << card
    return hands
