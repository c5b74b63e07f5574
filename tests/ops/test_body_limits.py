"""Django's own body limits, the second wall behind nginx's client_max_body_size (1 MB)."""

import pytest
from django.conf import settings


def test_django_limits_bodies_to_one_megabyte():
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 1024 * 1024
    assert settings.DATA_UPLOAD_MAX_NUMBER_FIELDS == 1000


@pytest.mark.django_db
def test_a_form_body_over_the_limit_is_a_400_and_logs_nobody_in(client, alice):
    body = "username=alice&password=correct-horse-battery-staple&pad=" + "x" * (1024 * 1024)
    response = client.post("/accounts/login/", body,
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "_auth_user_id" not in client.session
