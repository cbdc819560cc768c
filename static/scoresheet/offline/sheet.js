// Offline and instant entry (issue 15): loaded by offline.js once the page is usable, or when
// it is needed; without JavaScript nothing here runs and every form posts as before.
//
// - Registers the service worker (sw.js): the app's files and every page opened stay on the phone.
// - A page served from the phone's copy says so, with the time it was fetched.
// - Saving a new hand on the sheet puts it in a queue on the phone (IndexedDB) and shows its row
//   and the new totals at once, scored by scoring.js under the session's rules; the queue is then
//   sent in order, each hand with its form's key (the server stores a key once), now or when the
//   network returns. The server's answer replaces the row. A hand the server refuses stays, with
//   its reason, until it is corrected or dropped; the hands after it wait.
// - Corrections, deletions and undo need the network: offline, the page says so.

import { format, rowFrom, signClass, signed, widthClass } from "./rows.js";

const script = document.querySelector("script[data-scoring]");
const texts = readJSON("offline-texts") || {};
let engine = null;
let state = null;
let rules = null;
let syncing = false;
// Set once IndexedDB answered: without it (a private window in an old browser) Save posts as
// before, and nothing is queued.
let queueReady = false;
let retry = null;
// How long to wait before sending again, and between looks at the queue; the browser tests set
// window.tarotIntervals (tests/e2e/conftest.py) instead of waiting.
const intervals = { retry: 15000, queue: 20000, ...(window.tarotIntervals || {}) };

function readJSON(id) {
  const element = document.getElementById(id);
  return element ? JSON.parse(element.textContent) : null;
}

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The queue, in IndexedDB: "queue" holds the hands not yet stored, "keys" every key queued here
// (a form kept by the service worker comes back with a key already used: it gets a fresh one).

let connection = null;

function database() {
  // One connection for the page's life: opening one costs more than a whole save.
  if (!connection) {
    connection = new Promise((resolve, reject) => {
      const opening = indexedDB.open("tarot-offline", 1);
      opening.onupgradeneeded = () => {
        opening.result.createObjectStore("queue", { keyPath: "key" });
        opening.result.createObjectStore("keys", { keyPath: "key" });
      };
      opening.onsuccess = () => {
        opening.result.onversionchange = () => {
          opening.result.close();
          connection = null;
        };
        resolve(opening.result);
      };
      opening.onerror = () => {
        connection = null;
        reject(opening.error);
      };
    });
  }
  return connection;
}

async function transact(stores, mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(stores, mode);
    let result;
    Promise.resolve(work(tx)).then((value) => (result = value));
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

function request(idbRequest) {
  return new Promise((resolve, reject) => {
    idbRequest.onsuccess = () => resolve(idbRequest.result);
    idbRequest.onerror = () => reject(idbRequest.error);
  });
}

// This sheet's queue as last read or written here, so that Save shows its row without waiting
// for IndexedDB; sending reads the database again (another tab may have sent hands).
let memory = null;
const usedKeys = new Set();

async function queued() {
  if (!state || !state.token) return [];
  const all = await transact(["queue"], "readonly", (tx) => request(tx.objectStore("queue").getAll()));
  memory = all.filter((entry) => entry.token === state.token).sort((a, b) => a.order - b.order);
  return memory.slice();
}

async function loadKeys() {
  const keys = await transact(["keys"], "readonly", (tx) => request(tx.objectStore("keys").getAllKeys()));
  keys.forEach((key) => usedKeys.add(key));
}

async function saveEntry(entry, replaces) {
  usedKeys.add(entry.key);
  await transact(["queue", "keys"], "readwrite", (tx) => {
    if (replaces) tx.objectStore("queue").delete(replaces);
    tx.objectStore("queue").put(entry);
    tx.objectStore("keys").put({ key: entry.key, at: Date.now() });
  });
}

async function updateEntry(entry) {
  await transact(["queue"], "readwrite", (tx) => tx.objectStore("queue").put(entry));
}

async function dropEntry(key) {
  if (memory) memory = memory.filter((entry) => entry.key !== key);
  await transact(["queue"], "readwrite", (tx) => tx.objectStore("queue").delete(key));
}

function freshKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// The sheet's state: sheet.html's #sheet-state, inside #totals, so that each answer of the
// server that changes the totals brings a new one. htmx drops every <script> it swaps in, so the
// state is read from the answer's text before the swap.
let serverState = null;

function stateFrom(html) {
  if (!html || !html.includes('id="sheet-state"')) return null;
  const found = new DOMParser().parseFromString(html, "text/html").getElementById("sheet-state");
  return found ? JSON.parse(found.textContent) : null;
}

document.addEventListener("htmx:beforeSwap", (event) => {
  // An answer app.js drops (an outrun poll's) shows an older sheet.
  if (!event.detail.shouldSwap) return;
  const fresh = stateFrom(event.detail.serverResponse);
  if (fresh) serverState = fresh;
});

// The live poll's answer (app.js) replaces the server's rows (#hands) and totals whole: the
// hands still waiting on this phone go back after them, with the totals they make, in the same
// task, so that no moment shows the sheet without them. (While a hand is on its way to the
// server, app.js drops the poll's answer: that hand's own answer brings the sheet.)
document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (!event.target || event.target.id !== "hands" || !memory || !memory.length) return;
  if (readState()) renderNow(memory);
});

function readState() {
  state = serverState || readJSON("sheet-state");
  rules = null;
  if (state && engine) {
    const read = engine.rulesFrom(state.rules);
    rules = read.rules || null;
  }
  return state;
}

// A hand for scoring.js from the hand form's fields (the names of forms.HandForm).
function handFrom(data, seats) {
  let points = data.get("points");
  if (data.get("counted_by_defence") && engine.cardPoints(points) !== null) {
    points = engine.TOTAL_POINTS - engine.cardPoints(points);
  }
  const hand = {
    seats,
    taker: data.get("taker"),
    contract: data.get("contract"),
    bouts: data.get("bouts"),
    points,
    // forms.ALONE: the taker called themselves, which scoring.js reads as no partner (issue 22:
    // passed as is, "alone" was taken for a partner missing).
    partner: data.get("partner") === "alone" ? null : data.get("partner"),
    petit_au_bout: data.get("petit_au_bout"),
    poignees: {},
    chelem: data.get("chelem"),
    defence_chelem: data.has("defence_chelem"),
    miseres: {},
  };
  if (data.get("dealer")) hand.dealer = data.get("dealer");
  for (let seat = 0; seat < seats; seat++) {
    if (data.get(`poignee_${seat}`)) hand.poignees[seat] = data.get(`poignee_${seat}`);
    if (data.get(`misere_${seat}`)) hand.miseres[seat] = data.get(`misere_${seat}`);
  }
  return hand;
}

// Each waiting hand as it will be stored: its number, dealer, row, and the totals after it.
function projected(entries) {
  const seats = state.names.length;
  let totals = state.totals.slice();
  let number = state.hand_count;
  let dealer = state.next_dealer;
  let blocked = false;
  const rows = entries.map((entry) => {
    const row = { entry, dealer, blocked };
    if (entry.status === "refused") {
      blocked = true;
      row.number = null;
    } else {
      number += 1;
      row.number = number;
    }
    if (entry.fields === null) {
      row.scores = new Array(seats).fill(0);
    } else {
      const hand = handFrom(new URLSearchParams(entry.fields), seats);
      // Who deals: the form's dealer when it has one, else the turn of the deal.
      if (hand.dealer === undefined) hand.dealer = dealer;
      else row.dealer = engine.asInt(hand.dealer) ?? dealer;
      row.hand = hand;
      row.detail = engine.breakdown(hand, rules);
      row.scores = row.detail.problems ? new Array(seats).fill(0) : row.detail.scores;
    }
    if (entry.status !== "refused") {
      totals = totals.map((total, seat) => total + row.scores[seat]);
      row.totals = totals;
      dealer = engine.nextDealer(dealer, seats);
    }
    return row;
  });
  return { rows, totals, count: number, next_dealer: dealer };
}

// A waiting hand's row: the server's row template, filled (offline/rows.js), with its place in
// the queue.
function rowElement(row) {
  const element = rowFrom(document.getElementById("row-template"), row, {
    names: state.names,
    players: state.players,
    texts,
    sitsOut: Boolean(rules && rules.dealer_sits_out),
  }, row.entry.status === "refused" ? ["pending", "refused"] : ["pending"]);
  if (!element) return null;
  if (row.number !== null) element.id = `hand-${row.number}`;
  element.dataset.key = row.entry.key;
  let status = texts.waiting;
  if (row.entry.status === "refused") status = format(texts.refused, { reason: row.entry.reason });
  else if (row.entry.status === "sending") status = texts.sending;
  else if (row.blocked) status = texts.blocked;
  const queueStatus = document.createElement("span");
  queueStatus.className = "queue-status";
  queueStatus.setAttribute("role", "status");
  queueStatus.textContent = status;
  element.querySelector("summary").append(queueStatus);
  if (row.entry.status === "refused") {
    element.open = true;
    const actions = document.createElement("div");
    actions.className = "row-actions";
    if (row.entry.form) {
      const correct = document.createElement("button");
      correct.type = "button";
      correct.dataset.correct = row.entry.key;
      correct.textContent = texts.correct;
      actions.append(correct);
    }
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "danger";
    drop.dataset.drop = row.entry.key;
    drop.textContent = texts.drop;
    actions.append(drop);
    element.querySelector(".detail").append(actions);
  }
  return element;
}

function showTotals(totals, count, nextDealer, waiting) {
  const box = document.getElementById("totals");
  if (!box) return;
  const cells = box.querySelectorAll(".total");
  const grid = box.querySelector(".grid");
  if (grid) grid.className = grid.className.replace(/\bchars-\d\b/, widthClass(totals));
  const best = Math.max(...totals);
  const anyScore = totals.some((total) => total !== 0);
  cells.forEach((cell, seat) => {
    const total = totals[seat];
    const score = cell.querySelector(".score");
    score.textContent = signed(total);
    score.className = `score ${signClass(total)}`;
    const rank = 1 + totals.filter((other) => other > total).length;
    cell.querySelector(".rank").textContent = format(texts.rank, { rank });
    cell.classList.toggle("leader", anyScore && total === best);
  });
  const line = box.querySelector(".dealer-line");
  if (line) {
    line.innerHTML = format(texts.hand_deals, {
      number: count + 1,
      name: escapeHTML(state.names[nextDealer]),
    });
    // As the page says it (RULES.md §6): the dealer sits out.
    if (rules && rules.dealer_sits_out) line.append(` ${texts.and_sits_out}`);
  }
  let note = box.querySelector(".pending-note");
  if (waiting && !note) {
    note = document.createElement("p");
    note.className = "pending-note";
    note.textContent = texts.pending_totals;
    box.append(note);
  } else if (!waiting && note) {
    note.remove();
  }
  box.classList.toggle("pending", waiting);
}

// Show the waiting hands after the server's rows, and the totals with them. Each render reads
// the queue; only the latest one shows (an older one's queue may hold a hand stored since).
let renders = 0;

async function render() {
  if (!engine || !readState() || !rules || !state.token) return;
  const ticket = ++renders;
  const entries = await queued();
  if (ticket !== renders) return;
  return renderNow(entries);
}

function renderNow(entries) {
  if (!engine || !readState() || !rules || !state.token) return;
  renders += 1;
  document.querySelectorAll("#hands .hand.pending").forEach((row) => row.remove());
  const hands = document.getElementById("hands");
  if (!hands) return;
  const view = projected(entries);
  for (const row of view.rows) {
    const element = rowElement(row);
    // A row is shown once: the server's row of that number, when it is there, wins.
    if (element && !(element.id && document.getElementById(element.id))) hands.append(element);
  }
  const waiting = view.rows.some((row) => row.entry.status !== "refused");
  if (entries.length || document.querySelector("#totals.pending")) {
    showTotals(view.totals, view.count, view.next_dealer, waiting);
  }
  return view;
}

function flash(text) {
  const box = document.getElementById("flash");
  if (!box) return;
  box.innerHTML = "";
  const message = document.createElement("p");
  message.className = "message warning";
  message.setAttribute("role", "alert");
  message.textContent = text;
  box.append(message);
}

function csrfFrom(html) {
  const match = html.match(/name="csrfmiddlewaretoken" value="([^"]+)"/);
  return match ? match[1] : null;
}

function reasonFrom(html) {
  // Each message of the form the server sent back (they name their field), once.
  const page = new DOMParser().parseFromString(html, "text/html");
  let found = [...page.querySelectorAll(".errorlist li")];
  if (!found.length) found = [...page.querySelectorAll(".form-errors p")];
  return [...new Set(found.map((node) => node.textContent.trim()).filter(Boolean))].join(" ");
}

function scoresOf(row) {
  return [...row.querySelectorAll(".scores .score")].map((cell) =>
    Number(cell.textContent.trim().replace("−", "-").replace("+", ""))
  );
}

async function post(entry) {
  const body = new URLSearchParams(entry.fields === null ? entry.extra : entry.fields);
  const send = () =>
    fetch(entry.action, {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": body.get("csrfmiddlewaretoken") || "" },
    });
  let response = await send();
  if (response.status === 403) {
    // The page's CSRF token expired: take a fresh form's, and send again (same key).
    const fresh = await fetch(entry.action, { headers: { "HX-Request": "true" }, credentials: "same-origin" });
    const token = csrfFrom(await fresh.text());
    if (token) {
      body.set("csrfmiddlewaretoken", token);
      response = await send();
    }
  }
  return response;
}

// Send the queue in order, each hand once; stop at a refused hand or a network failure.
let again = false;

async function sync() {
  if (syncing) {
    // A hand saved while the queue is being sent: look at the queue once more afterwards.
    again = true;
    return;
  }
  if (!engine || !state || !state.token || !navigator.onLine) return;
  syncing = true;
  clearTimeout(retry);
  const run = async () => {
    for (;;) {
      const entries = await queued();
      const entry = entries[0];
      if (!entry || entry.status === "refused") return;
      entry.status = "sending";
      await updateEntry(entry);
      await render();
      let response;
      let html;
      try {
        document.documentElement.dataset.sending = entry.key;
        response = await post(entry);
        html = await response.text();
      } catch (error) {
        console.info("offline: not sent, tried again later", error);
        entry.status = "waiting";
        await updateEntry(entry);
        await render();
        retry = setTimeout(sync, intervals.retry);
        return;
      }
      if (response.status >= 500 || response.status === 429) {
        entry.status = "waiting";
        await updateEntry(entry);
        await render();
        retry = setTimeout(sync, intervals.retry);
        return;
      }
      // The server says what happened (scoresheet/offline.py): a stored hand's answer carries
      // its event; a refused hand (or one outrun by another phone) comes back with its form.
      const events = (response.headers.get("HX-Trigger") || "").split(",").map((name) => name.trim());
      if (!response.ok || !events.includes(script.dataset.stored)) {
        const withForm = [script.dataset.refused, script.dataset.conflict].includes(String(response.status));
        entry.status = "refused";
        entry.reason = reasonFrom(html) || `${response.status} ${response.statusText}`;
        entry.form = withForm ? html : null;
        await updateEntry(entry);
        await render();
        return;
      }
      // Stored (or stored before: the same key). The server's rows and totals replace ours.
      const expected = projected(entries).rows[0];
      await dropEntry(entry.key);
      // The other waiting rows go back after the server's rows at once (no moment without them).
      const others = [...document.querySelectorAll("#hands .hand.pending")];
      others.forEach((row) => row.remove());
      serverState = stateFrom(html) || serverState;
      htmx.swap(document.body, html, { swapStyle: "none" });
      const hands = document.getElementById("hands");
      for (const row of others) {
        const shown = row.id && document.getElementById(row.id);
        if (hands && row.dataset.key !== entry.key && !shown) hands.append(row);
      }
      readState();
      const stored = document.getElementById(`hand-${state.hand_count}`);
      if (stored && expected && expected.number === state.hand_count) {
        const got = scoresOf(stored);
        if (got.join() !== expected.scores.join()) flash(format(texts.disagreed, { number: state.hand_count }));
      }
      await render();
    }
  };
  try {
    if (navigator.locks) await navigator.locks.request(`tarot-queue-${state.token}`, run);
    else await run();
  } finally {
    delete document.documentElement.dataset.sending;
    syncing = false;
    if (again) {
      again = false;
      sync();
    }
  }
}

// The hand form's Save (and Everyone passed): queue, show, send.
async function queueHand(form, submitter) {
  const data = new FormData(form);
  const passed = submitter && submitter.name === "passed";
  let key = data.get("key");
  if (!key || usedKeys.has(key)) key = freshKey();
  data.set("key", key);
  const fields = [...data.entries()].filter(([name]) => name !== "preview" && name !== "passed");
  const entry = {
    key,
    token: state.token,
    action: form.getAttribute("action"),
    order: Date.now(),
    status: "waiting",
    fields: passed ? null : fields.map(([name, value]) => [name, String(value)]),
    extra: passed ? [...fields.map(([name, value]) => [name, String(value)]), ["passed", "1"]] : null,
  };
  const replaces = form.dataset.replaces;
  const entries = (memory || []).filter((other) => other.key !== replaces);
  const old = replaces && (memory || []).find((other) => other.key === replaces);
  if (old) entry.order = old.order;
  entries.push(entry);
  entries.sort((a, b) => a.order - b.order);
  memory = entries;
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

function showProblems(form, problems) {
  const preview = form.querySelector("#preview");
  if (!preview) return;
  const labels = [...new Set(problems.map((problem) => problemLabel(form, problem)))];
  preview.innerHTML =
    `<div class="preview-body"><p class="preview-title">${escapeHTML(texts.not_ready)}</p>` +
    `<ul class="problems">${labels.map((label) => `<li>${escapeHTML(label)}</li>`).join("")}</ul></div>`;
}

// The live preview with no network: scoring.js instead of the server.
function localPreview(form) {
  if (!engine || !rules) return;
  const hand = handFrom(new FormData(form), state.names.length);
  if (hand.dealer === undefined) hand.dealer = projected(memory || []).next_dealer;
  const detail = engine.breakdown(hand, rules);
  if (detail.problems) return showProblems(form, detail.problems);
  const result = format(detail.made ? texts.made_by : texts.lost_by, { diff: detail.diff });
  const items = detail.scores
    .map((value, seat) => `<li><span class="name">${escapeHTML(state.names[seat])}</span> <span class="score ${signClass(value)}">${signed(value)}</span></li>`)
    .join("");
  const perDefender = detail.per_defender < 0 ? "−" + -detail.per_defender : detail.per_defender;
  form.querySelector("#preview").innerHTML =
    `<div class="preview-body"><p class="preview-title"><span class="result ${detail.made ? "made" : "lost"}">${escapeHTML(result)}</span></p>` +
    `<ul class="preview-scores">${items}</ul>` +
    `<p class="formula">${escapeHTML(detail.expression)} = ${perDefender} <span>${escapeHTML(texts.per_defender)}</span></p></div>`;
}

function isNewHandForm(form) {
  return (
    form && form.matches("form.hand-form") && state && state.token && form.getAttribute("action") === state.hand_url
  );
}

document.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    if (!engine || !queueReady || !readState() || !rules || !isNewHandForm(form)) return;
    const submitter = event.submitter;
    const name = submitter ? submitter.name : "save";
    if (name !== "save" && name !== "passed") return;
    if (name === "save") {
      const hand = handFrom(new FormData(form), state.names.length);
      if (hand.dealer === undefined) hand.dealer = projected(memory || []).next_dealer;
      const problems = engine.validate(hand, rules);
      // The form's own requirement beyond the rules: when 5 play, the partner is a choice to
      // make (a player or "alone"), never a default (issue 13).
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
      form.dataset.replaces = entry.key;
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
  // The live poll (app.js) asks again in two seconds: a poll that failed is nobody's business.
  const config = event.detail.requestConfig || {};
  if (new URL(config.path || "", location.href).pathname.endsWith("/live/")) return;
  if (event.detail.elt && event.detail.elt.id === "preview") {
    const form = event.detail.elt.closest("form");
    if (form) localPreview(form);
  } else {
    flash(navigator.onLine ? texts.unreachable : texts.needs_network);
  }
});

// A hand form kept by the service worker may be older than the sheet: give it the right number
// and dealer (the waiting hands count).
document.addEventListener("htmx:afterSettle", (event) => {
  if (!event.detail.target || event.detail.target.id !== "entry") return;
  renumber();
});
// The same when another phone entered a hand while this form was open (app.js's live poll):
// what was typed stays, the form becomes the next hand.
document.addEventListener("sheet:moved", () => renumber());

async function renumber() {
  const form = document.querySelector("#entry form.hand-form");
  if (!form) return;
  if (!engine || !readState() || !rules || !isNewHandForm(form)) return;
  const view = projected(await queued());
  const panel = form.closest(".entry-panel");
  // The number the live poll names this form by (app.js).
  if (panel) panel.dataset.number = String(view.count + 1);
  const title = panel && panel.querySelector("h2");
  if (title && title.firstChild && title.firstChild.nodeType === Node.TEXT_NODE) {
    title.firstChild.nodeValue = title.firstChild.nodeValue.replace(/\d+/, String(view.count + 1));
    const small = title.querySelector("small");
    const words = rules.dealer_sits_out ? texts.deals_out : texts.deals;
    if (small) small.textContent = format(words, { name: state.names[view.next_dealer] });
  }
  if (rules.dealer_sits_out) sitOut(form, view.next_dealer);
}

// RULES.md §6: the dealer sits out and takes no role, so the form leaves their seat out. A form
// kept for an earlier hand left out its dealer: give that seat back and leave this one's out.
function sitOut(form, dealer) {
  const seats = state.names.length;
  const offered = new Set([...form.querySelectorAll('input[name="taker"]')].map((input) => Number(input.value)));
  const left = [...Array(seats).keys()].find((seat) => !offered.has(seat));
  if (left === undefined || left === dealer) return;
  for (const name of ["taker", "partner"]) {
    const input = form.querySelector(`input[name="${name}"][value="${dealer}"]`);
    if (!input) continue;
    input.value = String(left);
    input.checked = false;
    input.closest("label").querySelector("span").textContent = state.names[left];
    const group = input.closest("fieldset");
    const labels = [...group.querySelectorAll("label.segment")];
    const order = (label) => {
      const value = label.querySelector("input").value;
      return value === "" ? -1 : Number(value);
    };
    labels.sort((a, b) => order(a) - order(b)).forEach((label) => label.parentElement.append(label));
    group.querySelectorAll(":scope > .errorlist").forEach((list) => group.append(list));
  }
  for (const prefix of ["poignee", "misere"]) {
    const inputs = form.querySelectorAll(`input[name="${prefix}_${dealer}"]`);
    if (!inputs.length) continue;
    const fieldset = inputs[0].closest("fieldset");
    inputs.forEach((input) => {
      input.name = `${prefix}_${left}`;
      input.checked = input.value === "";
    });
    fieldset.querySelectorAll(`[id*="${prefix}_${dealer}_"], [for*="${prefix}_${dealer}_"]`).forEach((node) => {
      for (const attribute of ["id", "for"]) {
        const value = node.getAttribute(attribute);
        if (value) node.setAttribute(attribute, value.replace(`${prefix}_${dealer}_`, `${prefix}_${left}_`));
      }
    });
    fieldset.querySelector("legend").textContent = state.names[left];
    const parent = fieldset.parentElement;
    const seatOf = (set) => Number(set.querySelector("input").name.split("_")[1]);
    [...parent.querySelectorAll(`:scope > fieldset.${prefix}`)]
      .sort((a, b) => seatOf(a) - seatOf(b))
      .forEach((set) => parent.append(set));
  }
}

function banner() {
  let box = document.getElementById("offline-banner");
  const copy = document.documentElement.dataset.offlineCopy;
  let text = null;
  if (copy) {
    const when = new Date(copy);
    const time = Number.isNaN(when.getTime())
      ? copy
      : new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
          dateStyle: "short",
          timeStyle: "short",
        }).format(when);
    text = format(texts.offline_copy, { time });
  } else if (!navigator.onLine) {
    text = texts.offline_now;
  }
  if (!text) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = document.createElement("p");
    box.id = "offline-banner";
    box.className = "offline-banner";
    box.setAttribute("role", "status");
    const main = document.getElementById("main");
    if (main) main.prepend(box);
  }
  box.textContent = text;
}

// Back online on a page from the phone's copy: send the queue, then show the server's sheet.
async function refreshFromServer() {
  if (!document.documentElement.dataset.offlineCopy || !navigator.onLine) return;
  try {
    const response = await fetch(location.href, { credentials: "same-origin" });
    if (!response.ok) return;
    const html = await response.text();
    serverState = stateFrom(html) || serverState;
    const page = new DOMParser().parseFromString(html, "text/html");
    for (const id of ["totals", "hands", "actions", "chart"]) {
      const fresh = page.getElementById(id);
      const current = document.getElementById(id);
      if (fresh && current) {
        current.replaceWith(fresh);
        htmx.process(fresh);
      }
    }
    delete document.documentElement.dataset.offlineCopy;
    banner();
    await render();
  } catch (error) {
    // Still unreachable: the next "online" event tries again.
    console.info("offline: the server is still unreachable", error);
  }
}

window.addEventListener("online", async () => {
  banner();
  await sync();
  await refreshFromServer();
});
window.addEventListener("offline", banner);

async function registerWorker() {
  if (!("serviceWorker" in navigator) || !script) return;
  try {
    const controlled = Boolean(navigator.serviceWorker.controller);
    await navigator.serviceWorker.register(script.dataset.worker, { scope: "/" });
    const ready = await navigator.serviceWorker.ready;
    // This page, and the hand form of a sheet, kept for offline use (once: a page the worker
    // served is kept already).
    const message = { type: "keep", pages: controlled ? [] : [location.href], fragments: [] };
    if (state && state.hand_url) message.fragments.push(state.hand_url);
    (navigator.serviceWorker.controller || ready.active).postMessage(message);
  } catch (error) {
    // No worker (an insecure origin, a private window): the app works online as before.
    console.info("offline: no service worker", error);
  }
}

async function start() {
  banner();
  try {
    engine = await import(script.dataset.scoring);
  } catch (error) {
    console.error("offline: scoring.js did not load", error);
    engine = null;
  }
  if (readState() && state.token) {
    try {
      await loadKeys();
      queueReady = true;
    } catch (error) {
      // No IndexedDB (a private window in an old browser): Save posts as before.
      console.warn("offline: no queue on this phone", error);
      queueReady = false;
    }
    await render();
    sync();
    setInterval(() => {
      if (!syncing) sync();
    }, intervals.queue);
  }
  await refreshFromServer();
  registerWorker();
  // A hand form opened before this code loaded: numbered as the queue says.
  renumber();
}

start();
