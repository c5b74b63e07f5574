"""The accounts' views: sign-up, profile, password change and reset and email change under
the account limits (accounts.ratelimit), unsubscribe links, public profiles, the log-in
lockout's page, the log-in link for a new device (accounts.newdevice) and the language
switch that remembers a player's choice."""

import secrets
from datetime import timedelta

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.mail import send_mail
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone, translation
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.views import i18n as i18n_views
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.debug import sensitive_post_parameters

from games.limits import limited

from . import guests, newdevice, ratelimit, unsubscribe
from .context_processors import safe_next
from .forms import ClaimForm, EmailChangeForm, ProfileForm, SignUpForm
from .middleware import SEEN_ZONE, TIME_ZONE_COOKIE, valid_time_zone
from .models import Block, Friend, Player

EMAIL_CHANGE_SALT = "accounts.email-change"
EMAIL_CHANGE_MAX_AGE = 3 * 24 * 60 * 60  # seconds: a confirmation link works for 3 days


def rate_limited(request, what: str, limit_name: str):
    """429: the site's one "please wait" page, saying what was refused and for how long."""
    _count, seconds = ratelimit.limit(limit_name)
    response = render(request, "429.html", {"what": what, "minutes": max(1, seconds // 60)},
                      status=429)
    response["Retry-After"] = str(seconds)
    return response


@sensitive_post_parameters("password1", "password2")
def signup(request):
    # Where to go afterwards (an invite link, say), if it stays on this site.
    next_url = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    if request.user.is_authenticated:
        return redirect(next_url or "profile")
    address = ratelimit.client_address(request)
    too_many = _("Too many new accounts have been made from your network.")
    if request.method == "POST" and ratelimit.exhausted("signup_ip", address):
        return rate_limited(request, too_many, "signup_ip")
    form = SignUpForm(request.POST or None)
    if form.is_valid():
        if not ratelimit.hit("signup_ip", address):
            return rate_limited(request, too_many, "signup_ip")
        # The browser's language and zone: mails speak to the player in them from the start.
        form.instance.language = browser_language(request)
        form.instance.time_zone = form.cleaned_data["time_zone"] or valid_time_zone(
            request.COOKIES.get(TIME_ZONE_COOKIE))
        player = form.save()
        login(request, player, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Welcome, %(name)s! Your account is ready.") % {"name": player.name}
        )
        return redirect(next_url or "lobby")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


@limited("profile_saves")
@login_required
@sensitive_post_parameters("password1", "password2")
def claim(request):
    """A guest claims their account (accounts.guests): a username, an email address and a
    password; their games stay theirs. Anyone else has an account already."""
    if not request.user.is_guest:
        return redirect("profile")
    form = ClaimForm(request.POST or None, instance=request.user)
    if form.is_valid():
        player = guests.claim(request, form)
        messages.success(request, _("The account is yours, %(name)s: log in as %(username)s "
                                    "with your password from now on.")
                         % {"name": player.name, "username": player.username})
        return redirect("my_games")
    return render(request, "accounts/claim.html", {"form": form},
                  status=400 if form.is_bound else 200)


def browser_language(request) -> str:
    """The language LocaleMiddleware chose for this request (cookie, Accept-Language), if
    the site speaks it."""
    try:
        language = translation.get_supported_language_variant(request.LANGUAGE_CODE)
    except (AttributeError, LookupError):
        return ""
    return language if language in dict(settings.LANGUAGES) else ""


@limited("profile_saves")
@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if form.is_valid():
        form.save()
        if "time_zone" in form.changed_data:  # chosen here: this browser's zone no longer wins
            request.session[SEEN_ZONE] = valid_time_zone(request.COOKIES.get(TIME_ZONE_COOKIE))
        # Said in the language the next page speaks: the one just chosen, if any.
        chosen = request.user.language or translation.get_language_from_request(request)
        with translation.override(chosen):
            messages.success(request, _("Your profile has been saved."))
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form, "player": request.user})


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's; a wrong old password is counted (accounts.ratelimit.password_guesses)."""

    def form_invalid(self, form):
        ratelimit.found_wrong_password(
            self.request, form.has_error("old_password", "password_incorrect"))
        return super().form_invalid(form)


password_change = ratelimit.password_guesses(PasswordChangeView.as_view())


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset form, with reset mails limited per client address and per address."""

    def form_valid(self, form):
        if not ratelimit.hit("reset_ip", ratelimit.client_address(self.request)):
            return rate_limited(
                self.request, _("Too many password resets have been asked for from your network."),
                "reset_ip")
        # Counted per email address whether or not an account has it: the answer must not
        # tell anyone which addresses belong to players.
        if not ratelimit.hit("reset_account", form.cleaned_data["email"]):
            return rate_limited(
                self.request, _("Too many password-reset emails have been asked for this address."),
                "reset_account")
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's; a new password also ends the account's log-in lockouts and slowing."""

    def form_valid(self, form):
        response = super().form_valid(form)
        AccessAttempt.objects.filter(username=form.user.get_username()).delete()
        return response


@ratelimit.password_guesses
@login_required
@sensitive_post_parameters("password")
def email_change(request):
    """Ask for the password; mail a signed link to the new address. Nothing changes yet."""
    player = request.user
    form = EmailChangeForm(request.POST or None, player=player)
    valid = form.is_valid()
    ratelimit.found_wrong_password(request, form.has_error("password", "password_incorrect"))
    if valid:
        if not ratelimit.hit("email_change_account", str(player.pk)):
            return rate_limited(
                request, _("Too many confirmation emails have been asked for."),
                "email_change_account")
        new_email = form.cleaned_data["email"]
        token = signing.dumps(
            {"player": player.pk, "old": player.email, "new": new_email,
             "stamp": player.email_stamp}, salt=EMAIL_CHANGE_SALT)
        link = request.build_absolute_uri(reverse("email_change_confirm", args=[token]))
        context = {"player": player, "link": link, "new_email": new_email,
                   "days": EMAIL_CHANGE_MAX_AGE // 86400}
        subject = render_to_string("accounts/email_change_subject.txt", context).strip()
        body = render_to_string("accounts/email_change_email.txt", context)
        send_mail(subject, body, None, [new_email])
        messages.success(
            request,
            _("We sent a link to %(email)s. Your address changes when you open it.")
            % {"email": new_email},
        )
        return redirect("profile")
    return render(request, "accounts/email_change_form.html", {"form": form}, status=200)


def email_change_confirm(request, token):
    """The mailed link: a page with a button (GET changes nothing), then the change (POST).

    Whoever holds the link may confirm it, logged in or not: the link itself proves that
    the new mailbox is the player's, and the password was checked when it was asked for.
    It names the old address and the player's email stamp, which each confirmation
    changes: it works once, and not after any other change.
    """
    try:
        data = signing.loads(token, salt=EMAIL_CHANGE_SALT, max_age=EMAIL_CHANGE_MAX_AGE)
    except signing.SignatureExpired:
        return _email_change_refused(request, _(
            "This link has expired. Links work for %(days)s days: please ask for a new one "
            "on your profile.") % {"days": EMAIL_CHANGE_MAX_AGE // 86400})
    except signing.BadSignature:
        return _email_change_refused(request, _(
            "This link is not valid. Please check that you copied all of it, or ask for a "
            "new one on your profile."))
    if not isinstance(data, dict) or not {"player", "old", "new", "stamp"} <= data.keys():
        return _email_change_refused(request, _("This link is not valid."))
    current = Player.objects.filter(
        pk=data["player"], is_active=True, email=data["old"], email_stamp=data["stamp"])
    player = current.first()
    if player is None:
        return _email_change_refused(request, _(
            "This link has already been used, or your address has changed since it was "
            "sent."))
    if request.method == "POST":
        # Only the first of two racing confirmations finds the stamp unchanged.
        if not current.update(email=data["new"], email_stamp=secrets.token_hex(16)):
            return _email_change_refused(request, _(
                "This link has already been used, or your address has changed since it "
                "was sent."))
        messages.success(request, _("Your email address is now %(email)s.")
                         % {"email": data["new"]})
        return redirect("profile" if request.user.is_authenticated else "login")
    return render(request, "accounts/email_change_confirm.html",
                  {"new_email": data["new"], "player": player})


def _email_change_refused(request, reason):
    return render(request, "accounts/email_change_confirm.html", {"error": reason},
                  status=400)


@csrf_exempt  # the signed link is the proof; mail programs POST it (RFC 8058 one-click)
def unsubscribe_view(request, token):
    """A mailed link. GET asks (mail scanners open links); POST unsubscribes, from the
    page's button or the mail program's one-click; the page then offers an undo button."""
    if request.method not in ("GET", "POST"):
        return render(request, "accounts/unsubscribe.html", {"error": True}, status=405)
    try:
        player, kind = unsubscribe.read(token)
    except signing.SignatureExpired:
        return render(request, "accounts/unsubscribe.html", {"expired": True}, status=400)
    except signing.BadSignature:
        return render(request, "accounts/unsubscribe.html", {"error": True}, status=400)
    if request.method == "GET":
        return render(request, "accounts/unsubscribe.html", {"kind": kind, "ask": True})
    before = player.move_emails
    undo = request.POST.get("undo")
    unsubscribe.subscribe(player, kind, on=bool(undo), moves=undo)
    return render(request, "accounts/unsubscribe.html", {
        "kind": kind, "on": bool(undo), "player": player,
        "previous": before if before != Player.MoveEmails.NEVER else Player.MoveEmails.NOW})


def public_profile(request, username):
    player = Player.objects.filter(username=username, is_active=True).first()
    if player is None:  # a name typed in another case still finds its one player
        same = list(Player.objects.filter(username__iexact=username, is_active=True)[:2])
        if len(same) == 1:
            return redirect(same[0])
        return render(request, "accounts/no_player.html", {"username": username}, status=404)
    me = request.user if request.user.is_authenticated else None
    return render(request, "accounts/public_profile.html", {
        "player": player,  # friends and blocks: games.views.friends changes them
        "is_friend": me is not None and Friend.objects.filter(player=me, friend=player).exists(),
        "is_blocked": me is not None and Block.objects.filter(player=me, blocked=player).exists(),
    })


def locked_out(request, original_response=None, credentials=None):
    """django-axes' lockout answer: 429 with a page saying why and when to try again; but
    while the account is slowed for guesses from elsewhere, a log-in from a new address
    gets the new-device page (accounts.newdevice), whatever its password."""
    what, wait = getattr(request, "login_lockout", ("account", None))
    if what == "throttle" and request.method == "POST":
        newdevice.offer(request)
        response = render(request, "accounts/device_link_sent.html")
        if wait:
            response["Retry-After"] = str(wait)
        return response
    cooloff, now = get_cool_off(request), timezone.now()
    if wait:
        cooloff = timedelta(seconds=wait)
    response = render(
        request,
        "accounts/locked_out.html",
        {
            "what": what,
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "retry_in": timeuntil(now + cooloff, now) if cooloff else None,
        },
        status=429,
    )
    if cooloff:
        response["Retry-After"] = str(int(cooloff.total_seconds()))
    return response


def device_login(request, token):
    """The new device's mailed link: a page with a button (GET changes nothing: mail
    scanners open links), then the log-in (POST), once."""
    player = newdevice.read(token)
    if player is None:
        return render(request, "accounts/device_login.html", {"error": True}, status=400)
    if request.method != "POST":
        return render(request, "accounts/device_login.html", {"player": player})
    if not newdevice.use(player):  # a racing use took it first
        return render(request, "accounts/device_login.html", {"error": True}, status=400)
    login(request, player, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Welcome back, %(name)s!") % {"name": player.name})
    return redirect("lobby")


@limited("profile_saves")
def set_language(request):
    """Django's set_language (the switcher in every page's header); a logged-in player's
    choice is also saved on their profile, so it follows them to other browsers."""
    response = i18n_views.set_language(request)
    language = request.POST.get("language", "")
    if (
        request.method == "POST"
        and request.user.is_authenticated
        and language in dict(settings.LANGUAGES)
    ):
        request.user.language = language
        request.user.save(update_fields=["language"])
    return response


class LoginView(auth_views.LoginView):
    """Django's log-in page; sent there from a game only its players see, it says why."""

    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["to_a_game"] = _is_a_game(context.get("next") or "")
        return context


def _is_a_game(path: str) -> bool:
    """`next` is a game's table (games.urls "table")."""
    try:
        return resolve(path.split("?", 1)[0]).url_name == "table"
    except Resolver404:
        return False
