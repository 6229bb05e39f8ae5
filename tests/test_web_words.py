"""The words of the browser table that the server decides (issue 24, item 7): cards as
suit symbols in a refused move's sentence, error answers that say what is wrong as
codes (a page turns them into its language), quick phrases sent by code, and a short
absence (a reload) that nobody is told of."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from pydantic import ValidationError  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from burraco.server import schema  # noqa: E402
from burraco.server.phrases import PHRASES, chat_parts  # noqa: E402
from burraco.server.reasons import validation_reason  # noqa: E402
from burraco.server.table import DROP_QUIET, ProtocolError, TableCore, now  # noqa: E402
from burraco.web import messages  # noqa: E402
from burraco.web.routes import card_text, explain, routes  # noqa: E402

ANNA = {"id": "p_anna", "name": "Anna", "registered": False, "bot": None, "rating": None}
BRUNO = {"id": "p_bruno", "name": "Bruno", "registered": False, "bot": None, "rating": None}
SUIT_OR_RANK = "melds: one suit or one rank"


@pytest.fixture(scope="module")
def client():
    return TestClient(Starlette(routes=routes()))


# ---------------------------------------------------------------- cards in sentences
def test_a_refusal_writes_its_cards_as_suit_symbols(client):
    r = client.post("/api/i18n/it/explain", json={"rule": SUIT_OR_RANK,
                                                  "params": {"cards": ["4C", "3D", "TD"]}})
    text = r.json()["text"]
    assert text.startswith("4♣ 3♦ 10♦ "), text
    assert "4C" not in text and "TD" not in text
    # the joker in the language's word, never "JK"
    it = explain("it", SUIT_OR_RANK, "", {"cards": ["4C", "JK", "6C"]})
    assert "4♣ Jolly 6♣" in it
    assert "4♣ Joker 6♣" in explain("en", SUIT_OR_RANK, "", {"cards": ["4C", "JK", "6C"]})
    assert "Coringa" in explain("pt", "taking the discard pile: closed", "", {"top": "JK"})
    assert "K♠" in explain("de", "taking the discard pile: closed", "", {"top": "KS"})


def test_card_text_leaves_what_is_not_a_card():
    assert card_text("7H", "en") == "7♥"
    assert card_text("TS", "de") == "10♠"
    assert card_text("ZZ", "en") == "ZZ" and card_text(3, "en") == 3


# ---------------------------------------------------------------- error reasons
def _reason(model, data):
    with pytest.raises(ValidationError) as e:
        model.model_validate(data)
    return validation_reason(e.value)


def test_a_validation_error_is_a_reason_with_its_figures():
    message, field, reason, params = _reason(schema.SessionBody, {"name": ""})
    assert (field, reason, params) == ("name", "too_short", {"min": 1})
    assert "String should have" in message  # English for the raw answer only
    assert _reason(schema.SessionBody, {})[1:3] == ("name", "missing")
    assert _reason(schema.SessionBody, {"name": 3})[2] == "wrong_type"
    assert _reason(schema.SessionBody, {"name": "A", "x": 1})[1:3] == ("x", "unknown_field")
    assert _reason(schema.CreateTableBody, {"players": 9})[1:] == ("players", "too_big", {"max": 6})
    assert _reason(schema.CreateTableBody, {"players": 1})[1:] == ("players", "too_small", {"min": 2})
    assert _reason(schema.CreateTableBody, {"hand_time": 0.0})[1:] == ("hand_time", "too_small", {"above": 0})
    assert _reason(schema.MoveBody, {"action": "fly"})[1:3] == ("action", "not_allowed")


def test_http_errors_carry_a_code_field_and_reason(tmp_path):
    pytest.importorskip("sqlalchemy")
    from burraco.server import Settings, create_app

    with TestClient(create_app(Settings(db=str(tmp_path / "s.db")))) as c:
        err = c.post("/api/session", json={"name": ""}).json()["error"]
        assert (err["code"], err["field"], err["reason"], err["params"]) == (
            "malformed", "name", "too_short", {"min": 1})
        err = c.post("/api/session", json={"name": "   "}).json()["error"]
        assert (err["field"], err["reason"], err["params"]) == ("name", "bad_name", {"min": 1, "max": 24})
        assert c.post("/api/session", json={"name": "Anna"}).status_code == 200
        err = c.post("/api/tables", json={"players": 9}).json()["error"]
        assert (err["field"], err["reason"], err["params"]) == ("players", "too_big", {"max": 6})
        err = c.post("/api/tables/nothing/join", json={}).json()["error"]
        assert (err["code"], err["reason"]) == ("not_found", "no_table")


def test_the_page_has_a_sentence_for_every_reason():
    """Each reason the server sends (reasons.py, app.py) has a case in the page's
    errorText (static/js/words.js)."""
    words_js = (messages.STATIC_DIR / "js" / "words.js").read_text()
    for reason in ("missing", "too_short", "too_long", "too_few", "too_many", "too_small",
                   "too_big", "wrong_type", "not_allowed", "unknown_field", "invalid",
                   "not_json", "bad_name", "name_taken", "name_registered", "wrong_login",
                   "no_table", "private", "already_seated", "seat_taken", "match_started",
                   "table_full", "open_tables"):
        assert f'case "{reason}":' in words_js, reason


# ---------------------------------------------------------------- quick phrases
def _table() -> TableCore:
    core = TableCore("T1", {"variant": "burraco-2p", "players": 2}, False, "inv", now())
    core.sit(0, ANNA, now())
    core.sit(1, BRUNO, now())
    core.new_events = []
    return core


def test_a_quick_phrase_is_sent_by_its_code():
    core = _table()
    core.add_chat(ANNA, 0, None, now(), "good_luck")
    ev = core.render(core.new_events[-1], 1)
    assert ev["phrase"] == "good_luck" and ev["text"] == "Good luck!"
    core.add_chat(ANNA, 0, "ciao", now())
    assert "phrase" not in core.new_events[-1]["data"]
    with pytest.raises(ProtocolError) as e:
        core.add_chat(ANNA, 0, None, now(), "you_lose")
    assert e.value.code == "malformed" and "good_luck" in e.value.message
    for text, phrase in ((None, None), ("hi", "thanks")):
        with pytest.raises(ProtocolError):
            core.add_chat(ANNA, 0, text, now(), phrase)
    m = schema.parse_client('{"type": "chat", "phrase": "thanks"}')
    assert m.phrase == "thanks" and m.text is None
    assert chat_parts(None, "good_game") == ("Good game!", "good_game")


def test_every_quick_phrase_is_a_word_of_the_page():
    """The page shows a phrase from its own catalogue: each English sentence of
    phrases.py is a msgid of chat.js, under the same code."""
    chat_js = (messages.STATIC_DIR / "js" / "chat.js").read_text()
    for code, text in PHRASES.items():
        assert f'{code}: () => t("{text}")' in chat_js, code


# ---------------------------------------------------------------- presence
def _seat_events(core: TableCore):
    return [e["data"]["reason"] for e in core.new_events if e["kind"] == "seat"]


def test_a_short_absence_is_no_news():
    core = _table()
    t0 = now()
    core.drop(1, t0)
    assert core.drop_due(1) == pytest.approx(t0 + DROP_QUIET)
    core.come_back(1, t0 + 1)  # a reload: back within the quiet time
    assert _seat_events(core) == [] and core.seats[1]["dropped_at"] is None
    assert core.drop_due(1) is None


def test_a_lasting_absence_is_told_and_so_is_the_return():
    core = _table()
    t0 = now()
    core.drop(1, t0)
    core.tell_drop(1, t0 + DROP_QUIET)
    core.tell_drop(1, t0 + DROP_QUIET + 1)  # told once
    assert core.drop_due(1) is None
    core.come_back(1, t0 + 30)
    assert _seat_events(core) == ["drop", "return"]
    # the grace period ran out before the quiet time: "away" tells it, "return" follows
    core.new_events = []
    core.drop(0, t0 + 40)
    core.go_away(0, t0 + 41)
    assert core.drop_due(0) is None
    core.come_back(0, t0 + 42)
    assert _seat_events(core) == ["away", "return"]


def test_a_seat_dropped_before_this_release_still_returns():
    """A table stored with a dropped seat (no ``told`` key: its drop was told at once)."""
    core = _table()
    core.seats[1]["dropped_at"] = now()
    core.come_back(1, now())
    assert _seat_events(core) == ["return"]


def test_a_leave_names_who_left():
    """``player`` of a ``leave`` event is the seat's new holder (greedy, once the match
    started): the event names who left, so the log does not say a bot left."""
    core = _table()
    core.start(now())
    core.new_events = []
    core.leave(1, now())
    ev = core.render([e for e in core.new_events if e["kind"] == "seat"][-1], 0)
    assert ev["left"]["name"] == "Bruno" and ev["player"]["bot"] == "greedy"
