#![no_main]
//! Fuzz target: see `fiveup_fuzz::network_load`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fiveup_fuzz::network_load(data));
