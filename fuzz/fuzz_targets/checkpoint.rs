#![no_main]
//! Fuzz target: see `fiveup_fuzz::checkpoint`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fiveup_fuzz::checkpoint(data));
