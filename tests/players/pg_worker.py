"""A separate process that ends games on the shared database (run by test_postgres.py).

``setup``: profiles Ana, Bo and Cy, and for each of two workers ``--tables``
tiny-game tables (Ana with Bo for worker 0, Ana with Cy for worker 1), each
game one move from its end.  ``finish``: wait until every worker is ready,
then make the last move at each of its tables.  ``check``: the live ratings,
then the rebuilt ones, as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sixdice.settings")
    import django

    django.setup()
    from sixdice.gamekit.engine import register
    from tests.tinygame import TINY

    register(TINY)
    from sixdice.players import services as players
    from sixdice.players.models import Participant, Rating, RatingUpdate
    from sixdice.tables.core.keys import Credentials
    from sixdice.tables.models import Game
    from sixdice.tables.writes import checked_path, services

    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["setup", "finish", "check"])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--codes", default="")
    parser.add_argument("--barrier", default="")
    parser.add_argument("--me", type=int, default=0)
    parser.add_argument("--out", default="")
    args = parser.parse_args(argv)

    if args.command == "setup":
        ana, bo, cy = (players.create_profile(name=n)[0] for n in ("Ana", "Bo", "Cy"))
        codes: list[list[str]] = [[], []]
        for worker, other in enumerate((bo, cy)):
            for k in range(args.tables):
                table, _host = services.create_table(game="tiny", options={"target": 2}, capacity=2)
                players.join_with_profile(table=table, profile=ana)
                players.join_with_profile(table=table, profile=other)
                services.start_game(table=table, rng=random.Random(k))
                codes[worker].append(table.code)
        Path(args.out).write_text(json.dumps(codes))
    elif args.command == "finish":
        barrier = Path(args.barrier)
        (barrier / f"ready{args.me}").touch()
        while len(list(barrier.glob("ready*"))) < 2:  # start together; the result holds whatever the interleaving
            time.sleep(0.01)
        for code in args.codes.split(","):
            game = Game.objects.get(table__code=code)
            checked_path.apply_action(table_code=code, credentials=Credentials(), action={"type": "add", "n": 2},
                                  expected_seq=game.seq, bot_seat=game.state["current"], rng=random.Random(1))
    else:
        def ratings() -> list:
            return sorted(Rating.objects.values_list("profile__display_name", "mu", "sigma", "games"))

        def updates() -> list:
            return sorted((g, p, mb, sb, ma, sa) for g, p, mb, sb, ma, sa in RatingUpdate.objects.values_list(
                "game_id", "profile__display_name", "mu_before", "sigma_before", "mu_after", "sigma_after"))

        live, live_updates = ratings(), updates()
        # Each game's update must start from the rating left by the game rated just before it (no lost update).
        chained = True
        for name in ("Ana", "Bo", "Cy"):
            rows = list(RatingUpdate.objects.filter(profile__display_name=name).order_by("rated_at", "game_id")
                        .values_list("mu_before", "sigma_before", "mu_after", "sigma_after"))
            for before, after in zip(rows, rows[1:], strict=False):
                chained &= (after[0], after[1]) == (before[2], before[3])
        report = {
            "finished": Game.objects.filter(status=Game.Status.FINISHED).count(),
            "participants": Participant.objects.count(),
            "updates": RatingUpdate.objects.count(),
            "chained": chained,
            "live": live,
        }
        players.rebuild_ratings(replay=True)
        report["rebuilt"] = ratings()
        report["same_updates"] = updates() == live_updates
        from sixdice.players.selectors import search_profiles

        for name in ("Олена", "Inês", "Françoise", "Ĳsbrand van Dijk"):
            players.create_profile(name=name)
        report["search"] = {q: [p.display_name for p in search_profiles(q)]
                            for q in ("олена", "ОЛЕНА", "ines", "francoise", "ijsbrand", "DIJK")}
        print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1:])
