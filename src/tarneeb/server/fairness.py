"""The fair shuffle: a seed from ``secrets``, committed to before the deal and revealed after.

The deck a seed gives is the 52 cards sorted by ``sha256(seed + ":" + card)``
(hex digests, ASCII text, ``card`` the decimal card number 0..51), so anyone
can recompute it with nothing but SHA-256; the browser client does, to check
the hand it was dealt. :mod:`docs/protocol.md` states the same.

>>> seed = "00112233445566778899aabbccddeeff"
>>> commitment(seed)[:16]
'5947d7c33d783f94'
>>> from tarneeb.cards import Dealing, CardSet
>>> hands = hands_from_seed(seed, dealer=0, dealing=Dealing.ONE_AT_A_TIME)
>>> sum(len(CardSet(h)) for h in hands)
52
>>> verify(seed, commitment(seed), hands, dealer=0, dealing=Dealing.ONE_AT_A_TIME)
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from tarneeb.cards import Card, Dealing, deal_masks

__all__ = ["commitment", "deck_from_seed", "hands_from_seed", "new_seed", "verify"]


def new_seed() -> str:
    """A fresh deal seed: 32 hex digits from :mod:`secrets`."""
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """The SHA-256 (hex) of ``seed``, published before the deal."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def deck_from_seed(seed: str) -> list[Card]:
    """The deck ``seed`` gives: the cards sorted by ``sha256(seed:card)``."""
    prefix = seed.encode("ascii") + b":"
    keyed = sorted(
        (hashlib.sha256(prefix + str(card).encode("ascii")).hexdigest(), card) for card in range(52)
    )
    return [Card(card) for _, card in keyed]


def hands_from_seed(seed: str, dealer: int, dealing: Dealing) -> tuple[int, int, int, int]:
    """The four hands (bitmasks by seat) that ``seed`` deals when ``dealer`` deals."""
    return deal_masks(deck_from_seed(seed), dealer, dealing)


def verify(seed: str, published: str, hands: Sequence[int], dealer: int, dealing: Dealing) -> bool:
    """Whether ``seed`` matches the ``published`` commitment and deals exactly ``hands``.

    ``hands`` may hold 0 for seats whose cards the checker does not know.
    """
    if not hmac.compare_digest(commitment(seed), published):
        return False
    dealt = hands_from_seed(seed, dealer, dealing)
    return all(h == 0 or h == d for h, d in zip(hands, dealt, strict=True))
