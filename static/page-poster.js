// The lab's page paints the first view its URL asks for from its very first frame. A classic
// script of the head, after poster.js. The page holds the untouched page's poster (the story,
// src/bin/poster.rs); asked for another view that has a poster (`?tour=…`, `lang=zh`), the head
// loads that poster as a script that holds the first paint (`blocking="render"`), and it takes
// the held poster's place as soon as the parser reaches it; asked for a view no poster shows,
// the page's loading box shows instead. Until one is placed, page.css hides the held poster
// when another is asked for: the story never flashes before a tour.
(() => {
  const { file, dress, arm } = globalThis.kubeBootstrapLabPoster;
  const options = Object.fromEntries(new URLSearchParams(location.search));
  if (location.hash.length > 1) options.link = location.hash;
  const root = document.documentElement;
  // The poster the build puts in the page (src/bin/poster.rs: the untouched page's).
  const HELD = "posters/story.en.html";
  /** The poster asked for (null: none fits, or it could not be loaded) and its markup once here. */
  let want = file(options);
  let markup = null;
  // page.css hides the held poster while another view is on its way.
  if (want !== HELD) root.dataset.labPoster = "wait";

  const watch = new MutationObserver(() => place());
  const finish = () => {
    watch.disconnect();
    root.dataset.labPoster = "placed";
  };
  /** Once the parser has reached the held poster and the loading box: the one asked for shown. */
  function place() {
    if (root.dataset.labPoster === "placed" || !document.body) return;
    // The app has rendered (Yew empties the body): nothing to place any more.
    if (document.querySelector("body > .lab")) return finish();
    const held = document.querySelector("body > .lab-poster");
    const box = document.querySelector("body > .lab-loading");
    if (!held || !box) return;
    if (want && held.dataset.poster === want) {
      dress(held, options);
      arm(held);
      return finish();
    }
    if (!want) {
      held.remove();
      box.hidden = false;
      return finish();
    }
    if (markup == null) return;
    const t = document.createElement("template");
    t.innerHTML = markup;
    const poster = t.content.querySelector(".lab-poster");
    if (!poster) return fail();
    dress(poster, options);
    arm(poster);
    held.replaceWith(poster);
    finish();
  }
  /** The poster asked for could not be had: the loading box, as for a view no poster shows. */
  function fail() {
    want = null;
    place();
  }

  // Mutations are delivered before the next frame is painted: the parser's insertion of the
  // held poster is answered before it can be seen.
  watch.observe(root, { childList: true, subtree: true });
  if (want && want !== HELD) {
    globalThis.kubeBootstrapLabPoster.arrive = (name, html) => {
      if (name !== want) return;
      markup = html;
      place();
    };
    const script = document.createElement("script");
    script.src = want.replace(/\.html$/, ".js");
    script.setAttribute("blocking", "render");
    script.onerror = fail;
    document.head.append(script);
  }
})();
