// The live table page: one WebSocket stream, a board for the game, timers with seconds,
// captions of what just happened, the event log (kept across a refresh), the waiting
// state, the settlement screen and the 다음 판 bar. Game knowledge comes from the game's
// module (games.js); this page is the same for every game.
import { api, getMe, TableSocket } from "./api.js";
import { TableChat } from "./chat.js";
import { FairWatch } from "./fairplay.js";
import { FirstPickPanel } from "./firstpick.js";
import { gameModule } from "./games.js";
import { errorText, payReason, presetName, t } from "./i18n.js";
import { motion, motionControls } from "./motion.js";
import { seatNamer } from "./names.js";
import { rulesBox, rulesCatalogue } from "./rules.js";
import { sound, soundControls } from "./sound.js";
import { clear, fill, fmtAmount, go, h, link, toast, toastClear } from "./util.js";

/** Tables this browser left: the lobby offers no 돌아가기 to them. */
export function leftTables() {
  try {
    return new Set(JSON.parse(localStorage.getItem("madang:left") || "[]"));
  } catch {
    return new Set();
  }
}

function rememberLeft(id) {
  const s = leftTables();
  s.add(id);
  localStorage.setItem("madang:left", JSON.stringify([...s].slice(-50)));
}

/** Timer bars with seconds: each `.timer[data-seat]` shrinks towards its seat's deadline. */
class Timers {
  constructor() {
    this.deadlines = new Map(); // seat -> [start, end, total] in performance.now() ms
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
    for (const x of list) {
      if (x && typeof x.remaining_ms === "number")
        this.deadlines.set(x.seat, [now, now + x.remaining_ms, x.remaining_ms]);
    }
  }
  left(seat) {
    const d = this.deadlines.get(seat);
    return d ? Math.max(0, d[1] - performance.now()) : null;
  }
  paint() {
    if (!this.root) return;
    const now = performance.now();
    for (const bar of this.root.querySelectorAll(".timer")) {
      const d = this.deadlines.get(+bar.dataset.seat);
      const fill = bar.querySelector(".timer-fill");
      const secs = bar.querySelector(".timer-s");
      if (!d) {
        bar.classList.remove("on");
        continue;
      }
      const left = Math.max(0, d[1] - now);
      const total = Math.max(d[2], 1);
      bar.classList.add("on");
      bar.classList.toggle("low", left < 5000);
      fill.style.width = `${(100 * left) / total}%`;
      const text = t("table.seconds", { s: Math.ceil(left / 1000) });
      if (secs.textContent !== text) secs.textContent = text;
    }
  }
  stop() {
    cancelAnimationFrame(this.raf);
  }
}

function timerEl(seat) {
  return h(
    "div.timer",
    { dataset: { seat } },
    h("div.timer-bar", {}, h("div.timer-fill")),
    h("span.timer-s", { "aria-live": "off" }),
  );
}

/** Do two client rectangles overlap? */
function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Big captions over the board (뻑!, 쪽!, 3고!, 쏘아! …) that keep up with the game (U5):
 * the newest update's captions show at once, merged into one, and replace whatever was
 * showing (no queue that lags turns behind). A caption never covers an open question:
 * while one is open the caption moves to the top of the board, and if it would still
 * touch the question (its panel or the cards it asks about) it is not shown.
 */
export class Captions {
  constructor(root) {
    this.root = root;
    this.el = h("div.captions", {
      role: "status",
      "aria-live": "assertive",
      "data-testid": "caption",
    });
    root.append(this.el);
    this.timer = 0;
    window.__madangCaptions = window.__madangCaptions || [];
  }
  push(list) {
    if (!list.length) return;
    for (const c of list) window.__madangCaptions.push(c.kind);
    const whos = [...new Set(list.map((c) => c.who).filter(Boolean))];
    const last = list[list.length - 1];
    fill(
      this.el,
      h("div.cap-text", {}, list.map((c) => c.text).join(" ")),
      whos.length ? h("div.cap-who", {}, whos.join(" · ")) : null,
    );
    this.el.dataset.kind = last.kind;
    this.el.dataset.kinds = list.map((c) => c.kind).join(" ");
    this.el.className = `captions show cap-${last.kind}`;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), 1500);
    this.place();
  }
  hide() {
    this.timer = 0;
    this.el.className = "captions";
    clear(this.el);
  }
  /** Keep clear of an open question: call after every render. */
  place() {
    if (!this.el.classList.contains("show")) return;
    const asked = [...this.root.querySelectorAll(".prompt.active, .pickable, .tile.playable")];
    this.el.classList.toggle("asking", asked.length > 0);
    this.el.classList.remove("muted");
    if (!asked.length) return;
    const r = this.el.getBoundingClientRect();
    if (asked.some((a) => overlaps(r, a.getBoundingClientRect()))) this.el.classList.add("muted");
  }
  stop() {
    clearTimeout(this.timer);
  }
}

/** Ask before taking a seat: the game, the rules and the stake; resolves to true to sit. */
function askToJoin(root, table, rules) {
  return new Promise((resolve) => {
    const sit = h(
      "button.primary#btn-sit",
      { type: "button", onclick: () => resolve(true) },
      t("join.sit"),
    );
    const watch = h(
      "button#btn-watch",
      { type: "button", onclick: () => resolve(false) },
      t("join.watch"),
    );
    fill(
      root,
      h(
        "div.card-panel.join-ask",
        {
          role: "dialog",
          "aria-modal": "true",
          "aria-labelledby": "join-title",
          "data-testid": "join-ask",
        },
        h("h2#join-title", {}, t("join.title", { id: table.id, game: t(`game.${table.game}`) })),
        h("p.join-stake", {}, t("join.stake", { stake: table.stake })),
        table.entry
          ? h("p.join-entry", {}, t("join.entry", { n: table.entry.toLocaleString("ko-KR") }))
          : null,
        // what the game's other units are worth here (a mahjong 판), as the server says
        ...Object.entries(table.worth?.units || {}).map(([unit, w]) =>
          h(
            "p.join-unit",
            { dataset: { unit } },
            t(`join.unit.${unit}`, { points: w.points, amount: w.amount }),
          ),
        ),
        h("p", {}, t("join.rules", { preset: presetName(table.game, table.preset) })),
        rulesBox(table, rules, "join-rules"),
        h("div.actions", {}, sit, watch),
      ),
    );
    sit.focus();
  });
}

export async function tablePage(root, tableId, invite, me) {
  const params = new URLSearchParams(location.search);
  const q = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  let [{ table }, rules] = await Promise.all([
    api.get(`/api/tables/${tableId}${q}`),
    rulesCatalogue().catch(() => null),
  ]);
  const seatedName = me?.user.username;
  const mine = () => table.seats.some((s) => s.username && s.username === seatedName);
  if (
    me &&
    !mine() &&
    !params.get("watch") &&
    table.seats.some((s) => s.kind === "human" && !s.username)
  ) {
    // Never seat anyone by a link alone: show the stake and ask (the server wants it back).
    if (await askToJoin(root, table, rules)) {
      try {
        ({ table } = await api.post(`/api/tables/${tableId}/join`, {
          stake: table.stake,
          ...(invite ? { invite } : {}),
        }));
      } catch (e) {
        toast(errorText(e), "error");
      }
    }
    clear(root);
  }
  const game = table.game;
  const mod = gameModule(game);
  const tableUrl = () =>
    `${location.origin}/table/${table.id}${table.private && table.invite ? `?invite=${table.invite}` : ""}`;
  const copyLink = () => {
    const url = tableUrl();
    (navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject()).then(
      () => toast(t("table.copied")),
      () => toast(url),
    );
  };
  const head = h(
    "div.table-head",
    {},
    h(
      "span.title",
      {},
      t("table.head", {
        id: table.id,
        game: t(`game.${game}`),
        preset: presetName(game, table.preset),
        stake: table.stake,
      }),
    ),
    rulesBox(table, rules, "rules-in-force"),
    h("span.conn", { "data-testid": "conn" }, t("table.connecting")),
    soundControls(),
    motionControls(),
    table.private && table.invite
      ? h("button.small", { type: "button", onclick: copyLink }, t("table.invite"))
      : !table.private
        ? h("button.small", { type: "button", onclick: copyLink }, t("table.link"))
        : null,
    !me && table.seats.some((s) => s.kind === "human" && !s.username)
      ? h(
          "button.small",
          {
            type: "button",
            onclick: async () => {
              await api.post("/api/guest");
              await getMe(true);
              location.reload();
            },
          },
          t("table.join_guest"),
        )
      : null,
    h(
      "button.small.ghost",
      {
        type: "button",
        onclick: async () => {
          if (mine() && !confirm(t("table.leave_confirm"))) return;
          if (mine()) {
            await api.post(`/api/tables/${tableId}/leave`).catch(() => {});
            rememberLeft(tableId);
          }
          go("/");
        },
      },
      t("table.leave"),
    ),
  );
  // 자동치기: the computer (the `normal` bot) plays this seat until it is turned off
  const autoBtn = h("button.small.autoplay.hidden#btn-autoplay", {
    type: "button",
    "aria-pressed": "false",
    "data-testid": "autoplay",
    onclick: () => {
      const on = !mySeat()?.auto;
      sock.send({ type: "autoplay", on });
    },
  });
  head.insertBefore(autoBtn, head.querySelector(".conn"));
  const mySeat = () => (st.seat === null ? null : st.seats.find((s) => s.seat === st.seat));
  function paintAuto() {
    const seat = mySeat();
    const show = !!seat && !seat.left && st.status !== "closed";
    autoBtn.classList.toggle("hidden", !show);
    const on = !!seat?.auto;
    autoBtn.setAttribute("aria-pressed", String(on));
    autoBtn.classList.toggle("on", on);
    autoBtn.textContent = t(on ? "table.autoplay_on" : "table.autoplay_off");
    autoBtn.title = t("table.autoplay_hint");
  }
  const nextBar = h("div.next-bar.hidden", { "data-testid": "next-bar" });
  const boardWrap = h("div.board-wrap");
  const chatSlot = h("div.chat-slot");
  const waiting = h("div.waiting.hidden", { "data-testid": "waiting" });
  const boardCol = h("div.board-col", {}, waiting, boardWrap, chatSlot);
  const log = h("ul.log", { "aria-label": t("table.log_label") });
  const overlay = h("div.overlay.hidden", {
    "data-testid": "settlement",
    role: "dialog",
    "aria-modal": "true",
    "aria-label": t("table.settle"),
  });
  root.append(
    h(
      "div.table-page",
      {},
      head,
      nextBar,
      h(
        "div.table-body",
        {},
        boardCol,
        h(
          "aside.side",
          { tabindex: 0, "aria-label": t("table.log") },
          h("h2.side-title", {}, t("table.log")),
          log,
        ),
      ),
      overlay,
    ),
  );

  const timers = new Timers();
  timers.root = boardWrap;
  const captions = new Captions(boardWrap);
  // test hook: show captions as an update would ([{kind, text, who}])
  window.__madangCaptionsPush = (list) => captions.push(list);
  const st = {
    seat: null,
    seats: table.seats,
    view: null,
    prompt: null,
    version: 0,
    events: [],
    result: null,
    game_no: 0,
    status: table.status,
    acted: -1,
  };
  const name = seatNamer(() => st.seats);
  // 선 뽑기 before a Matgo table's first deal (the server lays the cards out)
  const firstPick = new FirstPickPanel(boardCol, {
    send: (m) => sock.send(m),
    name,
    rule: table.rules_in_force?.first_dealer,
  });
  const ctx = {
    act: (move) => {
      st.acted = st.version;
      sock.act(move);
    },
    name,
    timer: timerEl,
  };
  const board = mod.createBoard(boardWrap, ctx);

  // The log, kept for this tab across a refresh (sessionStorage), newest first.
  const logKey = `madang:log:${tableId}`;
  let saved = [];
  try {
    saved = JSON.parse(sessionStorage.getItem(logKey) || "[]");
  } catch {
    saved = [];
  }
  const persist = () => sessionStorage.setItem(logKey, JSON.stringify(saved.slice(-200)));
  function addLine(text, type) {
    saved.push({ text, type });
    log.prepend(h("li", { dataset: { type } }, text));
    while (log.childElementCount > 200) log.lastChild.remove();
  }
  for (const line of saved.slice(-200))
    log.prepend(h("li", { dataset: { type: line.type } }, line.text));
  // emoticons, quick phrases and text (chat.js): bubbles by the seats, lines in the log
  const chat = new TableChat({
    board: boardWrap,
    slot: chatSlot,
    send: (m) => sock.send(m),
    name,
    seats: () => st.seats,
    log: (text) => {
      addLine(text, "chat");
      persist();
    },
  });
  function logEvents(events) {
    for (const e of events) {
      if (e.type === "answer") continue;
      addLine(mod.describeEvent(e, name), e.type);
    }
    persist();
  }

  function setTimers(msg) {
    // `timers` lists every seat being asked (protocol); `prompt` is this seat's own.
    const list = [...(msg.timers || [])];
    const p = msg.prompt;
    if (p && !list.some((x) => x.seat === p.seat))
      list.push({ seat: p.seat ?? st.seat, remaining_ms: p.remaining_ms });
    timers.set(list);
  }

  function showWaiting() {
    const w = st.status === "waiting" && !st.view && !firstPick.active;
    waiting.classList.toggle("hidden", !w);
    if (!w) return;
    const free = st.seats.filter((s) => s.kind === "human" && !s.username).length;
    // every seat taken but somebody's page is not connected: nobody is dealt a game
    // while away (the seat is given up after the grace)
    const away = st.seats.filter((s) => s.kind === "human" && s.username && !s.connected);
    const url = tableUrl();
    fill(
      waiting,
      h(
        "div.card-panel",
        {},
        h("h2", {}, t("table.waiting_title")),
        h("p", {}, t("table.waiting_body")),
        h("p.free", {}, t("table.waiting_seats", { n: free })),
        away.length
          ? h(
              "p.away",
              {},
              t("table.waiting_away", { names: away.map((s) => s.username).join(", ") }),
            )
          : null,
        h(
          "div.row",
          {},
          h("input.invite-url", {
            value: url,
            readonly: true,
            "aria-label": t("table.invite"),
            onfocus: (e) => e.target.select(),
          }),
          h("button", { type: "button", onclick: copyLink }, t("table.copy")),
        ),
      ),
    );
  }

  let nextTimer = 0;
  function nextLeft() {
    const r = st.result;
    if (!r?.next_deadline) return null;
    return Math.max(0, Math.ceil((r.next_deadline - Date.now()) / 1000));
  }
  function ready() {
    sock.ready();
    overlay.classList.add("hidden");
    nextBar.classList.add("hidden");
  }
  function paintNext() {
    const n = nextLeft();
    for (const b of document.querySelectorAll(".btn-next"))
      b.textContent = n === null ? t("table.next") : t("table.next_in", { s: n });
  }
  // the seat cannot be dealt the next game (too little money, a self-care limit): no 다음 판
  const shortHere = (r) => st.seat !== null && (r.short || []).some((x) => x.seat === st.seat);
  // who cannot be dealt the next game, and why: the next deal would close the table
  function shortNotice(r) {
    const short = r.short || [];
    if (!short.length) return null;
    return h(
      "div.short-notice",
      { "data-testid": "short", role: "status" },
      ...short.map((x) =>
        h(
          "p",
          {},
          x.seat === st.seat
            ? t("table.short_mine", { why: errorText(x) })
            : t("table.short_other", { name: name(x.seat), why: errorText(x) }),
        ),
      ),
      short.some((x) => x.seat === st.seat) ? link("/me", t("table.short_money"), "button") : null,
    );
  }
  function showNextBar() {
    const show = !!st.result && overlay.classList.contains("hidden") && st.status !== "closed";
    nextBar.classList.toggle("hidden", !show);
    if (!show) return;
    fill(
      nextBar,
      h("button.ghost", { type: "button", onclick: showResult }, t("table.show_result")),
      st.seat !== null && !st.result.match_over && !shortHere(st.result)
        ? h("button.primary.btn-next", { type: "button", onclick: ready }, t("table.next"))
        : null,
      st.result.game_id ? link(`/replay/${st.result.game_id}`, t("table.replay"), "button") : null,
    );
    paintNext();
  }

  function showResult() {
    const r = st.result;
    if (!r) {
      overlay.classList.add("hidden");
      showNextBar();
      return;
    }
    const winner = r.winner ?? st.view?.winner;
    const title =
      winner === null || winner === undefined
        ? t("table.nagari")
        : winner === st.seat
          ? t("table.win")
          : st.seat === null
            ? t("table.winner", { name: name(winner) })
            : t("table.lose");
    const pays = r.payments || [];
    // the points the title gives: the game's, or as the game's module reads them for this
    // seat (고스톱: what a loser paid, not what the winner took from both)
    const titlePoints = mod.titlePoints ? mod.titlePoints(r, st.seat) : r.points;
    const close = () => {
      overlay.classList.add("hidden");
      showNextBar();
    };
    fill(
      overlay,
      h(
        "div.card-panel.result",
        {},
        h("h2", {}, title, titlePoints ? t("table.points_title", { n: titlePoints }) : ""),
        mod.settlement(st.view, r, name),
        pays.length
          ? [
              h("h3", {}, t("table.settle")),
              h(
                "ul.payments",
                { "data-testid": "payments" },
                pays.map((p) => {
                  // as this seat sees it (U8): what it pays in red and signed −, what it
                  // gets signed +; a win paid by this seat reads as its loss
                  const sign = p.from === st.seat ? -1 : p.to === st.seat ? 1 : 0;
                  return h(
                    `li${sign < 0 ? ".minus" : sign > 0 ? ".plus" : ""}`,
                    { dataset: { from: p.from, to: p.to, points: p.points, reason: p.reason } },
                    t("table.pay_line", { from: name(p.from), to: name(p.to), points: p.points }),
                    p.amount !== undefined
                      ? h(
                          "span.amount",
                          {},
                          ` (${sign ? fmtAmount(sign * p.amount) : Math.abs(p.amount).toLocaleString("ko-KR")})`,
                        )
                      : "",
                    p.reason ? ` · ${payReason(p.reason, sign < 0, name(p.to))}` : "",
                    // 올인: the loser paid all they held, less than the points were worth
                    p.all_in
                      ? h(
                          "span.all-in",
                          { title: t("table.all_in_owed", { paid: p.amount, owed: p.owed }) },
                          ` ${t("table.all_in")}`,
                        )
                      : "",
                  );
                }),
              ),
            ]
          : h("p", {}, t("table.no_payment")),
        // this seat's money after the game (the server's figure), 올인 marked
        st.seat !== null && r.money?.[st.seat]?.balance !== undefined
          ? h(
              "p.money-after",
              { "data-testid": "money-after" },
              t("table.money_line", { n: r.money[st.seat].balance.toLocaleString("ko-KR") }),
              r.money[st.seat].all_in ? ` · ${t("table.all_in")}` : "",
            )
          : null,
        fairWatch.line(r),
        r.ratings && Object.keys(r.ratings).length
          ? h(
              "p.ratings",
              {},
              t("table.ratings"),
              ": ",
              Object.entries(r.ratings).map(([s, x]) =>
                h(
                  "span",
                  {},
                  t("table.rating_line", {
                    name: name(+s),
                    before: Math.round(x.before),
                    after: Math.round(x.after),
                  }),
                  " ",
                ),
              ),
            )
          : null,
        r.match_over ? h("p", {}, t("table.match_over")) : null,
        shortNotice(r),
        h(
          "div.row",
          {},
          st.seat !== null && !r.match_over && !shortHere(r)
            ? h(
                "button.primary.btn-next#btn-next",
                { type: "button", onclick: ready },
                t("table.next"),
              )
            : null,
          r.game_id ? link(`/replay/${r.game_id}`, t("table.replay"), "button") : null,
          link("/", t("table.to_lobby"), "button ghost"),
          h("button.ghost#btn-close", { type: "button", onclick: close }, t("table.close")),
        ),
      ),
    );
    overlay.classList.remove("hidden");
    nextBar.classList.add("hidden");
    paintNext();
    // focus the first button without scrolling to it: the sheet opens at its top (U7)
    const first = overlay.querySelector("button");
    if (first) first.focus({ preventScroll: true });
    const panel = overlay.querySelector(".result");
    if (panel) panel.scrollTop = 0;
  }
  nextTimer = setInterval(paintNext, 1000);

  function render() {
    showWaiting();
    paintAuto();
    if (!st.view) return;
    board.render({
      view: st.view,
      prompt: st.prompt,
      seat: st.seat,
      seats: st.seats,
      version: st.version,
      events: st.events,
    });
    captions.place();
    chat.place();
    toastClear();
  }

  /** A question of ours that the server answered when our time ran out (the update
   *  says so in `timeout`): say so. */
  function checkTimeout(_before, msg, past = false) {
    if (st.seat === null || msg.timeout !== st.seat) return;
    const mine =
      (msg.events || []).find((e) => e.seat === st.seat && e.type !== "answer") ||
      (msg.events || []).find((e) => e.seat === st.seat);
    const text = t("table.timeout", { move: mine ? mod.describeEvent(mine, name) : "" });
    if (!past) toast(text, "warn");
    addLine(text, "timeout");
    persist();
  }

  // A tab with no log of this table (a new tab, a reopened one) first replays the
  // updates the server still holds, into the log only (U11): those up to the version the
  // welcome names (later ones are news, played as they come); then it asks for a
  // snapshot, which draws the board with the timers as they are now (also when the
  // updates stop coming short of that version).
  let catchingUp = !saved.length;
  let catchUpTo = 0;
  let dealtAt = -1; // the version of the deal caught up on, while it is the last update
  let quiet = 0;
  const caughtUp = () => {
    clearTimeout(quiet);
    if (!catchingUp) return;
    catchingUp = false;
    sock.resync();
  };
  const caughtUpSoon = () => {
    clearTimeout(quiet);
    quiet = setTimeout(caughtUp, 120);
  };
  const fairWatch = new FairWatch((m) => sock.send(m)); // verifiable deals
  const sock = new TableSocket(tableId, {
    invite,
    fromStart: catchingUp,
    onStatus: (s) => {
      const c = head.querySelector(".conn");
      c.textContent =
        s === "open"
          ? t("table.open")
          : s === "connecting"
            ? t("table.connecting")
            : s === "gone"
              ? t("error.table_closed")
              : t("table.closed_conn");
      c.className = `conn ${s}`;
    },
    onMessage: (msg) => {
      switch (msg.type) {
        case "welcome":
          st.seat = msg.seat;
          fairWatch.seat = msg.seat;
          chat.setSeat(msg.seat);
          if (msg.table) {
            st.seats = msg.table.seats;
            st.status = msg.table.status;
          }
          if (catchingUp) {
            catchUpTo = msg.version || 0;
            if (catchUpTo <= (st.version || 0)) caughtUp();
            else caughtUpSoon();
          }
          break;
        case "snapshot": {
          catchingUp = false;
          fairWatch.seen(msg.fair);
          Object.assign(st, {
            view: msg.view,
            prompt: msg.prompt,
            version: msg.version,
            events: [],
            result: msg.result || null,
            game_no: msg.game_no,
            status: msg.status,
          });
          st.deadlineAt = msg.prompt ? Date.now() + msg.prompt.remaining_ms : 0;
          if (msg.seats) st.seats = msg.seats;
          firstPick.show(msg.view ? null : msg.first_pick, st.seat);
          // The deal is dealt before the player's eyes (and heard) when nothing happened
          // since: a table whose past this tab just caught up on up to its deal, or one
          // seen for the first time in this tab.
          const fresh = !saved.length;
          const justDealt = msg.view && (fresh || dealtAt === msg.version);
          dealtAt = -1;
          if (msg.view && fresh) {
            // A table seen for the first time in this tab: how the game began.
            addLine(t("table.game_no", { n: msg.game_no }), "game_no");
            for (const line of mod.intro(msg.view, name)) addLine(line, "intro");
            persist();
          }
          setTimers(msg);
          motion.capture(boardWrap);
          render();
          if (justDealt) {
            motion.update(game, boardWrap, [{ type: "deal" }], msg.view, st.seat);
            sound.update(game, [{ type: "deal" }], msg.view);
          }
          showResult();
          break;
        }
        case "update": {
          const before = {
            prompt: st.prompt,
            version: st.version,
            game_no: st.game_no,
            deadlineAt: st.deadlineAt,
          };
          if (msg.game_no !== st.game_no) {
            st.result = null;
            overlay.classList.add("hidden");
            nextBar.classList.add("hidden");
            addLine(t("table.game_no", { n: msg.game_no }), "game_no");
          }
          if (msg.fair) fairWatch.seen(msg.fair); // the deal's: the strings mixed in
          if (firstPick.active) firstPick.hide(); // dealt: 선 is chosen
          const firstView = !st.view;
          Object.assign(st, {
            view: msg.view,
            prompt: msg.prompt,
            version: msg.version,
            events: msg.events || [],
            game_no: msg.game_no,
            status: msg.result ? "between" : "playing",
          });
          st.deadlineAt = msg.prompt ? Date.now() + msg.prompt.remaining_ms : 0;
          if (msg.result) st.result = msg.result;
          if (firstView) {
            // the deal's own event, when this update has it, is logged below (U10)
            const dealt = (msg.events || []).some((e) => e.type === "deal");
            for (const line of mod.intro(msg.view, name, { deal: !dealt })) addLine(line, "intro");
          }
          if (catchingUp && msg.version <= catchUpTo) {
            // the past, into the log only: no toast, caption, sound or settlement for it
            if (msg.timeout === st.seat && st.seat !== null) checkTimeout(before, msg, true);
            logEvents(msg.events || []);
            dealtAt = (msg.events || []).some((e) => e.type === "deal") ? msg.version : -1;
            if (msg.version >= catchUpTo) caughtUp();
            else caughtUpSoon();
            break;
          }
          if (catchingUp) caughtUp(); // news: the past is all in
          checkTimeout(before, msg);
          logEvents(msg.events || []);
          captions.push((msg.events || []).flatMap((e) => mod.captions(e, name)));
          setTimers(msg);
          motion.capture(boardWrap); // where the cards were …
          render();
          // … and, on top of the board as drawn, where they went and what they sound like
          motion.update(game, boardWrap, msg.events || [], msg.view, st.seat);
          sound.update(game, msg.events || [], msg.view);
          if (msg.result) {
            showResult();
            getMe(true);
          }
          break;
        }
        case "seats":
          st.seats = msg.seats;
          motion.finishAll(); // the board is drawn anew: what flew lands at once
          render();
          chat.refresh();
          break;
        case "chat":
          chat.receive(msg);
          break;
        case "first_pick": // 선 뽑기: the face-down cards, the picks, the reveal
          firstPick.show(msg, st.seat);
          showWaiting();
          break;
        case "fair_commit": // the next deal's commitment, before any card of it
          fairWatch.seen(msg);
          break;
        case "closed": {
          // a table closed on a failure says which (settlement_failed: nobody paid)
          const text = msg.code ? errorText(msg) : t("error.table_closed");
          st.status = "closed";
          nextBar.classList.add("hidden");
          paintAuto();
          addLine(text, "closed");
          persist();
          toast(text, "error");
          break;
        }
        case "error":
          toast(errorText(msg), "error");
          break;
        default:
          break;
      }
    },
  });

  const onKey = (e) => {
    if (e.target.closest?.("input, select, textarea")) return;
    if (e.key === "Escape" && !overlay.classList.contains("hidden") && !st.prompt) {
      overlay.classList.add("hidden");
      showNextBar();
      return;
    }
    if (!overlay.classList.contains("hidden")) return;
    if (board.key(e)) e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  return {
    destroy() {
      document.removeEventListener("keydown", onKey);
      clearInterval(nextTimer);
      timers.stop();
      captions.stop();
      firstPick.hide();
      chat.destroy();
      sound.stopAll();
      motion.finishAll();
      clearTimeout(quiet);
      sock.close();
      board.destroy();
    },
  };
}
