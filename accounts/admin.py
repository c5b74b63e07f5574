"""The admin of players: Django's user admin with a player's display name, reminder
choice and record of deals."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from .models import Player


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "deals_played", "is_staff")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *UserAdmin.fieldsets,
        (_("Player"), {"fields": ("display_name", "email_reminders")}),
        (_("Record"), {"fields": ("deals_played", "deals_lost", "deals_drawn")}),
    )
