// 다시 보기 (dasi bogi): step through a finished game. The server computes every frame
// (view + events after each move); the client only shows them.
import { api } from "./api.js";
import { gameModule } from "./games.js";
import { t } from "./i18n.js";
import { seatNamer } from "./names.js";
import { clear, h, link } from "./util.js";

export async function replayPage(root, gameId) {
  const data = await api.get(`/api/games/${gameId}/replay`);
  const frames = data.frames;
  const mod = gameModule(data.game);
  const seats = (data.players || []).map((u, i) => ({ seat: i, username: u }));
  const name = seatNamer(() => seats);
  const boardWrap = h("div.board-wrap");
  const board = mod.createBoard(boardWrap, { act: () => {}, name, timer: () => null });
  let i = 0;
  let timer = 0;
  const pos = h("span.replay-pos", { "data-testid": "replay-pos" });
  const slider = h("input.replay-slider", {
    type: "range",
    min: 0,
    max: frames.length - 1,
    value: 0,
    "aria-label": t("replay.slider"),
  });
  const moveText = h("div.replay-move", { "data-testid": "replay-move" });
  const log = h("ol.log");
  const playBtn = h("button#replay-play", { type: "button" }, t("replay.play"));

  function moveWords(f) {
    if (!f.move) return t("replay.start");
    const words = f.move.split(" ");
    const seatOf = /^\d$/.test(words[0])
      ? +words[0]
      : f.events.find((e) => e.seat !== undefined)?.seat;
    const what = mod.describeMove(f.move);
    return t("replay.move", {
      move: seatOf === undefined ? what : t("mahjong.move.seat", { who: name(seatOf), move: what }),
    });
  }

  function show(n) {
    i = Math.max(0, Math.min(frames.length - 1, n));
    const f = frames[i];
    board.render({
      view: f.view,
      prompt: null,
      seat: null,
      seats,
      version: i,
      events: f.events || [],
      readOnly: true,
    });
    pos.textContent = `${i} / ${frames.length - 1}`;
    slider.value = String(i);
    moveText.textContent = moveWords(f);
    clear(log).append(...(f.events || []).map((e) => h("li", {}, mod.describeEvent(e, name))));
  }
  function stop() {
    clearInterval(timer);
    timer = 0;
    playBtn.textContent = t("replay.play");
  }
  playBtn.addEventListener("click", () => {
    if (timer) return stop();
    playBtn.textContent = t("replay.pause");
    timer = setInterval(() => (i >= frames.length - 1 ? stop() : show(i + 1)), 900);
  });
  slider.addEventListener("input", () => show(+slider.value));
  const controls = h(
    "div.replay-controls",
    {},
    h(
      "button#replay-first",
      {
        type: "button",
        onclick: () => show(0),
        title: t("replay.first"),
        "aria-label": t("replay.first"),
      },
      "«",
    ),
    h(
      "button#replay-prev",
      {
        type: "button",
        onclick: () => show(i - 1),
        title: t("replay.prev"),
        "aria-label": t("replay.prev"),
      },
      "◀",
    ),
    playBtn,
    h(
      "button#replay-next",
      {
        type: "button",
        onclick: () => show(i + 1),
        title: t("replay.next"),
        "aria-label": t("replay.next"),
      },
      "▶",
    ),
    h(
      "button#replay-last",
      {
        type: "button",
        onclick: () => show(frames.length - 1),
        title: t("replay.last"),
        "aria-label": t("replay.last"),
      },
      "»",
    ),
    slider,
    pos,
  );
  root.append(
    h(
      "div.table-page.replay",
      {},
      h(
        "div.table-head",
        {},
        h(
          "span",
          {},
          t("replay.title", {
            id: gameId,
            players: seats.map((s) => name(s.seat)).join(t("replay.vs")),
          }),
        ),
        link("/me", t("replay.back"), "button small ghost"),
      ),
      controls,
      moveText,
      h(
        "div.table-body",
        {},
        boardWrap,
        h(
          "aside.side",
          { tabindex: 0, "aria-label": t("replay.events") },
          h("h2.side-title", {}, t("replay.events")),
          log,
        ),
      ),
    ),
  );
  const onKey = (e) => {
    if (e.key === "ArrowRight") show(i + 1);
    else if (e.key === "ArrowLeft") show(i - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(frames.length - 1);
    else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  show(0);
  return {
    destroy() {
      stop();
      document.removeEventListener("keydown", onKey);
      board.destroy();
    },
  };
}
