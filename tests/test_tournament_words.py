"""The tournament pages and printouts speak the four languages of burraco (issue 13
item 5; the words in the shared gettext catalogue, context ``tournament``), and
the standings' tie marks say what the director must do, when."""

from __future__ import annotations

import re
import shutil

import pytest

from burraco import i18n
from burraco.tournament import Settings, Tournament, standings
from burraco.tournament import output
from burraco.tournament.words import WORDS, Words, update

LANGS = [x for x in i18n.LANGS if x != "en"]


def _fields(text: str) -> set:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_is_translated_with_its_placeholders(lang):
    """Every tournament word has its own entry in the language's compiled
    catalogue (never the English fallback), with the English placeholders;
    counted words have a singular and a plural."""
    w = Words(lang)
    tr = i18n.translations(lang)
    catalog = getattr(tr, "_catalog", {})
    for key, entry in WORDS.items():
        if isinstance(entry, tuple):
            assert ("tournament\x04" + entry[0], 0) in catalog, (lang, key)
            one = tr.npgettext("tournament", entry[0], entry[1], 1)
            many = tr.npgettext("tournament", entry[0], entry[1], 5)
            assert _fields(one) == _fields(entry[0]) and _fields(many) == _fields(entry[1])
            continue
        assert "tournament\x04" + entry in catalog, (lang, key)
        got = tr.pgettext("tournament", entry)
        assert got and _fields(got) == _fields(entry), (lang, key)
        assert w(key, **{f: 1 for f in _fields(entry)})


def test_catalogue_section_is_up_to_date(tmp_path):
    """``python -m burraco.tournament.words`` changes nothing: every word of
    WORDS is in each burraco.po with its translation."""
    pytest.importorskip("babel")
    for lang in LANGS:
        po = i18n.LOCALE_DIR / i18n.LOCALES[lang] / "LC_MESSAGES" / "burraco.po"
        copy = tmp_path / f"{lang}.po"
        shutil.copy(po, copy)
        assert update(copy) == 0, lang
        assert copy.read_text(encoding="utf-8") == po.read_text(encoding="utf-8"), \
            f"run python -m burraco.tournament.words ({lang})"


def test_unknown_language_is_named():
    with pytest.raises(ValueError, match="'fr'"):
        Words("fr")


def event(rounds=2, n=4) -> Tournament:
    t = Tournament("Serata", Settings(format="round-robin", rounds=rounds, hands=3))
    for name in "ABCDEFGH"[:n]:
        t.add_entrant(name, (f"{name}1", f"{name}2"))
    return t


def play_round(t: Tournament, diff: int = 0) -> None:
    plan = t.start_round()
    for seat in plan.tables:
        t.enter_result(plan.round, seat.table, [(300 + diff, 300), (300, 300), (300, 300)])
    t.close_round()


@pytest.mark.parametrize("lang,words", [
    ("it", ["Classifica", "Turno 1", "Tavolo", "Nord-Sud", "Smazzata 1", 'lang="it"']),
    ("pt", ["Classificação", "Rodada 1", "Mesa", "Norte-Sul", "Mão 1", 'lang="pt-BR"']),
    ("de", ["Rangliste", "Runde 1", "Tisch", "Nord-Süd", "Spiel 1", 'lang="de"']),
])
def test_printouts_in_the_directors_language(lang, words):
    """Standings, results, tables and score cards in Italian, Portuguese and German;
    English by default."""
    t = event()
    play_round(t, 100)
    page = output.standings_html(t, lang=lang)
    for word in words:
        assert word in page, (lang, word)
    assert "Standings" not in page and "North-South" not in page
    assert words[1] in output.results_html(t, 1, lang=lang)
    assert words[3] in output.assignments_html(t, 1, lang=lang)
    cards = output.scorecards_html(t, lang=lang)
    assert Words(lang)("col_opponents") in cards and "Opponents" not in cards
    text = output.standings_text(t, lang=lang)
    assert Words(lang)("col_pair") in text
    assert "Standings" in output.standings_html(t) and 'lang="en"' in output.standings_html(t)


def test_tie_marks_say_when_a_draw_is_needed():
    """Nothing played: nobody is tied (no mark, everybody first).  Level on
    everything while rounds remain: "tied", sharing a rank.  Once the last round
    is closed: "tied: a draw is needed" (a choice where RULES.md is open)."""
    t = event(rounds=2)
    rows = standings(t)
    assert {r.rank for r in rows} == {1} and all(r.tiebreak == "" for r in rows)
    assert "tied" not in output.standings_text(t)
    play_round(t)                       # every table 0 MP apart: all level
    text = output.standings_text(t)
    assert "tied" in text and "a draw is needed" not in text
    play_round(t)
    assert t.finished
    assert "tied: a draw is needed" in output.standings_text(t)
    assert "serve un sorteggio" in output.standings_html(t, lang="it")
    assert "a draw is needed" not in output.standings_text(t, through=1)


def test_common_refusals_have_words_of_their_own():
    """The refusals players and directors meet most (a table without a result,
    a name not found, a seat taken, ...) carry a key: the pages show them in
    their language; the rest, and English, keep the model's message."""
    from burraco.tournament import TournamentError
    t = event(rounds=1)
    t.start_round()
    with pytest.raises(TournamentError) as ex:
        t.close_round()
    assert str(ex.value) == "round 1: no result yet for tables 1, 2"
    assert Words("it").error(ex.value) == "turno 1: mancano ancora i risultati dei tavoli 1, 2"
    assert Words("en").error(ex.value) == str(ex.value)
    with pytest.raises(TournamentError) as ex:
        t.enter_result(1, 1, [(303, 0), (0, 0), (0, 0)])
    assert Words("de").error(ex.value) == "Spiel 1: 303 ist kein Vielfaches von 5"
    plain = TournamentError("something else entirely")
    assert Words("pt").error(plain) == "something else entirely"
    assert Words("pt").error(TournamentError("x", "no_such_key")) == "x"


def test_msgfmt_accepts_every_catalogue():
    """The tournament section writes a msgid once even when two words share their
    English ("MP", "Round", ...): ``msgfmt -c`` refused the catalogue before."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("gettext's msgfmt is not installed")
    import subprocess
    for lang in LANGS:
        po = i18n.LOCALE_DIR / i18n.LOCALES[lang] / "LC_MESSAGES" / "burraco.po"
        run = subprocess.run([msgfmt, "-c", "-o", "/dev/null", str(po)],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr[-500:]


ITALIAN_SLIPS = ["Iscritto", "Mani preparate", "mani preparate", "correzione", "Punteggio",
                 "iscritto di bot", "italian-tournament"]
"""What the Italian printouts said (issue 26 item 10)."""


def deal_set_event(kind: str = "mitchell") -> Tournament:
    t = Tournament("Serata", Settings(format=kind, rounds=2, hands=3, deal_sets=True,
                                      variant="italian-tournament"))
    for name in "ABCDEFGHIJKL"[:8 if kind != "individual" else 8]:
        t.add_entrant(name, (f"{name}1", f"{name}2") if kind != "individual" else ())
    play_round(t, 100)
    t.adjust("A", 1, 0, "ritardo")
    return t


@pytest.mark.parametrize("lang,pair,variant,deal,adjust", [
    ("it", "Coppia", "Burraco italiano, torneo", "Smazzate preparate", "rettifica"),
    ("pt", "Dupla", "Burraco italiano, torneio", "Mãos preparadas", "ajuste"),
    ("de", "Paar", "Italienisches Burraco, Turnier", "Boardsatz", "Berichtigung"),
    ("en", "Pair", "Italian Burraco, tournament", "Deal set", "adjustment"),
])
def test_the_words_a_federation_uses(lang, pair, variant, deal, adjust):
    """A pair's column is "Coppia" (not "Iscritto"), deal sets are "smazzate",
    an adjustment a "rettifica" (not "correzione", which clashes with "Correggi"),
    a rating is not a "Punteggio", and no heading shows the variant's internal id;
    Portuguese and German checked the same way."""
    w = Words(lang)
    t = deal_set_event()
    pages = "\n".join([output.standings_html(t, lang=lang), output.results_html(t, 1, lang=lang),
                       output.assignments_html(t, 1, lang=lang),
                       output.scorecards_html(t, lang=lang), output.standings_text(t, lang=lang)])
    assert pair in pages and variant in pages and deal in pages and adjust in pages
    assert "italian-tournament" not in pages
    if lang == "it":
        for slip in ITALIAN_SLIPS:
            assert slip not in pages, slip
        assert w("f_rating") == "Rating" and w("b_adjust") != w("b_correct")
        assert "iscritte 3 coppie di bot" == w("m_registered_bot_pairs", n=3)
        assert "iscritto 1 giocatore bot" == w("m_registered_bot_players", n=1)
    if lang == "de":
        assert "Korrektur" not in w("adjustment") and w("f_rating") == "Wertungszahl"
    solo = Tournament("Solo", Settings(format="individual", rounds=1, hands=3))
    for name in "ABCD":
        solo.add_entrant(name)
    assert w("col_player") in output.standings_text(solo, lang=lang)
    assert w.variant_name("italian:hand_size=13").endswith("(hand_size=13)")
    assert w.variant_name("my-own") == "my-own"
