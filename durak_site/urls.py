"""The site's URLs: the accounts' pages, the language switch, /healthz, the admin, the
favicon, and the games' pages at the root."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from accounts.views import set_language
from durak_site.health import HealthView

urlpatterns = [
    # Browsers that ask for /favicon.ico anyway get the SVG one (its URL looked up when
    # asked: with STATIC_HASHED it is in the manifest collectstatic writes).
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg"),
                                             permanent=True)),
    # Django's set_language, which also saves a logged-in player's choice on their profile.
    path("i18n/setlang/", set_language, name="set_language"),
    path("accounts/", include("accounts.urls")),
    # For monitors and load balancers: 200 when the database, cache and Redis answer, else 503.
    path("healthz", HealthView.as_view(), name="healthz"),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]
