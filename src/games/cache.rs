//! One cache of folded games, inside `Games`: every reader and the move path load a game through
//! it, so a move folds only its own events, at seq 10 as at seq 10,000.
//!
//! An entry is a game folded up to some seq, with the record, seats, secrets and events that
//! `Loaded` hands out. It is never trusted to be the latest: every load asks the store for the
//! events after the entry's seq (one query) and folds them on, so a move made by another
//! process on the same database is seen by the next load here. A move alone plays on the entry
//! without asking (`moves`): its append names the seq it expects, and the store refuses it
//! (`Stale`) if another process got there first. The store's `expected_seq` check
//! stays the only guard between processes; the cache only spares the re-fold of what is already
//! folded. Events never change once appended, so a fold named by its next seq stays true.
//!
//! Bounded by games and by (estimated) bytes, both configurable (`DESPATCH_FOLD_CACHE_GAMES`,
//! `DESPATCH_FOLD_CACHE_MB`); past either bound the least recently used games go first.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::secrets::GameSecrets;
use super::table::Folded;
use super::Loaded;
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::store::{GameRecord, SeatRecord, SecretRecord};

/// How much the cache may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Games at most (0: cache nothing).
    pub games: usize,
    /// Estimated bytes at most, of all entries together.
    pub bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            games: 1000,
            bytes: 256 << 20,
        }
    }
}

impl Limits {
    /// Reads `DESPATCH_FOLD_CACHE_GAMES` (default 1000) and `DESPATCH_FOLD_CACHE_MB` (default
    /// 256). A value that does not parse is reported and the default used.
    pub fn from_env() -> Limits {
        let default = Limits::default();
        let read = |name: &str, default: usize| match std::env::var(name) {
            Err(_) => default,
            Ok(text) => text.trim().parse().unwrap_or_else(|_| {
                tracing::warn!(
                    "{name}='{text}' is not a whole number; using the default, {default}"
                );
                default
            }),
        };
        Limits {
            games: read("DESPATCH_FOLD_CACHE_GAMES", default.games),
            bytes: read("DESPATCH_FOLD_CACHE_MB", default.bytes >> 20).saturating_mul(1 << 20),
        }
    }
}

/// A game folded up to `game.next_seq`.
struct Entry {
    record: GameRecord,
    seats: Vec<SeatRecord>,
    /// The log from seq `log_from` on (`Loaded::tail`), shared with the `Loaded`s handed out;
    /// extended in place when no reader holds it.
    events: Arc<Vec<Event>>,
    log_from: u64,
    game: Arc<Game>,
    secrets: GameSecrets,
    /// The web pages' fold with each event's outcome lines (`table`), made when a page first
    /// shows the game and moved on by later pages from `events`; possibly behind `game`.
    page: Option<(Arc<Folded>, usize)>,
    /// The state's size, measured when the game was folded from the start.
    state_bytes: usize,
    events_bytes: usize,
    /// When it was last used, for eviction (least recently used first).
    used: u64,
}

impl Entry {
    fn bytes(&self) -> usize {
        self.state_bytes + self.events_bytes + self.page.as_ref().map_or(0, |(_, b)| *b)
    }

    fn loaded(&self) -> Loaded {
        Loaded {
            record: self.record.clone(),
            seats: self.seats.clone(),
            tail: self.events.clone(),
            log_from: self.log_from,
            game: self.game.clone(),
            secrets: self.secrets.clone(),
        }
    }
}

#[derive(Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    bytes: usize,
    tick: u64,
}

/// The cache. Clones share it.
#[derive(Clone)]
pub struct FoldCache {
    inner: Arc<Mutex<Inner>>,
    limits: Limits,
}

impl FoldCache {
    pub fn new(limits: Limits) -> FoldCache {
        FoldCache {
            inner: Arc::default(),
            limits,
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves whole entries behind (each change is one
        // insert or remove), so the map is still good to use.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The cached fold of a game, if any: possibly behind the store.
    pub fn get(&self, game_id: &str) -> Option<Loaded> {
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        let entry = inner.entries.get_mut(game_id)?;
        entry.used = tick;
        Some(entry.loaded())
    }

    /// The seq the cached fold of a game has reached, if one is kept; it holds nothing of it.
    pub fn next_seq(&self, game_id: &str) -> Option<u64> {
        let inner = self.lock();
        inner.entries.get(game_id).map(|e| e.game.next_seq)
    }

    /// The seat whose token hashes to `token_hash`, from a cached game's seats: `None` when the
    /// game is not cached, `Some(None)` when it is and no seat has that token.
    pub fn seat_by_token(&self, game_id: &str, token_hash: &str) -> Option<Option<String>> {
        let inner = self.lock();
        let entry = inner.entries.get(game_id)?;
        Some(
            entry
                .seats
                .iter()
                .find(|s| s.token_hash == token_hash)
                .map(|s| s.seat.clone()),
        )
    }

    /// How many games it holds, and their estimated bytes.
    pub fn size(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.entries.len(), inner.bytes)
    }

    /// Keeps a game loaded cold (its whole log, or a snapshot and the events after it), unless
    /// a fold at least as far along is kept already.
    pub fn put(&self, l: &Loaded) {
        let state_bytes = value_bytes(&l.game.ruleset.state_json(&l.game.state));
        let events_bytes = l.tail.iter().map(event_bytes).sum();
        let mut inner = self.lock();
        let ahead = inner
            .entries
            .get(l.record.game_id.as_str())
            .is_some_and(|e| e.game.next_seq >= l.game.next_seq);
        if ahead {
            return;
        }
        inner.tick += 1;
        let entry = Entry {
            record: l.record.clone(),
            seats: l.seats.clone(),
            events: l.tail.clone(),
            log_from: l.log_from,
            game: l.game.clone(),
            secrets: l.secrets.clone(),
            page: None,
            state_bytes,
            events_bytes,
            used: inner.tick,
        };
        self.insert(&mut inner, entry);
    }

    /// Moves a cached fold at `from` on to `game`, which folded `events` (seqs `from`…) onto it:
    /// after this process appended them, or after a load found them appended by another.
    /// `secrets` are the secret rows those events came with (a move's), or `None` with the
    /// game's secrets read again (`reloaded`). Returns whether the cache now holds a fold at
    /// least as far along (`get` hands it out); false when it held no fold at `from` (evicted).
    /// A move, which has its answer already, reads nothing back.
    pub fn advance(
        &self,
        game_id: &str,
        from: u64,
        game: Game,
        events: Vec<Event>,
        secrets: Secrets<'_>,
    ) -> bool {
        let added: usize = events.iter().map(event_bytes).sum();
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        let Some(mut entry) = inner.entries.remove(game_id) else {
            return false;
        };
        inner.bytes -= entry.bytes();
        if entry.game.next_seq != from || game.next_seq != from + events.len() as u64 {
            let ahead = entry.game.next_seq > from;
            self.insert(&mut inner, entry);
            return ahead;
        }
        // Extended in place unless a reader holds these events now; then copied once.
        Arc::make_mut(&mut entry.events).extend(events);
        entry.events_bytes += added;
        entry.record.next_seq = game.next_seq;
        entry.record.ended = game.ended;
        entry.game = Arc::new(game);
        match secrets {
            Secrets::Written(rows) => entry.secrets.add(rows),
            Secrets::Reloaded(all) => entry.secrets = all,
        }
        entry.used = tick;
        self.insert(&mut inner, entry);
        true
    }

    /// Puts the events a cold load from a snapshot did not read (`head`: seqs 0… up to the
    /// entry's `log_from`) before the entry's, so that the next reader of the whole log finds it
    /// here. Nothing changes if the entry is gone or holds another part of the log.
    pub(super) fn fill_log(&self, game_id: &str, head: &[Event]) {
        let added: usize = head.iter().map(event_bytes).sum();
        let mut inner = self.lock();
        let Some(mut entry) = inner.entries.remove(game_id) else {
            return;
        };
        inner.bytes -= entry.bytes();
        if entry.log_from == head.len() as u64 && entry.log_from > 0 {
            let mut whole = head.to_vec();
            whole.extend(entry.events.iter().cloned());
            entry.events = Arc::new(whole);
            entry.log_from = 0;
            entry.events_bytes += added;
        }
        self.insert(&mut inner, entry);
    }

    /// The pages' fold of a game, if one is kept, moved on first to `upto` by `events` (the
    /// game's log from seq `from` on). At most `PAGE_IN_PLACE` events behind, it is moved on in
    /// place under the cache's lock, so that it is not copied to be moved on by an event or two.
    /// Further behind, it is taken out of the cache, moved on outside the lock and put back —
    /// still in place, never copied: a notice composed every poll of a game moving fast finds
    /// it a poll behind, and a copy of a long game's fold for each would cost more than the
    /// moves (issue 16). Only a page or notice still holding the fold makes it a copy (handed
    /// back as it is, for the caller to copy). A fold ahead is handed back as it is.
    pub(super) fn page_moved_on(
        &self,
        game_id: &str,
        upto: u64,
        events: &[Event],
        from: u64,
    ) -> Option<Arc<Folded>> {
        let mut inner = self.lock();
        let Inner { entries, bytes, .. } = &mut *inner;
        let entry = entries.get_mut(game_id)?;
        let (page, page_bytes) = entry.page.as_mut()?;
        let at = page.next_seq();
        let behind = upto.saturating_sub(at);
        if behind == 0 || at < from || upto - from > events.len() as u64 {
            return Some(page.clone());
        }
        let after = &events[(at - from) as usize..(upto - from) as usize];
        if behind > PAGE_IN_PLACE {
            let (page, page_bytes) = entry.page.take().expect("matched above");
            let mut folded = match Arc::try_unwrap(page) {
                Ok(folded) => folded,
                Err(shared) => {
                    entry.page = Some((shared.clone(), page_bytes));
                    return Some(shared);
                }
            };
            *bytes -= page_bytes;
            drop(inner);
            // Half moved on: let it go; the next page folds afresh and says what is wrong.
            folded.fold(after).ok()?;
            let folded = Arc::new(folded);
            self.put_page(game_id, folded.clone(), folded.bytes());
            return Some(folded);
        }
        let folded = Arc::make_mut(page);
        if folded.fold(after).is_err() {
            *bytes -= *page_bytes;
            entry.page = None;
            return None;
        }
        let now = folded.bytes();
        *bytes = *bytes - *page_bytes + now;
        *page_bytes = now;
        Some(page.clone())
    }

    /// Keeps the pages' fold of a game (`bytes` its estimated size) beside the game, unless the
    /// game is not kept or the fold kept is as good: as far along with as much of the log (a
    /// fold from the start is better than one from a snapshot).
    pub(super) fn put_page(&self, game_id: &str, page: Arc<Folded>, bytes: usize) {
        let mut inner = self.lock();
        let Some(mut entry) = inner.entries.remove(game_id) else {
            return;
        };
        inner.bytes -= entry.bytes();
        let better = entry.page.as_ref().is_none_or(|(kept, _)| {
            let further = page.next_seq() > kept.next_seq();
            let longer = page.log_from() < kept.log_from();
            page.log_from() <= kept.log_from() && further
                || longer && page.next_seq() >= kept.next_seq()
        });
        if better && page.next_seq() <= entry.game.next_seq {
            entry.page = Some((page, bytes));
        }
        self.insert(&mut inner, entry);
    }

    /// Drops a game's fold (one that no longer folds on).
    pub fn forget(&self, game_id: &str) {
        let mut inner = self.lock();
        if let Some(e) = inner.entries.remove(game_id) {
            inner.bytes -= e.bytes();
        }
    }

    /// Inserts, then evicts the least recently used games until both bounds hold. An entry
    /// larger than the whole byte bound is not kept.
    fn insert(&self, inner: &mut Inner, entry: Entry) {
        if self.limits.games == 0 || entry.bytes() > self.limits.bytes {
            return;
        }
        inner.bytes += entry.bytes();
        inner
            .entries
            .insert(entry.record.game_id.to_string(), entry);
        while inner.entries.len() > self.limits.games || inner.bytes > self.limits.bytes {
            let oldest = inner
                .entries
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(id, _)| id.clone());
            let Some(oldest) = oldest else { break };
            if let Some(e) = inner.entries.remove(&oldest) {
                inner.bytes -= e.bytes();
            }
        }
    }
}

/// How far behind the pages' fold may be to be moved on under the cache's lock
/// (`FoldCache::page_moved_on`); further behind, it is moved on outside the lock.
const PAGE_IN_PLACE: u64 = 64;

/// The secrets that go with events folded onto a cached game.
pub enum Secrets<'a> {
    /// The rows this process wrote with them (its own move).
    Written(&'a [SecretRecord]),
    /// The game's secrets as the store holds them now.
    Reloaded(GameSecrets),
}

/// About how many bytes an event takes in memory: its texts, its payload and its dice.
fn event_bytes(e: &Event) -> usize {
    std::mem::size_of::<Event>()
        + e.game_id.len()
        + e.kind.len()
        + e.seat.len()
        + e.recorded_at.len()
        + e.prev_hash.len()
        + e.hash.len()
        + value_bytes(&e.payload)
        + e.dice.as_ref().map_or(0, |d| 64 + d.rolls.len() * 48)
}

/// About how many bytes a JSON value takes in memory.
fn value_bytes(v: &Value) -> usize {
    std::mem::size_of::<Value>()
        + match v {
            Value::String(s) => s.len(),
            Value::Array(items) => items.iter().map(value_bytes).sum(),
            Value::Object(map) => map.iter().map(|(k, v)| 24 + k.len() + value_bytes(v)).sum(),
            _ => 0,
        }
}
