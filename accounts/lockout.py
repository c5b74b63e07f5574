"""django-axes' database handler with two more rules (the lockouts stay in the database:
a Redis restart forgets none):

- an address: AXES_ADDRESS_FAILURE_LIMIT failed log-ins from one client address, whatever
  the usernames, lock that address out for AXES_COOLOFF_TIME;
- an account: after AXES_FAILURE_LIMIT failures for one account from two or more
  addresses it has never logged in from, more tries from such addresses wait THROTTLE_FIRST, doubling with
  each further failure (at most the cool-off). The owner's usual addresses (axes'
  AccessLog of successful log-ins) are not slowed, and a password reset ends it
  (accounts.views.PasswordResetConfirmView).

The view that answers a refusal (accounts.views.locked_out) reads `request.login_lockout`:
(what, seconds to wait or None), what being "account", "address" or "throttle".
"""

from datetime import timedelta

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.db.models import Count, Max, Sum
from django.utils import timezone

THROTTLE_FIRST = timedelta(minutes=1)


def _sum(attempts) -> int:
    return attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0


class LockoutHandler(AxesDatabaseHandler):
    def _recent(self, request):
        return AccessAttempt.objects.filter(attempt_time__gte=get_cool_off_threshold(request))

    def get_failures(self, request, credentials=None) -> int:
        """Failures for this username from this address; the limit itself when the address
        is over its own, higher limit."""
        recent = self._recent(request).filter(ip_address=request.axes_ip_address)
        username = get_client_username(request, credentials)
        pair = _sum(recent.filter(username=username))
        limit = get_failure_limit(request, credentials)
        if _sum(recent) >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            request.login_lockout = ("address", None)
            return max(pair, limit)
        if pair >= limit:
            request.login_lockout = ("account", None)
        return pair

    def is_locked(self, request, credentials=None) -> bool:
        if super().is_locked(request, credentials):
            return True
        wait = self.throttle_wait(request, credentials)
        if wait:
            request.login_lockout = ("throttle", wait)
        return bool(wait)

    def throttle_wait(self, request, credentials=None) -> int:
        """Seconds this address must still wait before trying this account, 0 if none."""
        username = get_client_username(request, credentials)
        if not username:
            return 0
        usual = AccessLog.objects.filter(username=username, ip_address__isnull=False).values(
            "ip_address")
        if usual.filter(ip_address=request.axes_ip_address).exists():
            return 0
        elsewhere = (self._recent(request).filter(username=username)
                     .exclude(ip_address__in=usual)
                     .aggregate(n=Sum("failures_since_start"), last=Max("attempt_time"),
                                addresses=Count("ip_address", distinct=True)))
        excess = (elsewhere["n"] or 0) - get_failure_limit(request, credentials)
        if excess < 0 or elsewhere["addresses"] < 2:  # one address: its own lockout
            return 0
        longest = get_cool_off(request) or timedelta(hours=1)
        delay = min(THROTTLE_FIRST * 2 ** min(excess, 30), longest)
        left = elsewhere["last"] + delay - timezone.now()
        return max(0, int(left.total_seconds() + 0.999))

    def reset_user_attempts(self, request, credentials=None) -> int:
        """A log-in clears its own username's failures from its address only: one's own
        account must not wipe an address's failures on other accounts."""
        count, _ = AccessAttempt.objects.filter(
            username=get_client_username(request, credentials),
            ip_address=request.axes_ip_address).delete()
        return count
