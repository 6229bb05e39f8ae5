// The player's hand: cards to select (click, tap, Space), sorted by suit or by rank or
// arranged by the player (drag a card, or Shift + arrow keys on it).
import { html, useRef, useLayoutEffect } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { CardFace, cardLabel, sortHand, isTwo } from "./cards.js";

const DRAG_PX = 8;

/** The hand in the order shown: sorted by `mode` ("suit", "rank"), or in the player's
 *  own order `custom` (a list of cards) with cards it does not hold yet at the end. */
export function arrange(hand, mode, custom) {
  if (mode !== "custom" || !custom) return sortHand(hand, mode === "rank" ? "rank" : "suit");
  const left = [...hand];
  const out = [];
  for (const c of custom) {
    const i = left.indexOf(c);
    if (i >= 0) { out.push(c); left.splice(i, 1); }
  }
  return [...out, ...sortHand(left, "suit")];
}

/** Indexes of a selection after the card at `from` moved to `to`. */
export function moveSelection(selected, from, to) {
  const pos = (i) => {
    if (i === from) return to;
    if (from < to && i > from && i <= to) return i - 1;
    if (to < from && i >= to && i < from) return i + 1;
    return i;
  };
  return new Set([...selected].map(pos));
}

/** The hand's cards as buttons, each named by its own hidden words (the drawing is
 *  hidden from assistive technology, so the name holds all the button shows).
 *  `onMove(from, to)` reorders them. */
export function Hand({ s, sorted, selected, toggle, sortMode, onMove }) {
  const ref = useRef(null);
  const drag = useRef(null);
  const refocus = useRef(null);
  const suppressClick = useRef(false);
  useLayoutEffect(() => { // before paint, so the focus never leaves the moved card
    if (refocus.current === null || !ref.current) return;
    const b = ref.current.querySelectorAll("button.card")[refocus.current];
    refocus.current = null;
    if (b) b.focus();
  });
  const buttons = () => [...ref.current.querySelectorAll("button.card")];
  const onKey = (e) => {
    const keys = ["ArrowLeft", "ArrowRight", "Home", "End"];
    if (!keys.includes(e.key)) return;
    const list = buttons();
    const i = list.indexOf(document.activeElement);
    if (i < 0) return;
    e.preventDefault();
    if (e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) { // move the card itself
      const j = i + (e.key === "ArrowLeft" ? -1 : 1);
      if (j < 0 || j >= list.length) return;
      refocus.current = j;
      onMove(i, j);
      return;
    }
    const j = e.key === "Home" ? 0 : e.key === "End" ? list.length - 1
      : Math.max(0, Math.min(list.length - 1, i + (e.key === "ArrowLeft" ? -1 : 1)));
    list[j].focus();
  };
  const drop = (d) => { // a drag ends: the card back in its place, no mark left
    d.el.style.transform = "";
    d.el.classList.remove("dragging");
    buttons().forEach((b) => b.classList.remove("drop-here"));
  };
  const down = (e, i) => {
    if (e.button !== 0 || !e.isPrimary) return;
    if (drag.current && drag.current.moved) drop(drag.current); // one whose release was missed
    const centers = buttons().map((b) => { const r = b.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; });
    drag.current = { i, to: i, x0: e.clientX, y0: e.clientY, moved: false, el: e.currentTarget, centers };
  };
  const move = (e) => {
    const d = drag.current;
    if (!d) return;
    if (!(e.buttons & 1)) { // no button held: the press ended where no card heard it
      drag.current = null; //  (off the hand, or on a card the page had just redrawn)
      if (d.moved) drop(d); // and a pointer that only passes over a card never drags one
      return;
    }
    const dx = e.clientX - d.x0, dy = e.clientY - d.y0;
    if (!d.moved) {
      if (Math.hypot(dx, dy) < DRAG_PX) return;
      d.moved = true;
      try { d.el.setPointerCapture(e.pointerId); } catch (err) { /* the pointer is gone */ }
      d.el.classList.add("dragging");
    }
    d.el.style.transform = `translate(${dx}px, ${dy - 12}px)`;
    let best = d.i, dist = Infinity;
    d.centers.forEach(([x, y], j) => {
      const k = Math.hypot(e.clientX - x, (e.clientY - y) * 2);
      if (k < dist) { dist = k; best = j; }
    });
    d.to = best;
    buttons().forEach((b, j) => b.classList.toggle("drop-here", j === best && best !== d.i));
  };
  const up = () => {
    const d = drag.current;
    drag.current = null;
    if (!d || !d.moved) return;
    drop(d);
    suppressClick.current = true; // the click that ends a drag does not select
    setTimeout(() => { suppressClick.current = false; }, 0);
    if (d.to !== d.i) onMove(d.i, d.to);
  };
  const click = (i) => {
    if (suppressClick.current) { suppressClick.current = false; return; }
    toggle(i);
  };
  const fresh = s.lastCard;
  let freshShown = false;
  const order = sortMode === "rank" ? t("by rank") : sortMode === "custom" ? t("in your own order") : t("by suit");
  return html`<div class="hand" id="hand" tabindex="-1" ref=${ref} role="group" onKeyDown=${onKey}
      aria-label=${tn("Your hand: {n} card, sorted {order}", "Your hand: {n} cards, sorted {order}", sorted.length, { order })}
      aria-description=${t("Drag a card, or press Shift and an arrow key on it, to move it.")}>
    ${sorted.map((c, i) => {
      const isFresh = !freshShown && fresh === c && (freshShown = true);
      return html`<button type="button" key=${i + ":" + c}
        class=${"card" + (selected.has(i) ? " selected" : "") + (isFresh ? " fresh" : "")}
        aria-pressed=${selected.has(i) ? "true" : "false"}
        data-card=${c} onClick=${() => click(i)} onPointerDown=${(e) => down(e, i)}
        onPointerMove=${move} onPointerUp=${up} onPointerCancel=${up}><span class="sr-only">${cardLabel(c, isTwo(c))}</span><${CardFace} code=${c} wild=${isTwo(c)}/></button>`;
    })}
  </div>`;
}
