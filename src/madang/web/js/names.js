// Seat names as the table shows them: accounts by their display name (bot and guest
// accounts in words), and seats that share one account (three 컴퓨터 초급 at a mahjong
// table) told apart by a number; a bot account's seat with the bot badge.
import { displayName, t } from "./i18n.js";
import { h } from "./util.js";

export function seatNamer(getSeats) {
  return (s) => {
    const seats = getSeats() || [];
    const seat = seats.find((x) => x.seat === s);
    if (!seat?.username) return t("name.seat", { n: s + 1 });
    const same = seats.filter((x) => x.username === seat.username);
    // a bot account's seat (kind "human", bot: true) is marked as a program's
    const badge = seat.bot && seat.kind === "human" ? "🤖 " : "";
    if (same.length < 2) return `${badge}${displayName(seat.username)}`;
    const k = same.findIndex((x) => x.seat === s) + 1;
    const m = /^bot-(\w+)$/.exec(seat.username);
    if (m) return t("name.bot_n", { level: t(`level.${m[1]}`), n: k });
    return `${displayName(seat.username)} ${k}`;
  };
}

/**
 * The "자동" badge of a seat the computer plays: 자동치기 turned on by its person
 * (`auto`), or a person away past the grace (`bot_control`); null for any other seat.
 */
export function autoBadge(seats, s) {
  const seat = (seats || []).find((x) => x.seat === s);
  if (seat?.kind !== "human" || !(seat.auto || seat.bot_control)) return null;
  return h(
    "span.badge.auto",
    {
      title: t(seat.auto ? "table.autoplay_title" : "table.auto_title"),
      "data-testid": `auto-badge-${s}`,
      dataset: { why: seat.auto ? "autoplay" : "away" },
    },
    t("table.auto_badge"),
  );
}
