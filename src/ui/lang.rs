//! The language of an instance, as a context: the root provides it, every component under it
//! reads it. Its own module, so that components need not import the root for it.

use yew::prelude::*;

use crate::lang::Lang;

/// What sets the language for the components under it ([`super::App`], the tables alone).
pub(crate) type LangProvider = ContextProvider<Lang>;

/// The language of this instance, for every component under [`super::App`] (a context, not a
/// global, so that two instances on one page can differ).
#[hook]
pub(crate) fn use_lang() -> Lang {
    use_context::<Lang>().unwrap_or_default()
}
