// The page's words: the gettext catalogue of burraco.i18n, served as JSON by
// GET /api/i18n/{lang}. A msgid is the English text, so English needs no catalogue.
// Placeholders are {name}, as in the Python side (python-brace-format).

export const LANGS = ["en", "it", "pt", "de"];
export const LANG_NAMES = { en: "English", it: "Italiano", pt: "Português (Brasil)", de: "Deutsch" };
const STORAGE_KEY = "burraco.lang";

let current = { lang: "en", plural: "n != 1", burraco: {}, rules: {} };

/** The language of a browser or locale name ("pt-BR" -> "pt"), or null. */
export function normalizeLang(value) {
  if (!value) return null;
  const base = String(value).toLowerCase().replace("_", "-").split("-")[0];
  return LANGS.includes(base) ? base : null;
}

/** The language the player picked, else the browser's first known language, else English. */
export function preferredLang() {
  const params = new URLSearchParams(location.search);
  const asked = normalizeLang(params.get("lang"));
  if (asked) return asked;
  try {
    const saved = normalizeLang(localStorage.getItem(STORAGE_KEY));
    if (saved) return saved;
  } catch (e) { /* storage disabled: use the browser's language */ }
  for (const l of navigator.languages || [navigator.language]) {
    const n = normalizeLang(l);
    if (n) return n;
  }
  return "en";
}

/** Load the catalogue of `lang` (remembering the player's choice when `pick`). */
export async function loadLang(lang, pick = false) {
  if (pick) {
    try { localStorage.setItem(STORAGE_KEY, lang); } catch (e) { /* not remembered */ }
  }
  if (lang === "en") {
    current = { lang: "en", plural: "n != 1", burraco: {}, rules: {} };
  } else {
    const r = await fetch(`/api/i18n/${lang}`, { credentials: "same-origin" });
    if (!r.ok) throw new Error(`catalogue ${lang}: HTTP ${r.status}`);
    current = await r.json();
  }
  document.documentElement.lang = lang === "pt" ? "pt-BR" : lang;
  return current.lang;
}

export function lang() { return current.lang; }

function fill(text, vars) {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

function pluralIndex(n) {
  return current.plural === "n > 1" ? (n > 1 ? 1 : 0) : (n !== 1 ? 1 : 0);
}

/** `msgid` (English) in the page's language, with {placeholders} filled from `vars`. */
export function t(msgid, vars) {
  const tr = current.burraco[msgid];
  return fill(typeof tr === "string" && tr ? tr : msgid, vars);
}

/** The singular or plural form for `n` ({n} is filled too). */
export function tn(singular, plural, n, vars) {
  const forms = current.burraco[singular];
  let text;
  if (Array.isArray(forms) && forms[pluralIndex(n)]) text = forms[pluralIndex(n)];
  else text = n === 1 ? singular : plural;
  return fill(text, { n, ...(vars || {}) });
}

/** `msgid` told apart from the same English words by `context` (gettext's pgettext). */
export function tp(context, msgid, vars) {
  const tr = current.burraco[`${context}\u0004${msgid}`];
  return fill(typeof tr === "string" && tr ? tr : msgid, vars);
}
