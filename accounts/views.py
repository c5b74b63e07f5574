from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from .context_processors import safe_next
from .forms import ProfileForm, SignUpForm
from .models import Player


@sensitive_post_parameters("password1", "password2")
def signup(request):
    # Where to go afterwards (an invite link, say), if it stays on this site.
    next_url = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    if request.user.is_authenticated:
        return redirect(next_url or "profile")
    form = SignUpForm(request.POST or None)
    if form.is_valid():
        player = form.save()
        login(request, player, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Welcome, %(name)s! Your account is ready.") % {"name": player.name}
        )
        return redirect(next_url or "lobby")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if form.is_valid():
        form.save()
        messages.success(request, _("Your profile has been saved."))
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form, "player": request.user})


def public_profile(request, username):
    player = get_object_or_404(Player, username=username, is_active=True)
    return render(request, "accounts/public_profile.html", {"player": player})


def locked_out(request, original_response=None, credentials=None):
    """django-axes' lockout answer: 429 with a page saying when to try again."""
    cooloff, now = get_cool_off(request), timezone.now()
    response = render(
        request,
        "accounts/locked_out.html",
        {
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "retry_in": timeuntil(now + cooloff, now) if cooloff else None,
        },
        status=429,
    )
    if cooloff:
        response["Retry-After"] = str(int(cooloff.total_seconds()))
    return response
