"""The words of ``burraco play`` come from the shared gettext catalogue
(burraco.i18n, domain ``burraco``): plural forms right in all four languages."""

import pytest

from burraco.tui.i18n import LANGS, WORDS, Translator

PLURALS = {
    # key, n -> expected text per language (pt_BR counts 0 as singular: plural=(n > 1))
    ("cards_of", 1): {"en": "West 1 card", "it": "West 1 carta", "pt": "West 1 carta",
                      "de": "West 1 Karte"},
    ("cards_of", 2): {"en": "West 2 cards", "it": "West 2 carte", "pt": "West 2 cartas",
                      "de": "West 2 Karten"},
    ("cards_of", 0): {"en": "West 0 cards", "it": "West 0 carte", "pt": "West 0 carta",
                      "de": "West 0 Karten"},
    ("you_picked_up", 1): {"en": "You picked up the discard pile (1 card).",
                           "it": "Hai raccolto gli scarti (1 carta).",
                           "pt": "Você pegou o lixo (1 carta).",
                           "de": "Du hast den Ablagestapel aufgenommen (1 Karte)."},
    ("you_picked_up", 5): {"en": "You picked up the discard pile (5 cards).",
                           "it": "Hai raccolto gli scarti (5 carte).",
                           "pt": "Você pegou o lixo (5 cartas).",
                           "de": "Du hast den Ablagestapel aufgenommen (5 Karten)."},
    ("rs_hands", 1): {"en": "The match is 1 hand.", "it": "La partita dura 1 smazzata.",
                      "pt": "A partida tem 1 mão.", "de": "Die Partie hat 1 Spiel."},
    ("rs_hands", 3): {"en": "The match is 3 hands.", "it": "La partita dura 3 smazzate.",
                      "pt": "A partida tem 3 mãos.", "de": "Die Partie hat 3 Spiele."},
}


@pytest.mark.parametrize("key,n", sorted(PLURALS))
@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms(lang, key, n):
    kw = {"who": "West"} if key == "cards_of" else {}
    assert Translator(lang)(key, n=n, **kw) == PLURALS[key, n][lang]


def test_every_counted_word_has_both_forms():
    """A text with a count of things uses ngettext: one and two differ in English."""
    counted = [k for k, e in WORDS.items() if isinstance(e, tuple)]
    assert len(counted) >= 8
    for key in counted:
        one, two = WORDS[key]
        assert one != two or key == "points", key
        assert "{n}" in one and "{n}" in two, key


@pytest.mark.parametrize("lang", LANGS)
def test_hand_pickup_log_counts(lang):
    t = Translator(lang)
    one = t("log_pickup", who="X", n=1, cards="7♥")
    many = t("log_pickup", who="X", n=4, cards="7♥")
    assert one != many.replace("4", "1")
