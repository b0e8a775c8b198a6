// Madang browser client: the router. Pages: lobby (/), table (/table/ID), replay
// (/replay/ID), leaderboard, my ledger and history (/me), login (/login).
import { getMe, api } from "./js/api.js";
import { h, clear, go, toast } from "./js/util.js";
import { lobbyPage, loginPage, leaderboardPage, mePage } from "./js/lobby.js";
import { tablePage } from "./js/table.js";
import { replayPage } from "./js/replay.js";

const app = document.getElementById("app");
let current = null; // { destroy() } of the page on screen

function renderWho(me) {
  const who = clear(document.getElementById("who"));
  if (me && me.user) {
    const u = me.user;
    who.append(
      h("span.user", { "data-testid": "username" }, u.username, u.guest ? " (손님)" : ""),
      h("span.balance", { "data-testid": "balance" }, `${me.balance ?? 0}점`),
      h("button.link", {
        onclick: async () => {
          await api.post("/api/logout").catch(() => {});
          await getMe(true);
          go("/login");
        },
      }, "로그아웃"),
    );
  } else {
    who.append(h("a", { href: "/login", "data-nav": "" }, "로그인"));
  }
}
window.addEventListener("madang:me", (e) => renderWho(e.detail));

async function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  clear(app);
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  let m;
  try {
    const me0 = getMe().catch(() => null);
    if ((m = /^\/replay\/(\d+)\/?$/.exec(path))) {
      await me0;
      current = await replayPage(app, +m[1]);
      return;
    }
    if (path === "/leaderboard") {
      await me0;
      current = await leaderboardPage(app);
      return;
    }
    const me = await getMe();
    if ((m = /^\/table\/(\d+)\/?$/.exec(path))) {
      current = await tablePage(app, +m[1], params.get("invite"), me);
    } else if (path === "/login") {
      current = await loginPage(app, me);
    } else if (path === "/me") {
      current = me ? await mePage(app, me) : await loginPage(app, me);
    } else {
      current = me ? await lobbyPage(app, me) : await loginPage(app, me);
    }
  } catch (e) {
    app.append(h("p.error", {}, `오류: ${e.message}`));
    toast(e.message, "error");
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
route();
