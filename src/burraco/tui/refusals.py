"""The sentences of refused moves in the terminal app (English, Italian, Brazilian
Portuguese, German), kept apart until the engine's rule enumeration renders them
from the ``rules`` gettext domain.

:func:`explain` turns an :class:`~burraco.state.IllegalMove` into one sentence of
the chosen language naming the rule it breaks, with the detail of an invalid meld
or of a turn that could not end.
"""

from __future__ import annotations

from typing import Dict

EN: Dict[str, str] = {'rule_cards_from_hand': 'You can only play cards that are in your hand.',
 'rule_draw_first': 'First draw from the stock or pick up the discard pile.',
 'rule_one_draw': 'You have already drawn this turn: one draw a turn.',
 'rule_stock_empty': 'The stock is empty.',
 'rule_redraw': 'Only the starter may throw back the first card drawn, right after drawing it.',
 'rule_melds': 'That is not a valid meld.',
 'rule_no_dead_ends': 'You must keep a way to end your turn.',
 'rule_add': 'Those cards cannot be added to that meld.',
 'rule_meld_closed': 'That meld is closed (seven cards) and cannot grow.',
 'rule_discard_one': 'Discard exactly one card.',
 'rule_international_pickup': 'Whoever takes the discard pile must meld or add with it in the same '
                              'turn.',
 'rule_throw_back': 'A one-card pile just picked up may not be thrown straight back (nor its '
                    'twin).',
 'rule_last_card': 'The last card may not be discarded while your side may not close yet.',
 'rule_closing_wild': 'The closing discard may not be a wild card.',
 'rule_pile_empty': 'The discard pile is empty.',
 'rule_wild_on_top': 'A wild card on top of the discard pile can never be taken.',
 'rule_pile_open': 'The discard pile is open: take it all, without cards.',
 'rule_pile_pair': 'The pile is closed: take it with a natural pair matching the top card (select '
                   'exactly two cards).',
 'rule_pile_top': 'The pile is closed: its top card must go down at once, with the selected cards '
                  'or onto the target meld.',
 'rule_hand_over': 'The hand is over.',
 'rule_turn': 'That move is not allowed now.',
 'why_three': 'A meld needs at least three cards.',
 'why_too_long': 'A meld may not hold more than seven cards.',
 'why_all_wild': 'A meld of wild cards only is not allowed.',
 'why_all_wild_size': 'A meld of wild cards only needs three to seven wilds.',
 'why_no_sets': 'Sets (cards of one rank) are not allowed in this variant.',
 'why_set_ranks': 'Sets are allowed only of some ranks in this variant.',
 'why_one_wild': 'A meld may hold at most one wild card (joker or 2).',
 'why_suit_or_rank': 'A run must be of one suit and a set of one rank.',
 'why_repeat': 'A run may not repeat a card.',
 'why_gaps': 'The cards do not make a run without gaps (one wild may fill one gap; aces are low or '
             'high, never both).',
 'dead_single': 'It would leave only the card just picked up from a one-card pile, which may not '
                'be thrown straight back.',
 'dead_last_card': 'Your last card could not be discarded, because your side may not close yet.',
 'dead_wild': 'Your last card would be a wild card, and the closing discard may not be wild.',
 'dead_no_direct': 'The hand may not be emptied by melding (the reserve is taken only by '
                   'discarding): keep a card to discard.',
 'dead_final_discard': 'Closing needs a final discard: keep a card to discard.',
 'dead_empty': 'The hand may not be emptied: your side may not close yet.'}

IT: Dict[str, str] = {'rule_cards_from_hand': 'Puoi giocare solo carte che hai in mano.',
 'rule_draw_first': 'Prima pesca dal tallone o raccogli gli scarti.',
 'rule_one_draw': 'Hai già pescato in questo turno: si pesca una volta per turno.',
 'rule_stock_empty': 'Il tallone è vuoto.',
 'rule_redraw': 'Solo chi inizia può rimettere la prima carta pescata, subito dopo averla pescata.',
 'rule_melds': 'Non è un gioco valido.',
 'rule_no_dead_ends': 'Devi poter ancora finire il turno.',
 'rule_add': 'Quelle carte non si possono attaccare a quel gioco.',
 'rule_meld_closed': 'Quel gioco è chiuso (sette carte) e non può crescere.',
 'rule_discard_one': 'Si scarta una sola carta.',
 'rule_international_pickup': 'Chi raccoglie gli scarti deve calare o attaccare nello stesso '
                              'turno.',
 'rule_throw_back': 'Una sola carta appena raccolta dagli scarti non si può riscartare subito (né '
                    'la sua gemella).',
 'rule_last_card': "L'ultima carta non si può scartare finché la tua squadra non può chiudere.",
 'rule_closing_wild': 'Lo scarto di chiusura non può essere una matta.',
 'rule_pile_empty': 'Gli scarti sono vuoti.',
 'rule_wild_on_top': 'Una matta in cima agli scarti non si può mai raccogliere.',
 'rule_pile_open': 'Gli scarti sono aperti: si raccolgono tutti, senza carte.',
 'rule_pile_pair': 'Gli scarti sono chiusi: si raccolgono con una coppia naturale adatta alla '
                   'carta in cima (scegli esattamente due carte).',
 'rule_pile_top': 'Gli scarti sono chiusi: la carta in cima va calata subito, con le carte scelte '
                  'o sul gioco scelto.',
 'rule_hand_over': 'La smazzata è finita.',
 'rule_turn': 'Questa mossa ora non è permessa.',
 'why_three': 'Un gioco ha almeno tre carte.',
 'why_too_long': 'Un gioco non può avere più di sette carte.',
 'why_all_wild': 'Non si può calare un gioco di sole matte.',
 'why_all_wild_size': 'Un gioco di sole matte ha da tre a sette matte.',
 'why_no_sets': 'In questa variante i tris (carte dello stesso valore) non sono ammessi.',
 'why_set_ranks': 'In questa variante i tris sono ammessi solo di alcuni valori.',
 'why_one_wild': 'Un gioco può avere al massimo una matta (jolly o pinella).',
 'why_suit_or_rank': 'Una scala è di un solo seme e un tris di un solo valore.',
 'why_repeat': 'Una scala non può ripetere una carta.',
 'why_gaps': "Le carte non formano una scala senza buchi (una matta può coprire un buco; l'asso è "
             'basso o alto, mai entrambi).',
 'dead_single': 'Resterebbe solo la carta appena raccolta dagli scarti, che non si può riscartare '
                'subito.',
 'dead_last_card': "Non potresti scartare l'ultima carta, perché la tua squadra non può ancora "
                   'chiudere.',
 'dead_wild': "L'ultima carta sarebbe una matta, e lo scarto di chiusura non può essere una matta.",
 'dead_no_direct': 'Non puoi svuotare la mano calando (il pozzetto si prende solo scartando): '
                   'tieni una carta da scartare.',
 'dead_final_discard': 'Per chiudere serve uno scarto finale: tieni una carta da scartare.',
 'dead_empty': 'Non puoi svuotare la mano: la tua squadra non può ancora chiudere.'}

PT: Dict[str, str] = {'rule_cards_from_hand': 'Você só pode jogar cartas que estão na sua mão.',
 'rule_draw_first': 'Primeiro compre do monte ou pegue o lixo.',
 'rule_one_draw': 'Você já comprou nesta vez: uma compra por vez.',
 'rule_stock_empty': 'O monte está vazio.',
 'rule_redraw': 'Só quem começa pode devolver a primeira carta comprada, logo depois de comprá-la.',
 'rule_melds': 'Isso não é um jogo válido.',
 'rule_no_dead_ends': 'Você precisa continuar podendo terminar a sua vez.',
 'rule_add': 'Essas cartas não podem ser acrescentadas a esse jogo.',
 'rule_meld_closed': 'Esse jogo está fechado (sete cartas) e não pode crescer.',
 'rule_discard_one': 'Descarte exatamente uma carta.',
 'rule_international_pickup': 'Quem pega o lixo tem de baixar ou acrescentar na mesma vez.',
 'rule_throw_back': 'Um lixo de uma carta recém-pego não pode ser descartado de volta (nem a carta '
                    'gêmea).',
 'rule_last_card': 'A última carta não pode ser descartada enquanto sua dupla não puder bater.',
 'rule_closing_wild': 'O descarte da batida não pode ser um curinga.',
 'rule_pile_empty': 'O lixo está vazio.',
 'rule_wild_on_top': 'Um curinga em cima do lixo nunca pode ser pego.',
 'rule_pile_open': 'O lixo é aberto: pegue-o inteiro, sem cartas.',
 'rule_pile_pair': 'O lixo é fechado: pegue-o com um par natural que combine com a carta de cima '
                   '(escolha exatamente duas cartas).',
 'rule_pile_top': 'O lixo é fechado: a carta de cima tem de ser baixada na hora, com as cartas '
                  'escolhidas ou no jogo escolhido.',
 'rule_hand_over': 'A mão terminou.',
 'rule_turn': 'Essa jogada não é permitida agora.',
 'why_three': 'Um jogo precisa de pelo menos três cartas.',
 'why_too_long': 'Um jogo não pode ter mais de sete cartas.',
 'why_all_wild': 'Não é permitido um jogo só de curingas.',
 'why_all_wild_size': 'Um jogo só de curingas precisa de três a sete curingas.',
 'why_no_sets': 'Trincas (cartas do mesmo valor) não são permitidas nesta variante.',
 'why_set_ranks': 'Nesta variante só são permitidas trincas de alguns valores.',
 'why_one_wild': 'Um jogo pode ter no máximo um curinga (coringa ou 2).',
 'why_suit_or_rank': 'Uma sequência é de um só naipe e uma trinca de um só valor.',
 'why_repeat': 'Uma sequência não pode repetir uma carta.',
 'why_gaps': 'As cartas não formam uma sequência sem buracos (um curinga pode cobrir um buraco; o '
             'ás é baixo ou alto, nunca os dois).',
 'dead_single': 'Sobraria só a carta recém-pega de um lixo de uma carta, que não pode ser '
                'descartada de volta.',
 'dead_last_card': 'Você não poderia descartar a última carta, porque sua dupla ainda não pode '
                   'bater.',
 'dead_wild': 'A última carta seria um curinga, e o descarte da batida não pode ser curinga.',
 'dead_no_direct': 'A mão não pode ser esvaziada baixando jogos (o morto só vem pelo descarte): '
                   'guarde uma carta para descartar.',
 'dead_final_discard': 'Para bater é preciso um descarte final: guarde uma carta para descartar.',
 'dead_empty': 'A mão não pode ser esvaziada: sua dupla ainda não pode bater.'}

DE: Dict[str, str] = {'rule_cards_from_hand': 'Du kannst nur Karten spielen, die du auf der Hand hast.',
 'rule_draw_first': 'Ziehe zuerst vom Talon oder nimm den Ablagestapel auf.',
 'rule_one_draw': 'Du hast in diesem Zug schon gezogen: einmal ziehen pro Zug.',
 'rule_stock_empty': 'Der Talon ist leer.',
 'rule_redraw': 'Nur wer beginnt, darf die erste gezogene Karte gleich nach dem Ziehen '
                'zurücklegen.',
 'rule_melds': 'Das ist keine gültige Kombination.',
 'rule_no_dead_ends': 'Du musst deinen Zug noch beenden können.',
 'rule_add': 'Diese Karten passen nicht an diese Kombination.',
 'rule_meld_closed': 'Diese Kombination ist geschlossen (sieben Karten) und wächst nicht mehr.',
 'rule_discard_one': 'Wirf genau eine Karte ab.',
 'rule_international_pickup': 'Wer den Ablagestapel aufnimmt, muss im selben Zug auslegen oder '
                              'anlegen.',
 'rule_throw_back': 'Ein gerade aufgenommener Ablagestapel aus einer Karte darf nicht sofort '
                    'wieder abgeworfen werden (auch nicht ihr Zwilling).',
 'rule_last_card': 'Die letzte Karte darf nicht abgeworfen werden, solange dein Team nicht '
                   'schließen darf.',
 'rule_closing_wild': 'Der Schlussabwurf darf kein Joker sein.',
 'rule_pile_empty': 'Der Ablagestapel ist leer.',
 'rule_wild_on_top': 'Ein Joker oben auf dem Ablagestapel kann nie aufgenommen werden.',
 'rule_pile_open': 'Der Ablagestapel ist offen: nimm ihn ganz, ohne Karten.',
 'rule_pile_pair': 'Der Ablagestapel ist geschlossen: nimm ihn mit einem natürlichen Paar, das zur '
                   'obersten Karte passt (wähle genau zwei Karten).',
 'rule_pile_top': 'Der Ablagestapel ist geschlossen: seine oberste Karte muss sofort ausgelegt '
                  'werden, mit den gewählten Karten oder an die gewählte Kombination.',
 'rule_hand_over': 'Das Spiel ist zu Ende.',
 'rule_turn': 'Dieser Zug ist jetzt nicht erlaubt.',
 'why_three': 'Eine Kombination braucht mindestens drei Karten.',
 'why_too_long': 'Eine Kombination darf nicht mehr als sieben Karten haben.',
 'why_all_wild': 'Eine Kombination nur aus Jokern ist nicht erlaubt.',
 'why_all_wild_size': 'Eine Kombination nur aus Jokern braucht drei bis sieben Joker.',
 'why_no_sets': 'Sätze (Karten gleichen Werts) sind in dieser Variante nicht erlaubt.',
 'why_set_ranks': 'Sätze sind in dieser Variante nur von einigen Werten erlaubt.',
 'why_one_wild': 'Eine Kombination darf höchstens einen Joker (Joker oder Zweier) enthalten.',
 'why_suit_or_rank': 'Eine Folge hat eine Farbe, ein Satz einen Wert.',
 'why_repeat': 'Eine Folge darf keine Karte wiederholen.',
 'why_gaps': 'Die Karten bilden keine lückenlose Folge (ein Joker darf eine Lücke füllen; das Ass '
             'ist niedrig oder hoch, nie beides).',
 'dead_single': 'Es bliebe nur die gerade aufgenommene einzelne Karte, die nicht sofort wieder '
                'abgeworfen werden darf.',
 'dead_last_card': 'Du könntest die letzte Karte nicht abwerfen, weil dein Team noch nicht '
                   'schließen darf.',
 'dead_wild': 'Die letzte Karte wäre ein Joker, und der Schlussabwurf darf kein Joker sein.',
 'dead_no_direct': 'Die Hand darf nicht durch Auslegen geleert werden (die Reserve gibt es nur '
                   'durch Abwerfen): behalte eine Karte zum Abwerfen.',
 'dead_final_discard': 'Zum Schließen braucht es einen letzten Abwurf: behalte eine Karte.',
 'dead_empty': 'Die Hand darf nicht geleert werden: dein Team darf noch nicht schließen.'}

SENTENCES: Dict[str, Dict[str, str]] = {"en": EN, "it": IT, "pt": PT, "de": DE}
"""The sentence of each rule key, by language."""

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
    "tournament time-out": "rule_turn",
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


def explain(exc: Exception, lang: str = "en") -> str:
    """A refused move in words of ``lang``: the sentence for the rule it breaks,
    followed by the detail for invalid melds and turns that could not end (each
    reason said once), or the engine's English message when the rule has no
    sentence."""
    words = SENTENCES.get(lang, EN)
    rule = getattr(exc, "rule", "")
    message = str(exc)
    key = RULE_KEYS.get(rule)
    if key is None:
        return message
    low = message.lower()
    detail_key = None
    if rule == "melds":
        detail_key = next((k for frag, k in WHY_KEYS if frag in low), None)
    elif rule == "no dead ends":
        detail_key = next((k for frag, k in DEAD_KEYS if frag in low), None)
        if detail_key:
            # the detail says it all; "you must keep a way to end your turn" would repeat it
            return words.get(detail_key, EN[detail_key])
    text = words.get(key, EN[key])
    if detail_key:
        text += " " + words.get(detail_key, EN[detail_key])
    return text


__all__ = ["DEAD_KEYS", "RULE_KEYS", "SENTENCES", "WHY_KEYS", "explain"]
