"""The site's rate limits (games.limits): the values settings.LIMITS promises, fixed
windows in the cache and in the database, the sliding window over rows, and the token
bucket, each on a frozen clock."""

from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.utils import timezone

from accounts.models import RateCount
from games import limits
from games.models import ChatMessage


def test_the_limits_are_as_promised(settings):
    assert settings.LIMITS == {
        "signup_ip": (5, 3600), "reset_ip": (5, 3600), "reset_account": (3, 3600),
        "email_change_account": (3, 3600), "chat": (5, 10), "hint": (10, 60),
        "review": (10, 3600), "socket_messages": (4.0, 12),
        "games_made": (20, 3600), "lessons": (10, 3600), "challenges_sent": (20, 3600),
        "challenges_received": (10, 3600), "challenge_answers": (60, 3600),
        "vacations": (10, 86400), "tournaments_made": (5, 3600),
        "tournament_changes": (60, 3600), "push_subscriptions": (10, 3600),
        "push_unsubscriptions": (10, 3600), "profile_saves": (60, 3600),
        "seat_changes": (60, 3600), "mutes": (60, 3600),
        "password_guesses": (5, 3600), "device_link_account": (3, 3600),
        "deal_checks": (60, 3600), "friend_changes": (60, 3600),
    }
    assert limits.window("review") == (10, 3600)
    assert limits.window("chat").length == timedelta(seconds=10)
    assert limits.rate("socket_messages") == (4.0, 12)


def test_a_key_names_the_limit_and_hides_who_is_counted():
    key = limits.key("reset_account", "Alice@Example.org ")
    assert key.startswith("reset_account:") and "alice" not in key
    assert key == limits.key("reset_account", "alice@example.org")  # case and space alike
    assert key != limits.key("reset_ip", "alice@example.org")  # each limit counts apart


def test_a_cached_window_refuses_past_its_count_and_a_refusal_counts_nothing(settings):
    settings.LIMITS = {**settings.LIMITS, "hint": (3, 60)}
    cache.clear()
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        assert [limits.hit("hint", 7) for _ in range(5)] == [True] * 3 + [False] * 2
        assert limits.hit("hint", 8)  # another player has their own window
        assert cache.get("limit:" + limits.key("hint", 7)) == 3
    limits.forget("hint", 7)
    assert limits.hit("hint", 7)


@pytest.mark.django_db
def test_a_kept_window_counts_in_the_database_and_ends_after_its_seconds(settings):
    settings.LIMITS = {**settings.LIMITS, "signup_ip": (2, 3600)}
    kept = limits.KeptWindows(RateCount)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        assert not kept.exhausted("signup_ip", "192.0.2.1")
        assert [kept.hit("signup_ip", "192.0.2.1") for _ in range(3)] == [True, True, False]
        assert kept.exhausted("signup_ip", "192.0.2.1")
        assert not kept.exhausted("signup_ip", "192.0.2.2")
        cache.clear()  # Redis restarted: the count stays
        assert kept.exhausted("signup_ip", "192.0.2.1")
    with time_machine.travel(start + timedelta(minutes=59), tick=False):
        assert kept.exhausted("signup_ip", "192.0.2.1")
    with time_machine.travel(start + timedelta(minutes=61), tick=False):
        assert not kept.exhausted("signup_ip", "192.0.2.1")
        assert kept.hit("signup_ip", "192.0.2.1")  # a new window from this use
        assert RateCount.objects.get(key=limits.key("signup_ip", "192.0.2.1")).count == 1


@pytest.mark.django_db
def test_the_rows_window_slides_with_the_rows_times(duel, alice):
    rows = ChatMessage.objects.filter(game=duel, author=alice)
    start = timezone.now()
    for second in range(5):
        with time_machine.travel(start + timedelta(seconds=2 * second), tick=False):
            assert not limits.rows_full("chat", rows)
            ChatMessage.objects.create(game=duel, author=alice, text="hi")
    with time_machine.travel(start + timedelta(seconds=9), tick=False):
        assert limits.rows_full("chat", rows)  # 5 in the last 10 seconds
    with time_machine.travel(start + timedelta(seconds=10, milliseconds=1), tick=False):
        assert not limits.rows_full("chat", rows)  # the first has slid out


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_lets_a_burst_through_then_refills_at_its_rate():
    clock = Clock()
    bucket = limits.Bucket("socket_messages", clock=clock)
    assert [bucket.allow() for _ in range(13)] == [True] * 12 + [False]
    clock.now += 0.5  # two tokens back at 4 a second
    assert [bucket.allow() for _ in range(3)] == [True, True, False]
    clock.now += 60  # never more than the burst
    assert sum(bucket.allow() for _ in range(20)) == 12


def test_a_bucket_reads_its_rate_from_the_settings(settings):
    settings.LIMITS = {**settings.LIMITS, "socket_messages": (1000.0, 2)}
    clock = Clock()
    bucket = limits.Bucket("socket_messages", clock=clock)
    assert [bucket.allow() for _ in range(3)] == [True, True, False]
    clock.now += 0.002  # two tokens back at 1000 a second
    assert bucket.allow()
