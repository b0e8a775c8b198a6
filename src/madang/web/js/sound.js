// Sound and voice, a layer over the table (STYLE.md: the state is drawn from the view at
// once, effects play on top, and no effect ever holds back a click). Web Audio: no
// AudioContext exists, no pack is fetched and nothing plays before the player's first
// gesture on the page (a click, a key, a touch); that gesture creates and resumes the
// context and starts fetching and decoding the voice pack (about 170 KB). Each
// cue is started on the context's clock and returns at once: card sounds a little apart,
// callouts one after another; a cue that would start too late (a burst of updates after
// a reconnect) is dropped. Settings (mute, volume, pack) are kept per browser.
//
// Test hook, always present: `window.__madangSounds` counts, by name, every cue the table
// asked for (`triggered`: muted or not, before the first gesture or not), every cue that
// was started on the context (`audible`), every one dropped as too late or missing
// (`dropped`), and from which pack each name last played (`from`); `state` is the
// context's state ("locked" before the first gesture); `loadedMs` how long the pack took
// to fetch and decode.

import { t } from "./i18n.js";
import { CALLOUTS, CARD_SOUNDS, cuesOf } from "./sound-cues.js";
import { h } from "./util.js";

const BASE = "/static/sounds";
const KEY = "madang:sound";
export const DEFAULT_PACK = "default";
/** Seconds between the card sounds of one update (a play, its flip, the capture). */
const CARD_GAP = 0.11;
/** Seconds between two callouts. */
const VOICE_GAP = 0.06;
/** An update whose card sounds could not start within this many seconds is not heard … */
const CARD_LATE = 0.8;
/** … and its callouts within this many. */
const VOICE_LATE = 2.5;

const VOICES = new Set(CALLOUTS);
const NAMES = [...CARD_SOUNDS, ...CALLOUTS];

const hook = {
  triggered: {},
  audible: {},
  dropped: {},
  from: {},
  state: "locked",
  loadedMs: null,
};
window.__madangSounds = hook;
const count = (map, name) => {
  map[name] = (map[name] || 0) + 1;
};

function loadSettings() {
  let s = {};
  try {
    s = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    s = {};
  }
  const volume = Number.isFinite(s.volume) ? Math.min(1, Math.max(0, s.volume)) : 0.8;
  const pack = typeof s.pack === "string" && /^[\w-]+$/.test(s.pack) ? s.pack : DEFAULT_PACK;
  return { muted: s.muted === true, volume, pack };
}

/** A pack's manifest, its entries checked (a file is a plain name inside the pack). */
async function fetchManifest(pack) {
  const res = await fetch(`${BASE}/${pack}/manifest.json`, { credentials: "same-origin" });
  if (!res.ok) throw new Error(`voice pack ${pack}: HTTP ${res.status}`);
  const m = await res.json();
  if (m.format !== 1 || typeof m.sounds !== "object" || !m.sounds)
    throw new Error(`voice pack ${pack}: not a format 1 manifest`);
  const sounds = {};
  for (const [name, entry] of Object.entries(m.sounds)) {
    const files = entry?.files;
    const gain = entry?.gain ?? 1;
    const ok =
      Array.isArray(files) &&
      files.length > 0 &&
      files.every((f) => typeof f === "string" && /^[\w.-]+$/.test(f) && !f.startsWith(".")) &&
      Number.isFinite(gain) &&
      gain > 0 &&
      gain <= 4;
    if (ok) sounds[name] = { files, gain };
    else console.warn(`voice pack ${pack}: entry ${name} ignored`);
  }
  return { pack, title: typeof m.title === "string" ? m.title : pack, sounds };
}

class SoundLayer {
  constructor() {
    this.settings = loadSettings();
    this.ctx = null;
    this.master = null;
    this.bank = null; // Promise<Map name -> {pack, gain, buffers}>
    this.ready = null; // the Map once loaded
    this.cardAt = 0;
    this.voiceAt = 0;
    this.sources = new Set();
    const unlock = () => this.unlock();
    for (const type of ["pointerdown", "keydown", "touchend", "click"])
      document.addEventListener(type, unlock, { capture: true, passive: true });
  }

  /** The first gesture creates the context; any later one resumes it if it stopped. */
  unlock() {
    if (!this.ctx) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) {
        hook.state = "unsupported";
        return;
      }
      this.ctx = new AC();
      this.master = this.ctx.createGain();
      this.master.connect(this.ctx.destination);
      this.master.gain.value = this.level();
      this.ctx.onstatechange = () => {
        hook.state = this.ctx.state;
      };
    }
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    hook.state = this.ctx.state;
    this.load(); // once: fetched and decoded while the player finds a table
  }

  level() {
    const { muted, volume } = this.settings;
    return muted ? 0 : volume * volume; // the slider's square: even steps to the ear
  }

  save() {
    localStorage.setItem(KEY, JSON.stringify(this.settings));
    if (this.master && this.ctx)
      this.master.gain.setTargetAtTime(this.level(), this.ctx.currentTime, 0.015);
    if (!this.level()) this.stopAll();
  }

  setMuted(muted) {
    this.settings.muted = muted;
    this.save();
  }

  setVolume(volume) {
    this.settings.volume = Math.min(1, Math.max(0, volume));
    this.save();
  }

  setPack(pack) {
    if (pack === this.settings.pack) return;
    this.settings.pack = pack;
    this.save();
    this.bank = null;
    this.ready = null;
    if (this.ctx) this.load();
  }

  /** Stop what is playing or scheduled (the table closed, or the sound went off). */
  stopAll() {
    for (const s of this.sources) {
      try {
        s.stop();
      } catch {
        // already stopped
      }
    }
    this.sources.clear();
    this.cardAt = 0;
    this.voiceAt = 0;
  }

  async decode(url) {
    const res = await fetch(url, { credentials: "same-origin" });
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    return this.ctx.decodeAudioData(await res.arrayBuffer());
  }

  /** Every name of the vocabulary from the chosen pack, else from the default pack. */
  load() {
    if (this.bank) return this.bank;
    const chosen = this.settings.pack;
    const began = performance.now();
    const bank = (async () => {
      const base = await fetchManifest(DEFAULT_PACK);
      let own = null;
      if (chosen !== DEFAULT_PACK)
        own = await fetchManifest(chosen).catch((e) => {
          console.warn(String(e));
          return null;
        });
      const out = new Map();
      await Promise.all(
        NAMES.map(async (name) => {
          for (const m of [own, base]) {
            const entry = m?.sounds[name];
            if (!entry) continue;
            try {
              const buffers = await Promise.all(
                entry.files.map((f) => this.decode(`${BASE}/${m.pack}/${f}`)),
              );
              out.set(name, { pack: m.pack, gain: entry.gain, buffers });
              return;
            } catch (e) {
              console.warn(`sound ${name} from ${m.pack}: ${e}`);
            }
          }
        }),
      );
      return out;
    })();
    this.bank = bank;
    bank.then(
      (m) => {
        if (this.bank !== bank) return;
        this.ready = m;
        hook.loadedMs = Math.round(performance.now() - began);
      },
      (e) => {
        console.warn(`voice pack: ${e}`);
        if (this.bank === bank) this.bank = null; // the next cue tries again
      },
    );
    return bank;
  }

  /** The sounds of one update of `game` (its events and view), played on top. */
  update(game, events, view) {
    this.cue(cuesOf(game, events, view));
  }

  /** Ask for these sounds now: counted, and started when the page allows it. */
  cue(names) {
    if (!names.length) return;
    for (const n of names) count(hook.triggered, n);
    if (!this.ctx || this.ctx.state === "closed" || !this.level()) return;
    if (this.ready && this.ctx.state === "running") {
      this.schedule(names, 0);
      return;
    }
    // Not decoded yet, or the context still resuming: play when both are done, late by
    // the wait (measured on the page's clock: a suspended context's clock stands still).
    const asked = performance.now();
    const go = () => {
      if (!this.level()) return;
      if (this.ready && this.ctx.state === "running")
        this.schedule(names, (performance.now() - asked) / 1000);
      else for (const n of names) count(hook.dropped, n);
    };
    Promise.all([this.load(), this.ctx.resume()]).then(go, go);
  }

  /** Start `names` on the context's clock, `late` seconds after they were asked for: the
   *  card sounds one after another (a short one 0.11 s after the last, a long one near
   *  its end), the callouts after the card before them and after the last callout. An
   *  update whose card sounds (callouts) could not begin within CARD_LATE (VOICE_LATE) of
   *  its arrival, behind a backlog, drops them. */
  schedule(names, late) {
    const ctx = this.ctx;
    const now = ctx.currentTime;
    let cardAt = Math.max(now, this.cardAt);
    let voiceAt = Math.max(now, this.voiceAt);
    const cardsLate = cardAt - now + late > CARD_LATE;
    const voicesLate = voiceAt - now + late > VOICE_LATE;
    let lastCard = now;
    for (const name of names) {
      const s = this.ready.get(name);
      const voice = VOICES.has(name);
      if (!s?.buffers.length || (voice ? voicesLate : cardsLate)) {
        count(hook.dropped, name);
        continue;
      }
      const buf = s.buffers[Math.floor(Math.random() * s.buffers.length)];
      let at;
      if (voice) {
        at = Math.max(voiceAt, lastCard);
        voiceAt = at + buf.duration + VOICE_GAP;
      } else {
        at = cardAt;
        lastCard = at;
        cardAt = at + Math.max(CARD_GAP, buf.duration - 0.05);
      }
      const src = ctx.createBufferSource();
      src.buffer = buf;
      let out = src;
      if (s.gain !== 1) {
        const g = ctx.createGain();
        g.gain.value = s.gain;
        out = src.connect(g);
      }
      out.connect(this.master);
      src.onended = () => this.sources.delete(src);
      this.sources.add(src);
      src.start(at);
      count(hook.audible, name);
      hook.from[name] = s.pack;
    }
    this.cardAt = cardAt;
    this.voiceAt = voiceAt;
  }
}

/** The one sound layer of the page (module state: it outlives the table pages). */
export const sound = new SoundLayer();

const SVG = "http://www.w3.org/2000/svg";
function icon(muted) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("sound-icon");
  const paths = ["M3 9h4l5-4v14l-5-4H3z"];
  if (muted) paths.push("M16 9l6 6M22 9l-6 6");
  else paths.push("M15.5 8.5a4.5 4.5 0 0 1 0 7", "M18 6a8 8 0 0 1 0 12");
  for (const d of paths) {
    const p = document.createElementNS(SVG, "path");
    p.setAttribute("d", d);
    svg.append(p);
  }
  return svg;
}

/** The packs listed in sounds/packs.json (the default first); [default] if it fails. */
async function packList() {
  try {
    const res = await fetch(`${BASE}/packs.json`, { credentials: "same-origin" });
    const list = (await res.json()).packs;
    if (Array.isArray(list) && list.every((p) => typeof p?.id === "string")) return list;
  } catch {
    // fall through
  }
  return [{ id: DEFAULT_PACK, title: DEFAULT_PACK }];
}

/** The table's sound controls: a mute switch, a volume slider, and the voice pack when
 *  there is more than one. */
export function soundControls() {
  const st = sound.settings;
  const mute = h("button.small.ghost.sound-mute#btn-sound", {
    type: "button",
    "aria-label": t("sound.mute"),
  });
  const paint = () => {
    mute.setAttribute("aria-pressed", String(st.muted));
    mute.title = t(st.muted ? "sound.off" : "sound.on");
    mute.classList.toggle("muted", st.muted);
    mute.replaceChildren(icon(st.muted));
  };
  mute.addEventListener("click", () => {
    sound.setMuted(!st.muted);
    paint();
  });
  paint();
  const volume = h("input.sound-volume#sound-volume", {
    type: "range",
    min: 0,
    max: 100,
    step: 5,
    value: Math.round(st.volume * 100),
    "aria-label": t("sound.volume"),
    title: t("sound.volume"),
    oninput: (e) => sound.setVolume(+e.target.value / 100),
  });
  const box = h("div.sound-ctl", { "data-testid": "sound" }, mute, volume);
  packList().then((packs) => {
    if (packs.length < 2) return;
    box.append(
      h(
        "select.sound-pack#sound-pack",
        {
          "aria-label": t("sound.pack"),
          title: t("sound.pack"),
          onchange: (e) => sound.setPack(e.target.value),
        },
        packs.map((p) => h("option", { value: p.id, selected: p.id === st.pack }, p.title || p.id)),
      ),
    );
  });
  return box;
}
