#![no_main]
//! Fuzz target: see `fiveup_fuzz::position_text`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fiveup_fuzz::position_text(data));
