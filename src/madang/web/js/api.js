// The wire: JSON over HTTP and the table WebSocket (docs/protocol.md).

export class ApiError extends Error {
  constructor(status, code, message, extra = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

async function request(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", "network");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = data?.error || {};
    throw new ApiError(
      res.status,
      err.code || `http_${res.status}`,
      err.message || res.statusText,
      err,
    );
  }
  return data;
}

export const api = {
  get: (path) => request("GET", path),
  post: (path, body = {}) => request("POST", path, body),
};

/** The signed-in user (null when none), cached for the page's life; `refreshMe` reloads. */
let me = null;
let meLoaded = false;
export async function getMe(force = false) {
  if (meLoaded && !force) return me;
  // /api/session answers {user: null} when logged out: no 401 in the console.
  const got = await api.get("/api/session");
  me = got.user ? got : null;
  meLoaded = true;
  window.dispatchEvent(new CustomEvent("madang:me", { detail: me }));
  return me;
}

/**
 * One table's live stream. Keeps the last good version, asks for the missed updates on a
 * gap or a reconnect, and hands every message to `onMessage(msg)`.
 */
export class TableSocket {
  constructor(tableId, { invite = null, onMessage, onStatus, fromStart = false } = {}) {
    this.tableId = tableId;
    this.invite = invite;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    // fromStart: ask for every update the server still holds (a new tab rebuilding its
    // log, U11); the server sends a snapshot instead when its history does not reach back
    this.version = fromStart ? 0 : null;
    this.ref = 0;
    this.closed = false;
    this.retry = 0;
    this.ws = null;
    this.pingTimer = 0;
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "";
    return `${proto}//${location.host}/ws/tables/${this.tableId}${q}`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus("open");
      this.send({ type: "hello", last_version: this.version });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "snapshot") this.version = msg.version;
      if (msg.type === "update") {
        if (this.version !== null && msg.version !== this.version + 1) {
          // A gap: ask again from the last version we applied.
          if (msg.version > this.version + 1)
            this.send({ type: "hello", last_version: this.version });
          return;
        }
        this.version = msg.version;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.closed) return;
      if (ev.code === 4404 || ev.code === 4403) {
        // The table is not open (or not for us to watch): asking again cannot help.
        this.closed = true;
        this.onStatus("gone");
        return;
      }
      // Any other drop, 1013 (try again: the table is between servers) among them:
      // reconnect, waiting longer after each failure.
      this.onStatus("closed");
      const wait = Math.min(8000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  /** Send a move made against the current version; returns its ref. */
  act(action) {
    const ref = ++this.ref;
    this.send({ type: "act", version: this.version, action, ref });
    return ref;
  }

  ready() {
    this.send({ type: "ready" });
  }

  /** Ask for a fresh snapshot (the state and the timers as they are now). */
  resync() {
    this.send({ type: "hello", last_version: null });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
