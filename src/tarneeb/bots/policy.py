"""A trained policy as a bot: ``policy:...`` in the arena, the terminal app and the server.

A *policy* is any callable ``policy(observation, mask) -> action``: the
observation vector and the ``int8`` legal-action mask of :mod:`tarneeb.env`
(:func:`~tarneeb.env.encoding.encode_view`, :class:`~tarneeb.env.encoding.ActionMap`),
and an env action id back, the same as a policy trained on the PettingZoo or
Gymnasium env sees and answers. :class:`PolicyBot` makes a bot of it: at each
decision it encodes the seat's :class:`~tarneeb.view.View` (and nothing else:
the policy never meets the deal, so hidden cards stay hidden), asks the
policy, and checks the answer.

By name, through :func:`tarneeb.bots.make_bot` (so ``tarneeb arena``,
``tarneeb play`` and ``tarneeb serve`` take it as any bot):

=======================================  ==========================================
spec                                     the policy
=======================================  ==========================================
``policy:path/to/file.py:name``          ``name`` in that Python file (``name``
                                         defaults to ``policy``)
``policy:package.module:name``           ``name`` in an importable module
``policy:NAME``                          the entry point ``NAME`` of the group
                                         ``tarneeb.policies`` (a package's
                                         ``[project.entry-points."tarneeb.policies"]``)
=======================================  ==========================================

The object found is the policy itself; if it is a class, or a function of no
argument, it is called once to make the policy (a loaded network, say). The
policy may also take a third argument, ``view``, when it is declared as
``policy(observation, mask, view)``: the same seat's view, for a policy that
reads the game rather than the vector. A policy trained with the envs'
``dd_features`` cannot play as a bot: those features are full information,
which a seat's view does not hold.

Loading a file or a module runs its code, so a server must not let its
clients name one: :func:`remote_spec_allowed` allows only entry points
(installed by whoever runs the server) in specs that come from the network.

A policy that answers an illegal action (or not a whole number) raises
:class:`~tarneeb.bots.BotError`: a bot never plays an illegal card. The
encoding needs numpy (the ``pettingzoo`` or ``env`` extra); it is imported at
the first decision, so the registry itself needs nothing.

>>> import numpy as np
>>> bot = PolicyBot.of(lambda obs, mask: int(np.flatnonzero(mask)[-1]))
>>> from tarneeb import Deal, find_rules
>>> deal = Deal.from_seed(find_rules("classic"), dealer=0, seed=1)
>>> bot.act(deal.view(1))  # the last legal action: the highest bid
Bid(13)
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

from tarneeb.actions import action_from_id, action_id
from tarneeb.bots.base import Bot, BotError, Decision
from tarneeb.bots.reasons import Reason
from tarneeb.bots.registry import register_bot
from tarneeb.rules import Rules
from tarneeb.view import View

__all__ = [
    "ENTRY_POINT_GROUP",
    "Policy",
    "PolicyBot",
    "load_policy",
    "playable_specs",
    "remote_spec_allowed",
]

ENTRY_POINT_GROUP = "tarneeb.policies"
Policy = Callable[..., Any]
"""``policy(observation, mask[, view]) -> env action id``."""


def _from_file(path: str, name: str) -> Any:
    file = Path(path)
    if not file.is_file():
        raise BotError(f"policy file {path!r} not found")
    module_name = f"_tarneeb_policy_{abs(hash(str(file.resolve())))}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, file)
        if spec is None or spec.loader is None:
            raise BotError(f"policy file {path!r} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            raise BotError(f"policy file {path!r} failed to load: {exc}") from None
        sys.modules[module_name] = module
    if not hasattr(module, name):
        raise BotError(f"policy file {path!r} has no {name!r}")
    return getattr(module, name)


def _from_module(module_name: str, name: str) -> Any:
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotError(f"policy module {module_name!r} cannot be imported: {exc}") from None
    if not hasattr(module, name):
        raise BotError(f"policy module {module_name!r} has no {name!r}")
    return getattr(module, name)


def _from_entry_point(name: str) -> Any:
    found = [ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not found:
        raise BotError(
            f"no policy {name!r}: give path/to/file.py:name, package.module:name, or the name "
            f"of a {ENTRY_POINT_GROUP!r} entry point"
        )
    try:
        return found[0].load()
    except Exception as exc:
        raise BotError(f"policy entry point {name!r} failed to load: {exc}") from None


def _instantiate(found: Any, where: str) -> Policy:
    if inspect.isclass(found):
        found = found()
    elif inspect.isfunction(found) and not inspect.signature(found).parameters:
        found = found()  # a factory
    if not callable(found):
        raise BotError(f"{where} is not callable: a policy is policy(observation, mask) -> action")
    policy: Policy = found
    return policy


def load_policy(options: Sequence[str]) -> Policy:
    """The policy the spec's parts after ``policy:`` name (see the module docstring).

    :raises BotError: when it cannot be found or loaded.
    """
    parts = [p for p in options if p]
    if not parts or len(parts) > 2:
        raise BotError(
            "name the policy: policy:path/to/file.py[:name], policy:module:name or policy:NAME"
        )
    where = ":".join(parts)
    if parts[0].endswith(".py"):
        found = _from_file(parts[0], parts[1] if len(parts) == 2 else "policy")
    elif len(parts) == 2:
        found = _from_module(parts[0], parts[1])
    else:
        found = _from_entry_point(parts[0])
    return _instantiate(found, where)


def remote_spec_allowed(spec: str) -> bool:
    """Whether a bot spec from a remote client may be made: not a policy file or module.

    >>> remote_spec_allowed("heuristic:aggressive"), remote_spec_allowed("policy:my_net")
    (True, True)
    >>> remote_spec_allowed("policy:/tmp/x.py:policy"), remote_spec_allowed("policy:os:getcwd")
    (False, False)
    """
    name, *options = [p for p in spec.strip().split(":") if p]
    if name.lower() != PolicyBot.name:
        return True
    return len(options) == 1 and not options[0].endswith(".py")


def playable_specs() -> list[str]:
    """Bot specs that play as they are: each registered bot that needs no option (sorted),
    then ``policy:NAME`` for each installed policy entry point. Lists of bots to offer
    (the server's, a bench's) take these: a bare ``policy`` names no policy.

    >>> [spec for spec in playable_specs() if spec in ('heuristic', 'random', 'search')]
    ['heuristic', 'random', 'search']
    """
    from tarneeb.bots.registry import BOTS

    bare = sorted(name for name, cls in BOTS.items() if cls is not PolicyBot)
    names = sorted({ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)})
    return bare + [f"{PolicyBot.name}:{name}" for name in names]


def _takes_view(policy: Policy) -> bool:
    try:
        params = inspect.signature(policy).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [
        p
        for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
    ]
    return len(positional) >= 3 or any(p.kind is p.VAR_POSITIONAL for p in positional)


class PolicyBot(Bot):
    """A bot that asks a policy (see the module docstring); ``policy:...`` by name."""

    name = "policy"
    option_docs: ClassVar[dict[str, str]] = {
        "<file.py>[:<name>]": "the policy called <name> (default 'policy') in that Python file",
        "<module>:<name>": "the policy called <name> in an importable module",
        "<entry point>": f"a policy registered in the {ENTRY_POINT_GROUP!r} entry-point group",
    }

    def __init__(
        self,
        rng: random.Random | None = None,
        options: Sequence[str] = (),
        policy: Policy | None = None,
    ) -> None:
        # The options name a policy, not switches: Bot's check of them does not apply.
        super().__init__(rng)
        self.options = tuple(o for o in options if o)
        self.policy: Policy = load_policy(self.options) if policy is None else policy
        self._with_view = _takes_view(self.policy)
        self._maps: dict[Rules, Any] = {}

    @classmethod
    def of(cls, policy: Policy, rng: random.Random | None = None) -> PolicyBot:
        """A bot of the callable ``policy`` (not findable by name: its spec is ``policy``)."""
        return cls(rng, (), policy=policy)

    def decide(self, view: View) -> Decision:
        from tarneeb.env.encoding import ActionMap, encode_view

        if not view.legal_actions:
            raise ValueError(f"{view.seat.name.title()} has no decision to make now")
        amap = self._maps.get(view.rules)
        if amap is None:
            amap = self._maps[view.rules] = ActionMap(view.rules)
        mask = amap.mask(tuple(action_id(a) for a in view.legal_actions))
        obs = encode_view(view)
        answer = self.policy(obs, mask, view) if self._with_view else self.policy(obs, mask)
        try:
            index = int(answer)
        except (TypeError, ValueError):
            raise BotError(f"policy {self.spec} answered {answer!r}, not an action id") from None
        if not 0 <= index < len(mask) or not mask[index]:
            raise BotError(f"policy {self.spec} answered action {index}, which is not legal now")
        return Decision(action_from_id(amap.to_engine[index]), Reason("policy"))


register_bot(PolicyBot)
