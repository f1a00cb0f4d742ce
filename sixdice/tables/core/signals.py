"""Signals the tables send, for apps built on them (the tables never import those apps).

``seat_moved``: a seat's own phone made a move (not a bot, not the host), in
the move's transaction, after its events were saved.  Arguments: ``engine``,
``game`` (after the move), ``before`` (the state the phone saw), ``seat``
and ``seq`` (the move's event).  The review app keeps the hint that phone
showed (``sixdice/review/hints.py``).

``game_finished``: a game has just ended, in the transaction that saved its
end (sent by :mod:`~sixdice.tables.writes.after_commit`).  Argument: ``game``, with its result.  The
players app records results and ratings (``sixdice/players/apps.py``).
"""

from __future__ import annotations

from django.dispatch import Signal

seat_moved = Signal()
game_finished = Signal()
