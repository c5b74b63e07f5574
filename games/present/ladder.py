"""What the ladder page and the leaderboards show of the computer players (docs/ladder.md):
each level's rating with its uncertainty, and the arena's figures from the runs kept."""

from __future__ import annotations

import json
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from ..bots import DEFAULT_BUDGETS, EXPERT_WIDE_BUDGET, LEVELS
from ..bots.arena import wilson
from ..engine import Rules
from ..models import BOT_LEVELS, ArenaRun, Rating
from ..services.ratings import bot_rating, shown

LABELS = dict(BOT_LEVELS)


def _percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def _share(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"k": k, "n": n, "rate": _percent(k / n) if n else "–", "low": _percent(low),
            "high": _percent(high)}


def board_rows(pool: str) -> list[dict[str, Any]]:
    """The levels as the leaderboard lists them: name, rating, games against people."""
    rows = []
    for level in LEVELS:
        row = bot_rating(level, pool)
        rows.append({"level": level, "name": LABELS[level], "rating": shown(row.mu, row.sigma),
                     "games": row.games, "arena_deals": row.arena_deals})
    return rows


def ladder() -> dict[str, Any]:
    """Every level with its ratings and the arena's figures summed over every run kept:
    deals, wins with their 95% interval, the CPU time of a decision; and each pair."""
    stored = list(ArenaRun.objects.all())  # newest first
    runs = [run for run in stored if "table" not in run.figures]  # the standing arena's
    played = {level: {"deals": 0, "won": 0, "lost": 0, "drawn": 0} for level in LEVELS}
    pairs: dict[tuple[str, str], dict[str, int]] = {}
    decided = dict.fromkeys(LEVELS, 0)  # decisions with a real choice, and their CPU time
    seconds = dict.fromkeys(LEVELS, 0.0)
    p95: dict[str, float] = {}  # the newest run's
    for run in runs:
        for pair in run.figures.get("pairs", []):
            a, b = pair["levels"]
            kept = pairs.setdefault((a, b), {"deals": 0, "a": 0, "b": 0, "drawn": 0})
            kept["deals"] += pair["deals"]
            kept["drawn"] += pair["drawn"]
            kept["a"] += pair["lost"][1]  # a won when b lost
            kept["b"] += pair["lost"][0]
            for level, won, lost in ((a, pair["lost"][1], pair["lost"][0]),
                                     (b, pair["lost"][0], pair["lost"][1])):
                played[level]["deals"] += pair["deals"]
                played[level]["won"] += won
                played[level]["lost"] += lost
                played[level]["drawn"] += pair["drawn"]
        for level, figures in run.figures.get("cpu", {}).items():
            if level in decided:
                decided[level] += figures["decisions"]
                seconds[level] += figures["seconds"]
                p95.setdefault(level, figures["p95"])
    levels = []
    for level in LEVELS:
        alone, teams = bot_rating(level, Rating.Pool.INDIVIDUAL), bot_rating(level, Rating.Pool.TEAMS)
        mine, decisions = played[level], decided[level]
        levels.append({
            "level": level, "name": LABELS[level],
            "rating": shown(alone.mu, alone.sigma), "games": alone.games,
            "team_rating": shown(teams.mu, teams.sigma), "team_games": teams.games,
            "arena_deals": mine["deals"], "won": _share(mine["won"], mine["deals"]),
            "lost": mine["lost"], "drawn": mine["drawn"], "decisions": decisions,
            "cpu_mean": f"{seconds[level] / decisions * 1000:.1f}" if decisions else "–",
            "cpu_p95": f"{p95[level] * 1000:.1f}" if level in p95 else "–",
        })
    return {
        "levels": levels,
        "pairs": [{"a": LABELS[a], "b": LABELS[b], "deals": p["deals"], "drawn": p["drawn"],
                   "a_won": _share(p["a"], p["deals"])} for (a, b), p in pairs.items()],
        "runs": len(runs), "deals": sum(run.deals for run in runs),
        "latest": runs[0] if runs else None,
        "budgets": sorted({run.budget for run in runs if run.budget is not None}),
        "own_budgets": any(run.budget is None for run in runs),
        "tables": table_rows([run for run in stored if "table" in run.figures]),
    }


def table_name(rules: Rules) -> str:
    """A kind of table as the new-game form would name it: "Perevodnoy, 3 players"."""
    rule_set = pgettext("rule set", "Perevodnoy") if rules.transfer else pgettext("rule set", "Classic")
    if rules.teams:
        return _("%(rules)s, teams %(teams)s") % {"rules": rule_set, "teams": rules.teams}
    return ngettext("%(rules)s, %(n)d player", "%(rules)s, %(n)d players", rules.players) % {
        "rules": rule_set, "n": rules.players}


def table_rows(runs: list[ArenaRun]) -> list[dict[str, Any]]:
    """The kept runs on each kind of table (services.arena_tables), those of the same rules
    and line-up together: the Expert's deals, losses with their interval beside a fair
    share, what it played against and for how long a move, its CPU time (the newest run's)."""
    merged: dict[str, dict[str, Any]] = {}
    for run in runs:  # newest first
        table = run.figures["table"]
        key = json.dumps([table["rules"], sorted(table["bots"])], sort_keys=True)
        if key not in merged:
            merged[key] = {"rules": table["rules"], "deals": 0,
                           "bots": {label: {"played": 0, "lost": 0, "cpu_p95": bot.get("cpu_p95")}
                                    for label, bot in table["bots"].items()}}
        kept = merged[key]
        kept["deals"] += table["deals"]
        for label, bot in table["bots"].items():
            kept["bots"][label]["played"] += bot["played"]
            kept["bots"][label]["lost"] += bot["lost"]
    rows = []
    for kept in merged.values():
        rules = Rules.from_dict(kept["rules"])
        bots = kept["bots"]
        expert = next((label for label in bots if label.split(":")[0] == "expert"), None)
        if expert is None:
            continue
        mine = bots[expert]
        rows.append({
            # the site's own budgets first, then shorter thinking times
            "order": (rules.players, bool(rules.teams), rules.transfer, -_budget(expert)[1]),
            "name": table_name(rules), "deals": kept["deals"],
            "lost": _share(mine["lost"], mine["played"]),
            "fair": _percent(1 / (rules.team_count if rules.teams else rules.players)),
            "against": ", ".join(_thinking(label) for label in sorted(bots) if label != expert),
            "thinking": _seconds(expert, rules),
            "cpu_p95": f"{mine['cpu_p95'] * 1000:.0f}" if mine["cpu_p95"] else "–",
        })
    return sorted(rows, key=lambda row: row["order"])


def _budget(label: str) -> tuple[str, float]:
    """A line-up's player (`expert:0.09`, `hard`): its level and seconds a move, the
    level's own when the label names none."""
    level, _sep, budget = label.partition(":")
    return level, float(budget) if budget else DEFAULT_BUDGETS.get(level, 0.0)


def _seconds(label: str, rules: Rules) -> str:
    """The Expert's thinking time a move: at three players or more, and in teams, it
    thinks longer than its budget says (bots.EXPERT_WIDE_BUDGET)."""
    _level, seconds = _budget(label)
    if rules.players != 2 or rules.teams:
        seconds *= EXPERT_WIDE_BUDGET / DEFAULT_BUDGETS["expert"]
    return _("%(seconds)s s") % {"seconds": _number(seconds)}


def _thinking(label: str) -> str:
    level, seconds = _budget(label)
    name = str(LABELS.get(level, level)).capitalize()
    if not seconds:
        return name
    return _("%(level)s (%(seconds)s s a move)") % {"level": name, "seconds": _number(seconds)}


def _number(seconds: float) -> str:
    """Seconds as a reader writes them: 1, 0.48, 0.02 (in their language: 0,48)."""
    seconds = round(seconds, 2)
    return formats.number_format(int(seconds) if seconds.is_integer() else seconds)
