// The game modules the pages know: each gives its board, event lines, captions, move
// names, opening lines and settlement sheet. Game knowledge stays in its own module.

import { gostopModule } from "./gostop.js";
import { mahjongModule } from "./mahjong.js";
import { matgoModule } from "./matgo.js";

export const GAMES = { matgo: matgoModule, mahjong: mahjongModule, gostop: gostopModule };

export function gameModule(game) {
  const m = GAMES[game];
  if (!m) throw new Error(`unknown game ${game}`);
  return m;
}
