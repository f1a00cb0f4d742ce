"""The Six-Dice laboratory: the balance study, the arena, benches and the leaf fit.

It imports the rules (:mod:`sixdice.rules`), never the reverse, and its own dependencies
(tqdm, the `lab` extra) are not the app's.  Run its commands with `python -m sixdice.lab.<name>`.
"""
