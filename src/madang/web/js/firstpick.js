// 선 뽑기 (docs/protocol.md, first_pick): before a Matgo table's first deal each player
// picks one of the face-down cards the server laid out; the server shows both cards once
// both have picked and says who is 선 (the same month: a new round). This panel draws
// what the server says and sends the click; it decides nothing. The reveal flips the
// picked cards over (the movement layer) with the flip sound.
import { cardEl, cardName } from "./hwatu.js";
import { t } from "./i18n.js";
import { motion } from "./motion.js";
import { sound } from "./sound.js";
import { clear, fill, h } from "./util.js";

export class FirstPickPanel {
  /** `send(msg)`: to the table's socket; `name(seat)`: a seat's name; `rule`: the
   *  table's `first_dealer` option ("high" or "night_low"). */
  constructor(root, { send, name, rule }) {
    this.el = h("div.first-pick.hidden", { "data-testid": "first-pick" });
    root.prepend(this.el);
    this.send = send;
    this.name = name;
    this.rule = rule;
    this.msg = null;
    this.seat = null;
    this.tick = 0;
  }

  get active() {
    return !!this.msg;
  }

  /** Show a `first_pick` message (null or `cancelled`: hide) for `seat` (null: a
   *  spectator). */
  show(msg, seat) {
    this.seat = seat;
    if (!msg || msg.cancelled) {
      this.hide();
      return;
    }
    const before = this.msg;
    const revealed = !!msg.cards && !(before?.cards && before.round === msg.round);
    const from = revealed ? this.slotRects() : null;
    this.msg = msg;
    this.render();
    if (revealed) this.reveal(from);
    clearInterval(this.tick);
    if (msg.deadline) this.tick = setInterval(() => this.paintSeconds(), 250);
  }

  hide() {
    this.msg = null;
    clearInterval(this.tick);
    this.el.classList.add("hidden");
    clear(this.el);
  }

  slotRects() {
    return [...this.el.querySelectorAll(".fp-slot")].map((b) => b.getBoundingClientRect());
  }

  mine() {
    const m = this.msg;
    return this.seat !== null && m && m.picks[this.seat] !== null;
  }

  pick(slot) {
    const m = this.msg;
    if (!m || m.cards || this.seat === null || this.mine() || m.picks.includes(slot)) return;
    sound.cue(["play"]);
    this.send({ type: "first_pick", slot });
  }

  paintSeconds() {
    const s = this.el.querySelector(".fp-seconds");
    if (!s || !this.msg?.deadline) return;
    const left = Math.max(0, Math.ceil((this.msg.deadline - Date.now()) / 1000));
    const text = t("table.seconds", { s: left });
    if (s.textContent !== text) s.textContent = text;
  }

  render() {
    const m = this.msg;
    this.el.classList.remove("hidden");
    const shown = !!m.cards;
    const canPick = !shown && this.seat !== null && !this.mine();
    const who = (slot) => m.picks.indexOf(slot);
    const slots = [];
    for (let i = 0; i < m.slots; i++) {
      const seat = who(i);
      const face = shown && seat >= 0 ? m.cards[seat] : "back";
      const card = cardEl(face, seat >= 0 ? "picked" : "");
      slots.push(
        h(
          "button.fp-slot",
          {
            type: "button",
            dataset: { slot: i, seat: seat >= 0 ? seat : "" },
            disabled: !canPick || seat >= 0,
            "aria-label":
              seat >= 0
                ? `${t("firstpick.card", { n: i + 1 })}: ${this.name(seat)}${
                    shown ? ` · ${cardName(face)}` : ""
                  }`
                : t("firstpick.card", { n: i + 1 }),
            onclick: () => this.pick(i),
          },
          card,
          h("span.fp-who", {}, seat >= 0 ? this.name(seat) : ""),
        ),
      );
    }
    const status = shown
      ? m.tie
        ? t("firstpick.tie")
        : t("firstpick.dealer", { name: this.name(m.dealer) })
      : this.seat === null
        ? t("firstpick.spectator")
        : this.mine()
          ? t("firstpick.waiting")
          : t("firstpick.your_turn");
    fill(
      this.el,
      h(
        "div.card-panel",
        {},
        h(
          "h2",
          {},
          t("firstpick.title"),
          m.round ? h("span.fp-round", {}, ` · ${t("firstpick.round", { n: m.round + 1 })}`) : "",
        ),
        h(
          "p.fp-hint",
          {},
          t(this.rule === "night_low" ? "firstpick.hint_low" : "firstpick.hint_high"),
        ),
        h("div.fp-slots", { role: "group", "aria-label": t("firstpick.title") }, slots),
        h(
          "p.fp-status",
          { "data-testid": "first-pick-status", "aria-live": "polite" },
          status,
          !shown && m.deadline ? h("span.fp-seconds", {}) : "",
        ),
        m.history?.length
          ? h(
              "p.fp-history",
              {},
              m.history
                .map((r) => r.cards.map((c, s) => `${this.name(s)} ${cardName(c)}`).join(" · "))
                .join(" / "),
            )
          : null,
      ),
    );
    this.paintSeconds();
    if (canPick) this.el.querySelector(".fp-slot:not([disabled])")?.focus({ preventScroll: true });
  }

  /** The picked cards turn over where they lie (the movement layer), with the flip. */
  reveal(from) {
    sound.cue(["flip"]);
    if (motion.reduced() || !from) return;
    this.el.querySelectorAll(".fp-slot[data-seat]:not([data-seat=''])").forEach((b) => {
      const card = b.querySelector(".card");
      const r = from[+b.dataset.slot];
      if (card && r) {
        motion.count("first_pick");
        motion.fly(card, r, { name: "first_pick", flip: true });
      }
    });
  }
}
