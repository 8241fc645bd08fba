/* Scorebook on a phone: the pad's board fitted to its frame's width, every board moved and zoomed with two
 * fingers, and the header's menu closed once one of its links is followed.
 *
 * - The pad's board (`.pad-board-wrap`) is made as tall as its width needs for the board's own ranges
 *   (`layout.meta.board`, its y axis anchored to x), so a phone shows no blank bands and a laptop the whole
 *   board; never taller than the screen. The replay's board is fitted by assets/scorebook.js.
 * - Plotly takes every touch on a plot for itself (it cancels the page's scroll) and has no pinch. So a touch
 *   on a graph is kept from plotly: one finger scrolls the page, and a tap reaches plotly as the browser's
 *   click (the pad's targets, a chart's hover); two fingers move and zoom a board, shown at once as a CSS transform and drawn
 *   by plotly when the fingers lift. Pinching out to the whole board or further puts the board back as drawn.
 *   On a laptop a trackpad's pinch (a wheel with Ctrl) zooms the same way; the wheel alone scrolls the page.
 * - The board's ranges change through Plotly.react, never Plotly.relayout: Dash writes a relayout back into
 *   the graph's figure and draws it again (on the replay, the step the server drew, not the one shown). */
(function () {
  "use strict";
  function square(gd) {
    var L = gd && gd.layout, y = L && L.yaxis;
    return Boolean(y && y.scaleanchor === "x" && L.meta && L.meta.board && gd._fullLayout);
  }

  /* The board's own ranges (dashboard/boards/drawing.py): plotly widens the drawn ones to fill its frame. */
  function own(gd) { var b = gd.layout.meta.board; return { x: b[0].slice(), y: b[1].slice() }; }

  /* The pad's board only as tall as its width needs (plotly forgets the figure's height on a resize). */
  function fit(gd) {
    if (!square(gd) || gd._sbZoomed === gd.layout || !gd.closest(".pad-board-wrap") || !window.Plotly) { return; }
    var L = gd.layout, m = L.margin || {}, r = own(gd), x = r.x, y = r.y;
    var w = gd.clientWidth - (m.l || 0) - (m.r || 0);
    var across = Math.abs(x[1] - x[0]), up = Math.abs(y[1] - y[0]);
    if (w <= 0 || !across) { return; }
    var want = Math.ceil(w * up / across + (m.t || 0) + (m.b || 0));
    /* never taller than the screen: a long High Five board is then a little narrower than its frame */
    var height = Math.max(200, Math.min(want, Math.round(window.innerHeight * 0.9)));
    if (Math.abs(gd._fullLayout.height - height) > 2) {
      window.Plotly.react(gd, { data: gd.data, layout: Object.assign({}, L, {
        height: height,
        xaxis: Object.assign({}, L.xaxis, { range: x }),
        yaxis: Object.assign({}, L.yaxis, { range: y })
      }) });
    }
  }

  function watch(gd) {
    if (gd._sbWatched || typeof gd.on !== "function") { return; }
    gd._sbWatched = true;
    gd.on("plotly_afterplot", function () { fit(gd); });
    fit(gd);
  }

  /* Graphs appear with the pages (Dash renders them): each is armed once, the pad's board watched too. The
     touch and wheel listeners sit on the graphs only (capturing, so plotly's own below never get a touch):
     elsewhere the page's scrolling never waits for a script. */
  function arm(gd) {
    if (gd._sbArmed) { return; }
    gd._sbArmed = true;
    var opts = { capture: true, passive: false };
    gd.addEventListener("touchstart", touchStart, opts);
    gd.addEventListener("touchmove", touchMove, opts);
    gd.addEventListener("touchend", touchEnd, opts);
    gd.addEventListener("touchcancel", touchEnd, opts);
    gd.addEventListener("wheel", wheel, opts);
  }
  new MutationObserver(function () {
    var all = document.querySelectorAll(".js-plotly-plot");
    for (var i = 0; i < all.length; i++) {
      arm(all[i]);
      if (all[i]._fullLayout && all[i].closest(".pad-board-wrap")) { watch(all[i]); }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(function () {
      var all = document.querySelectorAll(".pad-board-wrap .js-plotly-plot");
      for (var i = 0; i < all.length; i++) { fit(all[i]); }
    }, 150);
  });

  /* The ranges seen in the plot area after moving its picture by (tx, ty) and scaling it by s about the
     container's top-left corner. */
  function rangesAfter(gd, tx, ty, s) {
    var F = gd._fullLayout, size = F._size, x = F.xaxis.range, y = F.yaxis.range;
    function toX(px) { return x[0] + (px - size.l) / size.w * (x[1] - x[0]); }
    function toY(py) { return y[1] - (py - size.t) / size.h * (y[1] - y[0]); }
    return {
      x: [toX((size.l - tx) / s), toX((size.l + size.w - tx) / s)],
      y: [toY((size.t + size.h - ty) / s), toY((size.t - ty) / s)]
    };
  }

  function show(gd, ranges) {
    var L = gd.layout;
    var home = own(gd), back = Math.abs(ranges.x[1] - ranges.x[0]) >= Math.abs(home.x[1] - home.x[0]) - 1e-9;
    if (back) { ranges = home; }
    var layout = Object.assign({}, L, {
      xaxis: Object.assign({}, L.xaxis, { range: ranges.x.slice() }),
      yaxis: Object.assign({}, L.yaxis, { range: ranges.y.slice() })
    });
    gd._sbZoomed = back ? null : layout;
    window.Plotly.react(gd, { data: gd.data, layout: layout });
  }

  var gesture = null;

  function mid(t) {
    return { x: (t[0].clientX + t[1].clientX) / 2, y: (t[0].clientY + t[1].clientY) / 2,
             d: Math.max(1, Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY)) };
  }

  function picture(gd) { return gd.querySelector(".svg-container"); }

  function touchStart(ev) {
    var gd = ev.currentTarget;
    ev.stopPropagation();  /* plotly never sees a touch */
    if (ev.touches.length === 2 && square(gd) && window.Plotly) {
      ev.preventDefault();
      var box = gd.getBoundingClientRect(), m = mid(ev.touches);
      gesture = { gd: gd, box: box, start: m, tx: 0, ty: 0, s: 1 };
      var pic = picture(gd);
      if (pic) { pic.style.transformOrigin = "0 0"; }
    }
  }

  function touchMove(ev) {
    ev.stopPropagation();
    if (!gesture || ev.touches.length !== 2) { return; }
    ev.preventDefault();  /* no page zoom while the board zooms */
    var m = mid(ev.touches), g = gesture;
    g.s = Math.max(0.25, Math.min(8, m.d / g.start.d));
    g.tx = (m.x - g.box.left) - g.s * (g.start.x - g.box.left);
    g.ty = (m.y - g.box.top) - g.s * (g.start.y - g.box.top);
    var pic = picture(g.gd);
    if (pic) { pic.style.transform = "translate(" + g.tx + "px," + g.ty + "px) scale(" + g.s + ")"; }
  }

  function touchEnd(ev) {
    ev.stopPropagation();
    if (!gesture || ev.touches.length >= 2) { return; }
    var g = gesture;
    gesture = null;
    var pic = picture(g.gd);
    if (pic) { pic.style.transform = ""; }
    if (Math.abs(g.s - 1) > 0.02 || Math.abs(g.tx) > 3 || Math.abs(g.ty) > 3) {
      show(g.gd, rangesAfter(g.gd, g.tx, g.ty, g.s));
    }
  }

  /* A trackpad's pinch (Ctrl + wheel) zooms the board about the pointer. */
  function wheel(ev) {
    var gd = ev.currentTarget;
    if (!ev.ctrlKey || !square(gd) || !window.Plotly) { return; }
    ev.preventDefault();
    var box = gd.getBoundingClientRect(), s = Math.max(0.5, Math.min(2, Math.exp(-ev.deltaY / 100)));
    var px = ev.clientX - box.left, py = ev.clientY - box.top;
    show(gd, rangesAfter(gd, px - s * px, py - s * py, s));
  }

  /* The menu's links change the page without a reload: close the menu behind them. */
  document.addEventListener("click", function (ev) {
    var link = ev.target && ev.target.closest ? ev.target.closest("#nav-menu nav a") : null;
    var menu = document.getElementById("nav-menu");
    if (link && menu) { menu.open = false; }
  });
})();
