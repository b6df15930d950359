#![no_main]
//! Fuzz target: see `fiveup_fuzz::player_spec`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fiveup_fuzz::player_spec(data));
