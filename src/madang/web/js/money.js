// Game money and self-care on the player's page (/me): the bankroll with the daily
// refill, and the limits the player sets on themselves (자기 보호). The server decides
// everything; this page shows what it says and sends what the player sets.
import { api, getMe } from "./api.js";
import { errorText, t } from "./i18n.js";
import { fill, fmtTime, h, toast } from "./util.js";

/** A money amount as the page writes it (no sign). */
export function money(n) {
  return (n ?? 0).toLocaleString("ko-KR");
}

/** The bankroll: what one holds, what open tables hold back, and the refill. */
export function moneyPanel() {
  const box = h("section.card-panel#money", { "aria-live": "polite" });
  async function show() {
    let m;
    try {
      m = await api.get("/api/money");
    } catch (e) {
      fill(box, h("p.error", {}, errorText(e)));
      return;
    }
    const r = m.refill;
    const refill = h(
      "button#btn-refill",
      {
        type: "button",
        disabled: !r.available,
        onclick: async () => {
          try {
            const got = await api.post("/api/money/refill", {});
            toast(t("me.refill_done", { n: money(got.refilled) }));
            await getMe(true);
          } catch (e) {
            toast(errorText(e), "error");
          }
          await show();
        },
      },
      t("me.refill"),
    );
    fill(
      box,
      h("h2", {}, t("me.money")),
      h(
        "p.money-now",
        {},
        h("b#money-balance", {}, money(m.balance)),
        " · ",
        h(
          "span#money-free",
          {},
          t("me.free", { free: money(m.free), reserved: money(m.reserved) }),
        ),
      ),
      h("p.help", {}, t("me.money_help")),
      h("p.help", {}, t("me.refill_help", { floor: money(r.floor), zone: m.day_zone })),
      h(
        "div.row",
        {},
        refill,
        h(
          "span#refill-state",
          {},
          r.taken_today
            ? t("me.refill_taken", { at: fmtTime(r.next_at) })
            : r.available
              ? ""
              : t("me.refill_not_needed", { floor: money(r.floor) }),
        ),
      ),
    );
  }
  show();
  return box;
}

function limitRow(kind, s, onSet) {
  const x = s[kind];
  const play = kind === "play_minutes";
  const input = h(`input#limit-${kind}`, {
    type: "number",
    min: 1,
    max: play ? 1440 : 1000000000000,
    step: 1,
    inputmode: "numeric",
    value: x.limit ?? "",
    "aria-label": t(play ? "selfcare.play" : "selfcare.loss"),
  });
  const fmt = (v) => (play ? `${v}` : money(v));
  const parts = [
    x.limit === null
      ? t("selfcare.none")
      : t(play ? "selfcare.limit_play" : "selfcare.limit_loss", { n: fmt(x.limit) }),
    t(play ? "selfcare.used_play" : "selfcare.used_loss", { used: fmt(x.used) }),
    x.left === null
      ? null
      : t(play ? "selfcare.left_play" : "selfcare.left_loss", { left: fmt(x.left) }),
    x.pending
      ? x.pending.limit === null
        ? t("selfcare.pending_none", { at: fmtTime(x.pending.at) })
        : t("selfcare.pending", { value: fmt(x.pending.limit), at: fmtTime(x.pending.at) })
      : null,
  ].filter(Boolean);
  return h(
    "div.limit",
    { dataset: { limit: kind } },
    h("label", {}, t(play ? "selfcare.play" : "selfcare.loss"), input),
    h(
      "div.row",
      {},
      h(
        `button#set-${kind}`,
        {
          type: "button",
          onclick: () => {
            const v = input.value.trim();
            if (!/^\d+$/.test(v)) {
              toast(t("error.bad_request"), "error");
              return;
            }
            onSet(kind, Number(v));
          },
        },
        t("selfcare.set"),
      ),
      x.limit !== null
        ? h(
            `button#remove-${kind}`,
            { type: "button", onclick: () => onSet(kind, null) },
            t("selfcare.remove"),
          )
        : null,
    ),
    h("p.limit-state", { "data-testid": `state-${kind}` }, parts.join(" · ")),
  );
}

/** 자기 보호: the daily play-time and loss limits and self-exclusion, with what is left
 * today. Lowering takes effect at once, raising or removing after the cooling-off. */
export function selfcarePanel(config) {
  const box = h("section.card-panel#selfcare", { "aria-live": "polite" });
  const hours = Math.round((config?.money?.limit_cooloff_s ?? 86400) / 3600);
  async function send(path, body) {
    try {
      render(await api.post(path, body));
      toast(t("selfcare.saved"));
    } catch (e) {
      toast(errorText(e), "error");
    }
  }
  function render(s) {
    const months = h(
      "select#exclude-months",
      { "aria-label": t("selfcare.exclude") },
      [3, 6, 12].map((n) => h("option", { value: n }, t("selfcare.months", { n }))),
    );
    const parts = [
      h("h2", {}, t("selfcare.title")),
      h("p.help", {}, t("selfcare.help", { hours })),
      s.excluded_until
        ? h(
            "p.excluded#excluded",
            { role: "status" },
            t("selfcare.excluded", { until: fmtTime(s.excluded_until) }),
          )
        : null,
      limitRow("play_minutes", s, (kind, value) =>
        send("/api/selfcare/limit", { limit: kind, value }),
      ),
      limitRow("loss", s, (kind, value) => send("/api/selfcare/limit", { limit: kind, value })),
      h("p.help", {}, t("selfcare.resets", { at: fmtTime(s.resets_at), zone: s.zone })),
      h(
        "div.limit#exclusion",
        {},
        h("h3", {}, t("selfcare.exclude")),
        h("p.help", {}, t("selfcare.exclude_help")),
        h(
          "div.row",
          {},
          months,
          h(
            "button.danger#btn-exclude",
            {
              type: "button",
              onclick: () => {
                const n = +months.value;
                if (!confirm(t("selfcare.exclude_confirm", { n }))) return;
                send("/api/selfcare/exclude", { months: n });
              },
            },
            t("selfcare.exclude_btn"),
          ),
        ),
      ),
    ];
    fill(box, ...parts.filter(Boolean));
  }
  api.get("/api/selfcare").then(render, (e) => fill(box, h("p.error", {}, errorText(e))));
  return box;
}
