// The page's language and theme before the module knows them (src/ui/mount.rs sets them again),
// and the size of its loading box, which shows when no poster fits what the page asks for (the
// poster itself is chosen in the head: static/page-poster.js).
(() => {
  const q = new URLSearchParams(location.search);
  if (q.get("lang") === "zh") document.documentElement.lang = "zh";
  const box = document.querySelector(".lab-loading");
  if (q.get("lang") === "zh") document.getElementById("lab-loading-text").textContent = "正在加载实验室…";
  // What the page will show sizes its loading box (style.css: .lab-loading).
  if (q.get("controls") === "minimal") box.dataset.controls = "minimal";
  if (q.get("panels")) box.dataset.panels = q.get("panels");
  const theme = q.get("theme");
  if (theme === "light" || theme === "dark") {
    document.documentElement.dataset.theme = theme;
    box.dataset.theme = theme;
  }
})();
