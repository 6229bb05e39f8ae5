// HTTP calls of the protocol (docs/protocol.md): JSON in, JSON out, the session cookie.

export class ApiError extends Error {
  constructor(status, error) {
    super((error && error.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (error && error.code) || "http";
    this.field = (error && error.field) || null;
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
  if (!r.ok || (data && data.ok === false)) throw new ApiError(r.status, data && data.error);
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body === undefined ? {} : body);

/** The signed-in player, or null (no session yet). */
export async function me() {
  try {
    return (await get("/api/me")).player;
  } catch (e) {
    if (e.status === 401) return null;
    throw e;
  }
}
