//! Self-play (in progress).
