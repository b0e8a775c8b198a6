// Lobby pages: sign in, tables (list, create, join, spectate), leaderboard, my ledger.
import { api, getMe } from "./api.js";
import { displayName, errorText, payReason, presetDesc, presetName, t } from "./i18n.js";
import { money, moneyPanel, selfcarePanel } from "./money.js";
import { distinctPresets, rulesBox, rulesCatalogue, rulesForm } from "./rules.js";
import { leftTables } from "./table.js";
import { clear, fmtAmount, fmtTime, go, h, link, toast } from "./util.js";

const NAME_RE = /^[\p{L}\p{N}_-]{3,20}$/u;

function afterLogin() {
  const next = new URLSearchParams(location.search).get("next");
  go(next?.startsWith("/") ? next : "/");
}

/** Checks the server would make, in words, before sending (the wire stays English). */
function localCheck(kind, username, password) {
  if (!NAME_RE.test(username)) return t("error.name_format");
  if (kind === "register" && /^(bot|guest)-/i.test(username)) return t("error.name_reserved");
  if (password.length < 6 || password.length > 200) return t("error.password_length");
  return "";
}

export async function loginPage(root, me) {
  const guest = !!me?.user?.guest;
  const name = h("input#login-name", {
    name: "username",
    autocomplete: "username",
    required: true,
    minlength: 3,
    maxlength: 20,
    placeholder: t("login.name"),
  });
  const pass = h("input#login-pass", {
    name: "password",
    type: "password",
    autocomplete: guest ? "new-password" : "current-password",
    required: true,
    minlength: 6,
    placeholder: t("login.password"),
  });
  const msg = h("p.form-error", { role: "alert" });
  async function submit(kind) {
    msg.textContent = "";
    const bad = localCheck(kind, name.value.trim(), pass.value);
    if (bad) {
      msg.textContent = bad;
      return;
    }
    try {
      await api.post(`/api/${kind}`, { username: name.value.trim(), password: pass.value });
      await getMe(true);
      afterLogin();
    } catch (e) {
      msg.textContent = errorText(e);
    }
  }
  const form = h(
    "form.card-panel.auth",
    {
      // our own Korean messages (localCheck), never the browser's bubble in its own
      // language (U20); the attributes stay as hints for password managers
      novalidate: true,
      onsubmit: (e) => {
        e.preventDefault();
        submit(guest ? "register" : "login");
      },
    },
    h("h1", {}, t("login.welcome")),
    h("p.sub", {}, guest ? t("login.guest_keep") : t("login.sub")),
    h("label", {}, t("login.name"), name),
    h("label", {}, t("login.password"), pass),
    msg,
    h(
      "div.row",
      {},
      guest ? null : h("button.primary#btn-login", { type: "submit" }, t("login.login")),
      h(
        `button${guest ? ".primary" : ""}#btn-register`,
        {
          type: "button",
          onclick: () => submit("register"),
        },
        t("login.register"),
      ),
    ),
    guest
      ? h("div.row", {}, link("/", t("login.back"), "button ghost"))
      : h(
          "div.row",
          {},
          h(
            "button.ghost#btn-guest",
            {
              type: "button",
              onclick: async () => {
                try {
                  await api.post("/api/guest");
                  await getMe(true);
                  afterLogin();
                } catch (e) {
                  msg.textContent = errorText(e);
                }
              },
            },
            t("login.guest"),
          ),
        ),
  );
  root.append(form);
  name.focus();
  return {};
}

function seatText(s) {
  if (s.kind === "bot")
    return `🤖 ${displayName(s.username) || t("lobby.bot", { level: t(`level.${s.level || "normal"}`) })}`;
  if (!s.username) return t("lobby.empty_seat");
  // a bot account (a program playing through the bot protocol) wears the bot badge too
  const badge = s.bot ? "🤖 " : "";
  return `${badge}${displayName(s.username)}${s.connected ? "" : ` ${t("lobby.disconnected")}`}`;
}

function tableRow(t_, me, left, rules) {
  const seatedHere = t_.seats.some((s) => s.username && me && s.username === me.user.username);
  const gone = t_.seats.some((s) => s.left && me && s.username === me.user.username);
  const mine = seatedHere && !gone && !left.has(t_.id);
  const free = t_.seats.some((s) => s.kind === "human" && !s.username);
  return h(
    "li.table-row",
    { dataset: { table: t_.id } },
    h(
      "div.t-title",
      {},
      `#${t_.id} ${t(`game.${t_.game}`)}`,
      h("span.tag", { title: presetDesc(t_.game, t_.preset) }, presetName(t_.game, t_.preset)),
      h("span.tag", {}, t("lobby.stake_tag", { n: t_.stake })),
      t_.entry
        ? h(
            "span.tag.entry",
            { dataset: { entry: t_.entry } },
            t("lobby.entry_tag", { n: money(t_.entry) }),
          )
        : null,
      t_.picking
        ? h("span.tag.picking", {}, t("status.picking"))
        : h(`span.tag.${t_.status}`, {}, t(`status.${t_.status}`)),
      seatedHere && !mine ? h("span.tag", {}, t("lobby.left")) : null,
    ),
    h(
      "div.t-seats",
      {},
      t_.seats.map((s) => h("span.seat", {}, seatText(s))),
    ),
    rulesBox(t_, rules, "table-rules"),
    h(
      "div.t-actions",
      {},
      mine ? link(`/table/${t_.id}`, t("lobby.back"), "button primary") : null,
      !seatedHere && free ? link(`/table/${t_.id}`, t("lobby.join"), "button primary") : null,
      !mine ? link(`/table/${t_.id}?watch=1`, t("lobby.watch"), "button") : null,
    ),
  );
}

function createForm(config, rules, me, onCreated) {
  const games = Object.keys(config.games);
  const game = h(
    "select#new-game",
    { name: "game" },
    games.map((g) => h("option", { value: g }, t(`game.${g}`))),
  );
  const preset = h("select#new-preset", { name: "preset" });
  const presetHelp = h("p.preset-desc", { "data-testid": "preset-desc", "aria-live": "polite" });
  const stake = h(
    "select#new-stake",
    { name: "stake" },
    config.stakes.map((s) => h("option", { value: s }, `${s}`)),
  );
  // what a table at this stake needs to sit down (the server checks it: not_enough_money)
  const entryHint = h("p.entry-hint#entry-hint", { "aria-live": "polite" });
  const showEntry = () => {
    const m = config.money?.entry_multiple;
    entryHint.textContent = m
      ? t("lobby.entry_hint", {
          n: money(+stake.value * m),
          m,
          free: money(me?.money?.free ?? me?.balance),
        })
      : "";
  };
  stake.addEventListener("change", showEntry);
  showEntry();
  const priv = h("input#new-private", { type: "checkbox" });
  const seatsBox = h("div.seat-choices");
  const optionsBox = h("div.rules-options");
  let options = null;
  const describe = () => {
    presetHelp.textContent = presetDesc(game.value, preset.value);
    if (options) options.setPreset(preset.value);
  };
  function refresh() {
    const g = config.games[game.value];
    clear(preset).append(
      ...distinctPresets(g.presets, rules?.[game.value]).map((p) =>
        h("option", { value: p }, presetName(game.value, p)),
      ),
    );
    options = rules?.[game.value] ? rulesForm(game.value, rules[game.value], drawSeats) : null;
    clear(optionsBox).append(options ? options.el : "");
    describe();
    drawSeats();
  }
  // a seat selector per seat of the rules chosen (고스톱's players: 3, or 4 with 광팔기)
  function drawSeats() {
    const g = config.games[game.value];
    const n = options?.values().players ?? g.seats;
    if (seatsBox.children.length === n && seatsBox.dataset.game === game.value) return;
    clear(seatsBox);
    seatsBox.dataset.game = game.value;
    // the levels this game has bots for
    const levels = g.bot_levels || config.bot_levels;
    for (let i = 0; i < n; i++) {
      const sel = h(
        "select",
        { "data-seat": i, "aria-label": t("lobby.seat", { n: i + 1 }) },
        i === 0
          ? h("option", { value: "human" }, t("lobby.me"))
          : h("option", { value: "human" }, t("lobby.human")),
        i === 0
          ? null
          : levels.map((l) =>
              h("option", { value: `bot:${l}` }, t("lobby.bot", { level: t(`level.${l}`) })),
            ),
      );
      if (i > 0) sel.value = `bot:${levels[0]}`;
      seatsBox.append(h("label.seat-choice", {}, t("lobby.seat", { n: i + 1 }), sel));
    }
  }
  game.addEventListener("change", refresh);
  preset.addEventListener("change", describe);
  refresh();
  const form = h(
    "form.card-panel#create-table",
    {
      onsubmit: async (e) => {
        e.preventDefault();
        const seats = [...seatsBox.querySelectorAll("select")].map((s) =>
          s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4) },
        );
        try {
          const changes = options ? options.changes() : {};
          const body = {
            game: game.value,
            preset: preset.value,
            stake: +stake.value,
            private: priv.checked,
            seats,
          };
          if (Object.keys(changes).length) body.rules = changes;
          const res = await api.post("/api/tables", body);
          onCreated(res);
        } catch (err) {
          toast(errorText(err), "error");
        }
      },
    },
    h("h2", {}, t("lobby.create")),
    h(
      "div.grid2",
      {},
      h("label", {}, t("lobby.game"), game),
      h("label", {}, t("lobby.preset"), preset),
      h("label", {}, t("lobby.stake"), stake),
      h("label.check", {}, priv, t("lobby.private")),
    ),
    entryHint,
    presetHelp,
    optionsBox,
    h("div.seats-label", {}, t("lobby.seats")),
    seatsBox,
    h("button.primary#btn-create", { type: "submit" }, t("lobby.make")),
  );
  return form;
}

/**
 * 빠른 시작 (quick match): a game, its rules (고스톱 of three, or of four with 광팔기 …) and
 * a stake, then wait — seated with whoever waits for the same, or with the computer after
 * the server's fill time. The request is one POST
 * that answers when the seat is taken; 취소 ends it (docs/protocol.md, Quick match).
 */
function quickPanel(config, rules, status) {
  const games = Object.keys(config.games);
  const game = h(
    "select#quick-game",
    { name: "game" },
    games.map((g) => h("option", { value: g }, t(`game.${g}`))),
  );
  const preset = h("select#quick-preset", { name: "preset" });
  const presets = () => {
    const names = distinctPresets(config.games[game.value].presets, rules?.[game.value]);
    clear(preset).append(...names.map((p) => h("option", { value: p }, presetName(game.value, p))));
  };
  presets();
  game.addEventListener("change", presets);
  const stake = h(
    "select#quick-stake",
    { name: "stake" },
    config.stakes.map((s) => h("option", { value: s }, t("lobby.stake_tag", { n: s }))),
  );
  const start = h("button.primary#btn-quick", { type: "submit" }, t("quick.start"));
  const elapsed = h("span#quick-elapsed", {}, "");
  const cancel = h("button#btn-quick-cancel", { type: "button" }, t("quick.cancel"));
  const waiting = h(
    "div.quick-wait#quick-wait",
    { hidden: true, role: "status", "aria-live": "polite" },
    h("span.spinner", { "aria-hidden": "true" }),
    h("span", {}, t("quick.waiting")),
    elapsed,
    cancel,
  );
  let since = 0;
  let clock = 0;
  let poll = 0;
  let alive = true;
  function show(on) {
    waiting.hidden = !on;
    start.disabled = on;
    game.disabled = on;
    preset.disabled = on;
    stake.disabled = on;
    clearInterval(clock);
    if (on) {
      since = performance.now();
      const tick = () => {
        elapsed.textContent = t("quick.seconds", {
          n: ((performance.now() - since) / 1000).toFixed(0),
        });
      };
      tick();
      clock = setInterval(tick, 500);
    }
  }
  async function ask() {
    show(true);
    try {
      const res = await api.post("/api/quick", {
        game: game.value,
        preset: preset.value,
        stake: +stake.value,
      });
      if (res.status === "seated") {
        show(false);
        go(`/table/${res.table.id}`);
        return;
      }
      if (alive) toast(t("quick.cancelled"));
    } catch (err) {
      if (alive) toast(errorText(err), "error");
    }
    if (alive) show(false);
  }
  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    try {
      // the waiting request answers 'cancelled' (or the seat, when it was too late)
      await api.post("/api/quick/cancel");
    } catch (err) {
      toast(errorText(err), "error");
    }
    cancel.disabled = false;
    if (poll) {
      clearInterval(poll);
      poll = 0;
      show(false);
    }
  });
  if (status?.queued) {
    // a request from before a reload is still waiting: show it until it ends
    game.value = status.queued.game;
    presets();
    preset.value = status.queued.preset;
    stake.value = `${status.queued.stake}`;
    show(true);
    since = performance.now() - status.queued.waited_s * 1000;
    poll = setInterval(async () => {
      try {
        if (!(await api.get("/api/quick")).queued) {
          clearInterval(poll);
          poll = 0;
          show(false);
        }
      } catch {
        /* try again */
      }
    }, 1000);
  }
  const el = h(
    "form.card-panel#quick-match",
    {
      onsubmit: (e) => {
        e.preventDefault();
        ask();
      },
    },
    h("h2", {}, t("quick.title")),
    h("p.sub", { "data-testid": "quick-help" }, t("quick.help", { n: status?.fill_seconds ?? 3 })),
    h(
      "div.grid2",
      {},
      h("label", {}, t("lobby.game"), game),
      h("label", {}, t("lobby.preset"), preset),
      h("label", {}, t("lobby.stake"), stake),
    ),
    h("div.row", {}, start),
    waiting,
  );
  return {
    el,
    destroy() {
      alive = false;
      clearInterval(clock);
      clearInterval(poll);
      // leaving the lobby while waiting gives the place in the queue up
      if (!waiting.hidden) api.post("/api/quick/cancel").catch(() => {});
    },
  };
}

export async function lobbyPage(root, me) {
  const [config, tables, rules, queued] = await Promise.all([
    api.get("/api/config"),
    api.get("/api/tables"),
    rulesCatalogue().catch(() => null),
    api.get("/api/quick").catch(() => null),
  ]);
  const quick = quickPanel(config, rules, queued);
  const list = h("ul.tables#table-list");
  function fill(ts) {
    const left = leftTables();
    // a rules box the player opened stays open when the list refreshes
    const open = new Set(
      [...list.querySelectorAll("li[data-table] details[open]")].map(
        (d) => d.closest("li").dataset.table,
      ),
    );
    clear(list);
    if (!ts.length) list.append(h("li.empty", {}, t("lobby.no_tables")));
    for (const x of ts) list.append(tableRow(x, me, left, rules));
    for (const d of list.querySelectorAll("li[data-table] details"))
      d.open = open.has(d.closest("li").dataset.table);
  }
  fill(tables.tables);
  const timer = setInterval(async () => {
    try {
      fill((await api.get("/api/tables")).tables);
    } catch {
      /* keep the old list */
    }
  }, 5000);
  root.append(
    h(
      "div.lobby",
      {},
      h(
        "section",
        {},
        quick.el,
        createForm(config, rules, me, (res) => {
          // A private table opens with its invite code; a public one needs none (D13).
          go(res.table.private ? res.invite_url : `/table/${res.table.id}`);
        }),
      ),
      h("section.card-panel", {}, h("h2", {}, t("lobby.open_tables")), list),
    ),
  );
  return {
    destroy: () => {
      clearInterval(timer);
      quick.destroy();
    },
  };
}

/** How sure a Glicko rating is, in words: its deviation (RD) as 높음 / 보통 / 낮음 (U17). */
function sureness(rd) {
  return t(rd <= 110 ? "rank.sure_high" : rd <= 200 ? "rank.sure_mid" : "rank.sure_low");
}

function nameCell(e) {
  return h("td", {}, e.bot ? `🤖 ${displayName(e.username)}` : displayName(e.username));
}

/** A bot's name on the ladder: its level in words (초급 …) or the name it was run as. */
function botLabel(name) {
  return ["easy", "normal", "hard"].includes(name) ? t(`level.${name}`) : name;
}

/** A signed number with a true minus sign, to `digits` decimals. */
function signed(x, digits) {
  const s = Math.abs(x).toFixed(digits);
  return x < 0 ? `−${s}` : `+${s}`;
}

/** The strength ladder of the computer players (`GET /api/ladder`, written by
 * `madang arena ladder GAME --publish`): a rating per bot and every pair's points and
 * wins, each with its 95% interval. */
function botLadderPanel(game, lad) {
  const panel = h(
    "section.card-panel#bot-ladder",
    { dataset: { game } },
    h("h2", {}, t("rank.bots_title")),
  );
  if (!lad) {
    panel.append(h("p.empty", {}, t("rank.bots_none")));
    return panel;
  }
  const ranked = [...lad.bots].sort(
    (a, b) => lad.points_ratings[b].points - lad.points_ratings[a].points,
  );
  const ci = (c, f) => (c ? `${f(c[0])} ~ ${f(c[1])}` : "");
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  panel.append(
    h(
      "table.list#bot-ratings",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, "#"),
          h("th", {}, t("rank.bots_bot")),
          h("th", {}, t("rank.rating")),
          h("th", {}, t("rank.bots_ci")),
          h("th", {}, t("rank.bots_points_rating")),
          h("th", {}, t("rank.bots_ci")),
        ),
      ),
      h(
        "tbody",
        {},
        ranked.map((b, i) =>
          h(
            "tr",
            {},
            h("td", {}, i + 1),
            h("td", {}, `🤖 ${botLabel(b)}`),
            h("td", {}, signed(lad.ratings[b].elo, 0)),
            h(
              "td",
              {},
              ci(lad.ratings[b].ci95, (x) => signed(x, 0)),
            ),
            h("td", {}, signed(lad.points_ratings[b].points, 2)),
            h(
              "td",
              {},
              ci(lad.points_ratings[b].ci95, (x) => signed(x, 2)),
            ),
          ),
        ),
      ),
    ),
    h(
      "table.list#bot-pairs",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("rank.bots_a")),
          h("th", {}, t("rank.bots_b")),
          h("th", {}, t("rank.bots_points")),
          h("th", {}, t("rank.bots_ci")),
          h("th", {}, t("rank.bots_winrate")),
          h("th", {}, t("rank.bots_ci")),
        ),
      ),
      h(
        "tbody",
        {},
        lad.pairs.map((p) =>
          h(
            "tr",
            {},
            h("td", {}, botLabel(p.a)),
            h("td", {}, botLabel(p.b)),
            h(`td.${p.points >= 0 ? "plus" : "minus"}`, {}, signed(p.points, 2)),
            h(
              "td",
              {},
              ci(p.points_ci95, (x) => signed(x, 2)),
            ),
            h("td", {}, p.win_rate === null ? "" : pct(p.win_rate)),
            h("td", {}, ci(p.win_rate_ci95, pct)),
          ),
        ),
      ),
    ),
    h(
      "p.rank-note",
      { "data-testid": "bot-ladder-note" },
      t(lad.seats > 2 ? "rank.bots_note_field" : "rank.bots_note", {
        games: lad.games_per_pair,
        ms: lad.budget.ms ?? "-",
        date: lad.finished.slice(0, 10),
      }),
    ),
  );
  return panel;
}

/** This week's game money won (since Monday 00:00 UTC), then the rating ladder, each
 * with what it means in plain words (U17). */
export async function leaderboardPage(root) {
  const box = h("div.rankings");
  const tabs = h("div.tabs");
  root.append(h("h1", {}, t("rank.title")), tabs, box);
  async function show(game) {
    for (const b of tabs.querySelectorAll("button"))
      b.classList.toggle("on", b.dataset.game === game);
    const [week, data, bots] = await Promise.all([
      api.get(`/api/ranking/week?game=${game}&limit=50`),
      api.get(`/api/leaderboard?game=${game}&limit=50`),
      api.get(`/api/ladder?game=${game}`),
    ]);
    const weekPanel = h(
      "section.card-panel#week-panel",
      {},
      h("h2", {}, t("rank.week_title")),
      h(
        "p.rank-period",
        { "data-testid": "week-period" },
        t("rank.week_period", {
          // the week's days in UTC (Monday to Sunday), as the note explains
          from: week.since.slice(0, 10),
          to: new Date(Date.parse(week.until) - 86_400_000).toISOString().slice(0, 10),
        }),
      ),
      h(
        "table.list#week-ranking",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, "#"),
            h("th", {}, t("rank.name")),
            h("th", {}, t("rank.won")),
            h("th", {}, t("rank.week_games")),
          ),
        ),
        h(
          "tbody",
          {},
          week.entries.map((e) =>
            h(
              "tr",
              {},
              h("td", {}, e.rank),
              nameCell(e),
              h(`td.${e.won >= 0 ? "plus" : "minus"}`, {}, fmtAmount(e.won)),
              h("td", {}, e.games),
            ),
          ),
        ),
      ),
      week.entries.length ? null : h("p.empty", {}, t("rank.week_none")),
      h("p.rank-note", { "data-testid": "week-note" }, t("rank.week_note", { n: week.min_games })),
    );
    const ladder = h(
      "section.card-panel#ladder-panel",
      {},
      h("h2", {}, t("rank.ladder_title")),
      h(
        "table.list#leaderboard",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, "#"),
            h("th", {}, t("rank.name")),
            h("th", {}, t("rank.rating")),
            game === "matgo" ? h("th", {}, t("rank.rd")) : null,
            h("th", {}, t(game === "mahjong" ? "rank.matches" : "rank.games")),
          ),
        ),
        h(
          "tbody",
          {},
          data.entries.map((e) =>
            h(
              "tr",
              {},
              h("td", {}, e.rank),
              nameCell(e),
              h("td", {}, Math.round(e.rating)),
              game === "matgo" ? h("td", {}, e.rd !== undefined ? sureness(e.rd) : "") : null,
              h("td", {}, e.games),
            ),
          ),
        ),
      ),
      data.entries.length ? null : h("p.empty", {}, t("rank.none")),
      h(
        "p.rank-note",
        { "data-testid": "rank-note" },
        t(`rank.note_${game}`, { n: data.min_games }),
      ),
    );
    clear(box).append(weekPanel, ladder, botLadderPanel(game, bots.games[game]));
  }
  const config = await api.get("/api/config");
  for (const g of Object.keys(config.games))
    tabs.append(
      h("button", { type: "button", dataset: { game: g }, onclick: () => show(g) }, t(`game.${g}`)),
    );
  await show("matgo");
  return {};
}

export async function mePage(root, me) {
  const [ledger, games, config] = await Promise.all([
    api.get("/api/ledger?limit=50"),
    api.get("/api/games?limit=30"),
    api.get("/api/config"),
  ]);
  const r = me.ratings || {};
  root.append(
    h("h1", {}, t("me.title", { name: displayName(me.user.username) })),
    h(
      "div.stats",
      {},
      h(
        "div.stat",
        {},
        h("b#my-balance", {}, money(ledger.balance)),
        h("span", {}, t("me.balance")),
      ),
      Object.keys(config.games).map((g) =>
        r[g]
          ? h(
              "div.stat",
              { dataset: { game: g } },
              h("b", {}, Math.round(r[g].rating)),
              h("span", {}, t("me.rating", { game: t(`game.${g}`), n: r[g].games })),
            )
          : null,
      ),
    ),
    moneyPanel(),
    selfcarePanel(config),
    h(
      "section.card-panel",
      {},
      h("h2", {}, t("me.ledger")),
      ledger.entries.length
        ? h(
            "table.list#ledger",
            {},
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", {}, t("me.when")),
                h("th", {}, t("me.game")),
                h("th", {}, t("me.counterparty")),
                h("th", {}, t("me.reason")),
                h("th", {}, t("me.points")),
                h("th", {}, t("me.amount")),
              ),
            ),
            h(
              "tbody",
              {},
              ledger.entries.map((e) =>
                h(
                  "tr",
                  { dataset: { game: e.game_id } },
                  h("td", {}, fmtTime(e.at)),
                  h("td", {}, e.game_id ? link(`/replay/${e.game_id}`, `#${e.game_id}`) : "—"),
                  h("td", {}, displayName(e.counterparty || "")),
                  h("td", {}, payReason(e.reason, e.amount < 0)),
                  h("td", {}, e.points),
                  h(`td.${e.amount >= 0 ? "plus" : "minus"}`, {}, fmtAmount(e.amount)),
                ),
              ),
            ),
          )
        : h("p.empty", {}, t("me.no_ledger")),
    ),
    h(
      "section.card-panel",
      {},
      h("h2", {}, t("me.history")),
      games.games.length
        ? h(
            "table.list#history",
            {},
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", {}, t("me.game")),
                h("th", {}, t("me.kind")),
                h("th", {}, t("me.players")),
                h("th", {}, t("me.result")),
                h("th", {}, h("span.sr-only", {}, t("me.replay"))),
              ),
            ),
            h(
              "tbody",
              {},
              games.games.map((g) =>
                h(
                  "tr",
                  {},
                  h("td", {}, `#${g.id}`),
                  h("td", {}, `${t(`game.${g.game}`)} · ${presetName(g.game, g.preset)}`),
                  h("td", {}, g.players.map(displayName).join(", ")),
                  h(
                    "td",
                    {},
                    g.status === "aborted"
                      ? t("me.aborted")
                      : g.winner === null || g.winner === undefined
                        ? t("me.nagari")
                        : t("me.won", { name: displayName(g.players[g.winner]), n: g.points }),
                  ),
                  h(
                    "td",
                    {},
                    g.status === "finished"
                      ? link(`/replay/${g.id}`, t("me.replay"), "button small")
                      : "",
                  ),
                ),
              ),
            ),
          )
        : h("p.empty", {}, t("me.no_history")),
    ),
    accountPanel(),
  );
  return {};
}

/** Log out of every device (a phone left logged in, a shared computer): every session
 * of the account ends, this one included. */
function accountPanel() {
  return h(
    "section.card-panel#account",
    {},
    h("h2", {}, t("me.account")),
    h("p", {}, t("me.logout_everywhere_help")),
    h(
      "button#btn-logout-everywhere",
      {
        type: "button",
        onclick: async () => {
          if (!confirm(t("me.logout_everywhere_confirm"))) return;
          try {
            const r = await api.post("/api/logout", { everywhere: true });
            toast(t("me.logged_out_everywhere", { n: r.ended }));
          } catch (err) {
            toast(errorText(err), "error");
            return;
          }
          await getMe(true);
          go("/login");
        },
      },
      t("me.logout_everywhere"),
    ),
  );
}
