"""The server's messages and their typed models (issue 27): docs/protocol.md is
checked against ``burraco.server.wire`` and ``burraco.server.replies`` field by
field, and the frames and answers of real games are checked against the models
at run time (every key declared, every required key present, every value of its
declared kind), so that neither a field the server sends nor one the document
names can drift from the models that mypy checks where the messages are built."""

from __future__ import annotations

import asyncio
import json
import random
import re
import typing
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Set

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("starlette")

from burraco.server import between, deals, replies, wire  # noqa: E402
from burraco.server.hub import Conn, Hub, Settings  # noqa: E402
from burraco.server.store import Store  # noqa: E402
from burraco.server.table import TableCore, bot_player, now  # noqa: E402

DOC = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")

HEAD = {"type", "version", "kind", "hand", "at"}
"""What every event carries (docs/protocol.md, "Events")."""

SECRET = {"move": {"card"}}
"""Stored facts an event does not carry as they are: a draw's card goes into the
``move`` of the seat that drew only (render.py)."""

SHOWN = {"move": {"covered"}}
"""What an event of a kind adds to its data for a recipient reading it afterwards."""


# ------------------------------------------------------------ model helpers
def hints(td: Any) -> Dict[str, Any]:
    """A TypedDict's fields and their types."""
    return typing.get_type_hints(td)


def is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def reachable(tp: Any, seen: Optional[Set[int]] = None) -> Set[str]:
    """Every field name of a model and of the models inside it."""
    seen = set() if seen is None else seen
    if id(tp) in seen:
        return set()
    seen.add(id(tp))
    out: Set[str] = set()
    if is_typeddict(tp):
        for k, v in hints(tp).items():
            out.add(k)
            out |= reachable(v, seen)
    for a in typing.get_args(tp):
        out |= reachable(a, seen)
    return out


def conforms(value: Any, tp: Any, where: str = "$") -> None:
    """AssertionError naming the place where ``value`` is not of type ``tp``."""
    if tp is Any:
        return
    origin = typing.get_origin(tp)
    if origin is typing.Union:
        errors = []
        for arm in typing.get_args(tp):
            try:
                conforms(value, arm, where)
                return
            except AssertionError as e:
                errors.append(str(e))
        raise AssertionError(f"{where}: {value!r} is none of {tp}: {errors}")
    if origin is typing.Literal:
        assert value in typing.get_args(tp), f"{where}: {value!r} is not one of {tp}"
        return
    if tp is type(None):
        assert value is None, f"{where}: {value!r} is not null"
        return
    if is_typeddict(tp):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object ({tp.__name__})"
        fields = hints(tp)
        extra = set(value) - set(fields)
        assert not extra, f"{where}: {sorted(extra)} are not fields of {tp.__name__}"
        missing = set(tp.__required_keys__) - set(value)
        assert not missing, f"{where}: {tp.__name__} lacks {sorted(missing)}"
        for k, v in value.items():
            conforms(v, fields[k], f"{where}.{k}")
        return
    if origin in (list, List):
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        (arg,) = typing.get_args(tp) or (Any,)
        for i, x in enumerate(value):
            conforms(x, arg, f"{where}[{i}]")
        return
    if origin in (dict, Dict):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        _, arg = typing.get_args(tp) or (Any, Any)
        for k, x in value.items():
            conforms(x, arg, f"{where}.{k}")
        return
    if tp is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, tp)
    assert ok, f"{where}: {value!r} is not {getattr(tp, '__name__', tp)}"


def event_fields(kind: str) -> Set[str]:
    """The fields an event of ``kind`` carries besides the head: its data's, less
    its secrets, plus what a later reading adds."""
    return (set(hints(wire.KIND_DATA[kind])) - SECRET.get(kind, set())) | SHOWN.get(kind, set())


def check_frame(frame: Dict[str, Any]) -> None:
    """A frame conforms to its type's model; an event's fields to its kind's."""
    model = wire.FRAMES[frame["type"]]
    conforms(frame, model, frame["type"])
    events: List[Dict[str, Any]] = []
    if frame["type"] == "event":
        events = [frame]
    elif frame["type"] == "snapshot":
        events = frame["log"] + frame["chat"]
    for ev in events:
        own = set(ev) - HEAD - set(wire.EVENT_EXTRAS)
        assert own <= event_fields(ev["kind"]), \
            f"{ev['kind']} carries {sorted(own - event_fields(ev['kind']))}: {ev}"
        required = set(getattr(wire.KIND_DATA[ev["kind"]], "__required_keys__", set()))
        assert required - SECRET.get(ev["kind"], set()) <= set(ev), ev


# ------------------------------------------------------------ the document
def section(title: str) -> str:
    """The text of a section of docs/protocol.md, to the next heading of any level."""
    m = re.search(r"^#+ " + re.escape(title) + r".*?$(.*?)(?=^#+ )", DOC, re.M | re.S)
    assert m, f"docs/protocol.md has no section {title!r}"
    return m.group(1)


def rows(text: str, header: Optional[str] = None) -> Dict[str, List[str]]:
    """A markdown table's rows: the first cell's first code span -> the other
    cells (the first table of ``text``, or the one whose header line starts
    with ``header``)."""
    out: Dict[str, List[str]] = {}
    lines = text.splitlines()
    if header is not None:
        lines = lines[next(i for i, x in enumerate(lines) if x.startswith(header)):]
    started = False
    for line in lines:
        if not line.startswith("|"):
            if started:
                break
            continue
        started = True
        if line.startswith("|---"):
            continue
        cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
        m = re.search(r"`([^`]+)`", cells[0])
        if m:
            out[m.group(1)] = cells[1:]
    return out


def without_parens(text: str) -> str:
    """``text`` without what stands in parentheses (nested too): explanations."""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def named_fields(cell: str) -> Set[str]:
    """The fields a table cell names: each code span that is a field name (or
    ``name: ...``), outside parentheses; quoted values and JSON are not names."""
    out = set()
    for span in re.findall(r"`([^`]+)`", without_parens(cell)):
        m = re.fullmatch(r"([a-z_]+)(?::.*)?", span)
        if m:
            out.add(m.group(1))
    return out


def json_keys(text: str) -> Set[str]:
    """The keys a JSON sketch of the document names (``"key":`` and the bare
    ``{"name", ...}`` lists), not its string values."""
    return set(re.findall(r'(?<![:|])(?<![:|] )"([a-z_]+)"(?=\s*[:,}\]])', text))


def code_block(text: str) -> str:
    m = re.search(r"```json\n(.*?)```", text, re.S)
    assert m, "no JSON block"
    return m.group(1)


# --------------------------------------------------- the document vs models
def test_every_event_kind_documented_has_its_model_and_fields():
    table = rows(section("Events"))
    assert set(table) == set(wire.KIND_DATA), \
        f"kinds: documented only {sorted(set(table) - set(wire.KIND_DATA))}, " \
        f"modelled only {sorted(set(wire.KIND_DATA) - set(table))}"
    for kind, cells in table.items():
        documented = named_fields(" ".join(cells)) - HEAD
        modelled = event_fields(kind) - HEAD
        assert documented == modelled, \
            f"{kind}: the document names {sorted(documented - modelled)} that the model " \
            f"lacks, the model has {sorted(modelled - documented)} that it does not name"


def test_the_event_model_is_the_union_of_the_kinds():
    union = set().union(*(event_fields(k) for k in wire.KIND_DATA))
    assert set(hints(wire.Event)) == union | HEAD | set(wire.EVENT_EXTRAS)
    assert wire.Event.__required_keys__ == HEAD


def test_every_server_frame_documented_has_its_model():
    table = rows(section("Server -> client"))
    assert set(table) == set(wire.FRAMES)
    for kind, cells in table.items():
        documented = named_fields(" ".join(cells)) | {"type"}
        modelled = set(hints(wire.FRAMES[kind]))
        if kind == "event":  # "the kind's fields": checked kind by kind above
            assert documented <= modelled, sorted(documented - modelled)
        else:
            assert documented == modelled, \
                f"{kind}: named only {sorted(documented - modelled)}, " \
                f"modelled only {sorted(modelled - documented)}"


@pytest.mark.parametrize("title,model", [
    ("Table summary", wire.TableSummary),
    ("Snapshot", wire.Snapshot),
    ("Errors", wire.ErrorFrame),
    ("The leaderboard", replies.LeaderboardReply),
    ("A hand step by step", replies.ReplayReply),
])
def test_json_sketches_name_the_models_fields(title, model):
    keys = json_keys(code_block(section(title)))
    opaque = {"player", "action", "cards"}  # a move's (RECORD.md), not the server's model
    assert keys - opaque <= reachable(model), sorted(keys - opaque - reachable(model))
    assert set(hints(model)) <= keys, \
        f"{model.__name__}: {sorted(set(hints(model)) - keys)} not in the document's sketch"


def test_http_answers_documented_have_their_models():
    table = rows(DOC, header="| method, path | body | answer |")
    for endpoint, model in replies.ENDPOINTS.items():
        assert endpoint in table, f"docs/protocol.md has no row {endpoint!r}"
        keys = json_keys(table[endpoint][-1])  # the answer's column
        assert keys, endpoint
        assert keys <= reachable(model), \
            f"{endpoint}: the document names {sorted(keys - reachable(model))}"
        assert set(hints(model)) <= keys, \
            f"{endpoint}: {sorted(set(hints(model)) - keys)} are not documented"


def test_the_doc_check_would_fail_on_a_missing_field():
    """The checks above are not vacuous: a field dropped from a row is caught."""
    cell = " ".join(rows(section("Events"))["rematch"])
    assert named_fields(cell) == {"table"}
    assert named_fields(cell.replace("`table`", "`tabel`")) != event_fields("rematch") - HEAD
    with pytest.raises(AssertionError):
        conforms({"type": "pong", "version": 1, "extra": 0}, wire.Pong)
    with pytest.raises(AssertionError):
        conforms({"type": "pong"}, wire.Pong)
    with pytest.raises(AssertionError):
        conforms({"type": "pong", "version": "1"}, wire.Pong)


# ------------------------------------------------------ real games' frames
def person(i: int) -> wire.Player:
    return {"id": f"p{i}", "name": f"P{i}", "registered": False, "bot": None, "rating": None}


def frames(conn: Conn) -> List[Dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        out.append(json.loads(conn.queue.get_nowait()))
    return out


async def play(hub: Hub, tid: str, variant: str, players: int, seed: Optional[int],
               rng: random.Random, pause: float = 0, target: int = 1
               ) -> Iterable[Dict[str, Any]]:
    core = TableCore(tid, {"variant": variant, "players": players, "target": target, "clock": 30,
                           "hand_time": None, "seed": seed, "deal_wait": 3.0,
                           "pause": pause}, True, "inv", now())
    h = await hub.add(core)
    people = [person(i) for i in range(players)]
    conns = [Conn(p, None, hub.settings) for p in people]
    watcher = Conn(person(99), None, hub.settings)
    for c in conns + [watcher]:
        await hub.hello(h, c, None)
    out: List[Dict[str, Any]] = []
    if players > 2:  # a seat taken and given up before the match: free again
        await hub.mutate(h, lambda c: c.sit(1, people[1], now()))
        await hub.mutate(h, lambda c: c.sit(0, people[0], now()))
        await hub.mutate(h, lambda c: c.leave(0, now()))
        await hub.mutate(h, lambda c: c.close_if_empty(now()) and None)  # not empty: stays
        assert h.core.status == "waiting"
    for i, p in enumerate(people[:-1]):
        if players > 2 and i == 1:
            continue
        await hub.mutate(h, lambda c, i=i, p=p: c.sit(i, p, now()))
    await hub.mutate(h, lambda c: (c.sit(players - 1, bot_player("greedy"), now()),
                                   c.start(now())))
    hands = 0
    for _ in range(3000):
        core = h.core
        if core.status != "playing" or hands >= 2:
            break
        if core.st.get("between"):  # the pause: everyone says ready, with a share
            for i in range(players - 1):
                await hub.mutate(h, lambda c, i=i: between.say_ready(
                    c, i, c.st["between"]["hand"], "cd" * 16, now()))
            continue
        if deals.pending(core.st):  # a fair deal: every seated person contributes
            for i in range(players - 1):
                if core.st["deal"]["contributions"][i] is None:
                    await hub.mutate(h, lambda c, i=i: deals.contribute(
                        c, f"p{i}", c.st["deal"]["hand"], "ab" * 16, now()))
            if deals.pending(h.core.st):
                await hub.mutate(h, lambda c: deals.deal_due(c, now() + 3600))
            continue
        st = core.state
        assert st is not None
        roll = rng.random()
        if roll < 0.02:
            await hub.mutate(h, lambda c: c.add_chat(people[0], 0, "ciao <b>", now()))
            await hub.mutate(h, lambda c: c.add_chat(people[1], 1, None, now(), "good_game"))
        elif roll < 0.03:
            s = rng.randrange(players - 1)
            await hub.mutate(h, lambda c: c.drop(s, now()))
            await hub.mutate(h, lambda c: c.tell_drop(s, now() + 60))
            await hub.mutate(h, lambda c: c.go_away(s, now()))
            await hub.mutate(h, lambda c: c.come_back(s, now()))
        elif roll < 0.04:  # a late-comer: a snapshot and a catch-up
            late = Conn(people[rng.randrange(players)], None, hub.settings)
            await hub.hello(h, late, max(h.core.st["hand_base"], h.core.version - 3))
            await hub.hello(h, Conn(person(98), None, hub.settings), None)
            out += frames(late)
            h.conns.discard(late)
        elif roll < 0.045 and core.variant.time_out_minutes:
            await hub.mutate(h, lambda c: c.call_time(now()))
        core = h.core  # as the actions above left it (a time-out moves the turn)
        st = core.state
        if core.status != "playing" or st is None or st.is_over:
            continue
        before = core.st["hand"]
        mv = rng.choice(st.legal_moves())
        seat = st.turn
        await hub.mutate(h, lambda c: c.play(seat, mv, "player", now()))
        if h.core.st["hand"] != before or h.core.status != "playing":
            hands += 1
    if h.core.status == "over":
        await hub.mutate(h, lambda c: c.mark_rematch("next", now()))
    for c in conns + [watcher]:
        out += frames(c)
    for c in list(h.conns):
        out += frames(c)
    h.conns.clear()
    if h.task:
        h.task.cancel()
    return out


def test_frames_of_real_games_conform_to_the_models(tmp_path):
    store = Store(str(tmp_path / "models.db"))
    store.migrate()
    hub = Hub(store, Settings(bot_delay=3600, hand_pause=0, grace=3600))
    rng = random.Random(27)

    async def main() -> List[Dict[str, Any]]:
        got: List[Dict[str, Any]] = []
        got += await play(hub, "seeded", "italian", 4, 11, rng)
        got += await play(hub, "fair", "burraco-2p", 2, None, rng, pause=20, target=10000)
        got += await play(hub, "closed", "brazilian", 2, 5, rng)
        got += await play(hub, "tourney", "italian-tournament", 4, 3, rng)
        await hub.stop()
        return got

    got = asyncio.run(main())
    kinds = {f.get("kind") for f in got if f["type"] == "event"}
    types = {f["type"] for f in got}
    for f in got:
        check_frame(f)
    assert types >= {"welcome", "snapshot", "event"}, types
    assert kinds >= {"move", "hand_start", "hand_over", "seat", "status", "chat",
                     "deal_commit", "contribution", "between", "ready"}, kinds
    assert len(got) > 500


# ------------------------------------------------------- HTTP and the socket
def test_http_answers_and_socket_frames_conform(tmp_path):
    """A real ``burraco serve``: each endpoint's answer and each frame of a socket."""
    from server_harness import FAST, Client, Server

    srv = Server(str(tmp_path / "http.db"), *FAST)  # started: a second start() left one behind
    try:
        c = Client(srv, "Anna")

        def ok(method: str, path: str, model: Any, **kw: Any) -> Dict[str, Any]:
            r = c.http.request(method, path, **kw)
            assert r.status_code == 200, (path, r.text)
            body = r.json()
            conforms(body, model, f"{method} {path}")
            return body

        import httpx

        conforms(httpx.get(srv.base + "/api/me").json(), replies.ErrorReply, "no session")
        ok("GET", "/healthz", replies.Health)
        ok("POST", "/api/session", replies.PlayerReply, json={"name": "Anna"})
        ok("GET", "/api/me", replies.PlayerReply)
        ok("GET", "/api/variants", replies.VariantsReply)
        ok("GET", "/api/bots", replies.BotsReply)
        made = ok("POST", "/api/tables", replies.TableCreated,
                  json={"variant": "burraco-2p", "players": 2, "seats": [None, None], "seat": 0})
        tid = made["table"]["id"]
        ok("GET", "/api/tables", replies.TablesReply)
        ok("GET", f"/api/tables/{tid}", replies.TableReply)
        ok("POST", f"/api/tables/{tid}/join", replies.JoinReply, json={"seat": 0})
        ok("GET", f"/api/tables/{tid}/hands", replies.HandsReply)
        ok("GET", "/api/me/matches", replies.MatchesReply)
        ok("GET", f"/api/players/{c.player['id']}/matches", replies.MatchesReply)
        ok("GET", "/api/site", replies.SiteReply)
        ok("GET", "/api/leaderboard", replies.LeaderboardReply)
        quick = ok("POST", "/api/quickplay", replies.QuickplayReply,
                   json={"variant": "italian", "players": 4})
        ok("POST", f"/api/tables/{quick['table']['id']}/bots", replies.TableReply)
        ok("POST", "/api/i18n/it/explain", replies.ExplainReply,
           json={"rule": "", "params": {}, "message": "x"})
        bad = c.http.post("/api/tables", json={"variant": "nope", "players": 2})
        assert bad.status_code == 400
        conforms(bad.json(), replies.ErrorReply, "a refusal")
        conforms(c.http.get("/api/i18n/xx").json(), replies.PlainErrorReply, "a language")
        ws = c.sock(tid)
        seen = ws.hello(None)
        ws.send({"type": "ping"})
        seen.append(ws.until(lambda m: m["type"] == "pong"))
        ws.send({"type": "move", "version": 0, "move": {"action": "draw"}, "ref": "r1"})
        err = ws.until(lambda m: m["type"] == "error")  # the match has not started
        assert err["ref"] == "r1" and err["code"] == "out_of_turn", err
        ws.send({"type": "chat", "text": "ciao"})
        seen += [err, ws.until(lambda m: m.get("kind") == "chat")]
        ws.close()
        assert {f["type"] for f in seen} >= {"welcome", "snapshot", "pong", "error", "event"}
        for f in seen:
            check_frame(f)
        c.http.close()
    finally:
        srv.stop()
