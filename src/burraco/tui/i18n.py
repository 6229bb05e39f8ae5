"""The message catalogue of ``burraco play``: English, Italian, Brazilian
Portuguese and German.

:data:`MESSAGES` holds one dict per language with the same keys; texts are
``str.format`` templates.  :func:`detect_lang` picks the language from the
system locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext
does), :class:`Translator` looks keys up (falling back to English), and
:func:`explain` turns an :class:`~burraco.state.IllegalMove` into a sentence of
the chosen language naming the rule it breaks.  Cards keep their notation
(``7H``, ``JK``) in every language.
"""

from __future__ import annotations

import os
from typing import Dict, Mapping, Optional

LANGS = ("en", "it", "pt", "de")
"""The languages of the app."""

EN: Dict[str, str] = {
    # --- table
    "app_title": "Burraco",
    "hand_n": "hand {n}",
    "match_score_to": "match: {scores} (to {target})",
    "match_score": "match: {scores}",
    "hand_score": "on the table: {score}",
    "hand_over": "The hand is over.",
    "your_turn_draw": "Your turn: draw from the stock (d) or pick up the discard pile (p).",
    "your_turn_play": "Your turn: meld (m), add to a meld (a), then discard (x).",
    "their_turn": "{who} is playing…",
    "stock": "Stock {n}",
    "reserve": "Reserve packets {n}",
    "reserve_taken": "taken by {who}",
    "cards_short": "{who} ({n})",
    "cards_of": "{who} {n} cards",
    "pile_open": "Discard pile ({n})",
    "pile_closed": "Discard pile, closed ({n})",
    "pile_empty": "empty",
    "your_hand": "Your hand: {n} cards, {order}",
    "by_suit": "by suit",
    "by_rank": "by rank",
    "selected": "selected: {cards}",
    "hand_hint": "←/→ move, space or click selects, * = wild",
    "burraco_word": "burraco",
    "label_clean": "clean",
    "label_semi_clean": "semi-clean",
    "label_dirty": "dirty",
    "label_royal": "royal",
    "label_wild": "of wilds",
    "label_twos": "of 2s",
    "you": "You",
    "west": "West",
    "north": "North",
    "east": "East",
    "player_n": "P{n}",
    "side_us": "Us",
    "side_them": "Them",
    "side_n": "Side {n}",
    "hand_start_you": "Hand {n}: you play first.",
    "you_drew": "You drew {card}.",
    "points": "{n} pts",
    "hand_start": "Hand {n}: {who} plays first.",
    # --- moves and messages
    "not_your_turn": "Wait: it is not your turn.",
    "refused": "Refused: {why}",
    "you_picked_up": "You picked up the discard pile ({n} cards).",
    "you_take_reserve": "You take your reserve packet.",
    "select_first": "Select cards first (space or click).",
    "no_melds_yet": "Your side has no melds yet.",
    "choose_meld": "Choose the meld first: click it, or ↑/↓ or its number.",
    "discard_one": "Select exactly one card to discard.",
    "target_is": "Target meld: {n}.",
    "not_your_meld": "That meld belongs to the other side.",
    "bot_illegal": "{who} offered an illegal move; its first legal move was played.",
    "takes_reserve": "{who} takes the reserve packet.",
    "log_draw": "{who} draws from the stock.",
    "log_redraw": "{who} throws the first card back and draws again.",
    "log_pickup": "{who} picks up the discard pile ({n} cards): {cards}.",
    "log_pickup_with": "{who} picks up the discard pile ({n} cards) and lays {cards}.",
    "log_pickup_onto": "{who} picks up the discard pile ({n} cards), {card} onto meld {meld}.",
    "log_meld": "{who} melds {cards}.",
    "log_add": "{who} adds {cards} to meld {meld}.",
    "log_discard": "{who} discards {card}.",
    # --- end of hand
    "closed_by": "{who} closed the hand.",
    "status_stock_exhausted": "The stock ran out: the hand ends without a close.",
    "status_time_out": "Time is up: the hand ends without a close.",
    "status_in_progress": "The hand was stopped.",
    "hand_result": "Hand {n}",
    "item_table": "cards on the table",
    "item_burracos": "burracos",
    "item_closing": "closing",
    "item_packet": "reserve packet",
    "item_hand": "cards left in hand",
    "item_open_wild": "open melds of wilds",
    "item_total": "hand total",
    "player_points": "points for each player:",
    "match_total": "match total",
    "record_saved": "Record of this hand saved to {path}",
    "replay_hint": "Check it with: burraco replay {path}",
    "match_over": "The match is over: {who} won.",
    "press_next": "Enter: next hand · q: quit",
    "press_quit": "Enter or q: leave",
    "records_where": "Hand records are saved in {path}",
    "rules_title": "Rules: {v}",
    "close_hint": "Esc or ? closes",
    # --- keys (footer and --help)
    "key_draw": "draw",
    "key_pickup": "pick up",
    "key_meld": "meld",
    "key_add": "add",
    "key_discard": "discard",
    "key_sort": "sort",
    "key_rules": "rules",
    "key_quit": "quit",
    "help_keys": (
        "How to play: you sit South; the others are bots. On your turn draw a card from\n"
        "the stock or pick up the discard pile, lay melds (sets of one rank or runs of one\n"
        "suit, at least three cards, at most one wild card: jokers and 2s, marked *), add to\n"
        "your side's melds, and end the turn with a discard.\n\n"
        "Keys:\n"
        "  d            draw from the stock (or click the stock)\n"
        "  p            pick up the discard pile (or click it); closed piles: with the\n"
        "               selected cards, or onto the target meld\n"
        "  ←/→, space   move along your hand, select a card (or click the card)\n"
        "  m            lay the selected cards as a new meld\n"
        "  a            add the selected cards to the target meld (or click the meld)\n"
        "  ↑/↓, 1-9     choose the target meld (or click it)\n"
        "  x            discard the selected card (or click the pile after selecting it)\n"
        "  c, Esc       clear the selection\n"
        "  r            brazilian starter: throw back the first card and draw again\n"
        "  s            sort the hand by suit or by rank\n"
        "  ?            the rules of the variant being played\n"
        "  q            quit (the hand in progress is saved too)\n"
        "  Enter        after a hand: the next hand\n"),
    # --- rules broken (IllegalMove.rule)
    "rule_cards_from_hand": "You can only play cards that are in your hand.",
    "rule_draw_first": "First draw from the stock or pick up the discard pile.",
    "rule_one_draw": "You have already drawn this turn: one draw a turn.",
    "rule_stock_empty": "The stock is empty.",
    "rule_redraw": "Only the starter may throw back the first card drawn, right after drawing it.",
    "rule_melds": "That is not a valid meld.",
    "rule_no_dead_ends": "You must keep a way to end your turn.",
    "rule_add": "Those cards cannot be added to that meld.",
    "rule_meld_closed": "That meld is closed (seven cards) and cannot grow.",
    "rule_discard_one": "Discard exactly one card.",
    "rule_international_pickup": "Whoever takes the discard pile must meld or add with it in "
                                 "the same turn.",
    "rule_throw_back": "A one-card pile just picked up may not be thrown straight back "
                       "(nor its twin).",
    "rule_last_card": "The last card may not be discarded while your side may not close yet.",
    "rule_closing_wild": "The closing discard may not be a wild card.",
    "rule_pile_empty": "The discard pile is empty.",
    "rule_wild_on_top": "A wild card on top of the discard pile can never be taken.",
    "rule_pile_open": "The discard pile is open: take it all, without cards.",
    "rule_pile_pair": "The pile is closed: take it with a natural pair matching the top card "
                      "(select exactly two cards).",
    "rule_pile_top": "The pile is closed: its top card must go down at once, with the selected "
                     "cards or onto the target meld.",
    "rule_hand_over": "The hand is over.",
    "rule_turn": "That move is not allowed now.",
    # --- details of an invalid meld (melds.why_not)
    "why_three": "A meld needs at least three cards.",
    "why_too_long": "A meld may not hold more than seven cards.",
    "why_all_wild": "A meld of wild cards only is not allowed.",
    "why_all_wild_size": "A meld of wild cards only needs three to seven wilds.",
    "why_no_sets": "Sets (cards of one rank) are not allowed in this variant.",
    "why_set_ranks": "Sets are allowed only of some ranks in this variant.",
    "why_one_wild": "A meld may hold at most one wild card (joker or 2).",
    "why_suit_or_rank": "A run must be of one suit and a set of one rank.",
    "why_repeat": "A run may not repeat a card.",
    "why_gaps": "The cards do not make a run without gaps (one wild may fill one gap; aces are "
                "low or high, never both).",
    # --- details of "no dead ends"
    "dead_single": "It would leave only the card just picked up from a one-card pile, which may "
                   "not be thrown straight back.",
    "dead_last_card": "Your last card could not be discarded, because your side may not close "
                      "yet.",
    "dead_wild": "Your last card would be a wild card, and the closing discard may not be wild.",
    "dead_no_direct": "The hand may not be emptied by melding (the reserve is taken only by "
                      "discarding): keep a card to discard.",
    "dead_final_discard": "Closing needs a final discard: keep a card to discard.",
    "dead_empty": "The hand may not be emptied: your side may not close yet.",
    # --- rules summary (? key)
    "rs_table": "Players: {players}. This table: {n} players, {sides}.",
    "rs_pairs": "in pairs (partners sit opposite)",
    "rs_singles": "each for themselves",
    "rs_threes": "in sides of partners every third seat",
    "rs_deck": "Deck: {decks} × 52 cards and {jokers} jokers; {hand} cards each.",
    "rs_packets": "Reserve packets (pozzetto / morto): {sizes} cards.",
    "rs_packet_side": "Each side takes at most one reserve packet.",
    "rs_packet_player": "Each player takes at most one reserve packet.",
    "rs_first_up": "The first card of the stock is turned up to start the discard pile.",
    "rs_first_down": "The discard pile starts empty.",
    "rs_pile_open": "Discard pile: open, you may take the whole pile freely.",
    "rs_pile_pair": "Discard pile: closed, taken only with a natural pair matching the top card, "
                    "laying the three at once.",
    "rs_pile_top": "Discard pile: closed, taken only if the top card goes down at once, in a new "
                   "meld with hand cards or onto one of your side's melds.",
    "rs_wild_top_no": "A wild card on top of the discard pile can never be taken.",
    "rs_pickup_must_meld": "Whoever takes the discard pile must meld or add in the same turn.",
    "rs_wilds": "Wild cards: jokers and 2s (marked * on screen); at most one wild card per meld.",
    "rs_all_wild": "Melds of wild cards only are allowed (all-wild cerrado {w}, of 2s {t}; "
                   "an open all-wild meld counts -{p}).",
    "rs_natural_twos": "A 2 may also stand as itself in a run of its suit (A-2-3).",
    "rs_no_natural_twos": "A 2 is always wild; runs skip it (A 3 4 … K A).",
    "rs_sets": "Sets: three or more cards of one rank (suits may repeat).",
    "rs_sets_ranks": "Sets only of these ranks: {ranks}.",
    "rs_no_sets": "No sets: runs only.",
    "rs_runs": "Runs: three or more cards of one suit in sequence; the ace is low (A-2-3) or high "
               "(Q-K-A), never both.",
    "rs_ace_to_ace": "A run may go from ace to ace (14 cards).",
    "rs_closes_at": "A meld closes at {n} cards (cerrado) and leaves the table.",
    "rs_melds_side": "Melds belong to the side: partners add to each other's melds.",
    "rs_melds_player": "Each player has their own melds.",
    "rs_burraco": "A burraco has seven cards or more: clean (no wild acting) or dirty.",
    "rs_direct": "Emptying your hand by melding takes the reserve at once, and you keep "
                 "playing.",
    "rs_indirect": "Discarding your last card takes the reserve, played from your next turn.",
    "rs_needs_burraco": "At {n} players a side needs a burraco before taking its reserve.",
    "rs_refills": "A reserve packet replaces an empty stock.",
    "rs_close_any": "To close, your side needs its reserve taken and at least one burraco.",
    "rs_close_clean": "To close, your side needs its reserve taken and at least one clean "
                      "burraco.",
    "rs_close_discard": "Closing needs a final discard.",
    "rs_close_no_discard": "Closing needs no final discard (you may meld out).",
    "rs_close_no_wild": "The closing discard may not be a wild card.",
    "rs_end_two": "The hand also ends when two cards remain in the stock.",
    "rs_end_empty": "The hand also ends when the stock is empty and no reserve refills it.",
    "rs_throw_back_no": "A one-card pile just picked up may not be thrown straight back.",
    "rs_redraw": "The starter may throw back the first card drawn and draw the next one (r).",
    "rs_values": "Card values: 3-7 {a}, 8-K {b}, A {c}, 2 {d}, joker {e}.",
    "rs_bonus": "Burracos: clean {clean}, dirty {dirty}.",
    "rs_semi": "Semi-clean burraco (one wild outside seven natural cards): {n}.",
    "rs_aces": "Of aces: clean {clean}, dirty {dirty}.",
    "rs_royal": "A clean run of all thirteen ranks: {n}.",
    "rs_ace_ace_bonus": "A clean run from ace to ace: {n}.",
    "rs_scores": "Closing {c}; taking the reserve {pb}; a reserve never taken -{pp}; cards on the "
                 "table count for you, cards left in hand against you.",
    "rs_target": "The match ends when a side reaches {n} points.",
    "rs_hands": "The match is {n} hand(s).",
}

IT: Dict[str, str] = {
    "app_title": "Burraco",
    "hand_n": "smazzata {n}",
    "match_score_to": "partita: {scores} (a {target})",
    "match_score": "partita: {scores}",
    "hand_score": "in tavola: {score}",
    "hand_over": "La smazzata è finita.",
    "your_turn_draw": "Tocca a te: pesca dal tallone (d) o raccogli gli scarti (p).",
    "your_turn_play": "Tocca a te: cala (m), attacca a un gioco (a), poi scarta (x).",
    "their_turn": "Sta giocando {who}…",
    "stock": "Tallone {n}",
    "reserve": "Pozzetti {n}",
    "reserve_taken": "presi da {who}",
    "cards_short": "{who} ({n})",
    "cards_of": "{who} {n} carte",
    "pile_open": "Scarti ({n})",
    "pile_closed": "Scarti, chiusi ({n})",
    "pile_empty": "vuoto",
    "your_hand": "La tua mano: {n} carte, {order}",
    "by_suit": "per seme",
    "by_rank": "per valore",
    "selected": "scelte: {cards}",
    "hand_hint": "←/→ muovi, spazio o clic sceglie, * = matta",
    "burraco_word": "burraco",
    "label_clean": "pulito",
    "label_semi_clean": "semipulito",
    "label_dirty": "sporco",
    "label_royal": "reale",
    "label_wild": "di matte",
    "label_twos": "di pinelle",
    "you": "Tu",
    "west": "Ovest",
    "north": "Nord",
    "east": "Est",
    "player_n": "G{n}",
    "side_us": "Noi",
    "side_them": "Loro",
    "side_n": "Squadra {n}",
    "hand_start_you": "Smazzata {n}: inizi tu.",
    "you_drew": "Hai pescato {card}.",
    "points": "{n} punti",
    "hand_start": "Smazzata {n}: inizia {who}.",
    "not_your_turn": "Aspetta: non è il tuo turno.",
    "refused": "Mossa rifiutata: {why}",
    "you_picked_up": "Hai raccolto gli scarti ({n} carte).",
    "you_take_reserve": "Prendi il tuo pozzetto.",
    "select_first": "Prima scegli le carte (spazio o clic).",
    "no_melds_yet": "La tua squadra non ha ancora giochi calati.",
    "choose_meld": "Prima scegli il gioco: cliccalo, oppure ↑/↓ o il suo numero.",
    "discard_one": "Scegli una sola carta da scartare.",
    "target_is": "Gioco scelto: {n}.",
    "not_your_meld": "Quel gioco è degli avversari.",
    "bot_illegal": "{who} ha proposto una mossa illegale; è stata giocata la sua prima mossa "
                   "legale.",
    "takes_reserve": "{who} prende il pozzetto.",
    "log_draw": "{who} pesca dal tallone.",
    "log_redraw": "{who} rimette la prima carta e ne pesca un'altra.",
    "log_pickup": "{who} raccoglie gli scarti ({n} carte): {cards}.",
    "log_pickup_with": "{who} raccoglie gli scarti ({n} carte) e cala {cards}.",
    "log_pickup_onto": "{who} raccoglie gli scarti ({n} carte), {card} sul gioco {meld}.",
    "log_meld": "{who} cala {cards}.",
    "log_add": "{who} attacca {cards} al gioco {meld}.",
    "log_discard": "{who} scarta {card}.",
    "closed_by": "{who} ha chiuso la smazzata.",
    "status_stock_exhausted": "Il tallone è finito: la smazzata termina senza chiusura.",
    "status_time_out": "Tempo scaduto: la smazzata termina senza chiusura.",
    "status_in_progress": "La smazzata è stata interrotta.",
    "hand_result": "Smazzata {n}",
    "item_table": "carte in tavola",
    "item_burracos": "burraco",
    "item_closing": "chiusura",
    "item_packet": "pozzetto",
    "item_hand": "carte rimaste in mano",
    "item_open_wild": "giochi aperti di sole matte",
    "item_total": "totale smazzata",
    "player_points": "punti di ciascun giocatore:",
    "match_total": "totale partita",
    "record_saved": "Registrazione della smazzata salvata in {path}",
    "replay_hint": "Controllala con: burraco replay {path}",
    "match_over": "La partita è finita: ha vinto {who}.",
    "press_next": "Invio: smazzata successiva · q: esci",
    "press_quit": "Invio o q: esci",
    "records_where": "Le registrazioni delle smazzate sono salvate in {path}",
    "rules_title": "Regole: {v}",
    "close_hint": "Esc o ? per chiudere",
    "key_draw": "pesca",
    "key_pickup": "raccogli",
    "key_meld": "cala",
    "key_add": "attacca",
    "key_discard": "scarta",
    "key_sort": "ordina",
    "key_rules": "regole",
    "key_quit": "esci",
    "help_keys": (
        "Come si gioca: tu siedi a Sud, gli altri sono bot. Al tuo turno pesca una carta dal\n"
        "tallone o raccogli gli scarti, cala giochi (tris dello stesso valore o scale dello\n"
        "stesso seme, almeno tre carte, al massimo una matta: jolly e pinelle, segnate *),\n"
        "attacca ai giochi della tua squadra e chiudi il turno scartando.\n\n"
        "Tasti:\n"
        "  d            pesca dal tallone (o clic sul tallone)\n"
        "  p            raccogli gli scarti (o clic sugli scarti); scarti chiusi: con le\n"
        "               carte scelte, o sul gioco scelto\n"
        "  ←/→, spazio  muoviti nella mano, scegli una carta (o clic sulla carta)\n"
        "  m            cala le carte scelte come nuovo gioco\n"
        "  a            attacca le carte scelte al gioco scelto (o clic sul gioco)\n"
        "  ↑/↓, 1-9     scegli il gioco (o clic sul gioco)\n"
        "  x            scarta la carta scelta (o clic sugli scarti dopo averla scelta)\n"
        "  c, Esc       annulla la scelta\n"
        "  r            brasiliano, chi inizia: rimetti la prima carta e pesca di nuovo\n"
        "  s            ordina la mano per seme o per valore\n"
        "  ?            le regole della variante in gioco\n"
        "  q            esci (anche la smazzata in corso viene salvata)\n"
        "  Invio        a fine smazzata: la smazzata successiva\n"),
    "rule_cards_from_hand": "Puoi giocare solo carte che hai in mano.",
    "rule_draw_first": "Prima pesca dal tallone o raccogli gli scarti.",
    "rule_one_draw": "Hai già pescato in questo turno: si pesca una volta per turno.",
    "rule_stock_empty": "Il tallone è vuoto.",
    "rule_redraw": "Solo chi inizia può rimettere la prima carta pescata, subito dopo averla "
                   "pescata.",
    "rule_melds": "Non è un gioco valido.",
    "rule_no_dead_ends": "Devi poter ancora finire il turno.",
    "rule_add": "Quelle carte non si possono attaccare a quel gioco.",
    "rule_meld_closed": "Quel gioco è chiuso (sette carte) e non può crescere.",
    "rule_discard_one": "Si scarta una sola carta.",
    "rule_international_pickup": "Chi raccoglie gli scarti deve calare o attaccare nello stesso "
                                 "turno.",
    "rule_throw_back": "Una sola carta appena raccolta dagli scarti non si può riscartare subito "
                       "(né la sua gemella).",
    "rule_last_card": "L'ultima carta non si può scartare finché la tua squadra non può chiudere.",
    "rule_closing_wild": "Lo scarto di chiusura non può essere una matta.",
    "rule_pile_empty": "Gli scarti sono vuoti.",
    "rule_wild_on_top": "Una matta in cima agli scarti non si può mai raccogliere.",
    "rule_pile_open": "Gli scarti sono aperti: si raccolgono tutti, senza carte.",
    "rule_pile_pair": "Gli scarti sono chiusi: si raccolgono con una coppia naturale adatta alla "
                      "carta in cima (scegli esattamente due carte).",
    "rule_pile_top": "Gli scarti sono chiusi: la carta in cima va calata subito, con le carte "
                     "scelte o sul gioco scelto.",
    "rule_hand_over": "La smazzata è finita.",
    "rule_turn": "Questa mossa ora non è permessa.",
    "why_three": "Un gioco ha almeno tre carte.",
    "why_too_long": "Un gioco non può avere più di sette carte.",
    "why_all_wild": "Non si può calare un gioco di sole matte.",
    "why_all_wild_size": "Un gioco di sole matte ha da tre a sette matte.",
    "why_no_sets": "In questa variante i tris (carte dello stesso valore) non sono ammessi.",
    "why_set_ranks": "In questa variante i tris sono ammessi solo di alcuni valori.",
    "why_one_wild": "Un gioco può avere al massimo una matta (jolly o pinella).",
    "why_suit_or_rank": "Una scala è di un solo seme e un tris di un solo valore.",
    "why_repeat": "Una scala non può ripetere una carta.",
    "why_gaps": "Le carte non formano una scala senza buchi (una matta può coprire un buco; "
                "l'asso è basso o alto, mai entrambi).",
    "dead_single": "Resterebbe solo la carta appena raccolta dagli scarti, che non si può "
                   "riscartare subito.",
    "dead_last_card": "Non potresti scartare l'ultima carta, perché la tua squadra non può ancora "
                      "chiudere.",
    "dead_wild": "L'ultima carta sarebbe una matta, e lo scarto di chiusura non può essere una "
                 "matta.",
    "dead_no_direct": "Non puoi svuotare la mano calando (il pozzetto si prende solo scartando): "
                      "tieni una carta da scartare.",
    "dead_final_discard": "Per chiudere serve uno scarto finale: tieni una carta da scartare.",
    "dead_empty": "Non puoi svuotare la mano: la tua squadra non può ancora chiudere.",
    "rs_table": "Giocatori: {players}. A questo tavolo: {n} giocatori, {sides}.",
    "rs_pairs": "a coppie (i compagni siedono di fronte)",
    "rs_singles": "ciascuno per sé",
    "rs_threes": "a squadre con i compagni ogni tre posti",
    "rs_deck": "Mazzo: {decks} × 52 carte e {jokers} jolly; {hand} carte a testa.",
    "rs_packets": "Pozzetti: {sizes} carte.",
    "rs_packet_side": "Ogni squadra prende al massimo un pozzetto.",
    "rs_packet_player": "Ogni giocatore prende al massimo un pozzetto.",
    "rs_first_up": "La prima carta del tallone viene scoperta e apre gli scarti.",
    "rs_first_down": "Gli scarti partono vuoti.",
    "rs_pile_open": "Scarti: aperti, si possono raccogliere tutti liberamente.",
    "rs_pile_pair": "Scarti: chiusi, si raccolgono solo con una coppia naturale adatta alla carta "
                    "in cima, calando subito le tre carte.",
    "rs_pile_top": "Scarti: chiusi, si raccolgono solo se la carta in cima va subito in tavola, "
                   "in un nuovo gioco con carte della mano o su un gioco della squadra.",
    "rs_wild_top_no": "Una matta in cima agli scarti non si può mai raccogliere.",
    "rs_pickup_must_meld": "Chi raccoglie gli scarti deve calare o attaccare nello stesso turno.",
    "rs_wilds": "Matte: jolly e pinelle (2), segnate * sullo schermo; al massimo una matta per "
                "gioco.",
    "rs_all_wild": "Sono ammessi giochi di sole matte (chiusi: {w}, di soli 2: {t}; un gioco "
                   "aperto di sole matte vale -{p}).",
    "rs_natural_twos": "Un 2 può stare anche al suo posto in una scala del suo seme (A-2-3).",
    "rs_no_natural_twos": "Il 2 è sempre matta; le scale lo saltano (A 3 4 … K A).",
    "rs_sets": "Tris: tre o più carte dello stesso valore (i semi possono ripetersi).",
    "rs_sets_ranks": "Tris solo di questi valori: {ranks}.",
    "rs_no_sets": "Niente tris: solo scale.",
    "rs_runs": "Scale: tre o più carte dello stesso seme in sequenza; l'asso è basso (A-2-3) o "
               "alto (Q-K-A), mai entrambi.",
    "rs_ace_to_ace": "Una scala può andare da asso ad asso (14 carte).",
    "rs_closes_at": "Un gioco si chiude a {n} carte (cerrado) e lascia la tavola.",
    "rs_melds_side": "I giochi sono della squadra: i compagni attaccano ai giochi l'uno "
                     "dell'altro.",
    "rs_melds_player": "Ogni giocatore ha i suoi giochi.",
    "rs_burraco": "Un burraco ha sette carte o più: pulito (senza matte) o sporco.",
    "rs_direct": "Se svuoti la mano calando prendi subito il pozzetto e continui a giocare "
                 "(in diretta).",
    "rs_indirect": "Se scarti l'ultima carta prendi il pozzetto e lo giochi dal turno "
                   "successivo (in indiretta).",
    "rs_needs_burraco": "A {n} giocatori una squadra deve avere un burraco prima di prendere il "
                        "pozzetto.",
    "rs_refills": "Un pozzetto sostituisce il tallone vuoto.",
    "rs_close_any": "Per chiudere la squadra deve aver preso il pozzetto e avere almeno un "
                    "burraco.",
    "rs_close_clean": "Per chiudere la squadra deve aver preso il pozzetto e avere almeno un "
                      "burraco pulito.",
    "rs_close_discard": "Per chiudere serve uno scarto finale.",
    "rs_close_no_discard": "Per chiudere non serve uno scarto finale.",
    "rs_close_no_wild": "Lo scarto di chiusura non può essere una matta.",
    "rs_end_two": "La smazzata finisce anche quando restano due carte nel tallone.",
    "rs_end_empty": "La smazzata finisce anche quando il tallone è vuoto e nessun pozzetto lo "
                    "sostituisce.",
    "rs_throw_back_no": "Una sola carta appena raccolta dagli scarti non si può riscartare "
                        "subito.",
    "rs_redraw": "Chi inizia può rimettere la prima carta pescata e pescare la successiva (r).",
    "rs_values": "Valori: 3-7 {a}, 8-K {b}, A {c}, 2 {d}, jolly {e}.",
    "rs_bonus": "Burraco: pulito {clean}, sporco {dirty}.",
    "rs_semi": "Burraco semipulito (una matta fuori da sette carte naturali): {n}.",
    "rs_aces": "Di assi: pulito {clean}, sporco {dirty}.",
    "rs_royal": "Scala pulita di tutti e tredici i valori: {n}.",
    "rs_ace_ace_bonus": "Scala pulita da asso ad asso: {n}.",
    "rs_scores": "Chiusura {c}; pozzetto preso {pb}; pozzetto mai preso -{pp}; le carte in tavola "
                 "contano a favore, quelle rimaste in mano contro.",
    "rs_target": "La partita finisce quando una squadra arriva a {n} punti.",
    "rs_hands": "La partita dura {n} smazzata/e.",
}

PT: Dict[str, str] = {
    "app_title": "Buraco",
    "hand_n": "mão {n}",
    "match_score_to": "partida: {scores} (até {target})",
    "match_score": "partida: {scores}",
    "hand_score": "na mesa: {score}",
    "hand_over": "A mão terminou.",
    "your_turn_draw": "Sua vez: compre do monte (d) ou pegue o lixo (p).",
    "your_turn_play": "Sua vez: baixe um jogo (m), acrescente a um jogo (a) e descarte (x).",
    "their_turn": "{who} está jogando…",
    "stock": "Monte {n}",
    "reserve": "Mortos {n}",
    "reserve_taken": "pegos por {who}",
    "cards_short": "{who} ({n})",
    "cards_of": "{who} {n} cartas",
    "pile_open": "Lixo ({n})",
    "pile_closed": "Lixo, fechado ({n})",
    "pile_empty": "vazio",
    "your_hand": "Sua mão: {n} cartas, {order}",
    "by_suit": "por naipe",
    "by_rank": "por valor",
    "selected": "escolhidas: {cards}",
    "hand_hint": "←/→ move, espaço ou clique escolhe, * = curinga",
    "burraco_word": "canastra",
    "label_clean": "limpa",
    "label_semi_clean": "semilimpa",
    "label_dirty": "suja",
    "label_royal": "real",
    "label_wild": "de curingas",
    "label_twos": "de 2",
    "you": "Você",
    "west": "Oeste",
    "north": "Norte",
    "east": "Leste",
    "player_n": "J{n}",
    "side_us": "Nós",
    "side_them": "Eles",
    "side_n": "Dupla {n}",
    "hand_start_you": "Mão {n}: você começa.",
    "you_drew": "Você comprou {card}.",
    "points": "{n} pts",
    "hand_start": "Mão {n}: {who} começa.",
    "not_your_turn": "Espere: não é a sua vez.",
    "refused": "Jogada recusada: {why}",
    "you_picked_up": "Você pegou o lixo ({n} cartas).",
    "you_take_reserve": "Você pega o seu morto.",
    "select_first": "Escolha as cartas primeiro (espaço ou clique).",
    "no_melds_yet": "Sua dupla ainda não baixou jogos.",
    "choose_meld": "Escolha o jogo primeiro: clique nele, ou ↑/↓ ou o número dele.",
    "discard_one": "Escolha exatamente uma carta para descartar.",
    "target_is": "Jogo escolhido: {n}.",
    "not_your_meld": "Esse jogo é dos adversários.",
    "bot_illegal": "{who} propôs uma jogada ilegal; foi feita a primeira jogada legal dele.",
    "takes_reserve": "{who} pega o morto.",
    "log_draw": "{who} compra do monte.",
    "log_redraw": "{who} devolve a primeira carta e compra outra.",
    "log_pickup": "{who} pega o lixo ({n} cartas): {cards}.",
    "log_pickup_with": "{who} pega o lixo ({n} cartas) e baixa {cards}.",
    "log_pickup_onto": "{who} pega o lixo ({n} cartas), {card} no jogo {meld}.",
    "log_meld": "{who} baixa {cards}.",
    "log_add": "{who} acrescenta {cards} ao jogo {meld}.",
    "log_discard": "{who} descarta {card}.",
    "closed_by": "{who} bateu.",
    "status_stock_exhausted": "O monte acabou: a mão termina sem batida.",
    "status_time_out": "O tempo acabou: a mão termina sem batida.",
    "status_in_progress": "A mão foi interrompida.",
    "hand_result": "Mão {n}",
    "item_table": "cartas na mesa",
    "item_burracos": "canastras",
    "item_closing": "batida",
    "item_packet": "morto",
    "item_hand": "cartas na mão",
    "item_open_wild": "jogos abertos só de curingas",
    "item_total": "total da mão",
    "player_points": "pontos de cada jogador:",
    "match_total": "total da partida",
    "record_saved": "Registro desta mão salvo em {path}",
    "replay_hint": "Confira com: burraco replay {path}",
    "match_over": "A partida terminou: {who} venceu.",
    "press_next": "Enter: próxima mão · q: sair",
    "press_quit": "Enter ou q: sair",
    "records_where": "Os registros das mãos ficam em {path}",
    "rules_title": "Regras: {v}",
    "close_hint": "Esc ou ? fecha",
    "key_draw": "comprar",
    "key_pickup": "pegar lixo",
    "key_meld": "baixar",
    "key_add": "acrescentar",
    "key_discard": "descartar",
    "key_sort": "ordenar",
    "key_rules": "regras",
    "key_quit": "sair",
    "help_keys": (
        "Como jogar: você senta ao Sul; os outros são bots. Na sua vez compre uma carta do\n"
        "monte ou pegue o lixo, baixe jogos (trincas do mesmo valor ou sequências do mesmo\n"
        "naipe, pelo menos três cartas, no máximo um curinga: coringas e 2, marcados *),\n"
        "acrescente aos jogos da sua dupla e termine a vez com um descarte.\n\n"
        "Teclas:\n"
        "  d            comprar do monte (ou clique no monte)\n"
        "  p            pegar o lixo (ou clique nele); lixo fechado: com as cartas\n"
        "               escolhidas, ou no jogo escolhido\n"
        "  ←/→, espaço  andar pela mão, escolher uma carta (ou clique na carta)\n"
        "  m            baixar as cartas escolhidas como jogo novo\n"
        "  a            acrescentar as cartas escolhidas ao jogo escolhido (ou clique no jogo)\n"
        "  ↑/↓, 1-9     escolher o jogo (ou clique nele)\n"
        "  x            descartar a carta escolhida (ou clique no lixo depois de escolhê-la)\n"
        "  c, Esc       desfazer a escolha\n"
        "  r            brazilian, quem começa: devolver a primeira carta e comprar outra\n"
        "  s            ordenar a mão por naipe ou por valor\n"
        "  ?            as regras da variante em jogo\n"
        "  q            sair (a mão em andamento também é salva)\n"
        "  Enter        depois de uma mão: a próxima mão\n"),
    "rule_cards_from_hand": "Você só pode jogar cartas que estão na sua mão.",
    "rule_draw_first": "Primeiro compre do monte ou pegue o lixo.",
    "rule_one_draw": "Você já comprou nesta vez: uma compra por vez.",
    "rule_stock_empty": "O monte está vazio.",
    "rule_redraw": "Só quem começa pode devolver a primeira carta comprada, logo depois de "
                   "comprá-la.",
    "rule_melds": "Isso não é um jogo válido.",
    "rule_no_dead_ends": "Você precisa continuar podendo terminar a sua vez.",
    "rule_add": "Essas cartas não podem ser acrescentadas a esse jogo.",
    "rule_meld_closed": "Esse jogo está fechado (sete cartas) e não pode crescer.",
    "rule_discard_one": "Descarte exatamente uma carta.",
    "rule_international_pickup": "Quem pega o lixo tem de baixar ou acrescentar na mesma vez.",
    "rule_throw_back": "Um lixo de uma carta recém-pego não pode ser descartado de volta "
                       "(nem a carta gêmea).",
    "rule_last_card": "A última carta não pode ser descartada enquanto sua dupla não puder "
                      "bater.",
    "rule_closing_wild": "O descarte da batida não pode ser um curinga.",
    "rule_pile_empty": "O lixo está vazio.",
    "rule_wild_on_top": "Um curinga em cima do lixo nunca pode ser pego.",
    "rule_pile_open": "O lixo é aberto: pegue-o inteiro, sem cartas.",
    "rule_pile_pair": "O lixo é fechado: pegue-o com um par natural que combine com a carta de "
                      "cima (escolha exatamente duas cartas).",
    "rule_pile_top": "O lixo é fechado: a carta de cima tem de ser baixada na hora, com as cartas "
                     "escolhidas ou no jogo escolhido.",
    "rule_hand_over": "A mão terminou.",
    "rule_turn": "Essa jogada não é permitida agora.",
    "why_three": "Um jogo precisa de pelo menos três cartas.",
    "why_too_long": "Um jogo não pode ter mais de sete cartas.",
    "why_all_wild": "Não é permitido um jogo só de curingas.",
    "why_all_wild_size": "Um jogo só de curingas precisa de três a sete curingas.",
    "why_no_sets": "Trincas (cartas do mesmo valor) não são permitidas nesta variante.",
    "why_set_ranks": "Nesta variante só são permitidas trincas de alguns valores.",
    "why_one_wild": "Um jogo pode ter no máximo um curinga (coringa ou 2).",
    "why_suit_or_rank": "Uma sequência é de um só naipe e uma trinca de um só valor.",
    "why_repeat": "Uma sequência não pode repetir uma carta.",
    "why_gaps": "As cartas não formam uma sequência sem buracos (um curinga pode cobrir um "
                "buraco; o ás é baixo ou alto, nunca os dois).",
    "dead_single": "Sobraria só a carta recém-pega de um lixo de uma carta, que não pode ser "
                   "descartada de volta.",
    "dead_last_card": "Você não poderia descartar a última carta, porque sua dupla ainda não "
                      "pode bater.",
    "dead_wild": "A última carta seria um curinga, e o descarte da batida não pode ser curinga.",
    "dead_no_direct": "A mão não pode ser esvaziada baixando jogos (o morto só vem pelo "
                      "descarte): guarde uma carta para descartar.",
    "dead_final_discard": "Para bater é preciso um descarte final: guarde uma carta para "
                          "descartar.",
    "dead_empty": "A mão não pode ser esvaziada: sua dupla ainda não pode bater.",
    "rs_table": "Jogadores: {players}. Nesta mesa: {n} jogadores, {sides}.",
    "rs_pairs": "em duplas (os parceiros sentam frente a frente)",
    "rs_singles": "cada um por si",
    "rs_threes": "em times com parceiros a cada três lugares",
    "rs_deck": "Baralho: {decks} × 52 cartas e {jokers} coringas; {hand} cartas para cada um.",
    "rs_packets": "Mortos: {sizes} cartas.",
    "rs_packet_side": "Cada dupla pega no máximo um morto.",
    "rs_packet_player": "Cada jogador pega no máximo um morto.",
    "rs_first_up": "A primeira carta do monte é virada para começar o lixo.",
    "rs_first_down": "O lixo começa vazio.",
    "rs_pile_open": "Lixo: aberto, pode ser pego inteiro livremente.",
    "rs_pile_pair": "Lixo: fechado, só é pego com um par natural que combine com a carta de cima, "
                    "baixando as três na hora.",
    "rs_pile_top": "Lixo: fechado, só é pego se a carta de cima for baixada na hora, num jogo "
                   "novo com cartas da mão ou num jogo da dupla.",
    "rs_wild_top_no": "Um curinga em cima do lixo nunca pode ser pego.",
    "rs_pickup_must_meld": "Quem pega o lixo tem de baixar ou acrescentar na mesma vez.",
    "rs_wilds": "Curingas: coringas e 2 (marcados * na tela); no máximo um curinga por jogo.",
    "rs_all_wild": "São permitidos jogos só de curingas (fechado: {w}, só de 2: {t}; um jogo "
                   "aberto só de curingas vale -{p}).",
    "rs_natural_twos": "Um 2 pode valer como ele mesmo numa sequência do seu naipe (A-2-3).",
    "rs_no_natural_twos": "O 2 é sempre curinga; as sequências pulam o 2 (A 3 4 … K A).",
    "rs_sets": "Trincas: três ou mais cartas do mesmo valor (naipes podem repetir).",
    "rs_sets_ranks": "Trincas só destes valores: {ranks}.",
    "rs_no_sets": "Sem trincas: só sequências.",
    "rs_runs": "Sequências: três ou mais cartas do mesmo naipe em ordem; o ás é baixo (A-2-3) ou "
               "alto (Q-K-A), nunca os dois.",
    "rs_ace_to_ace": "Uma sequência pode ir de ás a ás (14 cartas).",
    "rs_closes_at": "Um jogo fecha com {n} cartas (cerrado) e sai da mesa.",
    "rs_melds_side": "Os jogos são da dupla: os parceiros acrescentam aos jogos um do outro.",
    "rs_melds_player": "Cada jogador tem os seus próprios jogos.",
    "rs_burraco": "Uma canastra tem sete cartas ou mais: limpa (sem curinga) ou suja.",
    "rs_direct": "Quem esvazia a mão baixando pega o morto na hora e continua jogando.",
    "rs_indirect": "Quem descarta a última carta pega o morto e joga com ele a partir da "
                   "próxima vez.",
    "rs_needs_burraco": "Com {n} jogadores a dupla precisa de uma canastra antes de pegar o "
                        "morto.",
    "rs_refills": "Um morto substitui o monte vazio.",
    "rs_close_any": "Para bater, a dupla precisa ter pego o morto e ter pelo menos uma canastra.",
    "rs_close_clean": "Para bater, a dupla precisa ter pego o morto e ter pelo menos uma "
                      "canastra limpa.",
    "rs_close_discard": "Para bater é preciso um descarte final.",
    "rs_close_no_discard": "Para bater não é preciso descartar.",
    "rs_close_no_wild": "O descarte da batida não pode ser um curinga.",
    "rs_end_two": "A mão também termina quando restam duas cartas no monte.",
    "rs_end_empty": "A mão também termina quando o monte acaba e nenhum morto o substitui.",
    "rs_throw_back_no": "Um lixo de uma carta recém-pego não pode ser descartado de volta.",
    "rs_redraw": "Quem começa pode devolver a primeira carta comprada e comprar a seguinte (r).",
    "rs_values": "Valores: 3-7 {a}, 8-K {b}, A {c}, 2 {d}, coringa {e}.",
    "rs_bonus": "Canastras: limpa {clean}, suja {dirty}.",
    "rs_semi": "Canastra semilimpa (um curinga fora de sete cartas naturais): {n}.",
    "rs_aces": "De ases: limpa {clean}, suja {dirty}.",
    "rs_royal": "Sequência limpa com os treze valores: {n}.",
    "rs_ace_ace_bonus": "Sequência limpa de ás a ás: {n}.",
    "rs_scores": "Batida {c}; morto pego {pb}; morto nunca pego -{pp}; as cartas na mesa contam a "
                 "favor, as que ficam na mão contra.",
    "rs_target": "A partida termina quando uma dupla chega a {n} pontos.",
    "rs_hands": "A partida tem {n} mão(s).",
}

DE: Dict[str, str] = {
    "app_title": "Burraco",
    "hand_n": "Spiel {n}",
    "match_score_to": "Partie: {scores} (bis {target})",
    "match_score": "Partie: {scores}",
    "hand_score": "auf dem Tisch: {score}",
    "hand_over": "Das Spiel ist zu Ende.",
    "your_turn_draw": "Du bist dran: vom Talon ziehen (d) oder den Ablagestapel aufnehmen (p).",
    "your_turn_play": "Du bist dran: auslegen (m), anlegen (a), dann abwerfen (x).",
    "their_turn": "{who} spielt…",
    "stock": "Talon {n}",
    "reserve": "Reservestapel {n}",
    "reserve_taken": "genommen von {who}",
    "cards_short": "{who} ({n})",
    "cards_of": "{who} {n} Karten",
    "pile_open": "Ablagestapel ({n})",
    "pile_closed": "Ablagestapel, geschlossen ({n})",
    "pile_empty": "leer",
    "your_hand": "Deine Hand: {n} Karten, {order}",
    "by_suit": "nach Farbe",
    "by_rank": "nach Wert",
    "selected": "gewählt: {cards}",
    "hand_hint": "←/→ bewegen, Leertaste oder Klick wählt, * = Joker",
    "burraco_word": "Burraco",
    "label_clean": "sauber",
    "label_semi_clean": "halbsauber",
    "label_dirty": "schmutzig",
    "label_royal": "königlich",
    "label_wild": "aus Jokern",
    "label_twos": "aus Zweiern",
    "you": "Du",
    "west": "West",
    "north": "Nord",
    "east": "Ost",
    "player_n": "S{n}",
    "side_us": "Wir",
    "side_them": "Sie",
    "side_n": "Team {n}",
    "hand_start_you": "Spiel {n}: du beginnst.",
    "you_drew": "Du hast {card} gezogen.",
    "points": "{n} Pkt.",
    "hand_start": "Spiel {n}: {who} beginnt.",
    "not_your_turn": "Warte: du bist nicht dran.",
    "refused": "Zug abgelehnt: {why}",
    "you_picked_up": "Du hast den Ablagestapel aufgenommen ({n} Karten).",
    "you_take_reserve": "Du nimmst deinen Reservestapel.",
    "select_first": "Wähle zuerst Karten (Leertaste oder Klick).",
    "no_melds_yet": "Dein Team hat noch nichts ausgelegt.",
    "choose_meld": "Wähle zuerst die Kombination: anklicken, oder ↑/↓ oder ihre Nummer.",
    "discard_one": "Wähle genau eine Karte zum Abwerfen.",
    "target_is": "Gewählte Kombination: {n}.",
    "not_your_meld": "Diese Kombination gehört den Gegnern.",
    "bot_illegal": "{who} hat einen regelwidrigen Zug angeboten; sein erster erlaubter Zug wurde "
                   "gespielt.",
    "takes_reserve": "{who} nimmt den Reservestapel.",
    "log_draw": "{who} zieht vom Talon.",
    "log_redraw": "{who} legt die erste Karte zurück und zieht neu.",
    "log_pickup": "{who} nimmt den Ablagestapel auf ({n} Karten): {cards}.",
    "log_pickup_with": "{who} nimmt den Ablagestapel auf ({n} Karten) und legt {cards} aus.",
    "log_pickup_onto": "{who} nimmt den Ablagestapel auf ({n} Karten), {card} an Kombination "
                       "{meld}.",
    "log_meld": "{who} legt {cards} aus.",
    "log_add": "{who} legt {cards} an Kombination {meld} an.",
    "log_discard": "{who} wirft {card} ab.",
    "closed_by": "{who} hat das Spiel beendet.",
    "status_stock_exhausted": "Der Talon ist aufgebraucht: das Spiel endet ohne Schluss.",
    "status_time_out": "Die Zeit ist um: das Spiel endet ohne Schluss.",
    "status_in_progress": "Das Spiel wurde abgebrochen.",
    "hand_result": "Spiel {n}",
    "item_table": "Karten auf dem Tisch",
    "item_burracos": "Burracos",
    "item_closing": "Schluss",
    "item_packet": "Reservestapel",
    "item_hand": "Karten in der Hand",
    "item_open_wild": "offene Kombinationen aus Jokern",
    "item_total": "Summe des Spiels",
    "player_points": "Punkte je Spieler:",
    "match_total": "Summe der Partie",
    "record_saved": "Aufzeichnung dieses Spiels gespeichert in {path}",
    "replay_hint": "Prüfen mit: burraco replay {path}",
    "match_over": "Die Partie ist zu Ende: {who} hat gewonnen.",
    "press_next": "Enter: nächstes Spiel · q: beenden",
    "press_quit": "Enter oder q: verlassen",
    "records_where": "Die Aufzeichnungen der Spiele liegen in {path}",
    "rules_title": "Regeln: {v}",
    "close_hint": "Esc oder ? schließt",
    "key_draw": "ziehen",
    "key_pickup": "aufnehmen",
    "key_meld": "auslegen",
    "key_add": "anlegen",
    "key_discard": "abwerfen",
    "key_sort": "sortieren",
    "key_rules": "Regeln",
    "key_quit": "beenden",
    "help_keys": (
        "So wird gespielt: du sitzt im Süden, die anderen sind Bots. In deinem Zug ziehst du\n"
        "eine Karte vom Talon oder nimmst den Ablagestapel auf, legst Kombinationen aus\n"
        "(Sätze gleichen Werts oder Folgen gleicher Farbe, mindestens drei Karten, höchstens\n"
        "ein Joker: Joker und Zweier, mit * markiert), legst an die Kombinationen deines\n"
        "Teams an und beendest den Zug mit einem Abwurf.\n\n"
        "Tasten:\n"
        "  d              vom Talon ziehen (oder den Talon anklicken)\n"
        "  p              den Ablagestapel aufnehmen (oder anklicken); geschlossener Stapel:\n"
        "                 mit den gewählten Karten oder an die gewählte Kombination\n"
        "  ←/→, Leertaste durch die Hand gehen, eine Karte wählen (oder anklicken)\n"
        "  m              die gewählten Karten als neue Kombination auslegen\n"
        "  a              die gewählten Karten an die gewählte Kombination anlegen (oder\n"
        "                 die Kombination anklicken)\n"
        "  ↑/↓, 1-9       die Kombination wählen (oder anklicken)\n"
        "  x              die gewählte Karte abwerfen (oder danach den Ablagestapel anklicken)\n"
        "  c, Esc         die Auswahl aufheben\n"
        "  r              brazilian, wer beginnt: erste Karte zurücklegen und neu ziehen\n"
        "  s              die Hand nach Farbe oder nach Wert sortieren\n"
        "  ?              die Regeln der gespielten Variante\n"
        "  q              beenden (das laufende Spiel wird auch gespeichert)\n"
        "  Enter          nach einem Spiel: das nächste Spiel\n"),
    "rule_cards_from_hand": "Du kannst nur Karten spielen, die du auf der Hand hast.",
    "rule_draw_first": "Ziehe zuerst vom Talon oder nimm den Ablagestapel auf.",
    "rule_one_draw": "Du hast in diesem Zug schon gezogen: einmal ziehen pro Zug.",
    "rule_stock_empty": "Der Talon ist leer.",
    "rule_redraw": "Nur wer beginnt, darf die erste gezogene Karte gleich nach dem Ziehen "
                   "zurücklegen.",
    "rule_melds": "Das ist keine gültige Kombination.",
    "rule_no_dead_ends": "Du musst deinen Zug noch beenden können.",
    "rule_add": "Diese Karten passen nicht an diese Kombination.",
    "rule_meld_closed": "Diese Kombination ist geschlossen (sieben Karten) und wächst nicht mehr.",
    "rule_discard_one": "Wirf genau eine Karte ab.",
    "rule_international_pickup": "Wer den Ablagestapel aufnimmt, muss im selben Zug auslegen "
                                 "oder anlegen.",
    "rule_throw_back": "Ein gerade aufgenommener Ablagestapel aus einer Karte darf nicht sofort "
                       "wieder abgeworfen werden (auch nicht ihr Zwilling).",
    "rule_last_card": "Die letzte Karte darf nicht abgeworfen werden, solange dein Team nicht "
                      "schließen darf.",
    "rule_closing_wild": "Der Schlussabwurf darf kein Joker sein.",
    "rule_pile_empty": "Der Ablagestapel ist leer.",
    "rule_wild_on_top": "Ein Joker oben auf dem Ablagestapel kann nie aufgenommen werden.",
    "rule_pile_open": "Der Ablagestapel ist offen: nimm ihn ganz, ohne Karten.",
    "rule_pile_pair": "Der Ablagestapel ist geschlossen: nimm ihn mit einem natürlichen Paar, "
                      "das zur obersten Karte passt (wähle genau zwei Karten).",
    "rule_pile_top": "Der Ablagestapel ist geschlossen: seine oberste Karte muss sofort ausgelegt "
                     "werden, mit den gewählten Karten oder an die gewählte Kombination.",
    "rule_hand_over": "Das Spiel ist zu Ende.",
    "rule_turn": "Dieser Zug ist jetzt nicht erlaubt.",
    "why_three": "Eine Kombination braucht mindestens drei Karten.",
    "why_too_long": "Eine Kombination darf nicht mehr als sieben Karten haben.",
    "why_all_wild": "Eine Kombination nur aus Jokern ist nicht erlaubt.",
    "why_all_wild_size": "Eine Kombination nur aus Jokern braucht drei bis sieben Joker.",
    "why_no_sets": "Sätze (Karten gleichen Werts) sind in dieser Variante nicht erlaubt.",
    "why_set_ranks": "Sätze sind in dieser Variante nur von einigen Werten erlaubt.",
    "why_one_wild": "Eine Kombination darf höchstens einen Joker (Joker oder Zweier) enthalten.",
    "why_suit_or_rank": "Eine Folge hat eine Farbe, ein Satz einen Wert.",
    "why_repeat": "Eine Folge darf keine Karte wiederholen.",
    "why_gaps": "Die Karten bilden keine lückenlose Folge (ein Joker darf eine Lücke füllen; das "
                "Ass ist niedrig oder hoch, nie beides).",
    "dead_single": "Es bliebe nur die gerade aufgenommene einzelne Karte, die nicht sofort wieder "
                   "abgeworfen werden darf.",
    "dead_last_card": "Du könntest die letzte Karte nicht abwerfen, weil dein Team noch nicht "
                      "schließen darf.",
    "dead_wild": "Die letzte Karte wäre ein Joker, und der Schlussabwurf darf kein Joker sein.",
    "dead_no_direct": "Die Hand darf nicht durch Auslegen geleert werden (die Reserve gibt es nur "
                      "durch Abwerfen): behalte eine Karte zum Abwerfen.",
    "dead_final_discard": "Zum Schließen braucht es einen letzten Abwurf: behalte eine Karte.",
    "dead_empty": "Die Hand darf nicht geleert werden: dein Team darf noch nicht schließen.",
    "rs_table": "Spieler: {players}. An diesem Tisch: {n} Spieler, {sides}.",
    "rs_pairs": "paarweise (Partner sitzen sich gegenüber)",
    "rs_singles": "jeder für sich",
    "rs_threes": "in Teams mit Partnern an jedem dritten Platz",
    "rs_deck": "Karten: {decks} × 52 Karten und {jokers} Joker; {hand} Karten für jeden.",
    "rs_packets": "Reservestapel (Pozzetto / Morto): {sizes} Karten.",
    "rs_packet_side": "Jedes Team nimmt höchstens einen Reservestapel.",
    "rs_packet_player": "Jeder Spieler nimmt höchstens einen Reservestapel.",
    "rs_first_up": "Die erste Karte des Talons wird aufgedeckt und eröffnet den Ablagestapel.",
    "rs_first_down": "Der Ablagestapel beginnt leer.",
    "rs_pile_open": "Ablagestapel: offen, er darf frei ganz aufgenommen werden.",
    "rs_pile_pair": "Ablagestapel: geschlossen, nur mit einem natürlichen Paar aufzunehmen, das "
                    "zur obersten Karte passt; die drei Karten werden sofort ausgelegt.",
    "rs_pile_top": "Ablagestapel: geschlossen, nur aufzunehmen, wenn die oberste Karte sofort "
                   "ausgelegt wird, neu mit Handkarten oder an eine Kombination des Teams.",
    "rs_wild_top_no": "Ein Joker oben auf dem Ablagestapel kann nie aufgenommen werden.",
    "rs_pickup_must_meld": "Wer den Ablagestapel aufnimmt, muss im selben Zug auslegen oder "
                           "anlegen.",
    "rs_wilds": "Joker: Joker und Zweier (auf dem Bildschirm mit * markiert); höchstens ein Joker "
                "pro Kombination.",
    "rs_all_wild": "Kombinationen nur aus Jokern sind erlaubt (geschlossen {w}, nur Zweier {t}; "
                   "eine offene zählt -{p}).",
    "rs_natural_twos": "Eine Zwei darf in einer Folge ihrer Farbe auch als Zwei stehen (A-2-3).",
    "rs_no_natural_twos": "Die Zwei ist immer Joker; Folgen überspringen sie (A 3 4 … K A).",
    "rs_sets": "Sätze: drei oder mehr Karten gleichen Werts (Farben dürfen sich wiederholen).",
    "rs_sets_ranks": "Sätze nur von diesen Werten: {ranks}.",
    "rs_no_sets": "Keine Sätze: nur Folgen.",
    "rs_runs": "Folgen: drei oder mehr Karten einer Farbe in Reihe; das Ass ist niedrig (A-2-3) "
               "oder hoch (Q-K-A), nie beides.",
    "rs_ace_to_ace": "Eine Folge darf von Ass bis Ass gehen (14 Karten).",
    "rs_closes_at": "Eine Kombination schließt bei {n} Karten (Cerrado) und verlässt den Tisch.",
    "rs_melds_side": "Kombinationen gehören dem Team: Partner legen an die des anderen an.",
    "rs_melds_player": "Jeder Spieler hat eigene Kombinationen.",
    "rs_burraco": "Ein Burraco hat sieben Karten oder mehr: sauber (ohne Joker) oder schmutzig.",
    "rs_direct": "Wer die Hand durch Auslegen leert, nimmt sofort die Reserve und spielt weiter.",
    "rs_indirect": "Wer die letzte Karte abwirft, nimmt die Reserve und spielt sie ab dem "
                   "nächsten Zug.",
    "rs_needs_burraco": "Bei {n} Spielern braucht ein Team einen Burraco, bevor es seine Reserve "
                        "nimmt.",
    "rs_refills": "Ein Reservestapel ersetzt einen leeren Talon.",
    "rs_close_any": "Zum Schließen braucht das Team die genommene Reserve und mindestens einen "
                    "Burraco.",
    "rs_close_clean": "Zum Schließen braucht das Team die genommene Reserve und mindestens einen "
                      "sauberen Burraco.",
    "rs_close_discard": "Zum Schließen braucht es einen letzten Abwurf.",
    "rs_close_no_discard": "Zum Schließen braucht es keinen letzten Abwurf.",
    "rs_close_no_wild": "Der Schlussabwurf darf kein Joker sein.",
    "rs_end_two": "Das Spiel endet auch, wenn zwei Karten im Talon bleiben.",
    "rs_end_empty": "Das Spiel endet auch, wenn der Talon leer ist und keine Reserve ihn ersetzt.",
    "rs_throw_back_no": "Ein gerade aufgenommener Ablagestapel aus einer Karte darf nicht sofort "
                        "wieder abgeworfen werden.",
    "rs_redraw": "Wer beginnt, darf die erste gezogene Karte zurücklegen und die nächste ziehen "
                 "(r).",
    "rs_values": "Kartenwerte: 3-7 {a}, 8-K {b}, A {c}, 2 {d}, Joker {e}.",
    "rs_bonus": "Burracos: sauber {clean}, schmutzig {dirty}.",
    "rs_semi": "Halbsauberer Burraco (ein Joker außerhalb von sieben natürlichen Karten): {n}.",
    "rs_aces": "Aus Assen: sauber {clean}, schmutzig {dirty}.",
    "rs_royal": "Saubere Folge aller dreizehn Werte: {n}.",
    "rs_ace_ace_bonus": "Saubere Folge von Ass bis Ass: {n}.",
    "rs_scores": "Schluss {c}; genommene Reserve {pb}; nie genommene Reserve -{pp}; Karten auf dem "
                 "Tisch zählen für, Karten in der Hand gegen dich.",
    "rs_target": "Die Partie endet, wenn ein Team {n} Punkte erreicht.",
    "rs_hands": "Die Partie hat {n} Spiel(e).",
}

MESSAGES: Dict[str, Dict[str, str]] = {"en": EN, "it": IT, "pt": PT, "de": DE}
"""Every text of the app, by language and key."""

RULE_KEYS: Dict[str, str] = {
    "cards played come from the hand": "rule_cards_from_hand",
    "card notation": "rule_cards_from_hand",
    "turn: draw first": "rule_draw_first",
    "turn: one draw a turn": "rule_one_draw",
    "stock": "rule_stock_empty",
    "draw": "rule_turn",
    "first turn": "rule_redraw",
    "first turn: the starter's redraw": "rule_redraw",
    "melds": "rule_melds",
    "no dead ends": "rule_no_dead_ends",
    "add to the side's melds": "rule_add",
    "add": "rule_add",
    "meld closes at seven": "rule_meld_closed",
    "discard": "rule_discard_one",
    "international pickup": "rule_international_pickup",
    "one-card pile thrown back": "rule_throw_back",
    "last card may not be discarded": "rule_last_card",
    "closing needs a final discard, not a wild": "rule_closing_wild",
    "discard pile": "rule_pile_empty",
    "wild on top of the discard pile": "rule_wild_on_top",
    "taking the discard pile": "rule_pile_open",
    "taking the discard pile: matching pair": "rule_pile_pair",
    "taking the discard pile: closed": "rule_pile_top",
    "end of hand": "rule_hand_over",
    "turn": "rule_turn",
    "record actions": "rule_turn",
}
"""Catalogue key of the sentence for each :attr:`IllegalMove.rule` the engine uses."""

WHY_KEYS = (
    ("a meld needs at least three cards", "why_three"),
    ("a meld may not hold more than", "why_too_long"),
    ("a meld of wild cards only is not allowed", "why_all_wild"),
    ("a meld of wild cards only needs", "why_all_wild_size"),
    ("sets (cards of one rank) are not allowed", "why_no_sets"),
    ("sets are allowed only of ranks", "why_set_ranks"),
    ("at most one wild card", "why_one_wild"),
    ("a run must be of one suit", "why_suit_or_rank"),
    ("a run may not repeat a card", "why_repeat"),
    ("do not make a run without gaps", "why_gaps"),
)
"""Fragments of the engine's explanations of an invalid meld, and their keys."""

DEAD_KEYS = (
    ("one-card pile", "dead_single"),
    ("the last card could not be discarded", "dead_last_card"),
    ("the last card is a wild card", "dead_wild"),
    ("may not be taken directly", "dead_no_direct"),
    ("closing needs a final discard", "dead_final_discard"),
    ("the hand may not be emptied", "dead_empty"),
)
"""Fragments of the engine's "no dead ends" explanations, and their keys."""


def normalize_lang(value: Optional[str]) -> Optional[str]:
    """The catalogue language of a locale name (``it_IT.UTF-8`` -> ``it``,
    ``pt_BR`` -> ``pt``, ``de`` -> ``de``), or None when it has none."""
    if not value:
        return None
    code = value.split(":")[0].split(".")[0].split("@")[0].replace("-", "_").lower()
    if code in ("c", "posix", ""):
        return None
    base = code.split("_")[0]
    return base if base in MESSAGES else None


def detect_lang(environ: Optional[Mapping[str, str]] = None) -> str:
    """The language of the system locale, as gettext reads it: ``LANGUAGE`` (a
    colon-separated list, ignored when the locale is ``C``), then ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``; English when none names a catalogue language."""
    env = os.environ if environ is None else environ
    locale_name = None
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(var):
            locale_name = env[var]
            break
    language = env.get("LANGUAGE")
    if language and (locale_name or "C").split(".")[0] not in ("C", "POSIX"):
        for part in language.split(":"):
            lang = normalize_lang(part)
            if lang:
                return lang
    return normalize_lang(locale_name) or "en"


class Translator:
    """Looks texts up in one language, falling back to English for a missing key
    (and to the key itself if English lacks it too)."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in MESSAGES:
            raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
        self.lang = lang
        self.table = MESSAGES[lang]

    def __call__(self, key: str, **kw) -> str:
        text = self.table.get(key)
        if text is None:
            text = EN.get(key, key)
        return text.format(**kw) if kw else text


def explain(exc: Exception, lang: str = "en") -> str:
    """A refused move in words of ``lang``: the sentence for the rule it breaks
    (with the detail for invalid melds and dead ends), or the engine's English
    message when the rule has no sentence.  In English the engine's own message
    follows a sentence that has no detail."""
    tr = Translator(lang)
    rule = getattr(exc, "rule", "")
    message = str(exc)
    key = RULE_KEYS.get(rule)
    if key is None:
        return message
    text = tr(key)
    detail_key = None
    low = message.lower()
    if rule == "melds":
        detail_key = next((k for frag, k in WHY_KEYS if frag in low), None)
    elif rule == "no dead ends":
        detail_key = next((k for frag, k in DEAD_KEYS if frag in low), None)
    if detail_key:
        text += " " + tr(detail_key)
    elif lang == "en":
        text += f" ({message})"
    return text


__all__ = ["LANGS", "MESSAGES", "RULE_KEYS", "Translator", "detect_lang", "normalize_lang",
           "explain"]
