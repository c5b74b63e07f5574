"""English left in a fi, nb or ru page or mail: the English phrases the catalogues translate
(the site's own and Django's, whose widgets and errors the forms show), and the text of a
page a person reads (its words and the attributes read aloud or shown)."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import django
import polib
from django.conf import settings

from .unmarked import ALLOWED_WORDS

ROOT = Path(settings.BASE_DIR)
DJANGO = Path(django.__file__).parent
# Django's catalogues that the site's forms and mails draw on.
DJANGO_CATALOGUES = ["conf/locale", "contrib/auth/locale"]
PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\{.*?\}\}|\{[^}]*\}|<[^>]*>|\n|[:;()«»\"“”]")
WORD = re.compile(r"[A-Za-z]{2,}")


def _fragments(msgid: str) -> list[str]:
    """The English phrases of a msgid between its placeholders: two words or more, or one
    word of four letters or more."""
    found = []
    for piece in PLACEHOLDERS.split(msgid):
        piece = piece.strip(" .,!?—–-·…")
        words = WORD.findall(piece)
        if not words or not re.fullmatch(r"[A-Za-z' ,.!?’/-]+", piece):
            continue
        if len(words) >= 2 or (len(words[0]) >= 4 and words[0] not in ALLOWED_WORDS):
            found.append(piece)
    return found


@cache
def english_phrases(lang: str) -> tuple[str, ...]:
    """Phrases of the English msgids that `lang` puts in other words, and every phrase of
    Django's own msgids, which must not reach a player untranslated either."""
    phrases: set[str] = set()
    po = polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))
    for entry in po:
        if entry.obsolete:
            continue
        texts = [entry.msgstr] + list(entry.msgstr_plural.values())
        for msgid in filter(None, [entry.msgid, entry.msgid_plural]):
            phrases.update(f for f in _fragments(msgid) if not any(f in t for t in texts))
    for folder in DJANGO_CATALOGUES:
        theirs = polib.pofile(str(DJANGO / folder / "en" / "LC_MESSAGES" / "django.po"))
        local = DJANGO / folder / lang / "LC_MESSAGES" / "django.po"
        translated = {(e.msgctxt, e.msgid): e.msgstr for e in polib.pofile(str(local))}
        for entry in theirs:
            mine = translated.get((entry.msgctxt, entry.msgid), "")
            phrases.update(f for f in _fragments(entry.msgid) if f not in mine)
    return tuple(sorted(phrases, key=len, reverse=True))


HIDDEN = [re.compile(r"<script\b.*?</script>", re.S | re.I),
          re.compile(r"<style\b.*?</style>", re.S | re.I),
          re.compile(r"<!--.*?-->", re.S)]
READ_ATTRS = re.compile(
    r"""\b(title|aria-label|alt|placeholder|label|data-on|data-off|data-denied|data-failed)\s*=\s*(["'])(.*?)\2""",
    re.S)
ZONE = re.compile(r"\b[A-Z][A-Za-z_]+/[A-Za-z_/+-]+")  # "Europe/Moscow": an IANA name
URL = re.compile(r"https?://\S+")


def readable(page: str) -> str:
    """What a person reads of an HTML page or a mail: its text and the attributes shown or
    read aloud, less zone names, addresses and each language's own name."""
    for block in HIDDEN:
        page = block.sub(" ", page)
    attrs = " | ".join(m.group(3) for m in READ_ATTRS.finditer(page))
    text = re.sub(r"<[^>]*>", " | ", page) + " | " + attrs
    text = html.unescape(text)
    text = URL.sub(" ", ZONE.sub(" ", text))
    for _code, name in settings.LANGUAGES:
        text = text.replace(name, " ")
    return text


def _tokens(text: str) -> str:
    """Words and marks, one space apart: a phrase is found at word boundaries by `in`."""
    return " " + " ".join(re.findall(r"\w+|[^\w\s]", text)) + " "


def english_in(text: str, lang: str) -> list[str]:
    """The English phrases found in `text` (a page or a mail in `lang`)."""
    words = _tokens(readable(text))
    return [phrase for phrase in english_phrases(lang) if _tokens(phrase) in words]
