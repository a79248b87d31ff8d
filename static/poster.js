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

  const WAIT = {
    en: { next: "then the next step", play: "then it plays", pause: "then it pauses" },
    zh: { next: "随后进入下一步", play: "随后开始播放", pause: "随后暂停" },
  };

  /**
   * Lets the poster's Play and Next (`data-poster-action`, aria-disabled: src/ui/poster.rs)
   * take a click while the rest stays inert: each click is kept on the poster (`data-kept`, in
   * order), its status says what will follow, and the app carries them out when it replaces the
   * poster (src/ui/mount.rs reads them). Once per poster.
   */
  const arm = (poster) => {
    const view = poster.querySelector(":scope > .lab-poster-view");
    const actions = [...poster.querySelectorAll("[data-poster-action]")];
    if (!view || !actions.length || "armed" in poster.dataset) return;
    poster.dataset.armed = "";
    // Inert but for the way down to the actions.
    const walk = (el) => {
      for (const child of el.children) {
        if (actions.includes(child)) continue;
        if (actions.some((a) => child.contains(a))) walk(child);
        else child.inert = true;
      }
    };
    view.inert = false;
    walk(view);
    const words = WAIT[/\.zh\.html$/.test(poster.dataset.poster) ? "zh" : "en"];
    const status = poster.querySelector(".lab-poster-status > span:last-child");
    const loading = status?.textContent;
    for (const button of actions) {
      button.addEventListener("click", (e) => {
        e.preventDefault();
        let action = button.dataset.posterAction;
        // The story plays by itself: its poster's Play reads Pause.
        if (action === "play" && button.getAttribute("aria-pressed") === "true") action = "pause";
        poster.dataset.kept = `${poster.dataset.kept ?? ""} ${action}`.trim();
        if (button.getRootNode().activeElement === button) poster.dataset.keptFocus = button.dataset.posterAction;
        button.dataset.kept = "";
        if (status) status.textContent = `${loading} ${words[action]}`;
      });
    }
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
      if (poster) {
        dress(poster, options);
        arm(poster);
      }
      return poster;
    } catch {
      return null;
    }
  };

  globalThis.kubeBootstrapLabPoster = { file, dress, arm, fetchPoster };
})();
