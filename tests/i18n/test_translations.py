"""The fi, nb and ru catalogues: complete, not fuzzy, placeholders kept, up to date; pages
in Russian with Russian plurals; the language switcher and the profile's language."""

import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.template import Context, Template
from django.utils import translation

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ["fi", "nb", "ru"]
PLURALS = {"fi": 2, "nb": 2, "ru": 3}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\{\s*\w+\s*\}\}")


def catalogue(lang):
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))


def problems(po, nplurals):
    """Every entry untranslated, fuzzy, short of plural forms, or with other placeholders."""
    found = []
    for entry in po:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            found.append(f"fuzzy: {entry.msgid!r}")
        if entry.msgid_plural:
            forms = [entry.msgstr_plural.get(i, "") for i in range(nplurals)]
            allowed = [set(PLACEHOLDER.findall(entry.msgid)),
                       set(PLACEHOLDER.findall(entry.msgid_plural))]
        else:
            forms = [entry.msgstr]
            allowed = [set(PLACEHOLDER.findall(entry.msgid))]
        for form in forms:
            if not form:
                found.append(f"untranslated: {entry.msgid!r}")
            elif set(PLACEHOLDER.findall(form)) not in allowed:
                found.append(f"placeholders differ: {entry.msgid!r} -> {form!r}")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_complete(lang):
    po = catalogue(lang)
    assert len(po) > 400
    assert f"nplurals={PLURALS[lang]};" in po.metadata["Plural-Forms"]
    assert problems(po, PLURALS[lang]) == []
    assert po.percent_translated() == 100


def test_russian_plural_rule():
    assert catalogue("ru").metadata["Plural-Forms"].replace("\n", "") == (
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
        "(n%100<10 || n%100>=20) ? 1 : 2);"
    )


def test_check_catches_missing_fuzzy_and_placeholders():
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Hello %(name)s", msgstr="Привет, %(nimi)s"))
    po.append(polib.POEntry(msgid="Lobby", msgstr=""))
    po.append(polib.POEntry(msgid="Take", msgstr="Взять", flags=["fuzzy"]))
    po.append(polib.POEntry(msgid="{{ n }} card", msgid_plural="{{ n }} cards",
                            msgstr_plural={0: "{{ n }} карта", 1: "{{ n }} карты"}))
    po.append(polib.POEntry(msgid="Fine %(n)s", msgstr="Хорошо %(n)s"))
    found = problems(po, 3)
    assert found == [
        "placeholders differ: 'Hello %(name)s' -> 'Привет, %(nimi)s'",
        "untranslated: 'Lobby'",
        "fuzzy: 'Take'",
        "untranslated: '{{ n }} card'",
    ]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_catalogues_up_to_date(tmp_path):
    """makemessages over a copy of the sources finds no msgid the committed catalogues lack."""
    for name in ("accounts", "games", "durak_site", "templates"):
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    (tmp_path / "locale").mkdir()
    subprocess.run(
        ["python", "manage.py", "makemessages", "-l", "ru", "--no-obsolete", "-v", "0"],
        cwd=tmp_path, check=True, env={"DEBUG": "true", "PATH": _path()},
    )
    fresh = polib.pofile(str(tmp_path / "locale" / "ru" / "LC_MESSAGES" / "django.po"))
    for lang in LANGUAGES:
        have = {(e.msgctxt, e.msgid) for e in catalogue(lang) if not e.obsolete}
        missing = [e.msgid for e in fresh if (e.msgctxt, e.msgid) not in have]
        assert missing == [], f"{lang}: run makemessages and translate {missing}"


def _path():
    import os
    import sys

    return os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    """The pages below need the .mo files; scripts/test compiles them, this makes sure."""
    if shutil.which("msgfmt"):
        call_command("compilemessages", locale=LANGUAGES, ignore_patterns=[".venv"], verbosity=0)


@pytest.mark.django_db
def test_lobby_in_russian(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    text = response.content.decode()
    assert response["Content-Language"] == "ru"
    assert "Открытые игры" in text and "Лобби" in text
    assert '<html lang="ru">' in text


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "heading"), [("fi", "Avoimet pelit"), ("nb", "Åpne spill")])
def test_lobby_in_finnish_and_norwegian(client, lang, heading):
    assert heading in client.get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def test_russian_card_counts():
    """The table's card count, as table.html words it."""
    template = Template(
        "{% load i18n %}{% blocktranslate count n=n %}{{ n }} card{% plural %}"
        "{{ n }} cards{% endblocktranslate %}"
    )
    with translation.override("ru"):
        words = {n: template.render(Context({"n": n})) for n in (1, 2, 5, 11, 21, 22)}
    assert words == {1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт",
                     21: "21 карта", 22: "22 карты"}


@pytest.mark.django_db
def test_switcher_on_every_page(client):
    text = client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in text
    for name in ("English", "suomi", "norsk (bokmål)", "Русский"):
        assert name in text


@pytest.mark.django_db
def test_switcher_sets_the_language(client):
    response = client.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fi"
    assert "Avoimet pelit" in client.get("/").content.decode()


@pytest.mark.django_db
def test_player_choice_saved_on_profile(alice_client, alice, client):
    alice_client.post("/i18n/setlang/", {"language": "nb", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "nb"
    # Another browser, asking for Russian: the profile's language wins once alice logs in.
    client.force_login(alice)
    assert "Åpne spill" in client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_norwegian_tells_a_deal_from_a_game():
    """docs/glossary.md: a deal is "giv", a game "spill"; no deal is called a game."""
    game_word = re.compile(r"\bspill(et|ene)?\b", re.I)
    mixed = [(e.msgid, e.msgstr or e.msgstr_plural) for e in catalogue("nb")
             if not e.obsolete and re.search(r"\bdeals?\b", e.msgid, re.I)
             and not re.search(r"\b(game|games|match)\b", e.msgid, re.I)
             and game_word.search(e.msgstr + " ".join(e.msgstr_plural.values()))]
    assert mixed == []
    with translation.override("nb"):
        template = Template("{% load i18n %}{% blocktranslate with n=1 total=1 %}Deal {{ n }} "
                            "of {{ total }}{% endblocktranslate %}")
        assert template.render(Context()) == "Giv 1 av 1"
