/* Attention Drills: answer fields, Forecast guesses and practice pools.

   Marks a response by the rule of `attndrills grade` (generator/exam/marking.py,
   `mark`): a number is right when it lies within the printed key ± the
   answer's tolerance; a wrong one that lies in the window around a
   distractor is told the mistake that distractor stands for.  Every key,
   tolerance and sentence is computed in Python and embedded in the page as
   JSON (the data-ad attribute of each .ad-check); this file only
   compares.  Nothing is fetched; what a student solved is kept in
   localStorage.  Works with and without Material's instant navigation. */
(function () {
  "use strict";

  var SOLVED = "attndrills:solved";
  var CURRENT = "attndrills:current:";

  // ------------------------------------------------------------ words
  // What the script says, by key: the page carries them in the run's
  // language (practice.script in generator/text/<lang>/ui.yaml, as the
  // data-ad-text attribute of an .ad-text element; render.answer_fields.script_text;
  // formula_settings is the button mathjax-config.js adds).
  // These English ones are said where a page carries none (tests/test_site.py
  // holds them equal to text/en/ui.yaml).  {name} is a value, {Name} the value
  // capitalised, {{ and }} braces.
  var MESSAGES = {
    "then": "{first} {second}",
    "separator": ", ",
    "list": "{items} and {last}",
    "mark_right": "✓ {text}",
    "mark_wrong": "✗ Not yet. {text}",
    "type_first": "Type your answer first.",
    "formula_settings": "Formula settings (speech, zoom, Tab order)",
    "how_to_write": "write decimals such as 0.8208, or 1.69e-12 for 1.69 × 10⁻¹².",
    "write_whole": "write a whole number.",
    "per_cent": "Written in per cent: give each value as a fraction of 1 (50% is 0.5), not per cent.",
    "not_a_number": "That is not a number: {how}",
    "not_a_list": "That is not a list of numbers: {how}",
    "components_expected": "{count} components, expected {expected}.",
    "components_expected_one": "{count} component, expected {expected}.",
    "rows_expected": "{count} rows, expected {expected} (one row per line).",
    "rows_expected_one": "{count} row, expected {expected} (one row per line).",
    "row_components_expected": "Row {row}: {count} components, expected {expected}.",
    "row_components_expected_one": "Row {row}: {count} component, expected {expected}.",
    "components": "components {which}",
    "components_one": "component {which}",
    "cell": "row {row} component {column}",
    "right_number": "Right: the key is {shown}.",
    "unread": "{Where} are not numbers: {how}",
    "unread_one": "{Where} is not a number: {how}",
    "empty": "{Where} are empty: give every component.",
    "empty_one": "{Where} is empty: give every component.",
    "tally": "{right} of {total} are right.",
    "tally_one": "{right} of {total} is right.",
    "order": "The right values in another order.",
    "order_in_row": "Row {row}: the right values in another order.",
    "sum": "These weights sum to {sum}, not 1.",
    "sum_in_row": "Row {row}: these weights sum to {sum}, not 1.",
    "sign": "The sign is wrong.",
    "sign_in": "The sign is wrong in {where}; {tally}",
    "sign_everywhere": "The sign is wrong in every component.",
    "percentage": "That looks like a percentage: give the value itself, not per cent.",
    "within": "within ±{tol}",
    "within_tolerance": "within the tolerance",
    "outside": "Not {how} of the key.",
    "outside_exact": "Not the key: this count must be exact.",
    "no_component": "No component is {how} of the key.",
    "no_component_exact": "No component is the key's (these must be exact).",
    "off": "{Where} are not {how} of the key; {tally}",
    "off_one": "{Where} is not {how} of the key; {tally}",
    "off_exact": "{Where} are not the key's (these must be exact); {tally}",
    "off_exact_one": "{Where} is not the key's (these must be exact); {tally}",
    "too_small": "Too small for the decimal places: a number this small counts to {key_sig} significant digits, written as 1.23e-5 (or 1.23 × 10⁻⁵).",
    "count_1": "one",
    "count_2": "two",
    "count_3": "three",
    "count_4": "four",
    "count_5": "five",
    "count_6": "six",
    "count_7": "seven",
    "count_8": "eight",
    "count_9": "nine",
    "count_10": "ten",
    "fewer_sig": "{sig} significant digits, the key has {key_sig}",
    "fewer_sig_one": "{sig} significant digit, the key has {key_sig}",
    "fewer_sig_of_whole": "{sig} significant digits, the key is a whole number of {key_sig} digits",
    "fewer_sig_of_whole_one": "{sig} significant digit, the key is a whole number of {key_sig} digits",
    "fewer_whole": "a whole number, the key has {key_places} places",
    "fewer_whole_one": "a whole number, the key has {key_places} place",
    "fewer_places": "{places} places, the key has {key_places}",
    "fewer_places_one": "{places} place, the key has {key_places}",
    "give_sig": "give {key_sig} significant digits.",
    "give_every_digit": "write every digit.",
    "give_places": "give {key_places} decimal places.",
    "give_places_one": "give {key_places} decimal place.",
    "rounded": "Rounded to {fewer}: {give}",
    "cut_off": "Cut off (not rounded) at {fewer}: {give}",
    "choose_option": "Choose an option first.",
    "option": "({letter})",
    "right_options": "Right: {options}.",
    "option_wrong": "{option} is not right.",
    "options_missing": "Not all the right options are chosen: {right} are right.",
    "choose_true_false": "Choose true or false first.",
    "right_shown": "Right: {shown}.",
    "not_right": "Not right.",
    "rows_open": "Choose a match for every row: {open} rows still open.",
    "rows_open_one": "Choose a match for every row: {open} row still open.",
    "right_pairs": "Right: every pair matches.",
    "pairs_right": "{right} of {total} pairs are right.",
    "forecast_number_first": "Type a number first (for example 0.6).",
    "forecast_words_first": "Write a few words first.",
    "forecast_kept": "Forecast kept: {text}. Now work it out; open the solution to see how close you were.",
    "forecast_missed": "The solution is open before a forecast was kept: next time, commit a guess first. {answer}",
    "answer_number": "The answer: {label} = {shown}.",
    "answer_words": "The answer: {answers}.",
    "answer_item": "{label}: {shown}",
    "answer_separator": "; ",
    "forecast_words": "Your forecast: “{typed}”. {answer} How close were you?",
    "forecast_number": "Your forecast: {typed}; {label} is {shown}.",
    "spot_on": "Spot on.",
    "factor_high": "Off by a factor of about 10: too high.",
    "factor_low": "Off by a factor of about 10: too low.",
    "factor_high_power": "Off by a factor of about 10^{n}: too high.",
    "factor_low_power": "Off by a factor of about 10^{n}: too low.",
    "off_high": "You were {size} too high.",
    "off_low": "You were {size} too low.",
    "off_high_pct": "You were {size} too high ({pct} % of the answer).",
    "off_low_pct": "You were {size} too low ({pct} % of the answer).",
    "variant": "Variant {n} of {total}",
    "status": "Variant {n} of {total} · solved here: {solved} of {total}.",
    "status_solved": "Variant {n} of {total} (solved) · solved here: {solved} of {total}.",
    "all_solved": "Every variant is solved: going round again.",
    "cleared": "Your progress on this page is cleared.",
    "solved": "Solved. Press Another one for the next.",
    "decimal_mark": "."
  };
  var text = {};  // the page's (start)

  // a number put into a message takes the page's decimal mark (0,4498 in German)
  function marked(v) {
    var mark = T("decimal_mark");
    return mark === "." ? v : v.replace(/(\d)\.(\d)/g, "$1" + mark + "$2");
  }

  function T(key, values) {
    var source = Object.prototype.hasOwnProperty.call(text, key) ? text[key] : MESSAGES[key];
    return source.replace(/\{\{|\}\}|\{([^{}]+)\}/g, function (m, name) {
      if (!name) return m.charAt(0);
      var own = values && Object.prototype.hasOwnProperty.call(values, name);
      var lower = name.charAt(0).toLowerCase() + name.slice(1);
      if (own) return marked(String(values[name]));
      if (values && lower !== name && Object.prototype.hasOwnProperty.call(values, lower)) {
        var v = marked(String(values[lower]));
        return v.charAt(0).toUpperCase() + v.slice(1);
      }
      return m;
    });
  }

  // ------------------------------------------------------------ reading
  // generator/exam/numbers.py's reading, rule for rule (the same patterns), so the
  // page reads a response as `attndrills grade` reads it.
  var SUPERSCRIPT = { "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7",
                      "⁸": "8", "⁹": "9", "⁻": "-", "⁺": "+" };
  var MINUS = /[−–‒﹣－]/g;
  // "× 10⁻⁹", "x10^-9", "*10^(-9)", "· 10**-9", "× 10−9" (copied from a PDF) → "e-9"
  var TEN_POWER = /\s*[×xX*·⋅]\s*10\s*(?:(?:\^|\*\*)\s*[({]?\s*([+\-−–]?\s*\d+)\s*[)}]?|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)|([\-−–]\s*\d+))/g;
  var UNIT = /\s*\bnats?\b\.?/gi;  // "1.0322 nats": the unit the question names
  var NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
  var DECIMAL_COMMA = /^[+-]?\d*,\d+(?:e[+-]?\d+)?$/i;
  var THOUSANDS = /^[+-]?\d{1,3}(?:,\d{3})+$/;
  var ROW_BREAK = /[)\]]\s*[,;]?\s*[(\[]/g;
  var BRACKETS = "()[]{}⟨⟩ \t\n";

  // Python's str.strip(chars)
  function strip(text, chars) {
    var a = 0, b = text.length;
    while (a < b && chars.indexOf(text.charAt(a)) >= 0) a++;
    while (b > a && chars.indexOf(text.charAt(b - 1)) >= 0) b--;
    return text.slice(a, b);
  }

  // marking._normalise: powers of ten as e-notation, every minus sign as "-", no unit.
  function normalise(text) {
    return String(text).replace(UNIT, "").replace(TEN_POWER, function (m, caret, raised, bare) {
      var exp = (caret || raised || bare).replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]/g, function (c) { return SUPERSCRIPT[c]; });
      return "e" + exp.replace(MINUS, "-").replace(/ /g, "");
    }).replace(MINUS, "-");
  }

  // marking._number: {value, places (of the last digit), sig, sci} or null.
  // commas: "decimal" (0,4722 is 0.4722), "thousands" (22,082 is 22082) or "none".
  function number(token, commas) {
    var t = token.trim();
    if (commas === "thousands" && THOUSANDS.test(t)) t = t.replace(/,/g, "");
    else if ((commas === "decimal" || commas === "thousands") && DECIMAL_COMMA.test(t)) t = t.replace(",", ".");
    if (!NUMBER.test(t)) return null;
    var value = parseFloat(t);
    if (!isFinite(value)) return null;
    var parts = t.toLowerCase().replace(/^[+-]+/, "").split("e"), mantissa = parts[0], exp = parts[1];
    var dot = mantissa.indexOf(".");
    var whole = dot < 0 ? mantissa : mantissa.slice(0, dot), frac = dot < 0 ? "" : mantissa.slice(dot + 1);
    return { value: value, places: frac.length - (exp ? parseInt(exp, 10) : 0),
             sig: (whole + frac).replace(/^0+/, "").length || 1, sci: exp !== undefined };
  }

  // marking._single: what follows a last "=" or "≈", spaces and brackets ignored.
  function single(text, whole) {
    var t = normalise(text).split(/[=≈]/).pop();
    t = strip(t.replace(/\s+/g, ""), BRACKETS).replace(/;+$/, "");
    if (t.slice(-1) === "." && t.slice(0, -1).indexOf(".") >= 0) t = t.slice(0, -1);  // a full stop
    return number(t, whole ? "thousands" : "decimal");
  }

  function parseNumber(text) {
    var n = single(text);
    return n === null ? null : n.value;
  }

  // Decimal places of a printed number (null for scientific notation).
  function placesOf(text) {
    var n = single(text);
    return n === null || n.sci ? null : n.places;
  }

  // numbers._layout: the rows, the separator typed between components (";", "," or none) and the comma rule.
  function layout(text, rowsExpected) {
    var t = normalise(text).replace(/\r/g, "").split(/[=≈]/).pop().trim().replace(ROW_BREAK, "|");
    var rows = t.split(rowsExpected ? /\||\n/ : /\|/).filter(function (r) { return strip(r, BRACKETS + ",;"); });
    var tokens = strip(t.replace(/\|/g, " "), BRACKETS).split(/\s+/).filter(function (x) { return x; });
    if (t.indexOf(";") >= 0) return { rows: rows, sep: ";", commas: "decimal" };
    if (tokens.length > 1 && tokens.every(function (x) { return DECIMAL_COMMA.test(strip(x, BRACKETS)); })) {
      return { rows: rows, sep: "", commas: "decimal" };
    }
    return { rows: rows, sep: ",", commas: "none" };
  }

  // numbers.read_rows: rows of components as written, null where one is not a number.
  function vector(text, rowsExpected) {
    var l = layout(text, rowsExpected), split = l.sep ? new RegExp("[" + l.sep + "\\s]+") : /\s+/;
    return l.rows.map(function (row) {
      return strip(row, BRACKETS + ",;").split(split).filter(function (p) { return strip(p, BRACKETS); })
        .map(function (p) { return number(strip(p, BRACKETS), l.commas); });
    });
  }

  // numbers.read_rows_with_empty: the same, keeping a component left empty (nothing
  // between two separators, before the first or after the last, or "-") as null,
  // and which components are such empty ones.
  function vectorWithEmpty(text, rowsExpected) {
    var l = layout(text, rowsExpected), split = l.sep ? new RegExp("\\s*" + l.sep + "\\s*|\\s+") : /\s+/;
    var got = [], empty = [];
    l.rows.forEach(function (row) {
      var parts = strip(row, BRACKETS).split(split).map(function (p) { return strip(p, BRACKETS); });
      got.push(parts.map(function (p) { return number(p, l.commas); }));
      empty.push(parts.map(function (p) { return p === "" || p === "-"; }));
    });
    return { got: got, empty: empty };
  }

  // marking._components: the components with the empty ones where they make the
  // key's shape, else read as before (an empty slot not counted; none empty).
  function readComponents(text, key) {
    var kept = vectorWithEmpty(text, key.length > 1);
    if ([].concat.apply([], kept.empty).some(Boolean)) {
      var fitted = fit(kept.got, key);
      if (!fitted.note) return { got: fitted.got, empty: fit(kept.empty, key).got };
    }
    return { got: vector(text, key.length > 1), empty: null };
  }

  // marking._fit: the response in the key's layout (a flat list with every
  // component in row order fits a table), or what is wrong with its shape.
  function fit(got, key) {
    var sizes = function (rows) { return rows.map(function (r) { return r.length; }).join(); };
    if (sizes(got) === sizes(key)) return { got: got };
    var flat = [].concat.apply([], got), total = key.reduce(function (n, r) { return n + r.length; }, 0);
    if (flat.length === total) {
      var i = 0;
      return { got: key.map(function (row) { return row.map(function () { return flat[i++]; }); }) };
    }
    if (key.length === 1) return { note: T(one(flat.length, "components_expected"), { count: flat.length, expected: key[0].length }) };
    if (got.length === 1) return { note: T(one(flat.length, "components_expected"), { count: flat.length, expected: total }) };
    if (got.length !== key.length) {
      return { note: T(one(got.length, "rows_expected"), { count: got.length, expected: key.length }) };
    }
    for (var r = 0; r < key.length; r++) {
      if (got[r].length !== key[r].length) {
        return { note: T(one(got[r].length, "row_components_expected"), { row: r + 1, count: got[r].length, expected: key[r].length }) };
      }
    }
  }

  // marking.inside, the one test of the window: no slack but a billionth of
  // the tolerance itself, so a key of 2.65e-23 is judged at its own scale
  function within(value, centre, tol) {
    return Math.abs(value - centre) <= tol * (1 + 1e-9);
  }

  // the key of a message said of n things: its _one variant where n is 1
  function one(n, key) { return n === 1 ? key + "_one" : key; }

  function listOf(items) {
    return items.length < 2 ? items.join("") :
      T("list", { items: items.slice(0, -1).join(T("separator")), last: items[items.length - 1] });
  }

  // "component 3", "components 1 and 3"; in a table "row 2 component 1, row 3 component 1"
  // (a message that starts with it says {Where}: capitalised)
  function components(where, matrix) {
    var text = listOf(where);
    if (matrix) return text;
    return T(one(where.length, "components"), { which: text });
  }

  // ------------------------------------------------------------ marking
  // Each returns {right: bool, text: what to tell the student}.

  // marking._rounding_hint: said when a number is the key rounded (or cut off) to fewer places.
  function roundingHint(got, key) {
    if (got.places >= key.places) return "";
    var unit = Math.pow(10, -got.places);
    if (key.sci && !got.sci && Math.abs(key.value) < unit && Math.abs(got.value) <= unit * (1 + 1e-9)) {
      return T("too_small", { key_sig: key.sig <= 10 ? T("count_" + key.sig) : key.sig });
    }
    var fewer, give, n = { sig: got.sig, places: got.places, key_sig: key.sig, key_places: key.places };
    if (key.sci) {
      fewer = T(one(got.sig, "fewer_sig"), n);
      give = T("give_sig", n);
    } else if (key.places <= 0 && got.sci) {  // 1.23e5 for 122801
      fewer = T(one(got.sig, "fewer_sig_of_whole"), n);
      give = T("give_every_digit");
    } else {
      fewer = got.places <= 0 ? T(one(key.places, "fewer_whole"), n) : T(one(got.places, "fewer_places"), n);
      give = T(one(key.places, "give_places"), n);
    }
    if (Math.abs(got.value - key.value) <= 0.5 * unit * (1 + 1e-9)) return T("rounded", { fewer: fewer, give: give });
    if (Math.abs(got.value) < Math.abs(key.value) && Math.abs(got.value - key.value) < unit &&
        got.value * key.value >= 0) return T("cut_off", { fewer: fewer, give: give });
    return "";
  }

  var PER_CENT = /\d\s*%/;

  // marking._permutation: each typed value is a different key value (within its window)
  function permutation(got, key, tols) {
    var free = key.map(function (k, j) { return j; });
    return got.every(function (g) {
      for (var n = 0; n < free.length; n++) {
        if (within(g.value, key[free[n]].value, tols[free[n]])) { free.splice(n, 1); return true; }
      }
      return false;
    });
  }

  // marking._sum_text: the sum to the places of the finest number typed, trailing zeros dropped
  function sumText(nums) {
    var places = Math.max.apply(null, [0].concat(nums.map(function (n) { return n.places; })));
    var text = nums.reduce(function (s, n) { return s + n.value; }, 0).toFixed(Math.min(places, 100));
    return text.indexOf(".") >= 0 ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
  }

  function sum(xs) { return xs.reduce(function (s, x) { return s + x; }, 0); }

  // marking._slips: the key's values in another order; weights that do not sum to 1
  // (where each row of the printed key lies in [0, 1] and sums to 1 within its tolerances)
  function slips(got, key, tols) {
    var out = { order: "", total: "" };
    if (key[0].length < 2 || got.some(function (row) { return row.some(function (g) { return g === null; }); })) return out;
    key.forEach(function (krow, i) {
      var grow = got[i], trow = tols[i], inRow = key.length > 1 ? "_in_row" : "";
      if (grow.every(function (g, j) { return within(g.value, krow[j].value, trow[j]); })) return;
      if (!out.order && permutation(grow, krow, trow)) out.order = T("order" + inRow, { row: i + 1 });
      var weights = krow.every(function (k) { return k.value >= 0 && k.value <= 1; }) &&
        within(sum(krow.map(function (k) { return k.value; })), 1, sum(trow));
      if (!out.total && weights && !within(sum(grow.map(function (g) { return g.value; })), 1, sum(trow))) {
        out.total = T("sum" + inRow, { row: i + 1, sum: sumText(grow) });
      }
    });
    return out;
  }

  // how near the key a number must be: "" where it must be exact
  function windowOf(tols) {
    var flat = [].concat.apply([], tols);
    if (flat.every(function (t) { return t === 0; })) return "";
    var t = flat[0];
    return flat.every(function (x) { return x === t; }) ? T("within", { tol: String(Number(t.toPrecision(3))) }) :
      T("within_tolerance");
  }

  function markNumbers(a, text) {
    var raw = String(text).trim();
    if (!raw) return { right: false, text: T("type_first") };
    var howToWrite = T("how_to_write");
    if (PER_CENT.test(raw)) {  // marking._per_cent: per cent is told, not read
      return { right: false, text: T("per_cent") };
    }
    var keyNums = a.printed.map(function (row) { return row.map(function (x) { return single(x); }); });
    var got, empty = null;
    if (a.type === "numeric") {
      var whole = /^-?\d+$/.test(String(a.printed[0][0]).trim().replace(MINUS, "-"));
      var single1 = single(raw, whole);
      if (single1 === null) return { right: false, text: T("not_a_number", { how: whole ? T("write_whole") : howToWrite }) };
      got = [[single1]];
    } else {
      var read = readComponents(raw, a.key);
      got = read.got;
      empty = read.empty;
      var flat = [].concat.apply([], got);
      if (flat.every(function (x) { return x === null; })) {
        if (!flat.length || (empty && [].concat.apply([], empty).every(Boolean))) return { right: false, text: T("type_first") };
        return { right: false, text: T(flat.length <= 1 ? "not_a_number" : "not_a_list", { how: howToWrite }) };
      }
      var fitted = fit(got, a.key);
      if (fitted.note) return { right: false, text: fitted.note };
      got = fitted.got;
    }
    // component by component: [got, key as printed, centre, tolerance, where]
    var pairs = [];
    a.key.forEach(function (row, r) {
      row.forEach(function (k, c) {
        pairs.push([got[r][c], keyNums[r][c], k, a.tol[r][c],
                    a.matrix ? T("cell", { row: r + 1, column: c + 1 }) : String(c + 1), empty && empty[r][c]]);
      });
    });
    var right = pairs.map(function (p) { return p[0] !== null && within(p[0].value, p[2], p[3]); });
    if (right.every(Boolean)) return { right: true, text: T("right_number", { shown: a.shown }) };
    // the named mistake nearest the answer, of those whose window holds every
    // component (two can: 2.3 names 0 and 0.0001 for one weight of tolerance 0.00011)
    var best = null, bestDistance = Infinity;
    a.distractors.forEach(function (d) {
      var values = [].concat.apply([], d.value), distance = 0;
      if (values.length !== pairs.length) return;
      for (var i = 0; i < pairs.length; i++) {
        if (pairs[i][0] === null || !within(pairs[i][0].value, values[i], pairs[i][3])) return;
        distance += Math.abs(pairs[i][0].value - values[i]);
      }
      if (distance < bestDistance) { best = d; bestDistance = distance; }
    });
    if (best) return { right: false, text: best.sentence };
    var unread = [], left = [], off = [], hints = {};
    pairs.forEach(function (p, i) {
      if (right[i]) return;
      if (p[0] === null) { (p[5] ? left : unread).push(p[4]); return; }
      off.push(p[4]);
      hints[p[0] && p[1] ? roundingHint(p[0], p[1]) : ""] = true;
    });
    if (unread.length || left.length) {  // hints.vector_hint: a blank is told as empty, not as "not a number"
      var told = [];
      if (unread.length) told.push(T(one(unread.length, "unread"), { where: components(unread, a.matrix), how: howToWrite }));
      if (left.length) told.push(T(one(left.length, "empty"), { where: components(left, a.matrix) }));
      return { right: false, text: told.join(" ") };
    }
    var count = right.filter(Boolean).length;
    var slip = slips(got, keyNums, a.tol);
    var tally = count ? T(one(count, "tally"), { right: count, total: pairs.length }) : "";
    if (slip.order) return { right: false, text: tally ? T("then", { first: slip.order, second: tally }) : slip.order };
    var said = Object.keys(hints);
    if (said.length === 1 && said[0]) return { right: false, text: said[0] };  // every miss is that one slip
    if (a.type !== "numeric" && pairs.every(function (p, i) {  // every miss is the key with its sign flipped
      return right[i] || (p[2] !== 0 && within(-p[0].value, p[2], p[3]));
    })) {
      return { right: false, text: count ? T("sign_in", { where: components(off, a.matrix), tally: tally }) :
        T("sign_everywhere") };
    }
    if (slip.total) return { right: false, text: tally ? T("then", { first: slip.total, second: tally }) : slip.total };
    var how = windowOf(a.tol);
    if (a.type === "numeric") {
      var g = got[0][0].value, k = a.key[0][0], t = a.tol[0][0];
      if (k !== 0 && within(-g, k, t)) return { right: false, text: T("sign") };
      if (k !== 0 && within(g / 100, k, t)) {
        return { right: false, text: T("percentage") };
      }
      return { right: false, text: how ? T("outside", { how: how }) : T("outside_exact") };
    }
    if (!count) {
      return { right: false, text: how ? T("no_component", { how: how }) : T("no_component_exact") };
    }
    return { right: false, text: T(one(off.length, how ? "off" : "off_exact"),
                                   { where: components(off, a.matrix), how: how, tally: tally }) };
  }

  function markChoice(a, form) {
    var chosen = Array.prototype.filter.call(form.querySelectorAll("input"), function (i) { return i.checked; })
      .map(function (i) { return i.value; });
    if (!chosen.length) return { right: false, text: T("choose_option") };
    var right = a.options.filter(function (o) { return o.correct; }).map(function (o) { return o.letter; });
    if (chosen.slice().sort().join() === right.slice().sort().join()) {
      return { right: true, text: T("right_options", { options: right.map(function (l) {
        return T("option", { letter: l }); }).join(T("separator")) }) };
    }
    for (var i = 0; i < a.options.length; i++) {  // the first wrong option chosen names the mistake
      var o = a.options[i];
      if (!o.correct && chosen.indexOf(o.letter) >= 0) {
        return { right: false, text: o.sentence || T("option_wrong", { option: T("option", { letter: o.letter }) }) };
      }
    }
    return { right: false, text: T("options_missing", { right: right.length }) };
  }

  function markTrueFalse(a, form) {
    var chosen = form.querySelector("input:checked");
    if (!chosen) return { right: false, text: T("choose_true_false") };
    if ((chosen.value === "true") === a.key) return { right: true, text: T("right_shown", { shown: a.shown }) };
    return { right: false, text: a.sentence || T("not_right") };
  }

  function markMatching(a, form) {
    var picks = Array.prototype.map.call(form.querySelectorAll("select"), function (s) { return s.value; });
    var open = picks.filter(function (p) { return p === ""; }).length;
    if (open) return { right: false, text: T(one(open, "rows_open"), { open: open }) };
    var good = picks.filter(function (p, i) { return +p === a.key[i]; }).length;
    if (good === a.key.length) return { right: true, text: T("right_pairs") };
    // as grade says it: no mistake is named, a pair matched wrongly says nothing of why
    return { right: false, text: T("pairs_right", { right: good, total: a.key.length }) };
  }

  function mark(a, form) {
    if (a.type === "numeric" || a.type === "vector") return markNumbers(a, form.querySelector(".ad-input").value);
    if (a.type === "choice") return markChoice(a, form);
    if (a.type === "truefalse") return markTrueFalse(a, form);
    return markMatching(a, form);
  }

  // ------------------------------------------------------------ storage
  function load(key, fallback) {
    try { var v = window.localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); }
    catch (e) { return fallback; }
  }

  function save(key, value) {
    try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode: not kept */ }
  }

  // one page's progress: its variants' solved marks and the variant it shows;
  // what was solved on other pages stays
  function clearPage(codes, kind) {
    var s = solved();
    codes.forEach(function (c) { delete s[c]; });
    try {
      if (Object.keys(s).length) save(SOLVED, s); else window.localStorage.removeItem(SOLVED);
      window.localStorage.removeItem(CURRENT + kind);
    } catch (e) { /* nothing kept */ }
  }

  function solved() { return load(SOLVED, {}); }

  // ------------------------------------------------------------ feedback
  function say(el, text, state) {
    el.classList.remove("ad-right", "ad-wrong");
    if (state) el.classList.add(state);
    // a live region announces a change: clear first so a repeated message is read again
    el.textContent = "";
    window.setTimeout(function () { el.textContent = text; }, 30);
  }

  function solutionOf(box) {
    for (var el = box.nextElementSibling; el; el = el.nextElementSibling) {
      if (el.tagName === "DETAILS") return el;
      if (el.matches(".ad-check, .ad-variant, .ad-variant-body, h1, h2, h3")) return null;
    }
    return null;
  }

  // ------------------------------------------------------------ one problem
  function bindProblem(box) {
    var data = JSON.parse(box.getAttribute("data-ad"));
    var done = data.answers.map(function () { return false; });
    box.hidden = false;

    data.answers.forEach(function (a, i) {
      var form = box.querySelector('form[data-ad-answer="' + i + '"]');
      var out = form.querySelector(".ad-feedback");
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var m = mark(a, form);
        say(out, T(m.right ? "mark_right" : "mark_wrong", { text: m.text }), m.right ? "ad-right" : "ad-wrong");
        if (m.right && !done[i]) {
          done[i] = true;
          if (done.every(Boolean)) {
            var s = solved();
            s[data.variant] = 1;
            save(SOLVED, s);
            box.dispatchEvent(new CustomEvent("ad-solved", { bubbles: true, detail: data.variant }));
          }
        }
      });
      var area = form.querySelector("textarea");
      if (area) {  // Enter checks; Shift+Enter starts the next row
        area.addEventListener("keydown", function (event) {
          if (event.key === "Enter" && !event.shiftKey && area.value.split("\n").length >= a.key.length) {
            event.preventDefault();
            form.requestSubmit ? form.requestSubmit() : form.dispatchEvent(new Event("submit", { cancelable: true }));
          }
        });
      }
    });

    var f = data.forecast, fbox = box.querySelector(".ad-forecast");
    if (!f || !fbox) return;
    var input = fbox.querySelector("input"), commit = fbox.querySelector(".ad-commit");
    var out = fbox.querySelector(".ad-feedback"), guess = null, told = false;
    function lock() { input.readOnly = true; commit.disabled = true; }
    function doCommit() {
      if (commit.disabled) return;
      var text = input.value.trim();
      if (f.mode === "number") {
        var g = parseNumber(text);
        if (!text || g === null) { say(out, T("forecast_number_first"), "ad-wrong"); return; }
        guess = g;
      } else {
        if (!text) { say(out, T("forecast_words_first"), "ad-wrong"); return; }
        guess = text;
      }
      lock();
      say(out, T("forecast_kept", { text: text }), null);
    }
    commit.addEventListener("click", doCommit);
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); doCommit(); }
    });
    var details = solutionOf(box);
    if (!details) return;
    details.addEventListener("toggle", function () {
      if (!details.open || told) return;
      told = true;
      if (guess === null) {
        lock();
        say(out, T("forecast_missed", { answer: answerLine(f) }), null);
        return;
      }
      say(out, closeness(f, guess, input.value.trim()), null);
    });
  }

  function answerLine(f) {
    if (f.mode === "number") return T("answer_number", { label: f.label, shown: f.shown });
    return T("answer_words", { answers: f.answers.map(function (a) {
      return T("answer_item", { label: a.label, shown: a.shown }); }).join(T("answer_separator")) });
  }

  function closeness(f, guess, typed) {
    if (f.mode !== "number") return T("forecast_words", { typed: typed, answer: answerLine(f) });
    var k = f.key, d = guess - k, head = T("forecast_number", { typed: typed, label: f.label, shown: f.shown });
    if (within(guess, k, f.tol)) return T("then", { first: head, second: T("spot_on") });
    var ratio = guess / k;
    if (k > 0 && guess > 0 && (ratio >= 10 || ratio <= 0.1)) {
      var n = Math.round(Math.abs(Math.log10(ratio)));
      return T("then", { first: head, second: T("factor_" + (ratio > 1 ? "high" : "low") + (n === 1 ? "" : "_power"), { n: n }) });
    }
    var places = placesOf(f.shown);
    var size = places === null ? Math.abs(d).toPrecision(3) : Math.abs(d).toFixed(places);
    var off = { size: size, pct: k !== 0 ? Math.round(100 * Math.abs(d) / Math.abs(k)) : null };
    return T("then", { first: head, second: T("off_" + (d > 0 ? "high" : "low") + (k !== 0 ? "_pct" : ""), off) });
  }

  // ------------------------------------------------------------ practice pool
  function bindPool(pool) {
    var kind = pool.getAttribute("data-ad-pool");
    var parent = pool.parentNode;
    var markers = Array.prototype.slice.call(parent.querySelectorAll(":scope > .ad-variant"));
    if (!markers.length) return;
    // the variants written as Markdown: each marker and what follows it (up to
    // the next marker) become one section
    var sections = markers.map(function (marker) {
      var section = makeSection(marker.getAttribute("data-ad-variant"));
      parent.insertBefore(section, marker);
      var el = marker.nextSibling;
      section.appendChild(marker);
      while (el && !(el.nodeType === 1 && el.classList.contains("ad-variant"))) {
        var next = el.nextSibling;
        section.appendChild(el);
        el = next;
      }
      return section;
    });
    // the others arrive as HTML in the page (converted when the site was
    // generated) and are put in place when first shown
    var more = JSON.parse(pool.getAttribute("data-ad-variants") || "[]");
    var codes = sections.map(function (s) { return s.getAttribute("data-variant"); })
      .concat(more.map(function (v) { return v.code; }));
    var total = codes.length;
    sections.forEach(function (sec, i) { sec.setAttribute("aria-label", T("variant", { n: i + 1, total: total })); });

    function makeSection(code) {
      var section = document.createElement("section");
      section.className = "ad-variant-body";
      section.setAttribute("data-variant", code);
      section.tabIndex = -1;
      return section;
    }
    function ensure(i) {
      if (sections[i]) return sections[i];
      var v = more[i - markers.length];
      var section = makeSection(v.code);
      section.setAttribute("aria-label", T("variant", { n: i + 1, total: total }));
      section.innerHTML = v.html;
      var last = sections.filter(Boolean).pop();
      last.parentNode.insertBefore(section, last.nextSibling);
      sections[i] = section;
      bindAll(section);
      if (window.MathJax && typeof window.MathJax.typesetPromise === "function") {
        window.MathJax.typesetPromise([section]).catch(function () { /* shown as typed */ });
      }
      return section;
    }

    var status = pool.querySelector(".ad-pool-status");
    var current = load(CURRENT + kind, null);
    if (typeof current !== "number" || current < 0 || current >= total) current = firstUnsolved(0);

    function firstUnsolved(from) {
      var s = solved();
      for (var j = 0; j < total; j++) {
        var i = (from + j) % total;
        if (!s[codes[i]]) return i;
      }
      return from % total;
    }
    function count() {
      var s = solved();
      return codes.filter(function (c) { return s[c]; }).length;
    }
    function update(extra) {
      var s = solved(), n = count();
      ensure(current);
      sections.forEach(function (sec, i) {
        if (!sec) return;
        sec.hidden = i !== current;
        sec.classList.toggle("ad-solved", !!s[codes[i]]);
      });
      var line = T(s[codes[current]] ? "status_solved" : "status", { n: current + 1, total: total, solved: n });
      say(status, extra ? T("then", { first: line, second: extra }) : line, null);
    }
    pool.hidden = false;
    update("");
    pool.querySelector(".ad-next").addEventListener("click", function () {
      var all = count() === total;
      current = firstUnsolved((current + 1) % total);
      save(CURRENT + kind, current);
      update(all ? T("all_solved") : "");
      sections[current].focus({ preventScroll: true });
      // the status and the buttons stay in sight above the new variant (they scrolled off, under the header)
      pool.scrollIntoView({ block: "start" });
    });
    pool.querySelector(".ad-clear").addEventListener("click", function () {
      clearPage(codes, kind);
      update(T("cleared"));
    });
    parent.addEventListener("ad-solved", function () {
      update(T("solved"));
    });
  }

  function bindAll(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".ad-check:not([data-ad-bound])"), function (box) {
      box.setAttribute("data-ad-bound", "");
      try { bindProblem(box); } catch (e) { box.hidden = true; if (window.console) console.error(e); }
    });
  }

  // ------------------------------------------------------------ start
  function start() {
    // the page's words (a page of another language or an instructor's edits), else the English above
    var carrier = document.querySelector(".ad-text[data-ad-text]");
    try { text = carrier ? JSON.parse(carrier.getAttribute("data-ad-text")) : {}; } catch (e) { text = {}; }
    Array.prototype.forEach.call(document.querySelectorAll(".ad-pool:not([data-ad-bound])"), function (pool) {
      pool.setAttribute("data-ad-bound", "");
      bindPool(pool);
    });
    bindAll(document);
  }

  // the marking of typed numbers, for the tests (which hold it to `attndrills grade`'s)
  window.AttnDrills = { markNumbers: markNumbers };

  // Material's instant navigation swaps pages without a load event and
  // announces each one on document$; without it, the DOM is ready once.
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
