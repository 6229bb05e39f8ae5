"""Entrants from a file a club exports (issue 26 item 9): the CSV of
``burraco tournament import`` and of the director's page.

What clubs' spreadsheets write is read as it comes:

* the text in UTF-8 (with or without its byte-order mark), UTF-16 with its
  mark (Excel's "Unicode text"), or else Windows-1252 (what an Italian,
  Portuguese or German Excel writes as "CSV");
* the fields separated by commas, semicolons (Excel where the decimal mark is a
  comma: Italy, Brazil, Germany) or tabs: whichever the header line uses;
* the header in English (``name, player1, player2`` or ``player``, ``club``,
  ``rating``) or in the event's other languages (``nome``, ``giocatore1``,
  ``circolo``, ``jogador1``, ``clube``, ``Spieler1``, ``Verein``, ...), any
  case, blanks and underscores ignored.

What cannot be read is refused as a whole, with one line saying where and what
(the file is not text, the header has no name or player column, line 7's
rating is not a whole number, a line has more fields than the header);
nothing is registered then.  The names themselves are checked by
:meth:`~.model.Tournament.add_entrant` (one line, at most
:data:`~.model.MAX_NAME` characters, a player in one entrant only), which
refuses the whole file too (:meth:`~.store.Store.add_entrants` registers all
or none).
"""

from __future__ import annotations

import csv
import io
from typing import Any, Dict, List, Tuple, Union

from .model import TournamentError

COLUMNS: Dict[str, Tuple[str, ...]] = {
    "name": ("name", "entrant", "pair", "nome", "coppia", "iscritto", "dupla", "paar",
             "teilnehmer"),
    "player1": ("player1", "giocatore1", "jogador1", "spieler1"),
    "player2": ("player2", "giocatore2", "jogador2", "spieler2"),
    "player": ("player", "giocatore", "jogador", "spieler"),
    "club": ("club", "circolo", "clube", "verein"),
    "rating": ("rating", "classifica", "punteggio", "pontuacao", "pontuação", "wertung"),
}
"""Each column the import reads, by every header that names it."""

SEPARATORS = ",;\t"
"""The field separators tried, in this order of preference on a tie."""

MAX_RATING_DIGITS = 9
"""A rating has at most this many digits (every column holds it)."""


def column(header: str) -> str:
    """The column a header names (:data:`COLUMNS`), or ``""`` when none:
    ``"Giocatore 1"`` and ``"player_1"`` are ``player1``."""
    key = "".join(c for c in header.strip().casefold() if c not in " _-.")
    for col, names in COLUMNS.items():
        if key in names:
            return col
    return ""


def decode(data: Union[bytes, str], source: str = "the file") -> str:
    """The text of an exported file: UTF-8 (its mark taken off), UTF-16 with its
    mark, else Windows-1252; :class:`TournamentError` when it is none of these
    (a spreadsheet's own format, a picture, ...)."""
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    elif data.startswith(b"PK\x03\x04") or data.startswith(b"\xd0\xcf\x11\xe0"):
        raise TournamentError(f"{source}: a spreadsheet file, not CSV text: save it from the "
                              "spreadsheet as CSV", "not_csv_sheet", source=source)
    else:
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            text = ""
        if text and "\x00" not in text:
            return text
    raise TournamentError(f"{source}: not text in UTF-8 or Windows-1252: save it from the "
                          "spreadsheet as CSV", "not_text", source=source)


def separator(line: str) -> str:
    """The separator a header line uses: the one of :data:`SEPARATORS` it holds
    most often (a comma when it holds none)."""
    counts = [(line.count(s), -i, s) for i, s in enumerate(SEPARATORS)]
    best = max(counts)
    return best[2] if best[0] else ","


def read_entrants(data: Union[bytes, str], source: str = "the CSV") -> List[Dict[str, Any]]:
    """The entrants of an exported file (bytes as read, or text), as dicts of
    :meth:`~.model.Tournament.add_entrant`'s arguments; :class:`TournamentError`
    in one line naming ``source`` and what cannot be read."""
    text = decode(data, source)
    lines = text.splitlines()
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None:
        raise TournamentError(f"{source}: no entrants (the file is empty)", "no_entrants",
                              source=source)
    sep = separator(lines[first])
    try:
        rows = list(csv.reader(io.StringIO("\n".join(lines[first:])), delimiter=sep,
                               strict=True))
    except csv.Error as ex:
        raise TournamentError(f"{source}: not CSV ({ex})", "not_csv", source=source) from None
    header = [column(h) for h in rows[0]]
    if not {"name", "player1", "player"} & set(header):
        shown = sep.join(rows[0])
        shown = shown if len(shown) <= 60 else shown[:60] + "..."
        raise TournamentError(
            f"{source}: the first line is not a header with a name, player1 (and player2) "
            f"or player column: {shown!r}", "bad_header", source=source)
    items = []
    for i, row in enumerate(rows[1:], first + 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header) and any(c.strip() for c in row[len(header):]):
            raise TournamentError(f"{source}: line {i} has {len(row)} fields, the header "
                                  f"{len(header)} (a {sep!r} inside a name needs quotes)",
                                  "bad_line", source=source, line=i)
        cells: Dict[str, str] = {}
        for col, cell in zip(header, row):
            if col and cell.strip():
                cells[col] = cell.strip()
        players = [cells[k] for k in ("player1", "player2", "player") if cells.get(k)]
        rating_text = cells.get("rating", "0")
        digits = rating_text[1:] if rating_text.startswith("-") else rating_text
        if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_RATING_DIGITS):
            raise TournamentError(f"{source}: line {i}: rating {rating_text[:20]!r} is not a "
                                  "whole number", "bad_rating", source=source, line=i)
        items.append(dict(name=cells.get("name", ""), players=players,
                          club=cells.get("club", ""), rating=int(rating_text)))
    if not items:
        raise TournamentError(f"{source}: no entrants (a header only)", "no_entrants",
                              source=source)
    return items


__all__ = ["COLUMNS", "column", "decode", "read_entrants", "separator"]
