// Chat at the table (docs/protocol.md, Chat; docs/client.md): emoticons and quick
// phrases from the server's catalogue (GET /api/chat), sent by id, and free text where
// the server allows it (never for guests). Whatever a seat says shows as a bubble by its
// name for a few seconds, with a short sound through the sound layer (mute respected),
// goes into the table's log, and is read out by screen readers (a polite live region).
// Text is only ever set as textContent, never parsed as HTML. A player may mute another:
// that player's bubbles, sounds and log lines are hidden for the rest of this tab's
// session (sessionStorage). The faces are drawn here, as SVG: no emoji font is needed.
//
// Test hook: `window.__madangChat` lists what arrived (`heard`: {seat, kind, value,
// muted}) and what was sent (`sent`).

import { api } from "./api.js";
import { t } from "./i18n.js";
import { motion } from "./motion.js";
import { sound } from "./sound.js";
import { clear, h } from "./util.js";

/** How long a bubble stays (ms). */
export const BUBBLE_MS = 4000;
const MUTE_KEY = "madang:chat-muted";
const SVG = "http://www.w3.org/2000/svg";

const hook = { heard: [], sent: [] };
window.__madangChat = hook;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

const LINE = { fill: "none", stroke: "#4a2f08", "stroke-width": 2, "stroke-linecap": "round" };
const INK = { fill: "#4a2f08" };
const dot = (x, y, r = 2) => svg("circle", { cx: x, cy: y, r, ...INK });
const line = (d, extra = {}) => svg("path", { d, ...LINE, ...extra });
const fill = (d, color = "#4a2f08") => svg("path", { d, fill: color });

/** Each emoticon's face: [face colour, parts]. Our own drawings (40×40). */
const FACES = {
  joy: [
    "#ffd54a",
    () => [line("M11 17q3-4 6 0"), line("M23 17q3-4 6 0"), fill("M11 23q9 11 18 0z")],
  ],
  sad: [
    "#ffd54a",
    () => [
      dot(14, 17),
      dot(26, 17),
      line("M13 30q7-6 14 0"),
      fill("M12 21q-2 4 0 5q2-1 0-5z", "#3d8bfd"),
    ],
  ],
  surprise: [
    "#ffd54a",
    () => [
      line("M10 11q3-2 6 0"),
      line("M24 11q3-2 6 0"),
      dot(14, 17, 2.6),
      dot(26, 17, 2.6),
      svg("ellipse", { cx: 20, cy: 28, rx: 3.4, ry: 4.2, ...INK }),
    ],
  ],
  angry: [
    "#ff8a5c",
    () => [
      line("M10 12l7 3"),
      line("M30 12l-7 3"),
      dot(14, 18),
      dot(26, 18),
      line("M14 29q6-4 12 0"),
    ],
  ],
  laugh: [
    "#ffd54a",
    () => [
      line("M11 14l5 3l-5 3", { "stroke-linejoin": "round" }),
      line("M29 14l-5 3l5 3", { "stroke-linejoin": "round" }),
      fill("M11 23h18q-1 10-9 10q-8 0-9-10z"),
      fill("M15 29q5 3 10 0q-1 3-5 3q-4 0-5-3z", "#e8505b"),
    ],
  ],
  think: [
    "#ffd54a",
    () => [
      line("M10 13q3-1 6 1"),
      line("M24 10q3-3 6 0"),
      dot(14, 18),
      dot(26, 17),
      line("M15 29l9-2"),
    ],
  ],
  cheer: [
    "#ffd54a",
    () => [
      fill("M14 13l1.2 3 3 .3-2.3 2 .8 3-2.7-1.6-2.7 1.6.8-3-2.3-2 3-.3z", "#c0392b"),
      fill("M26 13l1.2 3 3 .3-2.3 2 .8 3-2.7-1.6-2.7 1.6.8-3-2.3-2 3-.3z", "#c0392b"),
      fill("M12 25q8 9 16 0z"),
    ],
  ],
  thanks: [
    "#ffd54a",
    () => [
      line("M11 16q3 3 6 0"),
      line("M23 16q3 3 6 0"),
      svg("circle", { cx: 11, cy: 23, r: 2.6, fill: "#f7a1a8" }),
      svg("circle", { cx: 29, cy: 23, r: 2.6, fill: "#f7a1a8" }),
      line("M16 27q4 3 8 0"),
    ],
  ],
};

/** An emoticon's face (SVG), or null for an id this client cannot draw. */
export function face(id, label = "") {
  const f = FACES[id];
  if (!f) return null;
  // a face with a name is an image; one beside its name in words is decoration
  const named = label ? { role: "img", "aria-label": label } : { "aria-hidden": "true" };
  return svg(
    "svg",
    { viewBox: "0 0 40 40", class: "chat-face", ...named },
    svg("circle", { cx: 20, cy: 20, r: 18, fill: f[0], stroke: "#b8861b", "stroke-width": 1.5 }),
    ...f[1](),
  );
}

function loadMuted() {
  try {
    const v = JSON.parse(sessionStorage.getItem(MUTE_KEY) || "[]");
    return new Set(Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

/** The chat of one table page: the bubbles over the board, the controls below it. */
export class TableChat {
  /**
   * @param {{board: HTMLElement, slot: HTMLElement, send: (m: object) => void,
   *   name: (seat: number) => string, seats: () => object[],
   *   log: (text: string) => void}} opts
   */
  constructor({ board, slot, send, name, seats, log }) {
    this.board = board;
    this.slot = slot;
    this.send = send;
    this.name = name;
    this.seats = seats;
    this.log = log;
    this.seat = null;
    this.cat = null;
    this.muted = loadMuted();
    this.bubbles = new Map(); // seat -> {el, timer}
    this.layer = h("div.chat-layer", { "data-testid": "chat-layer" });
    this.live = h("div.sr-only", {
      role: "log",
      "aria-live": "polite",
      "data-testid": "chat-live",
    });
    board.append(this.layer, this.live);
    this.panel = null;
    this.onKey = (e) => {
      if (e.key === "Escape") this.close();
      e.stopPropagation(); // the board's keys are not the panel's
    };
    this.onDocKey = (e) => {
      if (e.key === "Escape" && this.panel) {
        this.close();
        e.stopPropagation();
      }
    };
    api.get("/api/chat").then(
      (cat) => {
        this.cat = cat;
        this.renderBar();
      },
      () => {
        this.cat = null;
      },
    );
  }

  /** This connection's seat (null: watching): the welcome says it. */
  setSeat(seat) {
    this.seat = seat;
    this.renderBar();
  }

  usernameOf(seat) {
    return this.seats()[seat]?.username || null;
  }

  isMuted(seat) {
    const u = this.usernameOf(seat);
    return !!u && seat !== this.seat && this.muted.has(u);
  }

  setMuted(seat, on) {
    const u = this.usernameOf(seat);
    if (!u) return;
    if (on) {
      this.muted.add(u);
      this.bubbles.get(seat)?.el.remove();
    } else this.muted.delete(u);
    sessionStorage.setItem(MUTE_KEY, JSON.stringify([...this.muted]));
    this.renderPanel();
    this.panel?.querySelector(`.chat-mute[data-seat="${seat}"]`)?.focus();
  }

  /** What a `chat` message says, as text (the catalogue's words, or the text itself). */
  textOf(msg) {
    if (typeof msg.text === "string") return msg.text;
    if (typeof msg.emote === "string") {
      const e = this.cat?.emotes.find((x) => x.id === msg.emote);
      return e ? e.label : msg.emote;
    }
    if (typeof msg.phrase === "string") {
      const p = this.cat?.phrases.find((x) => x.id === msg.phrase);
      return p ? p.text : msg.phrase;
    }
    return "";
  }

  /** A `chat` message from the server. */
  receive(msg) {
    const seat = msg.seat;
    if (typeof seat !== "number") return;
    const kind = ["emote", "phrase", "text"].find((k) => typeof msg[k] === "string");
    if (!kind) return;
    const muted = this.isMuted(seat);
    hook.heard.push({ seat, kind, value: msg[kind], muted });
    if (muted) return;
    const said = this.textOf(msg);
    const who = this.name(seat);
    const line = t(kind === "emote" ? "chat.log_emote" : "chat.log_says", {
      name: who,
      text: said,
    });
    this.log(line);
    this.live.textContent = line;
    sound.cue(["chat"]);
    this.bubble(seat, kind, msg[kind], said);
  }

  bubble(seat, kind, value, said) {
    const old = this.bubbles.get(seat);
    if (old) {
      clearTimeout(old.timer);
      old.el.remove();
    }
    const pic = kind === "emote" ? face(value, said) : null;
    const el = h(
      `div.chat-bubble.${kind}`,
      { dataset: { seat, kind }, "data-testid": `bubble-${seat}`, "aria-hidden": "true" },
      pic,
      h("span.chat-said", {}, said), // textContent only: never markup
    );
    if (motion.reduced()) el.classList.add("still");
    this.layer.append(el);
    const timer = setTimeout(() => {
      el.remove();
      if (this.bubbles.get(seat)?.el === el) this.bubbles.delete(seat);
    }, BUBBLE_MS);
    this.bubbles.set(seat, { el, timer });
    this.place();
  }

  /** Put every bubble by its seat's name (after each render of the board): above a
   *  seat at the bottom, below one at the top; beside the name when that would cover an
   *  open question (its panel or the cards it asks about), as the captions keep clear. */
  place() {
    const box = this.board.getBoundingClientRect();
    const asked = [...this.board.querySelectorAll(".prompt.active, .pickable, .playable")].map(
      (a) => a.getBoundingClientRect(),
    );
    for (const [seat, { el }] of this.bubbles) {
      const info =
        this.board.querySelector(`[data-seat="${seat}"] .pinfo`) ||
        this.board.querySelector(`[data-seat="${seat}"]`);
      el.classList.remove("above", "below", "beside", "free");
      if (!info) {
        el.classList.add("free");
        el.style.left = `${8 + 12 * seat}px`;
        el.style.top = `${8 + 40 * seat}px`;
        continue;
      }
      const r = info.getBoundingClientRect();
      const w = el.offsetWidth;
      const ht = el.offsetHeight;
      let left = Math.max(4, Math.min(r.left - box.left + 6, box.width - w - 4));
      let top;
      let where;
      if (r.top - box.top < box.height / 2) {
        where = "below"; // a seat at the top: the bubble hangs under its name
        top = r.bottom - box.top + 6;
      } else {
        where = "above";
        top = Math.max(0, r.top - box.top - ht - 8);
      }
      const at = (x, y) => ({
        left: box.left + x,
        right: box.left + x + w,
        top: box.top + y,
        bottom: box.top + y + ht,
      });
      const hit = (q) =>
        asked.filter(
          (a) => q.left < a.right && a.left < q.right && q.top < a.bottom && a.top < q.bottom,
        );
      const covers = (q) => hit(q).length > 0;
      if (covers(at(left, top))) {
        // on the name's line, after the name and its badges (over the timer bar at worst)
        const parts = [...info.children].filter((c) => !c.classList.contains("timer"));
        const end = Math.max(r.left, ...parts.map((c) => c.getBoundingClientRect().right));
        where = "beside";
        left = Math.max(4, Math.min(end - box.left + 10, box.width - w - 4));
        top = Math.max(0, r.top - box.top + (r.height - ht) / 2);
        // still touching the question's panel above: just under it, over the name's line
        for (const a of hit(at(left, top))) top = Math.max(top, a.bottom - box.top + 2);
      }
      el.classList.add(where);
      el.style.left = `${left}px`;
      el.style.top = `${top}px`;
    }
  }

  say(body) {
    hook.sent.push(body);
    this.send({ type: "chat", ...body });
  }

  renderBar() {
    clear(this.slot);
    if (!this.cat) return;
    const open = h(
      "button.small.chat-open",
      {
        type: "button",
        "aria-expanded": "false",
        "data-testid": "chat-open",
        onclick: () => (this.panel ? this.close() : this.openPanel()),
      },
      face("joy", ""),
      t("chat.open"),
    );
    this.openBtn = open;
    this.slot.append(h("div.chat-bar", {}, open));
    if (this.panel) this.openPanel();
  }

  openPanel() {
    this.panel?.remove();
    this.panel = h("div.chat-panel", {
      role: "dialog",
      "aria-label": t("chat.title"),
      "data-testid": "chat-panel",
    });
    this.panel.addEventListener("keydown", this.onKey);
    document.addEventListener("keydown", this.onDocKey, true);
    this.slot.append(this.panel);
    this.openBtn?.setAttribute("aria-expanded", "true");
    this.renderPanel();
    this.panel.querySelector("button")?.focus({ preventScroll: true });
  }

  close() {
    document.removeEventListener("keydown", this.onDocKey, true);
    this.panel?.remove();
    this.panel = null;
    this.openBtn?.setAttribute("aria-expanded", "false");
  }

  renderPanel() {
    const p = this.panel;
    if (!p || !this.cat) return;
    const seated = this.seat !== null;
    const sendAndClose = (body) => {
      this.say(body);
      this.close();
    };
    const others = this.seats().filter(
      (s) => s.kind === "human" && s.username && s.seat !== this.seat,
    );
    const parts = [
      seated
        ? [
            h(
              "div.chat-emotes",
              { role: "group", "aria-label": t("chat.emotes") },
              this.cat.emotes.map((e) =>
                h(
                  "button.chat-emote",
                  {
                    type: "button",
                    title: e.label,
                    "aria-label": e.label,
                    dataset: { emote: e.id },
                    onclick: () => sendAndClose({ emote: e.id }),
                  },
                  face(e.id, ""),
                  h("span", {}, e.label),
                ),
              ),
            ),
            h(
              "div.chat-phrases",
              { role: "group", "aria-label": t("chat.phrases") },
              this.cat.phrases.map((x) =>
                h(
                  "button.chat-phrase",
                  {
                    type: "button",
                    dataset: { phrase: x.id },
                    onclick: () => sendAndClose({ phrase: x.id }),
                  },
                  x.text,
                ),
              ),
            ),
            this.cat.text ? this.textForm() : h("p.chat-note", {}, t("chat.text_off")),
          ]
        : h("p.chat-note", {}, t("chat.watching")),
      others.length
        ? h(
            "div.chat-mutes",
            { role: "group", "aria-label": t("chat.mute_title") },
            h("span.chat-mute-title", {}, t("chat.mute_title")),
            others.map((s) => {
              const on = this.muted.has(s.username);
              return h(
                `button.small.chat-mute${on ? ".on" : ""}`,
                {
                  type: "button",
                  "aria-pressed": String(on),
                  dataset: { seat: s.seat },
                  onclick: () => this.setMuted(s.seat, !on),
                },
                t(on ? "chat.unmute" : "chat.mute", { name: this.name(s.seat) }),
              );
            }),
          )
        : null,
    ];
    clear(p).append(...parts.flat().filter(Boolean));
  }

  textForm() {
    const input = h("input.chat-text", {
      type: "text",
      maxlength: this.cat.text_max,
      autocomplete: "off",
      "aria-label": t("chat.text_label"),
      placeholder: t("chat.text_label"),
    });
    return h(
      "form.chat-form",
      {
        onsubmit: (e) => {
          e.preventDefault();
          const text = input.value.trim();
          if (!text) return;
          this.say({ text });
          input.value = "";
          this.close();
        },
      },
      input,
      h("button.primary.small", { type: "submit" }, t("chat.send")),
    );
  }

  /** The seats changed (someone sat down or left): the mute list follows. */
  refresh() {
    this.renderPanel();
    this.place();
  }

  destroy() {
    for (const { timer } of this.bubbles.values()) clearTimeout(timer);
    this.bubbles.clear();
    this.close();
    this.layer.remove();
    this.live.remove();
  }
}
