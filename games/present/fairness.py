"""What the "Check this deal" page says (docs/fairness.md): the engine's check of an export
(games.engine.verify) in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ..engine.replay import FORMAT
from ..engine.verify import Problem, Report, verify


def _words() -> dict[str, str]:
    return {
        "not_a_record": _("This is not a game's export: %(detail)s."),
        "no_seed": _("The export has no seed: the game is not over yet, or it was dealt "
                     "before seeds were kept."),
        "no_salt": _("The export has no salt: the game was dealt before deals were sealed."),
        "commitment": _("Deal %(deal)s: the seal %(found)s is not the SHA-256 of the seed "
                        "with the salt (%(expected)s)."),
        "dealer": _("Deal %(deal)s: the export names seat %(found)s as the dealer; the "
                    "rules give seat %(expected)s."),
        "opener": _("Deal %(deal)s: the export names seat %(found)s as the first attacker; "
                    "the rules give seat %(expected)s."),
        "deck_card": _("Deal %(deal)s: card %(position)s of the pack is %(found)s in the "
                       "export, but the seed's shuffle puts %(expected)s there."),
        "hand_card": _("Deal %(deal)s: the export says seat %(seat)s was dealt %(found)s; "
                       "the seed deals %(expected)s."),
        "turned": _("Deal %(deal)s: the export turns %(found)s for trump; the seed turns "
                    "%(expected)s."),
        "drawn_card": _("Deal %(deal)s, move %(move)s: the export has %(found)s drawn; the "
                        "seed gives %(expected)s."),
        "illegal_move": _("Deal %(deal)s, move %(move)s: %(found)s is not a legal move there."),
        "deal_unfinished": _("Deal %(deal)s starts before the deal before it is over."),
        "deals": _("The export has %(found)s deals; its moves make %(expected)s."),
        "losses": _("The export's deals lost (%(found)s) are not what its moves give "
                    "(%(expected)s)."),
    }


def problem_words(problem: Problem) -> str:
    """One problem of the check, for the reader."""
    return _words()[problem.code] % {k: v for k, v in problem.params.items()}


def looks_like_export(record: object) -> bool:
    """Whether parsed JSON is an export of this site's format at all (else: a 400)."""
    return isinstance(record, dict) and record.get("format") == FORMAT


def check_context(record: object) -> dict[str, Any]:
    """The check of a parsed export for templates/games/check_deal.html."""
    report: Report = verify(record)
    return {"report": report, "checked": True,
            "problems": [problem_words(p) for p in report.problems]}
