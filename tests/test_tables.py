"""Tables of 3, 5 and 6 players (issue 5): seed 001 (Italian Burraco a 3, a 5, a 6)
and seed 000 (Brazilian Buraco with six players), as RULES.md "Tables beyond four
players" spells them out.  Each test cites the sentence it checks."""

from __future__ import annotations

import json
import random

import pytest

from burraco.cards import deck, parse_cards
from burraco.match import Match
from burraco.record import replay_text, to_record
from burraco.sim import random_hand
from burraco.state import GameState, IllegalMove, Move
from burraco.variants import parse_variant


def C(text):
    return parse_cards(text)


def make_deal(variant, players, hands=None, stock=(), discard=None, singles=False, seed=0,
              first=0):
    """A full legal deal: the given hand cards and stock top, the rest shuffled in."""
    v = parse_variant(variant)
    d = v.decks_for(players)
    pool = deck(d, v.jokers_per_deck * d)
    hands = {k: C(h) for k, h in (hands or {}).items()}
    stock = C(stock) if isinstance(stock, str) else list(stock)
    for h in hands.values():
        for c in h:
            pool.remove(c)
    for c in stock:
        pool.remove(c)
    disc = C(discard) if discard else []
    for c in disc:
        pool.remove(c)
    random.Random(seed).shuffle(pool)
    out_hands = []
    for p in range(players):
        h = list(hands.get(p, []))
        while len(h) < v.hand_size:
            h.append(pool.pop())
        out_hands.append(h)
    packets = []
    for size in v.packet_sizes(players, singles):
        packets.append([pool.pop() for _ in range(size)])
    if v.first_discard_up and not disc:
        disc = [pool.pop()]
    return GameState.from_deal(v, players, first, out_hands, packets, list(stock) + pool, disc)


def total_cards(s):
    out = []
    for h in s.hands:
        out += [c for c in range(53) for _ in range(h[c])]
    out += s.stock + s.pile + [c for p in s.packets for c in p]
    out += [c for o in s.melds for m in o for c in m]
    return sorted(out)


# seed 001: "si compone un mazzetto da 18 carte e uno da 11"
def test_three_players_packets_18_and_11():
    s = GameState.new("italian", 3, seed=1)
    assert [len(p) for p in s.packets] == [18, 11]
    assert s.side_of == [0, 1, 2]  # everyone alone until the first packet


def three_player_split():
    """Seats 1 and 2 lay a meld each; seat 0 melds out and takes the 18."""
    s = make_deal("italian", 3, first=1,
                  hands={0: "3C 4C 5C 6D 7D 8D 9S TS JS QH QH",
                         1: "5S 6S 7S KH",
                         2: "KD KC KS"},
                  stock="9C 9D QD 8C 8S")
    s.play(Move.draw())                     # seat 1 draws 9C
    s.play(Move.lay(C("5S 6S 7S")))
    s.play(Move.discard(C("9C")[0]))
    s.play(Move.draw())                     # seat 2 draws 9D
    s.play(Move.lay(C("KD KC KS")))
    s.play(Move.discard(C("9D")[0]))
    s.play(Move.draw())                     # seat 0 draws QD
    for m in ("3C 4C 5C", "6D 7D 8D", "9S TS JS"):
        s.play(Move.lay(C(m)))
    assert s.side_of == [0, 1, 2]
    s.play(Move.lay(C("QH QH QD")))         # hand empty: the 18 is taken directly
    return s


# seed 001: "chi tra i tre giocatori esaurisce per primo le carte prende il pozzetto da
# 18 carte e continuerà a giocare da solo. Gli altri 2 giocatori, da quel momento,
# diventeranno soci"
def test_three_players_first_out_takes_18_and_plays_alone():
    s = three_player_split()
    assert s.hand_n[0] == 18
    assert s.side_of == [0, 1, 1]
    assert s.nsides == 2
    assert s.side_players(1) == [1, 2]
    assert len(s.melds[0]) == 4
    # the pair shares both players' melds, in the order they were laid
    assert s.melds[1] == [tuple(sorted(C("5S 6S 7S"))), tuple(sorted(C("KD KC KS")))]
    assert s.packet_taken == [True, False]
    assert [len(p) for p in s.packets] == [11]


# RULES.md "Tables beyond four players": "the other two become partners from then on"
def test_three_players_partners_add_to_each_others_melds():
    s = three_player_split()
    s.play(Move.discard(s.hand(0)[0]))
    s.play(Move.draw())                     # seat 1
    s.play(Move.add(1, C("KH")))            # onto the meld seat 2 laid
    assert s.readings[1][1].order == tuple(C("KC KD KH KS"))
    # the lone player may not reach the pair's melds: his meld 1 is his own
    assert len(s.melds[0]) == 4


# seed 001: "alla fine del gioco, cumuleranno i loro punteggi che verranno divisi a metà"
def test_three_players_pair_scores_added_and_halved():
    s = three_player_split()
    side = s.scores()
    ps = s.player_scores()
    assert ps[0] == side[0]
    assert ps[1] == ps[2] == side[1] / 2
    out, code = replay_text(json.dumps(to_record(s)))
    assert code == 0
    assert [x["players"] for x in out["sides"]] == [[0], [1, 2]]
    assert out["player_scores"] == ps


# seed 001: "Quando i tre giocatori raggiungeranno i 1000 punti ciascuno, torneranno a
# giocare singolarmente con 3 pozzetti da 11 carte."
def test_three_players_singles_once_all_reach_1000():
    m = Match("italian", 3, seed=2)
    assert [len(p) for p in m.new_hand().packets] == [18, 11]
    m.totals = [5000, 5000, -5000]
    m.record_hand(random_hand("italian", 3, seed=5))
    assert not m.singles                    # one player is still below 1000
    m.totals = [5000, 5000, 5000]
    m.record_hand(random_hand("italian", 3, seed=6))
    assert m.singles
    s = m.new_hand()
    assert [len(p) for p in s.packets] == [11, 11, 11]
    assert s.singles


# playing singly: nobody pairs up when a packet is taken
def test_singles_never_pair_up():
    s = make_deal("italian", 3, singles=True, hands={0: "3C 4C 5C 6D 7D 8D 9S TS JS QH QH"},
                  stock="QD")
    s.play(Move.draw())
    for m in ("3C 4C 5C", "6D 7D 8D", "9S TS JS", "QH QH QD"):
        s.play(Move.lay(C(m)))
    assert s.hand_n[0] == 11
    assert s.side_of == [0, 1, 2]


# seed 001: "Nel Burraco a cinque si gioca con 3 mazzi di carte e i pozzetti [...] un
# pozzetto da 18 carte e due da 11."
def test_five_players_three_decks_and_packets():
    s = GameState.new("italian", 5, seed=3)
    assert len(total_cards(s)) == 3 * 54
    assert [len(p) for p in s.packets] == [18, 11, 11]


# seed 001: "Il primo giocatore che prenderà il pozzetto giocherà da solo contro gli altri
# 4 che, a questo punto, formeranno due squadre."  (resolved: the four others pair up
# alternately in turn order after him, a+c and b+d, so partners sit apart.)
def test_five_players_first_packet_plays_alone_against_two_pairs():
    s = make_deal("italian", 5, first=2,
                  hands={2: "3C 4C 5C 6D 7D 8D 9S TS JS QH QH"}, stock="QD")
    s.play(Move.draw())
    for m in ("3C 4C 5C", "6D 7D 8D", "9S TS JS", "QH QH QD"):
        s.play(Move.lay(C(m)))
    assert s.hand_n[2] == 18
    assert s.side_players(0) == [2]
    assert s.side_players(1) == [0, 3]      # a = 3, c = 0
    assert s.side_players(2) == [1, 4]      # b = 4, d = 1
    assert s.packet_taken == [True, False, False]
    assert [len(p) for p in s.packets] == [11, 11]


# seed 001: "Quando uno dei giocatori raggiungerà il punteggio di 1005, il gioco tornerà
# ad essere individuale [...] si dovranno formare 5 pozzetti da 11 carte"
def test_five_players_singles_once_one_reaches_1005():
    m = Match("italian", 5, seed=4)
    m.totals = [0, 0, 0, 0, 0]
    m.record_hand(random_hand("italian", 5, seed=1))
    assert not m.singles or max(m.totals) >= 1005
    m.totals = [2000, 0, 0, 0, 0]
    m.record_hand(random_hand("italian", 5, seed=2))
    assert m.singles
    assert [len(p) for p in m.new_hand().packets] == [11] * 5


# seed 001: "fino al raggiungimento di 2005 punti, che determina la fine della partita"
def test_five_players_match_ends_at_2005_with_a_player_winner():
    m = Match("italian", 5, seed=4)
    m.totals = [1000, 900, 0, 0, 0]
    m.record_hand(random_hand("italian", 5, seed=3))
    assert not m.is_over or max(m.totals) >= 2005
    m.totals = [10000, 0, 0, 0, 0]          # whatever the hand, player 0 leads past 2005
    m.record_hand(random_hand("italian", 5, seed=4))
    assert m.is_over
    assert m.winner() == 0


# seed 001: "Si gioca con 3 mazzi di carte e, prima di prendere il pozzetto, è necessario
# aver realizzato un Burraco."
def test_six_players_packet_needs_a_burraco():
    s = make_deal("italian", 6, hands={0: "3C 4C 5C 6D 7D 8D 9S TS JS QH QH"}, stock="QD")
    assert len(total_cards(s)) == 3 * 54
    assert [len(p) for p in s.packets] == [11, 11, 11]
    s.play(Move.draw())
    for m in ("3C 4C 5C", "6D 7D 8D", "9S TS JS"):
        s.play(Move.lay(C(m)))
    before = (s.hand(0), [list(x) for x in s.melds], s.phase)
    with pytest.raises(IllegalMove) as e:
        s.play(Move.lay(C("QH QH QD")))     # would empty the hand with no packet to take
    assert "dead end" in str(e.value)
    assert (s.hand(0), [list(x) for x in s.melds], s.phase) == before


def test_six_players_packet_taken_once_the_side_has_a_burraco():
    s = make_deal("italian", 6, hands={0: "3C 4C 5C 6C 7C 8C 9C TC JS QS KS"}, stock="JC")
    s.play(Move.draw())
    s.play(Move.lay(C("3C 4C 5C 6C 7C 8C 9C")))   # a clean burraco
    s.play(Move.lay(C("JS QS KS")))
    s.play(Move.add(0, C("TC JC")))               # melds out: the packet is taken directly
    assert s.hand_n[0] == 11
    assert s.packet_taken[s.side_of[0]]
    assert s.readings[0][0].label == "clean"


# seed 001: "si può giocare sia a coppie sia in squadre di 3 persone, in modo da formare,
# così, 3 pozzetti"  (pairs: partners every third seat; two teams of three: i % 2)
def test_six_players_pairs_or_teams_of_three():
    s = GameState.new("italian", 6, seed=1)
    assert s.side_of == [0, 1, 2, 0, 1, 2]
    t = GameState.new("italian:teams_of_three=true", 6, seed=1)
    assert t.side_of == [0, 1, 0, 1, 0, 1]
    assert len(t.packets) == 2


# seed 000: "Man kann auch mit 6 Spielern spielen. Der Partner ist dann die jeweils 3. Person."
def test_brazilian_six_players_partner_every_third_seat():
    s = GameState.new("brazilian", 6, seed=2)
    assert s.side_of == [0, 1, 2, 0, 1, 2]
    assert s.side_players(0) == [0, 3]
    # RULES.md "Brazilian at 6 players": one morto per side, three of 11; three decks and
    # six jokers
    assert [len(p) for p in s.packets] == [11, 11, 11]
    assert len(s.stock) == 162 - 66 - 33 and sum(s.hands[p][52] for p in range(6)) <= 6


@pytest.mark.parametrize("variant,players,singles", [
    ("italian", 3, False), ("italian", 3, True), ("italian", 5, False),
    ("italian", 5, True), ("italian", 6, False), ("italian:teams_of_three=true", 6, False),
    ("brazilian", 6, False),
])
def test_random_hands_every_table_size_end_with_every_card_accounted_for(variant, players,
                                                                        singles):
    v = parse_variant(variant)
    d = v.decks_for(players)
    full = sorted(deck(d, v.jokers_per_deck * d))
    for seed in range(4):
        rng = random.Random(seed)
        s = GameState.new(v, players, seed=seed, singles=singles)
        while not s.is_over:
            moves = s.legal_moves()
            assert moves, "no dead ends"
            s.play(rng.choice(moves))
            assert total_cards(s) == full
        out, code = replay_text(json.dumps(to_record(s)))
        assert code == 0
        assert out["scores"] == s.scores()
        assert sorted(p for side in out["sides"] for p in side["players"]) == list(range(players))
