// The first view before any wasm (src/ui/poster.rs writes them at build time): which poster,
// if any, shows what a page's options will open, and fetching it as an element. A classic
// script that page-preset.js and embed.js (which imports it for its side effect) share.
// Options: the page's URL parameters or the element's attributes.
(() => {
  // What no poster shows: another scenario, a moment, a step of no tour or a later one, some
  // panels, a trainer's own tour, a handout.
  const file = (o) => {
    if (o.scenario || o.link || o.panels || o["tour-src"] || o["tour-file"]) return null;
    if (o.step && (!o.tour || String(o.step) !== "1")) return null;
    // A tour's handout (`print`) is no first view of the lab.
    if (o.print != null) return null;
    const tour = o.tour || "story";
    if (!/^[a-z0-9-]+$/.test(tour)) return null;
    const lang = o.lang === "zh" ? "zh" : "en";
    return `posters/${tour}.${lang}.html`;
  };

  // What the options change of the lab's own element only (src/ui/mod.rs: its `minimal` class and
  // `data-theme`), as the app will render it.
  const dress = (poster, o) => {
    const lab = poster.querySelector(".lab");
    if (!lab) return;
    if (o.theme === "light" || o.theme === "dark") lab.setAttribute("data-theme", o.theme);
    lab.classList.toggle("minimal", o.controls === "minimal");
  };

  /** The poster for `options` below `base` as an element, or null (none fits, none loads). */
  const fetchPoster = async (options, base) => {
    const name = file(options);
    if (!name) return null;
    try {
      const res = await fetch(new URL(name, base));
      if (!res.ok) return null;
      const t = document.createElement("template");
      t.innerHTML = await res.text();
      const poster = t.content.querySelector(".lab-poster");
      if (poster) dress(poster, options);
      return poster;
    } catch {
      return null;
    }
  };

  globalThis.kubeBootstrapLabPoster = { file, dress, fetchPoster };
})();
