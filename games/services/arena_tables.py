"""The bench arena's runs on every kind of table, kept for the ladder page (docs/ladder.md):
a file saved by `python -m bench.arena --save` (one JSON line a pack) becomes one ArenaRun
whose figures say, per computer player of the line-up, how often it lost against a fair
share. These runs rate no level (the standing arena does that); loading a file again
replaces its run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from ..bots import LEVELS
from ..bots.arena import bot_label, percentile
from ..engine import Rules
from ..models import ArenaRun

MAX_LINE_BYTES = 4 * 1024 * 1024  # a pack of six players' deals with every move's time
MAX_LINE_DEPTH = 6  # {"results": [{"times": [[...]]}]}

Lines = Sequence[tuple[int, Any]]  # a saved file's lines as read (wire.read_json): number, value


class BadArenaFile(ValueError):
    """A file that is not a bench arena's saved run (its words say where and why)."""


def _bot(spec: Any) -> tuple[str, float | None]:
    level, budget = spec
    if level not in LEVELS or not (budget is None or isinstance(budget, int | float)):
        raise ValueError(f"unknown player {spec!r}")
    return level, budget


def read_run(path: str, lines: Lines) -> dict[str, Any]:
    """The figures of one saved run: its rules, seed, the bots' code and, per player of the
    line-up (`level:budget`), the seats (or teams) played, lost and drawn and the CPU time
    of its decisions with a real choice. BadArenaFile if the file is not such a run."""
    rules: dict[str, Any] | None = None
    seed = code = None
    packs: set[int] = set()
    bots: dict[str, dict[str, Any]] = {}
    cpu: dict[str, list[float]] = {}
    deals = drawn = 0
    for n, line in lines:
        try:
            parsed = Rules.from_dict(line["rules"])
            if rules is None:
                rules, seed, code = line["rules"], str(line["seed"]), str(line.get("code") or "")
            elif (line["rules"], str(line["seed"]), str(line.get("code") or "")) != (rules, seed, code):
                raise ValueError("other rules, seed or bots' code than the first line")
            if int(line["deck"]) in packs:
                continue  # a pack saved twice counts once
            packs.add(int(line["deck"]))
            for res in line["results"]:
                lineup = [bot_label(_bot(spec)) for spec in res["lineup"]]
                if len(lineup) != parsed.players:
                    raise ValueError("a line-up that does not fill the table")
                draw = bool(res["draw"])
                lost = res["losing_team"] if parsed.teams else res["loser"]
                sides = ({t: {lineup[s] for s in parsed.members(t)} for t in range(parsed.team_count)}
                         if parsed.teams else {s: {lineup[s]} for s in range(parsed.players)})
                for side, labels in sides.items():
                    for label in labels:  # a team of one level counts once for it
                        kept = bots.setdefault(label, {"played": 0, "lost": 0, "drawn": 0})
                        kept["played"] += 1
                        kept["lost"] += int(not draw and lost == side)
                        kept["drawn"] += int(draw)
                for s, times in enumerate(res.get("cpu_times", [])):
                    cpu.setdefault(lineup[s], []).extend(float(t) for t in times)
                deals += 1
                drawn += int(draw)
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise BadArenaFile(f"{path}, line {n}: not a saved arena run ({exc})") from None
    if rules is None:
        raise BadArenaFile(f"{path}: no saved deals")
    for label, kept in bots.items():
        times = cpu.get(label, [])
        kept.update(decisions=len(times), cpu_p95=percentile(times, 0.95) if times else None)
    return {"rules": rules, "seed": seed, "code": code, "packs": len(packs),
            "first_pack": min(packs), "deals": deals, "drawn": drawn, "bots": bots}


def load(files: Mapping[str, Lines]) -> list[ArenaRun]:
    """Keep each file's run for the ladder page, replacing a run of the same rules, seed,
    code and first pack loaded before (the same file, grown since: a run played in parts
    keeps each part). Every file is read before anything is kept: a bad one keeps none."""
    tables = [read_run(path, lines) for path, lines in files.items()]
    runs = []
    with transaction.atomic():
        for table in tables:
            key = {f"figures__table__{k}": table[k] for k in ("seed", "code")}
            for old in ArenaRun.objects.filter(**key):
                kept = old.figures["table"]  # one kept before parts were told apart: the same
                if kept["rules"] == table["rules"] and kept.get("first_pack", table["first_pack"]) == table["first_pack"]:
                    old.delete()
            runs.append(ArenaRun.objects.create(deals=table["deals"], seed=table["seed"][:64],
                                                seconds=0.0, figures={"table": table}))
    return runs
