"""The players' forms: sign-up (the name checked against look-alikes; the browser's time
zone in a hidden field), the profile (display name, language, time zone, "your move" emails
and reminders) and the change of email address."""

import re
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.validators import MaxLengthValidator
from django.db import models
from django.forms.renderers import Jinja2
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .middleware import valid_time_zone
from .models import Player
from .names import USERNAME_MAX, validate_player_name
from .zones import current_zones, zone_choices

# Django's own Jinja2 form templates, several times quicker (as games.forms.QUICK_FORMS).
QUICK_FORMS = Jinja2()


def limit_username(field: forms.Field) -> None:
    """A new username (or a changed one) has at most USERNAME_MAX characters."""
    assert isinstance(field, forms.CharField)  # Django's UsernameField
    field.max_length = USERNAME_MAX
    field.widget.attrs["maxlength"] = str(USERNAME_MAX)
    field.validators.append(MaxLengthValidator(USERNAME_MAX))
    field.help_text = _("At most %(n)s characters: letters, digits and @/./+/-/_.") % {
        "n": USERNAME_MAX}


def time_zone_choices():
    """Zones by their current names, grouped by region (accounts.zones)."""
    return [("", _("As my browser says"))] + zone_choices()


class ZoneSelect(forms.Select):
    """The zone list with a box above it that narrows it to the cities typed
    (static/js/zones.js)."""

    def render(self, name, value, attrs=None, renderer=None):
        field_id = (attrs or {}).get("id") or self.attrs.get("id") or f"id_{name}"
        search = format_html(
            '<input type="search" class="zone-filter" data-zone-filter="{}" '
            'aria-label="{}" placeholder="{}" autocomplete="off">',
            field_id, _("Find your time zone by city"), _("Type a city: Helsinki, Oslo…"))
        return search + super().render(name, value, attrs, renderer)


class SignUpForm(UserCreationForm):
    default_renderer = QUICK_FORMS
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional; needed to reset a forgotten password and for reminders."),
    )
    # Filled in by static/js/clock.js from the browser (Intl): mails give times in it.
    time_zone = forms.CharField(required=False, widget=forms.HiddenInput(
        attrs={"data-browser-zone": ""}))

    class Meta(UserCreationForm.Meta):
        model = Player
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit_username(self.fields["username"])

    def clean_time_zone(self):
        return valid_time_zone(self.cleaned_data["time_zone"])

    def clean_username(self):
        username = super().clean_username()
        if username:  # None when Django already refused it (taken, or not a valid username)
            # A guest claiming the account (ClaimForm) may take a name like their own.
            validate_player_name(username, player=self.instance if self.instance.pk else None)
        return username


class GuestForm(forms.Form):
    """"Play as a guest" (accounts.guests): a name, checked as an account's is."""

    name = forms.CharField(
        label=_("Your name"), max_length=USERNAME_MAX,
        help_text=_("Shown at the table. You can keep your games later by claiming the "
                    "account with an email address and a password."))

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        validate_player_name(name)
        return name


class ClaimForm(SignUpForm):
    """A guest claims their account: a username to log in with, an email address and a
    password (accounts.guests.claim)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].help_text = _("Required: your way back in if you forget the password.")
        # Their guest name, if it will do as a username.
        name = self.instance.display_name
        self.initial["username"] = name if re.fullmatch(r"[\w.@+-]+", name) else ""


class ProfileForm(forms.ModelForm):
    """Display name, language, time zone and emails; the email address changes through
    EmailChangeForm."""
    default_renderer = QUICK_FORMS

    time_zone = forms.ChoiceField(
        label=_("Time zone"), required=False, choices=time_zone_choices, widget=ZoneSelect,
        help_text=_("Times in emails and notifications are given in it."))

    class Meta:
        model = Player
        fields = ("display_name", "language", "time_zone", "move_emails", "summary_hour",
                  "email_reminders")
        # Not to be mistaken for the email that says it is your move (move_emails).
        labels = {"email_reminders": _("Reminders before time runs out")}
        help_texts = {"email_reminders": _("Email me again while my move waits, before the "
                                           "site plays for me.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["move_emails"].required = False  # absent: left as it was
        # The blank choices in words (Django's own "- Select an option -" is English only).
        for name, blank in (("language", _("As my browser says")), ("summary_hour", _("Any hour"))):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            model_field = Player._meta.get_field(name)
            assert isinstance(model_field, models.Field)
            choices: list[Any] = [("", blank)]
            field.choices = choices + [c for c in model_field.choices or () if c[0] != ""]
        # A zone saved under an old name shows (and saves) as its current one; a valid zone
        # the list lacks ("Etc/GMT+3") is offered too, so saving keeps it.
        zone = valid_time_zone(self.instance.time_zone)
        self.initial["time_zone"] = zone
        if zone and zone not in current_zones():
            zones = self.fields["time_zone"]
            assert isinstance(zones, forms.ChoiceField)
            zones.choices = time_zone_choices() + [(zone, zone)]

    def clean_move_emails(self):
        return self.cleaned_data["move_emails"] or self.instance.move_emails

    # Language and zone left out of a form (an older page's): left as they were.
    def clean_language(self):
        if "language" not in self.data:
            return self.instance.language
        return self.cleaned_data["language"]

    def clean_time_zone(self):
        if "time_zone" not in self.data:
            return self.instance.time_zone
        return self.cleaned_data["time_zone"]

    def clean_summary_hour(self):
        if "summary_hour" not in self.data:
            return self.instance.summary_hour
        return self.cleaned_data["summary_hour"]

    def clean_display_name(self):
        name = self.cleaned_data["display_name"]
        # A name already held is kept (saving reminders must not fail on it).
        if name and name != self.initial.get("display_name"):
            validate_player_name(name, player=self.instance)
        return name


class EmailChangeForm(forms.Form):
    default_renderer = QUICK_FORMS
    email = forms.EmailField(label=_("New email address"))
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("To make sure it is you."),
    )

    def __init__(self, *args, player, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player

    def clean_email(self):
        email = Player.objects.normalize_email(self.cleaned_data["email"])
        if email.casefold() == (self.player.email or "").casefold():
            raise forms.ValidationError(_("That is already your email address."),
                                        code="same")
        return email

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.player.check_password(password):
            raise forms.ValidationError(
                _("That is not your current password. Please type it again."),
                code="password_incorrect")
        return password
