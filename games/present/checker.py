"""The deal checker to download (docs/fairness.md): the engine's own modules in a zip, so
that anyone with Python runs `python -m games.engine.verify` on an export without the
site. The engine needs nothing but the standard library (docs/design.md, the house)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from ..kept import memo

ENGINE = Path(__file__).resolve().parent.parent / "engine"
NAME = "durak-check.zip"
# Fixed times in the zip: the same engine gives the same bytes.
WHEN = (2026, 1, 1, 0, 0, 0)


@memo("present.checker.zip", maxsize=1, lasting=True)
def checker_zip() -> bytes:
    """`games/__init__.py` (empty), `games/kept.py` and `games/engine/*.py`, as `python -m` finds them on
    PYTHONPATH=durak-check.zip."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(_info("games/__init__.py"), "")
        kept = ENGINE.parent / "kept.py"  # the one cache helper the engine uses
        archive.writestr(_info("games/kept.py"), kept.read_text(encoding="utf-8"))
        for module in sorted(ENGINE.glob("*.py")):
            archive.writestr(_info(f"games/engine/{module.name}"), module.read_text(encoding="utf-8"))
    return out.getvalue()


def _info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, WHEN)
    info.compress_type = zipfile.ZIP_DEFLATED
    return info
