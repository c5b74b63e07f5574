from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from accounts.views import set_language

urlpatterns = [
    # Browsers that ask for /favicon.ico anyway get the SVG one.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    # Django's set_language, which also saves a logged-in player's choice on their profile.
    path("i18n/setlang/", set_language, name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]
