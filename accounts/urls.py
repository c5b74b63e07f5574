"""The accounts' pages: sign-up, log-in and log-out, password change and reset, the
profile, a guest's claim of their account, the change of email address, the log-in link
for a new device, unsubscribe links and public profiles."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", views.password_change, name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("profile/", views.profile, name="profile"),
    path("claim/", views.claim, name="claim_account"),
    path("email/", views.email_change, name="email_change"),
    path("email/confirm/<str:token>/", views.email_change_confirm, name="email_change_confirm"),
    path("device/<str:token>/", views.device_login, name="device_login"),
    path("unsubscribe/<str:token>/", views.unsubscribe_view, name="unsubscribe"),
    path("u/<str:username>/", views.public_profile, name="public_profile"),
]
