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
  var DIGITS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

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
    if (key.length === 1) return { note: plural(flat.length, "component") + ", expected " + key[0].length + "." };
    if (got.length === 1) return { note: plural(flat.length, "component") + ", expected " + total + "." };
    if (got.length !== key.length) {
      return { note: plural(got.length, "row") + ", expected " + key.length + " (one row per line)." };
    }
    for (var r = 0; r < key.length; r++) {
      if (got[r].length !== key[r].length) {
        return { note: "Row " + (r + 1) + ": " + plural(got[r].length, "component") + ", expected " + key[r].length + "." };
      }
    }
  }

  // marking.inside, the one test of the window: no slack but a billionth of
  // the tolerance itself, so a key of 2.65e-23 is judged at its own scale
  function within(value, centre, tol) {
    return Math.abs(value - centre) <= tol * (1 + 1e-9);
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function listOf(items) {
    return items.length < 2 ? items.join("") : items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
  }

  // "Component 3", "Components 1 and 3"; in a table "Row 2 component 1, row 3 component 1"
  function components(where, matrix) {
    var text = listOf(where);
    if (matrix) return text.charAt(0).toUpperCase() + text.slice(1);
    return (where.length === 1 ? "Component " : "Components ") + text;
  }

  // ------------------------------------------------------------ marking
  // Each returns {right: bool, text: what to tell the student}.

  // marking._rounding_hint: said when a number is the key rounded (or cut off) to fewer places.
  function roundingHint(got, key) {
    if (got.places >= key.places) return "";
    var unit = Math.pow(10, -got.places);
    if (key.sci && !got.sci && Math.abs(key.value) < unit && Math.abs(got.value) <= unit * (1 + 1e-9)) {
      return "Too small for the decimal places: a number this small counts to " + (DIGITS[key.sig] || key.sig) +
        " significant digits, written as 1.23e-5 (or 1.23 × 10⁻⁵).";
    }
    var fewer, give;
    if (key.sci) {
      fewer = plural(got.sig, "significant digit") + ", the key has " + key.sig;
      give = "give " + key.sig + " significant digits.";
    } else if (key.places <= 0 && got.sci) {  // 1.23e5 for 122801
      fewer = plural(got.sig, "significant digit") + ", the key is a whole number of " + key.sig + " digits";
      give = "write every digit.";
    } else {
      fewer = (got.places <= 0 ? "a whole number" : plural(got.places, "place")) + ", the key has " +
        (got.places <= 0 ? plural(key.places, "place") : key.places);
      give = "give " + plural(key.places, "decimal place") + ".";
    }
    if (Math.abs(got.value - key.value) <= 0.5 * unit * (1 + 1e-9)) return "Rounded to " + fewer + ": " + give;
    if (Math.abs(got.value) < Math.abs(key.value) && Math.abs(got.value - key.value) < unit &&
        got.value * key.value >= 0) return "Cut off (not rounded) at " + fewer + ": " + give;
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
      var grow = got[i], trow = tols[i], where = key.length > 1 ? "Row " + (i + 1) + ": t" : "T";
      if (grow.every(function (g, j) { return within(g.value, krow[j].value, trow[j]); })) return;
      if (!out.order && permutation(grow, krow, trow)) out.order = where + "he right values in another order.";
      var weights = krow.every(function (k) { return k.value >= 0 && k.value <= 1; }) &&
        within(sum(krow.map(function (k) { return k.value; })), 1, sum(trow));
      if (!out.total && weights && !within(sum(grow.map(function (g) { return g.value; })), 1, sum(trow))) {
        out.total = where + "hese weights sum to " + sumText(grow) + ", not 1.";
      }
    });
    return out;
  }

  function windowOf(tols) {
    var flat = [].concat.apply([], tols);
    if (flat.every(function (t) { return t === 0; })) return "exactly";
    var t = flat[0];
    return flat.every(function (x) { return x === t; }) ? "within ±" + String(Number(t.toPrecision(3))) :
      "within the tolerance";
  }

  function markNumbers(a, text) {
    var raw = String(text).trim();
    if (!raw) return { right: false, text: "Type your answer first." };
    var howToWrite = "write decimals such as 0.8208, or 1.69e-12 for 1.69 × 10⁻¹².";
    if (PER_CENT.test(raw)) {  // marking._per_cent: per cent is told, not read
      return { right: false, text: "Written in per cent: give each value as a fraction of 1 (50% is 0.5), not per cent." };
    }
    var keyNums = a.printed.map(function (row) { return row.map(function (x) { return single(x); }); });
    var got, empty = null;
    if (a.type === "numeric") {
      var whole = /^-?\d+$/.test(String(a.printed[0][0]).trim().replace(MINUS, "-"));
      var one = single(raw, whole);
      if (one === null) return { right: false, text: "That is not a number: " + (whole ? "write a whole number." : howToWrite) };
      got = [[one]];
    } else {
      var read = readComponents(raw, a.key);
      got = read.got;
      empty = read.empty;
      var flat = [].concat.apply([], got);
      if (flat.every(function (x) { return x === null; })) {
        if (!flat.length || (empty && [].concat.apply([], empty).every(Boolean))) return { right: false, text: "Type your answer first." };
        return { right: false, text: (flat.length <= 1 ? "That is not a number: " : "That is not a list of numbers: ") + howToWrite };
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
                    a.matrix ? "row " + (r + 1) + " component " + (c + 1) : String(c + 1), empty && empty[r][c]]);
      });
    });
    var right = pairs.map(function (p) { return p[0] !== null && within(p[0].value, p[2], p[3]); });
    if (right.every(Boolean)) return { right: true, text: "Right: the key is " + a.shown + "." };
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
      if (unread.length) told.push(components(unread, a.matrix) + (unread.length === 1 ? " is not a number: " :
        " are not numbers: ") + howToWrite);
      if (left.length) told.push(components(left, a.matrix) + (left.length === 1 ? " is" : " are") +
        " empty: give every component.");
      return { right: false, text: told.join(" ") };
    }
    var count = right.filter(Boolean).length;
    var slip = slips(got, keyNums, a.tol);
    var tally = count ? count + " of " + pairs.length + (count === 1 ? " is" : " are") + " right." : "";
    if (slip.order) return { right: false, text: slip.order + (tally ? " " + tally : "") };
    var said = Object.keys(hints);
    if (said.length === 1 && said[0]) return { right: false, text: said[0] };  // every miss is that one slip
    if (a.type !== "numeric" && pairs.every(function (p, i) {  // every miss is the key with its sign flipped
      return right[i] || (p[2] !== 0 && within(-p[0].value, p[2], p[3]));
    })) {
      var where = components(off, a.matrix);
      return { right: false, text: count ? "The sign is wrong in " + where.charAt(0).toLowerCase() + where.slice(1) +
        "; " + count + " of " + pairs.length + (count === 1 ? " is" : " are") + " right." :
        "The sign is wrong in every component." };
    }
    if (slip.total) return { right: false, text: slip.total + (tally ? " " + tally : "") };
    var how = windowOf(a.tol);
    if (a.type === "numeric") {
      var g = got[0][0].value, k = a.key[0][0], t = a.tol[0][0];
      if (k !== 0 && within(-g, k, t)) return { right: false, text: "The sign is wrong." };
      if (k !== 0 && within(g / 100, k, t)) {
        return { right: false, text: "That looks like a percentage: give the value itself, not per cent." };
      }
      return { right: false, text: how === "exactly" ? "Not the key: this count must be exact." :
        "Not " + how + " of the key." };
    }
    if (!count) {
      return { right: false, text: how === "exactly" ? "No component is the key's (these must be exact)." :
        "No component is " + how + " of the key." };
    }
    return { right: false, text: components(off, a.matrix) + (off.length === 1 ? " is" : " are") +
      (how === "exactly" ? " not the key's (these must be exact)" : " not " + how + " of the key") +
      "; " + count + " of " + pairs.length + (count === 1 ? " is" : " are") + " right." };
  }

  function markChoice(a, form) {
    var chosen = Array.prototype.filter.call(form.querySelectorAll("input"), function (i) { return i.checked; })
      .map(function (i) { return i.value; });
    if (!chosen.length) return { right: false, text: "Choose an option first." };
    var right = a.options.filter(function (o) { return o.correct; }).map(function (o) { return o.letter; });
    if (chosen.slice().sort().join() === right.slice().sort().join()) {
      return { right: true, text: "Right: " + right.map(function (l) { return "(" + l + ")"; }).join(", ") + "." };
    }
    for (var i = 0; i < a.options.length; i++) {  // the first wrong option chosen names the mistake
      var o = a.options[i];
      if (!o.correct && chosen.indexOf(o.letter) >= 0) {
        return { right: false, text: o.sentence || "(" + o.letter + ") is not right." };
      }
    }
    return { right: false, text: "Not all the right options are chosen: " + right.length + " are right." };
  }

  function markTrueFalse(a, form) {
    var chosen = form.querySelector("input:checked");
    if (!chosen) return { right: false, text: "Choose true or false first." };
    if ((chosen.value === "true") === a.key) return { right: true, text: "Right: " + a.shown + "." };
    return { right: false, text: a.sentence || "Not right." };
  }

  function markMatching(a, form) {
    var picks = Array.prototype.map.call(form.querySelectorAll("select"), function (s) { return s.value; });
    var open = picks.filter(function (p) { return p === ""; }).length;
    if (open) return { right: false, text: "Choose a match for every row: " + plural(open, "row") + " still open." };
    var good = picks.filter(function (p, i) { return +p === a.key[i]; }).length;
    if (good === a.key.length) return { right: true, text: "Right: every pair matches." };
    // as grade says it: no mistake is named, a pair matched wrongly says nothing of why
    return { right: false, text: good + " of " + a.key.length + " pairs are right." };
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
        say(out, (m.right ? "✓ " : "✗ Not yet. ") + m.text, m.right ? "ad-right" : "ad-wrong");
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
        if (!text || g === null) { say(out, "Type a number first (for example 0.6).", "ad-wrong"); return; }
        guess = g;
      } else {
        if (!text) { say(out, "Write a few words first.", "ad-wrong"); return; }
        guess = text;
      }
      lock();
      say(out, "Forecast kept: " + text + ". Now work it out; open the solution to see how close you were.", null);
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
        say(out, "The solution is open before a forecast was kept: next time, commit a guess first. " +
          answerLine(f), null);
        return;
      }
      say(out, closeness(f, guess, input.value.trim()), null);
    });
  }

  function answerLine(f) {
    if (f.mode === "number") return "The answer: " + f.label + " = " + f.shown + ".";
    return "The answer: " + f.answers.map(function (a) { return a.label + ": " + a.shown; }).join("; ") + ".";
  }

  function closeness(f, guess, typed) {
    if (f.mode !== "number") return "Your forecast: “" + typed + "”. " + answerLine(f) + " How close were you?";
    var k = f.key, d = guess - k, head = "Your forecast: " + typed + "; " + f.label + " is " + f.shown + ". ";
    if (within(guess, k, f.tol)) return head + "Spot on.";
    var ratio = guess / k;
    if (k > 0 && guess > 0 && (ratio >= 10 || ratio <= 0.1)) {
      var n = Math.round(Math.abs(Math.log10(ratio)));
      return head + "Off by a factor of about 10" + (n === 1 ? "" : "^" + n) + ": too " + (ratio > 1 ? "high." : "low.");
    }
    var places = placesOf(f.shown);
    var size = places === null ? Math.abs(d).toPrecision(3) : Math.abs(d).toFixed(places);
    var pct = k !== 0 ? " (" + Math.round(100 * Math.abs(d) / Math.abs(k)) + " % of the answer)" : "";
    return head + "You were " + size + " too " + (d > 0 ? "high" : "low") + pct + ".";
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
    sections.forEach(function (sec, i) { sec.setAttribute("aria-label", "Variant " + (i + 1) + " of " + total); });

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
      section.setAttribute("aria-label", "Variant " + (i + 1) + " of " + total);
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
      say(status, "Variant " + (current + 1) + " of " + total + (s[codes[current]] ? " (solved)" : "") +
        " · solved here: " + n + " of " + total + "." + (extra ? " " + extra : ""), null);
    }
    pool.hidden = false;
    update("");
    pool.querySelector(".ad-next").addEventListener("click", function () {
      var all = count() === total;
      current = firstUnsolved((current + 1) % total);
      save(CURRENT + kind, current);
      update(all ? "Every variant is solved: going round again." : "");
      sections[current].focus({ preventScroll: true });
      // the status and the buttons stay in sight above the new variant (they scrolled off, under the header)
      pool.scrollIntoView({ block: "start" });
    });
    pool.querySelector(".ad-clear").addEventListener("click", function () {
      clearPage(codes, kind);
      update("Your progress on this page is cleared.");
    });
    parent.addEventListener("ad-solved", function () {
      update("Solved. Press Another one for the next.");
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
