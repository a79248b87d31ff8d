//! Component tests: mount the app in headless Chromium, click, type, read the DOM. One binary
//! (Yew and the app are linked once), a module per subject: the app as a whole is `app.rs`, the
//! keyboard and the focus `keyboard.rs`, the bitmaps `bitmap.rs`, … `make test-wasm` runs each
//! subject in a page of its own (`-- SUBJECT::`), so that a test that fails, leaving its
//! apps in the page, fails alone; within a page each test unmounts what it mounts.
#![cfg(all(target_arch = "wasm32", feature = "web"))]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod app;
mod author;
mod bitmap;
mod clients;
#[path = "../support/dom.rs"]
mod dom;
mod embed;
mod forms;
mod handout;
mod host;
mod inspector;
mod keyboard;
mod lang;
mod objects;
mod predict;
mod small;
mod stage;
mod table;
mod trying;
#[path = "../../crates/lab/benches/support/workloads.rs"]
mod workloads;
