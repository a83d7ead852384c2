/* Attention Drills: answer fields, Forecast guesses and practice pools.

   Marks a response by the rule of `attndrills grade` (generator/grading.py,
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
  var SUPERSCRIPT = { "⁻": "-", "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4",
                      "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9", "−": "-" };
  var NUMBER = /^[+-]?(\d+(_\d+)*\.?(\d+(_\d+)*)?|\.\d+(_\d+)*)(e[+-]?\d+(_\d+)*)?$/i;

  // ------------------------------------------------------------ reading
  // grading.parse_number: superscripts to digits, spaces dropped, "× 10^n" → e n.
  function normalise(text) {
    return String(text).trim().replace(/[⁻⁰¹²³⁴⁵⁶⁷⁸⁹−]/g, function (c) { return SUPERSCRIPT[c]; })
      .replace(/ /g, "").replace(/[×x*]10\^?\(?(-?\d+)\)?$/, "e$1");
  }

  function parseNumber(text) {
    var t = normalise(text);
    return NUMBER.test(t) ? parseFloat(t.replace(/_/g, "")) : null;
  }

  // Decimal places as typed (null for scientific notation).
  function placesOf(text) {
    var t = normalise(text);
    if (/e/i.test(t)) return null;
    var dot = t.indexOf(".");
    return dot < 0 ? 0 : t.length - dot - 1;
  }

  // grading.parse_vector: rows split at "|" (a new line in a text area is a row
  // too), each row stripped of brackets and split at ; , or spaces.
  function parseRows(text) {
    return String(text).replace(/\s*\n\s*/g, " | ").split("|").map(function (row) {
      var r = row.trim().replace(/^[()[\]]+|[()[\]]+$/g, "");
      return r.split(/[;,\s]+/).filter(function (p) { return p; });
    });
  }

  function within(value, centre, tol) {
    return Math.abs(value - centre) <= tol * (1 + 1e-9) + 1e-15;
  }

  function close(got, key, tol) {
    if (got.length !== key.length) return false;
    for (var r = 0; r < key.length; r++) {
      if (got[r].length !== key[r].length) return false;
      for (var c = 0; c < key[r].length; c++) {
        if (got[r][c] === null || !within(got[r][c], key[r][c], tol[r][c])) return false;
      }
    }
    return true;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function showTol(t) {
    return t === 0 ? "exactly" : "±" + String(Number(t.toPrecision(3)));
  }

  function listOf(items) {
    return items.length < 2 ? items.join("") : items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
  }

  // ------------------------------------------------------------ marking
  // Each returns {right: bool, text: what to tell the student}.
  function markNumbers(a, text) {
    var raw = String(text).trim();
    if (!raw) return { right: false, text: "Type your answer first." };
    var matrix = a.matrix, rows = parseRows(raw);
    if (a.type === "numeric") rows = [[raw]];
    var got = rows.map(function (row) { return row.map(parseNumber); });
    if (matrix && got.length !== a.key.length) {
      return { right: false, text: plural(got.length, "row") + ", expected " + a.key.length + " (one row per line)." };
    }
    for (var r = 0; r < a.key.length; r++) {
      var where = matrix ? " in row " + (r + 1) : "";
      if (got[r].length !== a.key[r].length) {
        return { right: false, text: plural(got[r].length, "component") + where + ", expected " + a.key[r].length + "." };
      }
      var bad = [];
      got[r].forEach(function (v, c) { if (v === null) bad.push(c + 1); });
      if (bad.length) {
        var comma = /\d,\d/.test(raw) && a.type === "numeric";
        var what = a.type === "numeric" ? "That is not a number" :
          (bad.length === 1 ? "Component " + bad[0] : "Components " + listOf(bad)) + where + (bad.length === 1 ? " is" : " are") + " not a number";
        return { right: false, text: what + (comma ? ": write the decimal point as a dot (0.82, not 0,82)." :
          ": write decimals such as 0.8208, or 1.69e-12 for 1.69 × 10⁻¹².") };
      }
    }
    if (close(got, a.key, a.tol)) return { right: true, text: "Right: the key is " + a.shown + "." };
    // the named mistake nearest the answer, of those it is close to (two can
    // be: 2.3 names 0 and 0.0001 for one weight of tolerance 0.00011), as the grader names it
    var best = null, bestDistance = Infinity;
    for (var i = 0; i < a.distractors.length; i++) {
      var d = a.distractors[i];
      if (!close(got, d.value, a.tol)) continue;
      var distance = 0;
      d.value.forEach(function (row, r) { row.forEach(function (v, c) { distance += Math.abs(got[r][c] - v); }); });
      if (distance < bestDistance) { best = d; bestDistance = distance; }
    }
    if (best) return { right: false, text: best.sentence };
    // which components miss, and whether they only miss by rounding
    var off = [], rounded = null, small = false;
    for (r = 0; r < a.key.length; r++) {
      for (var c = 0; c < a.key[r].length; c++) {
        var v = got[r][c], k = a.key[r][c], t = a.tol[r][c];
        if (within(v, k, t)) continue;
        off.push(matrix ? "row " + (r + 1) + " component " + (c + 1) : String(c + 1));
        var p = placesOf(rows[r][c]), q = a.places[r][c];
        if (p !== null && q !== null && p < q && Math.abs(v - k) <= 0.5 * Math.pow(10, -p) + t) rounded = rounded || [p, q];
        // a key below 10^-places, typed to the places: 0.0000 for 8.02e-15
        if (p !== null && q === null && v === 0 && Math.abs(k) < 1 && Math.abs(k) <= 0.5 * Math.pow(10, -p) + t) small = true;
      }
    }
    if (small) {
      return { right: false, text: "Too small for the decimal places: a number this small counts to three " +
        "significant digits, written as 1.23e-5 (or 1.23 × 10⁻⁵)." };
    }
    if (rounded) {
      return { right: false, text: "Rounded to " + plural(rounded[0], "place") + ", the key has " + rounded[1] +
        ": give " + rounded[1] + " decimal places." };
    }
    var tol = showTol(a.tol[0][0]);
    if (a.type === "numeric") {
      return { right: false, text: tol === "exactly" ? "Not the key: this count must be exact." :
        "Not within " + tol + " of the key." };
    }
    return { right: false, text: (off.length === 1 ? "Component " : "Components ") + listOf(off) +
      (off.length === 1 ? " is" : " are") + " not within " + tol + " of the key." };
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
    return { right: false, text: a.sentence + " " + good + " of " + a.key.length + " pairs are right." };
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

  function clearAll() {
    try {
      var ls = window.localStorage, keys = [];
      for (var i = 0; i < ls.length; i++) if (ls.key(i).indexOf("attndrills:") === 0) keys.push(ls.key(i));
      keys.forEach(function (k) { ls.removeItem(k); });
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
      say(status, "Variant " + (current + 1) + " of " + total + (s[codes[current]] ? " (solved before)" : "") +
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
      sections[current].scrollIntoView({ block: "start" });
    });
    pool.querySelector(".ad-clear").addEventListener("click", function () {
      clearAll();
      update("Your progress is cleared.");
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

  // Material's instant navigation swaps pages without a load event and
  // announces each one on document$; without it, the DOM is ready once.
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
