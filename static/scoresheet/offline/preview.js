// The live preview with no network: scoring.js scores the hand form, and the server's preview
// partial, sent with the form as <template id="preview-template"> (scoresheet/sheets/rows.py),
// is filled with it: the same markup, warnings, "sits out", misère terms and attack line.

import { points, signClass, signed } from "../numbers.js";
import { memory } from "./queue.js";
import { formulaData } from "./rows.js";
import { engine, handFrom, projected, readState, rules, state } from "./state.js";
import { filled } from "./template.js";
import { format, texts } from "./texts.js";

// A warning's message in the page's language, its card points written as the page writes them.
function warningText(warning, words) {
  const params = {};
  for (const [name, value] of Object.entries(warning.params || {})) {
    params[name] = typeof value === "number" ? points(value) : value;
  }
  return format(words[warning.message] ?? warning.message, params);
}

/** The words of a valid hand's preview: ``detail`` its breakdown by scoring.js, ``warnings``
 * what needs a second look, ``converted`` when the points were typed as the defence's;
 * ``words`` translates the warnings' messages (offline.py's texts). */
export function previewData({ hand, detail, warnings, converted }, { names, words }) {
  const name = (seat) => names[Number(seat)] ?? "";
  return {
    ready: true,
    converted: Boolean(converted),
    attack: points(detail.points),
    made: detail.made,
    lost: !detail.made,
    diff: detail.diff,
    warned: warnings.length > 0,
    warnings: warnings.map((warning) => ({ warning: warningText(warning, words) })),
    cells: detail.scores.map((score, seat) =>
      seat === detail.sitting_out
        ? { name: name(seat), out: true }
        : { name: name(seat), plays: [{ signed: signed(score), "@class": signClass(score) }] }
    ),
    ...formulaData(detail, hand, name),
  };
}

/** The words of the preview of a hand that is not ready: what is missing or wrong. */
export function problemsData(errors) {
  return { problems: true, errors: errors.map((error) => ({ error })) };
}

function show(form, data) {
  const preview = form.querySelector("#preview");
  const template = document.getElementById("preview-template");
  if (preview && template) preview.replaceChildren(filled(template, data));
}

// What a problem is about, as the form names it (the label of its field).
function problemLabel(form, problem) {
  let name = problem.field;
  if ((name === "poignees" || name === "miseres") && problem.seat !== null) {
    name = `${name === "poignees" ? "poignee" : "misere"}_${problem.seat}`;
  }
  const input = form.querySelector(`[name="${name}"]`);
  const group = input && input.closest("fieldset, .field");
  const label = group && group.querySelector("legend, label");
  return label ? label.textContent.trim() : problem.field;
}

/** The preview says what is wrong with the form's hand, by the form's own labels. */
export function showProblems(form, problems) {
  show(form, problemsData([...new Set(problems.map((problem) => problemLabel(form, problem)))]));
}

/** The preview of the form's hand, scored on the phone. */
export function localPreview(form) {
  if (!readState() || !rules) return;
  const data = new FormData(form);
  const hand = handFrom(data, state.names.length);
  if (hand.dealer === undefined) hand.dealer = projected(memory || []).next_dealer;
  const detail = engine.breakdown(hand, rules);
  if (detail.problems) return showProblems(form, detail.problems);
  const warnings = engine.warnings(hand, rules);
  const converted = Boolean(data.get("counted_by_defence"));
  show(form, previewData({ hand, detail, warnings, converted }, { names: state.names, words: texts.warnings || {} }));
}
