"""Player: the name shown, the record of deals and the profile's address."""

import pytest

from accounts.models import Player

pytestmark = pytest.mark.django_db


def test_it_falls_back_to_username_for_name(alice):
    assert alice.name == "alice"
    alice.display_name = "Alice the Bold"
    assert alice.name == "Alice the Bold"
    assert str(alice) == "Alice the Bold"


def test_it_starts_with_an_empty_record_and_reminders_on(alice):
    assert (alice.deals_played, alice.deals_lost, alice.deals_drawn) == (0, 0, 0)
    assert alice.email_reminders is True


def test_it_records_deals(alice):
    alice.record_deal()
    alice.record_deal(lost=True)
    alice.record_deal(drawn=True)
    fresh = Player.objects.get(pk=alice.pk)
    assert (fresh.deals_played, fresh.deals_lost, fresh.deals_drawn) == (3, 1, 1)
    assert alice.deals_played == 3
    assert alice.deals_not_lost == 2


def test_it_rejects_a_deal_both_lost_and_drawn(alice):
    with pytest.raises(ValueError, match="both lost and drawn"):
        alice.record_deal(lost=True, drawn=True)
    alice.refresh_from_db()
    assert alice.deals_played == 0


def test_its_absolute_url_is_the_public_profile(alice):
    assert alice.get_absolute_url() == "/accounts/u/alice/"
