"""The words of the tournament pages and printouts, in the shared gettext catalogue.

:data:`WORDS` names every text of the printouts (:mod:`.output`) and of the
pages of ``burraco serve`` (:mod:`.web`) by a stable key; its value is the
English text (the msgid, in the context ``tournament`` of the ``burraco``
domain, so it never clashes with the same English words of the tables), or a
pair ``(singular, plural)`` for a text that counts something (``{n}``).  The
translations are in ``burraco/locale/<locale>/LC_MESSAGES/burraco.po``, in the
section that starts with :data:`SECTION` (before the browser table's section);
``python -m burraco.tournament.words`` rewrites that section from
:data:`WORDS`, keeping the translations written there, and ``python -m
burraco.i18n`` compiles.  A test fails when a word has no translation.

The director's one-line refusals (:class:`~.model.TournamentError`) stay in
English: they are the command line's messages, and the pages show them as
they are.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

from .. import i18n
from ..i18n.sections import entry_lines, translations_in, update_every_language

CONTEXT = "tournament"
"""The msgctxt of every tournament word."""

SECTION = ("# ---- the tournament pages and printouts (src/burraco/tournament/words.py): "
           "python -m burraco.tournament.words ----")
"""The line that starts the tournament section of a ``burraco.po``."""

WORDS: Dict[str, Union[str, Tuple[str, str]]] = {
    # tie-breaks and shared words
    "tb_mp": "MP",
    "tb_h2h": "result between the tied",
    "tb_draw": "director's draw",
    "tb_tied": "tied",
    "tb_draw_needed": "tied: a draw is needed",
    "bots_of": "bots: {names}",
    "bot_player": "bot {spec}",
    "fmt_mitchell": "Mitchell",
    "fmt_danish": "Danish",
    "fmt_modified_danish": "modified Danish",
    "fmt_round_robin": "round robin",
    "fmt_individual": "individual",
    "n_pairs": ("{n} pair", "{n} pairs"),
    "n_players": ("{n} player", "{n} players"),
    "n_withdrawn": ("{n} withdrawn", "{n} withdrawn"),
    "n_hands_a_round": ("{n} hand a round", "{n} hands a round"),
    "n_hands": ("{n} hand", "{n} hands"),
    "rounds_closed": ("{done} of {n} round closed", "{done} of {n} rounds closed"),
    "bye_terms": "bye {vp} VP {mp} MP",
    "bye": "bye",
    "closed": "closed",
    "open": "open",
    "no_result_yet": "no result yet",
    "vp_bounds": "MP to VP, upper MP bounds of 10-10 ... 19-1: {bounds}",
    "tie_order": "ties: VP, MP difference, result between the tied, director's draw",
    # headings and columns
    "standings": "Standings",
    "standings_after": "Standings after round {n}",
    "title_standings": "{name}: standings",
    "title_standings_after": "{name}: standings after round {n}",
    "title_round": "{name}: round {n}",
    "title_round_of": "{name}: round {n} of {rounds}",
    "title_round_tables": "{name}: round {n} tables",
    "title_cards": "{name}: score cards",
    "title_results": "{name}: round {n} results ({state})",
    "title_card_of": "{name}: score card of {entrant}",
    "round_n": "Round {n}",
    "round_n_of": "Round {n} of {rounds}",
    "col_rank": "Rank",
    "col_pair": "Pair",
    "col_player": "Player",
    "col_round_short": "R{n}",
    "col_vp": "VP",
    "col_mp": "MP",
    "col_played": "played",
    "col_byes": "byes",
    "col_tiebreak": "Tie-break",
    "col_table": "Table",
    "col_ns": "North-South",
    "col_ew": "East-West",
    "col_hand_n": "Hand {n}",
    "col_deal_set": "Deal set",
    "col_round": "Round",
    "col_opponents": "Opponents",
    "col_hands_own": "Hands (own:theirs)",
    "col_diff": "Diff",
    "col_total_vp": "Total VP",
    "col_state": "State",
    "table_side": "table {n} {side}",
    "tx_table": "table",
    "side_ns": "NS",
    "side_ew": "EW",
    "with_partner": "with {partner} v {opponents}",
    "deal_set_n": "deal set {n}",
    "adjustment": "adjustment",
    "penalty": "penalty",
    "card_rank": "Rank {rank}: {vp} VP, MP {mp}",
    "in_round": "round {n}",
    "col_code": "Seat code",
    "card_code_label": "Seat code:",
    "card_code_note": "to take your seat online; keep it to yourself and your partner",
    "codes_note": "The director's copy, with the seat codes: not for the wall",
    # the public page
    "tournaments": "Tournaments",
    "skip_to_main": "Skip to the main content",
    "no_tournament_yet": "No tournament yet.",
    "new_tournament": "A new tournament",
    "f_name": "Name",
    "f_format": "Format",
    "f_rounds": "Rounds",
    "f_hands": "Hands a round",
    "f_variant": "Variant",
    "b_create": "Create",
    "created_keep_key": "created: this browser now holds the director's key (for another "
                        "device: \"Another device\" at the bottom of this page)",
    "ev_registering": "registration",
    "ev_finished": "finished",
    "need_account": "Creating a tournament needs a registered account.",
    "log_in": "Sign in",
    "find_my_table": "Find my table",
    "printable_standings": "Printable standings",
    "table_assignments": "Table assignments",
    "registration": ("Registration: {n} entrant. The first round has not started.",
                     "Registration: {n} entrants. The first round has not started."),
    "being_played": "being played",
    "round_clock": "Round clock:",
    "time": "time",
    "hand_clock_note": "Each hand has its own time-out, {n} minutes after its deal.",
    "st_result": "result {ns} : {ew}, VP {vns} - {vew}",
    "st_paper": "playing on paper",
    "st_waiting": "online: waiting for players ({n} of 4 seated)",
    "st_over": "online: finished, entering the result",
    "st_hand": "online: hand {n} of {hands}, {ns} : {ew}",
    "st_last_lap": "time called: last lap",
    "st_absent": "absent: {names}",
    "st_away": "a bot plays for {names}",
    "players_page": "Players: find my table",
    "your_name": "Your name, as registered",
    "take_my_seat": "Take my seat",
    "your_code": "Seat code",
    "code_note": "The seat code is printed on your score card; the director has it too.",
    "assignments_and_standings": "Assignments and standings",
    "title_find": "{name}: find my table",
    # the director's page
    "title_director": "{name}: director",
    "public_page": "Public page",
    "print_standings": "Standings",
    "print_results": "Results",
    "print_tables": "Tables",
    "print_cards": "Cards",
    "entrants": "Entrants",
    "f_player": "Player",
    "f_partner": "Partner",
    "f_club": "Club",
    "f_rating": "Rating",
    "b_register": "Register",
    "f_csv_file": "A CSV file",
    "f_csv": "CSV (name, player1, player2 or player, club, rating)",
    "b_import": "Import",
    "f_bots": "Bots",
    "f_bot": "Bot",
    "b_register_bots": "Register bots",
    "withdrawn": "withdrawn",
    "not_played": "not played",
    "given_average": "average",
    "given_assigned": "assigned score",
    "f_withdraw": "Withdraw entrant",
    "b_withdraw": "Withdraw",
    "table_n": "Table {n}",
    "f_paper": "Paper result, NS:EW a hand",
    "b_enter": "Enter",
    "b_fill": "Seat bots in empty seats",
    "b_online": "Play online",
    "b_close_round": "Close round {n}",
    "f_play_online": "play the tables online",
    "f_clock": "Clock",
    "clock_round": "the round",
    "clock_hand": "each hand",
    "f_minutes": "Minutes",
    "b_start_round": "Start round {n}",
    "all_played": "Every round has been played",
    "tools": "Corrections and the director's tools",
    "f_round": "Round",
    "f_table": "Table",
    "f_points": "NS:EW a hand",
    "b_correct": "Correct",
    "f_entrant": "Entrant",
    "f_reason": "Reason",
    "f_penalty": "penalty",
    "b_adjust": "Adjust",
    "f_draw": "Draw among the tied, first placed first (numbers, commas)",
    "b_draw": "Record the draw",
    "b_remove": "Remove (before round 1)",
    "entrant_tools": "Edit an entrant, a substitute, a late entrant",
    "b_edit": "Save the changes",
    "edit_note": "Blank fields stay as they are. A pair named after its players is renamed with "
                 "them.",
    "b_substitute": "Substitute",
    "f_replaced": "Player replaced (name, or 1 or 2)",
    "f_substitute": "New player",
    "b_late": "Register a late entrant",
    "late_note": "Paired from the next round; the rounds missed score nothing.",
    "b_not_played": "Score a table not played",
    "f_not_played_how": "Score",
    "f_vp_ns": "VP North-South",
    "f_vp_ew": "VP East-West",
    "not_played_note": "Average: each side's average VP so far; assigned score: the VP you give "
                       "each side (0 to 20).",
    "log_title": "The director's log",
    "col_when": "When (UTC)",
    "col_by": "By",
    "col_what": "What",
    "log_undone": "undone",
    "b_undo": "Undo entry {n}",
    "log_note": "Only the newest step can be undone; undo again to go further back. The "
                "standings follow.",
    "by_director": "director",
    "by_phones": "players' phones",
    "by_online": "online table",
    "m_undone": "entry {entry} undone: {text}",
    "m_edited": "{entrant}: saved",
    "m_late": "registered {entrant} (late: paired from the next round)",
    "m_removed": "removed {entrant}",
    "m_not_played": "round {round} table {table} not played: VP {vp}",
    "seats_title": "Seats and seat codes",
    "seats_note": "Each entrant claims its seats online with its code; one person holds one seat.",
    "col_held": "Held by",
    "held_by": "{player}: {who}",
    "f_slot": "Player (1 or 2)",
    "f_account": "Registered account",
    "b_release": "Release the seat",
    "b_give": "Give the seat",
    "b_new_code": "New code",
    "settings": "Settings",
    "b_save_settings": "Save the settings",
    "f_deal_sets": "Mitchell: deal sets (the East-West line skips a table)",
    "f_first_round": "Danish: the first round",
    "first_seeded": "by seeding",
    "first_random": "drawn at random",
    "f_bye_vp": "Bye VP",
    "f_bye_mp": "Bye MP",
    "print_find": "Alphabetical table list",
    "print_guide": "Guide cards",
    "print_sheets": "Score sheets",
    "print_compare": "Deal sets compared",
    "title_find_list": "{name}: round {n}, find your table",
    "title_guide": "{name}: Mitchell guide cards",
    "title_sheets": "{name}: round {n} score sheets",
    "title_compare": "{name}: every table on the same deal set",
    "col_name": "Name",
    "col_side": "Side",
    "col_ew_next": "East-West go to table",
    "col_deal_next": "Deal set goes to table",
    "col_players": "Players",
    "col_total": "Total",
    "col_signature": "Signatures",
    "guide_only_mitchell": "Guide cards are for a Mitchell; this event is paired round by round.",
    "guide_skip": "After round {n} the East-West pairs skip a table: they move up two tables.",
    "skip_mark": "skip: two tables up",
    "compare_none": "No deal set has been played yet (deal sets are a Mitchell's prepared hands).",
    "other_device": "Another device",
    "other_device_note": "To direct from another phone or computer, open this link there once. "
                         "Keep it to yourself: it is the director's key.",
    "seat_tools": "Release, give or renew a seat",
    "csv_note": "Commas, semicolons or tabs; UTF-8 or Windows-1252; a header line in English "
                "or Italian (nome, giocatore1, giocatore2, circolo, rating).",
    # results from the players' phones (entries.py)
    "enter_title": "{name}: our table's result",
    "enter_result": "Enter our table's result",
    "enter_note": "One side enters the score sheet, the other side enters it too to confirm; "
                  "the director sees both.",
    "f_ns_hand": "Hand {n}: North-South",
    "f_ew_hand": "Hand {n}: East-West",
    "b_send_sheet": "Send the sheet",
    "m_entry_waiting": "table {table}: sheet received; now the other side enters it to confirm",
    "m_entry_entered": "table {table}: both sides agree, the result is entered",
    "m_entry_held": "table {table}: both sides agree; the director checks it before it counts",
    "m_entry_disputed": "table {table}: the two sides' sheets differ: call the director",
    "m_entry_done": "table {table} already has its result",
    "entry_line": "{side} {entrant}: {sheet}",
    "st_disputed": "the sides' sheets differ",
    "st_held": "sheet confirmed, waiting for the director",
    "st_one_side": "one side has entered the sheet",
    "warn_far": "hand {hand}: {side} {points} is far outside what is scored ({low} to {high})",
    "warn_disputed": "the two sides entered different sheets: enter the paper sheet",
    "b_accept": "Accept the confirmed sheet",
    "m_accepted": "round {round} table {table}: the confirmed sheet is entered",
    # what a director's step did
    "m_registered": "registered {entrant}",
    "m_registered_n": ("registered {n} entrant", "registered {n} entrants"),
    "m_registered_bot_pairs": ("registered {n} pair of bots", "registered {n} pairs of bots"),
    "m_registered_bot_players": ("registered {n} bot player", "registered {n} bot players"),
    "m_withdrawn": "{entrant} withdrawn",
    "m_started": ("round {round} started: {n} table", "round {round} started: {n} tables"),
    "m_entered": "round {round} table {table}: entered",
    "m_corrected": "round {round} table {table}: corrected",
    "m_online": "table {table} is played online ({id})",
    "m_filled": ("table {table}: {n} bot seated", "table {table}: {n} bots seated"),
    "m_closed": "round {n} closed",
    "m_adjustment": "adjustment for entrant {entrant}: {vp} VP, {mp} MP",
    "m_penalty": "penalty for entrant {entrant}: {vp} VP, {mp} MP",
    "m_draw": "draw recorded: {order}",
    "m_released": ("{entrant}: {n} seat released", "{entrant}: {n} seats released"),
    "m_given": "{entrant}: the seat is {who}'s",
    "m_new_code": "{entrant}: new seat code {code}",
    "m_settings": "settings saved: {summary}",
    # refusals with words of their own (TournamentError.key)
    "e_still_open": "round {n} is still open: close it first",
    "e_all_played": ("all {n} round has been played", "all {n} rounds have been played"),
    "e_multiple": "hand {hand}: {points} is not a multiple of {unit}",
    "e_has_result": "round {round} table {table} already has a result: correct it instead",
    "e_missing": ("round {round}: no result yet for table {tables}",
                  "round {round}: no result yet for tables {tables}"),
    "e_no_round_now": "no round is being played now",
    "e_draw_not_tied": "{names} are not tied in the standings of round {round}; tied now: "
                       "{ties}",
    "e_draw_nobody_tied": "nobody is tied in the standings of round {round}: no draw is needed",
    "e_draw_no_results": "nobody is tied: no result has been entered yet",
    "e_draw_part": "a draw orders every entrant of the tie: {tie} are tied in the standings "
                   "of round {round}",
    "e_draw_again": "the tie of {names} in round {round} was already drawn: {order}",
    "e_give_name": "give the name you were registered with",
    "e_not_online": "{name} plays at table {table}, which is not played online: ask the director",
    "e_seat_taken": "{name}'s seat at table {table} is already taken by {who}: ask the director",
    "e_already_seated": "you already sit at this table",
    "e_nobody_named": "nobody named {name} plays in round {round}",
    "e_wrong_code": "this seat code is nobody's: type the code printed on your score card, "
                    "or ask the director",
    "e_give_code": "a name alone takes no seat: give your seat code, printed on your score "
                   "card (ask the director)",
    "e_holds_other": "you already hold a seat of entrant {entrant} in this event: one person "
                     "plays one seat; ask the director",
    "e_seats_held": "the seats of {name} are already held: ask the director",
    "e_seat_held": "{name}'s seat is already held by {who}: ask the director",
    "e_no_table": "{name} has no table in round {round} (a bye, or withdrawn)",
    "e_no_round": "no round has started",
    "e_need_key": "the director's pages need the director's key",
    "e_not_confirmed": "round {round} table {table}: no sheet both sides agree on",
    "e_need_account": "creating a tournament needs a registered account: sign in (or start "
                      "the server with --open-tournaments)",
    "e_player_taken": "{player} already plays in entrant {entrant}: a player is in one entrant "
                      "(give namesakes a distinguishing initial)",
    "e_sheet_count": ("a round has {n} hand: give {numbers} numbers (North-South and East-West "
                      "of each hand), not {given}",
                      "a round has {n} hands: give {numbers} numbers (North-South and East-West "
                      "of each hand), not {given}"),
}
"""Every text of the tournament pages and printouts by key: its English msgid,
or (singular, plural) msgids."""


VARIANT_TITLES: Dict[str, str] = {
    "italian": "Italian Burraco",
    "italian-tournament": "Italian Burraco, tournament",
    "brazilian": "Brazilian Buraco",
    "burraco-2p": "Burraco for two",
    "open-dirty": "Buraco Open-Dirty",
    "open": "Buraco Open",
    "closed": "Buraco Closed",
    "closed-dirty": "Buraco Closed-Dirty",
    "closed-nscr": "Buraco Closed NSCR",
    "international": "International Burraco",
    "aberto": "Buraco aberto",
    "fechado": "Buraco fechado",
    "fechado-stbl": "Buraco fechado STBL",
}
"""Each preset's name as players know it: the msgids (context ``variant``) the
browser table's pages translate (web/static/js/words.js), so a page or a
printout never shows the preset's internal id (``italian-tournament``)."""


class Words(i18n.KeyedWords):
    """The tournament's words (:data:`WORDS`, in the context :data:`CONTEXT`) in
    one language of :data:`~burraco.i18n.LANGS`; an unknown key is shown as itself
    (a missing word is visible, never a crash)."""

    WORDS = WORDS
    CONTEXT = CONTEXT

    def error(self, ex: BaseException) -> str:
        """A refusal in this language: the words of its ``key`` when it has some
        (:class:`~.model.TournamentError`), else its English message."""
        key = "e_" + str(getattr(ex, "key", None))
        if self.lang == "en" or key not in WORDS:
            return str(ex)
        params = dict(getattr(ex, "params", {}) or {})
        if isinstance(WORDS[key], tuple) and "n" not in params:
            return str(ex)
        try:
            return self(key, **params)
        except (KeyError, IndexError, TypeError):
            return str(ex)

    def variant_name(self, spec: str) -> str:
        """A variant as players know it, in this language (``italian-tournament``
        -> "Burraco italiano, torneo"); a preset with switches of its own
        (``italian:hand_size=13``) keeps them after its name."""
        base, colon, rest = (spec or "").partition(":")
        if base not in VARIANT_TITLES:
            return spec
        name = i18n.pgettext(self.lang, "variant", VARIANT_TITLES[base])
        return name + (f" ({rest})" if colon else "")

    def entrant_column(self, kind: str) -> str:
        """The heading of the column of entrants: "Pair" in a pairs event,
        "Player" in an individual one."""
        return self("col_player" if kind == "individual" else "col_pair")

    def format_name(self, fmt: str) -> str:
        """A movement's name (``modified-danish`` -> "modified Danish")."""
        key = "fmt_" + fmt.replace("-", "_")
        return self(key) if key in WORDS else fmt


ENGLISH = Words("en")


# ------------------------------------------------------------ the catalogue
def update(po_path: Path, new: Optional[Dict[str, object]] = None) -> int:
    """Rewrite the tournament section of one ``burraco.po`` from :data:`WORDS`
    (translations in ``new``, by key, put in when given; those written there
    kept); returns how many words have no translation there."""
    text = po_path.read_text(encoding="utf-8")
    before, found, rest = text.partition("\n" + SECTION + "\n")
    mine: Dict[Tuple[Optional[str], str], object] = {}
    if found:
        after_start = rest.find("\n# ---- ")
        section, after = (rest, "") if after_start < 0 else (rest[:after_start + 1],
                                                             rest[after_start + 1:])
        mine = translations_in(section)
    else:
        # a new section goes just before the next one (the browser table's), or at the end
        at = text.find("\n# ---- ")
        before, after = (text[:at], text[at + 1:]) if at >= 0 else (text.rstrip("\n"), "")
    out: List[str] = [before.rstrip("\n"), "", SECTION, ""]
    missing = 0
    # words that share their English are one entry (msgfmt refuses a msgid twice),
    # its comment naming every key
    keys: Dict[str, List[str]] = {}
    for key, entry in WORDS.items():
        keys.setdefault(entry[0] if isinstance(entry, tuple) else entry, []).append(key)
    for msgid, same in keys.items():
        entry = WORDS[same[0]]
        plural = entry[1] if isinstance(entry, tuple) else None
        old = next((new[k] for k in same if new and new.get(k)), None) \
            or mine.get((CONTEXT, msgid))
        lines, n = entry_lines(CONTEXT, msgid, plural, old, comment=", ".join(same))
        out += lines
        missing += n
    po_path.write_text("\n".join(out) + ("\n" + after if after else ""), encoding="utf-8")
    return missing


def main(argv: Optional[List[str]] = None) -> int:
    """Update every language's tournament section; print what needs translating."""
    return update_every_language(update)


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["CONTEXT", "ENGLISH", "SECTION", "VARIANT_TITLES", "WORDS", "Words", "update"]
