// 규칙 (rules) as data: every game's options and presets come from GET /api/rules (built
// by the server from the rules dataclasses), so the lobby's form offers every option of
// any game and the lobby and the table list the rules in force, marking the options
// changed from the preset. Nothing here knows a game or an option: names and values are
// the catalogue's `rule.<game>.<option>` and `rule.<game>.<option>.<value>`.
import { api } from "./api.js";
import { has, t } from "./i18n.js";
import { h } from "./util.js";

let loading = null;

/** Every game's `{ruleset_version, options, presets}`, asked of the server once. */
export function rulesCatalogue() {
  if (!loading) {
    loading = api.get("/api/rules").then(
      (r) => r.games,
      (e) => {
        loading = null;
        throw e;
      },
    );
  }
  return loading;
}

/**
 * The presets a menu offers: a preset whose rules are those of one listed before it (the
 * mahjong `mupan` is `default`) is left out, so no name shows twice (U12).
 */
export function distinctPresets(names, cat) {
  if (!cat?.presets) return names;
  const seen = new Set();
  return names.filter((p) => {
    const v = cat.presets[p];
    if (!v) return true;
    const key = JSON.stringify(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** An option's name in words (the option key where the catalogue has none). */
export function optionName(game, name) {
  const key = `rule.${game}.${name}`;
  return has(key) ? t(key) : name;
}

/** A value of an option in words (켜기/끄기 for true/false). */
export function valueText(game, name, value) {
  if (typeof value === "boolean") return t(value ? "rule.on" : "rule.off");
  const key = `rule.${game}.${name}.${value}`;
  return has(key) ? t(key) : String(value);
}

/** Every option in force at a table: its `rules_in_force`, else the preset plus `rules`. */
export function inForce(table, cat) {
  const preset = cat?.presets[table.preset] || {};
  const all = table.rules_in_force || {};
  return Object.keys(all).length ? all : { ...preset, ...(table.rules || {}) };
}

/** The options of `values` that differ from the preset's (`{name: value}`). */
export function changedFrom(values, presetValues) {
  const out = {};
  for (const [k, v] of Object.entries(values)) if (presetValues[k] !== v) out[k] = v;
  return out;
}

/**
 * The rules in force as a list, each option by name and value; those that differ from
 * the preset carry the class `changed` and a 바뀜 mark (not by colour alone).
 */
export function rulesList(game, values, cat) {
  const preset = cat.presets[cat.preset] || {};
  return h(
    "dl.rules-list",
    { "data-testid": "rules-list" },
    cat.options.map((o) => {
      const changed = o.name in preset && preset[o.name] !== values[o.name];
      return h(
        `div.rule${changed ? ".changed" : ""}`,
        { dataset: { option: o.name, changed: changed ? "1" : "0" } },
        h("dt", {}, optionName(game, o.name)),
        h(
          "dd",
          {},
          valueText(game, o.name, values[o.name]),
          changed ? h("span.changed-mark", {}, t("rules.changed")) : null,
        ),
      );
    }),
  );
}

/** A folded box with the rules in force at `table` (the lobby's rows, the table page). */
export function rulesBox(table, games, testid) {
  const cat = games?.[table.game];
  if (!cat) return null;
  const values = inForce(table, cat);
  const n = Object.keys(changedFrom(values, cat.presets[table.preset] || {})).length;
  return h(
    "details.rules-box",
    { "data-testid": testid },
    h("summary", {}, n ? t("rules.title_changed", { n }) : t("rules.title")),
    rulesList(table.game, values, { ...cat, preset: table.preset }),
  );
}

/** The control of one option: a choice of its allowed values, or a number `min`–`max`. */
function control(game, o, onChange) {
  const attrs = { dataset: { option: o.name, type: o.type }, onchange: onChange };
  if (o.type === "bool" || o.values) {
    const values = o.type === "bool" ? [false, true] : o.values;
    return h(
      "select",
      attrs,
      values.map((v) => h("option", { value: JSON.stringify(v) }, valueText(game, o.name, v))),
    );
  }
  if (o.type === "int")
    return h("input", {
      ...attrs,
      type: "number",
      min: o.min,
      max: o.max,
      step: 1,
      inputmode: "numeric",
    });
  return h("input", { ...attrs, type: "text" });
}

function readControl(el) {
  if (el.tagName === "SELECT") return JSON.parse(el.value);
  if (el.dataset.type === "int") return Number.parseInt(el.value, 10);
  return el.value;
}

function writeControl(el, value) {
  el.value = el.tagName === "SELECT" ? JSON.stringify(value) : String(value);
}

/**
 * The lobby form's options of a game: every option, set to the chosen preset's values;
 * `changes()` gives those changed from the preset (what POST /api/tables takes as `rules`),
 * `values()` every option's value; `onChange` is called after each change (a preset too).
 */
export function rulesForm(game, cat, onChange = () => {}) {
  const summary = h("summary", {});
  const grid = h("div.rules-grid");
  const box = h("details.rules-form#new-rules", { "data-testid": "rules-form" }, summary, grid);
  let preset = {};
  const controls = cat.options.map((o) => {
    const el = control(game, o, () => mark());
    grid.append(h("label.rule", { dataset: { option: o.name } }, optionName(game, o.name), el));
    return el;
  });
  function values() {
    const out = {};
    for (const el of controls) out[el.dataset.option] = readControl(el);
    return out;
  }
  function changes() {
    return changedFrom(values(), preset);
  }
  function mark() {
    const changed = changes();
    for (const el of controls) {
      const on = el.dataset.option in changed;
      el.parentElement.classList.toggle("changed", on);
      el.parentElement.dataset.changed = on ? "1" : "0";
    }
    const n = Object.keys(changed).length;
    summary.textContent = n ? t("lobby.rules_changed", { n }) : t("lobby.rules");
    onChange();
  }
  function setPreset(name) {
    preset = cat.presets[name] || {};
    for (const el of controls) writeControl(el, preset[el.dataset.option]);
    mark();
  }
  return { el: box, setPreset, changes, values };
}
