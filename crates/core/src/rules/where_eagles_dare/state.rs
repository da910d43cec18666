//! The state of a game of Where Eagles Dare: the clock and phase, weather and drops, Club
//! Route and the Hell's Highway box, the positions players have moved units to, markers, the
//! event cups, bridges and disputes. Sealed choices live here only as their commitments until
//! they are revealed.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::data::{Spur, Weather, TURNS};
use super::hex::Hex;
pub use super::side::Side;

/// What the game waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Before play, campaign: the German seals his raid marker for `day` (S5.2).
    Raids {
        day: u8,
    },
    /// Before play, free drop scenario: the Allied seat seals one plan per drop (3.3.2).
    Plans {
        next: u8,
    },
    /// 0700: the weather roll (1.2).
    Weather,
    /// 0900 or 1100 in fog: the roll to clear it (1.2).
    Fog,
    /// The Allied seat places its Air Drop? counters on one of two turns (3.2).
    AirDrop {
        candidates: [usize; 2],
    },
    /// After a successful drop zone change (3.6): the Allied seat seals a new plan for each
    /// remaining drop.
    Replan {
        next: u8,
    },
    /// The Allied seat places the supply drop's Air Drop? counters on 1300 or 1500 (3.5).
    SupplyDrop {
        candidates: [usize; 2],
    },
    /// Night 17 September: the German seals KG Huber's master (S5.5).
    Huber,
    /// 1900 step 1: the Club Route marker (4.2).
    Route,
    /// 1900 step 2: the Allied player rolls for the next Formation on the Club Route line
    /// (4.3.1–4.3.2), stating the Dispatch Points he pays.
    Release,
    /// 1900 step 4: the German player moves his off-map formations (5.1), campaign only.
    OffMap,
    /// Step 6: a side spends Dispatch Points on Formation Activation chits (S6.2, S6.4).
    Buy {
        side: Side,
    },
    /// Step 9: the chit drawn from the mug is its owner's impulse.
    Activation,
    Over,
}

/// One airborne drop (3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drop {
    pub number: u8,
    /// The day it is due; moved a day later by rain, overcast, uncleared fog (3.2).
    pub day: u8,
    /// The turn it came in, once it has.
    pub arrived: Option<(u8, usize)>,
    /// The free drop plan's commitment (sealed until the drop).
    pub plan_commitment: Option<String>,
    /// The plan, once revealed: `formation:zone` pairs.
    pub plan: Option<Vec<String>>,
    /// The day a drop zone change replanned it (3.6: that day's drop comes at 1500 or 1700).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replanned_day: Option<u8>,
}

/// The 101st's supply by air (3.5, S6.1.1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Supply {
    /// The supply drop zone (`data/key_hexes.txt`; 3.6 may reassign it).
    pub dz: String,
    /// SDZ Closed: the last supply drop was interdicted (TQ −1 until a clean one).
    pub interdicted: bool,
    /// The Sea Tail arrived: always in supply, no more supply drops.
    pub ended: bool,
    /// The day of the last supply drop.
    pub today: Option<u8>,
    /// The Air Drop? counters of a supply drop without reinforcements (1300 or 1500), sealed.
    pub counters: Option<AirDropCounters>,
}

/// The Air Drop? counters on the turn track (3.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AirDropCounters {
    pub day: u8,
    pub candidates: [usize; 2],
    pub commitment: String,
    /// The turn of the real drop, once flipped at the first candidate turn.
    pub revealed: Option<usize>,
}

/// A unit's position as the players moved it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub side: Side,
    pub hex: Hex,
    pub column: bool,
}

/// A unit's doings in the impulse in play (`activity.rs`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activity {
    /// It made a Movement Action.
    #[serde(default)]
    pub moved: bool,
    /// Its activation is over, by this rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    /// O3.0: it passed `tq <unit> lost`, for its next move (decision 47).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lost_checked: bool,
}

/// S3.1 Rout of an Allied Formation (decision 30): who moves its units (the Formation's
/// owner), the Formation, and its units on the map (with the Independent Units stacked with
/// them) still to move one hex or entrench.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Routing {
    pub side: Side,
    pub formation: String,
    pub units: Vec<String>,
}

/// The CRT results a unit carries, as the players stated them (decision 15): steps lost,
/// a Suppression marker, Cohesion Hits. Kept by unit name beside its position, so a move or
/// a trip off the map does not clear them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lost: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub suppressed: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cohesion: u32,
}

/// The first released version (Despatch 1.0.0).
pub const FIRST_VERSION: u32 = 16;
/// The version new games get: 17 (Despatch 1.2.0) rolls a later drop's Unit on the Drop Table
/// in its first activation (3.4.1) and opens no opportunity fire window for a hex a move did
/// not enter (2.11).
pub const NEWEST_VERSION: u32 = 17;

fn first_version() -> u32 {
    FIRST_VERSION
}

fn is_first_version(v: &u32) -> bool {
    *v == FIRST_VERSION
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Marks {
    pub fn is_clear(&self) -> bool {
        *self == Marks::default()
    }
}

/// S3.1 Air Strike: the Typhoons the Allied player places, all before any attack is rolled.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Typhoons {
    /// Typhoons still to place.
    pub left: u32,
    /// The Allied Formation chosen with the first, whose Leader they must be within 10 hexes of.
    pub formation: Option<String>,
    /// The hexes placed and not yet attacked, in order.
    pub hexes: Vec<super::hex::Hex>,
}

/// A fire rolled whose CRT result class the roller states next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub side: Side,
    pub unit: String,
    pub hex: Hex,
    pub face: u32,
    /// Fire or opportunity fire (a "9" draws an event), not an assault.
    pub fire: bool,
}

/// An assault declared, waiting for the assaulted units' opportunity fire before its die
/// (S4.4: "perform the Assault procedure as normal, starting with Opportunity Fire from the
/// Units being Assaulted").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assault {
    pub side: Side,
    pub unit: String,
    pub hex: Hex,
    /// The assaulting unit's hex, where the engine keeps it.
    pub from: Option<Hex>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub facts: String,
}

/// The Hell's Highway box on the Guards display (4.3.3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Highway {
    pub attacked: u32,
    pub closed: u32,
    /// Markers set aside by a status check.
    pub used_attacked: u32,
    pub used_closed: u32,
    /// This turn's one Attacked and one Closed (4.3.3's cap).
    pub attacked_this_turn: bool,
    pub closed_this_turn: bool,
    /// The status marker: Cut or Open.
    pub cut: bool,
}

/// A bridge's markers (2.15.3–2.15.7, 2.18).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bridge {
    pub wired_by: Option<Side>,
    pub destroyed: bool,
    /// The turn it was demolished: a Bailey comes on a later turn (2.15.7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroyed_at: Option<(u8, usize)>,
    /// A railroad bridge improved for vehicles (2.15.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub improved: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bailey: Option<Bailey>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ferry: Option<Ferry>,
    /// A wired bridge's hexes an enemy unit of the wiring side entered last since it was wired
    /// (2.15.5): none, and the wiring side still controls it; the first makes it contested and
    /// opens the demolition window (2.15.6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contested: Vec<Hex>,
    /// After a missed demolition (2.15.6): the side that missed rewires it only once it
    /// regains control (decision 39).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regain: Option<Regain>,
}

/// A side that missed a bridge's demolition roll and which of the bridge's two hexes its units
/// entered last since (2.15.5–2.15.6, decision 39).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Regain {
    pub side: Side,
    pub entered: Vec<Hex>,
}

impl Regain {
    /// The bridge's hexes the side's units have still to enter to regain control.
    pub fn still_to_enter(&self, hexes: (Hex, Hex)) -> Vec<Hex> {
        [hexes.0, hexes.1]
            .into_iter()
            .filter(|h| !self.entered.contains(h))
            .collect()
    }
}

/// The demolition window (2.15.6): the wiring side may roll for each bridge named, or pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Demolition {
    pub side: Side,
    pub bridges: Vec<String>,
    /// The enemy unit whose entry made them contested, and the hex it entered.
    pub unit: String,
    pub hex: Hex,
}

impl Bridge {
    /// May Units cross it (not destroyed, and its Bailey not Suppressed or hit)?
    pub fn open(&self) -> bool {
        !self.destroyed && !self.bailey.as_ref().is_some_and(|b| b.disabled)
    }
}

/// A Bailey Bridge unit on a demolished bridge (2.15.7): truck side up until it repairs the
/// bridge, then the bridge itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bailey {
    pub unit: String,
    /// Flipped to its Bridge side: the bridge is repaired.
    pub bridged: bool,
    /// Suppressed or a Cohesion Hit: no bridge until it rallies.
    pub disabled: bool,
}

impl Bailey {
    /// Its side and state as the boards write them (2.15.7): `bridge side, out of action`.
    pub fn state(&self) -> String {
        format!(
            "{}{}",
            if self.bridged {
                "bridge side"
            } else {
                "truck side"
            },
            if self.disabled { ", out of action" } else { "" }
        )
    }
}

/// A ferry on a destroyed bridge's hexside (2.18): the engineer under the marker at `at`,
/// the arrow pointing to `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ferry {
    pub unit: String,
    pub side: Side,
    pub at: Hex,
    pub to: Hex,
    pub suppressed: bool,
}

/// A stream bridge that may be unstable (2.11).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamBridge {
    /// Rolled for (or known): the roll is made once.
    pub checked: bool,
    pub unstable: bool,
    /// The Bulldozer placed on its southern hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulldozer: Option<String>,
    /// Men at Work markers from failed repair rolls.
    #[serde(default)]
    pub men_at_work: u32,
    /// The impulse (its number) of the last repair roll: one a Guards Division impulse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolled: Option<u32>,
}

/// An artillery park (S1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Park {
    pub id: String,
    pub side: Side,
    pub division: String,
    pub value: u32,
    /// A non-zero park's Divisional reinforcement hex.
    pub entry: Option<Hex>,
    /// Where the marker is, once placed.
    pub hex: Option<Hex>,
    /// The Indirect HE units in its box.
    pub units: Vec<String>,
}

/// A 502 PIR unit's loss that Joe Mann may negate (S6.9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MannChance {
    pub unit: String,
    pub was: Unit,
    /// Its markers before the loss.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub was_marks: Option<Marks>,
    pub class: String,
}

/// KG Huber's master (S5.5): sealed on the night of the 17th, opened at 0700 18 Sept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Huber {
    pub commitment: Option<String>,
    pub chosen: Option<String>,
}

/// An objection logged by a seat (nothing is undone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dispute {
    pub by: Side,
    pub seq: u64,
    pub text: String,
}

/// Where a German off-map formation is (5.1). Secret from the Allied player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "at", content = "where", rename_all = "snake_case")]
pub enum OffMap {
    /// In a box of its display.
    Box(String),
    /// In the map display, arriving at 0700 at reinforcement hex `letter`, from box `from`.
    Entering { letter: String, from: String },
    /// On the map.
    OnMap,
    /// Routed off the map (S3.1): beside its display until the 0700 of day `back`, then the
    /// German puts it in a box of his choosing at the next 1900 step 4.
    Routed { back: u8 },
}

/// A flank corps on its track (5.2): public.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Corps {
    /// The index of its box on the track.
    pub at: usize,
    /// Unsuccessful attempts to advance (Men at Work counters): −1 each.
    pub failures: u32,
}

/// One of the German's raid markers on the turn track (S5.2): sealed until its night.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaidMarker {
    pub day: u8,
    pub commitment: String,
    /// Once revealed: the raid, or a decoy.
    pub revealed: Option<bool>,
}

/// The Eindhoven Air Raid (S5.2) once the real raid is revealed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AirRaid {
    /// Dispatch Points the Allied player has spent to stop it (4 stop it).
    pub dp_paid: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The rules version the game was created under (`Rules::setup_version`): a change that
    /// folds a log differently is gated on it (docs/rules/where-eagles-dare.md, "Rules
    /// versions"). A state of version 16 leaves it out, as version 16 wrote its states.
    #[serde(default = "first_version", skip_serializing_if = "is_first_version")]
    pub version: u32,
    pub scenario: String,
    pub campaign: bool,
    pub day: u8,
    pub time: usize,
    pub last: (u8, usize),
    pub phase: Phase,
    pub weather: Option<Weather>,
    /// The turn the fog cleared, if it did today.
    pub fog_cleared: Option<usize>,
    pub drops: Vec<Drop>,
    pub air_drop: Option<AirDropCounters>,
    /// The side whose impulse it is in the activation phase.
    pub impulse: Side,
    /// Actions in the current impulse.
    pub actions: u32,
    /// Command Points and Dispatch Points by division (public).
    pub cp: BTreeMap<String, u32>,
    pub dp: BTreeMap<String, u32>,
    /// The coffee mug: the chits not yet drawn this turn (public contents, step 8).
    pub mug: Vec<String>,
    /// The chits bought at step 6 of this turn, before they go in the mug.
    pub bought: Vec<String>,
    /// The chit in play: its owner's impulse.
    pub chit: Option<String>,
    /// The last chit of the turn before, played first this turn (S6.4).
    pub held: Option<String>,
    /// Option `last_chit_held` (default on): the last chit of a turn opens the next (S6.4).
    pub last_chit_held: bool,
    /// The real Eindhoven Air Raid, once revealed (S5.2).
    pub air_raid: Option<AirRaid>,
    /// The raid markers (S5.2), campaign.
    pub raid_markers: Vec<RaidMarker>,
    /// The Club Route line (4.3.1): Formations released, ignored or bypassed, by id.
    pub released: Vec<String>,
    /// Successful entries this 1900 (4.3.2: +1 each, the initial one included).
    pub entries: u32,
    /// Bailey Bridge and Bulldozer units placed during the preceding game day (4.3.2).
    pub baileys_placed: u32,
    pub bulldozers_placed: u32,
    /// German off-map formations (5.1): secret, in the German view only.
    pub offmap: BTreeMap<String, OffMap>,
    /// This 1900's private numbering (5.1): for each formation, the destination each number
    /// names, drawn from the hidden stream. Secret, in the German view only.
    pub numbering: BTreeMap<String, Vec<String>>,
    /// The flank corps (5.2), public.
    pub corps: BTreeMap<String, Corps>,
    /// What the activation waits for before the impulse goes on, one answer at a time
    /// (`Wait`: a Rout to name or carry out, a lost unit to move, an event to place, the
    /// Intelligence division, the status check). Written as the fields it replaced
    /// (`wait_wire`), so the state's hash and its stored JSON are those of earlier builds.
    #[serde(flatten, with = "wait_wire")]
    pub wait: Option<Wait>,
    /// The opponent's opportunity fire window after a move: the hex acted in.
    pub window: Option<Hex>,
    /// The wiring side's demolition window (2.15.6): an enemy unit entered a hex of a bridge
    /// it wired and made it contested; it comes before the opportunity fire window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub demolition: Option<Demolition>,
    pub pending: Option<Pending>,
    pub units: BTreeMap<String, Unit>,
    /// The stated CRT results each unit carries (steps lost, Suppressed, Cohesion Hits).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub marks: BTreeMap<String, Marks>,
    /// Units of the order of battle eliminated, with the steps they lost (all of them): still
    /// their formation's losses for S3.1 Reinf and Rout (decision 21).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub eliminated: BTreeMap<String, u32>,
    /// Option `reinf_eliminated` (decision 21, default on): Reinf may bring an eliminated unit
    /// back with its recovered steps, in its formation Leader's hex.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub reinf_eliminated: bool,
    /// How each unit came into its hex when its move stated a vehicle (`wheeled`, `tracked`,
    /// or `mounted` on its organic transport): the Wheeled or Tracked Units the Column locks of
    /// 2.4, 2.8–2.10 and 2.16 bind (decision 23). A move on its legs clears it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub vehicles: BTreeMap<String, super::order::Transport>,
    /// Option `roadblock_bars_own` (decision 23, default on): any road block in a raised hex
    /// bars a Unit in Column from entering it, its owner's too (off: only the enemy's).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub roadblock_bars_own: bool,
    /// Option `release_entry` (decision 28, default on): a Unit of a Formation of the Club
    /// Route line enters only once released, in the Club Route marker's hex, in Column.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub release_entry: bool,
    /// Option `heroic_tq` (decision 29, default on): a Heroic unit's `tq` and `rally` pass on
    /// one more face than those stated for its face value (S3.1).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub heroic_tq: bool,
    /// Option `tq_modifiers` (decision 42, default on): the TQ modifiers the exclusive rules
    /// give whole divisions (S6.1.1 SDZ Closed −1 for the 101st, S6.1.2 Club Route Cut −2 for
    /// the Guards Armored, S5.1.1 KG Chill +1 for the German) change the stated passing faces
    /// of a `tq` or `rally` of a unit of the order of battle.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub tq_modifiers: bool,
    /// Glider/paradrop markers on dropped units (3.4, 3.4.2): each takes the unit one Action
    /// to remove, and it performs no other Action until all are off (decision 24).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub drop_markers: BTreeMap<String, u32>,
    /// The airborne zones marked "*" on the map (3.4.1: glider troops landing there +1): the
    /// game's data's (`key_hexes.txt` `starred`, none known), or a position's `starred`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub starred: Vec<String>,
    /// Airborne Units placed in their zone as their drop came, waiting for their Drop Table
    /// roll before any other Action (3.4.1, decision 24).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drop_awaiting: Vec<String>,
    /// The units that have rolled on the Drop Table (3.4.1: once, as they drop).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drop_rolled: Vec<String>,
    /// Club Route hexes, south to north (4.0).
    pub club_route: Vec<Hex>,
    /// The Club Route marker; `None` once removed at the end of the route (4.3.1).
    pub marker: Option<Hex>,
    /// The day the marker came off the map.
    pub route_cleared_day: Option<u8>,
    pub spur: Option<Spur>,
    pub highway: Highway,
    pub barrages: Vec<(Hex, bool, Side)>,
    pub rubble: Vec<Hex>,
    /// The event cups, public contents (S3.0).
    pub cups: BTreeMap<Side, Vec<String>>,
    /// Heroic and Dutch, back in their cup before the owner's next draw (S3.1).
    pub held_out: Vec<(Side, String)>,
    pub bridges: BTreeMap<String, Bridge>,
    /// The stream bridges of 2.11, by name.
    #[serde(default)]
    pub stream_bridges: BTreeMap<String, StreamBridge>,
    /// Impulses played so far (a chit drawn is one): one Bailey, one repair roll an impulse.
    #[serde(default)]
    pub impulse_no: u32,
    /// The impulse a Bailey Bridge was last brought in (2.15.7: one an impulse).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bailey_impulse: Option<u32>,
    /// Units removed from play (eliminated Baileys and Bulldozers, lost trucks and jeeps).
    #[serde(default)]
    pub gone: Vec<String>,
    /// Units whose organic transport is abandoned (2.15.3, 2.16, 2.18.2).
    #[serde(default)]
    pub abandoned: Vec<String>,
    /// The 101st's supply drops (3.5).
    #[serde(default)]
    pub supply: Supply,
    /// The day the drop zone change was last tried (3.6: once each 0700).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dz_tried: Option<u8>,
    /// Sealed drop plans a drop zone change replaced before they were opened (3.6): opened at
    /// the game's end, they change nothing.
    #[serde(default)]
    pub superseded: Vec<String>,
    /// KG Chill has replaced the Eindhoven Regional Command (S5.1.1).
    #[serde(default)]
    pub kg_chill: bool,
    /// Piggyback pairs, vehicle → infantry (S4).
    #[serde(default)]
    pub piggyback: BTreeMap<String, String>,
    /// Units on a divisional truck or jeep: unit → (truck|jeep, division) (S5.3, S6.3).
    #[serde(default)]
    pub riding: BTreeMap<String, (String, String)>,
    /// Trucks and jeeps removed from the game, by `kind:division`.
    #[serde(default)]
    pub assets_lost: BTreeMap<String, u32>,
    #[serde(default)]
    pub parks: Vec<Park>,
    #[serde(default)]
    pub roadblocks: Vec<(Hex, Side)>,
    #[serde(default)]
    pub rearguards: Vec<(String, Side)>,
    /// Joe Mann's window after a loss, and whether he is spent (S6.9).
    #[serde(default)]
    pub mann: Option<MannChance>,
    #[serde(default)]
    pub mann_used: bool,
    #[serde(default)]
    pub huber: Huber,
    /// The flak counters and their types (S5.4): secret, the German's, until flipped.
    #[serde(default)]
    pub flak: BTreeMap<String, String>,
    #[serde(default)]
    pub flak_flipped: bool,
    /// Optional rules (O1–O4).
    #[serde(default)]
    pub covering_fire: bool,
    #[serde(default)]
    pub alternate_chits: bool,
    #[serde(default)]
    pub german_lost: bool,
    /// Option `command_los` (decision 17): with a map, Command Range needs line of sight.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub command_los: bool,
    #[serde(default)]
    pub airborne_tanks: Option<String>,
    /// S3.1 Rout: the units under an "Entrenched" marker, until they leave their hex
    /// (decision 30).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub entrenched: BTreeSet<String>,
    /// The map given with option `map` (its terrain checks moves, set-ups and line of sight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<super::terrain::LoadedMap>,
    /// S3.1 Air Strike: the Typhoons being placed or attacking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typhoons: Option<Typhoons>,
    /// S3.1 Heroic: the unit that carries each side's marker.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub heroic: BTreeMap<Side, String>,
    /// S3.1 Dutch: the hex of each side's marker.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dutch: BTreeMap<Side, Hex>,
    /// S3.1 Minefields on the map, until an engineer removes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub minefields: Vec<Hex>,
    /// The Lost 82nd AB units brought in by Reinf (S3.1): finite, never brought in twice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost_82nd_in: Vec<String>,
    /// S3.1 Reinf: the Allied formation whose one lost step was recovered; one step of a Lost
    /// 82nd AB unit may now come in with its Leader.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reinf_one: Option<String>,
    /// Units that passed the TQ check to leave a Minefield, until they move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mine_passed: Vec<String>,
    /// An assault declared, its die drawn once the assaulted units' window closes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assault: Option<Assault>,
    /// What each unit has done in the impulse in play (`activity.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub activity: BTreeMap<String, Activity>,
    pub disputes: Vec<Dispute>,
    /// Each side's public standing watch list (`watch`): the hexes where an enemy action opens
    /// its opportunity fire window. A side not here watches every hex.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub watch: BTreeMap<Side, BTreeSet<Hex>>,
    pub resigned: Option<Side>,
    pub over: bool,
}

impl State {
    /// O3.0: has the unit passed a lost check in this impulse, not yet used by a move?
    pub fn lost_checked(&self, unit: &str) -> bool {
        self.activity.get(unit).is_some_and(|a| a.lost_checked)
    }

    /// Does this side watch the hex (its standing watch list, every hex by default)?
    pub fn watches(&self, side: Side, hex: Hex) -> bool {
        self.watch.get(&side).is_none_or(|w| w.contains(&hex))
    }

    /// Who moves the lost unit: the enemy of the Lost event's drawer, or the Allied (O3.0).
    pub fn lost_mover(&self) -> Side {
        self.lost_event().unwrap_or(Side::Allied)
    }

    pub fn clock(&self) -> String {
        format!("{} {} Sept", TURNS[self.time], self.day)
    }

    /// The drop due today that has not come, if any.
    pub fn drop_due(&self) -> Option<&Drop> {
        self.drops
            .iter()
            .find(|d| d.arrived.is_none() && d.day == self.day)
    }

    pub fn on_club_route(&self, hex: Hex) -> bool {
        self.club_route.contains(&hex)
    }
}

/// One answer the activation waits for (S3.1 events, O3.0, 4.3.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wait {
    /// S3.1 Rout drawn: this side names the Formation that routs, or passes.
    Rout { side: Side },
    /// S3.1 Rout of an Allied Formation: its units still to move one hex out of the enemy's
    /// Fire Zones, or entrench, with no opportunity fire (decision 30).
    Routing(Routing),
    /// A lost unit to move: by the enemy of the Lost event's drawer (S3.1, `event` the side
    /// that moves it), or by the Allied player after a failed O3.0 check (`event` none).
    Lost { unit: String, event: Option<Side> },
    /// S3.1: the event a side places now (heroic, dutch, minefield, rally, reinf, ambush,
    /// explosion, lost, air-strike).
    Placing { side: Side, event: String },
    /// The Intelligence event drawn (S3.1): this side names the division that gains 6 CP, 2 DP.
    Intelligence { side: Side },
    /// The Guards Division chit just came up: the German may ask the status check (4.3.3).
    StatusCheck,
}

/// `State.wait` is written as the fields it replaced (`status_window`, `intelligence`, `rout`,
/// `routing`, `lost_event`, `placing`, `lost`), with their serde attributes, so the canonical
/// JSON (and the state hash recorded in released logs) is byte for byte the same and stored
/// snapshots still load. A stored state holding two of them is refused by name.
pub mod wait_wire {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Routing, Side, Wait};

    #[derive(Default, Serialize, Deserialize)]
    struct Fields {
        #[serde(default)]
        status_window: bool,
        #[serde(default)]
        intelligence: Option<Side>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rout: Option<Side>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        routing: Option<Routing>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lost_event: Option<Side>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        placing: Option<(Side, String)>,
        #[serde(default)]
        lost: Option<String>,
    }

    pub fn serialize<S: Serializer>(w: &Option<Wait>, s: S) -> Result<S::Ok, S::Error> {
        let mut f = Fields::default();
        match w.clone() {
            None => {}
            Some(Wait::Rout { side }) => f.rout = Some(side),
            Some(Wait::Routing(r)) => f.routing = Some(r),
            Some(Wait::Lost { unit, event }) => {
                f.lost = Some(unit);
                f.lost_event = event;
            }
            Some(Wait::Placing { side, event }) => f.placing = Some((side, event)),
            Some(Wait::Intelligence { side }) => f.intelligence = Some(side),
            Some(Wait::StatusCheck) => f.status_window = true,
        }
        f.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Wait>, D::Error> {
        let f = Fields::deserialize(d)?;
        if f.lost_event.is_some() && f.lost.is_none() {
            return Err(D::Error::custom(
                "lost_event names the side moving a lost unit, and no unit is lost",
            ));
        }
        let all = [
            f.status_window
                .then_some(("status_window", Wait::StatusCheck)),
            f.intelligence
                .map(|side| ("intelligence", Wait::Intelligence { side })),
            f.rout.map(|side| ("rout", Wait::Rout { side })),
            f.routing.map(|r| ("routing", Wait::Routing(r))),
            f.placing
                .map(|(side, event)| ("placing", Wait::Placing { side, event })),
            f.lost.map(|unit| {
                (
                    "lost",
                    Wait::Lost {
                        unit,
                        event: f.lost_event,
                    },
                )
            }),
        ];
        let mut set: Vec<(&str, Wait)> = all.into_iter().flatten().collect();
        if set.len() > 1 {
            let names: Vec<&str> = set.iter().map(|(n, _)| *n).collect();
            return Err(D::Error::custom(format!(
                "the state waits for {} at once: one of them at a time",
                names.join(" and ")
            )));
        }
        Ok(set.pop().map(|(_, w)| w))
    }
}
