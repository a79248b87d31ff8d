fn main() {
    yew::Renderer::<kube_bootstrap_lab::ui::App>::new().render();
}
