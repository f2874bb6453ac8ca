// A little help, never needed: times in the reader's own zone beside UTC,
// the arrow keys step through the rounds, and a tap on the map shows it at
// full size in its box, to pan by scrolling (without this, the tap opens
// the map by itself).
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
document.querySelectorAll("figure.map a.zoom").forEach(function (a) {
  a.addEventListener("click", function (e) {
    e.preventDefault();
    var fig = a.parentNode, img = a.querySelector("img");
    // Where the reader tapped, as a share of the map fitted to the page.
    var r = img.getBoundingClientRect();
    var fx = (e.clientX - r.left) / r.width, fy = (e.clientY - r.top) / r.height;
    var full = fig.classList.toggle("full");
    var cap = fig.querySelector("figcaption");
    if (cap) cap.textContent = full ? "The map at full size: scroll to pan, tap to fit it to the page again." : "Tap the map to see it at full size, and pinch to zoom.";
    if (full) {
      // The full-size map opens on the place tapped.
      fig.scrollLeft = Math.max(0, fx * img.naturalWidth - fig.clientWidth / 2);
      fig.scrollTop = Math.max(0, fy * img.naturalHeight - fig.clientHeight / 2);
    }
  });
});
