"""The fields of the games' models kept in each of the site's languages
(django-modeltranslation): a rule preset's name and description. An empty one reads as
the English text (settings.MODELTRANSLATION_FALLBACK_LANGUAGES)."""

from modeltranslation.translator import TranslationOptions, register

from .models import RulePreset


@register(RulePreset)
class RulePresetTranslation(TranslationOptions):
    fields = ("name", "description")
    required_languages = ("en",)
