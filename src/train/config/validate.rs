//! The range checks of [`TrainConfig`]: one function per section, each range written once, as the
//! text its error shows ([`range`]); the checks that are not plain ranges use [`check`].

use super::TrainConfig;
use crate::catalog::GameId;
use crate::rules::{Ruleset, Variant};
use crate::tomlcfg::{check, in_range, range, ConfigError};

impl TrainConfig {
    /// The game `rules.ruleset` names.
    pub fn game(&self) -> Result<GameId, ConfigError> {
        let range = || ConfigError::Range {
            key: "rules.ruleset".into(),
            value: format!("{:?}", self.rules.ruleset),
            allowed: "\"fiveup\", \"fiveup-2001\", \"raumschach\", \"quasi-alice\", \"mixed3d\"".into(),
        };
        self.rules.ruleset.trim().parse::<GameId>().ok().ok_or_else(range)
    }

    /// The validated 5x5x5 variant (another game is an error naming it).
    pub fn variant(&self) -> Result<Variant, ConfigError> {
        let rs: Ruleset = match self.game()? {
            GameId::FiveUp(rs) => rs,
            other => {
                return Err(ConfigError::Range {
                    key: "rules.ruleset".into(),
                    value: format!("{:?}", self.rules.ruleset),
                    allowed: format!("a 5x5x5 game ({}) for this setting, not {other}", crate::catalog::FIVE_UP_NAMES),
                })
            }
        };
        Variant::new(rs, self.rules.castling, self.rules.hypercylinder).map_err(|e| ConfigError::Range {
            key: "rules".into(),
            value: format!(
                "{} castling={} hypercylinder={}",
                self.rules.ruleset, self.rules.castling, self.rules.hypercylinder
            ),
            allowed: e.to_string(),
        })
    }

    /// Checks every range; the error names the first bad key and what is allowed.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let variant = match self.game()? {
            GameId::FiveUp(_) => Some(self.variant()?),
            GameId::QuasiAlice | GameId::Mixed3d => {
                self.validate_other_game()?;
                None
            }
        };
        range("generations", self.generations, "0..=100000")?;
        let n = &self.network;
        range("network.blocks", n.blocks, "1..=64")?;
        range("network.channels", n.channels, "4..=1024")?;
        check(
            ["full", "factorised"].contains(&n.block.as_str()),
            "network.block",
            format!("{:?}", n.block),
            "\"full\", \"factorised\"",
        )?;
        self.validate_selfplay(variant)?;
        self.validate_training()?;
        self.validate_replay()?;
        self.validate_bootstrap()?;
        self.validate_heldout()?;
        self.validate_evaluation()
    }

    /// A game other than the 5x5x5 ones: the settings built only for those are off.
    fn validate_other_game(&self) -> Result<(), ConfigError> {
        let game = self.rules.ruleset.trim();
        let off = |key: &str, on: bool, value: String| {
            check(!on, key, value, &format!("off for {game} (built for the 5x5x5 games only)"))
        };
        off("rules.castling", self.rules.castling, self.rules.castling.to_string())?;
        off("rules.hypercylinder", self.rules.hypercylinder, self.rules.hypercylinder.to_string())?;
        let s = &self.selfplay;
        off("selfplay.nnue_leaf", s.nnue_leaf != 0.0, s.nnue_leaf.to_string())?;
        off("bootstrap.enabled", self.bootstrap.enabled, self.bootstrap.enabled.to_string())?;
        off("heldout.positions", self.heldout.positions != 0, self.heldout.positions.to_string())
    }

    /// `[selfplay]` (`variant`: the 5x5x5 variant, `None` for another game).
    fn validate_selfplay(&self, variant: Option<Variant>) -> Result<(), ConfigError> {
        let s = &self.selfplay;
        range("selfplay.games_per_generation", s.games_per_generation, "1..=10000000")?;
        range("selfplay.concurrent_games", s.concurrent_games, "1..=65536")?;
        range("selfplay.games_per_shard", s.games_per_shard, "1..=100000")?;
        range("selfplay.full_simulations", s.full_simulations, "1..=1000000")?;
        range("selfplay.cheap_simulations", s.cheap_simulations, "1..=1000000")?;
        range("selfplay.full_search_prob", s.full_search_prob, "(0, 1]")?;
        range("selfplay.gumbel_m", s.gumbel_m, "1..=256")?;
        range("selfplay.max_batch", s.max_batch, "1..=255")?;
        range("selfplay.quiescence", s.quiescence, "[0, 4] (0 = off)")?;
        range("selfplay.nnue_leaf", s.nnue_leaf, "[0, 1] (0 = off)")?;
        range("selfplay.hand_leaf", s.hand_leaf, "[0, 1] (0 = off)")?;
        check(
            s.nnue_leaf == 0.0 || variant.is_some_and(|v| crate::engine::nnue::ships(v.ruleset)),
            "selfplay.nnue_leaf",
            s.nnue_leaf,
            &format!("0: no NNUE network is shipped for {}", self.rules.ruleset.trim()),
        )?;
        let depths = format!("0..={}", crate::mcts::quiesce::MAX_LEAF_DEPTH);
        range("selfplay.nnue_leaf_depth", s.nnue_leaf_depth, &depths)?;
        check(
            s.nnue_leaf_depth == 0 || s.nnue_leaf > 0.0,
            "selfplay.nnue_leaf_depth",
            s.nnue_leaf_depth,
            "0 when selfplay.nnue_leaf is 0 (the leaf search evaluates with the NNUE)",
        )?;
        range("selfplay.random_opening_plies", s.random_opening_plies, "0..=100")?;
        range("selfplay.temperature_plies", s.temperature_plies, "0..=1000")?;
        range("selfplay.temperature", s.temperature, "(0, 10]")?;
        range("selfplay.ply_cap", s.ply_cap, "1..=100000")?;
        range("selfplay.ply_cap_adjudicate", s.ply_cap_adjudicate, "[0, 50] pawns (0 = draw)")?;
        let resign = "(0.5, 1)";
        check(
            s.resign_loss == 0.0 || in_range(s.resign_loss, resign),
            "selfplay.resign_loss",
            s.resign_loss,
            &format!("0 (never) or {resign}, e.g. 0.95"),
        )?;
        range("selfplay.resign_consecutive", s.resign_consecutive, "1..=100")?;
        let timeout = 86_400;
        check(
            s.worker_timeout_s <= timeout,
            "selfplay.worker_timeout_s",
            s.worker_timeout_s,
            &format!("0 (never) to {timeout} seconds"),
        )?;
        range("selfplay.resign_playthrough", s.resign_playthrough, "[0, 1]")
    }

    /// `[training]`.
    fn validate_training(&self) -> Result<(), ConfigError> {
        let t = &self.training;
        range("training.batch_size", t.batch_size, "1..=65536")?;
        range("training.steps_per_generation", t.steps_per_generation, "0..=10000000")?;
        range("training.samples_per_position", t.samples_per_position, "(0, 1000]")?;
        range("training.min_steps", t.min_steps, "0..=10000000")?;
        range("training.lr", t.lr, "(0, 10]")?;
        range("training.lr_warmup_steps", t.lr_warmup_steps, "0..=10000000")?;
        range("training.lr_decay_steps", t.lr_decay_steps, "1..=1000000000")?;
        range("training.lr_final_fraction", t.lr_final_fraction, "(0, 1]")?;
        range("training.momentum", t.momentum, "[0, 1)")?;
        range("training.weight_decay", t.weight_decay, "[0, 1]")?;
        range("training.clip_norm", t.clip_norm, "[0, 1e6] (0 = off)")?;
        for (k, v) in [
            ("policy_weight", t.policy_weight),
            ("value_weight", t.value_weight),
            ("moves_left_weight", t.moves_left_weight),
        ] {
            range(&format!("training.{k}"), v, "[0, 100]")?;
        }
        range("training.value_target_mix", t.value_target_mix, "[0, 1]")?;
        range("training.ema_decay", t.ema_decay, "[0, 1) (0 = off)")?;
        range("training.surprise_share", t.surprise_share, "[0, 1]")?;
        range("training.checkpoint_every", t.checkpoint_every, "1..=10000000")?;
        range("training.keep_checkpoints", t.keep_checkpoints, "1..=1000")?;
        range("training.log_every", t.log_every, "1..=10000000")
    }

    /// `[replay]`.
    fn validate_replay(&self) -> Result<(), ConfigError> {
        let r = &self.replay;
        range("replay.window_min", r.window_min, "1..=1000000000")?;
        range("replay.window_alpha", r.window_alpha, "(0, 1]")?;
        range("replay.window_beta", r.window_beta, "[0, 10]")?;
        check(r.window_max >= r.window_min, "replay.window_max", r.window_max, "≥ replay.window_min")?;
        check(r.min_samples <= r.window_max, "replay.min_samples", r.min_samples, "0..=replay.window_max")
    }

    /// `[bootstrap]`.
    fn validate_bootstrap(&self) -> Result<(), ConfigError> {
        let b = &self.bootstrap;
        range("bootstrap.games", b.games, "0..=10000000")?;
        range("bootstrap.random_opening_plies", b.random_opening_plies, "0..=100")?;
        range("bootstrap.ply_cap", b.ply_cap, "1..=100000")?;
        range("bootstrap.policy_smoothing", b.policy_smoothing, "[0, 1)")?;
        range("bootstrap.score_weight", b.score_weight, "[0, 1]")?;
        range("bootstrap.score_scale", b.score_scale, "(0, 100000]")?;
        range("bootstrap.steps", b.steps, "0..=10000000")?;
        range("bootstrap.mix_share", b.mix_share, "[0, 1]")?;
        range("bootstrap.mix_halflife", b.mix_halflife, "(0, 1e6] generations")?;
        range("bootstrap.lr", b.lr, "[0, 10] (0 = training.lr)")?;
        check(
            !b.engine.trim().is_empty(),
            "bootstrap.engine",
            format!("{:?}", b.engine),
            "a player spec such as \"ab:depth=2\"",
        )
    }

    /// `[heldout]`.
    fn validate_heldout(&self) -> Result<(), ConfigError> {
        let h = &self.heldout;
        range("heldout.positions", h.positions, "0..=1000000")?;
        range("heldout.opening_plies", h.opening_plies, "0..=100")?;
        range("heldout.stride", h.stride, "1..=1000")?;
        range("heldout.ply_cap", h.ply_cap, "1..=100000")
    }

    /// `[evaluation]`.
    fn validate_evaluation(&self) -> Result<(), ConfigError> {
        let e = &self.evaluation;
        range("evaluation.games_per_rung", e.games_per_rung, "0..=100000")?;
        range("evaluation.simulations", e.simulations, "1..=1000000")?;
        range("evaluation.gumbel_m", e.gumbel_m, "0..=256 (0 = selfplay.gumbel_m)")?;
        range("evaluation.ply_cap", e.ply_cap, "1..=100000")?;
        range("evaluation.adjudicate_material", e.adjudicate_material, "[0, 50] pawns (0 = draw)")?;
        check(
            e.adjudicate_material == 0.0 || self.game()? == GameId::Mixed3d,
            "evaluation.adjudicate_material",
            e.adjudicate_material,
            "0 for this game (the material judge is for mixed3d)",
        )?;
        range("evaluation.opening_plies", e.opening_plies, "0..=100")?;
        range("evaluation.concurrency", e.concurrency, "1..=256")?;
        check(
            e.sprt_elo0.is_finite() && e.sprt_elo1.is_finite() && e.sprt_elo0 < e.sprt_elo1,
            "evaluation.sprt_elo1",
            e.sprt_elo1,
            "finite and > evaluation.sprt_elo0",
        )?;
        range("evaluation.sprt_alpha", e.sprt_alpha, "(0, 0.5)")?;
        range("evaluation.gating_max_games", e.gating_max_games, "2..=100000")?;
        for (spec, elo) in &e.anchor_elo {
            let key = format!("evaluation.anchor_elo.\"{spec}\"");
            check(e.ladder.contains(spec), &key, elo, "a rung of evaluation.ladder")?;
            check(elo.is_finite(), &key, elo, "a finite Elo")?;
        }
        for (i, spec) in e.ladder.iter().enumerate() {
            check(
                !spec.trim().is_empty(),
                &format!("evaluation.ladder[{i}]"),
                format!("{spec:?}"),
                "a player spec such as \"ab:depth=1\"",
            )?;
        }
        Ok(())
    }
}
