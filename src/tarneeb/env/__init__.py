"""Reinforcement-learning environments for Tarneeb (the ``env`` extra, or one a framework).

* :mod:`tarneeb.env.tarneeb_v0`: the PettingZoo AEC environment (four seats;
  the ``pettingzoo`` extra), with :class:`~tarneeb.env.safe.SafeEnv`, the
  checks of PettingZoo's usual wrappers in one fast layer;
* :mod:`tarneeb.env.gym_env`: a Gymnasium single-agent environment (one seat
  learns, bots play the other three; the ``gymnasium`` extra);
* :mod:`tarneeb.env.openspiel_game`: Tarneeb registered with OpenSpiel as the
  Python game ``python_tarneeb`` (the ``openspiel`` extra).

All share one dense action space and one observation vector, documented in
:mod:`tarneeb.env.encoding` (numpy is the only dependency there), one set of
parameter names checked in :mod:`tarneeb.env.params` (standard library only),
and the double-dummy modes of :mod:`tarneeb.env.dd` (auction-only episodes
scored double dummy, double-dummy features; the solver). The framework
modules import their framework, so import them by name: this package itself
imports none of them.
"""

from __future__ import annotations

from tarneeb.env.encoding import (
    ACTION_VERSION,
    OBS_SIZE,
    OBS_VERSION,
    OFFSETS,
    ActionMap,
    ObservationEncoder,
    encode_view,
)

__all__ = [
    "ACTION_VERSION",
    "OBS_SIZE",
    "OBS_VERSION",
    "OFFSETS",
    "ActionMap",
    "ObservationEncoder",
    "encode_view",
]
