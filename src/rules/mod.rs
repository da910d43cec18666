//! The rulesets, one folder per game, and the registry that finds them by id.

use std::sync::Arc;

use crate::engine::ruleset::{Erased, Ruleset};

pub mod hour_of_glory;
pub mod open_table;

/// Every ruleset this build plays.
pub fn all() -> Vec<Arc<dyn Ruleset>> {
    vec![
        Arc::new(Erased(open_table::OpenTable)),
        Arc::new(Erased(hour_of_glory::HourOfGlory)),
    ]
}

/// The ruleset with this id.
pub fn find(id: &str) -> Option<Arc<dyn Ruleset>> {
    all().into_iter().find(|r| r.info().id == id)
}
