"""The .mo files compiled from the catalogues as they are now, and read again by this
process (Django keeps a language's catalogue once read: one read before compiling would
be stale)."""

from django.core.management import call_command
from django.utils.translation import trans_real


def compile_catalogues(languages=("fi", "nb", "ru")) -> None:
    call_command("compilemessages", locale=list(languages), ignore_patterns=[".venv"],
                 verbosity=0)
    trans_real._translations = {}
    trans_real._default = None
    trans_real.translation_catalog_exists.cache_clear()
