// Sending the queue: in order, each hand once with its form's key (the server stores a key once),
// now or when the network returns. The server's answer is read as data, never as markup
// (docs/architecture.md, "A request's path"): the queue's requests are htmx requests that ask for
// JSON; the answer says its outcome, the stored hand's number and scores, or the reasons of a
// refusal by field, and carries the sheet's changed regions for the page to swap in. A hand the
// server refuses stays, with its reason, until it is corrected or dropped; the hands after it
// wait.

import { flash } from "./banner.js";
import { dropEntry, queued, updateEntry } from "./queue.js";
import { projected, state } from "./state.js";
import { format, texts } from "./texts.js";
import { render } from "./waiting.js";

// How long to wait before sending again; the browser tests set window.tarotIntervals
// (tests/e2e/conftest.py) instead of waiting.
const intervals = { retry: 15000, ...(window.tarotIntervals || {}) };
// Django's CSRF cookie (settings: readable by the page, its default name).
const CSRF_COOKIE = "csrftoken";

let syncing = false;
let again = false;
let retry = null;
// The key of the hand on its way, while the queue is being sent.
let onItsWay = null;

/** Whether the queue is being sent now. */
export function sending() {
  return syncing;
}

// While a hand of the queue is on its way, its own answer brings the sheet, which the live
// poll's answer (live.js) may or may not hold yet: the poll's answer is dropped, before anyone
// else reads it (a capturing listener), and the next poll asks again.
document.addEventListener(
  "htmx:beforeSwap",
  (event) => {
    const config = event.detail.requestConfig || {};
    if (onItsWay !== null && config.path && config.path.includes("/live/")) event.detail.shouldSwap = false;
  },
  true
);

function csrfToken() {
  const pair = document.cookie.split("; ").find((cookie) => cookie.startsWith(`${CSRF_COOKIE}=`));
  return pair ? decodeURIComponent(pair.slice(CSRF_COOKIE.length + 1)) : "";
}

async function post(entry) {
  const body = new URLSearchParams(entry.fields === null ? entry.extra : entry.fields);
  // The token goes in the header, from the cookie: the form's own, kept in the queue (for days,
  // maybe), may be stale, and the server reads the form's before the header.
  body.delete("csrfmiddlewaretoken");
  const send = () =>
    fetch(entry.action, {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", Accept: "application/json", "X-CSRFToken": csrfToken() },
    });
  let response = await send();
  if (response.status === 403) {
    // No CSRF cookie any more (cleared, expired): any form of the app sets a fresh one.
    await fetch(entry.action, { credentials: "same-origin" });
    response = await send();
  }
  return response;
}

async function answerOf(response) {
  const type = response.headers.get("Content-Type") || "";
  return type.startsWith("application/json") ? response.json() : null;
}

// Each reason the server gave (under its field's name), once.
function reasonOf(answer) {
  const reasons = Object.values((answer && answer.errors) || {}).flat();
  return [...new Set(reasons)].join(" ");
}

async function later(entry) {
  entry.status = "waiting";
  await updateEntry(entry);
  await render();
  retry = setTimeout(sync, intervals.retry);
}

// One hand sent; false when the queue stops here (a failure, a refusal).
async function sendOne(entries) {
  const entry = entries[0];
  entry.status = "sending";
  await updateEntry(entry);
  await render();
  let response;
  let answer;
  try {
    onItsWay = entry.key;
    response = await post(entry);
    answer = await answerOf(response);
  } catch (error) {
    console.info("offline: not sent, tried again later", error);
    await later(entry);
    return false;
  }
  if (response.status >= 500 || response.status === 429) {
    await later(entry);
    return false;
  }
  if (!answer || !["stored", "already"].includes(answer.outcome)) {
    // Refused (or outrun): kept with the server's reasons, and its form for "Correct it".
    entry.status = "refused";
    entry.reason = reasonOf(answer) || `${response.status} ${response.statusText}`;
    entry.form = (answer && answer.form) || null;
    // A deal past a club night's table's plan, unconfirmed: the phone asks (waiting.js).
    entry.ask = Boolean(answer && answer.errors && answer.errors.beyond_plan);
    await updateEntry(entry);
    await render();
    return false;
  }
  // Stored (or stored before: the same key). The server's rows and totals replace ours.
  const expected = projected(entries).rows[0];
  await dropEntry(entry.key);
  // The other waiting rows go back after the server's rows at once (no moment without them).
  const others = [...document.querySelectorAll("#hands .hand.pending")];
  others.forEach((row) => row.remove());
  htmx.swap(document.body, answer.html, { swapStyle: "none" });
  const hands = document.getElementById("hands");
  for (const row of others) {
    const shown = row.id && document.getElementById(row.id);
    if (hands && row.dataset.key !== entry.key && !shown) hands.append(row);
  }
  if (expected && answer.scores && expected.number === answer.number) {
    if (answer.scores.join() !== expected.scores.join()) flash(format(texts.disagreed, { number: answer.number }));
  }
  await render();
  return true;
}

/** Send the queue in order, each hand once; stop at a refused hand or a network failure. */
export async function sync() {
  if (syncing) {
    // A hand saved while the queue is being sent: look at the queue once more afterwards.
    again = true;
    return;
  }
  if (!state || !state.token || !navigator.onLine) return;
  syncing = true;
  clearTimeout(retry);
  const run = async () => {
    for (;;) {
      const entries = await queued();
      if (!entries.length || entries[0].status === "refused") return;
      if (!(await sendOne(entries))) return;
    }
  };
  try {
    if (navigator.locks) await navigator.locks.request(`tarot-queue-${state.token}`, run);
    else await run();
  } finally {
    onItsWay = null;
    syncing = false;
    if (again) {
      again = false;
      sync();
    }
  }
}
