"""The admin of the games: rule presets (checked by the engine's Rules; duplicate,
deactivate, activate), games, read-only (abort is the one change, through services), and
tournaments (make one; start early, withdraw a player, cancel: through services, each
logged in the admin's history).
A game's saved state, which holds every hidden card, is shown only once it is over."""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.db.models.constants import LOOKUP_SEP
from django.utils import translation
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from modeltranslation.admin import TranslationAdmin

from . import services
from .models import ArenaRun, BotRating, Entry, Game, RulePreset, Seat, Tournament
from .services import offers

TRANSLATED = ("name", "description")  # games/translation.py
OTHER_LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def each(model_admin, request, rows, change, done_words, *, label=str, log=None):
    """An admin action over the selected rows through a service: a refused row is told with
    the service's words and skipped; each done row is logged (`log`); then how many."""
    done = 0
    for row in rows:
        try:
            change(row)
        except services.GameError as exc:
            model_admin.message_user(request, f"{label(row)}: {exc.message}", messages.WARNING)
            continue
        if log is not None:
            log(row)
        done += 1
    model_admin.message_user(request, done_words(done))


class RulePresetForm(forms.ModelForm):
    """What each rule option does, in an admin's words. A name or description left empty in
    fi, nb or ru reads as the English one: the empty box shows that English as its placeholder."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in TRANSLATED:
            english = getattr(self.instance, f"{field}_en", None) or ""
            for lang in OTHER_LANGUAGES:
                box = self.fields.get(f"{field}_{lang}")
                if box is None:
                    continue
                box.help_text = _("Left empty, players reading this language see the English.")
                if english:
                    box.widget.attrs["placeholder"] = english

    class Meta:
        model = RulePreset
        # The admin's fieldsets choose the fields: a `fields` here would make TranslationAdmin
        # set its own `fields` beside them (admin.E005).
        exclude = ()  # noqa: DJ006
        help_texts = {
            "attack_limit": _("The most cards a bout may hold (at most the defender's "
                              "cards at the start of the bout)."),
            "first_bout_limit": _("The same limit for the deal's first bout."),
            "lead_multiple": _("If ticked, a leader may lead several cards of one rank at "
                               "once; if not, a bout is led with one card."),
            "throw_in": _("Which players besides the leader may add cards to a bout."),
            "next_deal_start": _("Who leads the first bout of the next deal."),
            "move_time": _("Days and hours, as “1 00:00:00” (one day) or “0:05:00” "
                           "(five minutes)."),
            "bank_time": _("Days and hours, as “1 00:00:00” (one day) or “0:05:00” "
                           "(five minutes)."),
            "increment": _("Days and hours, as “0:00:30” (thirty seconds)."),
        }


@admin.register(RulePreset)
class RulePresetAdmin(TranslationAdmin):
    """Presets are validated through the engine's Rules (RulePreset.clean). The name and
    description have a box per language (TranslationAdmin); English is required."""

    form = RulePresetForm

    list_display = ("name", "active", "min_players", "max_players", "teams", "deck_size",
                    "hand_size", "transfer", "throw_in", "trump_exchange", "position")
    list_editable = ("position",)
    list_filter = ("active", "teams", "deck_size", "hand_size", "attack_limit",
                   "first_bout_limit", "lead_multiple", "throw_in", "transfer",
                   "trump_exchange", "next_deal_start", "timeout_policy")
    search_fields = [f"{field}_{code}" for field in TRANSLATED
                     for code, _name in settings.LANGUAGES]
    actions = ("duplicate", "deactivate", "activate")
    fieldsets = (
        (None, {"fields": ("name", "description", "active", "position")}),
        (_("Players"), {"fields": ("min_players", "max_players", "teams")}),
        (_("Rule options"), {"fields": (
            "deck_size", "hand_size", "attack_limit", "first_bout_limit", "lead_multiple",
            "throw_in", "transfer", "trump_exchange", "next_deal_start")}),
        (_("Clock"), {"fields": ("time_control", "move_time", "bank_time", "increment")}),
        (_("Timeouts"), {"fields": ("timeout_policy", "timeouts_allowed")}),
    )

    @admin.action(description=_("Duplicate the selected presets"))
    def duplicate(self, request, queryset):
        made = 0
        for preset in queryset:
            # Each language's name gets its own "(copy)", numbered alike until none is taken.
            names = {}
            for code, _name in settings.LANGUAGES:
                if name := getattr(preset, f"name_{code}"):
                    with translation.override(code):
                        names[code] = _("%(name)s (copy)") % {"name": name}
            n, suffix = 1, ""
            while any(RulePreset.objects.filter(**{f"name_{code}": name + suffix}).exists()
                      for code, name in names.items()):
                n += 1
                suffix = f" {n}"
            preset.pk = None
            for code, name in names.items():
                setattr(preset, f"name_{code}", name + suffix)
            preset.active = False  # a copy is offered once an admin has edited it
            try:
                with transaction.atomic():
                    preset.save()
                made += 1
            except IntegrityError:
                continue
        self.message_user(request, ngettext(
            "%(n)d preset duplicated (not offered until you activate it).",
            "%(n)d presets duplicated (not offered until you activate them).", made) % {"n": made})

    @admin.action(description=_("Stop offering the selected presets"))
    def deactivate(self, request, queryset):
        n = queryset.update(active=False)
        self.message_user(request, ngettext("%(n)d preset deactivated.",
                                            "%(n)d presets deactivated.", n) % {"n": n})

    @admin.action(description=_("Offer the selected presets"))
    def activate(self, request, queryset):
        made = 0
        for preset in queryset:
            try:
                preset.full_clean()
            except Exception as exc:  # ValidationError: the engine refuses the combination
                self.message_user(request, f"{preset.name}: {exc}", messages.ERROR)
                continue
            preset.active = True
            preset.save(update_fields=["active"])
            made += 1
        self.message_user(request, ngettext("%(n)d preset offered.", "%(n)d presets offered.",
                                            made) % {"n": made})


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("number", "player", "bot_level", "team", "timeouts", "timeouts_total")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")  # no query a row

    def has_add_permission(self, request, obj=None):
        return False


ADMIN_MOVES = 50  # a game's page shows its latest moves, not all of a long game's


SEARCH_PLAYERS = 20  # players a search word may name and be asked by id


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games change only through games.services: here they are read and aborted."""

    list_display = ("id", "preset", "status", "players_list", "version", "deadline",
                    "created_at")
    list_filter = ("status", "preset", "private")
    search_fields = ("seats__player__username", "seats__player__display_name")
    show_full_result_count = False  # a filtered list counts its own rows only
    list_per_page = 50
    # Newest first by id, the primary key's index: an index on the creation time would
    # lead SQLite's planner to scan every game for the default order (docs/design.md,
    # "A year of data").
    ordering = ("-pk",)
    actions = ("abort",)
    inlines = (SeatInline,)
    readonly_fields = [*(f.name for f in Game._meta.fields), "latest_moves"]
    # The saved match holds the seed, every hand and the talon: shown once the game is
    # over, never while a staff member may be playing it or watching it.
    HIDDEN_IN_PLAY = ("state",)

    def get_fields(self, request, obj=None):
        if obj is not None and obj.is_over:
            return list(self.readonly_fields)
        return [f for f in self.readonly_fields if f not in self.HIDDEN_IN_PLAY]

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def lookup_allowed(self, lookup, value, request=None):
        # ?state__contains=<card> would tell which cards a game in play hides (400).
        if lookup.split(LOOKUP_SEP, 1)[0] in self.HIDDEN_IN_PLAY:
            return False
        return super().lookup_allowed(lookup, value, request)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("preset").prefetch_related(
            "seats__player")

    def get_search_results(self, request, queryset, search_term):
        """Games with a player of that name: each word in some seat's username or display
        name, asked as EXISTS (no DISTINCT over the games' rows). The players a word
        names are found first: given their ids, PostgreSQL knows how many seats they
        hold and walks the newest games instead of sorting all of a busy player's."""
        for word in search_term.split()[:5]:
            named = Q(username__icontains=word) | Q(display_name__icontains=word)
            ids = list(get_user_model().objects.filter(named).values_list("pk", flat=True)
                       [:SEARCH_PLAYERS + 1])
            seats = Seat.objects.filter(game=OuterRef("pk")).filter(
                Q(player_id__in=ids) if len(ids) <= SEARCH_PLAYERS else
                Q(player__username__icontains=word) | Q(player__display_name__icontains=word))
            queryset = queryset.filter(Exists(seats))
        return queryset, False

    @admin.display(description=_("moves"))
    def latest_moves(self, game):
        moves = game.moves.select_related("player").order_by("-seq")[:ADMIN_MOVES]
        return format_html_join("\n", "<div>{} · {} · {} · {} · {} · {}</div>", (
            (m.seq, m.get_kind_display(), "" if m.seat is None else m.seat, m.player or "",
             " ".join(str(a) for a in m.actions), m.at) for m in moves))

    @admin.display(description=_("players"))
    def players_list(self, game):
        return ", ".join(str(seat.name) for seat in game.seats.all())

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Abort the selected games"))
    def abort(self, request, queryset):
        each(self, request, queryset, lambda g: services.abort_game(g.pk, request.user),
             lambda n: ngettext("%(n)d game aborted.", "%(n)d games aborted.", n) % {"n": n},
             label=lambda g: f"#{g.pk}")


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ("name", "preset", "kind", "table_size", "rounds", "deals", "time_control",
                  "move_time", "bank_time", "increment", "round_time", "starts_at",
                  "join_until", "rated", "bots_fill", "min_rating", "established_only",
                  "max_players", "private")

    def clean(self):
        data = super().clean()
        assert data is not None  # ModelForm.clean returns cleaned_data
        preset, size = data.get("preset"), data.get("table_size")
        if preset is not None and size is not None and size not in offers.table_sizes(preset):
            self.add_error("table_size", offers.played_by(preset))
        if data.get("bots_fill") and data.get("rated"):
            self.add_error("bots_fill", _("Computer players may fill tables only in a casual "
                                          "tournament."))
        if data.get("time_control") == "bank" and not (data.get("bank_time")
                                                       and data.get("increment") is not None):
            self.add_error("bank_time", _("A time bank needs its time and the time added "
                                          "per move."))
        if data.get("move_time") and data.get("round_time"):  # as services.create_tournament
            data["move_time"] = offers.move_time_in_round(data["move_time"], data["round_time"])
        return data


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("player", "seed", "joined_at", "withdrawn_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")  # no query a row

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Made here or by players (private ones); it changes through
    games.services.tournament once it is open: start early, cancel, withdraw a player."""

    form = TournamentForm
    list_display = ("name", "preset", "kind", "table_size", "status", "current_round",
                    "starts_at", "private", "created_by")
    list_filter = ("status", "kind", "private")
    search_fields = ("name", "entries__player__username")
    actions = ("start_early", "cancel")
    inlines = (EntryInline,)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and not obj.is_open:  # rounds are paired: the settings stay
            return [*TournamentForm.Meta.fields, "status", "current_round"]
        return ("status", "current_round")

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Start the selected tournaments now"))
    def start_early(self, request, queryset):
        each(self, request, queryset,
                   lambda t: services.tournament.start_tournament(t.pk, request.user),
                   lambda n: ngettext("%(n)d tournament started.",
                                      "%(n)d tournaments started.", n) % {"n": n},
                   log=lambda t: self.log_change(request, t, "Started early."))

    @admin.action(description=_("Cancel the selected tournaments"))
    def cancel(self, request, queryset):
        each(self, request, queryset,
                   lambda t: services.tournament.cancel_tournament(t.pk, request.user),
                   lambda n: ngettext("%(n)d tournament cancelled.",
                                      "%(n)d tournaments cancelled.", n) % {"n": n},
                   log=lambda t: self.log_change(request, t, "Cancelled."))


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    """Who entered which tournament; withdraw players through games.services.tournament."""

    list_display = ("tournament", "player", "seed", "joined_at", "withdrawn_at")
    list_per_page = 50
    # The page's players in one query after the page is chosen: joined to every entry,
    # PostgreSQL hashed all the players before it sorted (docs/design.md, "A year of data").
    list_select_related = ("tournament",)
    list_filter = ("tournament",)
    search_fields = ("player__username", "tournament__name")
    readonly_fields = ("tournament", "player", "seed", "joined_at", "withdrawn_at")
    actions = ("withdraw",)

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("player")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Withdraw the selected players"))
    def withdraw(self, request, queryset):
        each(self, request, queryset.select_related("tournament", "player"),
             lambda e: services.tournament.withdraw_player(e.tournament_id, e.player,
                                                           request.user),
             lambda n: ngettext("%(n)d player withdrawn.",
                                "%(n)d players withdrawn.", n) % {"n": n},
             label=lambda e: str(e.player),
             log=lambda e: self.log_change(request, e.tournament,
                                           f"Withdrew {e.player.username}."))


class MeasuredOnly(admin.ModelAdmin):
    """Figures the arena and the games measure (docs/ladder.md): looked at, never typed in."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(BotRating)
class BotRatingAdmin(MeasuredOnly):
    list_display = ("level", "pool", "mu", "sigma", "games", "arena_deals")
    list_filter = ("pool", "level")


@admin.register(ArenaRun)
class ArenaRunAdmin(MeasuredOnly):
    """A run may be deleted (a trial run's figures); `manage.py bot_ladder` makes them."""

    list_display = ("at", "deals", "budget", "seed", "seconds")
    date_hierarchy = "at"
