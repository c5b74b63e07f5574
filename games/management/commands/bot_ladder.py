"""Run the bot arena and update the computer players' ladder (docs/ladder.md):

    nice -n 10 python manage.py bot_ladder --deals 20

Every pair of levels plays `--deals` two-player deals (each pack twice, seats swapped);
each deal rates the two levels, and the run's figures are kept for the ladder page
(/leaderboards/computer/). `--budget` caps the search levels' thinking time a move, in
seconds (by default each level thinks as long as at the table).

    python manage.py bot_ladder --load docs/arena/tables/*.jsonl

keeps runs the bench arena saved (`python -m bench.arena --save`) for the ladder page's
"Expert at other tables", without playing (services.arena_tables).
"""

from django.core.management.base import BaseCommand, CommandError

from games.bots import LEVELS
from games.bots.arena import wilson
from games.services import arena_tables, ladder
from games.services.ratings import bot_rating, shown
from games.wire import read_json


def _saved_lines(path):
    """A file saved by `bench.arena --save`: its numbered lines, each read by the one JSON
    reader (wire.read_json)."""
    try:
        with open(path, "rb") as f:
            raw = [(n, line) for n, line in enumerate(f, 1) if line.strip()]
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None
    lines = []
    for n, line in raw:
        try:
            lines.append((n, read_json(line, arena_tables.MAX_LINE_BYTES, arena_tables.MAX_LINE_DEPTH)))
        except ValueError as exc:
            raise CommandError(f"{path}, line {n}: not a saved arena run ({exc})") from None
    return lines


class Command(BaseCommand):
    help = "Play the computer levels against each other and update their ladder ratings."

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, default=20,
                            help="deals for each pair of levels (rounded up to even)")
        parser.add_argument("--levels", default=",".join(LEVELS),
                            help=f"levels to play, comma-separated (default {','.join(LEVELS)})")
        parser.add_argument("--budget", type=float, default=None,
                            help="seconds a move for the search levels (default: their own)")
        parser.add_argument("--seed", default=None, help="repeat a run (default: a random one)")
        parser.add_argument("--load", nargs="+", metavar="FILE", default=None,
                            help="play nothing: keep these runs saved by `python -m bench.arena --save`")

    def handle(self, *args, deals, levels, budget, seed, load=None, **options):
        if load:
            try:
                runs = arena_tables.load({path: _saved_lines(path) for path in load})
            except arena_tables.BadArenaFile as exc:
                raise CommandError(str(exc)) from None
            for path, run in zip(load, runs, strict=True):
                self.stdout.write(f"{path}: {run.deals} deals kept (arena run {run.pk})")
            return
        chosen = [level.strip() for level in levels.split(",") if level.strip()]
        if deals < 1 or deals > 10000:
            raise CommandError("--deals must be between 1 and 10000.")
        if budget is not None and not 0 <= budget <= 60:
            raise CommandError("--budget must be between 0 and 60 seconds.")
        done = [0]

        def progress(_deal):
            done[0] += 1
            if done[0] % 10 == 0:
                self.stderr.write(f"{done[0]} deals played")

        try:
            run = ladder.run_arena(deals=deals, levels=chosen, budget=budget, seed=seed,
                                   progress=progress)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"arena run {run.pk}: {run.deals} deals in {run.seconds:.0f} s, "
                          f"seed {run.seed}, budget {run.budget if run.budget is not None else 'own'}")
        for pair in run.figures["pairs"]:
            a, b = pair["levels"]
            won = pair["lost"][1]
            low, high = wilson(won, pair["deals"])
            self.stdout.write(f"  {a:>7} beat {b:<7} {won:>4} of {pair['deals']:<4} "
                              f"[{low:.0%}, {high:.0%}], {pair['drawn']} drawn")
        for level in chosen:
            rating = shown(*(lambda r: (r.mu, r.sigma))(bot_rating(level, "individual")))
            cpu = run.figures["cpu"].get(level)
            per = (f"{cpu['seconds'] / cpu['decisions'] * 1000:.1f} ms a decision "
                   f"(p95 {cpu['p95'] * 1000:.1f})" if cpu and cpu["decisions"] else "no decisions")
            self.stdout.write(f"  {level:>7}: rating {rating.value} ±{rating.spread}, {per}")
