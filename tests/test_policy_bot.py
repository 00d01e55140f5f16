"""A trained policy as a bot (``policy:...``): loading, hidden information, the arena, the server."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from tarneeb import Deal, find_rules
from tarneeb.actions import action_id
from tarneeb.bots import BotError, make_bot, play_deal
from tarneeb.view import View
from test_env import need

POLICY_FILE = '''
import numpy as np

CALLS = []

def policy(observation, mask):
    """The lowest legal action."""
    CALLS.append((observation.copy(), mask.copy()))
    return int(np.flatnonzero(mask)[0])

def seen(observation, mask, view):
    CALLS.append(view)
    return int(np.flatnonzero(mask)[-1])

class Net:
    def __init__(self):
        self.rng = np.random.default_rng(0)

    def __call__(self, observation, mask):
        return int(self.rng.choice(np.flatnonzero(mask)))

def make():
    return lambda observation, mask: int(np.flatnonzero(mask)[0])

def illegal(observation, mask):
    return int(np.flatnonzero(mask == 0)[0])

def words(observation, mask):
    return "pass"

not_callable = 3
'''


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    need("numpy")
    path = tmp_path / "my_policy.py"
    path.write_text(POLICY_FILE)
    return path


def test_a_policy_file_plays_a_deal_by_name(policy_file: Path) -> None:
    for name in ("", ":policy", ":Net", ":make", ":seen"):
        bot = make_bot(f"policy:{policy_file}{name}", seed=1)
        assert bot.spec == f"policy:{policy_file}{name}"
        deal = play_deal(Deal.from_seed(find_rules("classic"), 0, 3), [bot] * 4)
        assert deal.is_over()


def test_the_policy_sees_only_the_seats_view(policy_file: Path) -> None:
    """The policy gets encode_view(the acting seat's view) and never the deal."""
    import numpy as np

    from tarneeb.env.encoding import ActionMap, encode_view

    bot = make_bot(f"policy:{policy_file}")
    calls: list[Any] = bot.policy.__globals__["CALLS"]  # type: ignore[attr-defined]
    rules = find_rules("egyptian")
    deal = Deal.from_seed(rules, 2, 8)
    amap = ActionMap(rules)
    while not deal.is_over():
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        calls.clear()
        deal.push(bot.act(view))
        ((obs, mask),) = calls
        assert obs.tolist() == encode_view(view).tolist()
        assert mask.tolist() == amap.mask(tuple(action_id(a) for a in view.legal_actions)).tolist()
        assert np.flatnonzero(obs[:52]).tolist() == sorted(int(c) for c in view.hand)
    viewer = make_bot(f"policy:{policy_file}:seen")
    calls = viewer.policy.__globals__["CALLS"]  # type: ignore[attr-defined]
    calls.clear()
    deal = Deal.from_seed(rules, 0, 1)
    viewer.act(deal.view(deal.to_act))
    assert isinstance(calls[-1], View) and calls[-1].seat == deal.to_act


def test_hidden_cards_do_not_change_what_the_policy_gets(policy_file: Path) -> None:
    """Two deals alike for East (its hand, the same actions) give East's policy the same input."""
    from tarneeb.env.encoding import encode_view

    rules = find_rules("classic")
    deal = Deal.from_seed(rules, 0, 5)
    view = deal.view(1)
    rng = random.Random(0)
    hands = list(view.sample_hands(rng))
    other = Deal(rules, deal.dealer, hands, deal.scores)
    assert other.hand(1) == deal.hand(1) and other.dealt != deal.dealt
    assert encode_view(other.view(1)).tolist() == encode_view(view).tolist()


@pytest.mark.parametrize(
    ("suffix", "message"),
    [
        (":illegal", "not legal now"),
        (":words", "not an action id"),
    ],
)
def test_a_policy_that_breaks_the_rules_raises_bot_error(
    policy_file: Path, suffix: str, message: str
) -> None:
    bot = make_bot(f"policy:{policy_file}{suffix}")
    deal = Deal.from_seed(find_rules("classic"), 0, 3)
    with pytest.raises(BotError, match=message):
        bot.act(deal.view(deal.to_act))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("policy", "name the policy"),
        ("policy:nowhere.py", "not found"),
        ("policy:{file}:missing", "has no 'missing'"),
        ("policy:{file}:not_callable", "not callable"),
        ("policy:no_such_module_xyz:policy", "cannot be imported"),
        ("policy:no_such_entry_point_xyz", "no policy 'no_such_entry_point_xyz'"),
    ],
)
def test_bad_policy_specs(policy_file: Path, spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_bot(spec.format(file=policy_file))


def test_module_and_entry_point_specs(policy_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    import tarneeb.bots.policy as policy_module

    monkeypatch.syspath_prepend(str(policy_file.parent))
    bot = make_bot("policy:my_policy:policy")
    deal = Deal.from_seed(find_rules("classic"), 0, 3)
    first = bot.act(deal.view(deal.to_act))
    point = metadata.EntryPoint("lowest", "my_policy:policy", policy_module.ENTRY_POINT_GROUP)
    monkeypatch.setattr(
        policy_module.metadata,
        "entry_points",
        lambda group: [point] if group == point.group else [],
    )
    assert make_bot("policy:lowest").act(deal.view(deal.to_act)) == first


def test_the_arena_plays_a_policy(policy_file: Path) -> None:
    from tarneeb.arena import ArenaConfig, play_arena, summarize

    config = ArenaConfig(
        (f"policy:{policy_file}:Net", "random"),
        matches=2,
        seed=1,
        rules=find_rules("classic").replace(target=11),
    )
    summary = summarize(play_arena(config))
    assert set(summary["win_rate"]) == {f"policy:{policy_file}:Net", "random"}


def test_the_server_refuses_policy_files_and_modules(policy_file: Path) -> None:
    """A client naming a file or module would make the server run its code."""
    need("starlette", extra="server")
    from tarneeb.server.table import TableConfig

    for spec in (f"policy:{policy_file}", "policy:my_policy:policy", "policy:os:getcwd"):
        with pytest.raises(Exception, match="installed entry point") as caught:
            TableConfig.from_dict({"seats": {"east": f"bot:{spec}"}})
        assert type(caught.value).__name__ == "ServerError"
    with pytest.raises(Exception, match="no policy"):
        TableConfig.from_dict({"seats": {"east": "bot:policy:not_installed_xyz"}})


def test_the_terminal_app_takes_a_policy_opponent(policy_file: Path) -> None:
    need("textual", extra="play")
    from tarneeb.bots.policy import PolicyBot
    from tarneeb.seats import Seat
    from tarneeb.tui.controller import _make_bots

    bots = _make_bots(Seat.SOUTH, "heuristic", f"policy:{policy_file}:Net", seed=1)
    assert isinstance(bots[Seat.EAST], PolicyBot) and isinstance(bots[Seat.WEST], PolicyBot)
    assert not isinstance(bots[Seat.NORTH], PolicyBot)


def test_bot_lists_offer_only_specs_that_play(
    policy_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bare "policy" names no policy: lists of bots (the server's, bench/bots.py) used to
    offer it, and making it failed."""
    from importlib import metadata

    import tarneeb.bots.policy as policy_module

    monkeypatch.syspath_prepend(str(policy_file.parent))
    point = metadata.EntryPoint("lowest", "my_policy:policy", policy_module.ENTRY_POINT_GROUP)
    monkeypatch.setattr(
        policy_module.metadata,
        "entry_points",
        lambda group: [point] if group == point.group else [],
    )
    specs = policy_module.playable_specs()
    assert "policy" not in specs and "policy:lowest" in specs and "heuristic" in specs
    for spec in specs:
        assert make_bot(spec).spec == spec


def test_maskable_ppo_example_quick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The baseline trains a little, and its saved model plays as a bot by name."""
    need("sb3_contrib", extra="baseline")
    import json
    import subprocess

    root = Path(__file__).resolve().parent.parent
    model = tmp_path / "ppo.zip"
    done = subprocess.run(
        [
            sys.executable,
            str(root / "examples" / "maskable_ppo.py"),
            *("--steps", "256", "--envs", "1", "--eval-deals", "3", "--save", str(model)),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["steps"] == 256 and "ppo_vs_heuristic" in figures
    monkeypatch.setenv("TARNEEB_PPO_MODEL", str(model))
    bot = make_bot(f"policy:{root / 'examples' / 'maskable_ppo.py'}:policy")
    deal = play_deal(Deal.from_seed(find_rules("classic"), 0, 3), [bot, make_bot("random")])
    assert deal.is_over()
