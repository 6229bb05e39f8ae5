"""The shared gettext catalogue (burraco.i18n): compiled files up to date, language
names read as the terminal and the browser send them, plural rules per language."""

import pytest

from burraco import i18n
from burraco.i18n.__main__ import main as compile_main


def test_compiled_catalogues_are_not_stale():
    pytest.importorskip("babel")
    assert compile_main(["--check"]) == 0, "run python -m burraco.i18n and commit the .mo files"


@pytest.mark.parametrize("name,lang", [
    ("it_IT.UTF-8", "it"), ("pt-BR", "pt"), ("pt_BR", "pt"), ("de", "de"), ("en-US", "en"),
    ("C", None), ("", None), ("fr_FR", None), (None, None),
])
def test_normalize_lang(name, lang):
    assert i18n.normalize_lang(name) == lang


def test_detect_lang_reads_locale_like_gettext():
    assert i18n.detect_lang({"LANG": "it_IT.UTF-8"}) == "it"
    assert i18n.detect_lang({"LANG": "de_DE.UTF-8", "LANGUAGE": "pt_BR:de"}) == "pt"
    assert i18n.detect_lang({"LANG": "C", "LANGUAGE": "it"}) == "en"
    assert i18n.detect_lang({}) == "en"


def test_every_language_has_both_domains():
    for lang in i18n.LANGS:
        if lang == "en":
            continue
        for domain in i18n.DOMAINS:
            path = i18n.LOCALE_DIR / i18n.LOCALES[lang] / "LC_MESSAGES" / f"{domain}.mo"
            assert path.exists(), path


def test_unknown_language_or_domain_is_named():
    with pytest.raises(ValueError, match="'fr'"):
        i18n.translations("fr")
    with pytest.raises(ValueError, match="'nope'"):
        i18n.translations("it", "nope")


def test_plural_rules_differ_by_language():
    # Portuguese counts 0 as singular (nplurals=2; plural=(n > 1)); English does not.
    assert i18n.translations("pt").plural(0) == 0
    assert i18n.translations("it").plural(0) == 1
    assert i18n.ngettext("en", "card", "cards", 1) == "card"
    assert i18n.ngettext("en", "card", "cards", 0) == "cards"
