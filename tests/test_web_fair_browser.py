"""The page's own check of a fair deal (static/js/fair.js), run in real Chromium
against Python: SHA-256 and HMAC-SHA256 against hashlib/hmac, CPython's
random.Random(int) against the MT19937 written in JavaScript, and whole deals of
every variant at every player count (with singles and the brazilian cut) dealt by
burraco.dealing from the scheme's inputs, which the page must find verified; and
tampered records (a stock card moved, a contribution changed, the seed, the
commitment, the cut, a card replaced through the whole deck), which it must not.

The module is served from the package's static directory by a plain HTTP server on
127.0.0.1 and imported in a blank page: no ``burraco serve`` is needed.
Without /usr/bin/chromium or the ``playwright`` package the tests skip.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import hmac
import http.server
import random
import threading
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

from browser.driver import CHROMIUM, LAUNCH_ARGS, require_browser

require_browser()

from burraco.record import to_record  # noqa: E402
from burraco.state import GameState  # noqa: E402
from burraco.variants import PRESETS  # noqa: E402

STATIC = Path(__file__).resolve().parent.parent / "src" / "burraco" / "web" / "static"
SCHEME = "burraco-hmac-sha256/1"
LAN_HOST = "burraco-lan.test"
"""A name for 127.0.0.1 that is not localhost: plain http there is no secure context."""

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    """A blank page of a static server of the page's files, with fair.js imported, at
    an address that is not a secure context (no crypto.subtle), as on a LAN."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(STATIC))
    handler.log_message = lambda *a, **k: None  # type: ignore[attr-defined]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        sync_api = require_browser()
        with sync_api.sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS + [
                f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"])
            ctx = b.new_context()
            p = ctx.new_page()
            errors: List[str] = []
            p.on("pageerror", lambda e: errors.append(str(e)))
            p.goto(f"http://{LAN_HOST}:{httpd.server_port}/css/burraco.css")
            p.evaluate("async () => { window.fair = await import('/js/fair.js'); }")
            yield p
            assert not errors, errors
            ctx.close()
            b.close()
    finally:
        httpd.shutdown()


def js(page: Any, body: str, arg: Any = None) -> Any:
    """Run ``body`` (a function body of ``f``, the fair module, and ``arg``) in the page."""
    return page.evaluate(f"(arg) => {{ const f = window.fair; {body} }}", arg)


# ---------------------------------------------------------------- hashes


def test_sha256_matches_hashlib(page):
    rng = random.Random(7)
    msgs = [b"", b"abc", b"a" * 55, b"a" * 56, b"a" * 63, b"a" * 64, b"a" * 65, b"a" * 119,
            b"a" * 120, b"a" * 1000]
    msgs += [rng.randbytes(rng.randrange(300)) for _ in range(200)]
    got = js(page, "return arg.map((h) => f.toHex(f.sha256(f.fromHex(h))));", [m.hex() for m in msgs])
    assert got == [hashlib.sha256(m).hexdigest() for m in msgs]
    # FIPS 180-2's example, written out
    assert got[1] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_hmac_sha256_matches_hmac(page):
    rng = random.Random(8)
    cases = [(rng.randbytes(k), rng.randbytes(rng.randrange(200)))
             for k in (0, 1, 16, 32, 63, 64, 65, 100, 200) for _ in range(8)]
    # RFC 4231 test case 2
    cases.append((b"Jefe", b"what do ya want for nothing?"))
    got = js(page, "return arg.map(([k, m]) => f.toHex(f.hmacSha256(f.fromHex(k), f.fromHex(m))));",
             [[k.hex(), m.hex()] for k, m in cases])
    assert got == [hmac.new(k, m, hashlib.sha256).hexdigest() for k, m in cases]
    assert got[-1] == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"


def test_hand_seed_message_is_the_schemes(page):
    seed = bytes(range(32))
    contribs = ["9f0c" * 8, None, "77aa" * 8, "0b1c" * 4]
    msg = ("2:" + ",".join(v or "" for v in contribs)).encode()
    got = js(page, "return f.toHex(f.handSeed(f.fromHex(arg[0]), 2, arg[1]));", [seed.hex(), contribs])
    assert got == hmac.new(seed, msg, hashlib.sha256).hexdigest()


# ---------------------------------------------------------------- CPython's generator


def _seed_bytes(n: int) -> str:
    return n.to_bytes(max(1, (n.bit_length() + 7) // 8), "big").hex()


@pytest.mark.parametrize("seed", [0, 1, 5489, 2**32 - 1, 2**32, 2**64 + 3, 2**200 + 1,
                                  2**256 - 1, 0xFFFF << 224, 12345 << 160])
def test_mt19937_is_cpythons(page, seed):
    """Seeds of one to eight 32-bit words (leading zero words dropped, as CPython drops
    them); 2000 words, so the state is regenerated more than once; then draws below n."""
    py = random.Random(seed)
    want = [py.getrandbits(32) for _ in range(2000)]
    want_below = [py.randrange(n) for n in (1, 2, 3, 7, 64, 65, 107, 108, 1000, 2**31 + 5) * 30]
    want_int = [py.randint(1, 108) for _ in range(50)]
    # padded with zero bytes in front: the same integer
    for hexseed in (_seed_bytes(seed), "0000" + _seed_bytes(seed)):
        got = js(page, """const r = new f.PyRandom(f.fromHex(arg));
            const words = []; for (let i = 0; i < 2000; i++) words.push(r.uint32());
            const below = []; for (const n of [1, 2, 3, 7, 64, 65, 107, 108, 1000, 2 ** 31 + 5]) below.push(n);
            const ns = []; for (let k = 0; k < 30; k++) ns.push(...below);
            const b = ns.map((n) => r.below(n));
            const ints = []; for (let i = 0; i < 50; i++) ints.push(r.randint(1, 108));
            return [words, b, ints];""", hexseed)
        assert got[0] == want
        assert got[1] == want_below
        assert got[2] == want_int


# ---------------------------------------------------------------- whole deals


def fair_record(variant: str, players: int, seed: bytes, salt: bytes, hand: int,
                contributions: List[Optional[str]], first: int, singles: bool = False) -> Dict[str, Any]:
    """The record of a hand dealt by the scheme from these inputs, by Python's own deal."""
    msg = (f"{hand}:" + ",".join(v or "" for v in contributions)).encode()
    hand_seed = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest(), "big")
    state = GameState.new(variant, players, seed=hand_seed, first=first, singles=singles, cut=None)
    rec = to_record(state)
    rec["provenance"] = {"scheme": SCHEME, "commitment": hashlib.sha256(salt + seed).hexdigest(),
                         "seed": seed.hex(), "salt": salt.hex(), "contributions": contributions,
                         "hand": hand}
    return rec


def _cases() -> List[Dict[str, Any]]:
    rng = random.Random(2026)
    out = []
    for name, v in PRESETS.items():
        for players in v.players:
            for singles in ((False, True) if players in (3, 5) else (False,)):
                for k in range(6):
                    contribs: List[Optional[str]] = [
                        None if rng.random() < 0.3 else rng.randbytes(rng.choice((8, 16, 32))).hex()
                        for _ in range(players)]
                    out.append(fair_record(name, players, rng.randbytes(32), rng.randbytes(16),
                                           rng.randrange(20), contribs, rng.randrange(players),
                                           singles))
    return out


CASES = _cases()


def verify(page: Any, records: List[Dict[str, Any]], locals_: Optional[List[Any]] = None) -> List[Dict[str, Any]]:
    return js(page, "return arg[0].map((r, i) => f.verifyRecord(r, arg[1][i]));",
              [records, locals_ or [None] * len(records)])


def test_every_variant_and_player_count_is_verified(page):
    assert {(r["variant"], r["players"]) for r in CASES} == {
        (name, n) for name, v in PRESETS.items() for n in v.players}
    assert any("cut" in r for r in CASES) and any(not r["deal"]["discard"] for r in CASES)
    results = verify(page, CASES)
    for rec, res in zip(CASES, results):
        assert res["ok"], (rec["variant"], rec["players"], res)
        ids = [c["id"] for c in res["checks"]]
        assert ids == ["format", "commitment", "deal"] + (["cut"] if "cut" in rec else []), ids


def _failed(res: Dict[str, Any]) -> List[str]:
    return [c["id"] for c in res["checks"] if not c["ok"]]


def test_what_this_page_saw_and_sent_is_checked(page):
    rec = next(r for r in CASES if r["variant"] == "italian" and r["players"] == 4)
    p = rec["provenance"]
    mine = next(v for v in p["contributions"] if v) if any(p["contributions"]) else None
    rec = copy.deepcopy(rec)
    if mine is None:  # make sure this page has a value in the record
        rec = fair_record("italian", 4, bytes.fromhex(p["seed"]), bytes.fromhex(p["salt"]),
                          p["hand"], ["ab" * 16, None, None, None], rec["first"])
        mine = "ab" * 16
    good = {"commitment": rec["provenance"]["commitment"], "value": mine}
    other = {"commitment": "0" * 64, "value": mine}
    missing = {"commitment": rec["provenance"]["commitment"], "value": "cd" * 16}
    res = verify(page, [rec, rec, rec], [good, other, missing])
    assert res[0]["ok"] and [c["id"] for c in res[0]["checks"]] == ["format", "commitment", "seen", "mine", "deal"]
    assert _failed(res[1]) == ["seen"]
    assert _failed(res[2]) == ["mine"]


def test_tampered_records_fail_the_right_check(page):
    base = next(r for r in CASES if r["variant"] == "brazilian" and r["players"] == 4)
    tampered = {}

    def make(name, fn):
        r = copy.deepcopy(base)
        fn(r)
        tampered[name] = r

    def swap_stock(r):
        s = r["deal"]["stock"]
        i = next(i for i in range(1, len(s)) if s[i] != s[0])
        s[0], s[i] = s[i], s[0]

    def swap_hand_stock(r):
        h, s = r["deal"]["hands"][1], r["deal"]["stock"]
        i = next(i for i in range(len(s)) if s[i] not in h)
        h[0], s[i] = s[i], h[0]

    def relabel(r):  # every copy of one card becomes another: sorted order still fits
        a, b = "3C", "4C"
        for part in (r["deal"]["hands"], r["deal"]["packets"], [r["deal"]["stock"]], [r["deal"]["discard"]]):
            for cards in part:
                for i, c in enumerate(cards):
                    if c == a:
                        cards[i] = b

    def contribution(r):
        c = r["provenance"]["contributions"]
        c[0] = "ee" * 16 if c[0] != "ee" * 16 else "ff" * 16

    def seed(r):
        s = bytearray(bytes.fromhex(r["provenance"]["seed"]))
        s[0] ^= 1
        r["provenance"]["seed"] = s.hex()

    def hand(r):
        r["provenance"]["hand"] += 1

    make("stock order", swap_stock)
    make("hand and stock", swap_hand_stock)
    make("relabelled card", relabel)
    make("contribution", contribution)
    make("seed", seed)
    make("commitment", lambda r: r["provenance"].update(commitment="1" * 64))
    make("cut", lambda r: r["cut"].update(lifted=r["cut"]["lifted"] % 100 + 1))
    make("scheme", lambda r: r["provenance"].update(scheme="other/1"))
    make("hand", hand)
    make("card", lambda r: r["deal"]["stock"].__setitem__(0, "XX"))
    res = dict(zip(tampered, verify(page, list(tampered.values()))))
    want = {"stock order": ["deal"], "hand and stock": ["deal"], "relabelled card": ["deal"],
            "contribution": ["deal", "cut"], "seed": ["commitment", "deal", "cut"],
            "commitment": ["commitment"], "cut": ["cut"], "scheme": ["format"], "card": ["format"],
            "hand": ["deal", "cut"]}
    for name, ids in want.items():
        assert not res[name]["ok"], name
        assert _failed(res[name]) == ids, (name, res[name])
    assert verify(page, [{k: v for k, v in base.items() if k != "provenance"}])[0] == \
        {"ok": False, "provenance": False, "checks": []}


def test_fresh_value_is_32_hex_digits_and_never_the_same(page):
    values = js(page, "return Array.from({length: 50}, () => f.freshValue());")
    assert all(len(v) == 32 and int(v, 16) >= 0 and v == v.lower() for v in values)
    assert len(set(values)) == 50


def test_the_page_is_not_a_secure_context(page):
    """Every check above ran where crypto.subtle does not exist: a plain-http address
    that is not localhost, as a table on a LAN is."""
    assert js(page, "return [window.isSecureContext, typeof crypto.subtle, location.hostname];") == \
        [False, "undefined", LAN_HOST]
