/* Attention Drills: what the theme's markup lacks for assistive technology,
   set where the site's configuration can (axe-core in tests/test_browser.py).
   Material's search overlay is a dialog without a name (aria-dialog-name). */
(function () {
  "use strict";

  function mend() {
    var search = document.querySelector(".md-search[role=dialog]");
    if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mend);
  else mend();
})();
