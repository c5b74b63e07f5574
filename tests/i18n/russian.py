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


# A clause's subject: "Игра окончена", "Турнир %(tournament)s окончен", "Эта игра уже
# закончена", "ваши часы остановлены" (not "Запись на этот турнир закрыта", nor the counted
# "партий сыграно").
DETERMINERS = {"этот", "эта", "это", "эти", "ваш", "ваша", "ваше", "ваши", "новый", "новая",
               "новое", "новые", "прошлый", "прошлая", "прошлое", "прошлые"}
NOT_NOUNS = {"вы", "не", "если", "ничего", "никто", "это", "без", "после", "для", "до", "от",
             "по", "с", "в", "на", "за", "при", "о"}
ADJECTIVE = re.compile(r"(?:ый|ий|ой|ая|яя|ое|ее|ые|ие)$")
_CLAUSE = r"(?:^|[.!?:;—]\s*)"
_REST = r"(?P<noun>[а-яё]+)(?:\s+%\(\w+\)s|\s+уже|\s+ещё)?\s+(?P<part>[а-яё]+)(?![а-яё])"
WITH_DETERMINER = re.compile(_CLAUSE + r"(?P<det>[а-яё]+)\s+" + _REST, re.I)
CAPITALIZED = re.compile(_CLAUSE + r"(?=(?-i:[А-ЯЁ]))" + _REST, re.I)


def subjects(msgstr: str) -> list[tuple[str, str]]:
    """(noun, participle) of each clause whose subject a short participle follows."""
    found = []
    for match in [*WITH_DETERMINER.finditer(msgstr), *CAPITALIZED.finditer(msgstr)]:
        groups = match.groupdict()
        noun, part = match.group("noun").lower(), match.group("part").lower()
        if groups.get("det") is not None and groups["det"].lower() not in DETERMINERS:
            continue
        if PARTICIPLE.match(part) and noun not in NOT_NOUNS and not ADJECTIVE.search(noun):
            found.append((noun, part))
    return sorted(set(found))


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
        for noun, participle in subjects(msgstr):
            if noun not in nouns:
                found.append(f"no glossary entry for {noun} ({msgstr!r})")
            elif not agrees(participle, nouns[noun][0]):
                found.append(f"{msgstr!r}: {participle} disagrees with {noun}")
    return found
