// Others' moves, shown moving: a card flies from the stock or the pile to the player
// who took it, or from the player to the pile or the meld it went to. Only decoration:
// the page's state is already the new one; the flying cards are clones over it, with
// no pointer events, and nothing flies for a person who asked for reduced motion.
import { html, render } from "../vendor/preact-htm.js";
import { CardFace, CardBack, isTwo } from "./cards.js";

export const FLY_MS = 520;

function reduced() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function rectOf(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width || r.height ? r : null;
}

/** Fly `codes` (null entries are card backs) from element `from` to element `to`;
 *  `hide` (an element) is made invisible until the cards land on it; `stars`: 2s
 *  show the wild card's star (not on their way to a meld, whose reading says it). */
export function fly(from, to, codes, hide = null, stars = true) {
  const a = rectOf(from), b = rectOf(to);
  if (!a || !b || reduced() || !codes.length) return;
  const sample = rectOf(to.classList.contains("card") ? to : to.querySelector(".card")) || b;
  const w = Math.max(24, Math.min(sample.width, 64));
  const layer = document.createElement("div");
  layer.className = "fly-layer";
  layer.setAttribute("aria-hidden", "true");
  document.body.appendChild(layer);
  render(html`${codes.map((c, i) => html`<span class="card fly-card" style=${`width:${w}px;height:${w * 1.4}px;left:${i * w * 0.45}px`}>
      ${c ? html`<${CardFace} code=${c} wild=${stars && isTwo(c)}/>` : html`<${CardBack}/>`}</span>`)}`, layer);
  const x0 = a.left + a.width / 2 - w / 2, y0 = a.top + a.height / 2 - w * 0.7;
  const x1 = b.left + b.width / 2 - w / 2, y1 = b.top + b.height / 2 - w * 0.7;
  if (hide) hide.style.visibility = "hidden";
  const anim = layer.animate([
    { transform: `translate(${x0}px, ${y0}px) scale(.85)`, opacity: 0.2 },
    { transform: `translate(${(x0 + x1) / 2}px, ${Math.min(y0, y1) - 30}px) scale(1.05)`, opacity: 1, offset: 0.5 },
    { transform: `translate(${x1}px, ${y1}px) scale(1)`, opacity: 1 },
  ], { duration: FLY_MS, easing: "cubic-bezier(.3,.7,.4,1)" });
  const done = () => {
    if (hide) hide.style.visibility = "";
    render(null, layer);
    layer.remove();
  };
  anim.onfinish = done;
  anim.oncancel = done;
}

/** Animate one move event of another seat (`ev`), on the page as it now stands. */
export function animateMove(ev, root = document) {
  const m = ev.move;
  const seatEl = root.querySelector(`.player[data-seat="${ev.seat}"]`);
  const stock = root.querySelector(".stock .card");
  const pileTop = root.querySelector(".pile .pile-cards .card:last-child");
  const pile = root.querySelector(".pile");
  switch (m.action) {
    case "draw":
    case "redraw":
      fly(stock, seatEl, [null]);
      break;
    case "pickup":
      fly(pile, seatEl, Array.from({ length: Math.min(ev.took || 1, 5) }, () => null));
      break;
    case "discard":
      fly(seatEl, pileTop || pile, [m.card], pileTop);
      break;
    case "meld":
    case "add": {
      const melds = [...root.querySelectorAll(`.meld[data-owner]`)]
        .filter((el) => el.closest(".melds") && el.closest(".melds").dataset.seats
          && el.closest(".melds").dataset.seats.split(",").includes(String(ev.seat)));
      const target = m.action === "add"
        ? melds.find((el) => el.dataset.meld === String(m.meld))
        : melds[melds.length - 1];
      fly(seatEl, target, (m.cards || []).slice(0, 6), null, false); // the meld itself shows which 2 is wild
      break;
    }
    default:
      break;
  }
}
