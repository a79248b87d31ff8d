// The page's language, theme and first view before the module knows them (src/ui/mount.rs
// sets them again). The page holds the untouched page's poster; asked for something else, it
// shows that view's poster when one fits (static/poster.js), else a loading box of the lab's size.
(() => {
  const q = new URLSearchParams(location.search);
  const options = Object.fromEntries(q);
  if (location.hash.length > 1) options.link = location.hash;
  if (q.get("lang") === "zh") document.documentElement.lang = "zh";
  const box = document.querySelector(".lab-loading");
  const poster = document.querySelector(".lab-poster");
  if (q.get("lang") === "zh") document.getElementById("lab-loading-text").textContent = "正在加载实验室…";
  // What the page will show sizes its loading box (style.css: .lab-loading).
  if (q.get("controls") === "minimal") box.dataset.controls = "minimal";
  if (q.get("panels")) box.dataset.panels = q.get("panels");
  const theme = q.get("theme");
  if (theme === "light" || theme === "dark") {
    document.documentElement.dataset.theme = theme;
    box.dataset.theme = theme;
  }
  const { file, dress, fetchPoster } = globalThis.kubeBootstrapLabPoster;
  if (!poster) return;
  if (file(options) === poster.dataset.poster) return dress(poster, options);
  poster.remove();
  box.hidden = false;
  fetchPoster(options, location.href).then((other) => {
    // Unless the app has rendered meanwhile (Yew emptied the body).
    if (other && box.isConnected) box.replaceWith(other);
  });
})();
