// 다시 보기 (dasi bogi): step through a finished game. The server computes every frame
// (view + events after each move); the client only shows them.
import { api } from "./api.js";
import { h, clear, link } from "./util.js";
import { createMatgoBoard, describeMatgoEvent } from "./matgo.js";
import { createMahjongBoard, describeMahjongEvent } from "./mahjong.js";

export async function replayPage(root, gameId) {
  const data = await api.get(`/api/games/${gameId}/replay`);
  const frames = data.frames;
  const seats = (data.players || []).map((u, i) => ({ seat: i, username: u }));
  const name = (s) => (data.players && data.players[s]) || `자리 ${s + 1}`;
  const describe = data.game === "matgo" ? describeMatgoEvent : describeMahjongEvent;
  const boardWrap = h("div.board-wrap");
  const board = (data.game === "matgo" ? createMatgoBoard : createMahjongBoard)(boardWrap, { act: () => {} });
  let i = 0;
  let timer = 0;
  const pos = h("span.replay-pos", { "data-testid": "replay-pos" });
  const slider = h("input.replay-slider", { type: "range", min: 0, max: frames.length - 1, value: 0, "aria-label": "수" });
  const moveText = h("div.replay-move");
  const log = h("ol.log");
  const playBtn = h("button#replay-play", {}, "▶ 재생");

  function show(n) {
    i = Math.max(0, Math.min(frames.length - 1, n));
    const f = frames[i];
    board.render({ view: f.view, prompt: null, seat: null, seats, version: i, events: f.events || [], readOnly: true });
    pos.textContent = `${i} / ${frames.length - 1}`;
    slider.value = String(i);
    moveText.textContent = f.move ? `수: ${f.move}` : "처음";
    clear(log).append(...(f.events || []).map((e) => h("li", {}, describe(e, name))));
  }
  function stop() {
    clearInterval(timer);
    timer = 0;
    playBtn.textContent = "▶ 재생";
  }
  playBtn.addEventListener("click", () => {
    if (timer) return stop();
    playBtn.textContent = "⏸ 멈춤";
    timer = setInterval(() => (i >= frames.length - 1 ? stop() : show(i + 1)), 900);
  });
  slider.addEventListener("input", () => show(+slider.value));
  const controls = h("div.replay-controls", {},
    h("button#replay-first", { onclick: () => show(0), title: "처음 (Home)" }, "«"),
    h("button#replay-prev", { onclick: () => show(i - 1), title: "이전 (←)" }, "◀"),
    playBtn,
    h("button#replay-next", { onclick: () => show(i + 1), title: "다음 (→)" }, "▶"),
    h("button#replay-last", { onclick: () => show(frames.length - 1), title: "끝 (End)" }, "»"),
    slider, pos);
  root.append(h("div.table-page.replay", {},
    h("div.table-head", {}, h("span", {}, `다시 보기 #${gameId} · ${(data.players || []).join(" vs ")}`), link("/me", "내 기록", "button small ghost")),
    controls, moveText,
    h("div.table-body", {}, boardWrap, h("aside.side", {}, h("h3", {}, "이 수의 일"), log))));
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
  return { destroy() { stop(); document.removeEventListener("keydown", onKey); board.destroy(); } };
}
