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


NEW_PLURALS = {
    # the move log (issue 14): who took a packet, how many cards the pile held
    ("log_packet", 1): {"en": "West takes a reserve packet (1 card).",
                        "it": "West prende un pozzetto (1 carta).",
                        "pt": "West pega um morto (1 carta).",
                        "de": "West nimmt einen Reservestapel (1 Karte)."},
    ("log_packet", 11): {"en": "West takes a reserve packet (11 cards).",
                         "it": "West prende un pozzetto (11 carte).",
                         "pt": "West pega um morto (11 cartas).",
                         "de": "West nimmt einen Reservestapel (11 Karten)."},
    ("your_hand", 1): {"en": "Your hand: 1 card, by suit", "it": None, "pt": None, "de": None},
}


@pytest.mark.parametrize("key,n", sorted(NEW_PLURALS))
@pytest.mark.parametrize("lang", LANGS)
def test_log_and_hand_plurals(lang, key, n):
    t = Translator(lang)
    text = t(key, n=n, who="West", order=t("by_suit"))
    want = NEW_PLURALS[key, n][lang]
    if want is not None:
        assert text == want
    # one thing is never counted in the plural, two never in the singular
    one, two = t(key, n=1, who="W", order=""), t(key, n=2, who="W", order="")
    assert one != two.replace("2", "1"), (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_every_counted_word_differs_for_one_and_many(lang):
    """In every language a count of one reads differently from a count of five
    (the ngettext plural forms are right), except the abbreviation of points."""
    t = Translator(lang)
    for key, entry in WORDS.items():
        if not isinstance(entry, tuple) or key == "points":
            continue
        kw = {"who": "W", "order": "", "cards": "", "card": "", "meld": 1, "score": 0}
        assert t(key, n=1, **kw) != t(key, n=5, **kw).replace("5", "1"), (lang, key)


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_resume_prompt_offers_the_languages_own_yes(lang):
    """The prompt at start shows the yes letter of its language ([Y/n], [S/n],
    [J/n]) and that letter takes the saved match up."""
    import re

    from burraco.cli.play_cmd import YES
    from burraco.tui.i18n import Translator

    text = Translator(lang)("resume_prompt", variant="italian", n=2)
    m = re.search(r"\[(\w)/n\]", text)
    assert m, text
    assert m.group(1) == {"en": "Y", "it": "S", "pt": "S", "de": "J"}[lang]
    assert m.group(1).lower() in YES and "n" not in YES
