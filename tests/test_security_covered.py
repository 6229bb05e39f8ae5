"""Issue 23 item 9: covered discards of a closed pile are in no payload.

RULES.md, "Switches": brazilian takes the pile "only with a natural pair matching
the top card" ("closed"), and the Brazilian-family table says of the closed pile
"only the top card shows" (seed 000, "oberste Karte des Ablegestapels"; seed 003's
`closed` mode).  :data:`burraco.observer.VISIBILITY` states it as data:
``"pile top"`` everyone, ``"covered discards"`` nobody where the pile is closed,
everyone where it is open; ``"drawn card"`` its own seat.

A whole hand is played on a real ``burraco serve`` by four people over
WebSockets, with a spectator watching.  Every few moves each seat and a
spectator connect again, once without ``since`` (a snapshot, whose ``log`` is
the hand so far) and once with ``since`` a few events back (the catch-up
events).  Every event of every frame -- live, snapshot log, catch-up -- is held,
field by field and event type by event type, to the table:

* a ``discard``'s card is shown when the event is read while that card is the
  top card (live, or the last discard since), and read once another card covers
  it, it is ``null`` with ``"covered": true`` -- where the pile is closed; where
  it is open (italian) every discard keeps its card;
* a ``draw``/``redraw`` names its card to its own seat only, and afterwards
  only while that turn is under way (its own past draws would tell a
  reconnecting seat which of its cards lie covered);
* ``meld``/``add``/``pickup`` name the cards laid (the melds: everyone);
* every other kind names no card at all;
* the hand's whole record (``/api/tables/ID/hands/0/record``) answers 409 while
  the hand is played, to a seat and to a spectator, and is served once it is over
  (every card is public then, by design).

The truth each read is checked against is rebuilt from the live events alone,
by the rule above (not by the server's code).
"""

from __future__ import annotations

import queue
import random
import re
import time
from typing import Any, Dict, List, Optional, Tuple

import pytest

from server_harness import FAST, Client, Server, Sock, shared_inbox

from burraco import observer as ob
from burraco.variants import PILE_OPEN, parse_variant

CARD = re.compile(r"^(?:[A2-9TJQK][CDHS]|JK)$")
NO_CARDS_KEYS = {"text", "from", "player", "id", "table", "variant", "name"}
KINDS = {"move", "time_out", "hand_start", "hand_over", "match_over", "seat", "status",
         "chat", "rematch", "deal_commit", "contribution"}


def cards_in(x: Any, key: Optional[str] = None) -> List[str]:
    """Every card string in ``x`` (not in names or chat text)."""
    if key in NO_CARDS_KEYS:
        return []
    if isinstance(x, dict):
        return [c for k, v in x.items() if k != "view" for c in cards_in(v, k)]
    if isinstance(x, list):
        return [c for v in x for c in cards_in(v, key)]
    return [x] if isinstance(x, str) and CARD.match(x) else []


class Truth:
    """The hand as the live events told it (the spectator's stream: every move, the
    discards' cards among them)."""

    def __init__(self) -> None:
        self.live: Dict[int, dict] = {}  # version -> live event (spectator's)

    def add(self, ev: dict) -> None:
        if ev.get("type") == "event" and not ev.get("catchup"):
            self.live[ev["version"]] = ev

    def moves_of_hand(self, hand: int, upto: int) -> List[dict]:
        return [e for v, e in sorted(self.live.items())
                if v <= upto and e["kind"] == "move" and e["hand"] == hand]

    def state_at(self, hand: int, upto: int) -> Tuple[set, set]:
        """As of version ``upto``: the versions of the discards whose card another card
        has covered since (pickups end a pile; a redraw throws a card onto it), and
        the versions of the draws of the turn under way."""
        covered, top, turn, turn_seat = set(), None, [], None
        for e in self.moves_of_hand(hand, upto):
            a = e["move"]["action"]
            if e["seat"] != turn_seat:
                turn, turn_seat = [], e["seat"]
            if a in ("draw", "redraw"):
                turn.append(e["version"])
            if a in ("discard", "redraw"):
                if top is not None:
                    covered.add(top)
                top = e["version"] if a == "discard" else None
            elif a == "pickup":
                top = None
            if a == "discard":
                turn, turn_seat = [], None
        last = max((v for v, e in self.live.items() if v <= upto), default=0)
        if last and self.live[last]["kind"] in ("hand_over", "match_over"):
            turn = []
        return covered, set(turn)


class Checker:
    """Holds every event a recipient reads to :data:`burraco.observer.VISIBILITY`."""

    def __init__(self, variant: str) -> None:
        v = parse_variant(variant)
        self.pile = "open" if v.pile == PILE_OPEN else "closed"
        self.truth = Truth()
        self.reads: List[Tuple[Optional[int], int, dict, str]] = []
        self.stats = {"covered_hidden": 0, "covered_shown": 0, "top_shown": 0,
                      "kinds": set(), "reads": {"live": 0, "snapshot": 0, "catchup": 0}}

    def who(self, zone: str) -> str:
        return ob.VISIBILITY[zone][self.pile]

    def read(self, seat: Optional[int], at: int, ev: dict, how: str) -> None:
        """Remember an event ``seat`` read when the table was at version ``at``."""
        self.reads.append((seat, at, ev, how))

    def check_all(self) -> None:
        for seat, at, ev, how in self.reads:
            self.check(seat, at, ev, how)

    def check(self, seat: Optional[int], at: int, ev: dict, how: str) -> None:
        where = f"{how} event v{ev['version']} ({ev['kind']}) read by seat {seat} at v{at}"
        kind = ev["kind"]
        assert kind in KINDS, where
        self.stats["kinds"].add(kind)
        self.stats["reads"][how] += 1
        if kind in ("deal_commit", "contribution"):
            # the fair deal's steps: the seal and who sent a value, never the secret
            # seed and salt (revealed only in hand_over) nor a seat's value
            assert not {"seed", "salt", "value"} & set(ev), f"{where}: {sorted(ev)}"
        if kind != "move":
            assert cards_in(ev) == [], f"{where}: names {cards_in(ev)}"
            return
        live = self.truth.live[ev["version"]]
        mv, a = ev["move"], ev["move"]["action"]
        assert a == live["move"]["action"] and ev["seat"] == live["seat"], where
        covered, turn = self.truth.state_at(ev["hand"], at)
        rest = {k: x for k, x in ev.items() if k != "move"}
        assert cards_in(rest) == [], f"{where}: names {cards_in(rest)} outside its move"
        if a in ("draw", "redraw"):
            own = self.who("drawn card") == ob.OWN and seat == ev["seat"]
            if how == "live":
                assert ("card" in mv) == own, where
            else:
                # afterwards: its own seat's card only while that turn is under way
                # (a closed pile); where every discard is seen, the card stays
                may = own and (ev["version"] in turn or self.who("covered discards") == ob.ALL)
                assert "card" not in mv or may, f"{where}: {mv}"
                if not may:
                    assert cards_in(mv) == [], where
            return
        if a == "discard":
            if ev["version"] in covered:
                if self.who("covered discards") == ob.NONE:
                    assert mv["card"] is None and ev.get("covered") is True, \
                        f"{where}: a covered discard shows {mv}"
                    self.stats["covered_hidden"] += 1
                else:
                    assert mv["card"] == live["move"]["card"] and not ev.get("covered"), where
                    self.stats["covered_shown"] += 1
            else:
                assert self.who("pile top") == ob.ALL
                assert mv["card"] == live["move"]["card"] and not ev.get("covered"), where
                self.stats["top_shown"] += 1
            return
        # meld, add, pickup: the cards laid go to the melds, which everyone sees
        assert self.who("melds") == ob.ALL
        assert mv == live["move"], where


def new_sock(client: Client, tid: str) -> Sock:
    return client.sock(tid, inbox=queue.Queue())


def late_reads(chk: Checker, people: List[Client], watcher: Client, tid: str,
               hand_base: int, seats: List[Optional[int]]) -> None:
    """Each seat and the spectator connect again: a snapshot, then a catch-up."""
    for who, seat in zip(people + [watcher], seats):
        s = new_sock(who, tid)
        got = s.hello(None)
        assert got[0]["you"]["seat"] == seat
        snap = got[-1]
        assert snap["type"] == "snapshot", snap
        for ev in snap["log"]:
            chk.read(seat, snap["version"], ev, "snapshot")
        view = snap["view"]
        if view is not None:
            shown = len(view["pile"])
            assert shown == (view["pile_count"] if chk.pile == "open"
                             else min(1, view["pile_count"]))
        s.close()
        since = max(hand_base, max(chk.truth.live, default=0) - 25)
        s = new_sock(who, tid)
        got = s.hello(since)
        target = got[0]["version"]
        for m in got[1:]:
            if m["type"] == "snapshot":
                for ev in m["log"]:
                    chk.read(seat, m["version"], ev, "snapshot")
            elif m["type"] == "event":
                assert m.get("catchup") is True, m
                chk.read(seat, target, m, "catchup")
        s.close()


def play_hand(server: Server, variant: str, players: int, seed: int) -> Checker:
    rng = random.Random(seed)
    chk = Checker(variant)
    people = [Client(server, f"P{i}") for i in range(players)]
    watcher = Client(server, "Watcher")
    t = people[0].create(variant=variant, players=players, seat=0, public=True)
    tid = t["table"]["id"]
    inbox = shared_inbox()
    spec = watcher.sock(tid, inbox=inbox)
    spec.hello(None)  # watching from the start: the seat and status events too
    for i, p in enumerate(people[1:], 1):
        assert p.join(tid)["seat"] == i
    while True:  # the seat, status and hand_start events, live
        m = spec.next()
        if m.get("type") == "event":
            chk.truth.add(m)
            chk.read(None, m["version"], m, "live")
            if m["kind"] == "hand_start":
                break
    hand_base: Optional[int] = m["version"]
    socks = [p.sock(tid, inbox=inbox) for p in people]
    seats: List[Optional[int]] = list(range(players)) + [None]
    for s in socks:
        s.hello(None)
    socks[1].send({"type": "chat", "text": "my last discard was 7H JK"})
    sent: Dict[int, int] = {}
    moves = 0
    next_read = 6
    end = time.time() + 240
    done = False
    while not done:
        assert time.time() < end, "the hand did not finish in time"
        for s in socks:
            if s.my_turn() and sent.get(id(s)) != s.version:
                sent[id(s)] = s.version
                s.send({"type": "move", "version": s.version,
                        "move": rng.choice(s.view["legal"])})
        try:
            s, m = inbox.get(timeout=0.5)
        except queue.Empty:
            continue
        assert m is not None, "a socket closed"
        s.absorb(m)
        if m.get("type") == "error":
            continue  # a stale move: the next view brings the turn again
        if m.get("type") != "event":
            continue
        seat = seats[(socks + [spec]).index(s)]
        chk.read(seat, m["version"], m, "live")
        if s is spec:
            chk.truth.add(m)
            if m["kind"] == "hand_start" and hand_base is None:
                hand_base = m["version"]
            if m["kind"] == "move":
                moves += 1
            if m["kind"] == "hand_over":
                done = True
        if s is spec and m["kind"] == "move" and moves >= next_read and not done:
            first = next_read == 6
            next_read += rng.randrange(8, 20)
            late_reads(chk, people, watcher, tid, hand_base or 0, seats)
            # the whole record (every card) only once the hand is over (asked at the
            # first read, 6 moves in: no move in flight can end the hand meanwhile)
            for c in (watcher, people[1]) if first else ():
                r = c.http.get(f"/api/tables/{tid}/hands/0/record")
                assert r.status_code == 409 and r.json()["error"]["code"] == "conflict", r.text
                assert c.http.get(f"/api/tables/{tid}/hands").json()["hands"] == []
    # the hand is over: the others' last events, then the late reads once more
    for s in socks:
        s.seen(lambda m: m.get("kind") == "hand_over")
    late_reads(chk, people, watcher, tid, hand_base or 0, seats)
    r = watcher.http.get(f"/api/tables/{tid}/hands/0/record")  # public by design now
    assert r.status_code == 200 and r.json()["moves"], r.text
    # every read is checked against the whole live story: every event the spectator
    # saw (the seats may have begun the next hand meanwhile)
    want = {ev["version"] for _, _, ev, _ in chk.reads}
    deadline = time.time() + 10
    while not want <= set(chk.truth.live) and time.time() < deadline:
        try:
            s, m = inbox.get(timeout=0.2)
        except queue.Empty:
            continue
        if m is not None:
            s.absorb(m)
        for m in spec.messages:
            chk.truth.add(m)
    for s in socks + [spec]:
        s.close()
    chk.check_all()
    return chk


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("db") / "server.db"), *FAST)
    yield srv
    srv.stop()


@pytest.mark.parametrize("variant", ["brazilian", "closed"])
def test_no_covered_discard_in_any_frame_of_a_closed_pile(server, variant):
    """Brazilian (seed 000) and seed 003's `closed` mode: a discard covered since is
    read by no seat and no spectator, in no snapshot and no catch-up; the live
    discard and the top card are read by all."""
    chk = play_hand(server, variant, 4, 23)
    st = chk.stats
    assert st["covered_hidden"] > 0 and st["covered_shown"] == 0, st
    assert st["top_shown"] > 0 and all(n > 0 for n in st["reads"].values()), st
    assert {"move", "hand_start", "hand_over", "seat", "status", "chat"} <= st["kinds"], st


def test_an_open_pile_keeps_every_discard_in_view(server):
    """Italian (seed 001): the pile is open, every discard stays readable in every
    snapshot and catch-up, covered or not."""
    chk = play_hand(server, "italian", 4, 24)
    st = chk.stats
    assert st["covered_shown"] > 0 and st["covered_hidden"] == 0, st
    assert all(n > 0 for n in st["reads"].values()), st
