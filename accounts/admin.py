"""The admin of players: Django's user admin with a player's display name, reminder
choice and record of deals."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.utils.translation import gettext_lazy as _

from .forms import limit_username
from .models import Player
from .names import USERNAME_MAX


class PlayerCreationForm(AdminUserCreationForm):
    """A new player's username has at most USERNAME_MAX characters, as at sign-up."""

    class Meta(AdminUserCreationForm.Meta):
        model = Player

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit_username(self.fields["username"])


class PlayerChangeForm(UserChangeForm):
    """A name longer than the limit, made before it, may stay; a changed one may not."""

    class Meta(UserChangeForm.Meta):
        model = Player

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if len(self.instance.username or "") <= USERNAME_MAX:
            limit_username(self.fields["username"])


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    add_form = PlayerCreationForm
    form = PlayerChangeForm
    list_display = ("username", "display_name", "email", "deals_played", "is_staff")
    search_fields = ("username", "display_name", "email")
    list_filter = (*UserAdmin.list_filter, "is_guest")  # guests from invite links
    list_per_page = 50
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (_("Player"), {"fields": ("display_name", "email_reminders")}),
        (_("Record"), {"fields": ("deals_played", "deals_lost", "deals_drawn")}),
    )
