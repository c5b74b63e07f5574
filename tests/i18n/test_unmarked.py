"""Every word a person reads is marked for translation: templates and the site's Python
(tests/i18n/unmarked.py says what counts). The samples show that the checks can fail."""

from pathlib import Path

import pytest

from .unmarked import people_python_files, python_strings, template_words

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(p for p in (ROOT / "templates").rglob("*") if p.suffix in (".html", ".txt"))
MODULES = people_python_files(ROOT)


def test_it_reads_the_templates_and_modules():
    names = {p.name for p in TEMPLATES} | {p.name for p in MODULES}
    assert {"lobby.html", "table.html", "public_profile.html", "replay.html",
            "views.py", "forms.py", "models.py", "lobby.py"} <= names


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_shows_an_unmarked_word(path):
    assert template_words(path.read_text()) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_gives_people_an_unmarked_string(path):
    assert python_strings(path.read_text()) == []


def test_an_unmarked_word_in_a_real_template_is_caught():
    lobby = (ROOT / "templates/games/lobby.html").read_text()
    assert template_words(lobby) == []
    spoiled = lobby.replace("<h1>", "<h1>Welcome back ", 1)
    assert template_words(spoiled) == ["Welcome", "back"]


@pytest.mark.parametrize("sample, words", [
    ("<p>Hello {{ name }}</p>", ["Hello"]),
    ('<a href="/" title="Open the table">{% translate "Open" %}</a>', ["Open", "the", "table"]),
    ('<span aria-label="Ten of hearts">10</span>', ["Ten", "of", "hearts"]),
    ("{% if x %}Deal over{% endif %}", ["Deal", "over"]),
    # marked, or not for people: nothing
    ('{% translate "Lobby" %} {% blocktranslate %}Deal {{ n }}{% endblocktranslate %}', []),
    ("{# a comment #}{% comment %}Notes{% endcomment %}<script>let done;</script>", []),
    ('<input name="move" value="{{ n }}"> 12 · — ← →', []),
])
def test_template_samples(sample, words):
    assert template_words(sample) == words


@pytest.mark.parametrize("sample, caught", [
    ('raise BadRequest("That is not a move.")', True),
    ('raise BadRequest(_("That is not a move."))', False),
    ('raise Conflict(f"Seat {n} is taken")', True),
    ('raise NotFound("No such game %s" % pk)', True),
    ('form.add_error("players", "Too many players")', True),
    ('form.add_error("players", _("Too many players"))', False),
    ('messages.success(request, "Saved.")', True),
    ('log.error("bot move %s refused", token)', False),  # a log line, for programmers
    ('name = models.CharField("name", max_length=9)', True),
    ('name = models.CharField(_("name"), max_length=9)', False),
    ('rated = forms.BooleanField(label="Rated", help_text=_("Moves ratings."))', True),
    ('class Kind(models.TextChoices):\n    MOVE = "move", "a move"', True),
    ('class Kind(models.TextChoices):\n    MOVE = "move", _("a move")', False),
])
def test_python_samples(sample, caught):
    assert bool(python_strings(sample)) == caught
