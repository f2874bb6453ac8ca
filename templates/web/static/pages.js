// A little help, never needed: times in the reader's own zone beside UTC,
// and the arrow keys step through the rounds.
"use strict";
document.querySelectorAll("time[datetime]").forEach(function (el) {
  var d = new Date(el.getAttribute("datetime"));
  if (isNaN(d)) return;
  var local = d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  el.title = el.textContent;
  el.textContent = local + " (" + el.textContent + ")";
});
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  var id = e.key === "ArrowLeft" ? "prev" : e.key === "ArrowRight" ? "next" : "";
  var a = id && document.getElementById(id);
  if (a) location.href = a.href;
});
