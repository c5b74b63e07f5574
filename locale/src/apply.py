"""Write the translations in locale/src/<lang>.py (one entry per msgid, in catalogue order)
into locale/<lang>/LC_MESSAGES/django.po with polib. Run after makemessages."""

import importlib
import re
import sys
from pathlib import Path

import polib

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
PLURAL_FORMS = {
    "fi": "nplurals=2; plural=(n != 1);",
    "nb": "nplurals=2; plural=(n != 1);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);",
}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")

for lang in sys.argv[1:] or ["fi", "nb", "ru"]:
    table = importlib.import_module(lang).T
    path = HERE.parent / lang / "LC_MESSAGES" / "django.po"
    po = polib.pofile(str(path))
    entries = [e for e in po if not e.obsolete]
    assert len(entries) == len(table), (lang, len(entries), len(table))
    po.metadata["Plural-Forms"] = PLURAL_FORMS[lang]
    nplurals = int(re.search(r"nplurals=(\d)", po.metadata["Plural-Forms"]).group(1))
    for entry, text in zip(entries, table):
        allowed = [set(PLACEHOLDER.findall(m)) for m in (entry.msgid, entry.msgid_plural) if m]
        if entry.msgid_plural:
            assert isinstance(text, tuple) and len(text) == nplurals, (lang, entry.msgid)
            entry.msgstr_plural = dict(enumerate(text))
            forms = text
        else:
            assert isinstance(text, str), (lang, entry.msgid)
            entry.msgstr = text
            forms = (text,)
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) in allowed, (lang, entry.msgid, form)
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
    po.metadata["Language"] = lang
    po.metadata["Content-Type"] = "text/plain; charset=UTF-8"
    po.save()
    print(lang, len(table), "entries")
