"""Records that no shuffle of the variant can produce, or that are not exactly RECORD.md,
are refused as malformed (exit 2, naming the field); inputs over MAX_RECORD_BYTES are
refused before they are read whole (issue 9, "Records")."""

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from burraco.record import MAX_RECORD_BYTES, replay_text, to_record
from burraco.sim import random_hand
from burraco.state import GameState

ROOT = Path(__file__).resolve().parents[1]


def cli(*args, stdin=None, timeout=60):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, "-m", "burraco", *args], stdin=stdin,
                          capture_output=True, env=env, timeout=timeout)


def record(variant="italian", players=2, seed=1):
    return to_record(random_hand(variant, players, seed))


def malformed(rec, field=None):
    out, code = replay_text(json.dumps(rec))
    assert code == 2, out
    if field is not None:
        assert out["error"]["field"] == field, out
    return out["error"]["message"]


# ---------------------------------------------------------------- size
def test_dev_zero_refused_with_exit_2():
    """`burraco replay /dev/zero` ran out of memory; now exit 2 with a JSON error (and,
    issue 25, the one line on standard error)."""
    p = cli("replay", "/dev/zero")
    assert p.returncode == 2 and b"larger than" in p.stdout
    assert p.stderr.startswith(b"burraco replay: error: ") and p.stderr.count(b"\n") == 1


def test_stdin_dev_zero_refused_with_exit_2():
    """`burraco replay - < /dev/zero` likewise."""
    with open("/dev/zero", "rb") as zero:
        p = cli("replay", "-", stdin=zero)
    assert p.returncode == 2 and b"standard input is larger than" in p.stdout


def test_large_text_refused_in_python():
    """replay_text refuses text over the limit too (the server calls it directly)."""
    out, code = replay_text(" " * (MAX_RECORD_BYTES + 1))
    assert code == 2 and "larger" in out["error"]["message"]


def test_not_utf8_and_nan():
    """Bytes that are not UTF-8, and NaN (not JSON), are malformed records."""
    out, code = replay_text(b"\xff\xfe{}")
    assert code == 2 and "UTF-8" in out["error"]["message"]
    text = json.dumps(record()).replace('"players": 2', '"players": NaN')
    out, code = replay_text(text)
    assert code == 2 and "JSON" in out["error"]["message"]


# ---------------------------------------------------------------- deal shape
def test_no_face_up_card_in_italian():
    """RULES.md "first discard face up at deal": italian turns one card up; a deal with
    none (that card moved to the stock) adds up, but no shuffle deals it."""
    rec = record()
    d = rec["deal"]
    d["stock"].append(d["discard"].pop())
    assert "one card face up" in malformed(rec, "deal.discard")


def test_stock_all_face_up_refused():
    """61 face-up cards and an empty stock: issue 9's example."""
    rec = record()
    d = rec["deal"]
    d["discard"] = d["stock"] + d["discard"]
    d["stock"] = []
    assert len(d["discard"]) == 108 - 22 - 22
    malformed(rec, "deal.discard")


def test_brazilian_pile_starts_empty():
    """RULES.md: brazilian "the discard pile starts empty (resolved)": five face-up
    cards are refused."""
    rec = record("brazilian", 2)
    d = rec["deal"]
    d["discard"] = d["stock"][-5:]
    del d["stock"][-5:]
    assert "starts empty" in malformed(rec, "deal.discard")


@pytest.mark.parametrize("variant,players", [("italian", 3), ("italian", 5), ("italian", 6),
                                             ("brazilian", 6), ("burraco-2p", 2),
                                             ("aberto", 4)])
def test_every_shuffle_shape_accepted(variant, players):
    """What GameState.new deals is always accepted: hands, packets, face-up card."""
    rec = record(variant, players, seed=5)
    out, code = replay_text(json.dumps(rec))
    assert code == 0, out


def test_packets_as_shuffled():
    """A packet of the wrong size (cards moved from the stock) is refused."""
    rec = record()
    d = rec["deal"]
    d["packets"][0].append(d["stock"].pop())
    malformed(rec, "deal.packets[0]")


# ---------------------------------------------------------------- notation
@pytest.mark.parametrize("bad", ["7\u017f", "7s", " 7S", "7S\u00a0", "\u20027S", "7S\x00",
                                 "7S\u200b", "\uff17S", "10S"])
def test_card_notation_exact(bad):
    """Issue 9: "7ſ" read as 7S and stray Unicode spaces or control characters were
    accepted; a record's cards are exactly RECORD.md's notation."""
    rec = record()
    good = rec["deal"]["hands"][0][3]
    rec["deal"]["hands"][0][3] = bad
    assert good  # the card replaced
    malformed(rec, "deal.hands[0][3]")
    rec = record()
    i = next(i for i, m in enumerate(rec["moves"]) if m["action"] == "discard")
    rec["moves"][i]["card"] = bad
    malformed(rec, f"moves[{i}].card")


def test_variant_field_bounded():
    """The record's variant field takes the Variant's bounds (issue 9: decks=100000000
    raised MemoryError with exit 1)."""
    rec = record()
    rec["variant"] = "italian:decks=100000000"
    assert "decks must be from 1 to 4" in malformed(rec, "variant")
    rec["variant"] = "italian:" + "x" * 10000
    malformed(rec, "variant")


def test_huge_field_values_not_echoed_whole():
    """A malformed field quoted in a message is cut short."""
    rec = record()
    rec["format"] = "y" * 100000
    assert len(malformed(rec, "format")) < 200


# ---------------------------------------------------------------- the cut field
def brazilian(players=4, seed=2):
    return to_record(GameState.new("brazilian", players, seed=seed, cut=(1, 44)))


@pytest.mark.parametrize("cut,field", [
    ({"player": 4, "lifted": 44}, "cut.player"),
    ({"player": -1, "lifted": 44}, "cut.player"),
    ({"player": True, "lifted": 44}, "cut.player"),
    ({"lifted": 44}, "cut.player"),
    ({"player": 1, "lifted": 0}, "cut.lifted"),
    ({"player": 1, "lifted": 109}, "cut.lifted"),
    ({"player": 1, "lifted": "44"}, "cut.lifted"),
    ({"player": 1}, "cut.lifted"),
    ([1, 44], "cut"),
])
def test_bad_cut_is_malformed(cut, field):
    """RECORD.md `cut`: "a seat that does not exist or a count outside 1 to the deck's
    size is a format error (exit 2)", naming the field."""
    rec = brazilian()
    rec["cut"] = cut
    malformed(rec, field)


def test_cut_ignored_where_the_variant_has_none():
    """RECORD.md: the cut is "read only where the variant scores a cut (brazilian),
    ignored elsewhere": no breakdown.cut, even a malformed one is not read."""
    rec = record()
    rec["cut"] = {"player": 99, "lifted": "x"}
    out, code = replay_text(json.dumps(rec))
    assert code == 0 and all("cut" not in s["breakdown"] for s in out["sides"])
