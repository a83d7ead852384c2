// MathJax 3 for pymdownx.arithmatex (generic mode): only the spans and
// blocks arithmatex marks are typeset.  The assistive MathML that
// tex-mml-chtml adds by default keeps every formula readable by screen readers.
//
// Symbols in the answer fields' labels (cₜ, α_t1) are kept out of the Tab
// order, which MathJax's menu puts every formula in: Tab goes from field to
// field, as in a form without maths.  This runs once the formulas are in the
// page (MathJax inserts them at 200), after the menu has set their tabindex.
function adUntab(root) {
  if (root && root.closest && root.closest(".ad-check")) root.setAttribute("tabindex", "-1");
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
    renderActions: {
      fieldsUntabbed: [201,
        function () { document.querySelectorAll(".ad-check mjx-container").forEach(adUntab); },
        function (math) { adUntab(math.typesetRoot); }]
    }
  }
};
