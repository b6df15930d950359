#![no_main]
//! Fuzz target: see `fiveup_fuzz::game_records`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fiveup_fuzz::game_records(data));
