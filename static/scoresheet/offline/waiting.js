// The hands waiting on this phone, shown after the server's rows: each the server's row
// template filled (rows.js) with its place in the queue, and the totals they make.

import { signClass, signed, widthClass } from "../numbers.js";
import { memory, queued } from "./queue.js";
import { rowFrom } from "./rows.js";
import { projected, readState, rules, state } from "./state.js";
import { format, texts } from "./texts.js";

// A waiting hand's row, with its place in the queue.
function rowElement(row) {
  const element = rowFrom(document.getElementById("row-template"), row, {
    names: state.names,
    shortNames: state.short_names,
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
    if (row.entry.ask) {
      const anyway = document.createElement("button");
      anyway.type = "button";
      anyway.className = "primary";
      anyway.dataset.saveAnyway = row.entry.key;
      anyway.textContent = texts.save_anyway;
      actions.append(anyway);
    }
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
  // The server's line, in its words: who deals (and sits out, under that rule) the next hand.
  const line = box.querySelector(".dealer-line");
  const name = line && line.querySelector("strong");
  if (name) {
    // The name as the server's line shows it (a page kept from before short names: the whole).
    name.textContent = (state.short_names || state.names)[nextDealer];
    const words = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let text = words.nextNode(); text; text = words.nextNode()) {
      if (name.contains(text) || !/\d/.test(text.nodeValue)) continue;
      text.nodeValue = text.nodeValue.replace(/\d+/, String(count + 1));
      break;
    }
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

// Each render reads the queue; only the latest one shows (an older one's queue may hold a hand
// stored since).
let renders = 0;

/** Show the waiting hands as the queue holds them now. */
export async function render() {
  if (!readState() || !rules || !state.token) return;
  const ticket = ++renders;
  const entries = await queued();
  if (ticket !== renders) return;
  return renderNow(entries);
}

/** Show ``entries`` after the server's rows, and the totals with them, at once. */
export function renderNow(entries) {
  if (!readState() || !rules || !state.token) return;
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

// The live poll's answer (live.js) replaces the server's rows (#hands) and totals whole: the
// hands still waiting on this phone go back after them, with the totals they make, in the same
// task, so that no moment shows the sheet without them. (While a hand is on its way to the
// server, send.js drops the poll's answer: that hand's own answer brings the sheet.)
document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (!event.target || event.target.id !== "hands" || !memory || !memory.length) return;
  renderNow(memory);
});
