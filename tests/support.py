"""Helpers shared by several test modules: ``import support`` (pytest puts tests/ on the path).

What only one module needs stays in that module; what is here is used by two
or more of them, so that it is written once:

* :data:`PRESET_NAMES`, the preset names in their registry order;
* :data:`CRAFTED`, a deal whose first tricks show every rule of trick play;
* :func:`duel` and :func:`fill`, hands built from a few facts;
* :func:`play_randomly`, random legal play to the end of a deal;
* :func:`run_python` and :func:`run_tarneeb`, a real Python process in the repository;
* :func:`free_port`, :func:`serve_command` and :func:`start_listening`, to start
  ``tarneeb serve`` (or nginx) as a process and know it is that process that answers.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tarneeb import SEATS, CardSet, Deal, Phase, Seat, Suit
from tarneeb.cards import SUIT_MASKS

ROOT = Path(__file__).resolve().parent.parent
"""The repository: the folder of pyproject.toml, src/, tests/ and bench/."""

Hands = tuple[int, int, int, int]

# The presets, in the order of the registry (and of ``tarneeb rules --list``).
PRESET_NAMES = [
    "classic",
    "lebanese31",
    "tarneeb61",
    "levant-sets",
    "original",
    "egyptian",
    "saudi",
    "sol",
    "tarneeb400",
    "syrian400",
]

# Hands built so that the first tricks show every rule of trick play; trump spades, South leads.
#   trick 1: S 2H, E ruffs 2S (void in hearts), N AH (must follow), W overruffs 3S -> West
#   trick 2: W 4C, S 2C (must follow), E 9C, N discards AD (void in clubs) -> East
CRAFTED = (
    "AKQ.765432.32.32",  # South
    "76542.-.8765.AKQ9",  # East
    "-.AKQJT98.AKQJT9.-",  # North
    "JT983.-.4.JT87654",  # West
)


def duel(
    hero: Seat,
    rival: Seat,
    k: int,
    trump: Suit = Suit.SPADES,
    side: Suit = Suit.CLUBS,
) -> Hands:
    """Hands on which ``hero`` takes exactly ``k`` tricks and ``rival`` the other 13 - k.

    The hero holds the top k trumps and the lowest 13 - k cards of ``side``;
    the rival the other trumps and the top k of ``side``; the two other seats
    hold one whole other suit each (in seat order, the lower suit first). With
    ``trump`` trump and the first lead by the hero or the rival, the other two
    can never win a trick (their suits are never led and they hold no trump),
    so they never lead; the hero wins exactly the tricks to which they play a
    trump (their trumps are the highest), and the rival every other one (a
    trump, or a higher ``side`` card of the suit led).

    >>> [CardSet(mask).format() for mask in duel(Seat.SOUTH, Seat.EAST, 2)]
    ['AK...QJT98765432', 'QJT98765432...AK', '..AKQJT98765432.', '.AKQJT98765432..']
    """
    hands = [0, 0, 0, 0]
    for rank in range(13):
        t = 1 << (trump * 13 + rank)
        s = 1 << (side * 13 + rank)
        if rank >= 13 - k:
            hands[hero] |= t
            hands[rival] |= s
        else:
            hands[rival] |= t
            hands[hero] |= s
    others = [seat for seat in SEATS if seat not in (hero, rival)]
    free = [suit for suit in Suit if suit not in (trump, side)]
    hands[others[0]] = SUIT_MASKS[free[0]]
    hands[others[1]] = SUIT_MASKS[free[1]]
    return hands[0], hands[1], hands[2], hands[3]


def fill(given: Mapping[Seat, str]) -> Hands:
    """The hands ``given`` as text; the other seats get the remaining cards in order.

    The cards left, lowest first, go 13 at a time to the seats not given, in seat order.

    >>> [CardSet(mask).format() for mask in fill({Seat.EAST: "AKQJT9876543..2."})]
    ['...AKQJT98765432', 'AKQJT9876543..2.', '.2.AKQJT9876543.', '2.AKQJT9876543..']
    """
    hands = [0, 0, 0, 0]
    used = 0
    for seat, text in given.items():
        hands[seat] = CardSet.parse(text).mask
        used |= hands[seat]
    free = [c for c in range(52) if not used >> c & 1]
    for seat in Seat:
        if seat not in given:
            for card in free[:13]:
                hands[seat] |= 1 << card
            free = free[13:]
    return hands[0], hands[1], hands[2], hands[3]


def play_randomly(deal: Deal, seed: int = 0) -> None:
    """Finish the play with random legal cards, each pushed through the checked path."""
    rng = random.Random(seed)
    while not deal.is_over():
        assert deal.phase is Phase.PLAY
        deal.push(rng.choice(deal.legal_action_ids()))


def run_python(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python *args`` in a new process, from the repository with its src/ first on the path.

    Output is captured as UTF-8 text; the exit status is left to the caller to check.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
        timeout=timeout,
        check=False,
    )


def run_tarneeb(*args: str) -> subprocess.CompletedProcess[str]:
    """The ``tarneeb`` command (``python -m tarneeb *args``) in a new process."""
    return run_python("-m", "tarneeb", *args)


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listens(process: subprocess.Popen[Any], port: int) -> bool:
    """Whether ``process`` itself (or a child of it) listens on TCP ``port``.

    Asked of the operating system's sockets, not of whoever answers on the port:
    another program may have taken a port between :func:`free_port` and the
    server's bind (a CI run once read a stranger's binary bytes there as the
    server's answer).
    """
    import psutil

    try:
        root = psutil.Process(process.pid)
        family = [root, *root.children(recursive=True)]
        for member in family:
            for connection in member.net_connections(kind="tcp"):
                if connection.status == psutil.CONN_LISTEN and connection.laddr.port == port:
                    return True
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return False
    return False


def _taken(port: int) -> bool:
    """Whether something on this machine holds ``port`` on loopback now."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def start_listening(
    command: Callable[[int], list[str]],
    *,
    port: int | None = None,
    log: Callable[[], str] = lambda: "",
    timeout: float = 60.0,
    **popen: Any,
) -> tuple[subprocess.Popen[Any], int]:
    """Start ``command(port)`` and return the process and its port once it listens there.

    ``port=None`` takes a free port, and should another program take it before
    the server binds it (the server exits, the port held by someone else), starts
    the server again on another, up to five times. A given ``port`` (a restart on
    the port the clients know) is not changed. ``log`` gives the server's output
    for the message when it exits or does not listen within ``timeout`` seconds.
    """
    for _ in range(5):
        chosen = free_port() if port is None else port
        process: subprocess.Popen[Any] = subprocess.Popen(command(chosen), **popen)
        deadline = time.monotonic() + timeout
        while not listens(process, chosen):
            if process.poll() is not None:
                break
            if time.monotonic() > deadline:
                process.kill()
                process.wait()
                raise AssertionError(f"not listening on {chosen} after {timeout} s: {log()}")
            time.sleep(0.05)
        else:
            return process, chosen
        if port is not None or not _taken(chosen):
            raise AssertionError(f"exited ({process.returncode}) before listening: {log()}")
    raise AssertionError(f"five free ports were taken before the server bound them: {log()}")


def serve_command(db_url: str, port: int, bot_delay: float = 0) -> list[str]:
    """The command that runs ``tarneeb serve`` on loopback for the tests."""
    return [
        sys.executable,
        *("-m", "tarneeb", "serve", "--host", "127.0.0.1", "--port", str(port)),
        *("--db", db_url, "--bot-delay", str(bot_delay), "--log-level", "warning"),
    ]


def need_dds() -> None:
    """Skip without endplay's DDS (the solver extra), unless TARNEEB_REQUIRE_EXTRAS=1 (then fail)."""
    import pytest

    from tarneeb.solver import dds

    if not dds.available():
        message = "endplay (DDS) is not installed (the solver extra)"
        if os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1":
            pytest.fail(f"{message}, and TARNEEB_REQUIRE_EXTRAS=1 insists on it")
        pytest.skip(message)


def need(module: str, extra: str) -> None:
    """Skip without ``module``, unless TARNEEB_REQUIRE_EXTRAS=1 (CI: then fail)."""
    import importlib.util

    import pytest

    try:
        found = importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        found = False
    if not found:
        message = f"{module} is not installed (the {extra} extra)"
        if os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1":
            pytest.fail(f"{message}, and TARNEEB_REQUIRE_EXTRAS=1 insists on it")
        pytest.skip(message)
