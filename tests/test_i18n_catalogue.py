"""The shared gettext catalogue (burraco.i18n): compiled files up to date, language
names read as the terminal and the browser send them, plural rules per language."""

import pytest

from burraco import i18n
from burraco.i18n.__main__ import main as compile_main


def test_compiled_catalogues_are_not_stale():
    pytest.importorskip("babel")
    assert compile_main(["--check"]) == 0, "run python -m burraco.i18n and commit the .mo files"


def _mo(monkeypatch, babel_version, msgstr):
    """A one-message German catalogue compiled as Babel ``babel_version`` would."""
    import io

    import babel.messages.catalog as catalog_module
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    monkeypatch.setattr(catalog_module, "VERSION", babel_version)
    catalog = Catalog(locale="de", project="burraco")
    catalog.add("discard pile", msgstr)
    catalog.add(("%(n)d card", "%(n)d cards"), ("%(n)d Karte", "%(n)d Karten"))
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def test_staleness_ignores_which_babel_compiled(tmp_path, monkeypatch):
    """CI once installed a newer Babel than the one that compiled the committed files:
    the same catalogue differed only in its ``Generated-By`` header and was called
    stale. Staleness is about what the catalogue says."""
    pytest.importorskip("babel")
    from burraco.i18n.__main__ import is_stale

    old = _mo(monkeypatch, "2.18.0", "Ablagestapel")
    new = _mo(monkeypatch, "2.19.0", "Ablagestapel")
    assert old != new and b"Babel 2.18.0" in old
    mo = tmp_path / "burraco.mo"
    mo.write_bytes(old)
    assert not is_stale(mo, new)


def test_staleness_sees_a_changed_translation_a_missing_or_broken_file(tmp_path, monkeypatch):
    pytest.importorskip("babel")
    from burraco.i18n.__main__ import is_stale

    fresh = _mo(monkeypatch, "2.19.0", "Ablagestapel")
    mo = tmp_path / "burraco.mo"
    assert is_stale(mo, fresh)                      # missing
    mo.write_bytes(_mo(monkeypatch, "2.19.0", "Abwurfstapel"))
    assert is_stale(mo, fresh)                      # one msgstr differs
    mo.write_bytes(b"not a catalogue")
    assert is_stale(mo, fresh)                      # unreadable
    mo.write_bytes(fresh)
    assert not is_stale(mo, fresh)


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
