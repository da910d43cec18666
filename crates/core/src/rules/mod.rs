//! The rulesets, one folder per game, and the registry that finds them by id.

use std::sync::{Arc, LazyLock};

use crate::engine::ruleset::{Erased, Ruleset};

pub mod for_honor_and_glory;
pub mod hour_of_glory;
pub mod open_table;
pub mod searching_for_glory;
pub mod where_eagles_dare;

/// Every ruleset this build plays, with its id, made once.
static REGISTRY: LazyLock<Vec<(String, Arc<dyn Ruleset>)>> = LazyLock::new(|| {
    let all: Vec<Arc<dyn Ruleset>> = vec![
        Arc::new(Erased(open_table::OpenTable)),
        Arc::new(Erased(for_honor_and_glory::ForHonorAndGlory)),
        Arc::new(Erased(hour_of_glory::HourOfGlory)),
        Arc::new(Erased(searching_for_glory::SearchingForGlory)),
        Arc::new(Erased(where_eagles_dare::WhereEaglesDare)),
    ];
    all.into_iter().map(|r| (r.info().id, r)).collect()
});

/// The widest line a board in text may have: mail clients wrap longer ones.
pub const TEXT_WIDTH: usize = 78;

/// Fits a board drawn in text to [`TEXT_WIDTH`]: each longer line is wrapped at its spaces,
/// its continuation lines indented, so that a mail client never breaks a line of the map.
pub fn fit_for_mail(text: &str) -> String {
    let wrap = textwrap::Options::new(TEXT_WIDTH).subsequent_indent("      ");
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if line.chars().count() <= TEXT_WIDTH {
            out.push_str(line);
        } else {
            out.push_str(&textwrap::fill(line, &wrap));
        }
        out.push('\n');
    }
    out
}

/// Every ruleset this build plays.
pub fn all() -> Vec<Arc<dyn Ruleset>> {
    REGISTRY.iter().map(|(_, r)| r.clone()).collect()
}

/// The ruleset with this id.
pub fn find(id: &str) -> Option<Arc<dyn Ruleset>> {
    REGISTRY
        .iter()
        .find(|(known, _)| known == id)
        .map(|(_, r)| r.clone())
}

#[cfg(test)]
mod tests {
    /// A fold checks the log's ruleset against `id`, which a ruleset may give without its info.
    #[test]
    fn each_rulesets_id_is_the_id_of_its_info() {
        for r in super::all() {
            assert_eq!(r.id(), r.info().id);
        }
    }

    /// New games get the newest version a ruleset plays, and every version it plays is named
    /// once.
    #[test]
    fn each_rulesets_version_is_the_newest_it_plays() {
        for r in super::all() {
            let versions = r.versions();
            assert_eq!(
                Some(&r.info().version.as_str()),
                versions.last(),
                "{}",
                r.id()
            );
            let mut unique = versions.to_vec();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), versions.len(), "{}: {versions:?}", r.id());
        }
    }
}
