from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import Player


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional; needed to reset a forgotten password and for reminders."),
    )

    class Meta(UserCreationForm.Meta):
        model = Player
        fields = ("username", "email")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ("display_name", "email", "email_reminders")
