from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    # Browsers that ask for /favicon.ico anyway get the SVG one.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]
