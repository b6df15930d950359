//! Where a command's games are played: on threads of this machine ([`super::runner`]) or by
//! workers through a store ([`super::distributed`]). The commands hand their jobs and callbacks
//! to an [`Executor`] and need not know which.

use super::distributed::Coordinator;
use super::records::{RecordGame, TextRecord};
use super::runner::{play_games_until, GameJob, GameRunError};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Where games are played.
#[derive(Clone, Debug)]
pub enum Executor {
    /// This many games at once on this machine.
    Threads(usize),
    /// By workers, through the coordinator's store prefix.
    Store(Arc<Coordinator>),
}

impl Executor {
    /// Plays `jobs` and calls `on_finished(job index, record)` on this thread as games end (in
    /// job order on a store); [`ControlFlow::Break`] stops the run. See
    /// [`play_games_until`] and [`Coordinator::play_until`].
    pub fn play_until<S: RecordGame, I>(
        &self,
        jobs: I,
        on_finished: impl FnMut(usize, TextRecord<S>) -> ControlFlow<()>,
    ) -> Result<(), GameRunError>
    where
        I: IntoIterator<Item = GameJob<S>>,
        I::IntoIter: Send,
    {
        match self {
            Executor::Threads(n) => play_games_until(jobs, *n, on_finished),
            Executor::Store(c) => c.play_until(jobs, on_finished),
        }
    }

    /// [`Executor::play_until`] to the end.
    pub fn play<S: RecordGame, I>(
        &self,
        jobs: I,
        mut on_finished: impl FnMut(usize, TextRecord<S>),
    ) -> Result<(), GameRunError>
    where
        I: IntoIterator<Item = GameJob<S>>,
        I::IntoIter: Send,
    {
        self.play_until(jobs, |i, r| {
            on_finished(i, r);
            ControlFlow::Continue(())
        })
    }
}
