// What the table's events sound like: for each game, the card sounds and voice callouts
// (the voice packs' vocabulary, docs/voice-packs.md) that an event of the update asks
// for. No rules here: the names come from the events and the view the server sent (the
// 박 callouts from the settlement sheet's multipliers).

/** Card and tile sounds: short, they may overlap. */
export const CARD_SOUNDS = [
  "shuffle",
  "deal",
  "play",
  "flip",
  "capture",
  "draw",
  "discard",
  "claim",
  "chat", // a chat message at the table (web/js/chat.js), not a game event
];

/** The highest N고 with a callout of its own (`go_N`); more 고 than that say `go`. */
export const MAX_GO = 10;

/** Voice callouts: one at a time, in the order the events came. */
export const CALLOUTS = [
  "ppeok",
  "ttadak",
  "jjok",
  "sseul",
  "heundeulgi",
  "bomb",
  "chongtong",
  "go",
  ...Array.from({ length: MAX_GO }, (_, i) => `go_${i + 1}`),
  "stop",
  "nagari",
  "pibak",
  "gwangbak",
  "meongtta",
  "meongbak",
  "gobak",
  "pon",
  "kan",
  "ron",
  "tsumo",
  "eopeo",
  "bulleo",
];

/** The sheet's multipliers that are called out at the settlement, in the sheet's order. */
const BAK = new Set(["pibak", "gwangbak", "meongtta", "meongbak", "gobak"]);

/** 맞고 and 고스톱: a card played, flipped, taken; 뻑, 쪽, 따닥, 싹쓸이, 흔들기, 폭탄, 총통,
 *  N고, 스톱, 나가리, and the 박 of the winner's sheets (고스톱: one per loser, each 박 once). */
function matgoCues(e, view) {
  switch (e.type) {
    case "deal":
      return ["shuffle", "deal"];
    case "redeal":
      return ["shuffle"];
    case "play":
    case "bonus_play":
      return ["play"];
    case "bomb": // three cards of a month go down at once
      return ["bomb", "play"];
    case "shake":
      return ["heundeulgi"];
    case "flip":
      return ["flip"];
    case "draw":
      return ["draw"];
    case "capture":
    case "floor_bonus":
    case "steal":
      return ["capture"];
    case "ppeok":
    case "jjok":
    case "ttadak":
    case "sseul":
    case "chongtong":
    case "stop":
      return [e.type];
    case "go":
      return [e.count >= 1 && e.count <= MAX_GO ? `go_${e.count}` : "go"];
    case "end":
      if (e.reason === "nagari") return ["nagari"];
      return [
        ...new Set(
          (view?.sheets || (view?.sheet ? [view.sheet] : []))
            .flatMap((s) => s.multipliers)
            .map((m) => m.name)
            .filter((n) => BAK.has(n)),
        ),
      ];
    default:
      return [];
  }
}

/** 마작: draws, discards, claims (뽕, 깡), 쏘아, 올라, 엎어, 불러, 나가리. The four `deal`
 *  events of a hand shuffle and deal once. */
function mahjongCues(e, _view, seen) {
  switch (e.type) {
    case "deal":
      return seen.has("deal") ? [] : ["shuffle", "deal"];
    case "draw":
      return ["draw"];
    case "flower":
      return ["flip"];
    case "discard":
      return e.declare ? ["discard", e.declare] : ["discard"];
    case "pon":
      return ["claim", "pon"];
    case "kan":
    case "ankan":
    case "kakan":
      return ["claim", "kan"];
    case "win":
      return [e.by === "tsumo" ? "tsumo" : "ron"];
    case "nagari":
      return ["nagari"];
    default:
      return [];
  }
}

const CUES = { matgo: matgoCues, mahjong: mahjongCues, gostop: matgoCues };

/** The sounds of one update's events, in order: `view` is the update's view (the
 *  settlement's sheet), `seen` what this update already asked for. */
export function cuesOf(game, events, view) {
  const cue = CUES[game];
  const out = [];
  const seen = new Set();
  if (!cue) return out;
  for (const e of events) {
    for (const name of cue(e, view, seen)) {
      out.push(name);
      seen.add(name);
    }
  }
  return out;
}
