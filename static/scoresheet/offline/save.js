// The hand form's Save (and Everyone passed) on the sheet: the hand goes into the queue, its row
// and the new totals show at once, and the queue is sent. A refused hand's "Correct it" and
// "Drop this hand"; what needs the network, refused offline with a word.

import { flash } from "./banner.js";
import { localPreview, showProblems } from "./preview.js";
import { dropEntry, freshKey, memory, queued, remember, saveEntry, updateEntry, usedKeys } from "./queue.js";
import { sync } from "./send.js";
import { dealsPlayed, engine, handFrom, isNewHandForm, projected, readState, rules, state } from "./state.js";
import { texts } from "./texts.js";
import { render, renderNow } from "./waiting.js";

// Set once IndexedDB answered: without it (a private window in an old browser) Save posts as
// before, and nothing is queued.
let queueReady = false;

export function queueIsReady() {
  queueReady = true;
}

// The form "Correct it" opened: the refused hand it replaces in the queue.
const replacing = new WeakMap();

// The question's button (hand_form.html, "beyond-plan") confirms a deal past a club night's
// table's plan, and says what was asked for: a hand, or a deal everyone passed.
function isPassed(submitter) {
  if (!submitter) return false;
  return submitter.name === "passed" || (submitter.name === "beyond_plan" && submitter.value === "passed");
}

async function queueHand(form, submitter) {
  const data = new FormData(form);
  const passed = isPassed(submitter);
  let key = data.get("key");
  if (!key || usedKeys.has(key)) key = freshKey();
  data.set("key", key);
  const fields = [...data.entries()]
    .filter(([name]) => name !== "preview" && name !== "passed")
    .map(([name, value]) => [name, String(value)]);
  // The queued deal carries its confirmation: sent later, offline, it is still confirmed.
  if (submitter && submitter.name === "beyond_plan") fields.push(["beyond_plan", "1"]);
  const entry = {
    key,
    token: state.token,
    action: form.getAttribute("action"),
    order: Date.now(),
    status: "waiting",
    fields: passed ? null : fields,
    extra: passed ? [...fields, ["passed", "1"]] : null,
  };
  const replaces = replacing.get(form);
  const entries = (memory || []).filter((other) => other.key !== replaces);
  const old = replaces && (memory || []).find((other) => other.key === replaces);
  if (old) entry.order = old.order;
  entries.push(entry);
  entries.sort((a, b) => a.order - b.order);
  remember(entries);
  usedKeys.add(key);
  // The row and the totals first, from memory; the queue is written to the phone right after,
  // before anything is sent.
  const panel = document.getElementById("entry");
  if (panel) panel.replaceChildren();
  renderNow(entries);
  const row = document.querySelector(`#hands .hand.pending[data-key="${key}"]`);
  if (row) row.scrollIntoView({ block: "nearest" });
  await saveEntry(entry, replaces);
  sync();
}

// A club night's table that has played its deals (the waiting ones counted): the form asks
// before a deal more (its question under the buttons, which it shows here); false when there is
// nothing to ask.
function asksFirst(form, submitter) {
  const played = dealsPlayed(memory || []);
  const question = form.querySelector("[data-beyond-plan]");
  if (played === null || played < state.plan.deals || !question) return false;
  question.querySelectorAll("[data-deal-next]").forEach((number) => {
    number.textContent = String(played + 1);
  });
  const confirm = question.querySelector('button[name="beyond_plan"]');
  if (confirm) confirm.value = isPassed(submitter) ? "passed" : "hand";
  question.hidden = false;
  question.scrollIntoView({ block: "nearest" });
  if (confirm) confirm.focus({ preventScroll: true });
  return true;
}

document.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    if (!queueReady || !readState() || !rules || !isNewHandForm(form)) return;
    const submitter = event.submitter;
    const name = submitter ? submitter.name : "save";
    if (name !== "save" && name !== "passed" && name !== "beyond_plan") return;
    if (name === "save" || (name === "beyond_plan" && !isPassed(submitter))) {
      const hand = handFrom(new FormData(form), state.names.length);
      if (hand.dealer === undefined) hand.dealer = projected(memory || []).next_dealer;
      const problems = engine.validate(hand, rules);
      // The form's own requirement beyond the rules: when 5 play, the partner is a choice to
      // make (a player or "alone"), never a default.
      const partner = form.querySelector('input[name="partner"]');
      if (partner && !form.querySelector('input[name="partner"]:checked')) {
        problems.push({ field: "partner", seat: null });
      }
      if (problems.length) {
        // Online the server explains (its messages name each field); offline, scoring.js does.
        if (navigator.onLine) return;
        event.preventDefault();
        event.stopImmediatePropagation();
        showProblems(form, problems);
        return;
      }
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    if (name !== "beyond_plan" && asksFirst(form, submitter)) return;
    queueHand(form, submitter);
  },
  true
);

document.addEventListener("click", async (event) => {
  const drop = event.target.closest("[data-drop]");
  if (drop) {
    await dropEntry(drop.dataset.drop);
    await render();
    sync();
    return;
  }
  // A deal the server refused past the table's plan (its answer named "beyond_plan"): the
  // phone asked, and this confirms it; it is sent again, confirmed.
  const anyway = event.target.closest("[data-save-anyway]");
  if (anyway) {
    const entry = (await queued()).find((other) => other.key === anyway.dataset.saveAnyway);
    if (!entry) return;
    const confirmed = [...(entry.fields || entry.extra || []), ["beyond_plan", "1"]];
    if (entry.fields === null) entry.extra = confirmed;
    else entry.fields = confirmed;
    entry.status = "waiting";
    entry.ask = false;
    entry.reason = "";
    entry.form = null;
    await updateEntry(entry);
    await render();
    sync();
    return;
  }
  const correct = event.target.closest("[data-correct]");
  if (correct) {
    const entry = (await queued()).find((other) => other.key === correct.dataset.correct);
    if (!entry || !entry.form) return;
    htmx.swap("#entry", entry.form, { swapStyle: "innerHTML" });
    const form = document.querySelector("#entry form.hand-form");
    if (form) {
      replacing.set(form, entry.key);
      (form.closest(".entry-panel") || form).scrollIntoView({ block: "start" });
    }
  }
});

const NEEDS_NETWORK = /\/(hands\/\d+\/(edit|delete)|undo)\/$/;

document.addEventListener("htmx:beforeRequest", (event) => {
  if (navigator.onLine) return;
  const config = event.detail.requestConfig || {};
  const path = new URL(config.path || "", location.href).pathname;
  if (event.detail.elt && event.detail.elt.id === "preview") {
    event.preventDefault();
    const form = event.detail.elt.closest("form");
    if (form) localPreview(form);
  } else if (NEEDS_NETWORK.test(path) || config.verb !== "get") {
    event.preventDefault();
    flash(texts.needs_network);
  }
});

document.addEventListener("htmx:sendError", (event) => {
  // The live poll (live.js) asks again in two seconds: a poll that failed is nobody's business.
  const config = event.detail.requestConfig || {};
  if (new URL(config.path || "", location.href).pathname.endsWith("/live/")) return;
  if (event.detail.elt && event.detail.elt.id === "preview") {
    const form = event.detail.elt.closest("form");
    if (form) localPreview(form);
  } else {
    // A page that is the phone's copy was shown because the server could not be reached: the
    // phone is offline even when the browser says it is online (it only knows of a network).
    const offline = !navigator.onLine || document.documentElement.dataset.offlineCopy;
    flash(offline ? texts.needs_network : texts.unreachable);
  }
});
