// The live table page: one WebSocket stream, a board for the game, timers, the event
// log and the settlement screen.
import { api, getMe, TableSocket } from "./api.js";
import { h, clear, go, link, toast, fmtAmount } from "./util.js";
import { createMatgoBoard, describeMatgoEvent } from "./matgo.js";
import { createMahjongBoard, describeMahjongEvent } from "./mahjong.js";

const GAME_KO = { matgo: "맞고", mahjong: "마작" };
const ERROR_KO = {
  stale_version: "이미 지난 질문입니다",
  illegal_action: "지금은 둘 수 없는 수입니다",
  not_seated: "관전 중입니다",
  game_over: "게임이 진행 중이 아닙니다",
  rate_limited: "너무 빠릅니다",
};

/** Timer bars: each `.timer[data-seat]` shrinks towards its seat's local deadline. */
class Timers {
  constructor() {
    this.deadlines = new Map(); // seat -> [start, end] in performance.now() ms
    this.raf = 0;
    this.root = null;
    const tick = () => {
      this.paint();
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  }
  set(list) {
    this.deadlines.clear();
    const now = performance.now();
    for (const t of list) {
      if (t && typeof t.remaining_ms === "number") this.deadlines.set(t.seat, [now, now + t.remaining_ms, t.remaining_ms]);
    }
  }
  paint() {
    if (!this.root) return;
    const now = performance.now();
    for (const bar of this.root.querySelectorAll(".timer")) {
      const d = this.deadlines.get(+bar.dataset.seat);
      const fill = bar.firstChild;
      if (!d) {
        bar.classList.remove("on");
        continue;
      }
      const left = Math.max(0, d[1] - now);
      const total = Math.max(d[2], 1);
      bar.classList.add("on");
      bar.classList.toggle("low", left < 5000);
      fill.style.width = `${(100 * left) / total}%`;
      bar.title = `${Math.ceil(left / 1000)}초`;
    }
  }
  stop() {
    cancelAnimationFrame(this.raf);
  }
}

function settlementSheet(game, view, result, name) {
  const box = h("div.sheet");
  if (game === "matgo" && view.sheet) {
    const s = view.sheet;
    box.append(h("table.sheet-table", {},
      h("tbody", {},
        s.items.map((it) => h("tr", {}, h("td", {}, it.name_ko), h("td.num", {}, `${it.points}점`))),
        h("tr.sum", {}, h("td", {}, "족보 합"), h("td.num", {}, `${s.jokbo}점`)),
        s.go ? h("tr", {}, h("td", {}, `고 ${s.go}`), h("td.num", {}, `+${s.go}`)) : null,
        h("tr.sum", {}, h("td", {}, "기본"), h("td.num", {}, `${s.base}점`)),
        s.multipliers.map((m) => h("tr", {}, h("td", {}, m.name_ko), h("td.num", {}, `×${m.factor}`))),
        h("tr.total", {}, h("td", {}, "최종"), h("td.num", {}, `${s.points}점`)))));
  }
  if (game === "mahjong" && view.result) {
    for (const w of view.result.winners || []) {
      box.append(h("div.mj-win", {},
        h("div", {}, `${name(w.seat)} — ${w.by === "tsumo" ? "올라" : "쏘아"} ${w.tile}`),
        h("table.sheet-table", {}, h("tbody", {},
          w.items.map((it) => h("tr", {}, h("td", {}, it.name_ko), h("td.num", {}, `${it.pan}판`))),
          h("tr.sum", {}, h("td", {}, "기본판 + 부가판"), h("td.num", {}, `${w.base_pan} + ${w.extra_pan}`)),
          w.base_points ? h("tr", {}, h("td", {}, "기본 점수"), h("td.num", {}, `${w.base_points}`)) : null,
          h("tr.total", {}, h("td", {}, "점수"), h("td.num", {}, `${w.points}점`))))));
    }
    if (view.result.nagari) box.append(h("p", {}, "나가리 — 다음 판에 판돈이 쌓입니다"));
  }
  const pays = (result && result.payments) || [];
  if (pays.length) {
    box.append(h("h3", {}, "정산"), h("ul.payments", {}, pays.map((p) =>
      h("li", {}, `${name(p.from)} → ${name(p.to)}: ${p.points}점`, p.amount !== undefined ? ` (${fmtAmount(p.amount)})` : "", p.reason ? ` · ${p.reason}` : ""))));
  } else {
    box.append(h("p", {}, "주고받을 점수가 없습니다."));
  }
  if (result && result.ratings) {
    box.append(h("p.ratings", {}, Object.entries(result.ratings).map(([s, r]) =>
      h("span", {}, `${name(+s)}: ${Math.round(r.before)} → ${Math.round(r.after)}  `))));
  }
  return box;
}

/** Ask before taking a seat: the game, the rules and the stake; resolves to true to sit. */
function askToJoin(root, table) {
  return new Promise((resolve) => {
    const sit = h("button.primary#btn-sit", { onclick: () => resolve(true) }, "앉기");
    const watch = h("button#btn-watch", { onclick: () => resolve(false) }, "구경만 하기");
    clear(root).append(h("div.card-panel.join-ask", { role: "dialog", "aria-modal": "true", "aria-labelledby": "join-title", "data-testid": "join-ask" },
      h("h2#join-title", {}, `#${table.id} ${GAME_KO[table.game] || table.game} 자리에 앉을까요?`),
      h("p.join-stake", {}, `판돈 ${table.stake}: 1점에 ${table.stake}씩 주고받습니다.`),
      h("p", {}, `규칙: ${table.preset}`),
      h("div.actions", {}, sit, watch)));
    sit.focus();
  });
}

export async function tablePage(root, tableId, invite, me) {
  const params = new URLSearchParams(location.search);
  const q = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  let { table } = await api.get(`/api/tables/${tableId}${q}`);
  const seatedName = me && me.user.username;
  const mine = () => table.seats.some((s) => s.username && s.username === seatedName);
  if (me && !mine() && !params.get("watch") && table.seats.some((s) => s.kind === "human" && !s.username)) {
    // Never seat anyone by a link alone: show the stake and ask (the server wants it back).
    if (await askToJoin(root, table)) {
      try {
        ({ table } = await api.post(`/api/tables/${tableId}/join`, { stake: table.stake, ...(invite ? { invite } : {}) }));
      } catch (e) {
        toast(e.message, "error");
      }
    }
    clear(root);
  }
  const game = table.game;
  const head = h("div.table-head", {},
    h("span", {}, `#${table.id} ${GAME_KO[game] || game} · ${table.preset} · 판돈 ${table.stake}`),
    h("span.conn", { "data-testid": "conn" }, "연결 중…"),
    table.invite ? h("button.small", { onclick: () => {
      const url = `${location.origin}/table/${table.id}?invite=${table.invite}`;
      (navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject()).then(() => toast("초대 링크를 복사했습니다"), () => toast(url));
    } }, "초대 링크") : null,
    !me && table.seats.some((s) => s.kind === "human" && !s.username) ? h("button.small", { onclick: async () => { await api.post("/api/guest"); await getMe(true); location.reload(); } }, "손님으로 참가") : null,
    h("button.small.ghost", { onclick: async () => {
      if (mine() && !confirm("자리를 떠나시겠습니까? (진행 중인 판은 컴퓨터가 마칩니다)")) return;
      if (mine()) await api.post(`/api/tables/${tableId}/leave`).catch(() => {});
      go("/");
    } }, "나가기"));
  const boardWrap = h("div.board-wrap");
  const log = h("ul.log", { "aria-label": "진행 기록 (최근 것이 위)" });
  const overlay = h("div.overlay.hidden", { "data-testid": "settlement" });
  root.append(h("div.table-page", {}, head, h("div.table-body", {}, boardWrap, h("aside.side", {}, h("h3", {}, "기록"), log)), overlay));

  const timers = new Timers();
  timers.root = boardWrap;
  const st = { seat: null, seats: table.seats, view: null, prompt: null, version: 0, events: [], result: null, game_no: 0 };
  const name = (s) => {
    const seat = (st.seats || []).find((x) => x.seat === s);
    return (seat && seat.username) || `자리 ${s + 1}`;
  };
  const describe = game === "matgo" ? describeMatgoEvent : describeMahjongEvent;
  const ctx = { act: (move) => sock.act(move) };
  const board = game === "matgo" ? createMatgoBoard(boardWrap, ctx) : createMahjongBoard(boardWrap, ctx);

  function logEvents(events) {
    for (const e of events) {
      if (e.type === "answer") continue;
      log.prepend(h("li", { dataset: { type: e.type } }, describe(e, name)));
    }
    while (log.childElementCount > 200) log.lastChild.remove();
  }

  function setTimers(msg) {
    // `timers` lists every seat being asked (protocol); `prompt` is this seat's own.
    const list = [...(msg.timers || msg.others || [])];
    const p = msg.prompt;
    if (p && !list.some((t) => t.seat === p.seat)) list.push({ seat: p.seat ?? st.seat, remaining_ms: p.remaining_ms });
    timers.set(list);
  }

  function showResult() {
    const r = st.result;
    if (!r) {
      overlay.classList.add("hidden");
      return;
    }
    const winner = r.winner ?? (st.view && st.view.winner);
    const title = winner === null || winner === undefined ? "나가리" : winner === st.seat ? "승리!" : st.seat === null ? `${name(winner)} 승리` : "패배";
    clear(overlay).append(h("div.card-panel.result", {},
      h("h2", {}, title, r.points ? ` ${r.points}점` : ""),
      settlementSheet(game, st.view, r, name),
      h("div.row", {},
        st.seat !== null && !r.match_over ? h("button.primary#btn-next", { onclick: () => { sock.ready(); overlay.classList.add("hidden"); } }, "다음 판") : null,
        r.game_id ? link(`/replay/${r.game_id}`, "다시 보기", "button") : null,
        link("/", "로비로", "button ghost"),
        h("button.ghost", { onclick: () => overlay.classList.add("hidden") }, "닫기"))));
    overlay.classList.remove("hidden");
  }

  function render() {
    if (!st.view) return;
    board.render({ view: st.view, prompt: st.prompt, seat: st.seat, seats: st.seats, version: st.version, events: st.events });
  }

  const sock = new TableSocket(tableId, {
    invite,
    onStatus: (s) => {
      const c = head.querySelector(".conn");
      c.textContent = s === "open" ? "● 연결됨" : s === "connecting" ? "연결 중…" : "연결 끊김, 다시 연결 중…";
      c.className = `conn ${s}`;
    },
    onMessage: (msg) => {
      switch (msg.type) {
        case "welcome":
          st.seat = msg.seat;
          if (msg.table) st.seats = msg.table.seats;
          break;
        case "snapshot":
          Object.assign(st, { view: msg.view, prompt: msg.prompt, version: msg.version, events: [], result: msg.result || null, game_no: msg.game_no });
          if (msg.seats) st.seats = msg.seats;
          setTimers(msg);
          render();
          showResult();
          break;
        case "update":
          if (msg.game_no !== st.game_no) {
            st.result = null;
            showResult();
          }
          Object.assign(st, { view: msg.view, prompt: msg.prompt, version: msg.version, events: msg.events || [], game_no: msg.game_no });
          if (msg.result) st.result = msg.result;
          logEvents(msg.events || []);
          setTimers(msg);
          render();
          if (msg.result) {
            showResult();
            getMe(true);
          }
          break;
        case "seats":
          st.seats = msg.seats;
          render();
          break;
        case "error":
          toast(ERROR_KO[msg.code] || msg.message, "error");
          break;
        default:
          break;
      }
    },
  });

  const onKey = (e) => {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.key === "Escape" && !overlay.classList.contains("hidden") && !st.prompt) {
      overlay.classList.add("hidden");
      return;
    }
    if (board.key(e)) e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  return {
    destroy() {
      document.removeEventListener("keydown", onKey);
      timers.stop();
      sock.close();
      board.destroy();
    },
  };
}
