// 마작 (mahjong) table: four seats, rivers, melds, flowers, the seat's hand and its
// prompts (discard with 엎어/불러, 올라, 깡, and the 쏘아/뽕/깡/pass claim window).
import { h, clear } from "./util.js";
import { tileEl, sortTiles, tileName } from "./tiles.js";

const WIND_KO = { "1z": "동", "2z": "남", "3z": "서", "4z": "북" };
const VERB_KO = { ron: "쏘아", tsumo: "올라", pon: "뽕", kan: "깡", ankan: "암깡", kakan: "가깡", pass: "패스" };
const MELD_KO = { pon: "뽕", kan: "깡", ankan: "암깡" };

function meldEl(m) {
  const n = m.kind === "pon" ? 3 : 4;
  const row = h("div.meld", { title: MELD_KO[m.kind] || m.kind });
  for (let i = 0; i < n; i++) {
    const hidden = m.kind === "ankan" && (i === 0 || i === n - 1);
    row.append(tileEl(hidden ? "back" : m.tile, "small"));
  }
  return row;
}

export function createMahjongBoard(root, ctx) {
  let state = null;
  let declare = ""; // "", "eopeo" or "bulleo": applied to the next discard
  let sel = -1;
  const el = h("div.board.mahjong");
  root.append(el);

  const name = (s) => {
    const seat = (state.seats || []).find((x) => x.seat === s);
    return (seat && seat.username) || `자리 ${s + 1}`;
  };

  function legal() {
    if (state.readOnly) return [];
    const p = state.prompt;
    if (p && p.seat === state.seat && p.legal) return p.legal;
    return state.view.legal_actions || [];
  }

  function discardMove(tile, L) {
    if (declare && L.includes(`discard ${tile} ${declare}`)) return `discard ${tile} ${declare}`;
    if (L.includes(`discard ${tile}`)) return `discard ${tile}`;
    return null;
  }

  function buttons(L) {
    // Everything but plain discards: claims, 올라, kans.
    return L.filter((m) => !m.startsWith("discard")).map((m) => {
      const [verb, tile] = m.split(" ");
      return { move: m, label: `${VERB_KO[verb] || verb}${tile ? " " + tileName(tile) : ""}` };
    });
  }

  function handTiles(v, me) {
    const p = v.players[me];
    if (!p.hand) return [];
    const hand = [...p.hand];
    if (p.drawn) {
      const i = hand.indexOf(p.drawn);
      if (i >= 0) hand.splice(i, 1);
    }
    return [...sortTiles(hand), ...(p.drawn ? [p.drawn] : [])];
  }

  function draw() {
    const v = state.view;
    const me = state.seat ?? 0;
    const L = legal();
    const canDeclare = { eopeo: L.some((m) => m.endsWith(" eopeo")), bulleo: L.some((m) => m.endsWith(" bulleo")) };
    if (declare && !canDeclare[declare]) declare = "";
    const last = new Set((state.events || []).map((e) => e.tile).filter(Boolean));
    clear(el);
    el.dataset.version = String(state.version);
    el.dataset.question = L.length ? (v.phase === "discard" ? "discard" : "claim") : "";

    const seatBox = (s, pos) => {
      const p = v.players[s];
      const isTurn = v.turn === s && v.phase === "discard";
      const hand = p.hand && s !== me ? sortTiles(p.hand) : null; // replay: every hand shown
      return h(`div.mj-seat.${pos}${isTurn ? ".turn" : ""}`, { dataset: { seat: s } },
        h("div.pinfo", {},
          h("span.wind", {}, WIND_KO[p.wind] || p.wind),
          h("span.pname", {}, name(s), s === v.dealer ? h("span.badge.dealer", {}, "선") : null),
          (state.seats || []).some((x) => x.seat === s && x.kind === "human" && x.bot_control) ? h("span.badge", {}, "자동") : null,
          p.declared ? h(`span.badge.${p.declared}`, {}, p.declared === "bulleo" ? "불러" : "엎어", p.double ? " (부지부)" : "") : null,
          p.waits ? h("span.waits", {}, "대기: ", p.waits.map((t) => tileEl(t, "tiny"))) : null,
          h("div.timer", { dataset: { seat: s } }, h("div.timer-fill"))),
        s !== me
          ? h("div.concealed", {}, hand ? hand.map((t) => tileEl(t, "small")) : Array.from({ length: p.concealed }, () => tileEl(p.face_down ? "back" : "back", "small")))
          : null,
        h("div.melds", {}, p.melds.map(meldEl), p.flowers.map((f) => tileEl(f, "small flower"))),
        h("div.river", {}, p.river.map((t, i) => tileEl(t, `small ${i === p.river.length - 1 && last.has(t) ? "flash" : ""}`))));
    };

    const order = [me, (me + 1) % 4, (me + 2) % 4, (me + 3) % 4];
    const claim = v.claim;
    el.append(
      h("div.mj-grid", {},
        seatBox(order[2], "top"),
        seatBox(order[3], "left"),
        h("div.mj-centre", {},
          h("div", {}, `${WIND_KO[v.round_wind] || v.round_wind}장`, v.pot ? ` · 판돈 ${v.pot}` : ""),
          h("div", { "data-testid": "wall-count" }, `패산 ${v.wall_count}`),
          claim ? h("div.claim", {}, `${name(claim.from)}의 버림패 `, tileEl(claim.tile, "small flash")) : null),
        seatBox(order[1], "right"),
        seatBox(order[0], "bottom")),
    );

    // Prompt and hand.
    const panel = h("div.prompt", { "data-testid": "prompt" });
    const btns = buttons(L);
    if (L.length) {
      panel.classList.add("active");
      const q = v.phase === "discard" ? "버릴 패를 고르세요" : "버림패를 부르시겠습니까?";
      panel.append(h("div.q", {}, q));
      const row = h("div.choices");
      btns.forEach((b, i) => row.append(h(`button.choice${i === sel ? ".sel" : ""}`, { dataset: { move: b.move }, onclick: () => ctx.act(b.move) }, h("kbd", {}, String(i + 1)), b.label)));
      for (const d of ["eopeo", "bulleo"]) {
        if (canDeclare[d]) {
          row.append(h(`button.toggle${declare === d ? ".on" : ""}`, { dataset: { declare: d }, onclick: () => { declare = declare === d ? "" : d; draw(); } },
            d === "eopeo" ? "엎어" : "불러", declare === d ? " ✓" : ""));
        }
      }
      panel.append(row);
    }
    const p = v.players[me];
    // The server's view gives a ready hand's waits and its 진팅 state: no rules here.
    if (p.hand && p.my_waits && p.my_waits.length) {
      panel.append(h("div.waits-line", {}, "대기: ", p.my_waits.map((t) => tileEl(t, "tiny")),
        p.jinting ? h("span.warn.jinting", {}, "진팅 — 쏘아 불가, 올라만") : null,
        p.golla ? h("span.warn", {}, "골라 쏘아 금지") : null));
    }
    el.append(panel);
    const handRow = h("div.hand.mj-hand", { "aria-label": "내 패" });
    const tiles = handTiles(v, me);
    const discardable = tiles.map((t) => discardMove(t, L));
    tiles.forEach((t, i) => {
      const mv = discardable[i];
      const isDrawn = p.drawn && i === tiles.length - 1;
      const te = tileEl(t, `${mv ? "playable" : ""} ${isDrawn ? "drawn" : ""} ${i === sel && !btns.length ? "sel" : ""}`);
      if (mv) te.addEventListener("click", () => ctx.act(discardMove(t, legal())));
      handRow.append(te);
    });
    el.append(handRow);
    if (ctx.afterDraw) ctx.afterDraw(el);
  }

  return {
    render(s) {
      const changed = !state || s.version !== state.version;
      state = s;
      if (changed) sel = -1;
      draw();
    },
    key(e) {
      if (!state) return false;
      const L = legal();
      if (!L.length) return false;
      const btns = buttons(L);
      const v = state.view;
      const tiles = handTiles(v, state.seat ?? 0);
      if (/^[1-9]$/.test(e.key) && btns.length && v.phase !== "discard") {
        const b = btns[+e.key - 1];
        if (b) ctx.act(b.move);
        return true;
      }
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        const n = tiles.length;
        sel = sel < 0 ? n - 1 : (sel + (e.key === "ArrowRight" ? 1 : n - 1)) % n;
        draw();
        return true;
      }
      if (e.key === "Enter" && sel >= 0 && sel < tiles.length) {
        const mv = discardMove(tiles[sel], L);
        if (mv) ctx.act(mv);
        return true;
      }
      return false;
    },
    destroy() {
      el.remove();
    },
  };
}

export function describeMahjongEvent(e, name) {
  const n = (s) => name(s);
  switch (e.type) {
    case "deal": return `${n(e.seat)} 패 받음`;
    case "draw": return `${n(e.seat)} 쓰무${e.tile ? ` (${e.tile})` : ""}`;
    case "flower": return `${n(e.seat)} 꽃 ${e.tile || ""}`;
    case "discard": return `${n(e.seat)} 타패 ${e.tile}${e.declare ? ` (${e.declare === "bulleo" ? "불러" : "엎어"})` : ""}`;
    case "pon": return `${n(e.seat)} 뽕! ${e.tile || ""}`;
    case "kan": case "ankan": case "kakan": return `${n(e.seat)} 깡! ${e.tile || ""}`;
    case "win": return `${n(e.seat)} ${e.by === "tsumo" ? "올라" : "쏘아"}! ${e.tile || ""}`;
    case "nagari": return "나가리";
    case "end": return "판 끝";
    case "payment": return `${n(e.from)} → ${n(e.to)} ${e.points}점`;
    case "ask": return `부를 수 있습니다: ${(e.options || e.legal || []).join(", ")}`;
    default: return e.type + (e.seat !== undefined ? ` (${n(e.seat)})` : "");
  }
}
