"""The hand review (issue 28): ``burraco.review.review_hand`` and ``burraco review``.

- the review reads only the seat's view: re-dealing the cards the seat never
  sees (other hands, the stock) leaves its review unchanged, byte for byte;
- a planted blunder (a discard that hands the opponents their first burraco and
  the close) is found as a blunder;
- with ``sims`` the same seed gives the same review; the JSON keeps the CONTRACT;
- the command line's errors are one line, ``burraco review: error: ...``.

Kept fast: few samples a decision (the verdicts' noise is measured by
bench/bench_review.py, not here).
"""

from __future__ import annotations

import json
import math
import os
import random
from typing import Any, Dict, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.bots.greedy import choose_state
from burraco.cards import format_cards, parse_card
from burraco.cli import main as cli_main
from burraco.meldgen import MeldGenerator
from burraco.record import parse_record, to_record
from burraco.review import (KINDS, SURE, THRESHOLDS, VERDICTS, ReviewError, review_hand, verdict,
                            verdict_odds)
from burraco.review.verdicts import NOISE_MAX
from burraco.review.core import decisions, review_decision
from burraco.state import CLOSED, DISCARD, GameState, IllegalMove

HERE = os.path.dirname(os.path.abspath(__file__))
PLANTED = os.path.join(HERE, "review_records", "planted-blunder.json")


def greedy_record(variant: str, players: int, seed: int) -> Dict[str, Any]:
    """The record of a seeded hand played by the greedy policy at every seat."""
    s = GameState.new(variant, players, seed=seed, first=0)
    while not s.is_over:
        s.play(choose_state(s))
    return to_record(s)


@pytest.fixture(scope="module")
def whole2p() -> Dict[str, Any]:
    """A whole hand of italian at 2 (greedy, seed 5)."""
    return greedy_record("italian", 2, 5)


@pytest.fixture(scope="module")
def hand2p(whole2p) -> Dict[str, Any]:
    """Its first 20 moves (a record may stop mid-hand): the reviews stay quick."""
    return dict(whole2p, moves=whole2p["moves"][:20])


# ------------------------------------------------------------- hidden cards
def seat_views(record: Dict[str, Any], seat: int) -> List[Dict[str, Any]]:
    """What ``seat`` saw before each of its moves (with its legal moves)."""
    return [d.view.to_dict() for d in decisions(record, seat)[1]]


def redealt(record: Dict[str, Any], seat: int, rng: random.Random) -> Dict[str, Any]:
    """``record`` with cards the seat never sees swapped between another hand and
    the stock: each swap is kept only where the record still replays and every
    view of ``seat`` before its moves is unchanged (the re-deal is consistent
    with all the seat saw)."""
    rec = json.loads(json.dumps(record))
    want = seat_views(record, seat)
    final = parse_record(rec).initial_state()
    for _, m in parse_record(rec).moves:
        final.play(m)
    swaps = 0
    # the places of cards the seat may never have seen: cards still in another
    # hand that were dealt to it, and the stock's cards never drawn
    stock_n = len(rec["deal"]["stock"])
    places = [("stock", j) for j in range(stock_n - final.stock_count(), stock_n)]
    for q in range(rec["players"]):
        if q != seat:
            places += [(q, i) for i, c in enumerate(rec["deal"]["hands"][q])
                       if parse_card(c) in final.hand(q)]

    def where(r: Dict[str, Any], place: Any) -> List[str]:
        return r["deal"]["stock"] if place[0] == "stock" else r["deal"]["hands"][place[0]]

    for _ in range(60):
        a, b = rng.sample(places, 2)
        if where(rec, a)[a[1]] == where(rec, b)[b[1]]:
            continue
        trial = json.loads(json.dumps(rec))
        where(trial, a)[a[1]], where(trial, b)[b[1]] = where(rec, b)[b[1]], where(rec, a)[a[1]]
        try:
            if seat_views(trial, seat) != want:
                continue
        except ReviewError:
            continue
        rec = trial
        swaps += 1
        if swaps >= 8:
            break
    assert swaps >= 3, "too few cards to re-deal"
    return rec


def test_the_review_reads_no_hidden_card(whole2p):
    """Issue 28: "a review of the same seat is unchanged when the other hands are
    re-dealt consistently with the seat's view": in the first 40 moves of a
    hand, cards the other hand still holds from the deal and the stock's undrawn
    cards are swapped (the deal differs), every view of seat 0 is the same, and
    the review of seat 0 is the same JSON."""
    part = dict(whole2p, moves=whole2p["moves"][:40])  # mid-hand: more cards unseen
    other = redealt(part, 0, random.Random(7))
    assert other["deal"]["hands"][1] != part["deal"]["hands"][1]
    assert other["deal"]["stock"] != part["deal"]["stock"]
    a = review_hand(part, 0, sims=2, seed=3)
    b = review_hand(other, 0, sims=2, seed=3)
    assert json.dumps(a) == json.dumps(b)
    # the review of seat 1, whose hand was re-dealt, is not the same (the test can fail)
    assert seat_views(part, 1) != seat_views(other, 1)


# ------------------------------------------------------------- planted blunder
def test_a_planted_blunder_is_found():
    """A discard that gives the opponents their first burraco and the close is a
    blunder.  The record (tests/review_records/planted-blunder.json) is a hand of
    italian at 2 played by greedy (seed 28) up to seat 0's discard at move 117,
    where seat 0 (holding 6C and QH) throws 6C instead of greedy's QH: seat 1 holds
    one card and has a meld of six 6s (RULES.md: a meld of seven is a burraco,
    needed to close), so it takes the pile, makes the burraco, and goes out."""
    with open(PLANTED, encoding="utf-8") as f:
        record = json.load(f)
    dealt, ds = decisions(record, 0)
    planted = ds[-1]
    view = planted.view
    six = parse_card("6C") % 13
    theirs = view.melds[view.owner(1)]
    assert view.hand_counts[1] == 1
    assert not any(r.label for r in theirs)  # no burraco yet: may not close
    assert any(len(r.order) == 6 and all(c % 13 == six or c in (1, 14, 27, 40, 52)
                                         for c in r.order) for r in theirs)
    assert planted.move.action == DISCARD and format_cards(planted.move.cards) == ["6C"]
    # what really happened next (the referee's view): seat 1 closes at once
    s = parse_record(record).initial_state()
    for _, m in parse_record(record).moves:
        s.play(m)
    while not s.is_over and s.turn != 0:
        s.play(choose_state(s))
    assert s.status == CLOSED and s.closed_by == 1
    e = review_decision(planted, MeldGenerator(dealt.variant.rules), 0, sims=24, seconds=None)
    assert e["verdict"] == "blunder", e
    assert e["loss"] >= THRESHOLDS.blunder and e["loss"] >= 2 * e["se"]
    assert e["best"]["action"] == "discard" and e["best"]["card"] != "6C"
    assert e["best_ev"] - e["played_ev"] == pytest.approx(e["loss"], abs=0.02)


# ------------------------------------------------------------- contract
def test_the_review_keeps_the_contract(hand2p):
    """Every field of the CONTRACT, its type and bounds; the summary counts the
    verdicts; the view is the server's view of a past moment (no legal moves)."""
    r = review_hand(hand2p, 1, sims=2, seed=0)
    assert r["format"] == "burraco-review" and r["version"] == 1
    assert r["variant"] == "italian" and r["hand"] == 0 and r["seat"] == 1
    assert r["budget"] == {"sims": 2, "time": None, "seed": 0}
    assert r["thresholds"] == THRESHOLDS._asdict()
    ds = decisions(hand2p, 1)[1]
    assert [d["ply"] for d in r["decisions"]] == [d.ply for d in ds]
    assert all(hand2p["moves"][d["ply"]]["player"] == 1 for d in r["decisions"])
    turns = [d["turn"] for d in r["decisions"]]
    assert turns[0] == 1 and turns == sorted(turns)
    for d in r["decisions"]:
        assert d["kind"] in KINDS and d["verdict"] in VERDICTS
        assert d["played"] == hand2p["moves"][d["ply"]]
        assert d["loss"] >= 0 and d["se"] >= 0
        assert isinstance(d["played_ev"], float) and isinstance(d["best_ev"], float)
        if d["best"] == d["played"]:
            assert d["loss"] == 0 and d["verdict"] == "good"
            assert d["best_text"] == d["played_text"]
        else:
            assert d["loss"] == pytest.approx(d["best_ev"] - d["played_ev"], abs=0.02)
        assert "legal" not in d["view"] and d["view"]["open"] is False
        assert d["view"]["seat"] == 1
    assert sum(r["summary"][v] for v in VERDICTS) == len(r["decisions"])
    # the points lost in all are those of the moves the review calls worse than the
    # best: a good move's measured loss (at least 0, mostly noise) is not summed
    called = [d for d in r["decisions"] if d["verdict"] in ("inaccuracy", "mistake", "blunder")]
    assert r["summary"]["loss"] == pytest.approx(sum(d["loss"] for d in called), abs=0.05)


def test_the_points_lost_in_all_leave_out_the_noise_of_good_moves():
    """summary.loss sums the losses of inaccuracies, mistakes and blunders only: 25
    good moves each measured a little above 0 (the clipped noise of their estimates)
    do not add up to a hand's worth of lost points."""
    from burraco.review import summary_loss
    good = [{"verdict": "good", "loss": 12.5}] * 25
    assert summary_loss(good) == 0
    called = [{"verdict": "inaccuracy", "loss": 61.0}, {"verdict": "mistake", "loss": 140.25},
              {"verdict": "blunder", "loss": 300.0}, {"verdict": "unclear", "loss": 90.0}]
    assert summary_loss(good + called) == 501.25


def test_a_close_is_called_so(whole2p):
    """The move that closes the hand is of kind close (RULES.md: closing), and is
    the last move of the hand."""
    from burraco.review.core import kind_of
    final = parse_record(whole2p).initial_state()
    for _, m in parse_record(whole2p).moves:
        final.play(m)
    assert final.status == CLOSED
    ds = decisions(whole2p, final.closed_by)[1]
    kinds = [kind_of(d) for d in ds]
    assert kinds[-1] == "close" and kinds.count("close") == 1
    assert ds[-1].ply == len(whole2p["moves"]) - 1
    other = decisions(whole2p, 1 - final.closed_by)[1]
    assert "close" not in [kind_of(d) for d in other]


def test_the_view_is_the_servers_view_of_a_past_moment(hand2p):
    """The review's board is what server/replay.py sends for the step-through."""
    replay = pytest.importorskip("burraco.server.replay")
    r = review_hand(hand2p, 0, sims=1, seed=0)
    s = parse_record(hand2p).initial_state()
    views = {}
    for i, (_, m) in enumerate(parse_record(hand2p).moves):
        views[i] = replay.seat_view(s, 0)
        s.play(m)
    for d in r["decisions"]:
        assert d["view"] == views[d["ply"]]


def test_a_packet_taken_is_called_so():
    """A move after which the seat's side has its reserve packet, and had not
    before, is of kind packet (RULES.md, the pozzetto: taken when the hand is
    emptied)."""
    for seed in range(1, 40):
        rec = greedy_record("italian", 2, seed)
        ds = decisions(rec, 0)[1]
        packets = [d for d in ds if d.packet]
        if packets:
            break
    else:
        pytest.fail("no hand where seat 0 takes its packet")
    d = packets[0]
    assert not d.view.packet_taken[d.view.owner(0)]
    e = review_decision(d, MeldGenerator(d.view.variant.rules), 0, sims=1, seconds=None)
    assert e["kind"] in ("packet", "close")
    assert "packet" in e["played_text"] or e["kind"] == "close"


# ------------------------------------------------------------- repeatable
def test_the_same_seed_gives_the_same_review(hand2p):
    a = review_hand(hand2p, 0, sims=1, seed=11)
    b = review_hand(hand2p, 0, sims=1, seed=11)
    c = review_hand(hand2p, 0, sims=1, seed=12)
    assert any(d["samples"] for d in a["decisions"])
    assert json.dumps(a) == json.dumps(b)
    assert [d["played_ev"] for d in a["decisions"]] != [d["played_ev"] for d in c["decisions"]]


def test_progress_is_told_each_decision(hand2p):
    seen = []
    r = review_hand(hand2p, 0, sims=1, progress=lambda done, total: seen.append((done, total)))
    n = len(r["decisions"])
    assert seen == [(k, n) for k in range(1, n + 1)]


@pytest.mark.parametrize("kwargs,words", [
    ({"seat": 2}, "seat must be from 0 to 1"),
    ({"seat": 0, "sims": 0}, "sims"),
    ({"seat": 0, "sims": 2, "time": 1.0}, "not both"),
    ({"seat": 0, "time": -1.0}, "time"),
])
def test_bad_arguments_are_refused(hand2p, kwargs, words):
    seat = kwargs.pop("seat")
    with pytest.raises(ReviewError, match=words):
        review_hand(hand2p, seat, **kwargs)


def test_a_record_that_does_not_replay_is_refused(hand2p):
    bad = json.loads(json.dumps(hand2p))
    bad["moves"][1] = {"player": 0, "action": "discard", "card": "JK"}
    with pytest.raises(ReviewError, match="move 1"):
        review_hand(bad, 0, sims=1)


# ------------------------------------------------------------- verdicts
@settings(max_examples=300, deadline=None)
@given(loss=st.floats(-200, 1000), se=st.floats(0.5, 100), best=st.booleans())
def test_verdicts_weigh_the_estimate_its_noise_and_the_spread_of_losses(loss, se, best):
    """Good when the move played was best; else the most likely range of the
    thresholds when it is at least SURE likely (review.verdicts), else unclear.
    The odds add up to one; a larger loss with the same noise is never judged
    milder, nor given lower odds of being worse than good."""
    v = verdict(loss, se, best)
    odds = verdict_odds(loss, se)
    assert set(odds) == set(VERDICTS) - {"unclear"}
    assert abs(sum(odds.values()) - 1) < 1e-9 and all(0 <= p <= 1 for p in odds.values())
    top = max(odds, key=odds.get)
    if best:
        assert v == "good"
    elif odds[top] >= SURE:
        assert v == top
    else:
        assert v == "unclear"
    order = ["good", "inaccuracy", "mistake", "blunder"]
    w = verdict(loss + 50, se, best)
    if v in order and w in order:
        assert order.index(w) >= order.index(v)
    assert verdict_odds(loss + 50, se)["good"] <= odds["good"] + 1e-9


@pytest.mark.parametrize("loss, verdict_", [(0, "good"), (49.9, "good"), (50, "inaccuracy"),
                                            (99, "inaccuracy"), (100, "mistake"),
                                            (199, "mistake"), (200, "blunder"), (900, "blunder")])
def test_a_loss_measured_without_noise_gets_its_thresholds_verdict(loss, verdict_):
    assert verdict(loss, 0.0, False) == verdict_
    # with little noise, the same (away from the thresholds' edges)
    if loss not in (49.9, 50, 99, 100, 199, 200):
        assert verdict(loss, 2.0, False) == verdict_


def test_a_noisy_loss_near_the_first_threshold_is_read_as_the_small_loss_it_most_likely_is():
    """Most decisions lose little (README "Hand review"), so 60 points measured
    with a standard error of 40 is more likely a good move measured high than an
    inaccuracy; the same 60 measured to within 5 points is an inaccuracy; 120 +- 40
    could be good, an inaccuracy or a mistake, none likely enough: unclear.  One
    sample (unknown noise), or noise above NOISE_MAX, is not weighed: good below
    50 points, else unclear.  The planted blunder's estimate (257 +- 27, below)
    stays a blunder."""
    assert verdict(60, 40, False) == "good"
    assert verdict(60, 5, False) == "inaccuracy"
    assert verdict(120, 40, False) == "unclear"
    assert verdict(257, 27, False) == "blunder"
    assert verdict(40, math.inf, False) == "good"
    assert verdict(400, math.inf, False) == "unclear"
    assert verdict(40, NOISE_MAX + 1, False) == "good"
    assert verdict(400, NOISE_MAX + 1, False) == "unclear"


# ------------------------------------------------------------- command line
def run_cli(argv, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    try:
        code = cli_main.main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_text_and_json(hand2p, capsys, monkeypatch, tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand2p))
    code, out, err = run_cli(["review", str(path), "--sims", "1", "--seat", "1", "--json"],
                             capsys, monkeypatch, tmp_path)
    assert code == 0 and err == ""
    r = json.loads(out)
    assert r == review_hand(hand2p, 1, sims=1, seed=0)
    code2, out2, _ = run_cli(["review", str(path), "--sims", "1", "--seat", "1", "--json"],
                             capsys, monkeypatch, tmp_path)
    assert out2 == out  # byte for byte
    code, out, err = run_cli(["review", str(path), "--sims", "1", "--seat", "1"],
                             capsys, monkeypatch, tmp_path)
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(r["decisions"]) + 2
    for line, d in zip(lines[1:], r["decisions"]):
        assert d["played_text"] in line and d["verdict"] in line
        if d["best"] != d["played"]:
            assert d["best_text"] in line


@pytest.mark.parametrize("args,words", [
    (["--seat", "3"], "seat must be from 0 to 1"),
    (["--seat", "9"], "--seat"),
    (["--sims", "0"], "--sims"),
    (["--sims", "2", "--time", "1"], "not allowed"),
    (["--time", "abc"], "--time"),
    (["--seed", "x"], "--seed"),
])
def test_cli_bad_options_one_line(hand2p, args, words, capsys, monkeypatch, tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand2p))
    code, out, err = run_cli(["review", str(path), *args], capsys, monkeypatch, tmp_path)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith("burraco review: error:") and words in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("content,words", [
    (None, "No such file"),
    ("", "not valid JSON"),
    ('{"format": "x"}', "format"),
    ("[1, 2]", "JSON object"),
])
def test_cli_bad_records_one_line(content, words, capsys, monkeypatch, tmp_path):
    path = tmp_path / "hand.json"
    if content is not None:
        path.write_text(content)
    code, out, err = run_cli(["review", str(path)], capsys, monkeypatch, tmp_path)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith("burraco review: error:") and words in lines[0]


def test_cli_illegal_move_one_line(hand2p, capsys, monkeypatch, tmp_path):
    bad = json.loads(json.dumps(hand2p))
    bad["moves"][1] = {"player": 0, "action": "discard", "card": "JK"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    code, out, err = run_cli(["review", str(path), "--sims", "1"], capsys, monkeypatch, tmp_path)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and out == "" and len(lines) == 1
    assert lines[0].startswith("burraco review: error:") and "move 1 is illegal" in lines[0]


def test_illegal_move_message_names_the_rule(hand2p):
    """(the engine's refusal is passed on, not replaced)"""
    bad = json.loads(json.dumps(hand2p))
    bad["moves"][1] = {"player": 0, "action": "discard", "card": "JK"}
    with pytest.raises(ReviewError) as e:
        decisions(bad, 0)
    s = parse_record(hand2p).initial_state()
    s.play(parse_record(hand2p).moves[0][1])
    with pytest.raises(IllegalMove) as engine:
        s.play(parse_record(bad).moves[1][1])
    assert str(engine.value) in str(e.value)


# ------------------------------------------------------------- the race and the time
def test_progress_is_told_each_decision_with_a_time_budget(hand2p):
    """With ``time`` the seconds move between decisions, yet progress is told once a
    decision, the last when the review is done."""
    seen = []
    r = review_hand(hand2p, 0, time=0.01,
                    progress=lambda done, total: seen.append((done, total)))
    n = len(r["decisions"])
    assert seen == [(k, n) for k in range(1, n + 1)]
    assert any(d["samples"] for d in r["decisions"])
    assert all(d["verdict"] == "good" and d["loss"] == 0 for d in r["decisions"]
               if not d["samples"])


def test_a_settled_race_is_sure_and_a_close_one_is_not():
    """The planted blunder's race settles (the blunder is dropped behind QH) once
    the played move leads; a race with the blunder played stays in question
    until clear of the thresholds: more time goes where the verdict may change."""
    from burraco.bots.search import PRUNE_AFTER, Race
    from burraco.review.core import _standing, _unsure
    with open(PLANTED, encoding="utf-8") as f:
        record = json.load(f)
    dealt, ds = decisions(record, 0)
    view = ds[-1].view
    gen = MeldGenerator(dealt.variant.rules)
    six, queen = sorted(view.legal, key=lambda m: format_cards(m.cards) != ["6C"])
    good = Race(view, [queen, six], random.Random(1), gen, prune=3.0)
    assert _unsure(good, THRESHOLDS)  # no sample yet
    good.run(samples=200, until_settled=True)
    assert good.settled and good.samples <= PRUNE_AFTER + 8
    assert not _unsure(good, THRESHOLDS) and _standing(good) == (0, 0.0, 0.0)
    bad = Race(view, [six, queen], random.Random(1), gen, prune=3.0)
    bad.run(samples=3)
    assert _unsure(bad, THRESHOLDS)  # three samples: too few to judge
    bad.run(samples=60)
    best, loss, se = _standing(bad)
    assert best == 1 and loss - 2 * se > THRESHOLDS.blunder and not _unsure(bad, THRESHOLDS)


def test_the_loss_is_cross_fitted_against_the_winners_curse():
    """The best of noisy candidates is picked on one half of the samples and valued
    on the other: a clear best gives the plain paired difference; two candidates
    that only look better by luck, each on one half, give a smaller loss than the
    plain difference against the better-looking one."""
    from burraco.bots.search import paired_difference
    from burraco.review.core import cross_fitted
    played = [0.0, 10.0, -5.0, 3.0, 8.0, -2.0, 1.0, 4.0]
    clear = [x + 100.0 + (j % 3) for j, x in enumerate(played)]
    m, se = cross_fitted([played, clear], [0, 1])
    assert (m, se) == pytest.approx(paired_difference(clear, played))
    # a is lucky on the even samples, b on the odd ones; each is no better on the other
    a = [x + (80.0 if j % 2 == 0 else -40.0) for j, x in enumerate(played)]
    b = [x + (-40.0 if j % 2 == 0 else 80.0) for j, x in enumerate(played)]
    m, _ = cross_fitted([played, a, b], [0, 1, 2])
    assert m == pytest.approx(-40.0)
    assert paired_difference(a, played)[0] == pytest.approx(20.0)
