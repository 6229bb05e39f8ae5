"""The leak test of ``burraco serve``: every event type, to every recipient (each
seat and a spectator), in random hands of every preset at every table size,
through the server's own hub, store (SQLite) and rendering.  A message fails the
test if it names a card that is not in that recipient's view (its hand, the
known cards, the melds, the visible pile), or if a view it carries differs from
the engine's view for that seat (a spectator's: no hand, no legal moves)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from typing import Optional

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("starlette")

from burraco.server.hub import Conn, Hub, Settings  # noqa: E402
from burraco.server.store import Store  # noqa: E402
from burraco.server.table import TableCore, now  # noqa: E402
from burraco.cards import format_cards  # noqa: E402
from burraco.variants import PRESETS  # noqa: E402

CARD = re.compile(r"^(?:[A2-9TJQK][CDHS]|JK)$")
SKIP_KEYS = {"text", "from", "player", "id", "table", "variant"}


def cards_in(obj, skip_view: bool = True) -> Counter:
    """Every card string in a message (not in chat text, names, or the view)."""
    out: Counter = Counter()

    def walk(x, key=None):
        if key in SKIP_KEYS or (skip_view and key == "view"):
            return
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str) and CARD.match(x):
            out[x] += 1

    walk(obj)
    return out


def visible(view: Optional[dict]) -> Counter:
    """The cards a view shows (what its recipient may see)."""
    c: Counter = Counter()
    if not view:
        return c
    c.update(view["hand"])
    c.update(x for k in view["known"] for x in k)
    c.update(x for side in view["melds"] for m in side for x in m["cards"])
    c.update(view["pile"])
    return c


def public_cards(move) -> set:
    """The card kinds a move shows to everybody."""
    if move.action in ("discard", "meld", "add", "pickup"):
        return set(format_cards(move.cards))
    return set()


class Recipient:
    def __init__(self, hub: Hub, player: dict) -> None:
        self.conn = Conn(player, None, hub.settings)
        self.view: Optional[dict] = None
        self.kinds: set = set()
        self.count = 0
        self.seen: set = set()  # every card kind a view has shown this recipient

    def check(self, core: TableCore, final: bool, public: set) -> None:
        """Check every queued message; with ``final``, the last view against the engine."""
        seat = self.conn.seat
        last = None
        msgs = []
        while not self.conn.queue.empty():
            msgs.append(json.loads(self.conn.queue.get_nowait()))
        views = [m["view"] for m in msgs if m.get("view") is not None]
        batch_view = visible(views[-1]) if views else Counter()
        for m in msgs:
            self.count += 1
            if m["type"] == "event":
                self.kinds.add(m["kind"])
            if m["type"] == "snapshot":
                for e in m["log"] + m["chat"]:
                    assert "view" not in e
            if "view" in m:
                self.view = m["view"]
                if self.view is not None:
                    assert self.view["seat"] == seat
                    if seat is None:
                        assert self.view["hand"] == [] and self.view["legal"] == []
                    last = self.view
                    self.seen.update(visible(self.view))
            # a card outside the view may only be one seen otherwise: in another view of
            # this batch or before, or in a public move of the hand (a discard covered since)
            extra = cards_in(m) - (visible(self.view) | batch_view)
            extra = Counter({c: n for c, n in extra.items()
                             if c not in self.seen and c not in public})
            assert not extra, f"{m['type']} {m.get('kind')} shows {dict(extra)} to seat {seat}: {m}"
            if m.get("kind") == "move" and m["move"]["action"] in ("draw", "redraw"):
                if m.get("catchup"):  # a past turn's draw of a closed pile: no card (covered.py)
                    assert "card" not in m["move"] or m["seat"] == seat
                else:
                    assert ("card" in m["move"]) == (m["seat"] == seat)
        if final and last is not None and core.state is not None and not core.state.is_over:
            assert last == core.view(seat)
            if seat is not None:
                assert last == core.state.view(seat).to_dict()


async def play_table(hub: Hub, variant: str, players: int, seed: int, kinds: set) -> int:
    rng = random.Random(seed)
    public: set = set()
    core = TableCore(f"t{variant}{players}{seed}".replace(":", "_"),
                     {"variant": variant, "players": players, "target": 1, "clock": 0,
                      "hand_time": None, "seed": seed}, True, "inv", now())
    h = await hub.add(core)
    people = [{"id": f"p{i}", "name": f"P{i}", "registered": False, "bot": None,
               "rating": None} for i in range(players)]
    recips = [Recipient(hub, p) for p in people] + [Recipient(hub, {"id": "w", "name": "W",
                                                                      "registered": False,
                                                                      "bot": None,
                                                                      "rating": None})]
    for r in recips:
        await hub.hello(h, r.conn, None)
    for i, p in enumerate(people):
        await hub.mutate(h, lambda c, i=i, p=p: (c.sit(i, p, now()),
                                                 c.full() and c.start(now())))
        for r in recips:
            r.check(h.core, False, public)
        await hub.reseat(h, p["id"])
    for r in recips:
        r.check(h.core, True, public)
    moves = 0
    hands = 0
    while h.core.status == "playing" and hands < 3:
        core = h.core
        st = core.state
        seat = st.turn
        legal = st.legal_moves()
        mv = rng.choice(legal)
        roll = rng.random()
        if roll < 0.01:
            await hub.mutate(h, lambda c: c.add_chat(people[0], 0, "7H and JK <b>", now()))
        elif roll < 0.015 and core.variant.time_out_minutes:
            await hub.mutate(h, lambda c: c.call_time(now()))
        elif roll < 0.02:
            s = rng.randrange(players)
            await hub.mutate(h, lambda c: c.drop(s, now()))
            await hub.mutate(h, lambda c: c.go_away(s, now()))
            await hub.mutate(h, lambda c: c.come_back(s, now()))
        elif roll < 0.025:
            # a late-comer: a snapshot, and a catch-up from a few events back
            for since in (None, max(h.core.st["hand_base"], h.core.version - 3)):
                r = Recipient(hub, people[rng.randrange(players)] if rng.random() < .7
                              else {"id": "x", "name": "X", "registered": False, "bot": None,
                                    "rating": None})
                await hub.hello(h, r.conn, since)
                r.check(h.core, True, public)
                kinds.update(r.kinds)
                h.conns.discard(r.conn)
        before = h.core.st["hand"]
        public.update(public_cards(mv))
        await hub.mutate(h, lambda c: c.play(seat, mv, "player", now()))
        moves += 1
        if h.core.st["hand"] != before or h.core.status != "playing":
            hands += 1
        for r in recips:
            r.check(h.core, True, public)
    if h.core.status == "over":
        await hub.mutate(h, lambda c: c.mark_rematch("next", now()))
        for r in recips:
            r.check(h.core, False, public)
    for r in recips:
        kinds.update(r.kinds)
    h.conns.clear()
    if h.task:
        h.task.cancel()
    return moves


def test_no_card_leaks_to_any_recipient(tmp_path):
    store = Store(str(tmp_path / "leak.db"))
    store.migrate()
    hub = Hub(store, Settings(bot_delay=0, hand_pause=0, grace=3600))
    kinds: set = set()

    async def main():
        total = 0
        for name, v in PRESETS.items():
            for players in v.players:
                total += await play_table(hub, name, players, 100 + players, kinds)
        total += await play_table(hub, "italian", 4, 7, kinds)
        total += await play_table(hub, "brazilian:hand_size=13", 4, 9, kinds)
        await hub.stop()
        return total

    total = asyncio.run(main())
    assert total > 1000
    assert kinds >= {"move", "time_out", "hand_start", "hand_over", "match_over", "seat",
                     "status", "chat", "rematch"}, kinds
