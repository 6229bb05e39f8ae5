"""The person's keys and clicks on the table (a mixin of
:class:`~burraco.tui.app.BurracoApp`): draw, pick up, meld, add, discard, the
hand's cursor and selection, the target meld, the sort order.  Every move goes
through ``try_move``, which explains a refused move and changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from ..state import PHASE_DRAW, Move
from ..variants import PILE_OPEN
from .widgets import sort_key


if TYPE_CHECKING:  # the app this class is mixed into, as the type checker sees it
    from .host import TableHost
else:
    TableHost = object


class TableKeys(TableHost):
    """The table's key and click actions; the app provides ``table``, ``say``,
    ``t``, ``try_move``, ``refresh_all``, ``save_match``, ``busy`` and the hand's
    ``hand_cards``, ``selected``, ``cursor``, ``target``, ``sort_by``."""

    def selected_cards(self) -> List[int]:
        """The cards selected in the hand."""
        return [self.hand_cards[i] for i in sorted(self.selected)
                if i < len(self.hand_cards)]

    def action_draw(self) -> None:
        """Draw from the stock."""
        self.try_move(Move.draw())

    def action_redraw(self) -> None:
        """Brazilian starter: throw back the first card drawn and draw again."""
        self.try_move(Move.redraw())

    def action_pickup(self) -> None:
        """Pick up the discard pile; closed piles: with the selected cards, or onto
        the target meld."""
        cards = self.selected_cards()
        if self.table.variant.pile == PILE_OPEN:
            self.try_move(Move.pickup())
        elif cards:
            self.try_move(Move.pickup(cards=cards))
        elif self.target >= 0:
            self.try_move(Move.pickup(meld=self.target))
        else:
            self.try_move(Move.pickup())

    def action_pile_click(self) -> None:
        """A click on the pile: pick it up before drawing, discard the selected card after."""
        s = self.table.view()
        if self.table.human_to_move and s.phase != PHASE_DRAW:
            self.action_discard()
        else:
            self.action_pickup()

    def action_meld(self) -> None:
        """Lay the selected cards as a new meld."""
        cards = self.selected_cards()
        if not cards:
            self.say(self.t("select_first"), error=True)
            return
        self.try_move(Move.lay(cards))

    def action_add(self) -> None:
        """Add the selected cards to the target meld (or to the only meld that takes them)."""
        cards = self.selected_cards()
        if not cards:
            self.say(self.t("select_first"), error=True)
            return
        s = self.table.view()
        if self.target >= 0:
            self.try_move(Move.add(self.target, cards))
            return
        own = s.meld_cards[s.owner(self.table.seat)]
        fits = [i for i in range(len(own)) if Move.add(i, cards) in s.legal] \
            if self.table.human_to_move else []
        if len(fits) == 1:
            self.try_move(Move.add(fits[0], cards))
        elif not own:
            self.say(self.t("no_melds_yet"), error=True)
        elif len(fits) > 1 or len(own) > 1:
            self.say(self.t("choose_meld"), error=True)
        else:
            self.try_move(Move.add(0, cards))

    def action_discard(self) -> None:
        """Discard the selected card.  Nothing selected: nothing is thrown away
        (a slip of ``x`` must never end the turn), the message says to select
        the card first; before the draw, or out of turn, the refusal says why."""
        cards = self.selected_cards()
        if len(cards) > 1:
            self.say(self.t("discard_one"), error=True)
            return
        if not cards:
            s = self.table.view()
            if self.table.human_to_move and s.phase != PHASE_DRAW and not self.busy:
                self.say(self.t("discard_select"), error=True)
                return
            if not self.hand_cards:
                return
            # not the person's discard yet: the move is refused and explained
            cards = [self.hand_cards[self.cursor]]
        self.try_move(Move.discard(cards[0]))

    def toggle_card(self, i: int) -> None:
        """Select or unselect card ``i`` of the sorted hand (and move the cursor there)."""
        if not 0 <= i < len(self.hand_cards):
            return
        self.cursor = i
        self.selected ^= {i}
        self.refresh_all()

    def action_select(self) -> None:
        """Select or unselect the card under the cursor."""
        self.toggle_card(self.cursor)

    def action_cursor(self, step: int) -> None:
        """Move the cursor along the hand."""
        if self.hand_cards:
            self.cursor = (self.cursor + step) % len(self.hand_cards)
            self.refresh_all()

    def action_cursor_to(self, i: int) -> None:
        """Move the cursor to the first (0) or last (-1) card."""
        if self.hand_cards:
            self.cursor = i % len(self.hand_cards)
            self.refresh_all()

    def action_clear(self) -> None:
        """Unselect every card and the target meld."""
        self.selected = set()
        self.target = -1
        self.refresh_all()

    def _own_meld_count(self) -> int:
        s = self.table.view()
        return len(s.meld_cards[s.owner(self.table.seat)])

    def action_target(self, step: int) -> None:
        """Cycle the target meld of the person's side (for ``a`` and closed-pile ``p``)."""
        n = self._own_meld_count()
        if not n:
            self.say(self.t("no_melds_yet"), error=True)
            return
        self.target = (self.target + step) % n if self.target >= 0 else (0 if step > 0 else n - 1)
        self.say(self.t("target_is", n=self.target + 1))
        self.refresh_all()

    def action_target_at(self, k: int) -> None:
        """Make meld number ``k`` (1-based) the target."""
        if 1 <= k <= self._own_meld_count():
            self.target = k - 1
            self.say(self.t("target_is", n=k))
            self.refresh_all()

    def meld_clicked(self, side: int, idx: int) -> None:
        """A click on a meld: with cards selected, add them to it; else make it the target."""
        s = self.table.view()
        if side != s.side_of[self.table.seat]:
            self.say(self.t("not_your_meld"), error=True)
            return
        self.target = idx
        cards = self.selected_cards()
        if cards and self.table.human_to_move and s.phase != PHASE_DRAW:
            self.try_move(Move.add(idx, cards))
        elif (self.table.human_to_move and s.phase == PHASE_DRAW
              and s.variant.pile != PILE_OPEN):
            self.try_move(Move.pickup(meld=idx))
        else:
            self.say(self.t("target_is", n=idx + 1))
            self.refresh_all()

    def action_sort(self) -> None:
        """Switch the hand's order between by suit and by rank."""
        want = sorted(self.selected_cards())
        self.sort_by = "rank" if self.sort_by == "suit" else "suit"
        self.hand_cards = sorted(self.hand_cards, key=sort_key(self.sort_by))
        sel = set()
        for i, c in enumerate(self.hand_cards):  # keep the same cards selected
            if c in want:
                want.remove(c)
                sel.add(i)
        self.selected = sel
        self.refresh_all()
        self.save_match()  # the order is kept for --resume



__all__ = ["TableKeys"]
