"""Finds words meant for people that are not marked for translation.

Templates: text outside {% translate %} / {% blocktranslate %} (and outside template
variables, tags, comments, scripts and styles), and the attributes people read (title,
aria-label, alt, placeholder), must hold no word. Python: the strings a person reads
(messages, refusals, form and model labels, the choices' labels) must come from gettext.
A string handed to a template some other way is not seen here: the browser tier's
language check (tests/e2e/test_languages.py) reads whole pages for English words.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

# Words that read the same in every language: the game's name, formats, symbols.
ALLOWED_WORDS = {"Durak", "JSON", "SVG"}

BLOCKS = [  # removed whole: their text is translated or never shown
    re.compile(r"{%\s*blocktranslate\b.*?{%\s*endblocktranslate\s*%}", re.S),
    re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.S),
    re.compile(r"{#.*?#}", re.S),
    re.compile(r"<script\b.*?</script>", re.S | re.I),
    re.compile(r"<style\b.*?</style>", re.S | re.I),
]
TEMPLATE_CODE = re.compile(r"{%.*?%}|{{.*?}}", re.S)
PEOPLE_ATTRS = re.compile(r"""\b(title|aria-label|alt|placeholder)\s*=\s*(["'])(.*?)\2""", re.S)
TAG = re.compile(r"<[^>]*>", re.S)
ENTITY = re.compile(r"&#?\w+;")
WORD = re.compile(r"[^\W\d_]{2,}")


def template_words(text: str) -> list[str]:
    """The unmarked words of a template's source."""
    for block in BLOCKS:
        text = block.sub(" ", text)
    text = TEMPLATE_CODE.sub(" ", text)
    found = []
    for match in PEOPLE_ATTRS.finditer(text):
        found += WORD.findall(match.group(3))
    text = ENTITY.sub(" ", TAG.sub(" ", text))
    found += WORD.findall(text)
    return [w for w in found if w not in ALLOWED_WORDS]


GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext",
           "pgettext_lazy", "gettext_noop", "npgettext"}
# Calls whose first argument a person reads: refusals, messages, errors, responses.
SINKS = {"BadRequest", "Conflict", "Forbidden", "NotFound", "NotYourTurn", "IllegalMove",
         "GameError", "NoReplay", "ValidationError", "Http404", "PermissionDenied",
         "HttpResponse", "HttpResponseBadRequest", "HttpResponseForbidden", "send_mail"}
# Calls whose second argument a person reads: form.add_error(field, text),
# messages.success(request, text)…
SECOND = {"add_error", "debug", "info", "success", "warning", "error"}
PEOPLE_KEYWORDS = {"label", "help_text", "verbose_name", "verbose_name_plural",
                   "empty_label", "message", "subject"}
# A field's first argument is its label; a relation's is its model.
FIELD = re.compile(r"(?<!OneToOne)(?<!ManyToMany)Field$")


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _has_words(node: ast.expr) -> bool:
    """A bare string (or f-string) with a word in it, not from gettext."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool([w for w in WORD.findall(node.value) if w not in ALLOWED_WORDS])
    if isinstance(node, ast.JoinedStr):
        return any(_has_words(v) for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp):  # "..." % {...}: the string on the left
        return _has_words(node.left)
    return False


def python_strings(source: str) -> list[tuple[int, str]]:
    """(line, text) of strings meant for people that are not marked for translation."""
    found = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in GETTEXT:
                continue
            args = []
            if name in SINKS or FIELD.search(name):
                args += node.args[:1]
            elif name in SECOND and (name == "add_error" or _name(node.func.value) == "messages"):
                args += node.args[1:2]
            args += [k.value for k in node.keywords if k.arg in PEOPLE_KEYWORDS]
            found += [(a.lineno, ast.unparse(a)) for a in args if _has_words(a)]
        elif isinstance(node, ast.ClassDef) and any(
                _name(b).endswith("Choices") for b in node.bases):
            for item in node.body:  # NAME = value, _("label")
                if (isinstance(item, ast.Assign) and isinstance(item.value, ast.Tuple)
                        and _has_words(item.value.elts[-1])):
                    found.append((item.lineno, ast.unparse(item.value.elts[-1])))
    return found


def people_python_files(root: Path) -> list[Path]:
    """The site's modules (not the engine, whose English is for programmers, nor the bots,
    migrations or management commands)."""
    skip = ("engine", "bots", "migrations", "management")
    return sorted(p for app in ("accounts", "games", "durak_site") for p in (root / app).rglob("*.py")
                  if not any(part in skip for part in p.relative_to(root).parts))
