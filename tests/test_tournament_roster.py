"""Importing entrants as clubs export them (issue 26 item 9): commas or
semicolons, UTF-8 or Windows-1252, a clear line for what cannot be read; names
of one line and at most 60 characters; a player in one pair only."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.tournament import Settings, Tournament, TournamentError
from burraco.tournament.model import MAX_NAME, entry_name
from burraco.tournament.roster import column, decode, read_entrants, separator

ITALIAN_EXPORT = ("Nome;Giocatore 1;Giocatore 2;Circolo;Classifica\r\n"
                  "Città Alta;Niccolò Bellè;Lucía Peña;Circolo Forlì;120\r\n"
                  "\"Rossi; Bianchi\";Anna Rossi;Bruno Bianchi;;\r\n"
                  ";;;;\r\n")


def event(kind: str = "danish") -> Tournament:
    return Tournament("Club", Settings(format=kind, rounds=3, hands=3))


def test_italian_excel_semicolons_in_windows_1252():
    """What an Italian Excel saves as CSV: semicolons, Windows-1252, CRLF, Italian
    headers, an empty line of separators; on today's main it was refused with "the
    header needs name, player1"."""
    data = ITALIAN_EXPORT.encode("cp1252")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")                    # it really is not UTF-8
    items = read_entrants(data, "iscritti.csv")
    assert items == [
        dict(name="Città Alta", players=["Niccolò Bellè", "Lucía Peña"], club="Circolo Forlì",
             rating=120),
        dict(name="Rossi; Bianchi", players=["Anna Rossi", "Bruno Bianchi"], club="", rating=0),
    ]
    t = event()
    for it in items:
        t.add_entrant(**it)
    assert [e.name for e in t.entrants.values()] == ["Città Alta", "Rossi; Bianchi"]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252"])
@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_every_encoding_and_separator(encoding, sep):
    """The same list read alike whatever the spreadsheet wrote."""
    lines = [["name", "player1", "player2", "club", "rating"],
             ["Bellè", "Zoë", "Jürgen Groß", "Mödling", "7"],
             ["Ñandú", "Ana", "João", "", "-2"]]
    data = "\n".join(sep.join(r) for r in lines).encode(encoding)
    got = read_entrants(data)
    assert [(x["name"], x["players"], x["club"], x["rating"]) for x in got] == [
        ("Bellè", ["Zoë", "Jürgen Groß"], "Mödling", 7), ("Ñandú", ["Ana", "João"], "", -2)]


@pytest.mark.parametrize("data,words", [
    (b"", "no entrants"),
    (b"name;player1;player2\n", "no entrants (a header only)"),
    (b"PK\x03\x04\x14\x00\x06\x00", "a spreadsheet file, not CSV"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a spreadsheet file, not CSV"),
    (b"name,player1\n\x81\x8d\x8f,x\n", "not text in UTF-8 or Windows-1252"),
    (b"Anna Rossi;Bruno Bianchi\nCarla;Dino\n", "not a header with a name, player1"),
    (b"name,player1,player2,rating\nA,a1,a2,dodici\n", "line 2: rating 'dodici'"),
    (b"name,player1,player2\nA,a1,a2\nB,b1,b2,extra\n", "line 3 has 4 fields"),
    (b'name,player1\n"A,a1\n', "not CSV"),
])
def test_what_cannot_be_read_is_one_line(data, words):
    """Each refusal is one line naming the file and what is wrong."""
    with pytest.raises(TournamentError) as ex:
        read_entrants(data, "club.csv")
    msg = str(ex.value)
    assert words in msg and msg.startswith("club.csv") and "\n" not in msg


def test_headers_in_every_language():
    assert [column(h) for h in ("Nome", "GIOCATORE 1", "jogador_2", "Spieler1", "Verein",
                                "Pontuação", "circolo", "player", "whatever")] == [
        "name", "player1", "player2", "player1", "club", "rating", "club", "player", ""]
    assert separator("a;b;c,d") == ";" and separator("abc") == "," and separator("a\tb") == "\t"


def test_names_are_one_line_of_at_most_60_characters():
    """A name with a line break broke the text standings; one of 5,000 characters
    was stored (issue 26 item 9)."""
    t = event()
    for bad, words in [("Rossi\nBianchi", "one line"), ("A\u2028B", "one line"),
                       ("Tab\there", "one line"), ("Esc\x1b[2J", "one line"),
                       ("x" * 5000, "at most 60 characters, not 5000"),
                       ("y" * (MAX_NAME + 1), "not 61")]:
        with pytest.raises(TournamentError, match=words):
            t.add_entrant(bad, ("P1", "P2"))
        with pytest.raises(TournamentError, match="^player .*" + words):
            t.add_entrant("Pair", (bad, "P2"))
        with pytest.raises(TournamentError, match="^club .*" + words):
            entry_name(bad, "club")
    assert entry_name("Rossi\r\n") == "Rossi"      # a line's own end is not a break
    assert t.entrants == {}
    e = t.add_entrant("  Rossi    Bianchi ", ("  Anna  ", "Bruno"), club=" Forlì ")
    assert (e.name, e.players, e.club) == ("Rossi Bianchi", ("Anna", "Bruno"), "Forlì")
    assert t.add_entrant("z" * MAX_NAME, ("C", "D")).name == "z" * MAX_NAME


def test_a_player_is_in_one_pair_only():
    """The same players could form two pairs (issue 26 item 9); case and blanks
    do not make another player.  Bots may repeat."""
    t = event()
    t.add_entrant("Rossi", ("Anna Rossi", "Bruno Bianchi"))
    for players in [("anna  rossi", "Carla"), ("Carla", "BRUNO BIANCHI")]:
        with pytest.raises(TournamentError, match="already plays in entrant 1 Rossi"):
            t.add_entrant("Other", players)
    with pytest.raises(TournamentError, match="the same player twice"):
        t.add_entrant("Twice", ("Carla", "carla"))
    t.add_entrant("B1", ("bot:greedy", "bot:greedy"))
    t.add_entrant("B2", ("bot:greedy", "bot:greedy"))
    assert len(t.entrants) == 3
    ind = Tournament("Solo", Settings(format="individual", rounds=3, hands=3))
    ind.add_entrant("Anna")
    with pytest.raises(TournamentError, match="already"):
        ind.add_entrant("ANNA ")


def test_an_import_with_a_player_twice_registers_nobody(tmp_path, capsys):
    """The command line's import, all or none: a file whose third line repeats a
    player of the first is refused in one line, and the event keeps no entrant."""
    pytest.importorskip("sqlalchemy")
    from burraco.cli.main import main
    db = ["--db", str(tmp_path / "club.db")]
    f = tmp_path / "iscritti.csv"
    f.write_bytes("nome;giocatore1;giocatore2\nA;Niccolò;Bea\nB;Ciro;Dora\nC;Ezio;niccolò\n"
                  .encode("cp1252"))
    assert main(["tournament", "create", "Club", "--format", "danish", "--rounds", "2", *db]) == 0
    capsys.readouterr()
    assert main(["tournament", "import", str(f), *db]) == 2
    err = capsys.readouterr().err
    assert "already plays in entrant" in err and len(err.strip().splitlines()) == 1
    f.write_bytes("nome;giocatore1;giocatore2\nA;Niccolò;Bea\nB;Ciro;Dora\n".encode("cp1252"))
    assert main(["tournament", "import", str(f), *db]) == 0
    assert "registered 2 entrants (1 to 2)" in capsys.readouterr().out


NAME = st.text(st.characters(codec="cp1252", exclude_categories=("Cc", "Zl", "Zp")),
               min_size=1, max_size=MAX_NAME).map(lambda s: " ".join(s.split()))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(NAME, NAME, NAME), min_size=1, max_size=6),
       st.sampled_from([",", ";", "\t"]), st.sampled_from(["utf-8", "cp1252", "utf-16"]))
def test_any_names_round_trip(rows, sep, encoding):
    """Property: whatever names a spreadsheet writes (quoted as its CSV writer
    quotes), in any of the encodings and separators, are read back as written."""
    import csv
    import io
    rows = [r for r in rows if all(x.strip() for x in r)]
    if not rows:
        return
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep)
    w.writerow(["Nome", "Giocatore1", "Giocatore2"])
    w.writerows(rows)
    got = read_entrants(buf.getvalue().encode(encoding))
    assert [(x["name"], *x["players"]) for x in got] == [tuple(r) for r in rows]


def test_decode_prefers_utf8():
    assert decode("Niccolò".encode("utf-8")) == "Niccolò"
    assert decode("Niccolò".encode("cp1252")) == "Niccolò"
    assert decode("\ufeffNome".encode("utf-8")) == "Nome"
