//! What the activation phase waits for before the impulse goes on: one answer at a time, each
//! kind holding what it needs (`Wait`), so a state cannot wait for two of them, nor for a lost
//! unit without knowing who moves it. The answers that may stand beside one of these stay
//! fields of `State`, answered in this order (`waiting.rs`): a die's CRT result (`pending`),
//! the demolition window (`demolition`), then a Rout (`Wait::Rout`, `Wait::Routing`), Joe Mann
//! (`mann`), then the other waits here, then the opportunity fire window (`window`).
//!
//! The type and its wire form are the state's (`state::Wait`, `state::wait_wire`); here are
//! what the chapters read of it and how they end it.
//!
//! Imports: the state's types only.

use super::state::{Routing, Side, State, Wait};

impl State {
    /// S3.1 Rout: the side that names the routed Formation now.
    pub fn rout(&self) -> Option<Side> {
        match &self.wait {
            Some(Wait::Rout { side }) => Some(*side),
            _ => None,
        }
    }

    /// S3.1 Rout of an Allied Formation: the units still to settle.
    pub fn routing(&self) -> Option<&Routing> {
        match &self.wait {
            Some(Wait::Routing(r)) => Some(r),
            _ => None,
        }
    }

    /// The lost unit to move (S3.1 Lost, O3.0).
    pub fn lost(&self) -> Option<&str> {
        match &self.wait {
            Some(Wait::Lost { unit, .. }) => Some(unit),
            _ => None,
        }
    }

    /// The Lost event (S3.1): the side moving the lost unit (none: O3.0, or no lost unit).
    pub fn lost_event(&self) -> Option<Side> {
        match &self.wait {
            Some(Wait::Lost { event, .. }) => *event,
            _ => None,
        }
    }

    /// S3.1: the side placing an event now, and the event.
    pub fn placing(&self) -> Option<(Side, &str)> {
        match &self.wait {
            Some(Wait::Placing { side, event }) => Some((*side, event)),
            _ => None,
        }
    }

    /// The side naming the Intelligence event's division (S3.1).
    pub fn intelligence(&self) -> Option<Side> {
        match &self.wait {
            Some(Wait::Intelligence { side }) => Some(*side),
            _ => None,
        }
    }

    /// Does the German's status check window stand open (4.3.3)?
    pub fn status_window(&self) -> bool {
        matches!(self.wait, Some(Wait::StatusCheck))
    }

    /// Waits for `w` now. In a debug build, says so when another answer was awaited: the
    /// kinds here exclude each other.
    pub fn ask(&mut self, w: Wait) {
        debug_assert!(
            self.wait.is_none(),
            "{w:?} asked while {:?} is awaited",
            self.wait
        );
        self.wait = Some(w);
    }

    /// Ends the wait if it is of the kind `is` picks (a wait of another kind stands).
    pub fn end_wait(&mut self, is: fn(&Wait) -> bool) {
        if self.wait.as_ref().is_some_and(is) {
            self.wait = None;
        }
    }

    /// Ends an event's placement, returning the side and the event.
    pub fn take_placing(&mut self) -> Option<(Side, String)> {
        match self.wait.take() {
            Some(Wait::Placing { side, event }) => Some((side, event)),
            other => {
                self.wait = other;
                None
            }
        }
    }
}

impl Wait {
    pub fn is_rout(&self) -> bool {
        matches!(self, Wait::Rout { .. })
    }
    pub fn is_routing(&self) -> bool {
        matches!(self, Wait::Routing(_))
    }
    pub fn is_lost(&self) -> bool {
        matches!(self, Wait::Lost { .. })
    }
    pub fn is_placing(&self) -> bool {
        matches!(self, Wait::Placing { .. })
    }
    pub fn is_intelligence(&self) -> bool {
        matches!(self, Wait::Intelligence { .. })
    }
    pub fn is_status_check(&self) -> bool {
        matches!(self, Wait::StatusCheck)
    }
}
