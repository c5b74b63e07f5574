"""Russian agreement in the ru catalogue (docs/glossary.md, "Russian nouns and the words that
agree with them"): the glossary's nouns and genders, the short participles that must agree
with them, and what disagrees."""

from __future__ import annotations

import re
from pathlib import Path

GENDERS = {"m", "f", "n", "pl"}
# A short passive participle or short adjective: закончен, закончена, отменён, начато, открыты.
# ("-чат", "-нят": начат, снят; not the verbs кричат, стоят.)
PARTICIPLE = re.compile(r"^[а-яё]+(?:ан|ян|ен|ён|чат|нят|ыт)(?:а|о|ы)?$")
PREPOSITIONS = {"для", "в", "на", "с", "до", "по", "от"}
# The ending each gender takes.
ENDINGS = {"m": re.compile(r"[нт]$"), "f": re.compile(r"[нт]а$"), "n": re.compile(r"[нт]о$"),
           "pl": re.compile(r"[нт]ы$")}


def glossary_nouns(text: str) -> dict[str, tuple[str, list[str]]]:
    """noun -> (gender, the message contexts that name it), from the glossary's table."""
    section = text.split("## Russian nouns and the words that agree with them", 1)[1]
    nouns = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"[а-яё]+", cells[0]):
            contexts = [c.strip() for c in cells[3].split(";") if c.strip()]
            nouns[cells[0]] = (cells[2], contexts)
    return nouns


def read_glossary(root: Path) -> dict[str, tuple[str, list[str]]]:
    return glossary_nouns((root / "docs" / "glossary.md").read_text(encoding="utf-8"))


def lone_participle(msgstr: str) -> str | None:
    """The participle of a status or label with no noun ("закончена", "открыт для записи"),
    else None."""
    words = msgstr.strip().rstrip(".").split()
    if not words or len(words) > 3 or not PARTICIPLE.match(words[0]):
        return None
    if len(words) > 1 and words[1] not in PREPOSITIONS:
        return None
    return words[0]


def agrees(participle: str, gender: str) -> bool:
    return bool(ENDINGS[gender].search(participle))


def disagreements(entries, nouns) -> list[str]:
    """Every (msgctxt, msgid, msgstr) whose participle disagrees with its noun, or stands
    with no noun named by its context."""
    by_context = {ctx: (noun, gender) for noun, (gender, contexts) in nouns.items()
                  for ctx in contexts}
    found = []
    for ctx, msgid, msgstr in entries:
        lone = lone_participle(msgstr)
        if lone:
            if ctx not in by_context:
                found.append(f"no noun for {msgstr!r} ({msgid!r}, context {ctx!r})")
            elif not agrees(lone, by_context[ctx][1]):
                found.append(f"{msgstr!r} disagrees with {by_context[ctx][0]} ({ctx!r})")
            continue
        for noun, (gender, _contexts) in nouns.items():
            # The sentence's subject: "Игра окончена", "Эта игра уже закончена", "Турнир
            # %(tournament)s окончен" (not "Запись на этот турнир закрыта").
            pattern = re.compile(rf"(?:^|[.!?:;—]\s*)(?:[а-яё]+\s+)?{noun}(?:\s+\S+)?\s+"
                                 rf"([а-яё]+)(?![а-яё])", re.I)
            for match in pattern.finditer(msgstr):
                word = match.group(1).lower()
                if PARTICIPLE.match(word) and not agrees(word, gender):
                    found.append(f"{msgstr!r}: {word} disagrees with {noun}")
    return found
