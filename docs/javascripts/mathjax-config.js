// MathJax 3 for pymdownx.arithmatex (generic mode): only the spans and
// blocks arithmatex marks are typeset.  The assistive MathML that
// tex-mml-chtml adds by default keeps every formula readable by screen readers.
window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"]],
    displayMath: [["\\[", "\\]"]],
    processEscapes: true,
    processEnvironments: true
  },
  options: {
    ignoreHtmlClass: ".*|",
    processHtmlClass: "arithmatex"
  }
};
