"""The rules summary of a variant (the ``?`` key), generated from its switches.

Every line comes from one or more :class:`~burraco.variants.Variant` switches
and is written in the app's language through the message catalogue, so a
custom variant (``italian:hand_size=13``) gets its own summary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, List

from ..variants import PILE_OPEN, PILE_PAIR, END_TWO_LEFT, Variant
from .cards import notation_lines
from .game import clock_seconds

if TYPE_CHECKING:  # rich comes with the ui extra
    from .reflow import Reflow


def rules_lines(v: Variant, players: int, t: Callable[..., str]) -> List[str]:
    """The summary of ``v`` at ``players`` players, one rule a line, in ``t``'s language."""
    out: List[str] = []
    if players in (2, 3, 5):
        sides = t("rs_singles")
    elif players == 6:
        sides = t("rs_threes")
    else:
        sides = t("rs_pairs")
    out.append(t("rs_table", players=", ".join(map(str, v.players)), n=players, sides=sides))
    d = v.decks_for(players)
    out.append(t("rs_deck", decks=d, jokers=d * v.jokers_per_deck, hand=v.hand_size))
    out.append(t("rs_packets", sizes=" + ".join(map(str, v.packet_sizes(players)))))
    out.append(t("rs_packet_side" if v.packet_per == "side" else "rs_packet_player"))
    out.append(t("rs_first_up" if v.first_discard_up else "rs_first_down"))
    out.append(t({PILE_OPEN: "rs_pile_open", PILE_PAIR: "rs_pile_pair"}.get(v.pile,
                                                                          "rs_pile_top")))
    if not v.wild_top_takeable:
        out.append(t("rs_wild_top_no"))
    if v.pickup_must_meld:
        out.append(t("rs_pickup_must_meld"))
    if not v.throw_back_single:
        out.append(t("rs_throw_back_no"))
    out.append(t("rs_wilds"))
    if v.all_wild_melds:
        out.append(t("rs_all_wild", w=v.wild_cerrado_bonus, t=v.twos_cerrado_bonus,
                     p=v.open_wild_penalty))
    out.append(t("rs_natural_twos" if v.natural_twos else "rs_no_natural_twos"))
    if not v.sets:
        out.append(t("rs_no_sets"))
    elif v.set_ranks is not None:
        out.append(t("rs_sets_ranks", ranks=", ".join(
            "A" if r == 1 else "JQK"[r - 11] if r > 10 else str(r) for r in v.set_ranks)))
    else:
        out.append(t("rs_sets"))
    out.append(t("rs_runs"))
    if v.ace_to_ace:
        out.append(t("rs_ace_to_ace"))
    if v.meld_closes_at:
        out.append(t("rs_closes_at", n=v.meld_closes_at))
    out.append(t("rs_melds_side" if v.melds_per == "side" else "rs_melds_player"))
    out.append(t("rs_burraco"))
    if v.reserve_direct:
        out.append(t("rs_direct"))
    if v.reserve_indirect:
        out.append(t("rs_indirect"))
    if players in v.reserve_needs_burraco_at:
        out.append(t("rs_needs_burraco", n=players))
    if v.reserve_refills_stock:
        out.append(t("rs_refills"))
    out.append(t("rs_close_clean" if v.close_needs_clean else "rs_close_any"))
    out.append(t("rs_close_discard" if v.close_discard == "required" else "rs_close_no_discard"))
    if not v.closing_discard_wild:
        out.append(t("rs_close_no_wild"))
    out.append(t("rs_end_two" if v.stock_end == END_TWO_LEFT else "rs_end_empty"))
    if v.starter_redraw:
        out.append(t("rs_redraw"))
    if clock_seconds(v):
        out.append(t("rs_time_out", n=round(clock_seconds(v) / 60)))
    a, b, c, d2, e = v.values
    out.append(t("rs_values", a=a, b=b, c=c, d=d2, e=e))
    out.append(t("rs_bonus", clean=v.clean_bonus, dirty=v.dirty_bonus))
    if v.semi_clean_bonus:
        out.append(t("rs_semi", n=v.semi_clean_bonus))
    if v.clean_aces_bonus or v.dirty_aces_bonus:
        out.append(t("rs_aces", clean=v.clean_aces_bonus or v.clean_bonus,
                     dirty=v.dirty_aces_bonus or v.dirty_bonus))
    if v.royal_bonus:
        out.append(t("rs_royal", n=v.royal_bonus))
    if v.ace_to_ace_bonus:
        out.append(t("rs_ace_ace_bonus", n=v.ace_to_ace_bonus))
    out.append(t("rs_scores", c=v.closing_bonus, pb=v.packet_bonus, pp=v.packet_penalty))
    if v.match_hands:
        out.append(t("rs_hands", n=v.match_hands))
    elif v.target:
        out.append(t("rs_target", n=v.target))
    return out


def rules_page(v: Variant, players: int, t: Callable[..., str]) -> "Reflow":
    """The ``?`` page: the summary's bullets, the cards on screen against the
    notation of hand records, then the keys, wrapped to the screen's width
    (:mod:`.reflow`: no word left alone on a line)."""
    from .reflow import Block, Reflow, help_blocks

    blocks = [Block("bullet", line) for line in rules_lines(v, players, t)]
    blocks.append(Block("prose", t("notation")))
    blocks.append(Block("keep", "  " + "   ".join(notation_lines())))
    return Reflow(blocks + help_blocks(t("help_keys")))


def rules_summary(v: Variant, players: int, t: Callable[..., str]) -> str:
    """The summary as text: one bullet a rule, the cards on screen against the
    notation of hand records, then the keys."""
    lines = ["• " + line for line in rules_lines(v, players, t)]
    notation = t("notation") + "\n  " + "   ".join(notation_lines())
    return "\n".join(lines) + "\n\n" + notation + "\n\n" + t("help_keys")


__all__ = ["rules_lines", "rules_page", "rules_summary"]
