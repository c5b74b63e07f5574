"""Names players see: refuse look-alikes, invisible characters and claims to be a bot or staff.

A name's *skeleton* follows Unicode TR39 (section 4): each character is replaced by the
prototype it can be confused with (Cyrillic "а" by Latin "a", "0" by "O", "m" by "rn"),
after NFKC and case folding. Two names with the same skeleton look alike, so a new name
whose skeleton equals another player's username or display name skeleton is refused.
The confusables table comes from `confusable-homoglyphs` (Unicode's confusables.txt).
"""

import hashlib
import re
import unicodedata

from confusable_homoglyphs import confusables
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.kept import memo

# A new username's most characters: longer ones widen pages and crowd the table. The column
# keeps Django's 150, so a longer name made before the limit keeps working.
USERNAME_MAX = 30

# Words that claim the name belongs to a computer player (games.models.Seat.name:
# "Computer 2 (expert)", "Компьютер 2 (эксперт)") or to the people who run the site.
RESERVED_PREFIXES = ("computer", "компьютер", "admin", "админ")  # of the name or a word
RESERVED_SUBSTRINGS = ("computer", "компьютер", "moderator", "модератор")
RESERVED_WORDS = ("bot", "bots", "бот", "боты", "staff", "mod", "mods", "sysop", "root",
                  "персонал", "durak", "дурак")
# Unicode categories refused anywhere in a name: control, format (RTL overrides,
# zero-width spaces and joiners), surrogates, private use, unassigned; line separators.
REFUSED_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


@memo("accounts.names.prototypes", maxsize=1, lasting=True)
def _prototypes() -> dict[str, str]:
    """Character -> the prototype it is confusable with (TR39), from the library's table."""
    table: dict[str, str] = {}
    data = confusables.confusables_data
    for char, entries in data.items():
        if len(char) != 1 or len(entries) != 1:
            continue  # a prototype lists everything that looks like it
        target = entries[0]["c"].replace("\u200e", "").replace("\u200f", "")
        back = data.get(target, [])
        if len(back) == 1 and back[0]["c"].strip("\u200e\u200f") == char:
            target = min(char, target)  # a pair that only map to each other: pick one
        table[char] = target
    return table


def skeleton(name: str) -> str:
    """The TR39-style skeleton: equal skeletons mean the names look alike."""
    prototypes = _prototypes()
    folded = unicodedata.normalize("NFKC", name).casefold()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", folded))
    result = unicodedata.normalize("NFD", mapped).casefold()
    return " ".join(result.split())


def skeleton_key(name: str) -> str:
    """What Player stores: a fixed-length digest of the skeleton, for equality look-ups
    (a skeleton can be many times longer than its name after NFKC and mapping)."""
    return hashlib.sha256(skeleton(name).encode()).hexdigest() if name else ""


def _claims_to_be_bot_or_staff(name: str) -> bool:
    shape = skeleton(name)
    compact = re.sub(r"[\W_]+", "", shape)
    words = [w for w in re.split(r"[\W_]+", shape) if w]
    words += [w.rstrip("0123456789") for w in words]  # "Bot2"
    prefixes = tuple(skeleton(p) for p in RESERVED_PREFIXES)
    if any(part.startswith(prefixes) for part in [compact, *words]):
        return True
    if any(skeleton(s) in compact for s in RESERVED_SUBSTRINGS):
        return True
    reserved = {skeleton(w) for w in RESERVED_WORDS}
    return any(w in reserved for w in words)


def validate_player_name(name: str, *, player=None) -> None:
    """Raise ValidationError, in a player's words, when `name` may not be used.

    `player` is the one choosing the name (None at sign-up): their own names don't count
    as someone else's.
    """
    Player = get_user_model()  # the model imports this module for skeletons

    if any(unicodedata.category(char) in REFUSED_CATEGORIES for char in name):
        raise ValidationError(
            _("Names can't contain invisible or control characters (such as zero-width "
              "spaces or text-direction marks). Please use letters, digits and spaces."),
            code="invisible",
        )
    if confusables.is_dangerous(name):
        raise ValidationError(
            _("This name mixes letters from different alphabets that look alike (for "
              "example a Cyrillic “а” among Latin letters). Please use one alphabet."),
            code="mixed_script",
        )
    if _claims_to_be_bot_or_staff(name):
        raise ValidationError(
            _("Names that look like a computer player's or the site team's (such as "
              "“Computer”, “Bot”, “admin”, “moderator” or “staff”) are kept for them. "
              "Please choose another name."),
            code="reserved",
        )
    shape = skeleton_key(name)
    if skeleton(name):
        others = Player.objects.filter(username_skeleton=shape) | Player.objects.filter(
            display_name_skeleton=shape)
        if player is not None and player.pk is not None:
            others = others.exclude(pk=player.pk)
        if others.exists():
            raise ValidationError(
                _("This name looks too much like another player's name. Please choose "
                  "one that can't be mistaken for theirs."),
                code="look_alike",
            )
