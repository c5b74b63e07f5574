"""Benchmarks and research tools: commands that print figures, never used by the site.

Run from the checkout, e.g. `python -m bench.engine` (the repository's root is then on
the path); bench/ is not installed with the site. It imports games (the engine, the bots,
the services), never the reverse:

- engine: random-play deals per second, the engine's step, copy, sample and key costs
- bots: heuristic playouts per second, the search bots' inner loop
- arena: bots against bots over mirrored decks, loss rates with intervals
- tune: self-play tuning of the heuristic's knobs
- movebench: server CPU per move, in-process, split by part
- loadtest: live tables under load against a running site (loadecho: its echo baseline)
- sweep: the deadline sweep over many open games (scripts/bench-sweep)
- queues: an Easy bot's answer with the coach's queue flooded (scripts/bench-queues)
"""
