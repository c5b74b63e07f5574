"""Player, the site's user model (names, email choices, vacation, language, time zone,
record of deals), and RateCount, the counts of the account limits kept in the database."""

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .names import skeleton_key


class Player(AbstractUser):
    """A person who plays: the site's user model."""

    # Their ratings as a kept snapshot read them (games.present.snapshots: Prefetch's
    # to_attr); not a field, and unset until then (a default would stop the prefetch).
    kept_ratings: list[Any]

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown at the table instead of your username."),
    )
    email_reminders = models.BooleanField(
        _("email reminders"),
        default=True,
        help_text=_("Email me when a game is waiting for my move."),
    )
    class MoveEmails(models.TextChoices):
        NOW = "now", _("at once")
        DAILY = "daily", _("in a daily summary")
        NEVER = "never", _("never")

    move_emails = models.CharField(
        _("emails when it's your move"), max_length=5, choices=MoveEmails,
        default=MoveEmails.NOW,
        help_text=_("In games with an hour or more per move, when you haven't been on the "
                    "site since the move."))
    vacation_until = models.DateTimeField(
        _("on vacation until"), null=True, blank=True,
        help_text=_("While on vacation, the clocks of your slow games stop."))
    vacation_days = models.JSONField(_("vacation days taken"), default=dict, blank=True,
                                     help_text=_("Days per year, e.g. {\"2026\": 12}."))
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True, editable=False)
    last_summary = models.DateTimeField(_("last daily summary"), null=True, blank=True,
                                        editable=False)
    summary_hour = models.PositiveSmallIntegerField(
        _("hour of the daily summary"), null=True, blank=True,
        choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
        help_text=_("In your time zone; blank: once a day, at any hour."))
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("The site's language for you; blank follows your browser."),
    )
    # The browser's IANA zone ("Europe/Helsinki"), saved by accounts.middleware: times on
    # the site are shown in it.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    # accounts.names.skeleton_key of the username and display name: look-alikes are refused.
    username_skeleton = models.CharField(max_length=64, blank=True, editable=False,
                                         db_index=True)
    display_name_skeleton = models.CharField(max_length=64, blank=True, editable=False,
                                             db_index=True)
    # Changed by each confirmed email change: a confirmation link carries the value it was
    # made with, so it works once (accounts.views.email_change_confirm).
    email_stamp = models.CharField(max_length=32, blank=True, editable=False)
    # The record: one deal is one hand of Durak, from the deal until someone is left holding cards.
    deals_played = models.PositiveIntegerField(_("deals played"), default=0)
    deals_lost = models.PositiveIntegerField(_("deals lost"), default=0)
    deals_drawn = models.PositiveIntegerField(_("deals drawn"), default=0)
    # A guest (accounts/guests.py; docs/design.md, "Guests from a link"): a name and the
    # browser's session, no password; casual games only until they claim the account.
    is_guest = models.BooleanField(
        _("guest"), default=False, db_index=True,
        help_text=_("Came by an invite link with a name only; casual games until claimed."))

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_skeleton = skeleton_key(self.username)
        self.display_name_skeleton = skeleton_key(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            names = set(update_fields)
            if "username" in names:
                names.add("username_skeleton")
            if "display_name" in names:
                names.add("display_name_skeleton")
            kwargs["update_fields"] = names
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("public_profile", args=[self.username])

    @property
    def name(self) -> str:
        if self.is_guest and not self.is_active:  # an unclaimed guest, removed: seats kept
            return gettext("a guest")
        return self.display_name or self.username

    @property
    def deals_not_lost(self) -> int:
        """Deals this player came out of without being the durak, draws included."""
        return self.deals_played - self.deals_lost

    def vacation_days_left(self, now: datetime | None = None) -> int:
        """Vacation days the player may still take this year."""
        year = str((now or timezone.now()).year)
        taken: int = (self.vacation_days or {}).get(year, 0)
        return max(0, settings.VACATION_DAYS_PER_YEAR - taken)

    @property
    def on_vacation(self) -> bool:
        return self.vacation_until is not None and self.vacation_until > timezone.now()

    def record_deal(self, *, lost: bool = False, drawn: bool = False) -> None:
        """Count one finished deal, atomically (safe against concurrent updates)."""
        if lost and drawn:
            raise ValueError("a deal cannot be both lost and drawn")
        Player.objects.filter(pk=self.pk).update(
            deals_played=models.F("deals_played") + 1,
            deals_lost=models.F("deals_lost") + int(lost),
            deals_drawn=models.F("deals_drawn") + int(drawn),
        )
        self.refresh_from_db(fields=["deals_played", "deals_lost", "deals_drawn"])


class RateCount(models.Model):
    """One fixed window of accounts.ratelimit: uses of one limit by one client address or
    account. Kept in the database so that a Redis restart forgets no limit."""

    key = models.CharField(max_length=100, unique=True)
    count = models.PositiveIntegerField(default=0)
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count} until {self.expires}"


class Friend(models.Model):
    """`player` has added `friend` to their friends (docs/design.md, "Friends and blocks"):
    one way, as a follow; each sees the other online only when both have added each other."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="friend_rows")
    friend = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="friend_of_rows")
    added = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "friend"], name="one_friend_row")]

    def __str__(self) -> str:
        return f"{self.player_id} → {self.friend_id}"


class Block(models.Model):
    """`player` has blocked `blocked`: no challenges, invitations, shared tables or chat
    between them (docs/design.md, "Friends and blocks")."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="block_rows")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="blocked_by_rows")
    added = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "blocked"], name="one_block_row")]

    def __str__(self) -> str:
        return f"{self.player_id} ⊘ {self.blocked_id}"
