// 다시 보기 (dasi bogi): step through a finished game. The server computes every frame
// (view + events after each move); the client only shows them.
import { api } from "./api.js";
import { gameModule } from "./games.js";
import { t } from "./i18n.js";
import { seatNamer } from "./names.js";
import { fill, h, link, toast } from "./util.js";

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

  // 복기: a seat's review (marks and best moves per decision), fetched on demand.
  let review = null;
  const reviewBox = h("div.review-mark", { "data-testid": "review-mark", "aria-live": "polite" });
  const reviewList = h("ul.review-list", { "data-testid": "review-list" });
  const reviewButtons = h(
    "div.review-seats",
    {},
    ...seats.map((s) =>
      h(
        "button.small",
        {
          type: "button",
          "data-testid": `review-seat-${s.seat}`,
          onclick: () => loadReview(s.seat),
        },
        t("review.button", { who: name(s.seat) }),
      ),
    ),
  );
  const markText = (d) => t(`review.mark.${d.mark}`);
  async function loadReview(seat) {
    reviewBox.textContent = t("review.loading");
    try {
      const got = await api.get(`/api/games/${gameId}/review?seat=${seat}`);
      review = { seat, byIndex: new Map(got.review.decisions.map((d) => [d.index, d])) };
      fill(
        reviewList,
        ...got.review.decisions.map((d) =>
          h(
            "li",
            { class: `review-${d.mark}` },
            h(
              "button.review-jump",
              { type: "button", onclick: () => show(d.index) },
              `${d.index + 1}. ${mod.describeMove(d.move)} — ${markText(d)}`,
            ),
          ),
        ),
      );
      show(i);
    } catch (e) {
      reviewBox.textContent = "";
      toast(e.code === "busy" ? t("review.busy") : e.message, "error");
    }
  }
  // The decision shown at frame n: the move n (frame n is the position before it).
  function showReview(n) {
    for (const el of boardWrap.querySelectorAll(".review-best")) el.classList.remove("review-best");
    if (!review) return;
    const d = review.byIndex.get(n);
    if (!d) {
      reviewBox.textContent = t("review.none");
      reviewBox.className = "review-mark";
      return;
    }
    reviewBox.className = `review-mark review-${d.mark}`;
    reviewBox.dataset.mark = d.mark;
    const lines = [
      h("strong", {}, markText(d)),
      " ",
      t("review.played", { move: mod.describeMove(d.move) }),
    ];
    if (d.best !== d.move) {
      lines.push(
        " · ",
        h(
          "span",
          { "data-testid": "review-best" },
          t("review.best", { move: mod.describeMove(d.best) }),
        ),
      );
      lines.push(" · ", t("review.loss", { loss: d.loss }));
    }
    if (d.go_stop) {
      lines.push(
        h(
          "div",
          {},
          t("review.gostop", {
            stop: d.go_stop.stop.expected,
            go: d.go_stop.go.expected,
            win: Math.round(d.go_stop.go.win * 100),
            lose: Math.round(d.go_stop.go.lose * 100),
          }),
        ),
      );
    } else if (d.answers) {
      // 고스톱's join/die and 쇼당: each answer's expected payment to the end of the game
      const answers = d.answers.map((a) =>
        // an answer with a sure result (죽기, a 쇼당 accepted by both) has no odds to give
        t(a.win || a.lose ? "review.answer" : "review.answer_sure", {
          move: mod.describeMove(a.move),
          expected: a.expected,
          win: Math.round(a.win * 100),
          lose: Math.round(a.lose * 100),
        }),
      );
      lines.push(
        h(
          "div",
          { "data-testid": "review-answers" },
          t("review.answers", { answers: answers.join(" · ") }),
        ),
      );
    } else if (d.shanten !== undefined) {
      lines.push(
        h("div", {}, t("review.hand", { shanten: d.shanten, ukeire: d.ukeire, risk: d.risk })),
      );
    }
    fill(reviewBox, ...lines);
    const card = d.best.split(" ")[1];
    if (card && d.best !== d.move) {
      // the best move's card or tile, once, in the reviewed seat's hand (every hand is
      // shown): a mahjong tile has copies in other hands, the rivers and its own hand;
      // a Matgo card is on the board once
      const code = `[data-code="${CSS.escape(card)}"]`;
      const seat = `[data-seat="${review.seat}"]`;
      const hand = boardWrap.querySelector(`.mj-hand${seat}, .mj-seat${seat} .concealed`);
      const el = (hand || boardWrap).querySelector(code);
      if (el) el.classList.add("review-best");
    }
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
    fill(log, ...(f.events || []).map((e) => h("li", {}, mod.describeEvent(e, name))));
    showReview(i);
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
      // 복기 where the server reviews the game (a module says `review: false` otherwise)
      mod.review === false ? null : h("div.review", {}, reviewButtons, reviewBox),
      h(
        "div.table-body",
        {},
        boardWrap,
        h(
          "aside.side",
          { tabindex: 0, "aria-label": t("replay.events") },
          h("h2.side-title", {}, t("replay.events")),
          log,
          mod.review === false ? null : [h("h2.side-title", {}, t("review.title")), reviewList],
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
