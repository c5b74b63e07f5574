"""The lobby's forms: make a table (rule preset, players, computer players, deals or a loss
limit, the clock), filter the open tables, quick match and challenge. They check what a
person typed; the services make the table."""

from datetime import timedelta

from django import forms
from django.core.validators import RegexValidator
from django.forms.renderers import Jinja2
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.html import escape
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import once
from .models import BOT_LEVELS, RulePreset, TimeControl, Tournament
from .services import offers
from .services.challenge import find_player
from .services.errors import NotFound
from .services.lobby import too_many_bots
from .services.reliability import MIN_RELIABILITY_CHOICES

# "at least 90% without a timeout", in the reader's language when the form is shown.
_at_least = lazy(lambda n: gettext("at least %(n)s%% without a timeout") % {"n": n}, str)

HOUR, DAY = 3600, 86400
DURATIONS = {  # seconds: label
    0: _("nothing"), 60: _("1 minute"), 120: _("2 minutes"), 300: _("5 minutes"),
    900: _("15 minutes"), HOUR: _("1 hour"), 12 * HOUR: _("12 hours"), DAY: _("1 day"),
    3 * DAY: _("3 days"), 7 * DAY: _("7 days"), 14 * DAY: _("14 days"), 30 * DAY: _("30 days"),
}

# Fields drawn by Django's own Jinja2 form templates: a select of hundreds of options (the
# time zones) renders several times faster than through Django's template engine
# (docs/design.md, "A year of data"). The admin keeps Django's renderer (its widgets
# have no Jinja2 templates).
QUICK_FORMS = Jinja2()


class FittedSelect(forms.Select):
    """A choice list whose options the other choices rule out are disabled (`ruled_out`);
    static/js/fit.js keeps that up as they change in the page."""

    ruled_out: frozenset = frozenset()

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if str(value) in self.ruled_out:
            option["attrs"]["disabled"] = True
        return option


class FollowingRadioSelect(forms.RadioSelect):
    """Radio buttons whose choice follows a check box until the person picks one
    (static/js/fit.js): `when` maps a choice's value to "on" or "off", the box's state
    that chooses it."""

    def __init__(self, *args, follows: str, when: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.follows, self.when = follows, when

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if str(value) in self.when:
            option["attrs"].update({"data-follows": self.follows, "data-when": self.when[str(value)]})
        return option


RATINGS = [("rated", _("rated")), ("casual", _("casual"))]
CASUAL_HELP = _("A casual game does not change anyone's rating, and the coach may give hints in it.")


def _rating(**options) -> forms.TypedChoiceField:
    """Rated or casual, as radio buttons; `empty_value`: what no choice means (Django takes
    any value there)."""
    options.setdefault("widget", forms.RadioSelect)
    return forms.TypedChoiceField(label=_("Rating"), choices=RATINGS,
                                  coerce=lambda value: value == "rated", required=False,
                                  **options)


def _durations(*seconds: int) -> list:
    return [(n, DURATIONS[n]) for n in seconds]


# All within the models' MIN_MOVE_TIME, MAX_MOVE_TIME and MAX_BANK_TIME.
MOVE_TIMES = _durations(60, 120, 300, 900, HOUR, 12 * HOUR, DAY, 3 * DAY, 7 * DAY, 14 * DAY)
BANK_TIMES = _durations(HOUR, 12 * HOUR, DAY, 3 * DAY, 7 * DAY, 14 * DAY, 30 * DAY)
INCREMENTS = _durations(0, 60, 300, HOUR, 12 * HOUR, DAY, 3 * DAY)
AS_THE_RULES = ("", _("as the rules suggest"))
PLAYER_COUNTS = [(n, str(n)) for n in range(2, 7)]


class CreateGameForm(forms.Form):
    default_renderer = QUICK_FORMS
    preset = forms.ModelChoiceField(
        label=_("Rules"), queryset=RulePreset.objects.filter(active=True), empty_label=None)
    players = forms.TypedChoiceField(label=_("Players"), choices=PLAYER_COUNTS, coerce=int,
                                     initial=2)
    bots = forms.TypedChoiceField(
        label=_("Computer players"), choices=[(n, str(n)) for n in range(0, 6)], coerce=int,
        initial=1, help_text=_("Bots take the last seats; empty seats get bots when you start."),
        # static/js/fit.js: at most one fewer than the players
        widget=FittedSelect(attrs={"data-most-by": "players", "data-most-less": "1"}))
    bot_level = forms.ChoiceField(label=_("Computer level"), choices=BOT_LEVELS, initial="medium")
    match_kind = forms.ChoiceField(
        label=_("Play"), choices=[("deals", _("a number of deals")),
                                  ("losses", _("until someone loses this many deals"))],
        initial="deals", widget=forms.RadioSelect)
    count = forms.IntegerField(label=_("How many"), min_value=1, max_value=99, initial=1)
    time_control = forms.ChoiceField(
        label=_("Clock"), choices=[AS_THE_RULES, *TimeControl.choices], required=False,
        help_text=_("A time per move, or a time bank for the whole game that each move "
                    "refills a little."))
    move_time = forms.TypedChoiceField(label=_("Time per move"), choices=[AS_THE_RULES, *MOVE_TIMES],
                                       coerce=int, required=False, empty_value=None)
    bank_time = forms.TypedChoiceField(label=_("Time bank"), choices=[AS_THE_RULES, *BANK_TIMES],
                                       coerce=int, required=False, empty_value=None)
    increment = forms.TypedChoiceField(label=_("Added per move"), choices=[AS_THE_RULES, *INCREMENTS],
                                       coerce=int, required=False, empty_value=None)
    private = forms.BooleanField(
        label=_("Private"), required=False,
        help_text=_("Not listed in the lobby; players join with the invite link."))
    # Unchosen (a page without scripts), the service decides: a table in the lobby is
    # rated, a private one casual; with scripts the choice follows the Private box.
    rated = _rating(
        empty_value=None, widget=FollowingRadioSelect(
            follows="private", when={"rated": "off", "casual": "on"}),
        help_text=_("A casual game does not change anyone's rating, and the coach may give "
                    "hints in it. A private table is casual unless you choose rated: rated "
                    "tables need registered players, so a guest with the link can't sit "
                    "at one."))
    min_reliability = forms.TypedChoiceField(
        label=_("Players who finish their games"), coerce=int, required=False,
        empty_value=None, choices=[("", _("anyone"))] + [
            (n, _at_least(n)) for n in MIN_RELIABILITY_CHOICES],
        help_text=_("Reliability: the share of a player's games in the last 90 days finished "
                    "without a timeout, shown on their profile."))
    # A new token each time the form is shown: a second send of it makes no second table.
    once = forms.CharField(
        widget=forms.HiddenInput, required=False, initial=once.new_token, max_length=64,
        validators=[RegexValidator(r"^[A-Za-z0-9_-]*$", _("This form is damaged: reload the page."))])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _offer_playable(self)
        self.fit_to(chosen_preset(self))
        # Choosing other rules asks for the form again, fitted to them (lobby.create's GET);
        # the players rule out computer players in the page (static/js/fit.js).
        _refit_on_change(self, reverse("create_game"), "#create-game", "preset")

    def fit_to(self, preset: RulePreset | None) -> None:
        """Offer only the numbers of players the preset is played by, and the numbers of
        computer players that leave the maker a seat (services.offers); say which teams it
        plays in. A number sent from elsewhere is still refused, in clean and the services."""
        if preset is None:
            return
        counts = offers.player_counts(preset)
        players = self.fields["players"]
        players.widget.choices = [(n, str(n)) for n in counts]
        chosen = _chosen(self, "players")
        if chosen not in counts:
            chosen = counts[0] if counts else preset.min_players
            if not self.is_bound:
                self.initial = {**self.initial, "players": chosen}
        bots = offers.bot_counts(chosen)
        widget = self.fields["bots"].widget
        assert isinstance(widget, FittedSelect)
        widget.choices = [(n, str(n)) for n in offers.bot_counts(max(counts, default=chosen))]
        widget.ruled_out = frozenset(str(n) for n, _label in widget.choices if n not in bots)
        if not self.is_bound and _chosen(self, "bots") not in bots:
            self.initial = {**self.initial, "bots": bots[-1]}
        if preset.teams:
            players.help_text = preset.get_teams_display()
        # The chosen rules in a sentence or two, beside the choice (help text is not escaped).
        self.fields["preset"].help_text = escape(preset.about)

    def clean(self):
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        preset, players, bots = data.get("preset"), data.get("players"), data.get("bots")
        if preset is None or players is None:
            return data
        if players not in offers.player_counts(preset):
            self.add_error("players", offers.played_by(preset))
            return data
        if bots is not None and bots not in offers.bot_counts(players):
            self.add_error("bots", too_many_bots(players))
        return data

    def game_options(self) -> dict:
        d = self.cleaned_data
        return {
            "players": d["players"],
            "bots": d["bots"],
            "bot_level": d["bot_level"],
            "deals": d["count"] if d["match_kind"] == "deals" else None,
            "loss_limit": d["count"] if d["match_kind"] == "losses" else None,
            "time_control": d["time_control"] or None,
            "min_reliability": d.get("min_reliability"),
            "move_time": _seconds(d["move_time"]),
            "bank_time": _seconds(d["bank_time"]),
            "increment": _seconds(d["increment"]),
            "private": d["private"],
            "rated": d["rated"],
        }


def _as_int(value):
    return int(value) if str(value or "").isdigit() else None


def _chosen(form: forms.Form, name: str):
    """The number chosen in a field: the one sent, else the one filled in, else the field's
    own initial value."""
    if form.is_bound:
        return _as_int(form.data.get(form.add_prefix(name)))
    return _as_int(form.initial.get(name, form.fields[name].initial))


def chosen_preset(form: forms.Form) -> RulePreset | None:
    """The preset a form is for: the one sent, else the one filled in, else the first
    offered."""
    field = form.fields["preset"]
    assert isinstance(field, forms.ModelChoiceField) and field.queryset is not None
    chosen = (form.data.get(form.add_prefix("preset")) if form.is_bound
              else form.initial.get("preset"))
    if isinstance(chosen, RulePreset):
        chosen = chosen.pk
    offered = getattr(form, "offered", [])
    if not str(chosen or "").isdigit():
        return offered[0] if offered else field.queryset.first()
    found = next((p for p in offered if str(p.pk) == str(chosen)), None)
    found = found or field.queryset.filter(pk=chosen).first()  # taken, though not offered
    return found or (offered[0] if offered else field.queryset.first())


def _offer_playable(form: forms.Form, fits=offers.player_counts) -> None:
    """List only the presets that `fits` (services.offers) says can be played here. One
    sent from elsewhere is still taken by the field and refused by the service, in its
    words."""
    field = form.fields["preset"]
    assert isinstance(field, forms.ModelChoiceField) and field.queryset is not None
    form.offered = [p for p in field.queryset if fits(p)]  # type: ignore[attr-defined]
    field.widget.choices = [(p.pk, field.label_from_instance(p))
                            for p in form.offered]  # type: ignore[attr-defined]


def _refit_on_change(form: forms.Form, url: str, target: str, *names: str) -> None:
    """A change of these fields asks the server for the form again, fitted to the choices
    (htmx: the form's own fragment replaces it)."""
    for name in names:
        form.fields[name].widget.attrs.update({
            "hx-get": url, "hx-trigger": "change", "hx-target": target,
            "hx-swap": "outerHTML", "hx-include": "closest form", "hx-sync": "closest form"})


def _seconds(value):
    return None if value is None else timedelta(seconds=value)


class LobbyFilterForm(forms.Form):
    default_renderer = QUICK_FORMS
    preset = forms.ModelChoiceField(label=_("Rules"), queryset=RulePreset.objects.all(),
                                    required=False, empty_label=_("any"))
    players = forms.TypedChoiceField(label=_("Players"), choices=[("", _("any")), *PLAYER_COUNTS],
                                     coerce=int, required=False, empty_value=None)


_create = CreateGameForm.base_fields


class ClockForm(forms.Form):
    """A rule preset and a clock (the make-a-table form's own fields), sent once."""
    default_renderer = QUICK_FORMS

    preset = _create["preset"]
    time_control = _create["time_control"]
    move_time = _create["move_time"]
    bank_time = _create["bank_time"]
    increment = _create["increment"]
    once = _create["once"]

    def clock_options(self) -> dict:
        d = self.cleaned_data
        return {
            "time_control": d["time_control"] or None,
            "move_time": _seconds(d["move_time"]),
            "bank_time": _seconds(d["bank_time"]),
            "increment": _seconds(d["increment"]),
        }


QUICK_MOVE_TIME = 120  # seconds; one of MOVE_TIMES


class QuickMatchForm(ClockForm):
    """Quick match: a seat at the first open table with these rules and this clock."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "quick_%s")
        # A quick match is played now: two minutes a move, not the rules' slow default.
        kwargs.setdefault("initial", {"time_control": TimeControl.MOVE, "move_time": QUICK_MOVE_TIME})
        super().__init__(*args, **kwargs)
        _offer_playable(self, offers.for_two)  # a quick match is for two: no team rules


class ChallengeForm(ClockForm):
    """Challenge a named player to a private table for two."""

    opponent = forms.CharField(label=_("Player"), max_length=150,
                               help_text=_("Their user name, as on their profile."))
    rated = _rating(initial="rated", empty_value=True, help_text=CASUAL_HELP)
    field_order = ["opponent"]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "challenge_%s")
        super().__init__(*args, **kwargs)
        _offer_playable(self, offers.for_challenge)  # a game for two: no team rules

    def clean_opponent(self):
        """A name nobody has is said once, beside the field; case does not matter."""
        name = self.cleaned_data["opponent"]
        try:
            return find_player(name).username
        except NotFound as exc:
            raise forms.ValidationError(exc.message) from None


ROUND_TIMES = _durations(HOUR, 12 * HOUR, DAY, 3 * DAY, 7 * DAY, 14 * DAY)


class TournamentForm(ClockForm):
    """A tournament: its name, kind, tables, rounds and clock (games.services.tournament).
    Players make private ones among friends; staff may list theirs in the lobby."""

    name = forms.CharField(label=_("Name"), max_length=80)
    kind = forms.ChoiceField(label=_("Kind"), choices=Tournament.Kind.choices,
                             initial=Tournament.Kind.SWISS)
    table_size = forms.TypedChoiceField(label=_("Players per table"), choices=PLAYER_COUNTS,
                                        coerce=int, initial=2)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30, initial=4,
                                help_text=_("A round robin plays as many rounds as its field "
                                            "needs."))
    round_time = forms.TypedChoiceField(
        label=_("Time per round"), choices=ROUND_TIMES, coerce=int, initial=3 * DAY,
        help_text=_("When it runs out, an unfinished table is lost by the player to act. A "
                    "move never gets more time than its round."))
    starts_at = forms.DateTimeField(
        label=_("Starts"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Empty: you start it yourself."))
    rated = _rating(initial="rated", empty_value=True, help_text=CASUAL_HELP)
    bots_fill = forms.BooleanField(
        label=_("Computer players fill short tables"), required=False,
        help_text=_("Casual tournaments only: players left over sit with computer players "
                    "rather than sitting out."))
    public = forms.BooleanField(label=_("Listed in the lobby"), required=False,
                                help_text=_("Administrators only."))
    field_order = ["name", "preset", "kind", "table_size", "rounds"]

    def __init__(self, *args, user=None, **kwargs):
        kwargs.setdefault("auto_id", "tournament_%s")
        super().__init__(*args, **kwargs)
        if not getattr(user, "is_staff", False):  # only staff list one: not offered
            self.fields["public"].widget = forms.HiddenInput()
        _offer_playable(self, offers.table_sizes)
        self.fit_to(chosen_preset(self))
        _refit_on_change(self, reverse("create_tournament"), "#create-tournament", "preset")

    def _rated(self) -> bool:
        value = (self.data.get(self.add_prefix("rated")) if self.is_bound
                 else self.initial.get("rated", self.fields["rated"].initial))
        return value not in ("casual", False)

    def fit_to(self, preset: RulePreset | None) -> None:
        """Tables of as many players as the preset is played by; computer players to fill
        them offered only where they may (services.offers)."""
        if preset is None:
            return
        self.fields["preset"].help_text = escape(preset.about)  # as the new-game form
        sizes = offers.table_sizes(preset)
        self.fields["table_size"].widget.choices = [(n, str(n)) for n in sizes]
        if not self.is_bound and _chosen(self, "table_size") not in sizes and sizes:
            self.initial = {**self.initial, "table_size": sizes[0]}
        box = self.fields["bots_fill"].widget
        if offers.may_fill_with_bots(preset, rated=False):  # offered in a casual one
            box.attrs["data-only-if"] = "rated=casual"  # static/js/fit.js
        if not offers.may_fill_with_bots(preset, self._rated()):
            box.attrs["disabled"] = True
            if not self.is_bound:
                self.initial = {**self.initial, "bots_fill": False}

    def clean(self):
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        preset, size = data.get("preset"), data.get("table_size")
        if preset is None:
            return data
        if size is not None and size not in offers.table_sizes(preset):
            self.add_error("table_size", offers.played_by(preset))
        if data.get("bots_fill") and not offers.may_fill_with_bots(
                preset, bool(data.get("rated", True))):
            self.add_error("bots_fill", _("Computer players may not fill tables of teams.")
                           if preset.teams else
                           _("Computer players may fill tables only in a casual tournament."))
        return data

    def tournament_options(self) -> dict:
        d = self.cleaned_data
        return {
            "name": d["name"], "kind": d["kind"], "table_size": d["table_size"],
            "rounds": d["rounds"], "round_time": timedelta(seconds=d["round_time"]),
            "starts_at": d["starts_at"], "rated": d["rated"],
            "private": not d["public"],
            "bots_fill": d["bots_fill"],
            **self.clock_options(),
        }
