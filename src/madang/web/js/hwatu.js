// 화투 (hwatu) card art, drawn by this project in SVG from the small data table below.
// No image is copied: every card is a month plant in the month's colours plus the marks
// of its kind (광 circle, animal, ribbon, 쌍피 badge). Codes follow notation.md.

import { t } from "./i18n.js";

const W = 60;
const H = 96;

// month -> [plant, Korean name, main colour, accent colour, sky]
export const MONTHS = {
  1: ["pine", "송학", "#1f6b3a", "#c8262c", "#f3d9c4"],
  2: ["plum", "매조", "#b0193a", "#3b2a1a", "#f6e6e8"],
  3: ["cherry", "벚꽃", "#e97fa0", "#6b3a2a", "#fbeef2"],
  4: ["wisteria", "흑싸리", "#2a2236", "#5c4b8a", "#efeaf5"],
  5: ["iris", "난초", "#4b3fa0", "#2f7a3d", "#e9eefa"],
  6: ["peony", "모란", "#c2185b", "#2f7a3d", "#fbe8ef"],
  7: ["bushclover", "홍싸리", "#c0392b", "#556b2f", "#fbece7"],
  8: ["pampas", "공산", "#222222", "#bfbfbf", "#f4f1e6"],
  9: ["chrysanthemum", "국화", "#e2a000", "#7a3b00", "#fbf4dc"],
  10: ["maple", "단풍", "#d2401b", "#7a2a10", "#fbeadf"],
  11: ["paulownia", "오동", "#3b2d4f", "#e8c547", "#f2eef6"],
  12: ["willow", "비", "#2e5d2e", "#111111", "#e6ecef"],
};

// The special cards: code -> [label (Hangul), mark]
export const SPECIAL = {
  "01g": ["송학 광", "crane"],
  "03g": ["벚꽃 광", "curtain"],
  "08g": ["공산 광", "moon"],
  "11g": ["오동 광", "phoenix"],
  "12g": ["비광", "umbrella"],
  "02a": ["꾀꼬리", "bird", "#9bb52a"],
  "04a": ["두견새", "bird", "#3a3a4a"],
  "05a": ["다리", "bridge"],
  "06a": ["나비", "butterfly"],
  "07a": ["멧돼지", "boar"],
  "08a": ["기러기", "geese"],
  "09a": ["국진 (술잔)", "cup"],
  "10a": ["사슴", "deer"],
  "12a": ["제비", "swallow"],
};

const HONGDAN = new Set(["01r", "02r", "03r"]);
const CHEONGDAN = new Set(["06r", "09r", "10r"]);
const CHODAN = new Set(["04r", "05r", "07r"]);

/** 종류 (kind) of a card code: "gwang" | "yeol" | "tti" | "pi" | "ssangpi" | "bonus". */
export function kindOf(code) {
  if (code.startsWith("b")) return "bonus";
  const k = code[2];
  return { g: "gwang", a: "yeol", r: "tti", p: "pi", d: "ssangpi" }[k] || "pi";
}

export function monthOf(code) {
  return code.startsWith("b") ? 0 : parseInt(code.slice(0, 2), 10);
}

/** The catalogue key of a card's kind: g, a, hong, cheong, cho, r, p, d. */
function kindKey(code) {
  if (HONGDAN.has(code)) return "hong";
  if (CHEONGDAN.has(code)) return "cheong";
  if (CHODAN.has(code)) return "cho";
  return code[2];
}

/** The name of a card for the log, prompts and screen readers ("8월 광", "보너스 쌍피"). */
export function cardName(code) {
  if (code === "back") return t("matgo.card.back");
  if (code.startsWith("b") || code === "12g" || code === "09a") return t(`matgo.card.${code}`);
  return t("matgo.card", { month: monthOf(code), kind: t(`matgo.kind.${kindKey(code)}`) });
}

/** Several card names, joined. */
export function cardNames(codes) {
  return (codes || []).map(cardName).join(", ");
}

/** Sort key: by month, then id order (광/열끗, 띠, 피); bonus cards last. */
export function sortKey(code) {
  if (code.startsWith("b")) return 1000 + code.length * 10 + (code === "b3" ? 1 : 0);
  const order = { g: 0, a: 0, r: 1, p: 2, d: 3 };
  return monthOf(code) * 10 + order[code[2]] + (code.endsWith("2") ? 0.5 : 0);
}

export function sortCards(codes) {
  return [...codes].sort((a, b) => sortKey(a) - sortKey(b));
}

// Small deterministic jitter so the four cards of a month do not look identical.
function rnd(seed) {
  let s = seed * 9301 + 49297;
  return () => {
    s = (s * 9301 + 49297) % 233280;
    return s / 233280;
  };
}

function leaf(x, y, r, rot, fill) {
  return `<ellipse cx="${x}" cy="${y}" rx="${r}" ry="${r * 0.42}" transform="rotate(${rot} ${x} ${y})" fill="${fill}"/>`;
}

function flower(x, y, r, petals, fill, centre) {
  let s = "";
  for (let i = 0; i < petals; i++) {
    const a = (i * 2 * Math.PI) / petals;
    s += `<circle cx="${(x + Math.cos(a) * r * 0.6).toFixed(1)}" cy="${(y + Math.sin(a) * r * 0.6).toFixed(1)}" r="${(r * 0.5).toFixed(1)}" fill="${fill}"/>`;
  }
  return `${s}<circle cx="${x}" cy="${y}" r="${(r * 0.28).toFixed(1)}" fill="${centre}"/>`;
}

// One drawing per plant; `v` varies the layout between the cards of a month.
const PLANTS = {
  pine(c, _a, v) {
    const r = rnd(v + 1);
    let s = `<path d="M0 ${H} Q${W * 0.55} ${H * 0.72} ${W} ${H * 0.78} L${W} ${H} Z" fill="${c}" opacity=".25"/>`;
    s += `<path d="M8 ${H} C14 70 24 58 30 44 C34 36 40 34 46 30" stroke="#4a2c14" stroke-width="3" fill="none"/>`;
    for (let i = 0; i < 4; i++) {
      const x = 14 + r() * 34;
      const y = 20 + i * 14 + r() * 6;
      for (let k = -3; k <= 3; k++) {
        s += `<line x1="${x}" y1="${y}" x2="${(x + k * 3).toFixed(1)}" y2="${y - 8}" stroke="${c}" stroke-width="1.6"/>`;
      }
    }
    return s;
  },
  plum(c, a, v) {
    const r = rnd(v + 2);
    let s = `<path d="M${W} 10 C40 20 30 40 18 52 C10 60 6 74 4 ${H}" stroke="${a}" stroke-width="3.2" fill="none"/>`;
    s += `<path d="M30 38 C36 46 44 50 54 52" stroke="${a}" stroke-width="2" fill="none"/>`;
    for (let i = 0; i < 7; i++) s += flower(8 + r() * 46, 12 + r() * 70, 4.5, 5, c, "#f5d142");
    return s;
  },
  cherry(c, a, v) {
    const r = rnd(v + 3);
    let s = "";
    for (let i = 0; i < 14; i++) s += flower(4 + r() * 52, 4 + r() * 40, 4.2, 5, c, "#fff3f6");
    s += `<path d="M0 60 C20 50 40 56 ${W} 46" stroke="${a}" stroke-width="2.4" fill="none"/>`;
    return s;
  },
  wisteria(c, _a, v) {
    const r = rnd(v + 4);
    let s = "";
    for (let k = 0; k < 3; k++) {
      const x = 12 + k * 17 + r() * 4;
      s += `<line x1="${x}" y1="0" x2="${x + 2}" y2="${46 + r() * 16}" stroke="${c}" stroke-width="1.2"/>`;
      for (let i = 0; i < 8; i++)
        s += leaf(x + (i % 2 ? 3 : -3), 6 + i * 6, 3.6, i % 2 ? 40 : -40, c);
    }
    return s;
  },
  iris(c, a, v) {
    const r = rnd(v + 5);
    let s = "";
    for (let k = 0; k < 5; k++) {
      const x = 8 + k * 11;
      s += `<path d="M${x} ${H} Q${x + 4} 60 ${x + r() * 8 - 4} ${30 + r() * 10}" stroke="${a}" stroke-width="2.2" fill="none"/>`;
    }
    for (let i = 0; i < 3; i++) {
      const x = 12 + i * 18;
      const y = 22 + r() * 14;
      s += `<path d="M${x} ${y} l-5 -8 l5 3 l5 -3 Z M${x} ${y} l-7 4 l7 -1 l7 1 Z" fill="${c}"/>`;
    }
    return s;
  },
  peony(c, a, v) {
    const r = rnd(v + 6);
    let s = "";
    for (let i = 0; i < 5; i++) s += leaf(8 + r() * 44, 40 + r() * 40, 8, r() * 180, a);
    s += flower(30, 30, 16, 8, c, "#f5d142");
    s += flower(30, 30, 9, 6, "#e85a8c", "#f5d142");
    return s;
  },
  bushclover(c, a, v) {
    const r = rnd(v + 7);
    let s = "";
    for (let k = 0; k < 3; k++) {
      const x0 = 6 + k * 18;
      s += `<path d="M${x0} ${H} Q${x0 + 16} 50 ${x0 + 30} 6" stroke="${a}" stroke-width="1.4" fill="none"/>`;
      for (let i = 0; i < 7; i++) {
        const t = i / 7;
        s += `<circle cx="${(x0 + 30 * t + 6 * t * (1 - t)).toFixed(1)}" cy="${(H - (H - 6) * t).toFixed(1)}" r="${2 + r()}" fill="${c}"/>`;
      }
    }
    return s;
  },
  pampas(c, a, _v) {
    let s = `<rect x="0" y="0" width="${W}" height="${H * 0.55}" fill="${a}" opacity=".55"/>`;
    s += `<path d="M0 ${H * 0.55} Q${W / 2} ${H * 0.38} ${W} ${H * 0.55} L${W} ${H} L0 ${H} Z" fill="${c}"/>`;
    for (let i = 0; i < 9; i++) {
      const x = 3 + i * 6.5;
      s += `<line x1="${x}" y1="${H * 0.52}" x2="${x + 3}" y2="${H * 0.44}" stroke="#eee" stroke-width="1"/>`;
    }
    return s;
  },
  chrysanthemum(c, a, v) {
    const r = rnd(v + 9);
    let s = "";
    for (let i = 0; i < 4; i++) s += leaf(10 + r() * 40, 50 + r() * 36, 7, r() * 180, "#2f7a3d");
    s += flower(22, 24, 12, 12, c, a);
    s += flower(42, 40, 8, 10, c, a);
    return s;
  },
  maple(c, a, v) {
    const r = rnd(v + 10);
    let s = `<path d="M${W} 0 C40 20 30 40 20 60" stroke="${a}" stroke-width="2" fill="none"/>`;
    for (let i = 0; i < 6; i++) {
      const x = 8 + r() * 44;
      const y = 8 + r() * 56;
      let p = "";
      for (let k = 0; k < 5; k++) {
        const ang = -Math.PI / 2 + (k - 2) * 0.7;
        p += `${k ? "L" : "M"}${(x + Math.cos(ang) * 7).toFixed(1)} ${(y + Math.sin(ang) * 7).toFixed(1)} L${x} ${y} `;
      }
      s += `<path d="${p}" stroke="${c}" stroke-width="3.2" stroke-linejoin="round" fill="none"/>`;
    }
    return s;
  },
  paulownia(c, a, _v) {
    let s = `<path d="M0 ${H * 0.62} L${W} ${H * 0.62} L${W} ${H} L0 ${H} Z" fill="${c}" opacity=".85"/>`;
    s += leaf(18, 72, 14, -20, "#1e1e1e") + leaf(42, 74, 14, 20, "#1e1e1e");
    for (let i = 0; i < 3; i++) {
      const x = 20 + i * 10;
      s += `<line x1="${x}" y1="46" x2="${x}" y2="60" stroke="${a}" stroke-width="1.2"/>`;
      s += `<circle cx="${x}" cy="44" r="3.2" fill="${a}"/>`;
    }
    return s;
  },
  willow(c, _a, _v) {
    let s = "";
    for (let k = 0; k < 6; k++) {
      const x = 6 + k * 10;
      s += `<path d="M${x} 0 Q${x - 6} 30 ${x + 2} 60" stroke="${c}" stroke-width="1.6" fill="none"/>`;
      s += leaf(x - 2, 22, 4, 70, c) + leaf(x, 42, 4, 80, c);
    }
    return s;
  },
};

const MARKS = {
  crane: () =>
    `<circle cx="40" cy="26" r="11" fill="#d62828"/>` +
    `<path d="M14 78 C18 60 28 56 34 60 C40 64 44 54 50 48 L46 62 C42 72 30 74 22 72 Z" fill="#fff" stroke="#111" stroke-width="1.2"/>` +
    `<circle cx="49" cy="48" r="2" fill="#d62828"/>`,
  curtain: () =>
    `<path d="M2 58 Q15 52 30 58 Q45 64 58 58 L58 90 L2 90 Z" fill="#b31d2f"/>` +
    `<path d="M2 66 L58 66 M2 74 L58 74" stroke="#f5d142" stroke-width="1.4"/>`,
  moon: () => `<circle cx="30" cy="26" r="16" fill="#fff9e0" stroke="#d9c27a" stroke-width="1"/>`,
  phoenix: () =>
    `<path d="M12 40 C22 24 40 22 50 32 C42 34 36 40 34 50 C30 40 20 38 12 40 Z" fill="#e8c547" stroke="#8a2b2b" stroke-width="1"/>` +
    `<path d="M34 50 C30 62 22 70 14 74 M34 50 C38 62 44 70 52 72" stroke="#c0392b" stroke-width="2.2" fill="none"/>`,
  umbrella: () =>
    `<path d="M10 46 Q24 28 40 40 Z" fill="#c0392b"/>` +
    `<line x1="25" y1="40" x2="30" y2="74" stroke="#111" stroke-width="1.4"/>` +
    `<circle cx="34" cy="52" r="4" fill="#f1d2b0" stroke="#111" stroke-width=".8"/>` +
    `<path d="M30 56 L40 56 L42 76 L28 76 Z" fill="#f5d142" stroke="#111" stroke-width=".8"/>` +
    `<path d="M44 60 q6 -4 10 2 q-4 6 -10 2" fill="#f4f4f4" stroke="#111" stroke-width=".8"/>`,
  bird: (c) =>
    `<path d="M16 60 C20 50 32 48 40 52 L48 48 L44 56 C40 64 26 68 16 60 Z" fill="${c}" stroke="#111" stroke-width="1"/>` +
    `<circle cx="42" cy="52" r="1.4" fill="#fff"/>`,
  bridge: () =>
    `<path d="M2 70 L58 56" stroke="#7a4a20" stroke-width="7"/>` +
    `<path d="M10 72 L10 84 M28 66 L28 80 M46 62 L46 76" stroke="#7a4a20" stroke-width="2"/>`,
  butterfly: () =>
    `<path d="M30 60 C18 44 10 58 22 64 C10 70 20 80 30 66 C40 80 50 70 38 64 C50 58 42 44 30 60 Z" fill="#f5d142" stroke="#111" stroke-width="1"/>`,
  boar: () =>
    `<path d="M10 76 C12 62 26 58 40 60 C48 60 54 66 54 72 L48 74 L46 82 L40 80 L22 80 L18 86 L14 82 Z" fill="#5a3a1e" stroke="#111" stroke-width="1"/>`,
  geese: () =>
    [14, 31, 48]
      .map(
        (x, i) =>
          `<path d="M${x - 11} ${30 + i * 7} Q${x - 4} ${22 + i * 7} ${x} ${27 + i * 7} Q${x + 4} ${22 + i * 7} ${x + 11} ${30 + i * 7} Q${x + 4} ${27 + i * 7} ${x} ${31 + i * 7} Q${x - 4} ${27 + i * 7} ${x - 11} ${30 + i * 7} Z" fill="#111"/>`,
      )
      .join(""),
  cup: () =>
    `<path d="M16 60 L44 60 L40 74 L20 74 Z" fill="#c0392b" stroke="#111" stroke-width="1"/>` +
    `<rect x="26" y="74" width="8" height="5" fill="#c0392b"/>` +
    `<text x="30" y="70" font-size="8" text-anchor="middle" fill="#f5d142">壽</text>`,
  deer: () =>
    `<path d="M16 80 L18 64 C22 58 34 58 40 60 L44 50 L48 52 L46 62 L44 66 L42 80 L38 80 L38 70 L24 70 L22 80 Z" fill="#b5651d" stroke="#111" stroke-width="1"/>` +
    `<path d="M44 50 l-4 -8 M44 50 l4 -8" stroke="#5a3a1e" stroke-width="1.4"/>`,
  swallow: () =>
    `<path d="M10 40 L30 50 L50 36 L36 54 L46 66 L30 58 L18 64 Z" fill="#111"/>` +
    `<circle cx="30" cy="52" r="2" fill="#d62828"/>`,
};

function ribbonSvg(code) {
  let fill = "#d62828";
  let writing = "";
  if (HONGDAN.has(code)) writing = "홍단";
  else if (CHEONGDAN.has(code)) fill = "#1f5fbf";
  let s = `<g transform="rotate(-12 30 54)">`;
  s += `<rect x="22" y="30" width="16" height="50" rx="2" fill="${fill}" stroke="#111" stroke-width=".8"/>`;
  if (writing) {
    s += `<text x="30" y="49" font-size="8" font-weight="700" text-anchor="middle" fill="#111">홍</text>`;
    s += `<text x="30" y="61" font-size="8" font-weight="700" text-anchor="middle" fill="#111">단</text>`;
  }
  if (code === "12r") {
    s += `<path d="M22 44 L38 40 M22 54 L38 50 M22 64 L38 60" stroke="#111" stroke-width="2"/>`;
  }
  return `${s}</g>`;
}

function gwangMark() {
  return (
    `<circle cx="10" cy="10" r="7.5" fill="#d62828" stroke="#fff" stroke-width="1"/>` +
    `<text x="10" y="13.6" font-size="10" font-weight="700" text-anchor="middle" fill="#fff">光</text>`
  );
}

function cornerLabel(text, fill = "#111") {
  return `<text x="${W - 4}" y="${H - 4}" font-size="8" text-anchor="end" fill="${fill}" font-weight="700">${text}</text>`;
}

function bonusSvg(code) {
  const n = code === "b3" ? 3 : 2;
  return (
    `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="5" fill="#f5d142" stroke="#8a6d00" stroke-width="1.5"/>` +
    `<circle cx="30" cy="44" r="18" fill="#c0392b"/>` +
    `<text x="30" y="52" font-size="22" font-weight="800" text-anchor="middle" fill="#fff">${n}</text>` +
    `<text x="30" y="78" font-size="9" font-weight="700" text-anchor="middle" fill="#5a3a00">보너스</text>` +
    `<text x="30" y="88" font-size="8" text-anchor="middle" fill="#5a3a00">${n === 3 ? "쓰리피" : "쌍피"}</text>`
  );
}

const cache = new Map();

/** The SVG markup of one card (a string; cached). `back` draws the red card back. */
export function cardSvg(code) {
  const hit = cache.get(code);
  if (hit) return hit;
  let body;
  let title;
  if (code === "back") {
    title = cardName("back");
    body =
      `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="5" fill="#b3172b" stroke="#5e0c17" stroke-width="1.5"/>` +
      `<rect x="6" y="6" width="${W - 12}" height="${H - 12}" rx="3" fill="none" stroke="#e8a0a8" stroke-width="1"/>`;
  } else if (code.startsWith("b")) {
    title = cardName(code);
    body = bonusSvg(code);
  } else {
    const m = monthOf(code);
    const [plant, name, c, a, sky] = MONTHS[m];
    const kind = kindOf(code);
    const v = code.charCodeAt(2) + code.length;
    const special = SPECIAL[code];
    title = `${cardName(code)} (${name}${special ? ` ${special[0]}` : ""})`;
    body =
      `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="5" fill="${sky}" stroke="#333" stroke-width="1.2"/>` +
      `<g clip-path="url(#clip)">${PLANTS[plant](c, a, v)}`;
    if (special) body += MARKS[special[1]](special[2] || c);
    if (kind === "tti") body += ribbonSvg(code);
    body += "</g>";
    if (kind === "gwang") body += gwangMark();
    if (kind === "ssangpi") {
      body += `<rect x="3" y="3" width="16" height="11" rx="2" fill="#111"/><text x="11" y="11.6" font-size="8" font-weight="700" text-anchor="middle" fill="#fff">쌍</text>`;
    }
    body += cornerLabel(String(m), m === 8 || m === 11 ? "#fff" : "#111");
  }
  const svg =
    `<svg class="hwatu" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${title}">` +
    `<title>${title}</title><defs><clipPath id="clip"><rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="5"/></clipPath></defs>` +
    body +
    "</svg>";
  cache.set(code, svg);
  return svg;
}

/** A card element: `<div class="card" data-code=…>` holding the SVG. */
export function cardEl(code, extraClass = "") {
  const d = document.createElement("div");
  d.className = `card ${extraClass}`.trim();
  d.dataset.code = code;
  d.innerHTML = cardSvg(code);
  return d;
}
