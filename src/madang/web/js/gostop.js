// 고스톱 (gostop) table: the family's board (matgo.js) with the other seats along the
// top, Matgo's event lines, captions and move names; its own are the opening lines (선
// drawn among three) and the settlement, where every loser pays by its own sheet.

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

/** The settlement: a sheet per loser (each with its own 박; the server's `sheets`), else
 *  Matgo's one sheet (a flat win: 총통, 3뻑) or the end's reason. */
export function gostopSettlement(view, result, name) {
  const sheets = view.sheets || [];
  if (!sheets.length) {
    const box = matgoSettlement(view, result, name);
    box.dataset.game = "gostop";
    return box;
  }
  return h(
    "div.sheet.sheets",
    { dataset: { game: "gostop" } },
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
  review: false, // madang.review scores Matgo and mahjong: no 복기 buttons yet
};
