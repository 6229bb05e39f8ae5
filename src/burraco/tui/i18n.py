"""The words of ``burraco play``, looked up in the shared gettext catalogue.

:data:`WORDS` names every text of the terminal app by a stable key; its value is
the English text (the gettext msgid of the ``burraco`` domain), or a pair
``(singular, plural)`` for a text that counts something (``{n}``), looked up with
``ngettext`` so every language gets its own plural form ("1 card", "2 cards").
The translations live in ``burraco/locale/<locale>/LC_MESSAGES/burraco.po``
(shared with the browser table; compile with ``python -m burraco.i18n``).
Texts are ``str.format`` templates.  :class:`Translator` looks a key up in one
language.  The sentences of refused moves are in :mod:`.refusals`.
"""

from __future__ import annotations

from typing import Dict, Tuple, Union

from .. import i18n as catalogue
from ..i18n import LANGS, detect_lang, normalize_lang
from .refusals import explain

WORDS: Dict[str, Union[str, Tuple[str, str]]] = {'app_title': 'Burraco',
 'hand_n': 'hand {n}',
 'match_score_to': 'match: {scores} (to {target})',
 'match_score': 'match: {scores}',
 'hand_score': 'on the table: {score}',
 'hand_over': 'The hand is over.',
 'your_turn_draw': 'Your turn: draw from the stock (d) or pick up the discard pile (p).',
 'your_turn_play': 'Your turn: meld (m), add to a meld (a), then discard (x).',
 'their_turn': '{who} is playing…',
 'stock': 'Stock {n}',
 'reserve': 'Reserve packets {n}',
 'reserve_taken': 'taken by {who}',
 'cards_short': '{who} ({n})',
 'cards_of': ('{who} {n} card', '{who} {n} cards'),
 'pile_open': 'Discard pile ({n})',
 'pile_closed': 'Discard pile, closed ({n})',
 'pile_empty': 'empty',
 'your_hand': ('Your hand: {n} card, {order}', 'Your hand: {n} cards, {order}'),
 'by_suit': 'by suit',
 'by_rank': 'by rank',
 'selected': 'selected: {cards}',
 'hand_hint': '←/→ move, space or click selects, * = wild',
 'burraco_word': 'burraco',
 'label_clean': 'clean',
 'label_semi_clean': 'semi-clean',
 'label_dirty': 'dirty',
 'label_royal': 'royal',
 'label_wild': 'of wilds',
 'label_twos': 'of 2s',
 'you': 'You',
 'west': 'West',
 'north': 'North',
 'east': 'East',
 'player_n': 'P{n}',
 'side_us': 'Us',
 'side_them': 'Them',
 'side_n': 'Side {n}',
 'hand_start_you': 'Hand {n}: you play first.',
 'you_drew': 'You drew {card}.',
 'points': ('{n} pt', '{n} pts'),
 'hand_start': 'Hand {n}: {who} plays first.',
 'not_your_turn': 'Wait: it is not your turn.',
 'refused': 'Refused: {why}',
 'you_picked_up': ('You picked up the discard pile ({n} card).',
                   'You picked up the discard pile ({n} cards).'),
 'you_take_reserve': 'You take your reserve packet.',
 'select_first': 'Select cards first (space or click).',
 'no_melds_yet': 'Your side has no melds yet.',
 'choose_meld': 'Choose the meld first: click it, or ↑/↓ or its number.',
 'discard_one': 'Select exactly one card to discard.',
 'target_is': 'Target meld: {n}.',
 'not_your_meld': 'That meld belongs to the other side.',
 'bot_illegal': '{who} offered an illegal move; its first legal move was played.',
 'takes_reserve': '{who} takes the reserve packet.',
 'log_draw': '{who} draws from the stock.',
 'log_pickup': ('{who} picks up the discard pile ({n} card): {cards}.',
                '{who} picks up the discard pile ({n} cards): {cards}.'),
 'log_pickup_with': ('{who} picks up the discard pile ({n} card) and lays {cards}.',
                     '{who} picks up the discard pile ({n} cards) and lays {cards}.'),
 'log_pickup_onto': ('{who} picks up the discard pile ({n} card), {card} onto meld {meld}.',
                     '{who} picks up the discard pile ({n} cards), {card} onto meld {meld}.'),
 'log_meld': '{who} melds {cards}.',
 'log_add': '{who} adds {cards} to meld {meld}.',
 'log_discard': '{who} discards {card}.',
 'closed_by': '{who} closed the hand.',
 'status_stock_exhausted': 'The stock ran out: the hand ends without a close.',
 'status_time_out': 'Time is up: the hand ends without a close.',
 'status_in_progress': 'The hand was stopped.',
 'hand_result': 'Hand {n}',
 'item_table': 'cards on the table',
 'item_burracos': 'burracos',
 'item_closing': 'closing',
 'item_packet': 'reserve packet',
 'item_hand': 'cards left in hand',
 'item_open_wild': 'open melds of wilds',
 'item_total': 'hand total',
 'player_points': 'points for each player:',
 'match_total': 'match total',
 'record_saved': 'Record of this hand saved to {path}',
 'replay_hint': 'Check it with: {command}',
 'match_over': 'The match is over: {who} won.',
 'press_next': 'Enter: next hand · q: quit',
 'press_quit': 'Enter or q: leave',
 'records_where': 'Hand records are saved in {path}',
 'rules_title': 'Rules: {v}',
 'key_draw': 'draw',
 'key_pickup': 'pick up',
 'key_meld': 'meld',
 'key_add': 'add',
 'key_discard': 'discard',
 'key_sort': 'sort',
 'key_rules': 'rules',
 'key_quit': 'quit',
 'help_keys': "How to play: you sit South; the others are bots. On your turn draw a card from\nthe stock or pick up the discard pile, lay melds (sets of one rank or runs of\none suit, at least three cards, at most one wild card: jokers and 2s, marked\n*), add to your side's melds, and end the turn with a discard.\n\nKeys:\n  d            draw from the stock (or click the stock)\n  p            pick up the discard pile (or click it); closed piles: with the\n               selected cards, or onto the target meld\n  ←/→, space   move along your hand, select a card (or click the card)\n  m            lay the selected cards as a new meld\n  a            add the selected cards to the target meld (or click the meld)\n  ↑/↓ Tab 1-9  choose the target meld (or click it); your melds scroll to it\n  PgUp/PgDn    scroll the other side's melds\n  x            discard the selected card (or click the pile after selecting\n               it); x alone throws nothing away: select the card first\n  c, Esc       clear the selection\n  r            brazilian starter: throw back the first card and draw again\n  s            sort the hand by suit or by rank\n  l            the moves of this hand\n  t            the score sheet of the match\n  ?            the rules of the variant being played\n  q            leave (asks first; the match is saved for play --resume)\n  Enter        after a hand: the next hand\n",
 'rs_table': 'Players: {players}. This table: {n} players, {sides}.',
 'rs_pairs': 'in pairs (partners sit opposite)',
 'rs_singles': 'each for themselves',
 'rs_threes': 'in sides of partners every third seat',
 'rs_deck': 'Deck: {decks} × 52 cards and {jokers} jokers; {hand} cards each.',
 'rs_packets': 'Reserve packets (pozzetto / morto): {sizes} cards.',
 'rs_packet_side': 'Each side takes at most one reserve packet.',
 'rs_packet_player': 'Each player takes at most one reserve packet.',
 'rs_first_up': 'The first card of the stock is turned up to start the discard pile.',
 'rs_first_down': 'The discard pile starts empty.',
 'rs_pile_open': 'Discard pile: open, you may take the whole pile freely.',
 'rs_pile_pair': 'Discard pile: closed, taken only with a natural pair matching the top card, '
                 'laying the three at once.',
 'rs_pile_top': 'Discard pile: closed, taken only if the top card goes down at once, in a new meld '
                "with hand cards or onto one of your side's melds.",
 'rs_wild_top_no': 'A wild card on top of the discard pile can never be taken.',
 'rs_pickup_must_meld': 'Whoever takes the discard pile must meld or add in the same turn.',
 'rs_wilds': 'Wild cards: jokers and 2s (marked * on screen); at most one wild card per meld.',
 'rs_all_wild': 'Melds of wild cards only are allowed (all-wild cerrado {w}, of 2s {t}; an open '
                'all-wild meld counts -{p}).',
 'rs_natural_twos': 'A 2 may also stand as itself in a run of its suit (A-2-3).',
 'rs_no_natural_twos': 'A 2 is always wild; runs skip it (A 3 4 … K A).',
 'rs_sets': 'Sets: three or more cards of one rank (suits may repeat).',
 'rs_sets_ranks': 'Sets only of these ranks: {ranks}.',
 'rs_no_sets': 'No sets: runs only.',
 'rs_runs': 'Runs: three or more cards of one suit in sequence; the ace is low (A-2-3) or high '
            '(Q-K-A), never both.',
 'rs_ace_to_ace': 'A run may go from ace to ace (14 cards).',
 'rs_closes_at': 'A meld closes at {n} cards (cerrado) and leaves the table.',
 'rs_melds_side': "Melds belong to the side: partners add to each other's melds.",
 'rs_melds_player': 'Each player has their own melds.',
 'rs_burraco': 'A burraco has seven cards or more: clean (no wild acting) or dirty.',
 'rs_direct': 'Emptying your hand by melding takes the reserve at once, and you keep playing.',
 'rs_indirect': 'Discarding your last card takes the reserve, played from your next turn.',
 'rs_needs_burraco': 'At {n} players a side needs a burraco before taking its reserve.',
 'rs_refills': 'A reserve packet replaces an empty stock.',
 'rs_close_any': 'To close, your side needs its reserve taken and at least one burraco.',
 'rs_close_clean': 'To close, your side needs its reserve taken and at least one clean burraco.',
 'rs_close_discard': 'Closing needs a final discard.',
 'rs_close_no_discard': 'Closing needs no final discard (you may meld out).',
 'rs_close_no_wild': 'The closing discard may not be a wild card.',
 'rs_end_two': 'The hand also ends when two cards remain in the stock.',
 'rs_end_empty': 'The hand also ends when the stock is empty and no reserve refills it.',
 'rs_throw_back_no': 'A one-card pile just picked up may not be thrown straight back.',
 'rs_redraw': 'The starter may throw back the first card drawn and draw the next one (r).',
 'rs_values': 'Card values: 3-7 {a}, 8-K {b}, A {c}, 2 {d}, joker {e}.',
 'rs_bonus': 'Burracos: clean {clean}, dirty {dirty}.',
 'rs_semi': 'Semi-clean burraco (one wild outside seven natural cards): {n}.',
 'rs_aces': 'Of aces: clean {clean}, dirty {dirty}.',
 'rs_royal': 'A clean run of all thirteen ranks: {n}.',
 'rs_ace_ace_bonus': 'A clean run from ace to ace: {n}.',
 'rs_scores': 'Closing {c}; taking the reserve {pb}; a reserve never taken -{pp}; cards on the '
              'table count for you, cards left in hand against you.',
 'rs_target': 'The match ends when a side reaches {n} points.',
 'rs_hands': ('The match is {n} hand.', 'The match is {n} hands.'),
 'log_closed': '{who} closed the hand.',
 'log_you_pickup': ('You pick up the discard pile ({n} card): {cards}.',
                    'You pick up the discard pile ({n} cards): {cards}.'),
 'log_you_pickup_with': ('You pick up the discard pile ({n} card) and lay {cards}.',
                         'You pick up the discard pile ({n} cards) and lay {cards}.'),
 'log_you_pickup_onto': ('You pick up the discard pile ({n} card), {card} onto meld {meld}.',
                         'You pick up the discard pile ({n} cards), {card} onto meld {meld}.'),
 'log_you_meld': 'You meld {cards}.',
 'log_you_add': 'You add {cards} to meld {meld}.',
 'log_you_discard': 'You discard {card}.',
 'log_you_redraw': 'You throw {card} back and draw again.',
 'log_you_packet': ('You take a reserve packet ({n} card).',
                    'You take a reserve packet ({n} cards).'),
 'key_redraw': 'redraw',
 'key_log': 'log',
 'key_scores': 'scores',
 'close_hint': 'Esc or {key} closes',
 'log_title': 'Moves of hand {n}',
 'log_empty': 'No moves yet.',
 'log_you_draw': 'You draw {card} from the stock.',
 'log_redraw': '{who} throws {card} back and draws again.',
 'log_discard_covered': '{who} discards a card, covered since.',
 'log_you_discard_covered': 'You discard a card, covered since.',
 'log_redraw_covered': '{who} throws a card back, covered since, and draws again.',
 'log_you_redraw_covered': 'You throw a card back, covered since, and draw again.',
 'log_you_drew': 'You draw from the stock.',
 'log_packet': ('{who} takes a reserve packet ({n} card).',
                '{who} takes a reserve packet ({n} cards).'),
 'log_stock_out': 'The stock has run out: the hand is over.',
 'log_time_out': 'Time! The turn under way is finished, then the last lap.',
 'log_time_out_from': 'Time! The last lap starts with {who}.',
 'log_lap_over': 'The last lap is over: the hand ends without a close.',
 'clock_last_lap': 'last lap',
 'sheet_title': 'Score sheet',
 'sheet_empty': 'No hand finished yet.',
 'sheet_target': 'The match is played to {n}.',
 'hand_keys': 'Enter: next hand · r: review · t: scores · l: moves · q: quit',
 'hand_keys_over': 'Enter or q: leave · r: review · t: scores · l: moves',
 'quit_question': 'Leave the match?',
 'quit_detail': 'It is saved: {command} takes it up where it stands.',
 'quit_keys': 'y: leave · n: stay',
 'resumed': 'The match goes on: hand {n}.',
 'resume_prompt': 'A match is saved ({variant}, hand {n}). Take it up again? [Y/n] ',
 'notation': 'Cards: hearts and diamonds in red, wild cards (jokers ★ and 2s) in yellow with *. Hand records write ranks A 2-9 T J Q K and suits C D H S, the joker JK:',
 'rs_time_out': 'Time-out: {n} minutes a hand (the clock at the top right); then the last lap starts from the partner of the player due to draw, and a hand without a close scores no closing bonus.',
 'saved_for_resume': 'The match is saved: {command} takes it up.',
 'discard_select': 'Select the card to discard first (space or click), then x.',
 'hand_score_burracos': ('on the table: {score} · {n} burraco',
                         'on the table: {score} · {n} burracos'),}
"""Every text of the app by key: its English msgid, or (singular, plural) msgids."""


VARIANT_NAMES: Dict[str, str] = {
    "italian": "italian", "italian-tournament": "italian-tournament",
    "brazilian": "brazilian", "burraco-2p": "burraco-2p", "open-dirty": "open-dirty",
    "open": "open", "closed": "closed", "closed-dirty": "closed-dirty",
    "closed-nscr": "closed-nscr", "international": "international"}
"""The presets whose names have a translation (msgctxt ``variant``): the name
the command line takes is the msgid.  ``aberto``, ``fechado`` and
``fechado-stbl`` are names in every language."""


class VariantNames(catalogue.KeyedWords):
    """The presets' names in one language (the header, the rules page)."""

    WORDS = VARIANT_NAMES
    CONTEXT = "variant"


def variant_name(name: str, lang: str) -> str:
    """A variant's name as the table shows it in ``lang``: a preset's name
    translated, a custom variant's (``italian:hand_size=13``) base translated
    and its switches as written."""
    base, colon, rest = name.partition(":")
    return VariantNames(lang)(base) + colon + rest if base in VARIANT_NAMES else name


class Translator(catalogue.KeyedWords):
    """Looks the terminal table's texts (:data:`WORDS`) up in one language of
    :data:`~burraco.i18n.LANGS`; an unknown key is shown as itself (so a missing
    word is visible, never a crash)."""

    WORDS = WORDS


__all__ = ["LANGS", "WORDS", "VARIANT_NAMES", "VariantNames", "variant_name", "Translator",
           "detect_lang", "explain", "normalize_lang"]
