// HTTP calls of the protocol (docs/protocol.md): JSON in, JSON out, the session cookie.

export class ApiError extends Error {
  constructor(status, error, retryAfter) {
    super((error && error.message) || `HTTP ${status}`);
    this.status = status;
    this.retryAfter = retryAfter ? parseInt(retryAfter, 10) || null : null;
    this.code = (error && error.code) || "http";
    this.field = (error && error.field) || null;
    this.reason = (error && error.reason) || null; // what exactly is wrong (docs/protocol.md)
    this.params = (error && error.params) || {};
  }
}

export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, { code: "network", message: String(e) });
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok || (data && data.ok === false)) throw new ApiError(r.status, data && data.error, r.headers.get("Retry-After"));
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body === undefined ? {} : body);

const SESSION_MARK = "burraco.session";

/** Remember that this browser holds a session cookie (the cookie itself is HttpOnly). */
export function markSession(on) {
  try { if (on) localStorage.setItem(SESSION_MARK, "1"); else localStorage.removeItem(SESSION_MARK); } catch (e) { /* no storage */ }
}

/** The signed-in player, or null (no session yet: a first visit asks no server). */
export async function me() {
  let marked = true;
  try { marked = localStorage.getItem(SESSION_MARK) === "1"; } catch (e) { /* ask the server */ }
  if (!marked) return null;
  try {
    return (await get("/api/me")).player;
  } catch (e) {
    if (e.status === 401) { markSession(false); return null; }
    throw e;
  }
}
