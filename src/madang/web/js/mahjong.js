// 마작 (mahjong) table: four seats, rivers, melds, flowers, the seat's hand and its
// prompts (discard with 엎어/불러, 올라, 깡, and the 쏘아/뽕/깡/pass claim window). No rules
// here: legality, waits, the discards that keep a hand ready and the 판 of 엎어/불러 come
// from the server's view (`legal_actions`, `help`, `my_waits`, `match`, `result`).

import { t } from "./i18n.js";
import { autoBadge } from "./names.js";
import { sortTiles, tileEl, tileName, tileNames } from "./tiles.js";
import { clear, h, toast } from "./util.js";

const WIND = { "1z": "z1", "2z": "z2", "3z": "z3", "4z": "z4" };
const windName = (w) => t(`mahjong.tile.${WIND[w] || "z1"}`);

function meldEl(m) {
  const n = m.kind === "pon" ? 3 : 4;
  const row = h("div.meld", { title: t(`mahjong.meld.${m.kind}`) });
  for (let i = 0; i < n; i++) {
    const hidden = m.kind === "ankan" && (i === 0 || i === n - 1);
    row.append(tileEl(hidden ? "back" : m.tile, "small"));
  }
  return row;
}

/** Stacks of two tiles in the whole wall (104 tiles), and on each of its four sides. */
const WALL_STACKS = 52;
const SIDE = WALL_STACKS / 4;

/**
 * The wall around the centre of the table, as the view counts it (`wall_count`): 52
 * stacks of two tile backs, 13 a side, of which those already dealt or drawn are gone;
 * the next stack to be drawn from is marked `.next`. The view gives the count only (the
 * break and its dice stay on the server), so the wall is drawn from its first stack on.
 */
function wallEl(n) {
  const left = Math.min(WALL_STACKS, Math.ceil(Math.max(0, n) / 2));
  const gone = WALL_STACKS - left;
  const sides = ["top", "right", "bottom", "left"].map((k) => h(`div.wall-side.${k}`));
  for (let i = 0; i < WALL_STACKS; i++) {
    const cls = i < gone ? ".gone" : i === gone ? ".next" : "";
    const half = i === gone && n % 2 ? ".half" : "";
    sides[Math.floor(i / SIDE)].append(h(`div.wall-stack${cls}${half}`));
  }
  return h(
    "div.mj-wall",
    { "data-testid": "mj-wall", dataset: { count: n }, "aria-hidden": "true" },
    sides,
  );
}

/** A mahjong move string in words ("discard 6z bulleo" -> "발 버리고 불러"). */
export function describeMahjongMove(move) {
  const words = (move || "").split(" ");
  if (/^\d$/.test(words[0])) words.shift();
  const [verb, tile, declare] = words;
  if (verb === "discard")
    return t(declare ? `mahjong.move.discard_${declare}` : "mahjong.move.discard", {
      tile: tileName(tile),
    });
  if (verb === "ankan" || verb === "kakan")
    return t(`mahjong.move.${verb}`, { tile: tileName(tile) });
  return t(`mahjong.move.${verb}`);
}

export function createMahjongBoard(root, ctx) {
  let state = null;
  let declare = ""; // "", "eopeo" or "bulleo": applied to the next discard
  let sel = -1;
  const el = h("div.board.mahjong");
  root.append(el);

  const name = (s) => ctx.name(s);

  function legal() {
    if (state.readOnly) return [];
    const p = state.prompt;
    if (p && p.seat === state.seat && p.legal) return p.legal;
    return state.view.legal_actions || [];
  }

  /** The move for a click on `tile`; with a declaration on, only a discard that allows it
   * (never a silent plain discard). */
  function discardMove(tile, L) {
    if (declare)
      return L.includes(`discard ${tile} ${declare}`) ? `discard ${tile} ${declare}` : null;
    if (L.includes(`discard ${tile}`)) return `discard ${tile}`;
    return null;
  }

  function clickTile(tile) {
    const L = legal();
    const mv = discardMove(tile, L);
    if (mv) {
      ctx.act(mv);
      return;
    }
    if (declare)
      toast(
        t("mahjong.not_declarable", { tile: tileName(tile), name: t(`mahjong.${declare}`) }),
        "error",
      );
  }

  function buttons(L) {
    // Everything but plain discards: claims, 올라, kans.
    return L.filter((m) => !m.startsWith("discard")).map((m) => {
      const [verb, tile] = m.split(" ");
      return { move: m, label: `${t(`mahjong.verb.${verb}`)}${tile ? ` ${tileName(tile)}` : ""}` };
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

  function question(v, L) {
    if (v.phase === "discard") return t("mahjong.q.discard");
    const verbs = new Set(L.map((m) => m.split(" ")[0]));
    if (v.phase === "rob") return t("mahjong.q.rob");
    if (verbs.has("ron") && !verbs.has("pon") && !verbs.has("kan")) return t("mahjong.q.ron");
    return t("mahjong.q.claim");
  }

  function draw() {
    const v = state.view;
    const me = state.seat ?? 0;
    const L = legal();
    const canDeclare = {
      eopeo: L.some((m) => m.endsWith(" eopeo")),
      bulleo: L.some((m) => m.endsWith(" bulleo")),
    };
    if (declare && !canDeclare[declare]) declare = "";
    const help = v.help || [];
    const helpOf = new Map(help.map((x) => [x.tile, x]));
    const scores = v.match ? v.match.scores : null;
    clear(el);
    el.dataset.version = String(state.version);
    el.dataset.question = L.length ? (v.phase === "discard" ? "discard" : "claim") : "";
    el.dataset.declare = declare;

    const seatBox = (s, pos) => {
      const p = v.players[s];
      const isTurn = v.turn === s && v.phase === "discard";
      const hand = p.hand && s !== me ? sortTiles(p.hand) : null; // replay: every hand shown
      return h(
        `div.mj-seat.${pos}${isTurn ? ".turn" : ""}`,
        { dataset: { seat: s } },
        h(
          "div.pinfo",
          {},
          h("span.wind", {}, windName(p.wind)),
          h(
            "span.pname",
            {},
            name(s),
            s === v.dealer ? h("span.badge.dealer", {}, t("mahjong.dealer")) : null,
          ),
          scores
            ? h(
                "span.score",
                { "data-testid": `mj-score-${s}` },
                t("mahjong.score", { n: scores[s] }),
              )
            : null,
          autoBadge(state.seats, s),
          p.declared
            ? h(
                `span.badge.${p.declared}`,
                {},
                t(`mahjong.${p.declared}`),
                p.double ? t("mahjong.double") : "",
              )
            : null,
          p.waits
            ? h(
                "span.waits",
                {},
                t("mahjong.waits"),
                p.waits.map((w) => tileEl(w, "tiny")),
              )
            : null,
          ctx.timer(s),
        ),
        s !== me
          ? h(
              "div.concealed",
              {},
              hand
                ? hand.map((x) => tileEl(x, "small"))
                : Array.from({ length: p.concealed }, () => tileEl("back", "small")),
            )
          : null,
        h(
          "div.melds",
          {},
          p.melds.map(meldEl),
          p.flowers.map((f) => tileEl(f, "small flower")),
        ),
        h(
          "div.river",
          {},
          p.river.map((x, i) => tileEl(x, `small ${i === p.river.length - 1 ? "last" : ""}`)),
        ),
      );
    };

    const order = [me, (me + 1) % 4, (me + 2) % 4, (me + 3) % 4];
    const claim = v.claim;
    const m = v.match;
    el.append(
      h(
        "div.mj-grid",
        {},
        seatBox(order[2], "top"),
        seatBox(order[3], "left"),
        h(
          "div.mj-centre",
          {},
          wallEl(v.wall_count),
          h(
            "div.round-wind",
            { "data-testid": "round-wind", title: t("mahjong.round_wind") },
            h("span.rw-label", {}, t("mahjong.round_wind")),
            h("span.rw-glyph", {}, windName(v.round_wind)),
          ),
          h(
            "div.round",
            { "data-testid": "mj-round" },
            t("mahjong.round", { wind: windName(v.round_wind), k: m ? m.kyoku : 1 }),
            m?.repeat ? ` · ${t("mahjong.repeat", { n: m.repeat })}` : "",
            m ? ` · ${t("mahjong.hand_no", { n: m.hand_no })}` : "",
          ),
          v.pot ? h("div.pot", {}, t("mahjong.pot", { n: v.pot })) : null,
          h("div", { "data-testid": "wall-count" }, t("mahjong.wall", { n: v.wall_count })),
          claim
            ? h(
                "div.claim",
                {},
                t(v.phase === "rob" ? "mahjong.rob_line" : "mahjong.claim_line", {
                  name: name(claim.from),
                }),
                tileEl(claim.tile, "flash"),
              )
            : null,
        ),
        seatBox(order[1], "right"),
        seatBox(order[0], "bottom"),
      ),
    );

    // Prompt and hand.
    const panel = h("div.prompt", { "data-testid": "prompt" });
    const btns = buttons(L);
    const p = v.players[me];
    if (L.length) {
      panel.classList.add("active");
      panel.append(h("div.q", {}, question(v, L)));
      const row = h("div.choices");
      btns.forEach((b, i) => {
        row.append(
          h(
            `button.choice${i === sel ? ".sel" : ""}`,
            { type: "button", dataset: { move: b.move }, onclick: () => ctx.act(b.move) },
            h("kbd", {}, String(i + 1)),
            h("span", {}, b.label),
          ),
        );
      });
      const pans = {};
      for (const x of help) for (const d of ["eopeo", "bulleo"]) if (x[d]) pans[d] = x[d];
      for (const d of ["eopeo", "bulleo"]) {
        if (canDeclare[d]) {
          row.append(
            h(
              `button.toggle${declare === d ? ".on" : ""}`,
              {
                type: "button",
                dataset: { declare: d },
                "aria-pressed": declare === d ? "true" : "false",
                onclick: () => {
                  declare = declare === d ? "" : d;
                  draw();
                },
              },
              t("mahjong.toggle", { name: t(`mahjong.${d}`), pan: pans[d] ?? "?" }),
              declare === d ? " ✓" : "",
            ),
          );
        }
      }
      panel.append(row);
      if (declare)
        panel.append(
          h(
            "div.hint",
            { "data-testid": "declare-hint" },
            t("mahjong.toggle_hint", { name: t(`mahjong.${declare}`) }),
          ),
        );
    }
    if (help.length) {
      panel.append(
        h(
          "div.help",
          { "data-testid": "discard-help" },
          h("div.help-title", {}, t("mahjong.help_title")),
          h(
            "ul.help-list",
            {},
            help.map((x) =>
              h(
                "li",
                { dataset: { tile: x.tile } },
                tileEl(x.tile, "tiny"),
                " ",
                t("mahjong.help_line", { tile: tileName(x.tile), waits: tileNames(x.waits) }),
                x.jinting.length
                  ? h(
                      "span.warn.jinting",
                      {},
                      t("mahjong.help_jinting", { tiles: tileNames(x.jinting) }),
                    )
                  : null,
                ["eopeo", "bulleo"]
                  .filter((d) => x[d])
                  .map((d) =>
                    h(
                      "span.chip",
                      {},
                      t("mahjong.help_declare", { name: t(`mahjong.${d}`), pan: x[d] }),
                    ),
                  ),
              ),
            ),
          ),
        ),
      );
    }
    // The server's view gives a ready hand's waits and its 진팅 state: no rules here.
    if (p.hand && p.my_waits?.length) {
      panel.append(
        h(
          "div.waits-line",
          {},
          t("mahjong.waits"),
          p.my_waits.map((x) => tileEl(x, "tiny")),
          p.jinting ? h("span.warn.jinting", {}, t("mahjong.jinting")) : null,
          p.golla ? h("span.warn", {}, t("mahjong.golla")) : null,
        ),
      );
    }
    el.append(panel);
    const handRow = h("div.hand.mj-hand", {
      "aria-label": t("mahjong.hand"),
      dataset: { seat: me },
    });
    const tiles = handTiles(v, me);
    tiles.forEach((x, i) => {
      const mv = discardMove(x, L);
      const plain = L.includes(`discard ${x}`);
      const isDrawn = p.drawn && i === tiles.length - 1;
      const hx = helpOf.get(x);
      const te = tileEl(
        x,
        `${mv ? "playable" : ""} ${declare && plain && !mv ? "dim" : ""} ${hx ? "ready" : ""} ${isDrawn ? "drawn" : ""} ${i === sel && !btns.length ? "sel" : ""}`,
      );
      if (plain) {
        te.tabIndex = 0;
        te.setAttribute("role", "button");
        te.setAttribute(
          "aria-label",
          hx
            ? `${tileName(x)} — ${t("mahjong.help_line", { tile: tileName(x), waits: tileNames(hx.waits) })}`
            : tileName(x),
        );
        te.addEventListener("click", () => clickTile(x));
        te.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            e.stopPropagation();
            clickTile(x);
          }
        });
      }
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
        clickTile(tiles[sel]);
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
  const who = e.seat !== undefined && e.seat !== null ? n(e.seat) : "";
  const tile = e.tile ? tileName(e.tile) : "";
  switch (e.type) {
    case "deal":
      return t("mahjong.ev.deal", { who });
    case "draw":
      return e.tile ? t("mahjong.ev.draw_tile", { who, tile }) : t("mahjong.ev.draw", { who });
    case "flower":
      return t("mahjong.ev.flower", { who, tile });
    case "discard":
      if (e.declare === "bulleo")
        return (
          t("mahjong.ev.discard_bulleo", { who, tile, waits: tileNames(e.waits) }) +
          (e.double ? t("mahjong.double") : "")
        );
      if (e.declare === "eopeo")
        return t("mahjong.ev.discard_eopeo", { who, tile }) + (e.double ? t("mahjong.double") : "");
      return t("mahjong.ev.discard", { who, tile });
    case "pon":
    case "kan":
      return t(`mahjong.ev.${e.type}`, { who, tile, from: n(e.from) });
    case "ankan":
    case "kakan":
      return t(`mahjong.ev.${e.type}`, { who, tile });
    case "win":
      return e.by === "tsumo"
        ? t("mahjong.ev.win_tsumo", { who, tile, points: e.points })
        : t("mahjong.ev.win_ron", { who, tile, from: n(e.from), points: e.points });
    case "nagari":
      return t("mahjong.ev.nagari", { pot: e.pot });
    case "end":
      return t("mahjong.ev.end");
    case "payment":
      return t("mahjong.ev.payment", {
        from: n(e.from),
        to: n(e.to),
        points: e.points,
        reason: t(`pay.${e.reason}`),
      });
    case "ask":
      return t("mahjong.ev.ask", {
        tile,
        options: (e.options || []).map((o) => t(`mahjong.verb.${o}`)).join(" / "),
      });
    case "answer":
      return t("mahjong.ev.answer", { who, action: t(`mahjong.verb.${e.action}`) });
    default:
      return t(`mahjong.ev.${e.type}`, { who });
  }
}

/** The big captions an event deserves (뽕, 깡, 쏘아, 올라, 엎어, 불러, 나가리). */
export function mahjongCaptions(e, name) {
  const who = e.seat !== undefined && e.seat !== null ? name(e.seat) : "";
  switch (e.type) {
    case "pon":
    case "kan":
    case "ankan":
    case "kakan":
      return [{ kind: e.type, text: t(`mahjong.cap.${e.type}`), who }];
    case "win":
      return [
        { kind: e.by, text: t(e.by === "tsumo" ? "mahjong.cap.tsumo" : "mahjong.cap.ron"), who },
      ];
    case "discard":
      return e.declare ? [{ kind: e.declare, text: t(`mahjong.cap.${e.declare}`), who }] : [];
    case "nagari":
      return [{ kind: "nagari", text: t("mahjong.cap.nagari"), who: "" }];
    default:
      return [];
  }
}

export function mahjongIntro(view, name) {
  return [t("mahjong.ev.dealer", { who: name(view.dealer) })];
}

function tileRow(tiles, melds, winTile) {
  return h(
    "div.tile-row",
    {},
    sortTiles(tiles).map((x) => tileEl(x, "small")),
    (melds || []).map(meldEl),
    winTile ? h("span.win-tile", {}, tileEl(winTile, "small flash")) : null,
  );
}

/** The settlement of a finished hand: every row that makes the total (판 × 판당 점수,
 * 기본 점수, 나가리 적립), what each payer pays (쏘아: the discarder ×ron_pays), the
 * winning hand with its winning tile, and at 나가리 every hand. All from the engine. */
export function mahjongSettlement(view, _result, name) {
  const box = h("div.sheet", { dataset: { game: "mahjong" } });
  const r = view.result;
  if (!r) return box;
  for (const w of r.winners || []) {
    const row = (kind, label, value, text) =>
      h(`tr.${kind}`, { dataset: { kind, value } }, h("td", {}, label), h("td.num", {}, text));
    const hand = [...w.hand];
    const wi = hand.indexOf(w.tile);
    if (wi >= 0) hand.splice(wi, 1);
    box.append(
      h(
        "div.mj-win",
        { dataset: { seat: w.seat } },
        h(
          "div.win-title",
          {},
          w.by === "tsumo"
            ? t("mahjong.sheet.win_tsumo", { name: name(w.seat) })
            : t("mahjong.sheet.win_ron", { name: name(w.seat), from: name(w.from) }),
        ),
        h("div.win-hand", { "data-testid": "win-hand" }, tileRow(hand, w.melds, w.tile)),
        w.wait
          ? h("div.wait-kind", {}, t("mahjong.sheet.wait", { wait: t(`mahjong.wait.${w.wait}`) }))
          : null,
        h(
          "table.sheet-table",
          { "data-testid": "sheet" },
          h(
            "tbody",
            {},
            w.items.map((it) =>
              row(
                "item",
                t(`mahjong.pattern.${it.name}`),
                it.pan,
                t("mahjong.sheet.pan", { n: it.pan }),
              ),
            ),
            row(
              "pan",
              t("mahjong.sheet.total_pan", { base: w.base_pan, extra: w.extra_pan }),
              w.total_pan,
              t("mahjong.sheet.pan", { n: w.total_pan }),
            ),
            w.pan_value !== 1
              ? row(
                  "pan_value",
                  t("mahjong.sheet.pan_value", { n: w.pan_value }),
                  w.pan_value,
                  `×${w.pan_value}`,
                )
              : null,
            row("add", t("mahjong.sheet.pan_points", {}), w.pan_points, `${w.pan_points}`),
            w.base_points
              ? row("add", t("mahjong.sheet.base_points"), w.base_points, `+${w.base_points}`)
              : null,
            w.pot ? row("add", t("mahjong.sheet.pot"), w.pot, `+${w.pot}`) : null,
            row("total", t("mahjong.sheet.points"), w.points, t("mahjong.score", { n: w.points })),
            w.by === "ron"
              ? row(
                  "pays",
                  t("mahjong.sheet.ron_pays", { from: name(w.from), n: w.ron_pays }),
                  w.points * w.ron_pays,
                  t("mahjong.score", { n: w.points * w.ron_pays }),
                )
              : row(
                  "pays",
                  t("mahjong.sheet.tsumo_pays"),
                  w.points * 3,
                  t("mahjong.score", { n: w.points * 3 }),
                ),
          ),
        ),
      ),
    );
  }
  if (r.nagari) {
    box.append(h("p.nagari", {}, t("mahjong.sheet.nagari", { pot: r.next_pot })));
    if (r.hands) {
      box.append(
        h("h3", {}, t("mahjong.sheet.hands")),
        h(
          "ul.all-hands",
          { "data-testid": "all-hands" },
          r.hands.map((x) =>
            h("li", {}, h("span.who", {}, name(x.seat)), tileRow(x.hand, x.melds, null)),
          ),
        ),
      );
    }
  }
  if (view.match?.scores) {
    box.append(
      h(
        "p.match-scores",
        { "data-testid": "match-scores" },
        t("mahjong.sheet.scores"),
        ": ",
        view.match.scores.map((sc, s) => `${name(s)} ${sc > 0 ? "+" : ""}${sc}`).join(" · "),
      ),
    );
  }
  return box;
}

export const mahjongModule = {
  game: "mahjong",
  createBoard: createMahjongBoard,
  describeEvent: describeMahjongEvent,
  describeMove: describeMahjongMove,
  captions: mahjongCaptions,
  intro: mahjongIntro,
  settlement: mahjongSettlement,
};
