// What the package's framework components (docusaurus/, vitepress/) share, framework-free: the
// lab page's address for a set of options, which their fallback links to and their iframe shows.

/** A tour file given in the page (a string, or the parsed object) as its JSON text. */
export const tourText = (file) => (file == null ? null : typeof file === "string" ? file : JSON.stringify(file));

/** The lab page's address with `options` (and a tour file's text): the fallback's link and the iframe. */
export function pageUrl(base, options, file) {
  const { link, ...query } = options;
  const search = new URLSearchParams(query);
  if (file != null) search.set("tour-file", file);
  const q = search.toString();
  return `${base}index.html${q ? `?${q}` : ""}${link ? `#${link.replace(/^#/, "")}` : ""}`;
}
