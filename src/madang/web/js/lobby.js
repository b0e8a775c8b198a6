// Lobby pages: sign in, tables (list, create, join, spectate), leaderboard, my ledger.
import { api, getMe } from "./api.js";
import { h, clear, go, link, toast, fmtAmount, fmtTime } from "./util.js";

const GAME_KO = { matgo: "맞고", mahjong: "마작" };
const LEVEL_KO = { easy: "초급", normal: "중급", hard: "고급" };
const STATUS_KO = { waiting: "대기 중", playing: "게임 중", between: "다음 판 대기", closed: "닫힘" };

function afterLogin() {
  const next = new URLSearchParams(location.search).get("next");
  go(next && next.startsWith("/") ? next : "/");
}

export async function loginPage(root) {
  const name = h("input#login-name", { name: "username", autocomplete: "username", required: true, minlength: 3, maxlength: 20, placeholder: "아이디" });
  const pass = h("input#login-pass", { name: "password", type: "password", autocomplete: "current-password", required: true, minlength: 6, placeholder: "비밀번호" });
  const msg = h("p.form-error", { role: "alert" });
  async function submit(kind) {
    msg.textContent = "";
    try {
      await api.post(`/api/${kind}`, { username: name.value.trim(), password: pass.value });
      await getMe(true);
      afterLogin();
    } catch (e) {
      msg.textContent = e.code === "throttled" ? `잠시 후 다시 시도하세요 (${e.extra.retry_after ?? "?"}초)` : e.message;
    }
  }
  const form = h("form.card-panel.auth", { onsubmit: (e) => { e.preventDefault(); submit("login"); } },
    h("h1", {}, "마당에 오신 것을 환영합니다"),
    h("p.sub", {}, "맞고와 마작을 컴퓨터나 다른 사람과 둡니다."),
    h("label", {}, "아이디", name),
    h("label", {}, "비밀번호", pass),
    msg,
    h("div.row",
      {},
      h("button.primary#btn-login", { type: "submit" }, "로그인"),
      h("button#btn-register", { type: "button", onclick: () => { if (form.reportValidity()) submit("register"); } }, "회원가입"),
    ),
    h("div.row", {},
      h("button.ghost#btn-guest", { type: "button", onclick: async () => {
        try { await api.post("/api/guest"); await getMe(true); afterLogin(); } catch (e) { msg.textContent = e.message; }
      } }, "손님으로 하기")),
  );
  root.append(form);
  name.focus();
  return {};
}

function seatText(s) {
  if (s.kind === "bot") return `🤖 ${s.username || "컴퓨터"}`;
  return s.username ? `${s.username}${s.connected ? "" : " (접속 끊김)"}` : "빈 자리";
}

function tableRow(t, me) {
  const mine = t.seats.some((s) => s.username && me && s.username === me.user.username);
  const free = t.seats.some((s) => s.kind === "human" && !s.username);
  return h("li.table-row", { dataset: { table: t.id } },
    h("div.t-title", {}, `#${t.id} ${GAME_KO[t.game] || t.game}`, h("span.tag", {}, t.preset), h("span.tag", {}, `판돈 ${t.stake}`),
      h("span.tag." + t.status, {}, STATUS_KO[t.status] || t.status)),
    h("div.t-seats", {}, t.seats.map((s) => h("span.seat", {}, seatText(s)))),
    h("div.t-actions", {},
      mine ? link(`/table/${t.id}`, "돌아가기", "button primary") : null,
      !mine && free ? link(`/table/${t.id}`, "참가", "button primary") : null,
      !mine ? link(`/table/${t.id}?watch=1`, "관전", "button") : null,
    ),
  );
}

function createForm(config, onCreated) {
  const games = Object.keys(config.games);
  const game = h("select#new-game", { name: "game" }, games.map((g) => h("option", { value: g }, GAME_KO[g] || g)));
  const preset = h("select#new-preset", { name: "preset" });
  const stake = h("select#new-stake", { name: "stake" }, config.stakes.map((s) => h("option", { value: s }, `${s}`)));
  const priv = h("input#new-private", { type: "checkbox" });
  const seatsBox = h("div.seat-choices");
  const levels = config.bot_levels;
  function refresh() {
    const g = config.games[game.value];
    clear(preset).append(...g.presets.map((p) => h("option", { value: p }, p)));
    clear(seatsBox);
    for (let i = 0; i < g.seats; i++) {
      const sel = h("select", { "data-seat": i, "aria-label": `자리 ${i + 1}` },
        i === 0 ? h("option", { value: "human" }, "나") : h("option", { value: "human" }, "사람"),
        i === 0 ? null : levels.map((l) => h("option", { value: "bot:" + l, selected: l === levels[0] && true }, `컴퓨터 ${LEVEL_KO[l] || l}`)));
      if (i > 0) sel.value = "bot:" + levels[0];
      seatsBox.append(h("label.seat-choice", {}, `자리 ${i + 1}`, sel));
    }
  }
  game.addEventListener("change", refresh);
  refresh();
  const form = h("form.card-panel#create-table", { onsubmit: async (e) => {
    e.preventDefault();
    const seats = [...seatsBox.querySelectorAll("select")].map((s) =>
      s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4) });
    try {
      const res = await api.post("/api/tables", { game: game.value, preset: preset.value, stake: +stake.value, private: priv.checked, seats });
      onCreated(res);
    } catch (err) { toast(err.message, "error"); }
  } },
    h("h2", {}, "새 판 만들기"),
    h("div.grid2", {},
      h("label", {}, "게임", game),
      h("label", {}, "규칙", preset),
      h("label", {}, "판돈 (점당)", stake),
      h("label.check", {}, priv, "비공개 (초대 링크)")),
    h("div.seats-label", {}, "자리"),
    seatsBox,
    h("button.primary#btn-create", { type: "submit" }, "만들기"),
  );
  return form;
}

export async function lobbyPage(root, me) {
  const [config, tables] = await Promise.all([api.get("/api/config"), api.get("/api/tables")]);
  const list = h("ul.tables#table-list");
  function fill(ts) {
    clear(list);
    if (!ts.length) list.append(h("li.empty", {}, "열린 판이 없습니다. 새 판을 만드세요."));
    ts.forEach((t) => list.append(tableRow(t, me)));
  }
  fill(tables.tables);
  const timer = setInterval(async () => {
    try { fill((await api.get("/api/tables")).tables); } catch (e) { /* keep the old list */ }
  }, 5000);
  const invite = h("div.invite");
  root.append(h("div.lobby", {},
    h("section", {}, createForm(config, (res) => {
      if (res.table.private) {
        const url = location.origin + res.invite_url;
        clear(invite).append(h("p", {}, "초대 링크: ", h("input.invite-url", { value: url, readonly: true, onfocus: (e) => e.target.select() })));
      }
      go(res.invite_url || `/table/${res.table.id}`);
    }), invite),
    h("section.card-panel", {}, h("h2", {}, "열린 판"), list),
  ));
  return { destroy: () => clearInterval(timer) };
}

export async function leaderboardPage(root) {
  const box = h("div.card-panel");
  const tabs = h("div.tabs");
  root.append(h("h1", {}, "순위"), tabs, box);
  async function show(game) {
    tabs.querySelectorAll("button").forEach((b) => b.classList.toggle("on", b.dataset.game === game));
    const data = await api.get(`/api/leaderboard?game=${game}&limit=50`);
    clear(box).append(h("table.list#leaderboard", {},
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "이름"), h("th", {}, "점수"), game === "matgo" ? h("th", {}, "RD") : null, h("th", {}, "판"))),
      h("tbody", {}, data.entries.map((e) => h("tr", {},
        h("td", {}, e.rank), h("td", {}, e.bot ? `🤖 ${e.username}` : e.username), h("td", {}, Math.round(e.rating)),
        game === "matgo" ? h("td", {}, e.rd !== undefined ? Math.round(e.rd) : "") : null, h("td", {}, e.games)))),
    ));
    if (!data.entries.length) box.append(h("p.empty", {}, "아직 순위가 없습니다."));
  }
  for (const g of ["matgo", "mahjong"]) tabs.append(h("button", { dataset: { game: g }, onclick: () => show(g) }, GAME_KO[g]));
  await show("matgo");
  return {};
}

export async function mePage(root, me) {
  const [ledger, games] = await Promise.all([api.get("/api/ledger?limit=50"), api.get("/api/games?limit=30")]);
  const r = me.ratings || {};
  root.append(
    h("h1", {}, `${me.user.username}의 기록`),
    h("div.stats", {},
      h("div.stat", {}, h("b#my-balance", {}, fmtAmount(ledger.balance)), h("span", {}, "잔고")),
      r.matgo ? h("div.stat", {}, h("b", {}, Math.round(r.matgo.rating)), h("span", {}, `맞고 (${r.matgo.games}판)`)) : null,
      r.mahjong ? h("div.stat", {}, h("b", {}, Math.round(r.mahjong.rating)), h("span", {}, `마작 (${r.mahjong.games}판)`)) : null),
    h("section.card-panel", {}, h("h2", {}, "장부"),
      ledger.entries.length
        ? h("table.list#ledger", {}, h("thead", {}, h("tr", {}, h("th", {}, "때"), h("th", {}, "판"), h("th", {}, "상대"), h("th", {}, "사유"), h("th", {}, "점"), h("th", {}, "금액"))),
          h("tbody", {}, ledger.entries.map((e) => h("tr", { dataset: { game: e.game_id } },
            h("td", {}, fmtTime(e.at)), h("td", {}, link(`/replay/${e.game_id}`, `#${e.game_id}`)), h("td", {}, e.counterparty || ""),
            h("td", {}, e.reason), h("td", {}, e.points), h("td." + (e.amount >= 0 ? "plus" : "minus"), {}, fmtAmount(e.amount))))))
        : h("p.empty", {}, "아직 정산된 판이 없습니다.")),
    h("section.card-panel", {}, h("h2", {}, "지난 판"),
      games.games.length
        ? h("table.list#history", {}, h("thead", {}, h("tr", {}, h("th", {}, "판"), h("th", {}, "게임"), h("th", {}, "참가자"), h("th", {}, "결과"), h("th", {}, ""))),
          h("tbody", {}, games.games.map((g) => h("tr", {},
            h("td", {}, `#${g.id}`), h("td", {}, `${GAME_KO[g.game] || g.game} · ${g.preset}`), h("td", {}, g.players.join(", ")),
            h("td", {}, g.status === "aborted" ? "중단" : g.winner === null || g.winner === undefined ? "나가리" : `${g.players[g.winner]} ${g.points}점`),
            h("td", {}, g.status === "finished" ? link(`/replay/${g.id}`, "다시 보기", "button small") : "")))))
        : h("p.empty", {}, "아직 끝난 판이 없습니다.")),
  );
  return {};
}
