"""Fill a server's database with a small league (run in the server's environment by test_browser.py).

Prints JSON: the public ids of the profiles, a one-use link token for Олена's
profile, and the code of a table whose seats are still open.
"""

from __future__ import annotations

import json
import os
import random


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sixdice.settings")
    import django

    django.setup()
    from sixdice.players import services as players
    from sixdice.tables.core import keys
    from sixdice.tables.writes import services
    from tests.players.helpers import BOT, play, table_with

    people = [players.create_profile(name=n, colour=c, emoji=e)[0] for n, c, e in (
        ("Олена", "#2e9e5b", "🦊"), ("Inês", "#d9822b", "🌵"), ("Joost", "#2f6fdf", "🐢"),
        ("Françoise", "#b04ac2", "🐝"))]
    rng = random.Random(17)
    sixdice = {"rounds": 1, "auto_balance": True}
    for k in range(4):
        table = table_with("sixdice", [people[k % 4], people[(k + 1) % 4], people[(k + 2) % 4]], sixdice)
        for _ in range(2):
            play(table, rng)
    table = table_with("sixdice", [people[0], "Guest", BOT], sixdice)
    play(table, rng)
    for k in range(3):
        play(table_with("runbuster", [people[0], people[1 + k]]), rng)
    lobby, _host = services.create_table(game="sixdice", options={}, capacity=4)
    services.join_table(table=lobby, name="Bram")
    print(json.dumps({
        "ids": {p.display_name: p.public_id for p in people},
        "token": players.issue_transfer(profile=people[0]),
        "lobby": lobby.code,
        "join": f"/t/{lobby.code}/?k={keys.join_key(lobby)}",  # the host's join link (issue 15)
    }))


if __name__ == "__main__":
    main()
