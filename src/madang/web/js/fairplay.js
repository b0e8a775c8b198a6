// Verifiable deals at the table (docs/fairness.md, docs/protocol.md "Verifiable deals"):
// the page keeps each game's commitment as it is shown before the deal, sends its own
// entropy string for the deal (random from crypto.getRandomValues, or the string the
// person typed), and at the settlement checks the revealed seed and re-deals the game
// with fair.js, showing ✓ or ✗ with the reason.

import { api } from "./api.js";
import { verifyRecord } from "./fair.js";
import { t } from "./i18n.js";
import { h } from "./util.js";

const TYPED = "madang.fair.entropy";

/** The string the person chose to add to the deals (empty: a random one each game). */
export function typedEntropy() {
  try {
    return localStorage.getItem(TYPED) || "";
  } catch {
    return "";
  }
}

function setTypedEntropy(value) {
  try {
    if (value) localStorage.setItem(TYPED, value);
    else localStorage.removeItem(TYPED);
  } catch {
    // storage refused (private mode): the random string is sent
  }
}

function randomEntropy() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Which of fair.js's English reasons a ✗ is, as a catalogue key. */
function reasonKey(reason) {
  if (reason.includes("not the one shown")) return "fair.bad_commitment";
  if (reason.includes("does not open")) return "fair.bad_seed";
  if (reason.includes("is not the seed's deal")) return "fair.bad_deal";
  return "fair.bad_data";
}

export class FairWatch {
  /** `send(obj)`: the table socket's; `seat`: ours (null: a spectator, who sends none). */
  constructor(send) {
    this.send = send;
    this.seat = null;
    // game_no → the commitments shown for it (a restart between games commits anew)
    this.shown = new Map();
    this.mine = new Map(); // commitment → the string this page sent for its deal
  }

  /** A `fair` object of a snapshot or update, or a `fair_commit` message. */
  seen(fair) {
    if (!fair?.binding) return;
    const n = fair.binding.game_no;
    if (!this.shown.has(n)) this.shown.set(n, new Set());
    this.shown.get(n).add(fair.commitment);
    if (this.seat === null || this.mine.has(fair.commitment) || fair.entropy) return; // dealt
    const entropy = typedEntropy() || randomEntropy();
    if (this.send({ type: "fair_entropy", entropy })) this.mine.set(fair.commitment, entropy);
  }

  /** The settlement's line: checking…, then ✓ or ✗ with the reason (and the input for
   *  the person's own string). `result.fair` is the revealed data. */
  line(result) {
    const f = result.fair;
    if (!f) return null;
    const status = h("span.fair-status", {}, t("fair.checking"));
    const box = h("div.fair", { "data-testid": "fair", dataset: { state: "checking" } }, status);
    const input = h("input.fair-entropy", {
      type: "text",
      maxLength: 64,
      value: typedEntropy(),
      placeholder: t("fair.entropy_placeholder"),
      "aria-label": t("fair.entropy_label"),
      onchange: (e) => setTypedEntropy(e.target.value.trim()),
    });
    box.append(h("label.fair-own", {}, t("fair.entropy_label"), " ", input));
    this.check(result).then(({ ok, text, detail }) => {
      box.dataset.state = ok ? "ok" : "bad";
      status.textContent = `${ok ? "✓" : "✗"} ${text}`;
      if (detail) status.title = detail;
    });
    return box;
  }

  async check(result) {
    const f = result.fair;
    const bad = (key, detail = "") => ({ ok: false, text: t(key), detail });
    let record;
    try {
      record = (await api.get(`/api/games/${result.game_id}`)).record;
    } catch (e) {
      return bad("fair.bad_fetch", String(e.message || e));
    }
    const shown = this.shown.get(f.game_no);
    // the commitment this page was shown for this game before its deal (null: none)
    const seen = shown ? (shown.has(f.commitment) ? f.commitment : [...shown][0]) : null;
    const res = await verifyRecord(record, { commitmentSeen: seen });
    if (!res.ok) return bad(reasonKey(res.reason), res.reason);
    const rf = record.fairness;
    if (JSON.stringify(rf) !== JSON.stringify(f)) {
      return bad("fair.bad_record", "the stored record's fairness is not the one revealed");
    }
    const mine = this.mine.get(f.commitment);
    if (mine !== undefined && rf.entropy[this.seat] !== mine) {
      return bad("fair.bad_entropy", "the string this page sent is not in the record");
    }
    const key = seen === null ? "fair.ok_unseen" : "fair.ok";
    return { ok: true, text: t(key, { commitment: f.commitment.slice(0, 12) }), detail: "" };
  }
}
