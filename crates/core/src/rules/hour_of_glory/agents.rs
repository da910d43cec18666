//! Agents, weapons and equipment: the Intruders' raiding and assault profiles, the Defender's
//! printed stats (summary, "Commander", "Sentries", "Guards"), the weapon cards (summary,
//! "Weapons") and the equipment cards. Profiles and loadouts are data files
//! (`data/agents.txt`, `data/loadouts.txt`); the weapon table is a const below.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The three SABRE agents (manual, "Choose an agent").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Agent {
    Harris,
    Link,
    Volkov,
}

impl Agent {
    pub const ALL: [Agent; 3] = [Agent::Harris, Agent::Link, Agent::Volkov];
    pub fn name(self) -> &'static str {
        match self {
            Agent::Harris => "harris",
            Agent::Link => "link",
            Agent::Volkov => "volkov",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Agent::Harris => "Harris",
            Agent::Link => "Link",
            Agent::Volkov => "Volkov",
        }
    }
    pub fn parse(text: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.name() == text)
    }
}

/// An Intruder's tactical mode (summary, "The Intruders").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Raiding,
    Assault,
}

/// The four skills (summary, "Skills").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skill {
    Stealth,
    Technique,
    Combat,
    Survival,
}

/// A skill's pass score on a d6 (6 Inept … 2 Ace).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grade(pub u8);

impl Grade {
    pub fn passes(self, face: u32) -> bool {
        face >= u32::from(self.0)
    }
}

/// One side of a profile card.
#[derive(Debug, Clone, Copy)]
pub struct Profile {
    pub stealth: Grade,
    pub technique: Grade,
    pub combat: Grade,
    pub survival: Grade,
    pub endurance: u8,
    pub strength: u8,
}

impl Profile {
    pub fn grade(&self, skill: Skill) -> Grade {
        match skill {
            Skill::Stealth => self.stealth,
            Skill::Technique => self.technique,
            Skill::Combat => self.combat,
            Skill::Survival => self.survival,
        }
    }
}

/// The kinds of defending agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefKind {
    Commander,
    Sentry,
    Guard,
}

/// A weapon card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    Knife,
    Handgun,
    Smg,
    Rifle,
}

impl Weapon {
    pub const ALL: [Weapon; 4] = [Weapon::Knife, Weapon::Handgun, Weapon::Smg, Weapon::Rifle];
    pub fn name(self) -> &'static str {
        match self {
            Weapon::Knife => "knife",
            Weapon::Handgun => "handgun",
            Weapon::Smg => "smg",
            Weapon::Rifle => "rifle",
        }
    }
    pub fn parse(text: &str) -> Option<Weapon> {
        Weapon::ALL.into_iter().find(|w| w.name() == text)
    }
    pub fn is_firearm(self) -> bool {
        self != Weapon::Knife
    }
    /// Attack dice when shooting (summary, "Weapons"; the Intruders' cards are lost, so the
    /// firearms' dice are the project's choice, set against the Luger's 4d6 and the Karabiner's
    /// 5d6 that the summary prints).
    pub fn shoot_dice(self) -> u8 {
        match self {
            Weapon::Knife => 0,
            Weapon::Handgun => 4,
            Weapon::Smg => 4,
            Weapon::Rifle => 5,
        }
    }
}

/// An equipment card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Equipment {
    CovertEntryKit,
    SpyCamera,
    FirstAidKit,
    MasterKey,
}

impl Equipment {
    pub fn name(self) -> &'static str {
        match self {
            Equipment::CovertEntryKit => "covert-entry-kit",
            Equipment::SpyCamera => "spy-camera",
            Equipment::FirstAidKit => "first-aid-kit",
            Equipment::MasterKey => "master-key",
        }
    }
    pub fn parse(text: &str) -> Option<Equipment> {
        [
            Equipment::CovertEntryKit,
            Equipment::SpyCamera,
            Equipment::FirstAidKit,
            Equipment::MasterKey,
        ]
        .into_iter()
        .find(|e| e.name() == text)
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every profile, read once from `data/agents.txt`.
pub struct Profiles {
    intruders: Vec<(Agent, Mode, Profile)>,
    defenders: Vec<(DefKind, Profile)>,
    loadouts: Vec<(Agent, Vec<Weapon>, Vec<Equipment>)>,
}

static PROFILES: OnceLock<Profiles> = OnceLock::new();

pub fn profiles() -> &'static Profiles {
    PROFILES.get_or_init(|| {
        Profiles::parse(
            include_str!("data/agents.txt"),
            include_str!("data/loadouts.txt"),
        )
        .unwrap_or_else(|e| panic!("agent data: {e}"))
    })
}

fn grade(word: &str) -> Result<Grade, String> {
    match word {
        "-" => Ok(Grade(7)),
        w => w
            .parse::<u8>()
            .ok()
            .filter(|g| (2..=6).contains(g))
            .map(Grade)
            .ok_or(format!("bad grade {w}")),
    }
}

impl Profiles {
    pub fn parse(agents: &str, loadouts: &str) -> Result<Profiles, String> {
        let mut p = Profiles {
            intruders: Vec::new(),
            defenders: Vec::new(),
            loadouts: Vec::new(),
        };
        for line in agents
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.len() != 8 {
                return Err(format!("agent line needs 8 columns: {line}"));
            }
            let num = |s: &str| s.parse::<u8>().map_err(|_| format!("bad number {s}"));
            let profile = Profile {
                stealth: grade(w[2])?,
                technique: grade(w[3])?,
                combat: grade(w[4])?,
                survival: grade(w[5])?,
                endurance: num(w[6])?,
                strength: num(w[7])?,
            };
            match (Agent::parse(w[0]), w[0]) {
                (Some(a), _) => {
                    let mode = match w[1] {
                        "raiding" => Mode::Raiding,
                        "assault" => Mode::Assault,
                        m => return Err(format!("bad mode {m}")),
                    };
                    p.intruders.push((a, mode, profile));
                }
                (None, "commander") => p.defenders.push((DefKind::Commander, profile)),
                (None, "sentry") => p.defenders.push((DefKind::Sentry, profile)),
                (None, "guard") => p.defenders.push((DefKind::Guard, profile)),
                (None, other) => return Err(format!("unknown agent {other}")),
            }
        }
        for line in loadouts
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let mut w = line.split_whitespace();
            let agent = w
                .next()
                .and_then(Agent::parse)
                .ok_or(format!("bad loadout line {line}"))?;
            let mut weapons = Vec::new();
            let mut equipment = Vec::new();
            for word in w {
                if let Some(wp) = Weapon::parse(word) {
                    weapons.push(wp);
                } else if let Some(e) = Equipment::parse(word) {
                    equipment.push(e);
                } else {
                    return Err(format!("unknown card {word}"));
                }
            }
            p.loadouts.push((agent, weapons, equipment));
        }
        Ok(p)
    }

    pub fn intruder(&self, agent: Agent, mode: Mode) -> Profile {
        self.intruders
            .iter()
            .find(|(a, m, _)| *a == agent && *m == mode)
            .map(|(_, _, p)| *p)
            .expect("every agent has both profiles in data/agents.txt")
    }

    pub fn defender(&self, kind: DefKind) -> Profile {
        self.defenders
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, p)| *p)
            .expect("every defender kind is in data/agents.txt")
    }

    pub fn loadout(&self, agent: Agent) -> (Vec<Weapon>, Vec<Equipment>) {
        self.loadouts
            .iter()
            .find(|(a, _, _)| *a == agent)
            .map(|(_, w, e)| (w.clone(), e.clone()))
            .expect("every agent has a loadout in data/loadouts.txt")
    }
}
