// The turn alert: besides the tab's title, a short sound when it becomes your turn,
// made by Web Audio (no sound file), off by default, remembered in this browser.
import { html, useState, useEffect, useRef } from "../vendor/preact-htm.js";
import { t } from "./i18n.js";

const KEY = "burraco.turnSound";
let audio = null;

/** True when the player turned the turn sound on (it is off until they do). */
export function soundOn() {
  try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
}

function context() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!audio) audio = new AC();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// a browser lets a page make sound only after a gesture: the first one wakes the
// audio of a player who turned the sound on in an earlier visit
for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, () => { if (soundOn()) context(); }, { capture: true, passive: true });
}

/** Two soft rising notes (about a third of a second). Returns whether it played. */
export function playTurnSound() {
  const ac = context();
  if (!ac) return false;
  const start = ac.currentTime + 0.02;
  [[660, 0], [880, 0.14]].forEach(([freq, at]) => {
    const osc = ac.createOscillator(), gain = ac.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.16);
    osc.connect(gain).connect(ac.destination);
    osc.start(start + at);
    osc.stop(start + at + 0.18);
  });
  window.__burracoTurnSounds = (window.__burracoTurnSounds || 0) + 1; // for tests and the curious
  return true;
}

/** Sound the alert when `myTurn` becomes true (not on the first render: a reload
 *  while on turn makes no sound). */
export function useTurnAlert(myTurn) {
  const before = useRef(myTurn);
  useEffect(() => {
    if (myTurn && !before.current && soundOn()) playTurnSound();
    before.current = myTurn;
  }, [myTurn]);
}

/** The table's setting: the turn sound on or off. */
export function SoundToggle() {
  const [on, setOn] = useState(soundOn);
  const flip = () => {
    const next = !on;
    try { localStorage.setItem(KEY, next ? "1" : "0"); } catch (e) { /* this page only */ }
    setOn(next);
    if (next) playTurnSound(); // the player hears what they turned on (and the audio wakes)
  };
  return html`<button type="button" class="quiet sound-toggle" aria-pressed=${on ? "true" : "false"}
      onClick=${flip} title=${t("A sound when it becomes your turn")}>
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>
      ${on ? html`<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none"/>`
        : html`<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2"/>`}
    </svg>
    ${t("Turn sound")}</button>`;
}
