// The hand form's Save (and Everyone passed) on the sheet: the hand goes into the queue, its row
// and the new totals show at once, and the queue is sent. A refused hand's "Correct it" and
// "Drop this hand"; what needs the network, refused offline with a word.

import { flash } from "./banner.js";
import { localPreview, showProblems } from "./preview.js";
import { dropEntry, freshKey, memory, queued, remember, saveEntry, usedKeys } from "./queue.js";
import { sync } from "./send.js";
import { engine, handFrom, isNewHandForm, projected, readState, rules, state } from "./state.js";
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

async function queueHand(form, submitter) {
  const data = new FormData(form);
  const passed = submitter && submitter.name === "passed";
  let key = data.get("key");
  if (!key || usedKeys.has(key)) key = freshKey();
  data.set("key", key);
  const fields = [...data.entries()]
    .filter(([name]) => name !== "preview" && name !== "passed")
    .map(([name, value]) => [name, String(value)]);
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

document.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    if (!queueReady || !readState() || !rules || !isNewHandForm(form)) return;
    const submitter = event.submitter;
    const name = submitter ? submitter.name : "save";
    if (name !== "save" && name !== "passed") return;
    if (name === "save") {
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
    flash(navigator.onLine ? texts.unreachable : texts.needs_network);
  }
});
