// Madang browser client: the router. Pages: lobby (/), table (/table/ID), replay
// (/replay/ID), leaderboard, deal statistics (/stats), my ledger and history (/me),
// login (/login).
import { api, getMe } from "./js/api.js";
import {
  currentLang,
  displayName,
  errorText,
  LANGS,
  loadCatalogue,
  setLang,
  t,
} from "./js/i18n.js";
import { leaderboardPage, lobbyPage, loginPage, mePage } from "./js/lobby.js";
import { replayPage } from "./js/replay.js";
import { statsPage } from "./js/stats.js";
import { tablePage } from "./js/table.js";
import { clear, go, h, toast } from "./js/util.js";

const app = document.getElementById("app");
let current = null; // { destroy() } of the page on screen

function renderWho(me) {
  const who = clear(document.getElementById("who"));
  const lang = h(
    "select#lang",
    {
      "aria-label": t("app.lang"),
      onchange: async (e) => {
        await setLang(e.target.value);
        location.reload();
      },
    },
    LANGS.map((l) =>
      h("option", { value: l, selected: l === currentLang() }, l === "ko" ? "한국어" : "English"),
    ),
  );
  if (me?.user) {
    const u = me.user;
    who.append(
      ...[
        h(
          "span.user",
          { "data-testid": "username" },
          displayName(u.username),
          u.guest ? ` ${t("who.guest")}` : "",
        ),
        h(
          "span.balance",
          { "data-testid": "balance" },
          t("who.money", { n: (me.balance ?? 0).toLocaleString("ko-KR") }),
        ),
        // A guest may register and keep its record (D17).
        u.guest ? h("a#nav-register", { href: "/login", "data-nav": "" }, t("who.register")) : null,
        h(
          "button.link",
          {
            type: "button",
            onclick: async () => {
              await api.post("/api/logout").catch(() => {});
              await getMe(true);
              go("/login");
            },
          },
          t("who.logout"),
        ),
      ].filter(Boolean),
    );
  } else {
    who.append(h("a", { href: "/login", "data-nav": "" }, t("who.login")));
  }
  who.append(lang);
}
window.addEventListener("madang:me", (e) => renderWho(e.detail));

async function route() {
  if (current?.destroy) current.destroy();
  current = null;
  clear(app);
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  try {
    const me0 = getMe().catch(() => null);
    const replayId = /^\/replay\/(\d+)\/?$/.exec(path);
    if (replayId) {
      await me0;
      current = await replayPage(app, +replayId[1]);
      return;
    }
    if (path === "/leaderboard") {
      await me0;
      current = await leaderboardPage(app);
      return;
    }
    if (path === "/stats") {
      await me0;
      current = await statsPage(app);
      return;
    }
    const me = await getMe();
    const tableId = /^\/table\/(\d+)\/?$/.exec(path);
    if (tableId) {
      current = await tablePage(app, +tableId[1], params.get("invite"), me);
    } else if (path === "/login") {
      current = await loginPage(app, me);
    } else if (path === "/me") {
      current = me ? await mePage(app, me) : await loginPage(app, me);
    } else {
      current = me ? await lobbyPage(app, me) : await loginPage(app, me);
    }
  } catch (e) {
    const text = e.code ? errorText(e) : t("error.unknown");
    app.append(
      h(
        "div.card-panel.error-page",
        {},
        h("p.error", {}, t("app.error", { message: text })),
        h("a.button", { href: "/", "data-nav": "" }, t("table.to_lobby")),
      ),
    );
    toast(text, "error");
  }
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-nav]");
  if (!a || e.metaKey || e.ctrlKey) return;
  e.preventDefault();
  go(a.getAttribute("href"));
});
window.addEventListener("popstate", route);
window.addEventListener("madang:navigate", route);

(async () => {
  await loadCatalogue();
  for (const a of document.querySelectorAll("[data-i18n]")) a.textContent = t(a.dataset.i18n);
  document.getElementById("nav").setAttribute("aria-label", t("nav.menu"));
  route();
})();
