// Until the app's first render replaces the poster or loading box (Yew empties the body), a failure
// is a failure to load the module: say which file, rather than leave the box spinning.
// After it, a trap of the module that is no panic (memory running out, …) leaves no
// message of its own (src/ui/failure.rs writes a panic's): say so rather than leave a
// blank or frozen page.
(() => {
  const zh = () => document.documentElement.lang === "zh";
  const tell = (text, replace) => {
    if (document.querySelector(".lab-failure")) return;
    const p = document.createElement("p");
    p.className = "lab-failure";
    p.setAttribute("role", "alert");
    p.textContent = text;
    // Framed, the reader may still open the page in a tab of its own (another network, a
    // browser without the blocker): the frame shrinks to this line and its link.
    if (window.parent !== window) {
      const a = document.createElement("a");
      a.href = location.href;
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = zh() ? "在新标签页中打开实验室" : "Open the lab in its own tab";
      p.append(" ", a, zh() ? "。" : ".");
    }
    if (document.documentElement.dataset.theme) p.dataset.theme = document.documentElement.dataset.theme;
    if (replace) replace.replaceWith(p);
    else document.body.prepend(p);
  };
  // The lab's files that answered with an error status (the inline module that imports
  // them names no URL when it fails), else the files it loads.
  const culprits = (target) => {
    const url = target?.src || target?.href;
    if (url) return [url];
    const files = (r) => /\.(js|wasm)$/.test(new URL(r.name).pathname);
    const failed = performance.getEntriesByType("resource").filter((r) => files(r) && r.responseStatus >= 400);
    if (failed.length) return failed.map((r) => r.name);
    return [...document.querySelectorAll('link[rel="modulepreload"], link[rel="preload"][href$=".wasm"]')].map((l) => l.href);
  };
  const fail = (e) => {
    const err = e.error ?? e.reason;
    const loading = document.querySelector(".lab-poster, .lab-loading:not([hidden])");
    if (loading) {
      const urls = culprits(e.target === window ? null : e.target).join(", ");
      const why = err?.message ?? (zh() ? "无法获取" : "could not be fetched");
      tell(zh()
        ? `实验室无法加载：${urls} 加载失败（${why}）。请重新加载页面；若问题依旧，说明服务器没有提供实验室的文件。`
        : `The lab could not be loaded: ${urls} failed (${why}). Reload the page; if it persists, the server does not serve the lab's files.`, loading);
      return;
    }
    if (!(err instanceof WebAssembly.RuntimeError)) return;
    tell(zh()
      ? `实验室因内部错误而停止；请重新加载页面。（${err.message}）`
      : `The lab stopped because of an internal error; reload the page to start it again. (${err.message})`);
  };
  // Capture: a script or link that fails to load fires `error` at itself, not at the window.
  addEventListener("error", fail, true);
  addEventListener("unhandledrejection", fail);
})();
