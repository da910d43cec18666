//! Campaign scenarios (12.): battles played one after another in one game, their VP totalled.
//! A battle won outright gives each side the VP it earned; a battle won on time gives the
//! victor the VP it needed to win and the loser what it earned (see `victory`). The campaign
//! goes to the side with more VP in all; equal totals are a draw.

use serde::{Deserialize, Serialize};

use super::battle::{Battle, BattleResult};
use super::optional::Options;
use super::scenario;
use super::units::Side;
use crate::engine::ruleset::RuleError;

/// A battle of the campaign already fought.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fought {
    pub scenario: String,
    pub result: BattleResult,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Campaign {
    pub id: String,
    pub title: String,
    pub scenarios: Vec<String>,
    pub fought: Vec<Fought>,
}

impl Campaign {
    /// The campaign with this id, and its first battle.
    pub fn start(id: &str, options: Options) -> Option<Result<(Campaign, Battle), RuleError>> {
        let def = scenario::campaigns().iter().find(|c| c.id == id)?;
        let first = scenario::find(&def.scenarios[0]).expect("campaigns name shipped scenarios");
        Some(Battle::new(first, options).map(|b| {
            (
                Campaign {
                    id: def.id.clone(),
                    title: def.title.clone(),
                    scenarios: def.scenarios.clone(),
                    fought: Vec::new(),
                },
                b,
            )
        }))
    }

    /// VP so far, per side, counted the campaign's way.
    pub fn totals(&self) -> [u32; 2] {
        let mut t = [0u32; 2];
        for f in &self.fought {
            t[0] += u32::from(f.result.campaign_vp[0]);
            t[1] += u32::from(f.result.campaign_vp[1]);
        }
        t
    }

    /// Records the battle just ended and sets up the next; `None` when the campaign is over.
    pub fn next(&mut self, ended: &Battle) -> Option<Battle> {
        let result = ended
            .result
            .clone()
            .expect("a battle is recorded when it has ended");
        self.fought.push(Fought {
            scenario: ended.scenario.clone(),
            result,
        });
        let id = self.scenarios.get(self.fought.len())?;
        let scen = scenario::find(id).expect("campaigns name shipped scenarios");
        Some(Battle::new(scen, ended.options).expect("shipped scenarios keep the hex limits"))
    }

    /// The campaign's winner by total VP.
    pub fn winner(&self) -> Option<Side> {
        let [a, b] = self.totals();
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Side::AMERICAN),
            std::cmp::Ordering::Less => Some(Side::BRITISH),
            std::cmp::Ordering::Equal => None,
        }
    }
}
