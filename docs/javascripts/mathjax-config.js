// MathJax 3 for pymdownx.arithmatex (generic mode): only the spans and
// blocks arithmatex marks are typeset.  The assistive MathML that
// tex-mml-chtml adds by default keeps every formula readable by screen readers.
//
// Formulas are not Tab stops: MathJax's menu puts every formula in the Tab
// order by default (its "Include in Tab Order" setting), 134 stops on a set
// page before and between the answer fields.  Its menu (speech, zoom, the
// Tab order itself, kept by MathJax in this browser) stays reachable: by a
// right click on a formula, and from the keyboard by the "Formula settings"
// button added at the end of every page that has formulas.
function adFormulaSettings() {
  var doc = MathJax.startup.document;
  var maths = doc && doc.math ? Array.from(doc.math) : [];  // a LinkedList, iterable
  var article = document.querySelector(".md-content article") || document.querySelector(".md-content");
  if (!doc.menu || !doc.menu.menu || !maths.length || !article || article.querySelector(".ad-formula-settings")) return;
  var p = document.createElement("p");
  p.className = "ad-formula-settings";
  var button = document.createElement("button");
  button.type = "button";
  button.className = "md-button";
  // in the page's language where it carries practice.js's words (render.answer_fields.script_text)
  var carrier = document.querySelector(".ad-text[data-ad-text]");
  var said = {};
  try { said = carrier ? JSON.parse(carrier.getAttribute("data-ad-text")) : {}; } catch (e) { said = {}; }
  button.textContent = said.formula_settings || "Formula settings (speech, zoom, Tab order)";
  button.setAttribute("aria-haspopup", "menu");
  button.addEventListener("click", function () {
    var box = button.getBoundingClientRect();
    doc.menu.menu.mathItem = maths[0];
    doc.menu.menu.post(box.left + window.scrollX, box.bottom + window.scrollY);
  });
  p.appendChild(button);
  article.appendChild(p);
}

window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"]],
    displayMath: [["\\[", "\\]"]],
    processEscapes: true,
    processEnvironments: true
  },
  options: {
    ignoreHtmlClass: ".*|",
    processHtmlClass: "arithmatex",
    menuOptions: { settings: { inTabOrder: false } }
  },
  startup: {
    pageReady: function () {
      return MathJax.startup.defaultPageReady().then(adFormulaSettings);
    }
  }
};
