#![no_main]
//! Fuzz target: see `fiveup_fuzz::config_toml`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fiveup_fuzz::config_toml(data));
