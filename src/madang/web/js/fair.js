// Deals anyone can verify (docs/fairness.md): the browser's own check of a finished
// game's deal, with WebCrypto only. The revealed seed must open the commitment shown
// before the deal, and the deal key must re-deal exactly the record's deck or wall.
// No rules logic: only the notation's card and tile orders and the scheme's draws.
// The table's settlement uses it through fairplay.js.

export const SCHEME = "madang-fair/1";
const MAX_TEXT_BYTES = 256;
const MAX_INT = Number.MAX_SAFE_INTEGER;
const TWO32 = 2 ** 32;
const utf8 = new TextEncoder();

/** The 48 month cards in id order (notation.md), then the bonus cards per rules. */
const MONTH_CARDS = [];
for (const [m, kinds] of [
  [1, "g r p1 p2"],
  [2, "a r p1 p2"],
  [3, "g r p1 p2"],
  [4, "a r p1 p2"],
  [5, "a r p1 p2"],
  [6, "a r p1 p2"],
  [7, "a r p1 p2"],
  [8, "g a p1 p2"],
  [9, "a r p1 p2"],
  [10, "a r p1 p2"],
  [11, "g d p1 p2"],
  [12, "g a r d"],
]) {
  for (const k of kinds.split(" ")) MONTH_CARDS.push(String(m).padStart(2, "0") + k);
}
const BONUS_CARDS = { "2+3": ["b2", "b3"], none: [], "2+2+2": ["b2", "b2x", "b2y"] };
const MISSIONS = [
  "godori",
  "hongdan",
  "cheongdan",
  "chodan",
  "ssangpi",
  "gwang_1_3_8",
  "gwang_11_12",
  "ogwang",
];
/** The 104 mahjong tiles in id order: 1m×4 … 9m×4, 1p×4 … 9p×4, 1z×4 … 7z×4, 1f–4f. */
const WALL = [];
for (const [suit, n] of [
  ["m", 9],
  ["p", 9],
  ["z", 7],
]) {
  for (let i = 1; i <= n; i++) WALL.push(...Array(4).fill(`${i}${suit}`));
}
WALL.push("1f", "2f", "3f", "4f");

const GAMES = {
  matgo: { seats: 2, field: "deck" },
  mahjong: { seats: 4, field: "wall" },
};

/** A problem with the revealed data (malformed) or a check that failed. */
class FairError extends Error {}

function fail(message) {
  throw new FairError(message);
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function u32(n) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}

/** field(bytes) = u32(length) ‖ bytes: the scheme's one encoding of text and bytes. */
function field(bytes) {
  return concat([u32(bytes.length), bytes]);
}

function text(s, what) {
  if (typeof s !== "string" || /\p{Cs}/u.test(s)) fail(`${what} is not valid Unicode text`);
  const b = utf8.encode(s);
  if (b.length > MAX_TEXT_BYTES) fail(`${what} is longer than ${MAX_TEXT_BYTES} UTF-8 bytes`);
  return b;
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fromHex(s, what = "hex") {
  if (typeof s !== "string" || !/^[0-9a-f]{64}$/.test(s)) {
    fail(`${what} must be 64 lowercase hex digits (32 bytes)`);
  }
  return Uint8Array.from(s.match(/../g), (h) => Number.parseInt(h, 16));
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function byCodePoint(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** Canonical JSON: keys sorted by code point, no spaces; strings, safe integers,
 *  booleans, null, arrays and objects only (as Python's json.dumps(sort_keys=True,
 *  separators=(",", ":"), ensure_ascii=False)). */
export function canonicalJson(value, depth = 0) {
  if (depth > 32) fail("the rules are nested too deeply");
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "string") {
    if (/\p{Cs}/u.test(value)) fail("the rules hold text that is not valid Unicode");
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) fail(`the rules hold a number that is not plain: ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(byCodePoint);
    return `{${keys.map((k) => `${canonicalJson(k)}:${canonicalJson(value[k], depth + 1)}`).join(",")}}`;
  }
  return fail(`the rules hold ${typeof value} data, not plain JSON`);
}

/** SHA-256 (hex) of the rules object's canonical JSON. */
export async function rulesDigest(rules) {
  if (rules === null || typeof rules !== "object" || Array.isArray(rules)) {
    fail("the rules must be a JSON object");
  }
  return toHex(await sha256(utf8.encode(canonicalJson(rules))));
}

function checkBinding(b) {
  if (b.scheme !== SCHEME) fail(`unknown fairness scheme ${JSON.stringify(b.scheme)}`);
  for (const k of ["game", "table", "ruleset"]) {
    if (typeof b[k] !== "string" || !b[k]) fail(`the ${k} must be a non-empty string`);
    text(b[k], `the ${k}`);
  }
  if (!Number.isSafeInteger(b.game_no) || b.game_no < 1 || b.game_no > MAX_INT) {
    fail("the game number must be an integer from 1");
  }
  fromHex(b.rules, "the rules digest");
}

/** The binding's canonical bytes: field(name) ‖ field(value) for scheme, game, table,
 *  game_no (decimal), ruleset, rules. */
export function encodeBinding(b) {
  checkBinding(b);
  const parts = [];
  for (const name of ["scheme", "game", "table", "game_no", "ruleset", "rules"]) {
    parts.push(field(utf8.encode(name)), field(utf8.encode(String(b[name]))));
  }
  return concat(parts);
}

function checkSeed(seed) {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) fail("a seed is 32 bytes");
}

/** SHA-256(field("madang-fair/1 commit") ‖ binding ‖ field(seed)), hex. */
export async function commitment(seed, binding) {
  checkSeed(seed);
  const label = field(utf8.encode(`${SCHEME} commit`));
  return toHex(await sha256(concat([label, encodeBinding(binding), field(seed)])));
}

function encodeEntropy(entropy) {
  if (!Array.isArray(entropy) || entropy.length === 0) {
    fail("the entropy must be a list of strings, one per seat");
  }
  return concat([
    u32(entropy.length),
    ...entropy.map((e, i) => field(text(e, `seat ${i}'s entropy`))),
  ]);
}

/** HMAC-SHA256(seed, field("madang-fair/1 deal") ‖ binding ‖ entropy): the deal key. */
export async function dealKey(seed, binding, entropy) {
  checkSeed(seed);
  const msg = concat([
    field(utf8.encode(`${SCHEME} deal`)),
    encodeBinding(binding),
    encodeEntropy(entropy),
  ]);
  const k = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, msg));
}

/** The stream of a key for one label: block i = SHA-256(key ‖ field(label) ‖ u32(i)),
 *  read as big-endian 32-bit words. */
export class Stream {
  constructor(key, label) {
    if (!(key instanceof Uint8Array) || key.length !== 32) fail("a deal key is 32 bytes");
    this.prefix = concat([key, field(utf8.encode(label))]);
    this.counter = 0;
    this.words = [];
  }

  async word() {
    if (this.words.length === 0) {
      const block = await sha256(concat([this.prefix, u32(this.counter)]));
      this.counter += 1;
      const view = new DataView(block.buffer);
      for (let i = 0; i < 8; i++) this.words.push(view.getUint32(4 * i));
    }
    return this.words.shift();
  }

  /** A uniform integer in [0, n): words at or above the largest multiple of n are
   *  rejected, the first other one is taken mod n. */
  async below(n) {
    if (!Number.isInteger(n) || n < 1 || n > TWO32) fail(`cannot draw below ${n}`);
    const limit = TWO32 - (TWO32 % n);
    for (;;) {
      const x = await this.word();
      if (x < limit) return x % n;
    }
  }
}

/** Fisher–Yates from the label's stream: for i from the last index down to 1, swap
 *  item i with item below(i + 1). The first item of the result is the top. */
export async function shuffle(key, items, label) {
  return fisherYates([...items], new Stream(key, label));
}

/** Shuffle `out` in place (and return it) with the draws of `stream`. */
export async function fisherYates(out, stream) {
  for (let i = out.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function option(rules, name, fallback, allowed) {
  const v = name in rules ? rules[name] : fallback;
  if (!allowed.includes(v)) fail(`matgo option ${name} cannot be ${JSON.stringify(v)}`);
  return v;
}

/** Matgo's first 선 and the draws (month-card codes, seat 0's and seat 1's): two
 *  distinct month cards from the "first_dealer" stream until the months differ. */
export async function firstDealer(rules, key) {
  const high = option(rules, "first_dealer", "high", ["high", "night_low"]) === "high";
  const stream = new Stream(key, "first_dealer");
  const draws = [];
  for (;;) {
    const a = await stream.below(48);
    let b = await stream.below(47);
    if (b >= a) b += 1;
    draws.push([MONTH_CARDS[a], MONTH_CARDS[b]]);
    const ma = a >> 2;
    const mb = b >> 2;
    if (ma !== mb) return { dealer: ma > mb === high ? 0 : 1, draws };
  }
}

/** 선 뽑기's face-down cards (docs/fairness.md): `rounds` layouts of 8 month-card codes
 *  from the "first_pick" stream, a partial Fisher–Yates of the 48 month cards per round. */
export async function firstPickLayouts(key, rounds) {
  const stream = new Stream(key, "first_pick");
  const out = [];
  for (let r = 0; r < rounds; r++) {
    const cards = [...MONTH_CARDS];
    for (let i = 0; i < FIRST_PICK_SLOTS; i++) {
      const j = i + (await stream.below(48 - i));
      [cards[i], cards[j]] = [cards[j], cards[i]];
    }
    out.push(cards.slice(0, FIRST_PICK_SLOTS));
  }
  return out;
}
const FIRST_PICK_SLOTS = 8;

/** Matgo's first 선 by the seats' picks (선 뽑기): every round but the last a tie. */
export async function pickedDealer(rules, key, picks) {
  const high = option(rules, "first_dealer", "high", ["high", "night_low"]) === "high";
  if (!Array.isArray(picks) || picks.length < 1 || picks.length > 64) {
    fail("first_picks must hold 1-64 rounds");
  }
  const layouts = await firstPickLayouts(key, picks.length);
  let dealer = null;
  picks.forEach((p, r) => {
    const ok = (x) => Number.isInteger(x) && x >= 0 && x < FIRST_PICK_SLOTS;
    if (!Array.isArray(p) || p.length !== 2 || !p.every(ok) || p[0] === p[1]) {
      fail(`round ${r} of first_picks is not two different slots 0-7`);
    }
    if (dealer !== null) fail(`선 was decided in round ${r - 1}: no round ${r}`);
    const ma = MONTH_CARDS.indexOf(layouts[r][p[0]]) >> 2;
    const mb = MONTH_CARDS.indexOf(layouts[r][p[1]]) >> 2;
    if (ma !== mb) dealer = ma > mb === high ? 0 : 1;
  });
  if (dealer === null) fail("the last round of first_picks is a tie");
  return dealer;
}

/** What the deal key fixes of a game, as the record's fields (`firstPicks`: the
 *  rounds of 선 뽑기 that chose a Matgo table's first dealer, when it held one). */
export async function fairDeal(game, rules, key, gameNo, firstPicks) {
  if (game === "mahjong") {
    if (firstPicks !== undefined) fail("mahjong has no first_picks");
    return { wall: await shuffle(key, WALL, "wall") };
  }
  if (game !== "matgo") fail(`no verifiable deal for ${JSON.stringify(game)}`);
  const bonus = option(rules, "bonus_cards", "2+3", Object.keys(BONUS_CARDS));
  const out = { deck: await shuffle(key, [...MONTH_CARDS, ...BONUS_CARDS[bonus]], "deck") };
  if (firstPicks !== undefined && gameNo !== 1) fail("first_picks in a game other than 1");
  if (firstPicks !== undefined) out.dealer = await pickedDealer(rules, key, firstPicks);
  else if (gameNo === 1) out.dealer = (await firstDealer(rules, key)).dealer;
  if (option(rules, "missions", false, [false, true])) {
    out.mission = MISSIONS[await new Stream(key, "mission").below(MISSIONS.length)];
  }
  return out;
}

const FAIRNESS_KEYS = [
  "scheme",
  "table",
  "game_no",
  "commitment",
  "entropy",
  "seed",
  "first_picks",
];

function firstDifference(got, want) {
  if (Array.isArray(got) && Array.isArray(want)) {
    for (let i = 0; i < Math.min(got.length, want.length); i++) {
      if (got[i] !== want[i]) {
        return `at position ${i} the record has ${JSON.stringify(got[i])}, the seed deals ${JSON.stringify(want[i])}`;
      }
    }
    return `the record has ${got.length} entries, the seed deals ${want.length}`;
  }
  return `the record has ${JSON.stringify(got)}, the seed deals ${JSON.stringify(want)}`;
}

/** Verify a finished game's record (with its `fairness` field and revealed seed).
 *  `commitmentSeen`: the commitment shown before the deal, when the page kept it.
 *  Returns {ok: true, deck, commitment, key, checked} or {ok: false, reason}; `deck`
 *  is the re-dealt deck (matgo) or wall (mahjong), top first. */
export async function verifyRecord(record, { commitmentSeen = null, ruleset = "1" } = {}) {
  try {
    if (record === null || typeof record !== "object") fail("a record must be a JSON object");
    const f = record.fairness;
    if (f === undefined) fail("the record carries no fairness data");
    if (f === null || typeof f !== "object" || Array.isArray(f)) {
      fail("fairness must be a JSON object");
    }
    const unknown = Object.keys(f).filter((k) => !FAIRNESS_KEYS.includes(k));
    if (unknown.length) fail(`unknown fairness field(s): ${unknown.sort().join(", ")}`);
    if (f.seed === undefined) fail("the seed is not revealed yet (the game is not over)");
    const game = GAMES[record.game];
    if (!game) fail(`no verifiable deal for ${JSON.stringify(record.game)}`);
    if (!Array.isArray(f.entropy) || f.entropy.length !== game.seats) {
      fail(`the entropy must hold one string per seat (${game.seats})`);
    }
    const rules = record.rules === undefined ? {} : record.rules;
    const binding = {
      scheme: f.scheme,
      game: record.game,
      table: f.table,
      game_no: f.game_no,
      ruleset: record.ruleset === undefined ? ruleset : record.ruleset,
      rules: await rulesDigest(rules),
    };
    fromHex(f.commitment, "the commitment");
    const seed = fromHex(f.seed, "the seed");
    if (commitmentSeen !== null && commitmentSeen !== f.commitment) {
      fail("the record's commitment is not the one shown before the deal");
    }
    if ((await commitment(seed, binding)) !== f.commitment) {
      fail("the revealed seed does not open the commitment");
    }
    const key = await dealKey(seed, binding, f.entropy);
    const deal = await fairDeal(record.game, rules, key, f.game_no, f.first_picks);
    for (const [name, want] of Object.entries(deal)) {
      const got = record[name];
      const same = Array.isArray(want)
        ? Array.isArray(got) && got.length === want.length && got.every((x, i) => x === want[i])
        : got === want;
      if (!same) fail(`the record's ${name} is not the seed's deal: ${firstDifference(got, want)}`);
    }
    return {
      ok: true,
      deck: deal[game.field],
      commitment: f.commitment,
      key: toHex(key),
      checked: ["commitment", ...Object.keys(deal)],
    };
  } catch (e) {
    if (e instanceof FairError) return { ok: false, reason: e.message };
    throw e;
  }
}
