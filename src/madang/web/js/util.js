// Small DOM helpers shared by every page. No rules logic lives in the client.

/** h("div.cls#id", {attrs}, ...children): build an element. */
export function h(spec, attrs = {}, ...children) {
  const m = /^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const el = document.createElement(m?.[1] || "div");
  if (m?.[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "html") el.innerHTML = v;
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Empty ``el`` and put ``children`` in it as :func:`h` does: ``null``, ``undefined`` and
 * ``false`` are skipped, arrays flattened. (The DOM's own ``append`` writes a ``null`` child
 * as the word "null", which showed on the board after a 나가리.) */
export function fill(el, ...children) {
  append(clear(el), children);
  return el;
}

let toastTimer = 0;
/** A short message at the bottom of the screen (errors from the server, notices). */
export function toast(text, kind = "info") {
  let t = document.getElementById("toast");
  if (!t) {
    t = h("div#toast", { role: "status", "aria-live": "polite" });
    document.body.append(t);
  }
  t.textContent = text;
  t.className = `show ${kind}`;
  toastClear();
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.className = ""), 3500);
}

/**
 * A toast never covers an open question (U5): one that would rest over `.prompt.active`
 * moves to the top of the screen. The table calls this after every render too.
 */
export function toastClear() {
  const t = document.getElementById("toast");
  const q = document.querySelector(".prompt.active");
  if (!t?.classList.contains("show") || !q) return;
  const r = q.getBoundingClientRect();
  // where it rests: the layout box (offsetTop), not the sliding transform
  const over = (top) => r.top < top + t.offsetHeight && top < r.bottom;
  t.classList.remove("top");
  if (over(t.offsetTop)) {
    t.classList.add("top");
    if (over(t.offsetTop)) t.classList.remove("show");
  }
}

export function fmtAmount(n) {
  const s = Math.abs(n).toLocaleString("ko-KR");
  return n > 0 ? `+${s}` : n < 0 ? `−${s}` : "0";
}

export function fmtTime(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString("ko-KR", { hour12: false });
}

/** Navigate inside the single-page app. */
export function go(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new Event("madang:navigate"));
}

/** A link that navigates without reloading. */
export function link(path, text, cls = "") {
  return h(
    `a${cls ? `.${cls.trim().split(/\s+/).join(".")}` : ""}`,
    {
      href: path,
      onclick: (e) => {
        if (e.metaKey || e.ctrlKey) return;
        e.preventDefault();
        go(path);
      },
    },
    text,
  );
}
