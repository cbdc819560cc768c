// The sheet as the offline code scores it: the server's state of the sheet (the totals'
// data-sheet, which every answer that moves the totals brings), its rules for scoring.js, a
// hand read from the hand form, and the waiting hands projected after the stored ones.

import * as engine from "../scoring.js";

export { engine };
export let state = null;
export let rules = null;

/** The sheet's state as the page shows it now (null on a page without a sheet). */
export function readState() {
  const totals = document.getElementById("totals");
  state = totals && totals.dataset.sheet ? JSON.parse(totals.dataset.sheet) : null;
  rules = state ? engine.rulesFrom(state.rules).rules || null : null;
  return state;
}

/** Whether ``form`` enters a new hand on this sheet: the form the queue takes. */
export function isNewHandForm(form) {
  return Boolean(
    form && form.matches("form.hand-form") && state && state.token && form.getAttribute("action") === state.hand_url
  );
}

/** A hand for scoring.js from the hand form's fields (the names of forms.HandForm). */
export function handFrom(data, seats) {
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
    // forms.ALONE: the taker called themselves, which scoring.js reads as no partner (passed as
    // is, "alone" would be taken for a partner missing).
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

/** Each waiting hand as it will be stored: its number, dealer, row, and the totals after it. */
export function projected(entries) {
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

/**
 * The deals played of a club night's table's plan (state.plan), the waiting hands counted:
 * those everyone passed only when the night counts them. null for a session without a plan.
 */
export function dealsPlayed(entries) {
  const plan = state && state.plan;
  if (!plan) return null;
  let played = plan.passed_counts ? state.hand_count : state.hand_count - plan.passed;
  for (const entry of entries) {
    if (entry.status === "refused" || (entry.fields === null && !plan.passed_counts)) continue;
    played += 1;
  }
  return played;
}
