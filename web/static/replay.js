// The replay's arrow keys: ← the previous step, → the next (the links do the same without
// script). Not while typing in a field, nor with a modifier held (the browser's own keys).
"use strict";
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
  var target = event.target;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
    return;
  }
  var link = null;
  if (event.key === "ArrowLeft") { link = document.getElementById("prev"); }
  if (event.key === "ArrowRight") { link = document.getElementById("next"); }
  if (link) {
    event.preventDefault();
    window.location.href = link.href;
  }
});
