// The page's language and theme before the module knows them (src/ui/mount.rs sets them again).
(() => {
  const q = new URLSearchParams(location.search);
  if (q.get("lang") === "zh") {
    document.documentElement.lang = "zh";
    document.getElementById("lab-loading-text").textContent = "正在加载实验室…";
  }
  const theme = q.get("theme");
  if (theme === "light" || theme === "dark") {
    document.documentElement.dataset.theme = theme;
    document.querySelector(".lab-loading").dataset.theme = theme;
  }
})();
