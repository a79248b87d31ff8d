//! The lab's page (`index.html`): `?tour=…&scenario=…&lang=en|zh&theme=auto|light|dark&
//! controls=full|minimal&autoplay&panels=…`, and a `#scenario=…&t=…&actions=…` link opens that
//! moment. Anything unknown or malformed is ignored, and the page says so. Other pages load the
//! same build as a module and call `mount` (see `static/embed.js`).

fn main() {
    kube_bootstrap_lab::ui::mount::mount_page();
}
