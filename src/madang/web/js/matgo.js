// 맞고 (matgo) table: renders a Matgo view and the seat's prompt; no rules logic here —
// the legal moves come from the server, the client only lays them out.
import { h, clear } from "./util.js";
import { cardEl, sortCards, kindOf, monthOf, piValue, MONTHS } from "./hwatu.js";

const KIND_KO = { gwang: "광", yeol: "열끗", tti: "띠", pi: "피" };

/** Sort captured cards into the four piles (국진 goes where the view says it counts). */
export function pilesOf(cards, gukjin) {
  const piles = { gwang: [], yeol: [], tti: [], pi: [] };
  for (const c of sortCards(cards)) {
    const k = kindOf(c);
    if (c === "09a" && gukjin === "pi") piles.pi.push(c);
    else if (k === "gwang") piles.gwang.push(c);
    else if (k === "yeol") piles.yeol.push(c);
    else if (k === "tti") piles.tti.push(c);
    else piles.pi.push(c);
  }
  const piCount = piles.pi.reduce((n, c) => n + piValue(c, gukjin === "pi"), 0);
  return { piles, counts: { gwang: piles.gwang.length, yeol: piles.yeol.length, tti: piles.tti.length, pi: piCount } };
}

const WARNING_KO = { pibak: "피박 위험", gwangbak: "광박 위험", meongtta: "멍따 위험", meongbak: "멍박 위험", gobak: "고박 위험" };

/**
 * 박 (bak) warnings for seat p if the other seat won now, as the server's view lists them
 * (`madang.matgo.scoring.bak_risks`): the client holds no scoring rules.
 */
export function warningsFor(view, p) {
  return (view.warnings ? view.warnings[p] : []).map((k) => [k, WARNING_KO[k] || k]);
}

function pileBox(cards, gukjin, label) {
  const { piles, counts } = pilesOf(cards, gukjin);
  return h("div.captured", { "aria-label": label },
    ["gwang", "yeol", "tti", "pi"].map((k) =>
      h(`div.pile.${k}`, { dataset: { kind: k } },
        h("span.pile-count", {}, `${KIND_KO[k]} ${counts[k]}`),
        h("div.pile-cards", {}, piles[k].map((c) => cardEl(c, "mini")))),
    ));
}

function hiddenHand(n, revealed) {
  const row = h("div.opp-hand");
  for (const c of sortCards(revealed)) row.append(cardEl(c, "mini revealed"));
  for (let i = revealed.length; i < n; i++) row.append(cardEl("back", "mini"));
  return row;
}

function choicesFor(question, legal) {
  const named = {
    go: "고", stop: "스톱", "gukjin animal": "국진을 열끗으로", "gukjin pi": "국진을 쌍피로",
    "chongtong stop": "총통! 스톱 (10점)", "chongtong play": "계속 치기 (흔들기)",
  };
  const order = ["go", "stop", "gukjin animal", "gukjin pi", "chongtong stop", "chongtong play"];
  if (question === "pick_play" || question === "pick_flip") {
    return legal.filter((m) => m.startsWith("pick ")).map((m) => ({ move: m, card: m.slice(5), label: "" }));
  }
  return order.filter((m) => legal.includes(m)).map((m) => ({ move: m, label: named[m] }));
}

const QUESTION_KO = {
  play: "낼 패를 고르세요",
  pick_play: "낸 패와 짝지을 바닥 패를 고르세요",
  pick_flip: "뒤집은 패와 짝지을 바닥 패를 고르세요",
  go_stop: "고 하시겠습니까, 스톱 하시겠습니까?",
  gukjin: "국진(9월 열끗)을 어떻게 쓰시겠습니까?",
  chongtong: "총통입니다! 스톱하시겠습니까?",
};

export function createMatgoBoard(root, ctx) {
  let state = null;
  let sel = -1; // keyboard selection (index into the current selectable list)
  let sub = null; // an open two-option choice for a hand card: [{label, move}]
  const el = h("div.board.matgo");
  root.append(el);

  function seatName(s) {
    const seat = (state.seats || []).find((x) => x.seat === s);
    return (seat && seat.username) || (s === state.view.dealer ? "선" : `자리 ${s + 1}`);
  }

  function autoPlayed(s) {
    const seat = (state.seats || []).find((x) => x.seat === s);
    return !!(seat && seat.kind === "human" && seat.bot_control);
  }

  function myPromptLegal() {
    const p = state.prompt;
    if (!p || state.readOnly || p.seat !== state.seat) return [];
    return p.legal || [];
  }

  function cardOptions(code, legal) {
    const opts = [];
    if (legal.includes(`play ${code} shake`)) opts.push({ move: `play ${code} shake`, label: "흔들기 (흔들고 내기)" });
    const bomb = `bomb ${String(monthOf(code)).padStart(2, "0")}`;
    if (monthOf(code) && legal.includes(bomb)) opts.push({ move: bomb, label: "폭탄 (세 장 모두)" });
    if (legal.includes(`play ${code}`)) opts.push({ move: `play ${code}`, label: opts.length ? "한 장만 내기" : "내기" });
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

  function draw() {
    const v = state.view;
    const me = state.seat ?? 0;
    const opp = 1 - me;
    const legal = myPromptLegal();
    const q = legal.length ? state.prompt.question : null;
    const hands = v.hands; // replay frames show every hand
    const flash = new Set();
    for (const e of state.events || []) {
      if (e.card) flash.add(e.card);
      if (Array.isArray(e.cards)) e.cards.forEach((c) => flash.add(c));
    }
    clear(el);
    el.dataset.version = String(state.version);
    el.dataset.question = q || "";
    el.dataset.sub = sub ? "1" : "";

    const player = (s, top) => {
      const warn = warningsFor(v, s);
      return h(`div.player.${top ? "top" : "bottom"}`, { dataset: { seat: s } },
        h("div.pinfo", {},
          h("span.pname", {}, seatName(s), s === v.dealer ? h("span.badge.dealer", {}, "선") : null),
          autoPlayed(s) ? h("span.badge", { title: "접속이 끊겨 컴퓨터가 대신 둡니다" }, "자동") : null,
          h("span.score", { "data-testid": `score-${s}` }, `${v.scores[s]}점`),
          v.go[s] ? h("span.badge.go", {}, `${v.go[s]}고`) : null,
          v.shakes[s] ? h("span.badge", {}, `흔들기·폭탄 ${v.shakes[s]}`) : null,
          v.ppeok[s] ? h("span.badge", {}, `뻑 ${v.ppeok[s]}`) : null,
          v.tokens[s] ? h("span.badge", {}, `폭탄패 ${v.tokens[s]}`) : null,
          warn.map(([k, t]) => h(`span.warn.${k}`, {}, t)),
          h("div.timer", { dataset: { seat: s } }, h("div.timer-fill"))),
        pileBox(v.captured[s], v.gukjin, `${seatName(s)}의 먹은 패`));
    };

    // Opponent (top)
    el.append(player(opp, true));
    el.append(hands ? h("div.opp-hand", {}, sortCards(hands[opp]).map((c) => cardEl(c, "mini")))
      : hiddenHand(v.hand_counts[opp], v.revealed[opp] || []));

    // Floor, grouped by month, plus the pile and the cards in flight.
    const pickCards = q && q.startsWith("pick") ? new Set(choicesFor(q, legal).map((c) => c.card)) : new Set();
    const floor = h("div.floor", { "aria-label": "바닥" });
    for (const g of v.floor) {
      const grp = h("div.month-group", { dataset: { month: g.month }, title: `${g.month}월 ${MONTHS[g.month][1]}` });
      for (const c of [...g.cards, ...(g.bonus || [])]) {
        const ce = cardEl(c, `${flash.has(c) ? "flash" : ""} ${pickCards.has(c) ? "pickable" : ""}`);
        if (pickCards.has(c)) ce.addEventListener("click", () => ctx.act(`pick ${c}`));
        grp.append(ce);
      }
      if (g.ppeok !== null && g.ppeok !== undefined) grp.append(h("span.ppeok-tag", {}, `뻑 (${seatName(g.ppeok)})`));
      floor.append(grp);
    }
    const inFlight = [...(v.turn.captured || [])];
    if (v.turn.flipped) inFlight.push(v.turn.flipped);
    const centre = h("div.centre", {},
      floor,
      h("div.deck", {},
        h("div.pile-stack", { title: "더미" }, cardEl("back"), h("span.pile-n", { "data-testid": "pile-count" }, `${v.pile}장`)),
        inFlight.length ? h("div.in-flight", {}, inFlight.map((c) => cardEl(c, "mini flash"))) : null,
        v.carry > 1 ? h("span.badge.carry", {}, `나가리 ×${v.carry}`) : null,
        v.mission ? h("span.badge", {}, `미션 ${v.mission}`) : null),
    );
    el.append(centre);

    // Prompt panel
    const panel = h("div.prompt", { "data-testid": "prompt", "aria-live": "polite" });
    if (q) {
      panel.classList.add("active", `q-${q}`);
      panel.append(h("div.q", {}, sub ? `${sub.code}: 어떻게 내시겠습니까?` : QUESTION_KO[q] || q));
      const items = sub ? sub.opts : q === "play" ? [] : choicesFor(q, legal);
      const row = h("div.choices");
      items.forEach((it, i) => {
        const b = h(`button.choice${i === sel ? ".sel" : ""}`, { dataset: { move: it.move }, onclick: () => ctx.act(it.move) },
          h("kbd", {}, String(i + 1)), it.card ? cardEl(it.card) : null, it.label);
        row.append(b);
      });
      if (sub) row.append(h("button.choice.cancel", { onclick: () => { sub = null; draw(); } }, h("kbd", {}, "Esc"), "취소"));
      if (q === "play" && !sub && legal.includes("flip")) {
        row.append(h("button.choice", { dataset: { move: "flip" }, onclick: () => ctx.act("flip") }, h("kbd", {}, "Space"), "폭탄패로 뒤집기"));
      }
      panel.append(row);
      if (q === "play" && !sub) panel.append(h("div.hint", {}, "숫자 또는 ←→ 로 고르고 Enter"));
    } else if (!state.readOnly && !v.over) {
      panel.append(h("div.q.wait", {}, state.seat === null || state.seat === undefined ? "관전 중" : "상대 차례"));
    }
    el.append(panel);

    // Me (bottom): captured, then the hand.
    el.append(player(me, false));
    const handCards = hands ? sortCards(hands[me]) : v.hand ? sortCards(v.hand) : null;
    const handRow = h("div.hand", { "aria-label": "내 패" });
    if (handCards) {
      const sels = q === "play" && !sub ? selectable() : [];
      handCards.forEach((c, i) => {
        const opts = q === "play" ? cardOptions(c, legal) : [];
        const si = sels.findIndex((x) => x.code === c);
        const ce = cardEl(c, `${opts.length ? "playable" : ""} ${si >= 0 && si === sel ? "sel" : ""} ${sub && sub.code === c ? "sel" : ""}`);
        ce.dataset.index = String(i + 1);
        if (opts.length) {
          ce.tabIndex = 0;
          ce.addEventListener("click", () => choose(c));
        }
        handRow.append(ce);
      });
    } else {
      handRow.append(hiddenHand(v.hand_counts[me], v.revealed[me] || []));
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

/** One line of Korean for a Matgo event (the table's log). */
export function describeMatgoEvent(e, name) {
  const n = (s) => name(s);
  switch (e.type) {
    case "deal": return `패를 돌렸습니다 (선: ${n(e.dealer)})`;
    case "floor_bonus": return `바닥의 보너스 패 ${e.card} → ${n(e.seat)}`;
    case "redeal": return `재분배 (${e.reason})`;
    case "chongtong": return `${n(e.seat)} 총통!`;
    case "chongtong_play": return `${n(e.seat)} 총통을 보이고 계속`;
    case "bonus_play": return `${n(e.seat)} 보너스 패 ${e.card}`;
    case "draw": return `${n(e.seat)} 더미에서 한 장${e.card ? ` (${e.card})` : ""}`;
    case "play": return `${n(e.seat)} ${e.card} 냄`;
    case "shake": return `${n(e.seat)} 흔들기 (${e.month}월)`;
    case "bomb": return `${n(e.seat)} 폭탄! (${e.month}월)`;
    case "token_flip": return `${n(e.seat)} 폭탄패로 뒤집기`;
    case "pick": return `${n(e.seat)} ${e.card} 선택`;
    case "flip": return `뒤집기: ${e.card}`;
    case "ppeok": return `${n(e.seat)} 뻑! (${e.month}월, ${e.count}번째)`;
    case "jjok": return `${n(e.seat)} 쪽!`;
    case "ttadak": return `${n(e.seat)} 따닥!`;
    case "take_stack": return `${n(e.seat)} ${e.month}월 뻑을 가져감`;
    case "sseul": return `${n(e.seat)} 싹쓸이!`;
    case "capture": return `${n(e.seat)} 먹음: ${e.cards.join(" ")}`;
    case "steal": return `${n(e.seat)} ← ${n(e.victim)} 피 ${e.card}`;
    case "steal_none": return `${n(e.victim)} 줄 피가 없음`;
    case "gukjin_fixed": return `국진을 ${e.as === "pi" ? "쌍피" : "열끗"}로`;
    case "go": return `${n(e.seat)} ${e.count}고! (${e.score}점)`;
    case "stop": return `${n(e.seat)} 스톱 (${e.score}점)`;
    case "payment": return `${n(e.from)} → ${n(e.to)} ${e.points}점 (${e.reason})`;
    case "end": return e.winner === null || e.winner === undefined ? `나가리 (${e.reason})` : `${n(e.winner)} 승리 ${e.points}점 (${e.reason})`;
    default: return e.type;
  }
}
