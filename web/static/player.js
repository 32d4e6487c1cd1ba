// The rating chart on a player's page: Chart.js (vendored in static/vendor), one line per
// game, the data read from the canvas's data-url (ratings.json of this player).
"use strict";
(function () {
  var canvas = document.getElementById("rating-chart");
  if (!canvas || !window.Chart) { return; }
  var colours = ["#0f5132", "#0b4f8a", "#8a1c1c", "#8a6d00", "#5b2a86", "#1f6f78", "#7a4b00"];
  fetch(canvas.getAttribute("data-url"), { credentials: "same-origin" })
    .then(function (answer) { return answer.json(); })
    .then(function (data) {
      var datasets = data.series.map(function (series, index) {
        return {
          label: series.title,
          data: series.points.map(function (point, n) { return { x: n + 1, y: point.y }; }),
          borderColor: colours[index % colours.length],
          backgroundColor: colours[index % colours.length],
          tension: 0.2
        };
      });
      new window.Chart(canvas, {
        type: "line",
        data: { datasets: datasets },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          parsing: true,
          scales: {
            x: { type: "linear", title: { display: true, text: "#" }, ticks: { precision: 0 } },
            y: { title: { display: true, text: data.label } }
          }
        }
      });
    });
})();
