//! Text formats: positions, moves in coordinate and figurine form, diagrams (in progress).
