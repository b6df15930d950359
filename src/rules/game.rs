//! A game with history: status, repetition, fifty-move rule, bare kings (in progress).
