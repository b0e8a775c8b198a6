// 고스톱 (gostop) table: the family's board (matgo.js) with the other seats along the
// top (two, or three with 광팔기: the sitter badged, its hand empty), Matgo's event
// lines, captions and move names (join/die and 쇼당 among them); its own are the opening
// lines (선 drawn among the seats) and the settlement, where every loser pays by its own
// sheet, with who sat out and how a 쇼당 was answered.

import { t } from "./i18n.js";
import {
  createMatgoBoard,
  describeMatgoEvent,
  describeMatgoMove,
  matgoCaptions,
  matgoSettlement,
  sheetTable,
} from "./matgo.js";
import { h } from "./util.js";

/** Lines for the log when a table opens: 선 결정 of the first game (each seat draws a
 *  month; the seats tied for best draw again) and the deal unless `deal` is false. */
export function gostopIntro(view, name, { deal = true } = {}) {
  const rounds = view.match?.first_draws || [];
  const out = [];
  if (rounds.length)
    out.push(
      t(
        view.match.first_dealer_rule === "night_low"
          ? "matgo.first_rule_low"
          : "matgo.first_rule_high",
      ),
    );
  rounds.forEach((months, i) => {
    const draws = months
      .map((m, s) => (m === null ? null : `${name(s)} ${t("matgo.month_n", { month: m })}`))
      .filter(Boolean)
      .join(", ");
    const last = i === rounds.length - 1;
    out.push(
      t(last ? "gostop.first_dealer" : "gostop.first_dealer_tie", {
        draws,
        dealer: name(view.dealer),
      }),
    );
  });
  if (deal) out.push(describeMatgoEvent({ type: "deal", dealer: view.dealer }, name));
  return out;
}

/** What the table's own rules did to this game, in words: who sat out (광팔기: sold
 *  광, paid by the `gwang_sale` lines, or died) and how a 쇼당 was answered. */
export function gostopNotes(view, name) {
  const out = [];
  const sitter = view.sitting_out;
  if (sitter !== null && sitter !== undefined)
    out.push(
      h(
        "p.gostop-note.sitter",
        { dataset: { seat: sitter } },
        t(view.seller === sitter ? "gostop.sold" : "gostop.died", { name: name(sitter) }),
      ),
    );
  const sh = view.public?.table?.shodang;
  if (sh && sh.by !== null && sh.by !== undefined) {
    const refused = sh.refused || [];
    out.push(
      h(
        "p.gostop-note.shodang",
        { dataset: { by: sh.by } },
        refused.length
          ? t("gostop.shodang_refused", {
              name: name(sh.by),
              refused: refused.map((s) => name(s)).join(", "),
            })
          : t("gostop.shodang_nagari", { name: name(sh.by) }),
      ),
    );
  }
  return out;
}

/** The settlement: the table's notes (who sat out, a 쇼당), then a sheet per loser (each
 *  with its own 박; the server's `sheets`), else Matgo's one sheet (a flat win: 총통,
 *  3뻑) or the end's reason. */
export function gostopSettlement(view, result, name) {
  const sheets = view.sheets || [];
  const notes = gostopNotes(view, name);
  if (!sheets.length) {
    const box = matgoSettlement(view, result, name);
    box.dataset.game = "gostop";
    box.prepend(...notes);
    return box;
  }
  return h(
    "div.sheet.sheets",
    { dataset: { game: "gostop" } },
    notes,
    sheets.map((s) =>
      h(
        "div.loser-sheet",
        { dataset: { loser: s.loser } },
        h("h3", {}, t("gostop.sheet_of", { name: name(s.loser) })),
        sheetTable(s, { dataset: { loser: s.loser } }),
      ),
    ),
  );
}

/** The settlement title's points for `seat`: what a loser paid the winner (none under
 *  another's 독박), else the game's points (the winner's, a spectator's). */
export function gostopTitlePoints(result, seat) {
  if (seat === null || seat === undefined || result.winner === seat) return result.points;
  return (result.payments || [])
    .filter((p) => p.from === seat && p.to === result.winner)
    .filter((p) => p.reason === "win" || p.reason === result.reason)
    .reduce((sum, p) => sum + p.points, 0);
}

export const gostopModule = {
  game: "gostop",
  createBoard: createMatgoBoard,
  describeEvent: describeMatgoEvent,
  describeMove: describeMatgoMove,
  captions: matgoCaptions,
  intro: gostopIntro,
  settlement: gostopSettlement,
  titlePoints: gostopTitlePoints,
  review: true, // 복기: madang.review scores 고스톱 at three and four seats (docs/review.md)
};
