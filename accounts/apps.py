"""The accounts app: players, sign-up, log-in, profiles and their limits."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"
