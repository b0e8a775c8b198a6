// Movement, a layer over the table (STYLE.md: the state is drawn from the view at once,
// effects play on top, and no effect ever holds back a click). FLIP: before the board is
// redrawn, `capture` notes where every card, tile and place is; after it, `update` makes
// each card the update's events moved fly from where it was to where the new board put
// it. The flight is a ghost (a copy of the card, in a fixed layer that takes no pointer
// events); the real card waits at its place, transparent but there and clickable, and
// shows when its ghost lands. A new update finishes the flights that are still going
// (each ghost's present place is where its card flies from next), so a click during one
// is applied at once and the next update is never held back.
//
// The speed (1×, 1.5×, 2×, as the portals offer) is kept per browser; the system's
// `prefers-reduced-motion: reduce` turns movement off altogether.
//
// Test hook, always present: `window.__madangMotion` counts each movement started, by
// name (`started`: deal, play, flip, capture, shake, bomb, ppeok, steal / deal, draw,
// discard, claim), how many flights are in the air (`running`), the speed in force
// (`speed`), whether reduced motion is on (`reduced`), the base flight time in ms at 1×
// (`base`) and the last flight time of each name at the speed in force (`duration`).

import { cardEl } from "./hwatu.js";
import { t } from "./i18n.js";
import { tileEl } from "./tiles.js";
import { h } from "./util.js";

const KEY = "madang:motion";
/** The speeds offered. */
export const SPEEDS = [1, 1.5, 2];
/** A card's flight at 1×, ms. */
const FLIGHT = 320;
/** Between two cards of one packet of the deal, ms at 1×. */
const DEAL_STEP = 35;
/** Between two packets of the deal (4, 5, 5, twice), ms at 1×. */
const DEAL_PACKET = 100;
/** Between the steps of one turn (the card played, the flip, the capture), ms at 1×. */
const STAGE = 300;
/** How long a 흔들기 / 폭탄 shows its cards, ms at 1×. */
const SHOW = 900;

const hook = {
  started: {},
  running: 0,
  speed: 1,
  reduced: false,
  base: FLIGHT,
  duration: {},
};
window.__madangMotion = hook;

function loadSpeed() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
    return SPEEDS.includes(s.speed) ? s.speed : 1;
  } catch {
    return 1;
  }
}

const centreOf = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** A rectangle of the size of `like` centred on the point `p`. */
function rectAt(p, like) {
  return {
    left: p.x - like.width / 2,
    top: p.y - like.height / 2,
    width: like.width,
    height: like.height,
  };
}

class MotionLayer {
  constructor() {
    this.speed = loadSpeed();
    this.mq = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
    this.flights = new Set(); // {ghost, anims, code}
    this.snap = null;
    this.layer = null;
    hook.speed = this.speed;
    hook.reduced = this.reduced();
    // a flight is drawn in the window's coordinates: a window resized ends it
    window.addEventListener("resize", () => this.finishAll());
    this.mq?.addEventListener?.("change", () => {
      hook.reduced = this.reduced();
      if (hook.reduced) this.finishAll();
    });
  }

  reduced() {
    return !!this.mq?.matches;
  }

  setSpeed(speed) {
    if (!SPEEDS.includes(speed)) return;
    this.speed = speed;
    hook.speed = speed;
    localStorage.setItem(KEY, JSON.stringify({ speed }));
  }

  /** ms at the speed in force. */
  ms(x) {
    return x / this.speed;
  }

  count(name) {
    hook.started[name] = (hook.started[name] || 0) + 1;
  }

  /** End every flight now: ghosts gone, cards shown where they are. */
  finishAll() {
    for (const f of this.flights) {
      for (const a of f.anims) a.cancel();
      f.ghost?.remove();
    }
    this.flights.clear();
    hook.running = 0;
  }

  /** Before the board is redrawn: where its cards and places are now (a card still in
   *  the air is where its ghost is). */
  capture(root) {
    if (this.reduced()) {
      this.snap = null;
      return;
    }
    const codes = new Map(); // code -> [rect] in the board's order
    const add = (code, r) => {
      if (!code || code === "back" || !r.width) return;
      if (!codes.has(code)) codes.set(code, []);
      codes.get(code).push(r);
    };
    const flying = new Map();
    for (const f of this.flights)
      if (f.code && f.ghost) flying.set(f.code, f.ghost.getBoundingClientRect());
    for (const e of root.querySelectorAll("[data-code]")) {
      const code = e.dataset.code;
      add(code, flying.get(code) || e.getBoundingClientRect());
    }
    const places = new Map();
    const place = (key, sel) => {
      const e = root.querySelector(sel);
      if (e) places.set(key, e.getBoundingClientRect());
    };
    place("pile", ".deck .pile-stack");
    place("opp-hand", ".board.matgo > .opp-hand");
    for (const o of root.querySelectorAll(".board.matgo .opp[data-seat]")) {
      const hand = o.querySelector(".opp-hand");
      if (hand) places.set(`opp-hand-${o.dataset.seat}`, hand.getBoundingClientRect());
    }
    place("hand", ".board > .hand");
    place("floor", ".floor");
    place("wall-next", ".mj-wall .wall-stack.next");
    place("wall", ".mj-wall");
    for (const g of root.querySelectorAll(".month-group"))
      places.set(`month-${g.dataset.month}`, g.getBoundingClientRect());
    for (const s of root.querySelectorAll(".mj-seat")) {
      const k = s.dataset.seat;
      const c = s.querySelector(".concealed");
      if (c) places.set(`concealed-${k}`, c.getBoundingClientRect());
      const last = s.querySelector(".river .tile:last-child");
      if (last) places.set(`river-${k}`, last.getBoundingClientRect());
    }
    this.snap = { codes, places };
    this.finishAll();
  }

  /** Where `code` was (the `i`-th of its kind, or the last one). */
  was(code, which = -1) {
    const list = this.snap?.codes.get(code);
    if (!list?.length) return null;
    return list[which < 0 ? list.length + which : Math.min(which, list.length - 1)];
  }

  place(key) {
    return this.snap?.places.get(key) || null;
  }

  /** The layer the ghosts fly in (fixed, over the page, taking no pointer events). */
  ghostLayer() {
    if (!this.layer?.isConnected) {
      this.layer = h("div.motion-layer", { "aria-hidden": "true" });
      document.body.append(this.layer);
    }
    return this.layer;
  }

  /**
   * Fly `el` (drawn at its new place) from the rectangle `from`, through `via` if given,
   * after `delay` ms (at 1×). The card itself stays at its place and clickable, hidden
   * until its ghost lands. Returns the flight's end in ms at the speed in force.
   */
  fly(el, from, { delay = 0, via = null, name = "", flip = false, back = null } = {}) {
    if (!el || !from) return 0;
    const to = el.getBoundingClientRect();
    if (!to.width || !to.height) return 0;
    // from a place (the pile, a hand, the wall) rather than a card: from its middle, at
    // the card's size
    if (from.width > to.width * 1.6 || from.height > to.height * 1.6)
      from = rectAt(centreOf(from), to);
    const d = this.ms(delay);
    const dur = this.ms(via ? FLIGHT * 1.6 : FLIGHT);
    const ghost = el.cloneNode(!back);
    if (back) ghost.innerHTML = back.innerHTML; // face down in the air (the deal)
    ghost.className = `${el.className} motion-ghost`;
    ghost.removeAttribute("tabindex");
    ghost.removeAttribute("role");
    Object.assign(ghost.style, {
      left: `${to.left}px`,
      top: `${to.top}px`,
      width: `${to.width}px`,
      height: `${to.height}px`,
    });
    this.ghostLayer().append(ghost);
    const tf = (r) => {
      const sx = r.width / to.width;
      const sy = r.height / to.height;
      return `translate(${r.left - to.left}px, ${r.top - to.top}px) scale(${sx}, ${sy})`;
    };
    const frames = [{ transform: tf(from), offset: 0 }];
    if (via) frames.push({ transform: tf(rectAt(centreOf(via), to)), offset: 0.55 });
    frames.push({ transform: "none", offset: 1 });
    if (flip) {
      // a card turned face up on its way: it starts narrow, as seen edge on
      frames[0].transform += " rotateY(80deg)";
    }
    const a = ghost.animate(frames, {
      duration: dur,
      delay: d,
      easing: "cubic-bezier(.2,.7,.3,1)",
      fill: "both",
    });
    // the real card: there, clickable, transparent until its ghost lands
    const b = el.animate([{ opacity: 0 }, { opacity: 0 }], { duration: d + dur });
    const f = { ghost, anims: [a, b], code: el.dataset.code };
    this.flights.add(f);
    hook.running = this.flights.size;
    if (name) hook.duration[name] = Math.round(dur);
    a.finished.then(
      () => this.land(f),
      () => {},
    );
    return d + dur;
  }

  land(f) {
    if (!this.flights.delete(f)) return;
    f.ghost?.remove();
    hook.running = this.flights.size;
  }

  /** A short movement of an element in place (a 뻑 stack settling). */
  settle(el, delay) {
    if (!el) return;
    const a = el.animate(
      [
        { transform: "translateY(-10px) scale(1.06)" },
        { transform: "translateY(2px) scale(0.98)", offset: 0.6 },
        { transform: "none" },
      ],
      { duration: this.ms(FLIGHT * 1.4), delay: this.ms(delay), easing: "ease-out" },
    );
    const f = { ghost: null, anims: [a], code: "" };
    this.flights.add(f);
    hook.running = this.flights.size;
    a.finished.then(
      () => this.land(f),
      () => {},
    );
  }

  /** Cards shown for a while over the board (a 흔들기 or 폭탄 showing its month). */
  show(root, cards, makeCard, delay) {
    if (!cards?.length) return;
    const box = root.getBoundingClientRect();
    const strip = h(
      "div.motion-show",
      {},
      cards.map((c) => makeCard(c)),
    );
    Object.assign(strip.style, {
      left: `${box.left + box.width / 2}px`,
      top: `${box.top + box.height / 2}px`,
    });
    this.ghostLayer().append(strip);
    const a = strip.animate(
      [
        { opacity: 0, transform: "translate(-50%, -50%) scale(0.6)" },
        { opacity: 1, transform: "translate(-50%, -50%) scale(1.1)", offset: 0.15 },
        { opacity: 1, transform: "translate(-50%, -50%) scale(1)", offset: 0.8 },
        { opacity: 0, transform: "translate(-50%, -50%) scale(1)" },
      ],
      { duration: this.ms(SHOW), delay: this.ms(delay), fill: "both" },
    );
    const f = { ghost: strip, anims: [a], code: "" };
    this.flights.add(f);
    hook.running = this.flights.size;
    a.finished.then(
      () => this.land(f),
      () => {},
    );
  }

  /** After the board was redrawn with an update of `game`: move what its events moved. */
  update(game, root, events, view, seat) {
    hook.reduced = this.reduced();
    if (hook.reduced || !view || !events?.length) return;
    if (!this.snap) this.snap = { codes: new Map(), places: new Map() };
    const run = RUNS[game];
    if (run) run(this, root, events, view, seat ?? 0);
    this.snap = null;
  }
}

// --- 맞고 ------------------------------------------------------------------------------

/** The deal (matgo.md §2): 4 to the floor, 5 to the other player, 5 to 선, twice; with
 *  more seats (gostop.md §2): 4 to each hand from 선's right round to 선, 3 to the
 *  floor, 3 to each hand, 3 to the floor. */
function matgoDeal(m, root, view, me) {
  const board = root.querySelector(".board.matgo");
  const pile = board?.querySelector(".deck .pile-stack");
  if (!pile) return;
  const from = pile.querySelector(".card")?.getBoundingClientRect() || pile.getBoundingClientRect();
  const back = cardEl("back");
  const floor = [...board.querySelectorAll(".floor .card")];
  const mine = [...board.querySelectorAll(":scope > .hand .card")];
  const n = view.hand_counts.length;
  if (n > 2) {
    const hand = (s) =>
      s === me ? mine : [...board.querySelectorAll(`.opp[data-seat="${s}"] .opp-hand .card`)];
    const order = Array.from({ length: n }, (_, i) => (view.dealer + 1 + i) % n);
    const packets = [
      ...order.map((s) => [hand(s), 0, 4]),
      [floor, 0, 3],
      ...order.map((s) => [hand(s), 4, 7]),
      [floor, 3, 6],
    ];
    return dealPackets(m, packets, floor.slice(6), from, back);
  }
  const theirs = [...board.querySelectorAll(":scope > .opp-hand .card")];
  const dealer = view.dealer === 1 - me ? theirs : mine;
  const other = dealer === mine ? theirs : mine;
  const packets = [
    [floor, 0, 4],
    [other, 0, 5],
    [dealer, 0, 5],
    [floor, 4, 8],
    [other, 5, 10],
    [dealer, 5, 10],
  ];
  dealPackets(m, packets, floor.slice(8), from, back);
}

/** Fly the deal's packets ([cards, from, to]) from the pile in turn, then the bonus cards
 *  refilled on the floor (`extra`). */
function dealPackets(m, packets, extra, from, back) {
  let at = 0;
  for (const [cards, a, b] of packets) {
    for (const el of cards.slice(a, b)) {
      m.fly(el, from, { delay: at, name: "deal", back });
      at += DEAL_STEP;
    }
    at += DEAL_PACKET;
  }
  // bonus cards refilled on the floor, if any
  for (const el of extra) {
    m.fly(el, from, { delay: at, name: "deal", back });
    at += DEAL_STEP;
  }
  m.count("deal");
}

function matgoRun(m, root, events, view, me) {
  const board = root.querySelector(".board.matgo");
  if (!board) return;
  if (events.some((e) => e.type === "deal")) {
    matgoDeal(m, root, view, me);
    return;
  }
  const find = (code) => board.querySelector(`.card[data-code="${code}"]:not(.motion-ghost)`);
  const monthOf = (code) => +String(code).slice(0, 2);
  const moved = new Set(); // cards already flown by this update
  let stage = 0;
  const fromHand = (e, code) =>
    e.seat === me
      ? m.was(code) || m.place("hand")
      : m.place(`opp-hand-${e.seat}`) || m.place("opp-hand");
  for (const e of events) {
    switch (e.type) {
      case "play":
      case "bonus_play": {
        const el = find(e.card);
        const via = m.place(`month-${monthOf(e.card)}`) || m.place("floor");
        const inFloor = el?.closest(".floor");
        m.fly(el, fromHand(e, e.card), { delay: stage, via: inFloor ? null : via, name: "play" });
        moved.add(e.card);
        m.count("play");
        stage += STAGE;
        break;
      }
      case "shake":
      case "bomb": {
        m.show(board.querySelector(".centre") || board, e.cards, (c) => cardEl(c), stage);
        m.count(e.type);
        if (e.type === "bomb") {
          for (const c of e.cards || []) {
            const el = find(c);
            m.fly(el, fromHand(e, c), { delay: stage + SHOW * 0.6, name: "bomb" });
            moved.add(c);
          }
          stage += SHOW * 0.6 + STAGE;
        } else stage += SHOW * 0.4;
        break;
      }
      case "flip": {
        const el = find(e.card);
        const inFloor = el?.closest(".floor");
        const via = m.place(`month-${monthOf(e.card)}`) || m.place("floor");
        m.fly(el, m.place("pile"), {
          delay: stage,
          via: inFloor ? null : via,
          flip: true,
          name: "flip",
        });
        moved.add(e.card);
        m.count("flip");
        stage += STAGE;
        break;
      }
      case "capture": {
        for (const c of e.cards || []) {
          if (moved.has(c)) continue;
          m.fly(find(c), m.was(c), { delay: stage, name: "capture" });
          moved.add(c);
        }
        if ((e.cards || []).length) m.count("capture");
        break;
      }
      case "steal": {
        if (!moved.has(e.card)) m.fly(find(e.card), m.was(e.card), { delay: stage, name: "steal" });
        moved.add(e.card);
        m.count("steal");
        break;
      }
      case "ppeok": {
        m.settle(board.querySelector(`.month-group[data-month="${e.month}"]`), stage);
        m.count("ppeok");
        break;
      }
      default:
        break;
    }
  }
}

// --- 마작 ------------------------------------------------------------------------------

function mahjongRun(m, root, events, view, me) {
  const board = root.querySelector(".board.mahjong");
  if (!board) return;
  const seatEl = (s) => board.querySelector(`.mj-seat[data-seat="${s}"]`);
  const wall = board.querySelector(".mj-wall");
  const wallRect = () => m.place("wall-next") || m.place("wall") || wall?.getBoundingClientRect();
  if (events.some((e) => e.type === "deal")) {
    const from = wall?.querySelector(".wall-stack.next")?.getBoundingClientRect();
    const back = tileEl("back");
    let at = 0;
    for (let k = 0; k < 4; k++) {
      const s = (view.dealer + k) % 4;
      const tiles =
        s === me
          ? [...board.querySelectorAll(".mj-hand .tile")]
          : [...(seatEl(s)?.querySelectorAll(".concealed .tile") || [])];
      for (const el of tiles) {
        m.fly(el, from, { delay: at, name: "deal", back });
        at += DEAL_STEP / 2;
      }
      at += DEAL_PACKET / 2;
    }
    m.count("deal");
    return;
  }
  let stage = 0;
  const lastDiscard = new Map(); // seat -> the rectangle its newest discard flew from
  for (const e of events) {
    switch (e.type) {
      case "draw": {
        const el =
          e.seat === me
            ? board.querySelector(".mj-hand .tile.drawn")
            : seatEl(e.seat)?.querySelector(".concealed .tile:last-child");
        m.fly(el, wallRect(), { delay: stage, name: "draw" });
        m.count("draw");
        break;
      }
      case "discard": {
        const s = seatEl(e.seat);
        const el = s?.querySelector(".river .tile:last-child");
        const from =
          e.seat === me ? m.was(e.tile) || m.place("hand") : m.place(`concealed-${e.seat}`);
        lastDiscard.set(e.seat, from);
        if (el && el.dataset.code === e.tile) m.fly(el, from, { delay: stage, name: "discard" });
        m.count("discard");
        stage += STAGE;
        break;
      }
      case "pon":
      case "kan":
      case "ankan":
      case "kakan": {
        const melds = seatEl(e.seat)?.querySelectorAll(".melds .meld");
        const meld = melds?.length ? melds[melds.length - 1] : null;
        const tiles = meld ? [...meld.querySelectorAll(".tile")] : [];
        const from =
          e.from !== undefined && e.from !== null
            ? lastDiscard.get(e.from) || m.place(`river-${e.from}`)
            : e.seat === me
              ? m.was(e.tile) || m.place("hand")
              : m.place(`concealed-${e.seat}`);
        // the claimed tile flies from the river, the others slide out of the hand
        const hand = e.seat === me ? m.place("hand") : m.place(`concealed-${e.seat}`);
        tiles.forEach((el, i) => {
          m.fly(el, i === 0 ? from : hand || from, { delay: stage + i * 30, name: "claim" });
        });
        m.count("claim");
        stage += STAGE;
        break;
      }
      default:
        break;
    }
  }
}

const RUNS = { matgo: matgoRun, mahjong: mahjongRun, gostop: matgoRun };

/** The one motion layer of the page. */
export const motion = new MotionLayer();

/** The table's speed control: 1×, 1.5×, 2× (off under the system's reduced motion). */
export function motionControls() {
  const reduced = motion.reduced();
  return h(
    "label.motion-ctl",
    { "data-testid": "motion", title: reduced ? t("motion.reduced") : t("motion.speed") },
    h("span.motion-label", {}, t("motion.label")),
    h(
      "select.motion-speed#motion-speed",
      {
        "aria-label": t("motion.speed"),
        disabled: reduced,
        onchange: (e) => motion.setSpeed(+e.target.value),
      },
      SPEEDS.map((s) =>
        h("option", { value: String(s), selected: s === motion.speed }, t("motion.x", { n: s })),
      ),
    ),
  );
}
