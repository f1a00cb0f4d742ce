"""Where the app's dice (and its bots' choices) come from."""

from __future__ import annotations

import random

from django.conf import settings

_SEEDED_STREAMS: dict[str, random.Random] = {}


def system_rng(*key: object) -> random.Random:
    """Dice the app rolls come from the OS; every value is recorded in the event.

    Under the test-only setting ``SIXDICE_DICE_SEED`` they come from a
    ``random.Random`` seeded with that seed and ``key`` (say the game's number
    and ``seq``), so the same point of a game always gets the same dice,
    whichever tables were played before it.  Without a key, one stream per seed.
    """
    seed = settings.SIXDICE_DICE_SEED
    if seed is None:
        return random.SystemRandom()
    if not key:
        return _SEEDED_STREAMS.setdefault(seed, random.Random(seed))
    return random.Random(":".join(map(str, (seed, *key))))
