//! The rulesets, one folder per game, and the registry that finds them by id.

use std::sync::Arc;

use crate::engine::ruleset::{Erased, Ruleset};

pub mod for_honor_and_glory;
pub mod open_table;

/// Every ruleset this build plays.
pub fn all() -> Vec<Arc<dyn Ruleset>> {
    vec![
        Arc::new(Erased(open_table::OpenTable)),
        Arc::new(Erased(for_honor_and_glory::ForHonorAndGlory)),
    ]
}

/// The ruleset with this id.
pub fn find(id: &str) -> Option<Arc<dyn Ruleset>> {
    all().into_iter().find(|r| r.info().id == id)
}
