// French Tarot scoring in the browser: the same rules and house rules as scoresheet/scoring.py
// (docs/rules.md §1–3 and §6), so that a phone can show a hand's row before (or without) the server.
// The server stays the authority; tests/test_scoring_js.py runs both engines on the same hands.
// Messages are the Python module's English msgids; problems name their field (and seat).

export const BASE = 25;
export const MULTIPLIERS = { prise: 1, garde: 2, garde_sans: 4, garde_contre: 6 };
export const TARGETS = { 0: 56, 1: 51, 2: 41, 3: 36 };
export const PETIT_AU_BOUT = 10;
export const POIGNEE_TRUMPS = {
  3: { simple: 13, double: 15, triple: 18 },
  4: { simple: 10, double: 13, triple: 15 },
  5: { simple: 8, double: 10, triple: 13 },
};
export const CHELEM_BONUSES = { announced_made: 400, unannounced_made: 200, announced_failed: -200 };
export const DEFENCE_CHELEM = 200;
export const TRUMPS = 22;
export const TOTAL_POINTS = 91;
export const BOUT_MIN_POINTS = 4;
export const POIGNEE_VALUES = {
  "20-30-40": { simple: 20, double: 30, triple: 40 },
  "20-40-60": { simple: 20, double: 40, triple: 60 },
};
export const ROUNDINGS = [1, 5, 10];
export const MISERES = [0, 10, 20];
export const SEATS = [3, 4, 5, 6];
const CAMPS = ["attack", "defence"];
const POIGNEES = ["simple", "double", "triple"];
export const FFT = Object.freeze({
  poignees: "20-30-40",
  rounding: 1,
  misere: 0,
  dealer_sits_out: false,
});

const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const isInt = (value) => typeof value === "number" && Number.isInteger(value);
const isMapping = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const blank = (value) => value === null || value === undefined || value === "";
// No negative zero in a row: JSON and the page would both read it as 0, but keep it exact.
const zero = (value) => value + 0;

/**
 * An int from an integer number or a string of 1 to 9 ASCII digits and nothing else (Python's
 * _as_int, numbers.read: no sign, no space), else null.
 */
export function asInt(value) {
  if (isInt(value)) return value;
  if (typeof value === "string" && /^[0-9]{1,9}$/.test(value)) return parseInt(value, 10);
  return null;
}

/**
 * Card points as a number (49, 40.5), or null when `value` is not a number of card points: the
 * strict reading of scoring.card_points. Text: digits, then at most one decimal after a point or
 * a comma, at most six digits before it. A number: below a million, at most six decimals.
 */
export function cardPoints(value) {
  if (typeof value === "string") {
    const text = value.trim().replace(",", ".");
    const point = text.indexOf(".");
    const whole = point < 0 ? text : text.slice(0, point);
    const decimals = point < 0 ? "" : text.slice(point + 1);
    if (!/^[0-9]+$/.test(whole + decimals)) return null;
    if (whole.length > 6 || decimals.length > 1) return null;
    return Number(`${whole || 0}.${decimals || 0}`);
  }
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  if (value === 0) return 0;
  if (Math.abs(value) >= 1e6) return null;
  // The shortest text that reads back as this number (Python's repr too): six decimals at most.
  const text = String(Math.abs(value));
  if (text.includes("e")) return null;
  const point = text.indexOf(".");
  return point < 0 || text.length - point - 1 <= 6 ? value : null;
}

const RULE_CHOICES = {
  poignees: [(v) => typeof v === "string" && has(POIGNEE_VALUES, v), "Poignées: choose 20-30-40 or 20-40-60."],
  rounding: [(v) => isInt(v) && ROUNDINGS.includes(v), "Rounding: choose 1 (no rounding), 5 or 10."],
  misere: [(v) => isInt(v) && MISERES.includes(v), "Misère: choose 0 (no misère), 10 or 20."],
  dealer_sits_out: [(v) => typeof v === "boolean", "Dealer sits out: answer yes or no."],
};

function problem(field, message, params = {}, seat = null) {
  return { field, message, params, seat };
}

/** Rules from their stored data ({} is FFT), or {problems} naming each bad rule. */
export function rulesFrom(data) {
  if (!isMapping(data)) {
    return { problems: [problem("rules", "Rules: give each rule by name, like {“rounding”: 10}.")] };
  }
  const problems = [];
  for (const [name, value] of Object.entries(data)) {
    if (!has(RULE_CHOICES, name)) {
      problems.push(problem("rules", "Rules: there is no rule “%(value)s”.", { value: name }));
    } else if (!RULE_CHOICES[name][0](value)) {
      problems.push(problem(name, RULE_CHOICES[name][1], { value }));
    }
  }
  if (problems.length) return { problems };
  return { rules: { ...FFT, ...data } };
}

/** How many play each hand with `seats` seats: one fewer when the dealer sits out. */
export function players(rules, seats) {
  return rules.dealer_sits_out ? seats - 1 : seats;
}

/** Why these rules cannot play at `seats` seats (docs/rules.md §6.4); empty when they can. */
export function checkRules(rules, seats) {
  const number = asInt(seats);
  if (!SEATS.includes(number)) {
    return [problem("seats", "Seats: a session has 3 to 6 seats, not %(value)s.", { value: seats })];
  }
  if (number === 6 && !rules.dealer_sits_out) {
    return [problem("dealer_sits_out", "Dealer sits out: at 6 seats the dealer always sits out, so it must be on.")];
  }
  if (number < 5 && rules.dealer_sits_out) {
    return [
      problem(
        "dealer_sits_out",
        "Dealer sits out: only at 5 or 6 seats; at %(value)s seats everyone plays every hand.",
        { value: number }
      ),
    ];
  }
  return [];
}

/** Who deals after `dealer`: the next seat, passed deal or not. */
export function nextDealer(dealer, seats) {
  return (dealer + 1) % seats;
}

// The checks of scoring._check, in the same order: {checked} or {problems}.
function check(hand, rules) {
  const problems = [];
  const bad = (field, message, seat = null, params = {}) => problems.push(problem(field, message, params, seat));

  const tableProblems = checkRules(rules, hand.seats);
  if (tableProblems.length) return { problems: tableProblems };
  const seatCount = asInt(hand.seats);
  const playing = players(rules, seatCount);
  const inSeats = (seat) => seat !== null && seat >= 0 && seat < seatCount;

  let sittingOut = null;
  if (rules.dealer_sits_out) {
    sittingOut = asInt(hand.dealer);
    if (!inSeats(sittingOut)) {
      bad("dealer", "Dealer: choose who dealt this hand; they sit it out.");
      sittingOut = null;
    }
  }

  const taker = asInt(hand.taker);
  if (!inSeats(taker)) bad("taker", "Taker: choose one of the players at the table.");
  else if (taker === sittingOut) bad("taker", "Taker: the dealer sits out this hand, so cannot take.");

  let partner = null;
  if (!blank(hand.partner)) {
    partner = asInt(hand.partner);
    if (playing !== 5) bad("partner", "Partner: there is a partner only at 5 players.");
    else if (!inSeats(partner)) bad("partner", "Partner: choose one of the players at the table.");
    else if (partner === sittingOut) bad("partner", "Partner: the dealer sits out this hand, so cannot be called.");
    else if (partner === taker) {
      bad(
        "partner",
        "Partner: the taker cannot be their own partner; choose “alone” when the taker called themselves."
      );
    }
  }

  const contract = typeof hand.contract === "string" && has(MULTIPLIERS, hand.contract) ? hand.contract : null;
  if (contract === null) bad("contract", "Contract: choose prise, garde, garde sans or garde contre.");

  let bouts = asInt(hand.bouts);
  if (!has(TARGETS, String(bouts)) || bouts === null) {
    bad("bouts", "Bouts: the attack holds 0, 1, 2 or 3 bouts.");
    bouts = null;
  }

  let points = cardPoints(hand.points);
  if (points === null) {
    bad("points", "Points: enter a number of card points.");
  } else if (!(points >= 0 && points <= TOTAL_POINTS)) {
    bad("points", "Points: must be between 0 and 91, not %(value)s.", null, { value: points });
    points = null;
  } else if (!Number.isInteger(points * 2)) {
    bad("points", "Points: count in whole or half points, not %(value)s.", null, { value: points });
    points = null;
  } else if (!Number.isInteger(points) && playing === 4) {
    bad("points", "Points: there are no half points at 4 players (%(value)s).", null, { value: points });
    points = null;
  } else if (bouts !== null) {
    const low = BOUT_MIN_POINTS * bouts;
    const high = TOTAL_POINTS - BOUT_MIN_POINTS * (3 - bouts);
    if (!(low <= points && points <= high)) {
      bad(
        "points",
        "Points: with %(bouts)s bouts the attack has between %(low)s and %(high)s points, not %(value)s.",
        null,
        { bouts, low, high, value: points }
      );
    }
  }

  let petit = null;
  if (!blank(hand.petit_au_bout)) {
    petit = CAMPS.includes(hand.petit_au_bout) ? hand.petit_au_bout : null;
    if (petit === null) bad("petit_au_bout", "Petit au bout: choose none, attack or defence.");
  }

  const poignees = {};
  const trumps = POIGNEE_TRUMPS[playing];
  const givenPoignees = hand.poignees === undefined ? {} : hand.poignees;
  if (!isMapping(givenPoignees)) {
    bad("poignees", "Poignées: give each player's poignée at most once.");
  } else {
    const seen = new Set();
    for (const [key, size] of Object.entries(givenPoignees)) {
      const seat = asInt(key);
      if (!inSeats(seat)) {
        bad("poignees", "Poignée: seat %(value)s is not at the table.", null, { value: key });
        continue;
      }
      if (seen.has(seat)) {
        bad("poignees", "Poignée: a player shows at most one poignée.", seat);
        continue;
      }
      seen.add(seat);
      if (blank(size)) continue;
      if (seat === sittingOut) {
        bad("poignees", "Poignée: the dealer sits out this hand, so shows no poignée.", seat);
        continue;
      }
      if (!POIGNEES.includes(size)) {
        bad("poignees", "Poignée: choose simple, double or triple.", seat);
        continue;
      }
      poignees[seat] = size;
    }
    const shown = Object.values(poignees).reduce((sum, kind) => sum + trumps[kind], 0);
    if (shown > TRUMPS) {
      bad(
        "poignees",
        "Poignées: these poignées show %(shown)s trumps, but the game has only %(trumps)s (the excuse included).",
        null,
        { shown, trumps: TRUMPS }
      );
    }
  }

  const miseres = checkMiseres(hand.miseres === undefined ? {} : hand.miseres, rules, inSeats, sittingOut, bad);

  let chelem = null;
  if (!blank(hand.chelem)) {
    chelem = typeof hand.chelem === "string" && has(CHELEM_BONUSES, hand.chelem) ? hand.chelem : null;
    if (chelem === null) {
      bad("chelem", "Chelem: choose none, announced and made, made unannounced, or announced and failed.");
    }
  }

  const defenceChelem = hand.defence_chelem === undefined ? false : hand.defence_chelem;
  if (typeof defenceChelem !== "boolean") {
    bad("defence_chelem", "Defence chelem: answer yes or no.");
  } else if (defenceChelem && (chelem === "announced_made" || chelem === "unannounced_made")) {
    bad("defence_chelem", "Defence chelem: the attack made a chelem, so the defence cannot have made one.");
  }

  if (problems.length) return { problems };
  return {
    checked: {
      players: playing,
      seats: seatCount,
      sittingOut,
      taker,
      contract,
      bouts,
      points,
      partner,
      petit,
      poignees,
      chelem,
      defenceChelem,
      miseres,
    },
  };
}

function checkMiseres(given, rules, inSeats, sittingOut, bad) {
  if (!isMapping(given)) {
    bad("miseres", "Misère: give each player's misères at most once.");
    return {};
  }
  const announced = Object.entries(given).filter(([, count]) => !blank(count));
  if (announced.length && !rules.misere) {
    bad("miseres", "Misère: this session plays without misère.");
    return {};
  }
  const miseres = {};
  const seen = new Set();
  for (const [key, count] of announced) {
    const seat = asInt(key);
    if (!inSeats(seat)) {
      bad("miseres", "Misère: seat %(value)s is not at the table.", null, { value: key });
      continue;
    }
    if (seen.has(seat)) {
      bad("miseres", "Misère: give each player's misères at most once.", seat);
      continue;
    }
    seen.add(seat);
    if (seat === sittingOut) {
      bad("miseres", "Misère: the dealer sits out this hand, so announces no misère.", seat);
      continue;
    }
    const number = asInt(count);
    if (number !== 1 && number !== 2) {
      bad("miseres", "Misère: a player announces 1 or 2 misères, not %(value)s.", seat, { value: count });
      continue;
    }
    miseres[seat] = number;
  }
  return miseres;
}

/** Every reason the rules reject this hand; empty when it is valid. */
export function validate(hand, rules = FFT) {
  return check(hand, rules).problems || [];
}

/** Inputs that are legal but unusual (docs/rules.md §3.2); never blocking. */
export function warnings(hand, rules = FFT) {
  const { checked } = check(hand, rules);
  if (!checked) return [];
  const found = [];
  const made = checked.chelem === "announced_made" || checked.chelem === "unannounced_made";
  if (checked.points === TOTAL_POINTS && checked.chelem === null) {
    found.push(problem("chelem", "Chelem: the attack has all 91 points but no chelem is recorded."));
  }
  if (made && checked.points < TOTAL_POINTS - BOUT_MIN_POINTS) {
    found.push(problem("chelem", "Chelem: a chelem made with only %(value)s points is unusual.", { value: checked.points }));
  }
  if (checked.defenceChelem && checked.points > BOUT_MIN_POINTS + 0.5) {
    found.push(problem("defence_chelem", "Defence chelem: the attack still has %(value)s points.", { value: checked.points }));
  }
  return found;
}

/** `diff` to the nearest multiple of `rounding`, halves up (docs/rules.md §6.2). */
export function roundDiff(diff, rounding) {
  return Math.floor((2 * diff + rounding) / (2 * rounding)) * rounding;
}

/** The sum that gives per_defender, as scoring.Breakdown.expression() writes it. */
function expression(b) {
  const sign = b.made ? "" : "−";
  let diff = String(b.diff);
  if (b.rounded_diff !== b.diff) diff += ` → ${b.rounded_diff}`;
  let text = `${sign}(${b.base} + ${diff}) × ${b.multiplier}`;
  const terms = [
    [b.petit_au_bout, "petit au bout"],
    [b.poignees, "poignée"],
    [b.chelem, "chelem"],
    [b.defence_chelem, "chelem défense"],
  ];
  for (const [value, label] of terms) {
    if (value) text += ` ${value > 0 ? "+" : "−"} ${Math.abs(value)} ${label}`;
  }
  return text;
}

/**
 * A hand's row with every step of its computation (scoring.breakdown), or {problems}.
 * `hand`: {seats, taker, contract, bouts, points, partner, petit_au_bout, poignees: {seat: size},
 * chelem, defence_chelem, dealer, miseres: {seat: count}}.
 */
export function breakdown(hand, rules = FFT) {
  const { checked, problems } = check(hand, rules);
  if (problems) return { problems };
  const target = TARGETS[checked.bouts];
  // FFT: exactly the target ("juste fait") is made.
  const made = checked.points >= target;
  // FFT: the half point always goes to the winning camp, so round the difference up.
  const diff = Math.ceil(Math.abs(checked.points - target));
  const rounded = roundDiff(diff, rules.rounding);
  const sign = made ? 1 : -1;
  const multiplier = MULTIPLIERS[checked.contract];
  const contract = zero(sign * (BASE + rounded) * multiplier);
  const petit = { null: 0, attack: PETIT_AU_BOUT * multiplier, defence: -PETIT_AU_BOUT * multiplier }[
    String(checked.petit)
  ];
  const values = POIGNEE_VALUES[rules.poignees];
  const poignees = zero(sign * Object.values(checked.poignees).reduce((sum, kind) => sum + values[kind], 0));
  const chelem = checked.chelem === null ? 0 : CHELEM_BONUSES[checked.chelem];
  const defenceChelem = checked.defenceChelem ? -DEFENCE_CHELEM : 0;
  const u = contract + petit + poignees + chelem + defenceChelem;

  const seatsPlaying = [];
  for (let seat = 0; seat < checked.seats; seat++) if (seat !== checked.sittingOut) seatsPlaying.push(seat);
  const scores = new Array(checked.seats).fill(0);
  for (const seat of seatsPlaying) scores[seat] = zero(-u);
  if (checked.partner !== null) {
    scores[checked.taker] = 2 * u;
    scores[checked.partner] = u;
  } else {
    scores[checked.taker] = (checked.players - 1) * u;
  }
  // docs/rules.md §6.3: each misère is worth the value from every other player in the hand.
  const miseres = new Array(checked.seats).fill(0);
  for (const [key, count] of Object.entries(checked.miseres)) {
    const seat = Number(key);
    for (const other of seatsPlaying) {
      if (other !== seat) {
        miseres[other] -= count * rules.misere;
        miseres[seat] += count * rules.misere;
      }
    }
  }
  const result = {
    players: checked.players,
    made,
    points: checked.points,
    target,
    diff,
    base: BASE,
    multiplier,
    contract,
    petit_au_bout: petit,
    poignees,
    chelem,
    defence_chelem: defenceChelem,
    per_defender: u,
    scores: scores.map((score, seat) => zero(score + miseres[seat])),
    seats: checked.seats,
    rounded_diff: rounded,
    sitting_out: checked.sittingOut,
    misere: rules.misere,
    misere_counts: Array.from({ length: checked.seats }, (_, seat) => checked.miseres[seat] || 0),
    miseres: miseres.map(zero),
  };
  result.expression = expression(result);
  return result;
}

/** One signed score per seat, summing to zero, or null when the hand is invalid. */
export function score(hand, rules = FFT) {
  const result = breakdown(hand, rules);
  return result.problems ? null : result.scores;
}
