"""Reinforcement-learning environments for Tarneeb (the ``env`` extra).

* :mod:`tarneeb.env.tarneeb_v0`: the PettingZoo AEC environment (four seats);
* :mod:`tarneeb.env.gym_env`: a Gymnasium single-agent environment (one seat
  learns, bots play the other three);
* :mod:`tarneeb.env.openspiel_game`: Tarneeb registered with OpenSpiel as the
  Python game ``python_tarneeb``.

All share one dense action space and one observation vector, documented in
:mod:`tarneeb.env.encoding` (numpy is the only dependency there). The
framework modules import their framework, so import them by name: this
package itself imports none of them.
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
