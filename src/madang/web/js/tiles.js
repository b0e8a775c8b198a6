// 마작패 (majakpae): mahjong tiles drawn in SVG by this project. MPSZ codes as in
// notation.md: 1m–9m 만수, 1p–9p 통수, 1z–7z 동 남 서 북 백 발 중, 1f–4f flowers.

import { t } from "./i18n.js";

const W = 40;
const H = 54;
const NUM_HAN = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOR = ["", "東", "南", "西", "北", "", "發", "中"];
const FLOWER = ["", "春", "夏", "秋", "冬"];

// Pip positions of 통수 (circles) on a 3×3 grid-ish layout, in tile units.
const PIPS = {
  1: [[20, 27]],
  2: [
    [20, 15],
    [20, 39],
  ],
  3: [
    [11, 12],
    [20, 27],
    [29, 42],
  ],
  4: [
    [12, 15],
    [28, 15],
    [12, 39],
    [28, 39],
  ],
  5: [
    [12, 13],
    [28, 13],
    [20, 27],
    [12, 41],
    [28, 41],
  ],
  6: [
    [13, 11],
    [27, 11],
    [13, 27],
    [27, 27],
    [13, 43],
    [27, 43],
  ],
  7: [
    [10, 9],
    [20, 13],
    [30, 17],
    [13, 31],
    [27, 31],
    [13, 44],
    [27, 44],
  ],
  8: [
    [13, 9],
    [27, 9],
    [13, 21],
    [27, 21],
    [13, 33],
    [27, 33],
    [13, 45],
    [27, 45],
  ],
  9: [
    [10, 11],
    [20, 11],
    [30, 11],
    [10, 27],
    [20, 27],
    [30, 27],
    [10, 43],
    [20, 43],
    [30, 43],
  ],
};
const PIP_COL = ["#1f5fbf", "#2f7a3d", "#c0392b"];

/** The name of a tile code, e.g. "3m" -> "3만", for the log, titles and screen readers. */
export function tileName(code) {
  if (code === "back") return t("mahjong.tile.back");
  const s = code[1];
  if (s === "m" || s === "p") return t(`mahjong.tile.${s}`, { n: code[0] });
  return t(`mahjong.tile.${s}${code[0]}`);
}

/** Several tile names, joined by spaces. */
export function tileNames(codes) {
  return (codes || []).map(tileName).join(" ");
}

/** Sort key: 만수, 통수, honors, flowers. */
export function tileKey(code) {
  return "mpzf".indexOf(code[1]) * 10 + +code[0];
}

export function sortTiles(codes) {
  return [...codes].sort((a, b) => tileKey(a) - tileKey(b));
}

const cache = new Map();

export function tileSvg(code) {
  const hit = cache.get(code);
  if (hit) return hit;
  let body = "";
  if (code === "back") {
    body = `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="4" fill="#2f7a3d" stroke="#173d1e"/>`;
  } else {
    const n = +code[0];
    const s = code[1];
    body = `<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="4" fill="#fbf7ea" stroke="#8c8472" stroke-width="1.2"/>`;
    if (s === "m") {
      body += `<text x="20" y="24" font-size="17" text-anchor="middle" fill="#111" font-weight="700">${NUM_HAN[n]}</text>`;
      body += `<text x="20" y="46" font-size="17" text-anchor="middle" fill="#c0392b" font-weight="700">萬</text>`;
    } else if (s === "p") {
      PIPS[n].forEach(([x, y], i) => {
        const col = n === 1 ? "#c0392b" : PIP_COL[(i + n) % 3];
        const r = n === 1 ? 11 : n <= 4 ? 7 : n <= 6 ? 5.6 : 4.6;
        body += `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${col}" stroke-width="2"/><circle cx="${x}" cy="${y}" r="${(r / 2.6).toFixed(1)}" fill="${col}"/>`;
      });
    } else if (s === "z") {
      if (n === 5) {
        body += `<rect x="9" y="11" width="22" height="32" rx="2" fill="none" stroke="#1f5fbf" stroke-width="2.4"/>`;
      } else {
        const col = n === 6 ? "#2f7a3d" : n === 7 ? "#c0392b" : "#111";
        body += `<text x="20" y="37" font-size="24" text-anchor="middle" fill="${col}" font-weight="700">${HONOR[n]}</text>`;
      }
    } else {
      body += `<circle cx="20" cy="22" r="9" fill="#e97fa0"/><circle cx="20" cy="22" r="3" fill="#f5d142"/>`;
      body += `<text x="20" y="47" font-size="13" text-anchor="middle" fill="#7a2a10" font-weight="700">${FLOWER[n]}</text>`;
    }
  }
  const title = tileName(code);
  const svg = `<svg class="tile-svg" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${title}"><title>${title}</title>${body}</svg>`;
  cache.set(code, svg);
  return svg;
}

export function tileEl(code, extraClass = "") {
  const d = document.createElement("div");
  d.className = `tile ${extraClass}`.trim();
  d.dataset.code = code;
  d.innerHTML = tileSvg(code);
  return d;
}
