"""The Run Buster laboratory: the engine bench and the simulation.

It imports the rules (:mod:`runbuster.rules`), never the reverse.  Run its commands with
`python -m runbuster.lab.<name>`.
"""
