// The table's chat: lines, a player's chat muted (remembered per player in this
// browser), and the quick phrases, sent as codes and read in each page's language.
import { html, useState, useEffect, useRef } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";

/** The quick phrases by code (the server's server/phrases.py holds the same codes). */
export const PHRASES = {
  good_luck: () => t("Good luck!"),
  well_played: () => t("Well played!"),
  thanks: () => t("Thanks!"),
  sorry_must_go: () => t("Sorry, I must go."),
  good_game: () => t("Good game!"),
};

const MUTE_KEY = "burraco.mute";

/** The players whose chat this browser hides: `{player id: name}`. */
export function muted() {
  try {
    const v = JSON.parse(localStorage.getItem(MUTE_KEY) || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch (e) { return {}; }
}

function saveMuted(m) {
  try { localStorage.setItem(MUTE_KEY, JSON.stringify(m)); } catch (e) { /* kept for this page only */ }
}

/** The chat lines shown: those of players not muted. */
export function shownChat(chat) {
  const m = muted();
  return (chat || []).filter((c) => !(c.from && c.from.id in m));
}

function unescape(x) { const d = document.createElement("textarea"); d.innerHTML = x; return d.value; }

/** A line's words: a quick phrase in this page's language, else the text sent. */
export function lineText(c) {
  return c.phrase && PHRASES[c.phrase] ? PHRASES[c.phrase]() : unescape(c.text || "");
}

/** The chat tab of the table. */
export function Chat({ s, conn }) {
  const [text, setText] = useState("");
  const [mutedNow, setMuted] = useState(muted);
  const ref = useRef(null);
  const mine = s.you && s.you.player ? s.you.player.id : null;
  const lines = s.chat.filter((c) => !(c.from && c.from.id in mutedNow));
  const hidden = s.chat.length - lines.length;
  useEffect(() => { if (ref.current) ref.current.scrollTop = ref.current.scrollHeight; }, [lines.length]);
  const send = (e) => {
    e.preventDefault();
    const v = text.trim();
    if (v && conn.chat(v.slice(0, 300))) setText("");
  };
  const mute = (from) => { const m = { ...mutedNow, [from.id]: from.name }; setMuted(m); saveMuted(m); };
  const unmute = (id) => { const m = { ...mutedNow }; delete m[id]; setMuted(m); saveMuted(m); };
  const mutedHere = Object.entries(mutedNow).filter(([id]) => s.chat.some((c) => c.from && c.from.id === id));
  return html`<div class="chat">
    <ol class="chat-lines" ref=${ref} aria-live="polite" aria-label=${t("Chat")}>
      ${s.chat.length === 0 ? html`<li class="empty">${t("No messages yet.")}</li>` : null}
      ${lines.map((c) => html`<li key=${c.version} class=${c.phrase ? "chat-phrase" : null} data-from=${c.from ? c.from.id : ""}>
        <b>${c.from ? c.from.name : "?"}:</b> ${lineText(c)}
        ${c.from && c.from.id !== mine ? html`<button type="button" class="quiet chat-mute"
            onClick=${() => mute(c.from)} title=${t("Mute {name}", { name: c.from.name })}
            aria-label=${t("Mute {name}", { name: c.from.name })}>${t("Mute")}</button>` : null}</li>`)}
    </ol>
    ${hidden ? html`<p class="chat-hidden">${tn("{n} line hidden from muted players.", "{n} lines hidden from muted players.", hidden)}
      ${mutedHere.map(([id, name]) => html` <button type="button" class="quiet chat-unmute" key=${id}
          onClick=${() => unmute(id)}>${t("Unmute {name}", { name })}</button>`)}</p>` : null}
    <div class="quick-phrases" role="group" aria-label=${t("Quick phrases")}>
      ${Object.keys(PHRASES).map((code) => html`<button type="button" key=${code} data-phrase=${code}
          onClick=${() => conn.phrase(code)}>${PHRASES[code]()}</button>`)}
    </div>
    <form class="chat-form" onSubmit=${send}>
      <label class="sr-only" for="chat-input">${t("Message")}</label>
      <input id="chat-input" maxlength="300" value=${text} onInput=${(e) => setText(e.target.value)}
        placeholder=${t("Say something to the table")} autocomplete="off"/>
      <button type="submit">${t("Send")}</button>
    </form></div>`;
}
