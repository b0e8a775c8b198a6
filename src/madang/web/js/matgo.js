// 맞고 (matgo) table: renders a Matgo view and the seat's prompt; no rules logic here —
// the legal moves, scores, 족보 progress, multipliers and settlements come from the
// server's view, the client only lays them out. Everything Matgo-specific the table
// page needs (event lines, captions, move names, the settlement sheet) lives here. The
// board serves the family's every seat count: 고스톱 (gostop.js) lays the other seats
// out along the top, left to right as they sit (the seat after this one on the right).

import { cardEl, cardName, cardNames, MONTHS, monthOf, sortCards } from "./hwatu.js";
import { t } from "./i18n.js";
import { autoBadge } from "./names.js";
import { clear, h } from "./util.js";

const PILES = ["gwang", "yeol", "tti", "pi"];

/**
 * 박 (bak) warnings for seat p if the other seat won now, as the server's view lists them
 * (`madang.matgo.scoring.bak_risks`): the client holds no scoring rules.
 */
export function warningsFor(view, p) {
  return (view.warnings ? view.warnings[p] : []).map((k) => [k, t(`matgo.warn.${k}`)]);
}

/** The name of a multiplier of a sheet or of `in_force` ({name, factor, count}). */
export function multName(m) {
  if (m.name === "go") return t("matgo.mult.go", { n: m.count ?? Math.log2(m.factor) + 2 });
  if (m.name.startsWith("mission_"))
    return t("matgo.mult.mission", { name: t(`matgo.mission.${m.name.slice(8)}`) });
  if (m.name === "heundeulgi" && m.count > 1) return t("matgo.mult.heundeulgi_n", { n: m.count });
  return t(`matgo.mult.${m.name}`);
}

/** A 3고+ multiplier in a sheet is named like "3고": its count from the factor. */
function sheetMultName(m) {
  if (m.name === "go") return t("matgo.mult.go", { n: Math.round(Math.log2(m.factor)) + 2 });
  return multName(m);
}

/**
 * A seat's captured cards in the four piles, as the view sorts them (`piles`: 국진 where
 * it counts for its holder) with the view's counts (`progress`: 피 by value).
 */
function pileBox(piles, counts, label, lastPlayed) {
  return h(
    "div.captured",
    { "aria-label": label },
    PILES.map((k) =>
      h(
        `div.pile.${k}`,
        { dataset: { kind: k } },
        h("span.pile-count", {}, `${t(`matgo.pile.${k}`)} ${counts[k]}`),
        h(
          "div.pile-cards",
          {},
          sortCards(piles[k]).map((c) =>
            cardEl(c, `mini ${lastPlayed.has(c) ? "last-played" : ""}`),
          ),
        ),
      ),
    ),
  );
}

function hiddenHand(n, revealed) {
  const row = h("div.opp-hand", { role: "group", "aria-label": t("matgo.opp_hand") });
  for (const c of sortCards(revealed)) row.append(cardEl(c, "mini revealed"));
  for (let i = revealed.length; i < n; i++) row.append(cardEl("back", "mini"));
  return row;
}

const NAMED = {
  go: "go",
  stop: "stop",
  "gukjin animal": "gukjin_animal",
  "gukjin pi": "gukjin_pi",
  "chongtong stop": "chongtong_stop",
  "chongtong play": "chongtong_play",
  // 고스톱: 광팔기's join/die question and the answers to a 쇼당
  join: "join",
  die: "die",
  "shodang accept": "shodang_accept",
  "shodang refuse": "shodang_refuse",
};

function choicesFor(question, legal) {
  if (question === "pick_play" || question === "pick_flip") {
    return legal
      .filter((m) => m.startsWith("pick "))
      .map((m) => ({ move: m, card: m.slice(5), label: cardName(m.slice(5)) }));
  }
  return Object.keys(NAMED)
    .filter((m) => legal.includes(m))
    .map((m) => ({ move: m, label: t(`matgo.choice.${NAMED[m]}`) }));
}

/** A Matgo move string in words ("play 09a" -> "9월 국진 냄"), for replays and timeouts. */
export function describeMatgoMove(move) {
  const [verb, arg, extra] = (move || "").split(" ");
  if (verb === "play")
    return t(extra === "shake" ? "matgo.move.shake" : "matgo.move.play", { card: cardName(arg) });
  if (verb === "bomb") return t("matgo.move.bomb", { month: +arg });
  if (verb === "pick") return t("matgo.move.pick", { card: cardName(arg) });
  if (verb === "flip") return t("matgo.move.flip");
  if (verb === "go" || verb === "stop") return t(`matgo.move.${verb}`);
  if (verb === "gukjin") return t(`matgo.move.gukjin_${arg}`);
  if (verb === "chongtong") return t(`matgo.move.chongtong_${arg}`);
  if (verb === "join" || verb === "die") return t(`matgo.move.${verb}`);
  if (verb === "shodang") return t(arg ? `matgo.move.shodang_${arg}` : "matgo.move.shodang");
  return move;
}

export function createMatgoBoard(root, ctx) {
  let state = null;
  let sel = -1; // keyboard selection (index into the current selectable list)
  let sub = null; // an open two-option choice for a hand card: [{label, move}]
  const el = h("div.board.matgo");
  root.append(el);

  const seatName = (s) => ctx.name(s);

  function myPromptLegal() {
    const p = state.prompt;
    if (!p || state.readOnly || p.seat !== state.seat) return [];
    return p.legal || [];
  }

  function cardOptions(code, legal) {
    const opts = [];
    if (legal.includes(`play ${code} shake`))
      opts.push({ move: `play ${code} shake`, label: t("matgo.choice.shake") });
    const bomb = `bomb ${String(monthOf(code)).padStart(2, "0")}`;
    if (monthOf(code) && legal.includes(bomb))
      opts.push({ move: bomb, label: t("matgo.choice.bomb") });
    if (legal.includes(`play ${code}`))
      opts.push({
        move: `play ${code}`,
        label: opts.length ? t("matgo.choice.single") : t("matgo.choice.play"),
      });
    return opts;
  }

  function choose(code) {
    const opts = cardOptions(code, myPromptLegal());
    if (!opts.length) return;
    if (opts.length === 1) {
      ctx.act(opts[0].move);
    } else {
      sub = { code, opts };
      sel = -1;
      draw();
    }
  }

  function selectable() {
    // What arrows/digits move over now: sub-choice options, pick options, or hand cards.
    const legal = myPromptLegal();
    if (!legal.length) return [];
    if (sub) return sub.opts.map((o) => ({ act: () => ctx.act(o.move) }));
    const q = state.prompt.question;
    if (q === "play") {
      return (state.view.hand ? sortCards(state.view.hand) : [])
        .map((c) => ({ code: c, ok: cardOptions(c, legal).length > 0, act: () => choose(c) }))
        .filter((x) => x.ok);
    }
    return choicesFor(q, legal).map((c) => ({ act: () => ctx.act(c.move) }));
  }

  /** 점수 detail: points per category, 족보 progress, multipliers in force, 국진. */
  function scoreDetail(v, s, live) {
    const items = (v.score_items || [])[s] || [];
    const prog = (v.progress || [])[s];
    const parts = [];
    if (items.length) {
      parts.push(
        h(
          "span.score-items",
          { "data-testid": `score-items-${s}` },
          items.map((it) =>
            h(
              "span.chip.item",
              { dataset: { name: it.name, points: it.points } },
              `${t(`matgo.jokbo.${it.name}`)} ${it.points}`,
            ),
          ),
        ),
      );
    }
    if (prog) {
      const sets = ["godori", "hongdan", "cheongdan", "chodan"].filter((k) => prog[k] > 0);
      parts.push(
        h(
          "span.progress",
          { "data-testid": `progress-${s}` },
          sets.map((k) =>
            h(
              `span.chip.prog${prog[k] >= 3 ? ".done" : ""}`,
              { dataset: { set: k } },
              t(`matgo.prog.${k}`, { n: prog[k] }),
            ),
          ),
        ),
      );
    }
    const force = live ? (v.in_force || [])[s] || [] : [];
    if (force.length) {
      parts.push(
        h(
          "span.in-force",
          { "data-testid": `in-force-${s}` },
          force.map((m) =>
            h("span.chip.mult", { dataset: { name: m.name } }, `${multName(m)} ×${m.factor}`),
          ),
        ),
      );
    }
    const ga = v.gukjin_as ? v.gukjin_as[s] : null;
    if (ga)
      parts.push(
        h(
          "span.chip.gukjin",
          { "data-testid": `gukjin-${s}` },
          t(ga === "pi" ? "matgo.gukjin_pi" : "matgo.gukjin_animal"),
        ),
      );
    return parts.length ? h("div.score-detail", {}, parts) : null;
  }

  function missionBox(v) {
    const m = v.mission_info;
    if (!m) return null;
    const held = m.held.map((cards, s) => {
      const done = m.done[s];
      return h(
        `span.chip${done ? ".done" : ""}`,
        {},
        done
          ? t("matgo.mission_done", { name: seatName(s) })
          : t("matgo.mission_held", { name: seatName(s), k: cards.length, n: m.cards.length }),
      );
    });
    return h(
      "div.mission",
      { "data-testid": "mission" },
      h(
        "span.mission-title",
        {},
        t("matgo.mission_line", { name: t(`matgo.mission.${m.name}`), factor: m.multiplier }),
      ),
      h(
        "span.mission-cards",
        {},
        m.cards.map((c) => cardEl(c, `mini ${m.held.some((hs) => hs.includes(c)) ? "got" : ""}`)),
      ),
      h("span.mission-held", {}, held),
    );
  }

  function draw() {
    const v = state.view;
    const me = state.seat ?? 0;
    const n = v.hand_counts.length;
    // the others, left to right: counter-clockwise play puts the next seat on the right
    const others = Array.from({ length: n - 1 }, (_, i) => (me + n - 1 - i) % n);
    const legal = myPromptLegal();
    const q = legal.length ? state.prompt.question : null;
    const hands = v.hands; // replay frames show every hand
    const flash = new Set();
    for (const e of state.events || []) {
      if (e.card) flash.add(e.card);
      if (Array.isArray(e.cards)) for (const c of e.cards) flash.add(c);
    }
    const lastPlayed = new Set((v.last_played || []).filter(Boolean));
    const cls = (c, extra = "") =>
      `${extra} ${flash.has(c) ? "flash" : ""} ${lastPlayed.has(c) ? "last-played" : ""}`;
    clear(el);
    el.dataset.version = String(state.version);
    el.dataset.question = q || "";
    el.dataset.sub = sub ? "1" : "";

    // what is at stake while the game runs (N고, 박 risks, multipliers in force) ends
    // with it: the settlement says what counted (U14)
    const live = !v.over;
    const shodang = v.public?.table?.shodang; // 고스톱's 쇼당: who called, who answered how
    const player = (s, top) => {
      const warn = live ? warningsFor(v, s) : [];
      return h(
        `div.player.${top ? "top" : "bottom"}`,
        { dataset: { seat: s } },
        h(
          "div.pinfo",
          {},
          h(
            "span.pname",
            {},
            seatName(s),
            s === v.dealer ? h("span.badge.dealer", {}, t("matgo.dealer")) : null,
          ),
          // 광팔기: who sits this game out (the seller, or the one who died)
          s === v.sitting_out
            ? h(
                "span.badge.sitter",
                { "data-testid": `sitter-${s}` },
                t(s === v.seller ? "gostop.sells_badge" : "gostop.sits_badge"),
              )
            : null,
          s === shodang?.by
            ? h("span.badge.shodang", { "data-testid": `shodang-${s}` }, t("gostop.shodang_badge"))
            : null,
          autoBadge(state.seats, s),
          h("span.score", { "data-testid": `score-${s}` }, t("matgo.score", { n: v.scores[s] })),
          live && v.go[s] ? h("span.badge.go", {}, t("matgo.go_badge", { n: v.go[s] })) : null,
          v.shakes[s] ? h("span.badge", {}, t("matgo.shake_badge", { n: v.shakes[s] })) : null,
          v.ppeok[s] ? h("span.badge", {}, t("matgo.ppeok_badge", { n: v.ppeok[s] })) : null,
          v.tokens[s] ? h("span.badge", {}, t("matgo.token_badge", { n: v.tokens[s] })) : null,
          warn.map(([k, text]) => h(`span.warn.${k}`, {}, text)),
          ctx.timer(s),
        ),
        scoreDetail(v, s, live),
        pileBox(
          v.piles[s],
          v.progress[s],
          t("matgo.pile_label", { name: seatName(s) }),
          lastPlayed,
        ),
      );
    };

    // Opponents (top): 맞고's one opponent as it always was, else a column each
    const oppHand = (s) =>
      hands
        ? h(
            "div.opp-hand",
            {},
            sortCards(hands[s]).map((c) => cardEl(c, "mini")),
          )
        : hiddenHand(v.hand_counts[s], v.revealed[s] || []);
    el.classList.toggle("multi", n > 2);
    if (n === 2) el.append(player(others[0], true), oppHand(others[0]));
    else
      el.append(
        h(
          "div.opponents",
          {},
          others.map((s, i) =>
            h(
              "div.opp",
              { dataset: { seat: s, side: i === 0 ? "left" : i === n - 2 ? "right" : "top" } },
              player(s, true),
              h(
                "span.hand-n",
                { "data-testid": `hand-count-${s}` },
                t("gostop.hand_n", {
                  n: v.hand_counts[s],
                }),
              ),
              oppHand(s),
            ),
          ),
        ),
      );

    // Floor, grouped by month, plus the pile and the cards in flight.
    const pickCards = q?.startsWith("pick")
      ? new Set(choicesFor(q, legal).map((c) => c.card))
      : new Set();
    const floor = h("div.floor", { "aria-label": t("matgo.floor") });
    for (const g of v.floor) {
      const picking = g.cards.some((c) => pickCards.has(c));
      const grp = h(`div.month-group${picking ? ".picking" : ""}`, {
        dataset: { month: g.month },
        title: `${t("matgo.month_n", { month: g.month })} ${MONTHS[g.month][1]}`,
      });
      if (g.ppeok !== null && g.ppeok !== undefined)
        grp.append(
          h(
            "span.ppeok-tag",
            { title: t("matgo.ppeok_tag", { name: seatName(g.ppeok) }) },
            t("matgo.ppeok_tag", { name: seatName(g.ppeok) }),
          ),
        );
      const cards = h("div.group-cards");
      for (const c of [...g.cards, ...(g.bonus || [])]) {
        const ce = cardEl(c, cls(c, pickCards.has(c) ? "pickable" : ""));
        if (pickCards.has(c)) {
          ce.setAttribute("role", "button");
          ce.setAttribute("aria-label", t("matgo.choice.pick", { card: cardName(c) }));
          ce.tabIndex = 0;
          ce.addEventListener("click", () => ctx.act(`pick ${c}`));
        }
        cards.append(ce);
      }
      grp.append(cards);
      floor.append(grp);
    }
    const inFlight = [...(v.turn.captured || [])];
    if (v.turn.flipped) inFlight.push(v.turn.flipped);
    const centre = h(
      "div.centre",
      {},
      floor,
      h(
        "div.deck",
        {},
        h(
          "div.pile-stack",
          { title: t("matgo.deck") },
          cardEl("back"),
          h("span.pile-n", { "data-testid": "pile-count" }, t("matgo.deck_n", { n: v.pile })),
        ),
        inFlight.length
          ? h(
              "div.in-flight",
              {},
              inFlight.map((c) => cardEl(c, "mini flash")),
            )
          : null,
        v.carry > 1 ? h("span.badge.carry", {}, t("matgo.carry", { n: v.carry })) : null,
      ),
      missionBox(v),
    );
    el.append(centre);

    // Prompt panel
    const panel = h("div.prompt", { "data-testid": "prompt", "aria-live": "polite" });
    if (q) {
      panel.classList.add("active", `q-${q}`);
      panel.append(
        h("div.q", {}, sub ? t("matgo.q.sub", { card: cardName(sub.code) }) : t(`matgo.q.${q}`)),
      );
      if (q === "go_stop" && v.stop_now) {
        const go = v.go[state.seat] + 1;
        panel.append(
          h(
            "div.stop-now",
            { "data-testid": "stop-now", dataset: { points: v.stop_now.points } },
            h("b", {}, t("matgo.stop_now", { n: v.stop_now.points })),
            " · ",
            go >= 3
              ? t("matgo.go_next_x", { n: go, factor: 2 ** (go - 2) })
              : t("matgo.go_next", { n: go, bonus: 1 }),
          ),
        );
      }
      const items = sub ? sub.opts : q === "play" ? [] : choicesFor(q, legal);
      const row = h("div.choices");
      items.forEach((it, i) => {
        const b = h(
          `button.choice${i === sel ? ".sel" : ""}`,
          { type: "button", dataset: { move: it.move }, onclick: () => ctx.act(it.move) },
          h("kbd", {}, String(i + 1)),
          it.card ? cardEl(it.card, "mini") : null,
          h("span", {}, it.label),
        );
        row.append(b);
      });
      if (sub)
        row.append(
          h(
            "button.choice.cancel",
            {
              type: "button",
              onclick: () => {
                sub = null;
                draw();
              },
            },
            h("kbd", {}, "Esc"),
            h("span", {}, t("matgo.choice.cancel")),
          ),
        );
      if (q === "play" && !sub && legal.includes("shodang")) {
        row.append(
          h(
            "button.choice.shodang",
            { type: "button", dataset: { move: "shodang" }, onclick: () => ctx.act("shodang") },
            h("span", {}, t("matgo.choice.shodang")),
          ),
        );
      }
      if (q === "play" && !sub && legal.includes("flip")) {
        row.append(
          h(
            "button.choice",
            { type: "button", dataset: { move: "flip" }, onclick: () => ctx.act("flip") },
            h("kbd", {}, "Space"),
            h("span", {}, t("matgo.choice.flip")),
          ),
        );
      }
      panel.append(row);
      if (q === "play" && !sub) panel.append(h("div.hint.keys", {}, t("table.keys_hint")));
    } else if (!state.readOnly && !v.over) {
      panel.append(
        h(
          "div.q.wait",
          {},
          state.seat === null || state.seat === undefined
            ? t("table.spectating")
            : state.seat === v.sitting_out
              ? t("gostop.sitting_out")
              : t("matgo.q.wait_opp"),
        ),
      );
    }
    el.append(panel);

    // Me (bottom): captured, then the hand.
    el.append(player(me, false));
    const handCards = hands ? sortCards(hands[me]) : v.hand ? sortCards(v.hand) : null;
    const handRow = h("div.hand", { role: "group", "aria-label": t("matgo.hand") });
    if (handCards) {
      const sels = q === "play" && !sub ? selectable() : [];
      handCards.forEach((c, i) => {
        const opts = q === "play" ? cardOptions(c, legal) : [];
        const si = sels.findIndex((x) => x.code === c);
        const ce = cardEl(
          c,
          `${opts.length ? "playable" : ""} ${si >= 0 && si === sel ? "sel" : ""} ${sub && sub.code === c ? "sel" : ""}`,
        );
        ce.dataset.index = String(i + 1);
        if (opts.length) {
          ce.tabIndex = 0;
          ce.setAttribute("role", "button");
          ce.setAttribute("aria-label", cardName(c));
          ce.addEventListener("click", () => choose(c));
          ce.addEventListener("keydown", (e) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              e.stopPropagation();
              choose(c);
            }
          });
        }
        handRow.append(ce);
      });
    } else {
      handRow.append(hiddenHand(v.hand_counts[me], v.revealed[me] || []));
    }
    // 폭탄패: the bomb tokens lie in the hand as face-down cards; click one (or Space) to
    // flip from the pile without playing (seed 000).
    if (handCards) {
      const canFlip = q === "play" && !sub && legal.includes("flip");
      for (let i = 0; i < (v.tokens[me] || 0); i++) {
        const tk = cardEl("back", `token ${canFlip ? "playable" : ""}`);
        tk.append(h("span.token-label", {}, t("matgo.token")));
        if (canFlip) {
          tk.tabIndex = 0;
          tk.setAttribute("role", "button");
          tk.setAttribute("aria-label", t("matgo.choice.flip"));
          tk.addEventListener("click", () => ctx.act("flip"));
          tk.addEventListener("keydown", (e) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              e.stopPropagation();
              ctx.act("flip");
            }
          });
        }
        handRow.append(tk);
      }
    }
    el.append(handRow);
    if (ctx.afterDraw) ctx.afterDraw(el);
  }

  return {
    render(s) {
      const changed = !state || s.version !== state.version;
      state = s;
      if (changed) {
        sub = null;
        sel = -1;
      }
      draw();
    },
    /** Keyboard: 1/2 choose, Space flips with a bomb token, digits/arrows + Enter pick a card. */
    key(e) {
      if (!state) return false;
      const legal = myPromptLegal();
      if (!legal.length) return false;
      const q = state.prompt.question;
      const items = selectable();
      if (e.key === "Escape" && sub) {
        sub = null;
        draw();
        return true;
      }
      if (e.key === " " && q === "play" && !sub && legal.includes("flip")) {
        ctx.act("flip");
        return true;
      }
      if (/^[0-9]$/.test(e.key)) {
        const n = e.key === "0" ? 10 : +e.key;
        if (sub || q !== "play") {
          if (n <= items.length) items[n - 1].act();
          return true;
        }
        // In a play prompt a digit selects the n-th card of the hand; Enter plays it.
        const hand = sortCards(state.view.hand || []);
        const idx = items.findIndex((x) => x.code === hand[n - 1]);
        if (idx >= 0) {
          sel = idx;
          draw();
        }
        return true;
      }
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        if (!items.length) return true;
        sel = sel < 0 ? 0 : (sel + (e.key === "ArrowRight" ? 1 : items.length - 1)) % items.length;
        draw();
        return true;
      }
      if (e.key === "Enter" && sel >= 0 && sel < items.length) {
        const it = items[sel];
        sel = -1;
        it.act();
        return true;
      }
      return false;
    },
    destroy() {
      el.remove();
    },
  };
}

/** One line for a Matgo event (the table's log), from the catalogue. */
export function describeMatgoEvent(e, name) {
  const n = (s) => name(s);
  const who = e.seat !== undefined && e.seat !== null ? n(e.seat) : "";
  switch (e.type) {
    case "deal":
      return t("matgo.ev.deal", { dealer: n(e.dealer) });
    case "floor_bonus":
      return t("matgo.ev.floor_bonus", { card: cardName(e.card), who });
    case "redeal":
      return t("matgo.ev.redeal", { reason: t(`matgo.redeal.${e.reason}`) });
    case "chongtong":
      return t("matgo.ev.chongtong", {
        who,
        months: (e.months || []).map((m) => t("matgo.month_n", { month: m })).join(", "),
      });
    case "chongtong_play":
      return t("matgo.ev.chongtong_play", { who });
    case "bonus_play":
      return t("matgo.ev.bonus_play", { who, card: cardName(e.card) });
    case "draw":
      return e.card
        ? t("matgo.ev.draw_card", { who, card: cardName(e.card) })
        : t("matgo.ev.draw", { who });
    case "play":
      return t("matgo.ev.play", { who, card: cardName(e.card) });
    case "shake":
      return t("matgo.ev.shake", { who, month: e.month });
    case "bomb":
      return t("matgo.ev.bomb", { who, month: e.month });
    case "token_flip":
      return t("matgo.ev.token_flip", { who, n: e.tokens_left });
    case "pick":
      return t("matgo.ev.pick", { who, card: cardName(e.card) });
    case "flip":
      return t("matgo.ev.flip", { who, card: cardName(e.card) });
    case "ppeok":
      return t("matgo.ev.ppeok", { who, month: e.month, count: e.count });
    case "jjok":
      return t("matgo.ev.jjok", { who, month: e.month });
    case "ttadak":
      return t("matgo.ev.ttadak", { who, month: e.month });
    case "take_stack":
      return t("matgo.ev.take_stack", { who, month: e.month });
    case "sseul":
      return t("matgo.ev.sseul", { who });
    case "capture":
      return t("matgo.ev.capture", { who, cards: cardNames(sortCards(e.cards)) });
    case "steal":
      return t("matgo.ev.steal", {
        who,
        victim: n(e.victim),
        card: cardName(e.card),
        reason: t(`matgo.steal.${e.reason}`),
      });
    case "steal_none":
      return t("matgo.ev.steal_none", {
        victim: n(e.victim),
        reason: t(`matgo.steal.${e.reason}`),
      });
    case "gukjin_fixed":
      return t("matgo.ev.gukjin_fixed", { who, as: t(`matgo.as.${e.as}`) });
    case "go":
      return t("matgo.ev.go", { who, count: e.count, score: e.score });
    case "stop":
      return t("matgo.ev.stop", { who, score: e.score });
    case "payment":
      return t("matgo.ev.payment", {
        from: n(e.from),
        to: n(e.to),
        points: e.points,
        reason: t(`pay.${e.reason}`),
      });
    case "end":
      return e.winner === null || e.winner === undefined
        ? t("matgo.ev.end_none", { reason: t(`matgo.end.${e.reason}`) })
        : t("matgo.ev.end", {
            winner: n(e.winner),
            points: e.points,
            reason: t(`matgo.end.${e.reason}`),
          });
    default:
      return t(`matgo.ev.${e.type}`, { who });
  }
}

/** The big captions an event deserves (뻑, 쪽, 따닥, 싹쓸이, 흔들기, 폭탄, 총통, 고, 스톱 …). */
export function matgoCaptions(e, name) {
  const who = e.seat !== undefined && e.seat !== null ? name(e.seat) : "";
  switch (e.type) {
    case "ppeok":
    case "jjok":
    case "ttadak":
    case "sseul":
    case "shake":
    case "bomb":
    case "chongtong":
    case "stop":
    case "take_stack":
      return [{ kind: e.type, text: t(`matgo.cap.${e.type}`), who }];
    case "go":
      return [{ kind: "go", text: t("matgo.cap.go", { n: e.count }), who }];
    case "end":
      return e.reason === "nagari"
        ? [{ kind: "nagari", text: t("matgo.cap.nagari"), who: "" }]
        : [];
    default:
      return [];
  }
}

/** Lines for the log when a table opens: 선 결정 of the first game (seeds 000, 003), and
 *  the deal unless `deal` is false (the update that opens the table logs its own). */
export function matgoIntro(view, name, { deal = true } = {}) {
  const draws = view.match?.first_draws || [];
  const out = [];
  if (draws.length)
    out.push(
      t(
        view.match.first_dealer_rule === "night_low"
          ? "matgo.first_rule_low"
          : "matgo.first_rule_high",
      ),
    );
  draws.forEach(([a, b], i) => {
    const last = i === draws.length - 1;
    const month = (m) => t("matgo.month_n", { month: m });
    const params = {
      a: name(0),
      ca: month(a),
      b: name(1),
      cb: month(b),
      dealer: name(view.dealer),
    };
    out.push(t(last ? "matgo.first_dealer" : "matgo.first_dealer_tie", params));
  });
  if (deal) out.push(describeMatgoEvent({ type: "deal", dealer: view.dealer }, name));
  return out;
}

/** One score sheet (the engine's `ScoreSheet`: 족보 items, 고, base, multipliers, total)
 *  as a table, and its 국진 note. */
export function sheetTable(s, attrs = {}) {
  const row = (kind, label, value, text) =>
    h(`tr.${kind}`, { dataset: { kind, value } }, h("td", {}, label), h("td.num", {}, text));
  const out = [
    h(
      "table.sheet-table",
      { "data-testid": "sheet", ...attrs },
      h(
        "tbody",
        {},
        s.items.map((it) =>
          row(
            "item",
            t(`matgo.jokbo.${it.name}`),
            it.points,
            t("matgo.sheet.points", { n: it.points }),
          ),
        ),
        row("jokbo", t("matgo.sheet.jokbo"), s.jokbo, t("matgo.sheet.points", { n: s.jokbo })),
        s.go ? row("go", t("matgo.sheet.go", { n: s.go }), s.go, `+${s.go}`) : null,
        row("base", t("matgo.sheet.base"), s.base, t("matgo.sheet.points", { n: s.base })),
        s.multipliers.map((m) => row("mult", sheetMultName(m), m.factor, `×${m.factor}`)),
        row("total", t("matgo.sheet.total"), s.points, t("matgo.sheet.points", { n: s.points })),
      ),
    ),
  ];
  const gk = Object.entries(s.gukjin || {});
  if (gk.length)
    out.push(
      h(
        "p.gukjin-note",
        {},
        gk.map(([, as]) => t("matgo.sheet.gukjin", { as: t(`matgo.as.${as}`) })).join(" · "),
      ),
    );
  return out;
}

/** The settlement sheet of a finished game, from the engine's `sheet` and the payments. */
export function matgoSettlement(view, result, _name) {
  const box = h("div.sheet", { dataset: { game: "matgo" } });
  const s = view.sheet;
  if (s) {
    box.append(...sheetTable(s));
  } else if (result?.reason) {
    box.append(h("p", {}, t(`matgo.end.${result.reason}`)));
  }
  return box;
}

export const matgoModule = {
  game: "matgo",
  createBoard: createMatgoBoard,
  describeEvent: describeMatgoEvent,
  describeMove: describeMatgoMove,
  captions: matgoCaptions,
  intro: matgoIntro,
  settlement: matgoSettlement,
};
