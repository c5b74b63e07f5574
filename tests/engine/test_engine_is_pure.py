"""The engine is a pure library: importing and playing it never loads Django."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_engine_never_imports_django():
    code = (
        "import sys\n"
        "from games.engine import Deal, Match, Rules\n"
        "from bench import engine\n"
        "m = Match(Rules(players=4, teams='2x2', transfer=True), deals=1, seed=3)\n"
        "d = m.deal\n"
        "import random\n"
        "rng = random.Random(3)\n"
        "while not d.is_over:\n"
        "    d.apply(d.to_act, rng.choice(d.legal_actions(d.to_act)))\n"
        "d.view(0); Deal.from_json(d.to_json())\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print('DJANGO' if bad else 'PURE', bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin"}, check=True)
    assert out.stdout.startswith("PURE"), out.stdout + out.stderr


def test_no_django_import_in_engine_source():
    for path in (ROOT / "games" / "engine").rglob("*.py"):
        for line in path.read_text().splitlines():
            stripped = line.strip()
            assert not stripped.startswith(("import django", "from django")), f"{path}: {line}"
