// The deal statistics page (/stats): GET /api/stats/deals as tables — per statistic
// the observed counts, the expected counts (exact theory or simulation) and the χ²
// p-value (docs/deal-stats.md). Read-only; the server caches the computation.
import { api } from "./api.js";
import { currentLang, t } from "./i18n.js";
import { h } from "./util.js";

const CATEGORY_KEYS = new Set([
  "none",
  "seon",
  "other",
  "both",
  "four_on_floor",
  "two_chongtong",
  "nagari",
  "east",
  "south",
  "west",
  "north",
  "wall",
  "no",
  "yes",
  "bonus",
]);

function category(c) {
  return CATEGORY_KEYS.has(c) ? t(`stats.cat.${c}`) : c;
}

function pValue(p) {
  if (p === null || p === undefined) return "—";
  return p >= 1e-4 ? p.toPrecision(3) : p.toExponential(1);
}

function sourceText(s) {
  if (s.source === "exact") return t("stats.source.exact");
  if (s.source === "simulation") return t("stats.source.simulation", { n: s.simulated });
  return t("stats.source.self_play", { n: s.simulated });
}

function statisticTable(s) {
  const title = currentLang() === "ko" ? s.title_ko : s.title;
  return h(
    "section.stat",
    { dataset: { stat: s.name } },
    h("h3", {}, title, s.flagged ? h("span.flag", {}, ` ⚠ ${t("stats.flag")}`) : null),
    h(
      "p.meta",
      {},
      sourceText(s),
      " · ",
      s.p_value === null
        ? t("stats.untested")
        : s.test === "chi2"
          ? t("stats.test", { stat: s.statistic ?? "—", dof: s.dof, p: pValue(s.p_value) })
          : t(`stats.test.${s.test}`, { p: pValue(s.p_value) }),
    ),
    h(
      "table.list",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("stats.category")),
          h("th", {}, t("stats.observed")),
          h("th", {}, t("stats.expected")),
        ),
      ),
      h(
        "tbody",
        {},
        s.categories.map((c, i) =>
          h(
            "tr",
            {},
            h("td", {}, category(c)),
            h("td", {}, s.observed[i]),
            h("td", {}, s.expected[i].toFixed(1)),
          ),
        ),
      ),
    ),
  );
}

export async function statsPage(root) {
  // the server answers {"status": "computing"} until its first result is ready
  let data = await api.get("/api/stats/deals");
  if (data.status === "computing") {
    const wait = h("p.meta#stats-computing", {}, t("stats.computing"));
    root.append(h("h1", {}, t("stats.title")), wait);
    while (data.status === "computing") {
      await new Promise((r) => setTimeout(r, 1000 * (data.retry_s || 2)));
      if (!wait.isConnected) return {};
      data = await api.get("/api/stats/deals");
    }
    root.replaceChildren();
  }
  root.append(
    h("h1", {}, t("stats.title")),
    h("p.intro", {}, t("stats.intro", { alpha: data.alpha })),
    h("p.meta", {}, t("stats.computed", { at: data.computed_at, s: data.seconds })),
  );
  for (const [game, r] of Object.entries(data.games)) {
    const panel = h(
      "div.card-panel.deal-stats",
      { dataset: { game } },
      h("h2", {}, t(`game.${game}`)),
      h(
        "p.meta",
        {},
        t("stats.counted", { n: r.games, skipped: r.skipped, unreadable: r.unreadable }),
      ),
      h(
        "p",
        { class: r.flagged.length ? "error" : "ok" },
        r.flagged.length
          ? t("stats.flagged", { alpha: data.alpha, n: r.flagged.length })
          : t("stats.none_flagged", { alpha: data.alpha }),
      ),
      r.statistics.map(statisticTable),
    );
    root.append(panel);
  }
  return {};
}
