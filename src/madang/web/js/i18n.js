// 말 (mal): the message catalogue. Every name the client shows comes from
// /static/i18n/<lang>.json (Korean by default, English complete as the second), the same
// files the terminal reads (madang.i18n). Placeholders are {name}.

import { withParticle } from "./josa.js";

export const LANGS = ["ko", "en"];
let cat = {};
let lang = "ko";
/** Keys asked for but missing from the catalogue (a bug; the tests read this). */
export const missing = new Set();
window.__madangMissing = missing;

export function currentLang() {
  return lang;
}

/** Load the catalogue of the saved language (default Korean) before the first page. */
export async function loadCatalogue(wanted) {
  let l = wanted || localStorage.getItem("madang:lang") || "ko";
  if (!LANGS.includes(l)) l = "ko";
  const res = await fetch(`/static/i18n/${l}.json`, { credentials: "same-origin" });
  cat = await res.json();
  lang = l;
  document.documentElement.lang = l;
  document.title = t("app.title");
}

export async function setLang(l) {
  localStorage.setItem("madang:lang", l);
  await loadCatalogue(l);
}

export function has(key) {
  return Object.hasOwn(cat, key);
}

/** The message `key` with its {placeholders} filled from `params`. */
export function t(key, params = {}) {
  const s = cat[key];
  if (s === undefined) {
    missing.add(key);
    return `⟦${key}⟧`;
  }
  // "{name}이(가)": the particle that fits the name's last syllable (josa.js)
  return s.replace(/\{(\w+)\}(이\(가\)|은\(는\)|을\(를\)|과\(와\))?/g, (m, n, pair) => {
    if (!Object.hasOwn(params, n)) return m;
    return pair ? withParticle(String(params[n]), pair) : String(params[n]);
  });
}

/** The text of a server error, by its stable code (the wire's message stays English). */
export function errorText(err) {
  if (!err) return t("error.unknown");
  const code = err.code || "";
  if (code === "throttled")
    return t("error.throttled", {
      seconds: Math.ceil(err.extra?.retry_after || err.retry_after || 0),
    });
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  return t("error.unknown");
}

/** How a user name is shown: bot and guest accounts get Korean names. */
export function displayName(username) {
  if (!username) return "";
  let m = /^bot-(\w+)$/.exec(username);
  if (m) return t("name.bot", { level: has(`level.${m[1]}`) ? t(`level.${m[1]}`) : m[1] });
  m = /^guest-(\w+)$/.exec(username);
  if (m) return t("name.guest", { id: m[1] });
  return username;
}

export function presetName(game, p) {
  return has(`preset.${game}.${p}`) ? t(`preset.${game}.${p}`) : t(`preset.${game}.default`);
}

export function presetDesc(game, p) {
  return t(`preset.${game}.${p}.desc`);
}

/**
 * A payment or ledger reason (win, ssoa, olla, cheot_ppeok …). `paid`: the reader paid it,
 * so a win reads as their loss — "패배", or "{winner} 승리" when the winner is named (U8).
 */
export function payReason(r, paid = false, winner = "") {
  if (paid && r === "win") return winner ? t("pay.won_by", { name: winner }) : t("pay.lose");
  return t(`pay.${r}`);
}
