// A waiting hand's row: the server's row partial, sent once as <template id="row-template">
// (scoresheet/sheets/rows.py), filled here (template.js). The words come from the server (the
// page's "offline-texts"), the numbers in the page's language: no row markup of our own.

import { minus, points, signClass, signed, widthClass } from "../numbers.js";
import { fill } from "./template.js";
import { format } from "./texts.js";

/** How a hand's scores are computed (the formula partial of sheet.html): ``detail`` is its
 * breakdown by scoring.js, ``name`` names a seat. */
export function formulaData(detail, hand, name) {
  const miseres = Object.entries(hand.miseres).filter(([, count]) => Number(count));
  return {
    expression: detail.expression,
    per_defender: minus(detail.per_defender),
    misere_text: miseres.length > 0,
    misere_terms: miseres
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([seat, count], index) => ({
        sep: index ? ", " : "",
        amount: Number(count) * detail.misere,
        others: detail.players - 1,
        name: name(seat),
      })),
  };
}

/** The words of a hand's row: ``hand`` as scoring.js takes it, ``detail`` its breakdown. */
export function rowData({ number, dealer, hand, detail, scores, totals }, { names, shortNames, players, texts, sitsOut }) {
  const name = (seat) => names[Number(seat)] ?? "?";
  // As the server wrote them (scoresheet/player_names.py), above each score at large text.
  const short = (seat) => (shortNames || names)[Number(seat)] ?? "?";
  const problems = !detail || detail.problems;
  const out = problems || detail.sitting_out === undefined ? null : detail.sitting_out;
  const data = {
    number: number === null ? "?" : number,
    dealt: format(sitsOut ? texts.deals_out : texts.deals, { name: name(dealer) }),
    passed: !hand,
    played: Boolean(hand),
    cells: scores.map((score, seat) =>
      seat === out
        ? { out: true, "@aria-label": format(texts.sits_out, { name: name(seat) }), "@data-name": short(seat) }
        : {
            plays: true,
            signed: signed(score),
            "@class": signClass(score),
            "@aria-label": name(seat),
            "@data-name": short(seat),
          }
    ),
    total: scores.reduce((a, b) => a + b, 0),
    balanced: scores.reduce((a, b) => a + b, 0) === 0,
    // The totals after this hand, as the server's row has them (a refused hand has none).
    running: Boolean(totals),
    totals: (totals || []).map((total) => ({ signed: signed(total) })),
  };
  if (!hand) return data;
  const miseres = Object.entries(hand.miseres).filter(([, count]) => Number(count));
  Object.assign(data, {
    taker: name(hand.taker),
    partner: hand.partner ? name(hand.partner) : "",
    alone: !hand.partner && players === 5,
    contract: texts.contracts[hand.contract] || "",
    bouts: (texts.bouts || [])[Number(hand.bouts)] ?? hand.bouts,
    points: format(texts.pts, { points: points(problems ? hand.points : detail.points) }),
    result: problems ? "" : format(detail.made ? texts.made_by : texts.lost_by, { diff: detail.diff }),
    petit_au_bout: hand.petit_au_bout
      ? [{ "@class": hand.petit_au_bout, camp: texts.camps[hand.petit_au_bout] || "" }]
      : [],
    poignees: Object.entries(hand.poignees).map(([seat, size]) => ({ size, name: name(seat) })),
    chelem: hand.chelem ? texts.chelems[hand.chelem] || "" : "",
    defence_chelem: hand.defence_chelem,
    miseres: miseres.map(([seat, count]) => ({ name: name(seat), twice: Number(count) === 2 })),
    formula: !problems,
  });
  if (!problems) Object.assign(data, formulaData(detail, hand, name));
  return data;
}

/** The row element of ``row``, from the page's <template>, with ``classes`` of its own; null on
 * a page without one. */
export function rowFrom(template, row, context, classes = []) {
  if (!template) return null;
  const element = template.content.firstElementChild.cloneNode(true);
  const data = rowData(row, context);
  fill(element, data);
  element.classList.add(...classes);
  if (data.passed) element.classList.add("passed");
  const result = element.querySelector(".result");
  if (result) {
    if (data.result) result.classList.add(row.detail.made ? "made" : "lost");
    else result.remove();
  }
  const grid = element.querySelector(".grid.scores");
  if (grid) grid.className = grid.className.replace(/\bchars-\d\b/, widthClass(row.scores));
  const running = element.querySelector(".grid.running");
  if (running) running.className = running.className.replace(/\bchars-\d\b/, widthClass(row.totals));
  const checksum = element.querySelector(".checksum");
  if (checksum) checksum.classList.toggle("unbalanced", !data.balanced);
  return element;
}
