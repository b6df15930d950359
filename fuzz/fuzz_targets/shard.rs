#![no_main]
//! Fuzz target: see `fiveup_fuzz::shard`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fiveup_fuzz::shard(data));
