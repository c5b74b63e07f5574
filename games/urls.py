from django.urls import path
from django.views.generic import TemplateView

# Placeholder: the real lobby and table views replace this.
urlpatterns = [
    path("", TemplateView.as_view(template_name="games/lobby.html"), name="lobby"),
]
